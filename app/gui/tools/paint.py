"""Painting tools: terrain brush, eraser, control brush, bucket fill,
rectangle fill and eyedropper.

A brush stroke (press, drag, release) pushes one edit per mouse event with
the same stroke key, so the undo stack merges them into one step.  A
shift-click paints a straight line (:func:`engine.editing.line_cells`) from
the last cell painted to the clicked one.  A fast drag paints every cell the
mouse passed over (:func:`engine.editing.cells_along`), not only the cells
under each mouse event.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.editing import (
    ArrayLayer,
    brush_cells,
    bucket_mask,
    cells_along,
    line_cells,
    plan_paint,
    plan_paint_mask,
    rect_cells,
    rect_mask,
)
from engine.grids import Cell
from engine.model import NO_SIDE

from ..overlay import CellMark, Overlay, PathLine
from .base import GridTool

MAX_PREVIEW_CELLS = 4000
"""Cells outlined one by one in a rectangle preview; larger ones show the frame only."""


class BrushTool(GridTool):
    """Paint terrain with a brush of 1–9 cells; right-click picks the
    terrain under the cursor."""

    id = "brush"
    name = "Terrain brush"
    shortcut = "B"
    tip = "Terrain brush: drag to paint, shift-click for a straight line, right-click picks a terrain, [ ] resize."
    options: ClassVar[tuple[str, ...]] = ("terrain", "brush")
    layer: ClassVar[ArrayLayer] = "terrain"
    undo_text = "Paint terrain"

    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self._stroke: int | None = None
        self._last_xy: tuple[float, float] | None = None
        self._last_cell: Cell | None = None
        self._value = 0

    def value(self, button: str) -> int | None:
        """What a press of ``button`` paints (``None``: the button does
        something else)."""
        return self.state.terrain if button == "left" else None

    def _footprint(self, cells: list[Cell]) -> set[Cell]:
        grid = self.document.scenario.map.grid
        out: set[Cell] = set()
        for c in cells:
            out.update(brush_cells(grid, c, self.state.brush_size))
        return out

    def _paint(self, cells: list[Cell]) -> None:
        edit = plan_paint(self.document.scenario, self.layer, self._footprint(cells), self._value)
        self.document.push(self.undo_text, edit, self._stroke)

    def press(self, ev: Any) -> None:
        if ev.cell is None:
            return
        self.state.select_cell(ev.cell)
        value = self.value(ev.button)
        if value is None:
            self.pick(ev.cell)
            return
        self._value = value
        self._stroke = self.document.new_stroke()
        if ev.shift and self._last_cell is not None:
            self._paint(line_cells(self.document.scenario.map.grid, self._last_cell, ev.cell))
        else:
            self._paint([ev.cell])
        self._last_xy = (ev.x, ev.y)
        self._last_cell = ev.cell

    def move(self, ev: Any) -> None:
        if self._stroke is not None and self._last_xy is not None:
            cells = cells_along(self.state.layout(), self.document.scenario.map.grid, self._last_xy, (ev.x, ev.y))
            if cells:
                self._paint(cells)
                self._last_cell = cells[-1]
            self._last_xy = (ev.x, ev.y)
        self.show_footprint(ev.cell)

    def release(self, ev: Any) -> None:
        self._stroke = None
        self._last_xy = None

    def deactivate(self) -> None:
        self._stroke = None
        super().deactivate()

    def pick(self, cell: Cell) -> None:
        self.state.set_terrain(self.document.scenario.map.terrain_at(cell))
        t = self.document.scenario.ruleset.terrain[self.state.terrain]
        self.state.say(f"Picked terrain {t.name}")

    def preview_color(self) -> str:
        return self.document.scenario.ruleset.terrain[self.state.terrain].color + "90"

    def show_footprint(self, cell: Cell | None) -> None:
        if cell is None:
            self.state.set_overlay("tool", None)
            return
        color = self.preview_color()
        items = tuple(CellMark(c, fill=color, outline="#ffffff", width=1.0)
                      for c in sorted(self._footprint([cell])))
        self.state.set_overlay("tool", Overlay(items))


class EraserTool(BrushTool):
    """Paint the ruleset's first terrain (the map's background)."""

    id = "eraser"
    name = "Eraser"
    shortcut = "E"
    tip = "Eraser: drag to paint the first terrain of the ruleset back."
    options: ClassVar[tuple[str, ...]] = ("brush",)
    undo_text = "Erase terrain"

    def value(self, button: str) -> int | None:
        return 0 if button == "left" else None

    def preview_color(self) -> str:
        return self.document.scenario.ruleset.terrain[0].color + "90"


class ControlTool(BrushTool):
    """Paint which side controls cells; right-drag clears control."""

    id = "control"
    name = "Control"
    shortcut = "C"
    tip = "Control: drag to paint the chosen side's control, right-drag to clear it."
    options: ClassVar[tuple[str, ...]] = ("side", "brush")
    layer = "control"
    undo_text = "Paint control"

    def value(self, button: str) -> int | None:
        return self.state.side if button == "left" else NO_SIDE

    def preview_color(self) -> str:
        sides = self.document.scenario.sides
        return sides[self.state.side].color + "90" if 0 <= self.state.side < len(sides) else "#00000040"


class BucketTool(GridTool):
    """Fill the contiguous area of the clicked cell's terrain."""

    id = "bucket"
    name = "Bucket fill"
    shortcut = "G"
    tip = "Bucket fill: click to fill the connected area of the same terrain."
    options: ClassVar[tuple[str, ...]] = ("terrain",)

    def press(self, ev: Any) -> None:
        if ev.cell is None or ev.button != "left":
            return
        self.state.select_cell(ev.cell)
        s = self.document.scenario
        edit = plan_paint_mask(s, "terrain", bucket_mask(s.map, ev.cell, "terrain"), self.state.terrain)
        if self.document.push("Fill terrain", edit):
            self.state.say(f"Filled {len(edit)} cells")  # type: ignore[arg-type]


