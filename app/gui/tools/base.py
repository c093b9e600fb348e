"""What every tool shares: the tool lifecycle, and the grid editor's state.

A tool is a small class with a fixed lifecycle (Tiled's ``AbstractTool``):
:meth:`Tool.activate` / :meth:`Tool.deactivate` when it is chosen or left,
and :meth:`Tool.press` / :meth:`Tool.move` / :meth:`Tool.release` fed with
the canvas's :class:`~app.gui.canvas.MapMouseEvent` (map coordinates, the
cell and side under the cursor).  What a tool changes is decided by the pure
functions of :mod:`engine.editing`; the tool only pushes the resulting edits
on the document (:meth:`~app.gui.document.Document.push`), so every edit is
an undo command that changes the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QObject, Signal

from engine.grids import Cell, Layout
from engine.model import NO_SIDE, Place, Unit

from ..overlay import Overlay

if TYPE_CHECKING:
    from ..document import Document
    from .context import ToolContext


class EditorState(QObject):
    """The editor's shared choices and selection, and the few questions a
    tool asks the person (overridable, so tests answer them).

    ``terrain`` is an index into the ruleset's terrain list; ``side`` an
    index into the scenario's sides or :data:`~engine.model.NO_SIDE`."""

    terrainChanged = Signal(int)
    brushSizeChanged = Signal(int)
    sideChanged = Signal(int)
    bridgeKindChanged = Signal(str)
    selectedCellChanged = Signal(object)
    selectedUnitChanged = Signal(object)
    message = Signal(str)
    toolRequested = Signal(str)

    def __init__(self, document: Document, canvas: Any = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.canvas = canvas
        self.terrain = 0
        self.brush_size = 1
        self.side = 0 if document.scenario.sides else NO_SIDE
        self.bridge_kind = "road"
        self.selected_cell: Cell | None = None
        self.selected_unit: str | None = None
        self._layout: Layout | None = None
        document.scenarioReplaced.connect(self._scenario_replaced)

    @property
    def scenario(self):  # type: ignore[no-untyped-def]
        return self.document.scenario

    def _scenario_replaced(self, scenario: Any) -> None:
        self._layout = None
        self.set_terrain(0)
        self.set_side(0 if scenario.sides else NO_SIDE)
        self.select_unit(None)
        self.select_cell(None)

    # -- geometry --------------------------------------------------------
    def layout(self) -> Layout:
        """The canvas's layout (map coordinates of mouse events)."""
        if self.canvas is not None:
            layout = self.canvas.layout()
            if layout is not None:
                return layout  # type: ignore[no-any-return]
        if self._layout is None:
            self._layout = self.document.scenario.map.grid.make_layout(32.0)
        return self._layout

    def set_overlay(self, key: str, overlay: Overlay | None) -> None:
        if self.canvas is not None:
            self.canvas.set_overlay(key, overlay)

    # -- choices ---------------------------------------------------------
    def set_terrain(self, index: int) -> None:
        index = max(0, min(index, len(self.document.scenario.ruleset.terrain) - 1))
        if index != self.terrain:
            self.terrain = index
            self.terrainChanged.emit(index)

    def set_brush_size(self, size: int) -> None:
        size = max(1, min(9, int(size)))
        if size != self.brush_size:
            self.brush_size = size
            self.brushSizeChanged.emit(size)

    def set_side(self, index: int) -> None:
        if index != self.side:
            self.side = index
            self.sideChanged.emit(index)

    def set_bridge_kind(self, kind: str) -> None:
        if kind != self.bridge_kind:
            self.bridge_kind = kind
            self.bridgeKindChanged.emit(kind)

    def select_cell(self, cell: Cell | None) -> None:
        if cell != self.selected_cell:
            self.selected_cell = cell
            self.selectedCellChanged.emit(cell)

    def select_unit(self, unit_id: str | None) -> None:
        if unit_id != self.selected_unit:
            self.selected_unit = unit_id
            if self.canvas is not None:
                self.canvas.set_selected_unit(unit_id)
            self.selectedUnitChanged.emit(unit_id)

    def say(self, text: str) -> None:
        self.message.emit(text)

    # -- questions (dialogs by default; tests replace them) ----------------
    def ask_place(self, cell: Cell, place: Place | None) -> tuple[str, str] | None:
        """Name and code for the place at ``cell``, or ``None`` (cancelled)."""
        from ..dialogs.place import ask_place

        return ask_place(self.parent(), self.document.scenario, cell, place)

    def ask_unit(self, unit: Unit, new: bool) -> Unit | None:
        """The unit as edited in the unit dialog, or ``None`` (cancelled)."""
        from ..dialogs.unit import ask_unit

        return ask_unit(self.parent(), self.document.scenario, unit, new)


class Tool:
    """Base class of every tool, grid or territory: the lifecycle.

    A tool is made with its context (:mod:`app.gui.tools.context`), never a
    window.  ``id`` names the tool in settings and tests; ``options`` lists
    the palette options it uses (``terrain``, ``brush``, ``side``,
    ``bridge``).  Subclasses override what they need; the base class ignores
    everything.
    """

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    shortcut: ClassVar[str] = ""
    tip: ClassVar[str] = ""
    options: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx
        self.active = False

    @property
    def document(self) -> Any:
        return self.ctx.document

    def activate(self) -> None:
        self.active = True
        if self.tip:
            self.ctx.say(self.tip)

    def deactivate(self) -> None:
        self.active = False

    def press(self, ev: Any) -> None:
        """A mouse button went down (``ev.button`` is ``left`` or ``right``)."""

    def move(self, ev: Any) -> None:
        """The mouse moved, with or without a button held."""

    def release(self, ev: Any) -> None:
        """The mouse button went up."""

    def refresh(self) -> None:
        """The model changed under the tool (an edit, undo, a new map)."""


class GridTool(Tool):
    """Base class of the grid editor's tools; their context is the
    :class:`EditorState` (``state``)."""

    def __init__(self, state: EditorState) -> None:
        super().__init__(state)
        self.state = state

    @property
    def document(self) -> Document:
        return self.state.document

    def deactivate(self) -> None:
        super().deactivate()
        self.state.set_overlay("tool", None)
