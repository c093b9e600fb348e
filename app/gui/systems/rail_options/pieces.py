"""Map tools for the rail features of Rail Options 1–4: stations and
railroad markers (``rail_station`` and ``railroad`` territory features, see
``docs/rules/rail-options.md``).

The tools follow the grid editor's conventions (:mod:`app.gui.tools`):
left button lays, right button removes, a click without a drag on a laid
piece removes it (like the Rail tool's "click a track to remove it"),
shift-click lays a straight run from the last piece laid.

* :class:`StationTool` (T) — click a land territory to place a station
  (bought on the tool options' turn) and select it; click a station to
  select it (the tool options then edit its damage markers and the turn it
  was bought); right-click a station to remove it.
* :class:`RailroadTool` (L) — click or drag across land territories to lay
  railroad markers (one undo step a drag); click a marker to remove it;
  right-click or right-drag removes; shift-click lays markers along the
  shortest land route from the last marker laid.

Where a piece may stand, what a new one holds, a station's checks and the
land route are the engine's (:mod:`engine.rules.rail_options.pieces`).

**While a Rail Options game is played** (Game > Play as a Game, or a file
holding a game) a placement is an order of the game, not an edit: laying a
piece is a ``place`` order of a piece the side to move bought, removing one
a ``destroy`` order, each judged by the rules (the purchase and place
phases, a full round of control, Option 1's spacing, only one's own rail in
one's own turn) and refused with the rules' reason, changing nothing
(``app/gui/systems/rail_options/nation_panel.py``, :meth:`NationRail.give`).  In the
designer's mode the tools place freely, as edits.
Every edit is a :meth:`~app.gui.territory.document.TerritoryDocument.set_feature`
(one ``EditCommand``; a drag's edits share a stroke and merge).  The tools
never change the model themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.rail_options import RAILROAD, STATION
from engine.rules.rail_options.pieces import land_reason, land_route, new_piece
from engine.territory.geometry import territories_along

from ...territory.canvas import TerritoryMouseEvent
from ...territory.tools.base import TerritoryTool
from .kit import RailOptionsKit

if TYPE_CHECKING:
    from ...tools.context import TerritoryToolContext


class RailPieceTool(TerritoryTool):
    """What the Station and Railroad tools share: the "Rail tools" dock
    (shown while one of them is the mode: :data:`.kit.PIECE_MODES`)."""

    @property
    def rail(self) -> RailOptionsKit:
        """Rail Options' docks and the nation rail in this window."""
        return self.ctx.service(RailOptionsKit)

    def activate(self) -> None:
        super().activate()
        self.rail.rail_tools_panel.set_tool(self.id)
        self.rail.show_station()
        self.ctx.dock("territoryInspectorDock").raise_()


class StationTool(RailPieceTool):
    """Place, select, edit and remove rail stations."""

    id = "station"
    name = "Station"
    shortcut = "T"
    tip = ("Station tool: click land to place a rail station, click a station to edit its damage and purchase turn, "
           "right-click a station to remove it")

    @property
    def selected(self) -> str | None:
        """The territory of the station being edited (the selected
        territory, when it has a station)."""
        return self.rail.selected_station()

    def press(self, ev: TerritoryMouseEvent) -> None:
        tid = ev.territory
        if ev.button == "right":
            if tid is not None:
                self.remove(tid)
            return
        if ev.button != "left":
            return
        if tid is None:
            self.ctx.select([])
            return
        t = self.ctx.scenario.map.territories[tid]
        if not isinstance(t.features.get(STATION), dict):
            if self.rail.nation_rail.playing():
                self.rail.nation_rail.give({"action": "place", "piece": "station", "territory": tid})
                self.ctx.select([tid])
                return
            why = land_reason(t, "rail station")
            if why:
                self.ctx.say(why)
                return
            bought = self.rail.rail_tools_panel.bought.value()
            self.ctx.document.set_feature(tid, STATION, new_piece(bought))
            self.ctx.say(f"placed a rail station in {t.name}" + (f", bought on turn {bought}" if bought else ""))
        self.ctx.select([tid])

    def remove(self, tid: str) -> bool:
        return self.rail.remove_station(tid)

    def remove_selected(self) -> bool:
        return self.rail.remove_selected_station()

    def set_key(self, key: str, value: int) -> bool:
        """Set the selected station's ``damage`` or ``purchased`` (0
        removes the key): one undo step, nothing when it does not change."""
        return self.rail.set_station_key(key, value)


