"""Undo commands: each changes the model (engine objects), never the scene.

One generic command, :class:`EditCommand`, carries a list of engine edits
(:mod:`engine.editing`) — a paint dab, a fill, a laid rail, a unit move.
Edits pushed with the same stroke key merge, so a whole brush stroke is
one undo step (Tiled's paint-merge): :func:`push_edits` grows the stroke's
command in place instead of pushing a command per dab for
:meth:`QUndoCommand.mergeWith` to swallow.  After any redo or undo the
command hands what it touched to the document, which re-emits it as signals
for the views.

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

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from engine.editing import Edit, apply_edits, revert_edits

if TYPE_CHECKING:
    from .document import Document

MERGE_STROKE = 1
"""Merge id of commands that belong to a stroke (see :attr:`EditCommand.stroke`)."""


class EditCommand(QUndoCommand):
    """Carry out ``edits`` on the document's scenario (redo) and back
    (undo, in reverse order)."""

    def __init__(self, document: Document, text: str, edits: list[Edit], stroke: int | None = None) -> None:
        super().__init__(text)
        self.document = document
        self.edits: list[Edit] = list(edits)
        self.stroke = stroke

    def redo(self) -> None:
        self.document.notify(apply_edits(self.document.scenario, self.edits))

    def undo(self) -> None:
        self.document.notify(revert_edits(self.document.scenario, self.edits))

    def id(self) -> int:
        return MERGE_STROKE if self.stroke is not None else -1

    def extend(self, edits: list[Edit]) -> None:
        """Carry out more edits of the same step (the next dab of a stroke)."""
        self.document.notify(apply_edits(self.document.scenario, edits))
        self.edits.extend(edits)

    def release(self) -> None:
        """Drop the edits: Qt deletes this command (merged into another) and
        PySide keeps its Python object alive (see the module's docstring)."""
        self.edits = []

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or other.stroke is None or other.stroke != self.stroke:
            return False
        self.edits.extend(other.edits)
        other.release()  # Qt deletes ``other`` now; PySide keeps its Python object
        return True


def push_edits(document: Document, text: str, edits: list[Edit], stroke: int | None) -> None:
    """Carry out ``edits`` as a step on ``document.undo_stack``: into the
    stroke's command when it is on top (:meth:`DocumentBase.stroke_command`),
    else as a new command."""
    top = document.stroke_command(stroke, EditCommand)
    if top is not None:
        top.extend(edits)
    else:
        document.undo_stack.push(EditCommand(document, text, edits, stroke))