class RectTool(GridTool):
    """Drag out a rectangle of cells (columns and rows) and fill it."""

    id = "rect"
    name = "Rectangle fill"
    shortcut = "R"
    tip = "Rectangle fill: drag from one corner to the other."
    options: ClassVar[tuple[str, ...]] = ("terrain",)

    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self._anchor: Cell | None = None
        self._end: Cell | None = None

    def press(self, ev: Any) -> None:
        if ev.cell is None or ev.button != "left":
            return
        self.state.select_cell(ev.cell)
        self._anchor = self._end = ev.cell
        self._show()

    def move(self, ev: Any) -> None:
        if self._anchor is not None and ev.cell is not None and ev.cell != self._end:
            self._end = ev.cell
            self._show()

    def release(self, ev: Any) -> None:
        if self._anchor is None:
            return
        end = ev.cell or self._end or self._anchor
        s = self.document.scenario
        edit = plan_paint_mask(s, "terrain", rect_mask(s.map.grid, self._anchor, end), self.state.terrain)
        self._anchor = self._end = None
        self.state.set_overlay("tool", None)
        self.document.push("Fill rectangle", edit)

    def _show(self) -> None:
        assert self._anchor is not None and self._end is not None
        s = self.document.scenario
        color = s.ruleset.terrain[self.state.terrain].color
        a, b = self._anchor, self._end
        rows, cols = abs(a.row - b.row) + 1, abs(a.col - b.col) + 1
        if rows * cols <= MAX_PREVIEW_CELLS:
            cells = rect_cells(s.map.grid, a, b)
            items: tuple[Any, ...] = tuple(CellMark(c, fill=color + "90", outline="#ffffff", width=1.0) for c in cells)
        else:
            c0, c1 = sorted((a.col, b.col))
            r0, r1 = sorted((a.row, b.row))
            ring = (Cell(c0, r0), Cell(c1, r0), Cell(c1, r1), Cell(c0, r1), Cell(c0, r0))
            items = (PathLine(ring, "#ffffff", 2.0, dashed=True),)
        self.state.set_overlay("tool", Overlay(items, message=f"{cols} x {rows} cells"))
        self.state.say(f"{s.map.label(a)} to {s.map.label(b)}: {cols} x {rows} cells")


class EyedropperTool(GridTool):
    """Click a cell to make its terrain the current one, then go back to the
    previous tool."""

    id = "eyedropper"
    name = "Eyedropper"
    shortcut = "I"
    tip = "Eyedropper: click a cell to pick its terrain."

    def press(self, ev: Any) -> None:
        if ev.cell is None:
            return
        s = self.document.scenario
        self.state.select_cell(ev.cell)
        self.state.set_terrain(s.map.terrain_at(ev.cell))
        self.state.say(f"Picked terrain {s.ruleset.terrain[self.state.terrain].name}")
        self.state.toolRequested.emit("")  # back to the previous tool