class RailroadTool(RailPieceTool):
    """Lay and remove railroad markers by clicking or dragging."""

    id = "railroad"
    name = "Railroad"
    shortcut = "L"
    tip = ("Railroad tool: click or drag across land to lay railroad markers; click a marker to remove it; "
           "right-drag removes; shift-click lays a route from the last marker")

    def __init__(self, ctx: TerritoryToolContext) -> None:
        super().__init__(ctx)
        self._stroke: int | None = None
        self._present = True
        self._start: str | None = None
        self._had = False
        self._moved = False
        self._seen: set[str] = set()
        self._xy: tuple[float, float] | None = None
        self._count = 0
        self.last: str | None = None
        """The territory of the last marker laid (shift-click starts there)."""

    def new_scenario(self) -> None:
        self.last = None

    def press(self, ev: TerritoryMouseEvent) -> None:
        if ev.button not in ("left", "right") or ev.territory is None:
            return
        s = self.ctx.scenario
        tid = ev.territory
        if ev.shift and ev.button == "left" and self.last is not None and self.last in s.map and self.last != tid:
            self.lay_route(self.last, tid)
            return
        self._stroke = self.ctx.document.new_stroke()
        self._present = ev.button == "left"
        self._start = tid
        self._had = isinstance(s.map.territories[tid].features.get(RAILROAD), dict)
        self._moved = False
        self._seen = {tid}
        self._xy = (ev.x, ev.y)
        self._count = 0
        if self._present and not self._had:
            why = land_reason(s.map.territories[tid], "railroad marker")
            if why:
                self.ctx.say(why)
            else:
                self._apply(tid)
        elif not self._present:
            self._apply(tid)

    def move(self, ev: TerritoryMouseEvent) -> None:
        if self._stroke is None or self._xy is None:
            return
        for tid in self._along(self._xy, (ev.x, ev.y)):
            if tid not in self._seen:
                self._seen.add(tid)
                self._moved = True
                self._apply(tid)
        self._xy = (ev.x, ev.y)

    def release(self, ev: TerritoryMouseEvent) -> None:
        if self._stroke is not None and not self._moved and self._present and self._had and self._start:
            # a click on a marker removes it
            self._present = False
            self._apply(self._start)
            self.ctx.say(f"removed the railroad marker in {self.ctx.scenario.map.label(self._start)}")
        elif self._stroke is not None and self._count:
            n = self._count
            self.ctx.say(f"{'laid' if self._present else 'removed'} {n} railroad marker{'s' if n != 1 else ''}")
        self._stroke = None
        self._xy = None
        self._start = None
        self._seen = set()

    def _apply(self, tid: str) -> bool:
        """Lay (or remove) the marker in ``tid`` as part of the stroke; sea
        zones and impassable territories a drag passes are skipped, and a
        marker already there is kept as it is.  Whether it changed."""
        t = self.ctx.scenario.map.territories[tid]
        has = isinstance(t.features.get(RAILROAD), dict)
        if self.rail.nation_rail.playing():  # each piece an order of the game
            if self._present == has:
                return False
            done = self.rail.nation_rail.give({"action": "place" if self._present else "destroy", "piece": "railroad",
                                            "territory": tid})
            self._count += done
            self.last = tid if done and self._present else self.last
            return done
        if self._present:
            if has or land_reason(t, "railroad marker"):
                return False
            self.ctx.document.set_feature(tid, RAILROAD, new_piece(self.rail.rail_tools_panel.bought.value()),
                                        self._stroke)
            self.last = tid
            self._count += 1
            return True
        if has and self.ctx.document.set_feature(tid, RAILROAD, None, self._stroke):
            self._count += 1
            return True
        return False

    def _along(self, a: tuple[float, float], b: tuple[float, float]) -> list[str]:
        """Territories a straight mouse move from ``a`` to ``b`` (map
        coordinates) passes, in order: a fast mouse skips none."""
        c = self.ctx.canvas
        pick = c.pick()
        return [] if pick is None else territories_along(pick, a, b, 3.0 / max(c.zoom(), 1e-9))

    def lay_route(self, a: str, b: str) -> int:
        """Lay markers on the shortest land route from ``a`` to ``b`` (land
        territories that are not impassable, across any border but a closed
        one): one undo step; the number of markers laid."""
        m = self.ctx.scenario.map
        route = land_route(m, a, b)
        if route is None:
            self.ctx.say(f"no land route from {m.label(a)} to {m.label(b)} to lay railroad along")
            return 0
        self._stroke = self.ctx.document.new_stroke()
        self._present = True
        laid = sum(1 for tid in route if self._apply(tid))
        self._stroke = None
        self.last = b
        self.ctx.say(f"railroad from {m.label(a)} to {m.label(b)}: {laid} marker{'s' if laid != 1 else ''} laid "
                   f"along {len(route)} territories")
        return laid


__all__ = ["RailPieceTool", "RailroadTool", "StationTool"]
