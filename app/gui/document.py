"""The open scenario, its file and its undo stack.

The document owns the :class:`~engine.model.Scenario` being edited.  Every
change goes through :meth:`Document.push`, which wraps engine edits
(:mod:`engine.editing`) in one :class:`~app.gui.commands.EditCommand` on the
document's :class:`QUndoStack`; the command has the document carry them out
(:meth:`Document.apply_edits`, :meth:`Document.revert_edits`), and the
document re-emits what changed as small typed records:

* :attr:`Document.cellsChanged` ``(layer, cells)`` — cells touched in one
  layer (``terrain``, ``control``, ``rivers``, ``bridges``, ``rail``,
  ``road``, ``places``, ``units``);
* :attr:`Document.layerChanged` ``(layer)`` — a layer changed in bulk (a
  fill of many cells): repaint all of it;
* :attr:`Document.unitsChanged` ``(ids)`` — units added, moved, edited or
  deleted;
* :attr:`Document.edited` ``(Touched)`` — once per change, with everything it
  touched (previews re-run on it);
* :attr:`Document.scenarioReplaced` ``(scenario)`` — a new map (new, open,
  recover): views rebuild.

Views never edit scene items: they listen and repaint what the records name.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal

from engine.editing import Edit, Touched, UnitChange, apply_edits, revert_edits
from engine.io import dumps_scenario, load_scenario, load_text_checked, save_scenario
from engine.model import Scenario

from .commands import push_edits
from .document_base import DocumentBase


class Document(DocumentBase):
    """A grid map's document (file, undo stack and clean state:
    :class:`~app.gui.document_base.DocumentBase`)."""

    cellsChanged = Signal(str, object)
    layerChanged = Signal(str)
    unitsChanged = Signal(object)

    scenario: Scenario

    # -- editing ---------------------------------------------------------
    def push(self, text: str, edits: Sequence[Edit | None] | Edit | None, stroke: int | None = None) -> bool:
        """Carry out ``edits`` as one undo step called ``text`` (merged into
        the previous step when it has the same ``stroke``).  ``None`` entries
        are dropped; nothing is pushed when no edit is left.  Returns whether
        something was pushed."""
        if edits is None:
            return False
        items = [e for e in (edits if isinstance(edits, (list, tuple)) else [edits]) if e is not None]
        if not items:
            return False
        turns = self.turns
        units = [e for e in items if isinstance(e, UnitChange)]
        if turns is not None and units and len(units) == len(items) and turns.begun():
            # a set-up edit of units while the game is on: the game master's adjustment, journalled
            if turns.adjust(f"game master's adjustment: {text}", lambda s: apply_edits(s, units)) is None:
                return True
        push_edits(self, text, items, stroke)
        return True

    def apply_edits(self, edits: Sequence[Edit]) -> None:
        """Carry out ``edits`` and emit what they touched (a command's redo)."""
        self.notify(apply_edits(self.scenario, edits))

    def revert_edits(self, edits: Sequence[Edit]) -> None:
        """Take ``edits`` back and emit what they touched (a command's undo)."""
        self.notify(revert_edits(self.scenario, edits))

    def notify(self, touched: Touched) -> None:
        """Re-emit what an edit touched."""
        for layer, cells in touched.cells.items():
            if cells and layer not in touched.whole:
                self.cellsChanged.emit(layer, cells)
        for layer in sorted(touched.whole):
            self.layerChanged.emit(layer)
        if touched.units:
            self.unitsChanged.emit(touched.units)
        self.edited.emit(touched)

    # -- files (DocumentBase hooks) --------------------------------------
    def _load(self, path: str) -> Scenario:
        return load_text_checked(path, load_scenario)  # type: ignore[no-any-return]

    def _write(self, path: str) -> None:
        save_scenario(self.scenario, path)

    def text(self) -> str:
        """The scenario as file text (what autosave writes)."""
        return dumps_scenario(self.scenario)
