"""What every editor document shares: the scenario, its file, its undo stack.

:class:`DocumentBase` owns the scenario being edited, the path of its file and
the :class:`QUndoStack` whose clean state says whether the scenario differs
from that file.  It offers what the window's file handling and
:class:`app.gui.autosave.Autosave` use: the signals :attr:`edited`,
:attr:`scenarioReplaced`, :attr:`modifiedChanged` and :attr:`pathChanged`;
:meth:`is_modified`, :meth:`display_name`, :meth:`replace`, :meth:`open`,
:meth:`save` and :meth:`text`.

Both documents push every change as one generic
:class:`app.gui.commands.EditCommand` holding engine edit records of their
map kind; a stroke (a drag) grows its command in place
(:meth:`stroke_command`).

A subclass (:class:`app.gui.document.Document` for grid maps,
:class:`app.gui.territory.document.TerritoryDocument` for territory maps)
adds its own change signals and edits, and fills the hooks: :meth:`_load`
(read a file of its kind), :meth:`_write` (save atomically), :meth:`text`
(the file text autosave writes), :meth:`apply_edits` and
:meth:`revert_edits` (have the engine carry edit records out or back and
emit what they touched), and optionally :meth:`describe_edits` (the undo
text of a step).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

C = TypeVar("C", bound=QUndoCommand)


class DocumentBase(QObject):
    edited = Signal(object)
    scenarioReplaced = Signal(object)
    modifiedChanged = Signal(bool)
    pathChanged = Signal(object)
    stepping = Signal(str, object)
    """An undo step is about to be carried out: ``"apply"`` or ``"revert"``
    and its engine edit records (the autosave logs it first)."""

    def __init__(self, scenario: Any, path: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scenario = scenario
        self.path: str | None = path
        self._stroke = 0
        self.in_step = False
        """Whether :meth:`carry` is carrying a step out (its ``edited``
        signals are the step's; any other ``edited`` is an unlogged change)."""
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.turns: Any = None
        """The document's game (an :class:`app.gui.turns.TurnController`,
        which sits above this module), set by the window's game when it is
        made; ``None`` until then."""

    def _clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)

    # -- state -----------------------------------------------------------
    def is_modified(self) -> bool:
        """Whether the scenario differs from its file (or was never saved)."""
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        return Path(self.path).name if self.path else self.scenario.name

    def new_stroke(self) -> int:
        """A fresh merge key: edits pushed with the same key while a drag
        lasts merge into one undo step."""
        self._stroke += 1
        return self._stroke

    def stroke_command(self, stroke: int | None, kind: type[C]) -> C | None:
        """The command the next edit of ``stroke`` joins, grown in place:
        the top of the undo stack when it is a ``kind`` of the same stroke
        and :meth:`QUndoStack.push` would merge into it (not the saved
        step, no redo steps above it); ``None``: push a new command.

        Strokes grow their command rather than push one per dab for Qt to
        merge because PySide6 (6.11) never frees the Python object of a
        command that ``push`` merges away, with everything it holds (see
        :mod:`app.gui.commands`)."""
        if stroke is None:
            return None
        stack = self.undo_stack
        index = stack.index()
        if index == 0 or index != stack.count() or index == stack.cleanIndex():
            return None
        top = stack.command(index - 1)
        return top if isinstance(top, kind) and getattr(top, "stroke", None) == stroke else None

    # -- files -----------------------------------------------------------
    def replace(self, scenario: Any, path: str | None, modified: bool = False) -> None:
        """Show another scenario (new map, opened file, recovered work):
        forget the undo history.  ``modified`` marks work that has no file
        yet or differs from it (a recovery), so closing asks to save it."""
        self.undo_stack.clear()
        self.scenario = scenario
        self.path = path
        self.scenarioReplaced.emit(scenario)
        self.pathChanged.emit(path)
        if modified:
            self.undo_stack.resetClean()
        else:
            self.undo_stack.setClean()
        self.modifiedChanged.emit(self.is_modified())

    def open(self, path: str) -> None:
        """Load ``path`` and show it.  Raises what :meth:`_load` raises
        (:class:`~engine.io.ScenarioError` with the loader's
        problems, or a :class:`~engine.model.ModelError` for a map of the
        other kind); the current scenario is then left untouched."""
        scenario = self._load(path)
        self.replace(scenario, str(path))

    def save(self, path: str | None = None) -> None:
        """Write the scenario (atomically) to ``path`` or its own file; marks
        the document unmodified.  Raises ``OSError`` when writing fails."""
        target = path or self.path
        if not target:
            raise ValueError("the scenario has no file yet; choose one with Save As")
        self._write(target)
        if target != self.path:
            self.path = str(target)
            self.pathChanged.emit(self.path)
        self.undo_stack.setClean()
        self.modifiedChanged.emit(False)

    def carry(self, kind: str, edits: Sequence[Any]) -> None:
        """Carry out (``"apply"``) or take back (``"revert"``) one undo
        step's edit records, announcing it first on :attr:`stepping`: the
        one path every :class:`~app.gui.commands.EditCommand` takes."""
        self.stepping.emit(kind, edits)
        self.in_step = True
        try:
            (self.apply_edits if kind == "apply" else self.revert_edits)(edits)
        finally:
            self.in_step = False

    # -- hooks -----------------------------------------------------------
    def apply_edits(self, edits: Sequence[Any]) -> None:
        """Carry out engine edit records on the scenario, in order, and emit
        what they touched (:class:`app.gui.commands.EditCommand` redo)."""
        raise NotImplementedError

    def revert_edits(self, edits: Sequence[Any]) -> None:
        """Take engine edit records back, in reverse order, and emit what
        they touched (:class:`app.gui.commands.EditCommand` undo)."""
        raise NotImplementedError

    def describe_edits(self, edits: Sequence[Any]) -> str | None:
        """The undo text of a step made of ``edits`` (read before they are
        carried out, and again as a stroke grows); ``None``: keep the text
        the step was pushed with."""
        return None

    def _load(self, path: str) -> Any:
        """Read the scenario file at ``path`` (a map of this document's kind)."""
        raise NotImplementedError

    def _write(self, path: str) -> None:
        """Write the scenario to ``path`` atomically."""
        raise NotImplementedError

    def text(self) -> str:
        """The scenario as file text (what autosave writes)."""
        raise NotImplementedError


__all__ = ["DocumentBase"]
