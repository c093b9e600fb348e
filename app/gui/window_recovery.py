"""What an editor window does about crashes and other running Adjutants:
offering every autosave left behind, holding the lock of the map it has
open, and noticing when its file changed on disk (``docs/reliability.md``).

A window remembers the file as it read or saved it (size, time, inode and
SHA-256).  When the window is activated and before Save writes the file, a
file that changed since (another program, a sync tool) is noticed: with no
unsaved work the window reloads it; with unsaved work it asks
(:meth:`RecoveryMixin.ask_disk_changed`) whether to reload the file, keep
both (this work saved as a copy beside it) or overwrite it, saying how many
journal entries the file on disk has that this window's game has not.

:class:`RecoveryMixin` is a base of
:class:`app.gui.editor_window.EditorWindow`, kept in its own module so that
file stays short; it uses the window's ``document``, ``autosave``,
``state_dir``, ``settings``, ``editor.scenario_type``, ``show_error``,
``statusBar`` and ``_update_title``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from app.locks import describe_holder
from engine.io import ScenarioError
from engine.model import ModelError

from .autosave import MapLocks, Recovery, find_recoveries, map_kind
from .dialogs.recovery import RecoveryDialog, RecoveryRow
from .windows import MANAGER


class RecoveryMixin:
    """Recovery and map locks for an editor window (see the module
    docstring)."""

    document: Any
    autosave: Any
    state_dir: Path | None
    settings: Any
    editor: Any
    show_error: Any
    statusBar: Any
    _update_title: Any

    def _as_widget(self) -> QWidget:
        """This window as the QWidget it is (the mixin is only ever mixed into
        an :class:`~app.gui.editor_window.EditorWindow`)."""
        assert isinstance(self, QWidget)
        return self

    def _init_recovery(self) -> None:
        self._recovery_rows: list[RecoveryRow] = []
        self._recovery_answers: dict[Path, bool | None] | None = None
        self._held_path: str | None = None
        """The map file this window holds the lock of (:class:`MapLocks`)."""
        self.read_only = False
        """Another Adjutant had the file open: Save asks for another name."""
        self._disk_stamp: tuple[int, int, int, str] | None = None
        """The file as this window last read or wrote it (size, mtime_ns,
        inode, SHA-256)."""
        self._checking_disk = False
        self._disk_declined: tuple[int, int, int, str] | None = None
        """The changed file as it was when the person last cancelled the
        question: activating the window does not ask again about it (Save
        does)."""

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
        if isinstance(scenario, self.editor.scenario_type) and not self.document.is_modified():
            return self
        win = MANAGER.open(map_kind(scenario), scenario, None, self.settings, self.state_dir, opener=self,
                           role="recovered")
        win.show()
        return win

    @property
    def _other_windows(self) -> list[Any]:
        """The windows opened from this one (another kind of map, recovered
        work, branches), while they exist (:data:`app.gui.windows.MANAGER`)."""
        return MANAGER.windows(opener=self)

    @property
    def branch_windows(self) -> list[Any]:
        """The branches of this window's game opened from it, while they exist."""
        return MANAGER.windows(opener=self, role="branch")

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
        self.stamp_disk()
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

    # -- the file changed on disk -----------------------------------------
    @staticmethod
    def _stamp_of(path: str, digest: bool = True) -> tuple[int, int, int, str] | None:
        try:
            st = os.stat(path)
            if not digest:
                return (st.st_size, st.st_mtime_ns, st.st_ino, "")
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns, st.st_ino, h.hexdigest())

    def stamp_disk(self) -> None:
        """Remember the document's file as it is now (just read or saved)."""
        path = self.document.path
        self._disk_stamp = self._stamp_of(path) if path else None

    def disk_changed(self) -> bool:
        """Whether the document's file differs from what this window last
        read or wrote (its contents: a file only touched is not changed)."""
        path, old = self.document.path, self._disk_stamp
        if not path or old is None:
            return False
        now = self._stamp_of(path, digest=False)
        if now is not None and now[:3] == old[:3]:
            return False
        full = self._stamp_of(path)
        if full is not None and full[3] == old[3]:
            self._disk_stamp = full
            return False
        return True

    def ask_disk_changed(self, path: str, details: list[str]) -> str:
        """The file changed on disk while this window has unsaved work:
        ``"reload"`` (drop this work, show the file), ``"copy"`` (keep both:
        this work saved as a copy beside the file), ``"overwrite"`` (save
        this work over the file) or ``"cancel"``.  Tests replace this."""
        box = QMessageBox(QMessageBox.Icon.Warning, "File changed on disk",
                          f"{Path(path).name} was changed on disk by another program since this window read it.",
                          parent=self._as_widget())
        box.setInformativeText("\n".join(details + ["Reload it (your unsaved changes here are dropped), keep both "
                                                     "(your work is saved as a copy beside it) or overwrite it?"]))
        reload = box.addButton("Reload", QMessageBox.ButtonRole.DestructiveRole)
        copy = box.addButton("Keep Both", QMessageBox.ButtonRole.AcceptRole)
        overwrite = box.addButton("Overwrite", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(copy)
        box.exec()
        clicked = box.clickedButton()
        return {id(reload): "reload", id(copy): "copy", id(overwrite): "overwrite"}.get(id(clicked), "cancel")

    def _disk_details(self, path: str) -> tuple[Any, list[str]]:
        """The file on disk (``None`` when it does not load) and what to
        tell about it: above all journal entries it has that this window's
        game has not, which overwriting would drop."""
        from engine.io import load_text_checked

        try:
            disk = load_text_checked(path)
        except (ScenarioError, ModelError, OSError, ValueError) as e:
            return None, [f"The file on disk does not load now: {str(e).splitlines()[0][:200]}"]
        mine, theirs = _journal_count(self.document.scenario), _journal_count(disk)
        if theirs > mine:
            return disk, [f"Its game journal has {theirs} entries, this window's {mine}: overwriting it would drop "
                          f"{theirs - mine} journal entr{'y' if theirs - mine == 1 else 'ies'} (orders given "
                          "elsewhere)."]
        return disk, []

    def check_disk(self, before_save: bool = False) -> bool:
        """Look whether the document's file changed on disk and act on it
        (see the module docstring); whether a Save may go on writing it
        (False after a reload, a copy or a cancel)."""
        if self._checking_disk or not self.disk_changed():
            return True
        path = self.document.path
        assert path is not None
        now = self._stamp_of(path)
        if not before_save and now is not None and now == self._disk_declined:
            return True
        self._checking_disk = True
        try:
            disk, details = self._disk_details(path)
            if not self.document.is_modified() and not before_save and disk is not None:
                answer = "reload"
            else:
                answer = self.ask_disk_changed(path, details)
            if answer == "reload" and disk is not None:
                if not isinstance(disk, self.editor.scenario_type):
                    self.show_error("Cannot reload", f"{Path(path).name} is now a map of the other kind:",
                                    ["Open it from File > Open; this window's work is kept."])
                    return False
                self.document.replace(disk, path)
                self.statusBar().showMessage(f"Reloaded {path}: it changed on disk", 10000)
                return False
            if answer == "copy":
                copy = _free_copy_name(path)
                try:
                    self.document.save(copy)
                except (OSError, ValueError) as e:
                    self.show_error("Cannot save", f"{copy} could not be written:", [str(e)])
                    return False
                self.statusBar().showMessage(f"Kept both: your work is saved as {copy}; {path} is as the other "
                                             "program left it", 10000)
                return False
            if answer == "overwrite":
                self._disk_stamp = now
                return True
            self._disk_declined = now
            return False
        finally:
            self._checking_disk = False


def _journal_count(scenario: Any) -> int:
    """How many entries the game journal in ``scenario`` has (0: none)."""
    state = getattr(scenario, "state", None)
    game = state.get("game") if isinstance(state, dict) else None
    journal = game.get("journal") if isinstance(game, dict) else None
    count = journal.get("count") if isinstance(journal, dict) else None
    return count if isinstance(count, int) else 0


def _free_copy_name(path: str) -> str:
    """``NAME (copy).json`` beside ``path``, or ``NAME (copy 2).json`` … the
    first that does not exist."""
    p = Path(path)
    n = 1
    while True:
        name = p.with_name(f"{p.stem} (copy{'' if n == 1 else f' {n}'}){p.suffix}")
        if not name.exists():
            return str(name)
        n += 1


__all__ = ["RecoveryMixin"]
