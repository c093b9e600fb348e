"""Undo commands: each changes the model (engine objects), never the scene.

One generic command, :class:`EditCommand`, carries a list of engine edits
(:mod:`engine.editing`) — a paint dab, a fill, a laid rail, a unit move.
Commands pushed with the same stroke key merge, so a whole brush stroke is
one undo step (Tiled's paint-merge, Qt's :meth:`QUndoCommand.mergeWith`).
After any redo or undo the command hands what it touched to the document,
which re-emits it as signals for the views.
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

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, EditCommand) or other.stroke is None or other.stroke != self.stroke:
            return False
        self.edits.extend(other.edits)
        return True
