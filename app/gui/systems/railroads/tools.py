"""Rail plan (R): drag units or stacks to destinations to add rail orders
(Module I); the preview follows at once, the exact routing runs off the GUI
thread (:class:`~app.gui.systems.railroads.planner.RailPlanner`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.model import ModelError

from ...territory.canvas import TerritoryMouseEvent
from ...territory.overlay import Route, TerritoryOverlay
from ...territory.tools.base import TerritoryTool

if TYPE_CHECKING:
    from ...territory.window import TerritoryWindow


class RailPlanTool(TerritoryTool):
    """Drag a counter (its units) or a territory (its units not ordered yet,
    else all of them) to a destination: rail orders for them."""

    id = "railplan"
    name = "Rail plan"
    shortcut = "R"
    tip = "Drag units to destinations: rail orders, capacity, bottleneck"

    def __init__(self, window: TerritoryWindow) -> None:
        super().__init__(window)
        self._drag: tuple[str, list[str]] | None = None
        window.planner.overlayChanged.connect(self._planned)

    def activate(self) -> None:
        super().activate()
        self.w.dock_plan.show()
        self.w.dock_plan.raise_()

    def deactivate(self) -> None:
        super().deactivate()
        self._drag = None

    def overlay(self) -> TerritoryOverlay:
        return self.w.planner.overlay

    def _planned(self, ov: TerritoryOverlay) -> None:
        if self.active:
            self.w.canvas.set_overlay(ov)

    def status(self, tid: str) -> list[str]:
        exact = self.w.planner.exact
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
            s = self.w.scenario
            ordered = {o.unit for o in self.w.planner.orders}
            ids = [u.id for u in s.units_in(ev.territory) if u.id not in ordered] \
                or [u.id for u in s.units_in(ev.territory)]
            self._drag = (ev.territory, ids) if ids else None

    def move(self, ev: TerritoryMouseEvent) -> None:
        if self._drag is None:
            return
        start, ids = self._drag
        plan = self.w.planner.overlay
        routes = (Route((start, ev.territory), "#202020", 2.5, dashed=True),) \
            if ev.territory and ev.territory != start else ()
        self.w.canvas.set_overlay(TerritoryOverlay(plan.shades, plan.routes + routes))
        if ev.territory:
            m = self.w.scenario.map
            self.w.statusBar().showMessage(f"order {len(ids)} unit{'s' if len(ids) != 1 else ''} from "
                                           f"{m.label(start)} to {m.label(ev.territory)}", 3000)

    def release(self, ev: TerritoryMouseEvent) -> None:
        if self._drag is None:
            return
        start, ids = self._drag
        self._drag = None
        if ev.territory is not None and ev.territory != start:
            self.order(ids, ev.territory)
        else:
            self.w._update_overlay()

    def order(self, unit_ids: list[str], to: str) -> int:
        """Add rail orders for ``unit_ids`` to ``to``; how many were added
        (0 and the reason in the status bar when refused)."""
        try:
            return self.w.planner.add_units(unit_ids, to)
        except ModelError as e:
            self.say(str(e))
            return 0


__all__ = ["RailPlanTool"]
