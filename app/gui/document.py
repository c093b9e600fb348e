"""The open scenario, its file and its undo stack.

The document owns the :class:`~engine.model.Scenario` being edited.  Every
change goes through :meth:`Document.push`, which wraps engine edits
(:mod:`engine.editing`) in one :class:`~app.gui.commands.EditCommand` on the
document's :class:`QUndoStack`; the command changes the model, and the
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
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from engine.editing import Edit, Touched
from engine.model import Scenario
from engine.scenario_io import dumps_scenario, load_scenario, save_scenario

from .commands import EditCommand


class Document(QObject):
    cellsChanged = Signal(str, object)
    layerChanged = Signal(str)
    unitsChanged = Signal(object)
    edited = Signal(object)
    scenarioReplaced = Signal(object)
    modifiedChanged = Signal(bool)
    pathChanged = Signal(object)

    def __init__(self, scenario: Scenario, path: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scenario = scenario
        self.path: str | None = path
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._stroke = 0

    def _clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)

    # -- state -----------------------------------------------------------
    def is_modified(self) -> bool:
        """Whether the scenario differs from its file (or was never saved)."""
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        return Path(self.path).name if self.path else self.scenario.name

    # -- editing ---------------------------------------------------------
    def new_stroke(self) -> int:
        """A fresh merge key: edits pushed with the same key while a drag
        lasts merge into one undo step."""
        self._stroke += 1
        return self._stroke

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
        self.undo_stack.push(EditCommand(self, text, items, stroke))
        return True

    def notify(self, touched: Touched) -> None:
        """Re-emit what an edit touched (called by the commands)."""
        for layer, cells in touched.cells.items():
            if cells and layer not in touched.whole:
                self.cellsChanged.emit(layer, cells)
        for layer in sorted(touched.whole):
            self.layerChanged.emit(layer)
        if touched.units:
            self.unitsChanged.emit(touched.units)
        self.edited.emit(touched)

    # -- files -----------------------------------------------------------
    def replace(self, scenario: Scenario, path: str | None, modified: bool = False) -> None:
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
        """Load ``path`` and show it.  Raises
        :class:`~engine.scenario_io.ScenarioError` with the loader's problems;
        the current scenario is then left untouched."""
        scenario = load_scenario(path)
        self.replace(scenario, str(path))

    def save(self, path: str | None = None) -> None:
        """Write the scenario (atomically) to ``path`` or its own file; marks
        the document unmodified.  Raises ``OSError`` when writing fails."""
        target = path or self.path
        if not target:
            raise ValueError("the scenario has no file yet; choose one with Save As")
        save_scenario(self.scenario, target)
        if target != self.path:
            self.path = str(target)
            self.pathChanged.emit(self.path)
        self.undo_stack.setClean()
        self.modifiedChanged.emit(False)

    def text(self) -> str:
        """The scenario as file text (what autosave writes)."""
        return dumps_scenario(self.scenario)
