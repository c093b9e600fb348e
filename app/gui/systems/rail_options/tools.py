"""Rail options (O): click a unit to see where it can rail under the
scenario's option (engine ``reach``), click a highlighted territory to move
it there (one undoable ``record_move``; in a game, an order of the side to
move, given in the combat phase when the game is in it and the scenario's
``combat_move`` switch allows rail then); hovering a territory says whether
the move is allowed and why (engine ``judge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.model import ModelError
from engine.rules.rail_options import RailOptionsError

from ...territory.canvas import TerritoryMouseEvent
from ...territory.overlay import Shade, TerritoryOverlay
from ...territory.tools.base import TerritoryTool
from .kit import RailOptionsKit

if TYPE_CHECKING:
    from ...tools.context import TerritoryToolContext

REACH_FILL = "#2e9e4f70"
REACH_OUTLINE = "#1c6b2a"


class RailOptionsTool(TerritoryTool):
    """Select a unit (a click on its counter; again: the next unit of the
    stack), rail it (a click on a destination), drop it (right click)."""

    id = "railoptions"
    name = "Rail options"
    shortcut = "O"
    tip = "Click a unit: where it can rail under the rail option"
    judges = True

    def __init__(self, ctx: TerritoryToolContext) -> None:
        super().__init__(ctx)
        self._judged: tuple[str, str] | None = None
        """The unit and territory of the verdict shown (not judged again while the pointer stays)."""

    @property
    def rail(self) -> RailOptionsKit:
        """Rail Options' docks, judge and reach in this window."""
        return self.ctx.service(RailOptionsKit)

    def activate(self) -> None:
        super().activate()
        self._judged = None
        self.rail.dock_options.show()
        self.rail.dock_options.raise_()
        self.rail.refresh()

    def overlay(self) -> TerritoryOverlay:
        """The selected unit's reach: each destination shaded with its cost,
        the start outlined."""
        r = self.rail.reach
        if r is None:
            return TerritoryOverlay()
        shades = [Shade(d.territory, fill=REACH_FILL, outline=REACH_OUTLINE, width=2.5, text=str(d.cost))
                  for d in r.destinations]
        shades.append(Shade(r.start, outline="#ffd21f", width=4.0))
        return TerritoryOverlay(tuple(shades), message=r.reason)

    def status(self, tid: str) -> list[str]:
        r = self.rail.reach
        if r is None:
            return []
        hit = next((d for d in r.destinations if d.territory == tid), None)
        if hit is None:
            return []
        m = self.ctx.scenario.map
        return [f"rail: {hit.cost} space{'s' if hit.cost != 1 else ''} via " + " > ".join(m.label(x) for x in hit.path)]

    def press(self, ev: TerritoryMouseEvent) -> None:
        w = self.ctx
        self._judged = None  # a unit selected or dropped: the place pointed at is judged again
        if ev.button == "right":
            w.select_unit(None)
            return
        counter = self.counter_at(ev)
        if counter is not None:
            ids = counter[1]
            unit = w.selected_unit
            w.select_unit(ids[(ids.index(unit) + 1) % len(ids)] if unit in ids else ids[0])
        elif ev.territory is not None and w.selected_unit is not None:
            self.rail_to(ev.territory)

    def move(self, ev: TerritoryMouseEvent) -> None:
        w = self.ctx
        judged = None if w.selected_unit is None or ev.territory is None else (w.selected_unit, ev.territory)
        if w.selected_unit is None or judged == self._judged:
            return
        self._judged = judged
        if ev.territory is not None and ev.territory != w.scenario.unit(w.selected_unit).at:
            try:
                v = self.rail.rail_options().judge(w.selected_unit, ev.territory)
            except (RailOptionsError, ModelError) as e:
                self.say(str(e))
                w.show_verdict(False, str(e))
            else:
                self.say(("✔ " if v.allowed else "✘ ") + v.reason)
                w.show_verdict(v.allowed, v.reason)

    def rail_to(self, tid: str) -> bool:
        """Rail the selected unit to ``tid`` (:meth:`RailOptionsKit.rail_to`)."""
        return self.rail.rail_to(tid)


__all__ = ["REACH_FILL", "REACH_OUTLINE", "RailOptionsTool"]
