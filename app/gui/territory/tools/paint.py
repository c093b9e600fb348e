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
from ..panels import PaintPanel
from .base import TerritoryTool

if TYPE_CHECKING:
    from ...tools.context import TerritoryToolContext


class PaintTool(TerritoryTool):
    """Left button paints cells, right button unpaints; the paint panel names
    the new territory and makes it."""

    id = "paint"
    name = "Paint"
    shortcut = "P"
    tip = "Paint backdrop cells into a new territory"

    def __init__(self, ctx: TerritoryToolContext) -> None:
        super().__init__(ctx)
        self.cells: set[tuple[int, int]] = set()
        """The painted backdrop cells (col, row)."""
        self._painting: str | None = None

    def activate(self) -> None:
        super().activate()
        self.ctx.dock("paintDock").show()
        if self.ctx.scenario.map.backdrop_cell <= 0:
            self.say("This map has no painting grid (map.grid.backdrop_cell is 0).")

    def deactivate(self) -> None:
        super().deactivate()
        self._painting = None

    def new_scenario(self) -> None:
        self.cells.clear()

    @property
    def panel(self) -> PaintPanel:
        """The "Paint territory" dock's panel (the window's)."""
        return self.ctx.service(PaintPanel)

    def overlay(self) -> TerritoryOverlay:
        return TerritoryOverlay(cells=tuple(sorted(self.cells)), grid=True)

    def show_overlay(self) -> None:
        """The painted cells and the grid on the canvas, their count in the
        paint panel."""
        super().show_overlay()
        self.panel.count.setText(f"{len(self.cells)} cells")

    def press(self, ev: TerritoryMouseEvent) -> None:
        self._painting = "add" if ev.button == "left" else "remove"
        self._paint_at(ev)

    def move(self, ev: TerritoryMouseEvent) -> None:
        if self._painting:
            self._paint_at(ev)

    def release(self, ev: TerritoryMouseEvent) -> None:
        self._painting = None

    def _paint_at(self, ev: TerritoryMouseEvent) -> None:
        m = self.ctx.scenario.map
        c = m.backdrop_cell
        if c <= 0 or not (0 <= ev.x < m.width and 0 <= ev.y < m.height):
            return
        cell = (int(ev.x // c), int(ev.y // c))
        if self._painting == "add":
            self.cells.add(cell)
        else:
            self.cells.discard(cell)
        self.ctx.update_overlay()

    def clear(self) -> None:
        self.cells.clear()
        self.ctx.update_overlay()

    def create(self) -> bool:
        """The painted cells (less what other territories cover) become a
        new territory named in the paint panel: one undo step."""
        ctx = self.ctx
        m = ctx.scenario.map
        p = self.panel
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
            ctx.document.add_territory(Territory(tid, name, sea=p.sea.isChecked(), shape=polygonal(shape),
                                               value=p.value.value()))
        except (ModelError, GeometryError) as e:
            self.say(str(e))
            return False
        self.cells.clear()
        ctx.select([tid])
        ctx.update_overlay()
        ctx.say(f"created territory {name}", 5000)
        return True


__all__ = ["PaintTool"]
