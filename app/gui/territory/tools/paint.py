"""Paint (P): paint backdrop cells (``map.grid.backdrop_cell``) and make them
a new territory (:func:`engine.territory.polygon_from_cells`, less what
other territories already cover): one undo step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.model import ModelError
from engine.territory import GeometryError, Territory, polygon_from_cells
from engine.territory.geometry import polygonal

from ..canvas import TerritoryMouseEvent
from ..overlay import TerritoryOverlay
from .base import TerritoryTool

if TYPE_CHECKING:
    from ..window import TerritoryWindow


class PaintTool(TerritoryTool):
    """Left button paints cells, right button unpaints; the paint panel names
    the new territory and makes it."""

    id = "paint"
    name = "Paint"
    shortcut = "P"
    tip = "Paint backdrop cells into a new territory"

    def __init__(self, window: TerritoryWindow) -> None:
        super().__init__(window)
        self.cells: set[tuple[int, int]] = set()
        """The painted backdrop cells (col, row)."""
        self._painting: str | None = None

    def activate(self) -> None:
        super().activate()
        self.w.dock_paint.show()
        if self.w.scenario.map.backdrop_cell <= 0:
            self.say("This map has no painting grid (map.grid.backdrop_cell is 0).")

    def deactivate(self) -> None:
        super().deactivate()
        self._painting = None

    def overlay(self) -> TerritoryOverlay:
        return TerritoryOverlay(cells=tuple(sorted(self.cells)), grid=True)

    def show_overlay(self) -> None:
        """The painted cells and the grid on the canvas, their count in the
        paint panel."""
        super().show_overlay()
        self.w.paint_panel.count.setText(f"{len(self.cells)} cells")

    def press(self, ev: TerritoryMouseEvent) -> None:
        self._painting = "add" if ev.button == "left" else "remove"
        self._paint_at(ev)

    def move(self, ev: TerritoryMouseEvent) -> None:
        if self._painting:
            self._paint_at(ev)

    def release(self, ev: TerritoryMouseEvent) -> None:
        self._painting = None

    def _paint_at(self, ev: TerritoryMouseEvent) -> None:
        m = self.w.scenario.map
        c = m.backdrop_cell
        if c <= 0 or not (0 <= ev.x < m.width and 0 <= ev.y < m.height):
            return
        cell = (int(ev.x // c), int(ev.y // c))
        if self._painting == "add":
            self.cells.add(cell)
        else:
            self.cells.discard(cell)
        self.w._update_overlay()

    def clear(self) -> None:
        self.cells.clear()
        self.w._update_overlay()

    def create(self) -> bool:
        """The painted cells (less what other territories cover) become a
        new territory named in the paint panel: one undo step."""
        w = self.w
        m = w.scenario.map
        p = w.paint_panel
        tid = p.tid.text().strip() or p.name.text().strip().lower().replace(" ", "_")
        name = p.name.text().strip() or tid
        try:
            if not tid:
                raise ModelError("give the new territory an id or a name")
            shape = polygon_from_cells(self.cells, m.backdrop_cell)
            for t in m.territories.values():
                if not t.shape.is_empty and t.shape.intersects(shape):
                    shape = shape.difference(t.shape)
            if shape.is_empty or shape.area <= 0:
                raise ModelError("the painted cells are all covered by other territories already")
            w.document.add_territory(Territory(tid, name, sea=p.sea.isChecked(), shape=polygonal(shape),
                                               value=p.value.value()))
        except (ModelError, GeometryError) as e:
            self.say(str(e))
            return False
        self.cells.clear()
        w.select([tid])
        w._update_overlay()
        w.statusBar().showMessage(f"created territory {name}", 5000)
        return True


__all__ = ["PaintTool"]
