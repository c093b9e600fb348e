"""Rail plan (R): drag units or stacks to destinations to add rail orders
(Module I); the preview follows at once, the exact routing runs off the GUI
thread (:class:`~app.gui.systems.railroads.planner.RailPlanner`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.model import ModelError

from ...territory.canvas import TerritoryMouseEvent
from ...territory.overlay import Route, TerritoryOverlay
from ...territory.tools.base import TerritoryTool
from .kit import MODE, RailPlanKit
from .planner import RailPlanner

if TYPE_CHECKING:
    from ...tools.context import TerritoryToolContext


class RailPlanTool(TerritoryTool):
    """Drag a counter (its units) or a territory (its units not ordered yet,
    else all of them) to a destination: rail orders for them."""

    id = MODE
    name = "Rail plan"
    shortcut = "R"
    tip = "Drag units to destinations: rail orders, capacity, bottleneck"
    judges = True

    def __init__(self, ctx: TerritoryToolContext) -> None:
        super().__init__(ctx)
        self._drag: tuple[str, list[str]] | None = None

    @property
    def planner(self) -> RailPlanner:
        """The window's rail planner (:class:`~.kit.RailPlanKit`)."""
        return self.ctx.service(RailPlanKit).planner

    def activate(self) -> None:
        super().activate()
        dock = self.ctx.service(RailPlanKit).dock_plan
        dock.show()
        dock.raise_()

    def deactivate(self) -> None:
        super().deactivate()
        self._drag = None

    def overlay(self) -> TerritoryOverlay:
        return self.planner.overlay

    def status(self, tid: str) -> list[str]:
        exact = self.planner.exact
        if exact is None:
            return []
        use = next((u for u in exact.usage if u.territory == tid), None)
        return [] if use is None else [f"rail: {use.used} of {use.capacity} used"]

    def press(self, ev: TerritoryMouseEvent) -> None:
        if ev.button != "left":
            return
        counter = self.counter_at(ev)
        if counter is not None:
            self._drag = counter
        elif ev.territory is not None:
            s = self.ctx.scenario
            ordered = {o.unit for o in self.planner.orders}
            ids = [u.id for u in s.units_in(ev.territory) if u.id not in ordered] \
                or [u.id for u in s.units_in(ev.territory)]
            self._drag = (ev.territory, ids) if ids else None

    def move(self, ev: TerritoryMouseEvent) -> None:
        if self._drag is None:
            return
        start, ids = self._drag
        plan = self.planner.overlay
        routes = (Route((start, ev.territory), "#202020", 2.5, dashed=True),) \
            if ev.territory and ev.territory != start else ()
        self.ctx.canvas.set_overlay(TerritoryOverlay(plan.shades, plan.routes + routes))
        if ev.territory:
            m = self.ctx.scenario.map
            self.say(f"order {len(ids)} unit{'s' if len(ids) != 1 else ''} from "
                     f"{m.label(start)} to {m.label(ev.territory)}", 3000)

    def release(self, ev: TerritoryMouseEvent) -> None:
        if self._drag is None:
            return
        start, ids = self._drag
        self._drag = None
        if ev.territory is not None and ev.territory != start:
            self.order(ids, ev.territory)
        else:
            self.ctx.update_overlay()

    def order(self, unit_ids: list[str], to: str) -> int:
        """Add rail orders for ``unit_ids`` to ``to``; how many were added
        (0 and the reason in the status bar when refused)."""
        try:
            return self.planner.add_units(unit_ids, to)
        except ModelError as e:
            self.say(str(e))
            return 0


__all__ = ["RailPlanTool"]
