"""What an editor window does about crashes and other running Adjutants:
offering every autosave left behind, and holding the lock of the map it has
open (``docs/reliability.md``).

:class:`RecoveryMixin` is a base of
:class:`app.gui.editor_window.EditorWindow`, kept in its own module so that
file stays short; it uses the window's ``document``, ``autosave``,
``state_dir``, ``settings``, ``scenario_type``, ``show_error``,
``statusBar`` and ``_update_title``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.io import ScenarioError
from engine.model import ModelError

from .autosave import MapLocks, Recovery, describe_holder, find_recoveries, map_kind
from .dialogs.recovery import RecoveryDialog, RecoveryRow
from .windows import window_class


class RecoveryMixin:
    """Recovery and map locks for an editor window (see the module
    docstring)."""

    document: Any
    autosave: Any
    state_dir: Path | None
    settings: Any
    scenario_type: type
    show_error: Any
    statusBar: Any
    _update_title: Any

    def _as_widget(self) -> QWidget:
        """This window as the QWidget it is (the mixin is only ever mixed into
        an :class:`~app.gui.editor_window.EditorWindow`)."""
        assert isinstance(self, QWidget)
        return self

    def _init_recovery(self) -> None:
        self._other_windows: list[Any] = []
        """Windows opened from this one (recovered work), while they exist."""
        self._recovery_rows: list[RecoveryRow] = []
        self._recovery_answers: dict[Path, bool | None] | None = None
        self._held_path: str | None = None
        """The map file this window holds the lock of (:class:`MapLocks`)."""
        self.read_only = False
        """Another Adjutant had the file open: Save asks for another name."""

    # -- recovery --------------------------------------------------------
    def ask_recover(self, recovery: Recovery) -> bool | None:
        """The person's choice for one autosave: ``True`` recover it,
        ``False`` discard it, ``None`` keep it for later.  By default the
        row's choice in the recovery list (:class:`RecoveryDialog`), shown
        once for every autosave :meth:`check_recovery` found (tests replace
        this)."""
        if self._recovery_answers is None:
            self._recovery_answers = RecoveryDialog.choose(self._as_widget(), self._recovery_rows)
        return self._recovery_answers.get(recovery.data)

    def check_recovery(self) -> bool:
        """Offer every autosave left by a run that did not close normally —
        both map kinds, any number of windows and processes — and act on
        each choice (:meth:`ask_recover`); whether work was recovered.

        Recovered work opens in this window if its kind matches and this
        window holds no unsaved work, else in a new window of its kind.  An
        autosave is deleted only when discarded on purpose, or once its
        work has been recovered and autosaved again by the window now
        holding it; one that cannot be read is reported and kept."""
        rows = [self._recovery_row(rec) for rec in find_recoveries(self.state_dir)]
        if not rows:
            return False
        self._recovery_rows, self._recovery_answers = rows, None
        recovered: list[str] = []
        try:
            for row in rows:
                rec = row.recovery
                choice = self.ask_recover(rec)
                if choice is None:
                    continue
                if not choice:
                    rec.discard()
                    continue
                if row.scenario is None:
                    self.show_error("Cannot recover", f"The autosaved work on {rec.describe()} cannot be read; "
                                    f"it is kept in {rec.data}:", row.problems)
                    continue
                target = self.window_for(row.scenario)
                target._take_recovered(row.scenario, rec.original)
                if target.autosave.data_path.exists():
                    rec.discard()  # its work now lives in the new autosave
                recovered.append(rec.describe())
        finally:
            self._recovery_rows, self._recovery_answers = [], None
        if recovered:
            self.statusBar().showMessage("Recovered " + "; ".join(recovered), 10000)
        return bool(recovered)

    def _recovery_row(self, rec: Recovery) -> RecoveryRow:
        """``rec`` read for the recovery list: its scenario, kind, problems."""
        try:
            scenario, notes = rec.load()
        except ScenarioError as e:
            return RecoveryRow(rec, None, rec.kind, [str(p) for p in e.problems])
        except (ModelError, OSError, ValueError) as e:
            return RecoveryRow(rec, None, rec.kind, [str(e)])
        return RecoveryRow(rec, scenario, map_kind(scenario), notes)

    def window_for(self, scenario: Any) -> Any:
        """The window a recovered or imported ``scenario`` opens in: this one
        when it is of the right kind and holds no unsaved work, else a new
        window of its kind (kept until it is closed)."""
        if isinstance(scenario, self.scenario_type) and not self.document.is_modified():
            return self
        cls = window_class(map_kind(scenario))
        win = cls(scenario, None, self.settings, self.state_dir)
        win.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        # forget a closed window (it is deleted on the C++ side)
        win.destroyed.connect(lambda _obj=None, w=win: self._forget_opened(w))
        self._other_windows.append(win)
        win.show()
        return win

    def _forget_opened(self, win: Any) -> None:
        self._other_windows = [w for w in self._other_windows if w is not win]

    def _take_recovered(self, scenario: Any, original: str | None) -> None:
        """Show recovered work (unsaved, so closing asks to save it) and
        autosave it at once under this window's own key."""
        self.document.replace(scenario, original, modified=True)
        self.autosave.save_now()

    # -- map locks: one Adjutant at a time saves a map ---------------------
    def ask_map_locked(self, path: str, holder: dict[str, Any]) -> str:
        """Another Adjutant has ``path`` open (``holder``: what its lock file
        says): ``"read-only"`` (this window will not save over it: Save asks
        for another name) or ``"copy"`` (the map becomes an untitled copy).
        Tests replace this."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Map open in another Adjutant",
                          f"{Path(path).name} is open in {describe_holder(holder)}.", parent=self._as_widget())
        box.setInformativeText("Two editors saving one file would overwrite each other's work. Open it read-only "
                               "(Save will ask for another name) or as an untitled copy?")
        read_only = box.addButton("Open Read-Only", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Open as Copy", QMessageBox.ButtonRole.ActionRole)
        box.setDefaultButton(read_only)
        box.exec()
        return "read-only" if box.clickedButton() is read_only else "copy"

    def _path_changed(self, path: str | None) -> None:
        """The document's file changed: hold its lock, or, when another
        Adjutant holds it, ask (:meth:`ask_map_locked`)."""
        self._release_map()
        if path:
            holder = MapLocks.claim(self.state_dir, path)
            if holder is None:
                self._held_path = path
            elif self.ask_map_locked(path, holder) == "copy":
                self.document.replace(self.document.scenario, None, modified=True)  # comes back here with None
                return
            else:
                self.read_only = True
        self._update_title()

    def _release_map(self) -> None:
        self.read_only = False
        if self._held_path is not None:
            MapLocks.release(self.state_dir, self._held_path)
            self._held_path = None



__all__ = ["RecoveryMixin"]
