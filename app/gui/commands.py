"""Undo commands: each changes the model (engine objects), never the scene.

One generic command, :class:`EditCommand`, serves both editors: it carries a
list of engine edit records — grid edits (:mod:`engine.editing`: a paint
dab, a fill, a laid rail, a unit move) or territory edits
(:mod:`engine.editing.territory`: an attribute, a feature, a border, a new
territory, a rail move).  Redo and undo hand the list to the document
(:meth:`~app.gui.document_base.DocumentBase.apply_edits` /
:meth:`~app.gui.document_base.DocumentBase.revert_edits`), which has the
engine carry it out or back and re-emits the typed record of what changed
as signals for the views.  Merge ids are one enum, :class:`MergeId`.

Edits pushed with the same stroke key merge, so a whole brush stroke is
one undo step (Tiled's paint-merge): :func:`push_edits` grows the stroke's
command in place instead of pushing a command per dab for
:meth:`QUndoCommand.mergeWith` to swallow.

Why not let Qt merge: PySide6 (6.11) never frees the Python object of a
command that :meth:`QUndoStack.push` merges into another (Qt deletes the
C++ command inside ``push``, before PySide records the stack as its owner;
the object stays referenced for good, even after the stack is cleared or
deleted).  A merged dab's object kept its list of edits, so every stroke's
cells (numpy arrays and all) outlived the undo history: the soak test's
20,000 operations grew resident memory by over 400 MB.  So no command is
created per dab; should Qt still merge one, it gives up its edits first
(:meth:`EditCommand.release`).  Commands Qt deletes otherwise (redo steps
dropped by a push, ``clear``) are freed normally.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QUndoCommand

if TYPE_CHECKING:
    from .document_base import DocumentBase


class MergeId(IntEnum):
    """The merge ids of the editors' undo commands (:meth:`QUndoCommand.id`)."""

    NONE = -1
    """Never merges (Qt's convention)."""
    STROKE = 1
    """Edits of one stroke (a drag); they merge when their stroke keys match
    (see :attr:`EditCommand.stroke`)."""


class EditCommand(QUndoCommand):
    """Carry out ``edits`` (engine edit records of the document's map kind)
    on the document's scenario (redo) and back (undo, in reverse order).
    ``text`` names the step unless the document names it from its edits
    (:meth:`~app.gui.document_base.DocumentBase.describe_edits`)."""

    def __init__(self, document: DocumentBase, text: str, edits: Sequence[Any], stroke: int | None = None) -> None:
        super().__init__(text)
        self.document = document
        self.edits: list[Any] = list(edits)
        self.stroke = stroke
        self._name()

    def _name(self) -> None:
        text = self.document.describe_edits(self.edits)
        if text is not None:
            self.setText(text)

    def redo(self) -> None:
        self.document.carry("apply", self.edits)

    def undo(self) -> None:
        self.document.carry("revert", self.edits)

    def id(self) -> int:
        return int(MergeId.STROKE if self.stroke is not None else MergeId.NONE)

    def extend(self, edits: Sequence[Any]) -> None:
        """Carry out more edits of the same step (the next dab of a stroke)."""
        self.document.carry("apply", edits)
        self.edits.extend(edits)
        self._name()

    def release(self) -> None:
        """Drop the edits: Qt deletes this command (merged into another) and
        PySide keeps its Python object alive (see the module's docstring)."""
        self.edits = []

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or other.stroke is None or other.stroke != self.stroke:
            return False
        self.edits.extend(other.edits)
        self._name()
        other.release()  # Qt deletes ``other`` now; PySide keeps its Python object
        return True


def push_edits(document: DocumentBase, text: str, edits: Sequence[Any], stroke: int | None) -> None:
    """Carry out ``edits`` as a step on ``document.undo_stack``: into the
    stroke's command when it is on top (:meth:`DocumentBase.stroke_command`),
    else as a new command."""
    top = document.stroke_command(stroke, EditCommand)
    if top is not None:
        top.extend(edits)
    else:
        document.undo_stack.push(EditCommand(document, text, edits, stroke))


class GameCommand(QUndoCommand):
    """A step of the game (:mod:`app.gui.turns`): an order given through
    :meth:`engine.turns.game.Game.give`, or an end of phase / turn.  Redo
    carries it out (the first time the controller already has, when it was
    made: :meth:`perform`), undo takes back each journal entry it made
    (:meth:`Game.undo`), so one undo step is one journal step."""

    def __init__(self, controller: Any, kind: str, order: dict[str, Any], text: str | None,
                 meta: dict[str, Any] | None = None) -> None:
        super().__init__(text or _GAME_TEXT.get(kind, "Order"))
        self.controller = controller
        self.kind = kind
        self.order = order
        self.meta = meta or {}
        """For an order: the side giving it and its orders file (``side``,
        ``source``, as :meth:`engine.turns.game.Game.give` takes them)."""
        self.count = 0
        self._done = False
        self._named = text is not None

    def perform(self) -> None:
        """Carry the step out now (raises what the game raises, changing
        nothing); the push's first redo then does nothing more."""
        entries = self.controller.run(self.kind, self.order, self.meta)
        self.count = len(entries)
        self._done = True
        if self.kind == "give" and entries and not self._named:
            self.setText(entries[0].summary)

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        entries = self.controller.run(self.kind, self.order, self.meta)
        self.count = len(entries)

    def undo(self) -> None:
        self.controller.take_back(self.count)


_GAME_TEXT = {"give": "Order", "end_phase": "End Phase", "end_turn": "End Turn", "adjust": "Game Master's Adjustment"}
