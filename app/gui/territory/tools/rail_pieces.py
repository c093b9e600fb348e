"""Map tools for the rail features of Rail Options 1–4: stations and
railroad markers (``rail_station`` and ``railroad`` territory features, see
``docs/rules/rail-options.md``).

The tools follow the grid editor's conventions (:mod:`app.gui.tools`):
left button lays, right button removes, a click without a drag on a laid
piece removes it (like the Rail tool's "click a track to remove it"),
shift-click lays a straight run from the last piece laid.

* :class:`StationTool` — click a land territory to place a station (bought
  on the tool options' turn) and select it; click a station to select it
  (the tool options then edit its damage markers and the turn it was
  bought); right-click a station to remove it.
* :class:`RailroadTool` — click or drag across land territories to lay
  railroad markers (one undo step a drag); click a marker to remove it;
  right-click or right-drag removes; shift-click lays markers along the
  shortest land route from the last marker laid.

Every edit is a :meth:`~.document.TerritoryDocument.set_feature` (one
``EditCommand``; a drag's edits share a stroke and merge).  The tools
never change the model themselves.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import networkx as nx

from engine.model import ModelError
from engine.rules.rail_options import RAILROAD, STATION, RailOptionsError, config_from_dict
from engine.territory import BorderKind, Territory, TerritoryScenario

from .canvas import TerritoryMouseEvent

if TYPE_CHECKING:
    from .window import TerritoryWindow

MAX_DAMAGE = 6


def max_damage(s: TerritoryScenario) -> int:
    """Most damage markers a station may carry under the scenario's options
    (``max_damage``, 6 by default or when the options are malformed)."""
    raw = s.ruleset.options.get("rail_options", {})
    try:
        return config_from_dict(raw if isinstance(raw, dict) else {}).max_damage
    except RailOptionsError:
        return MAX_DAMAGE


def land_reason(t: Territory, what: str) -> str | None:
    """Why ``what`` (a rail station, a railroad marker) cannot stand in
    ``t`` (``None``: it can)."""
    if t.sea:
        return f"{t.name} is a sea zone: a {what} stands on land"
    if t.impassable:
        return f"{t.name} is impassable: no {what} there"
    return None


def new_piece(bought: int) -> dict[str, Any]:
    """A new station or marker: bought on turn ``bought`` (0: part of the
    setup, no ``purchased`` key)."""
    return {"purchased": bought} if bought > 0 else {}


class StationTool:
    """Place, select, edit and remove rail stations."""

    id = "station"

    def __init__(self, window: TerritoryWindow) -> None:
        self.w = window

    @property
    def selected(self) -> str | None:
        """The territory of the station being edited (the selected
        territory, when it has a station)."""
        sel = self.w.selection
        if not sel:
            return None
        t = self.w.scenario.map.territories.get(sel[-1])
        return t.id if t is not None and isinstance(t.features.get(STATION), dict) else None

    def press(self, ev: TerritoryMouseEvent) -> None:
        tid = ev.territory
        if ev.button == "right":
            if tid is not None:
                self.remove(tid)
            return
        if ev.button != "left":
            return
        if tid is None:
            self.w.select([])
            return
        t = self.w.scenario.map.territories[tid]
        if not isinstance(t.features.get(STATION), dict):
            why = land_reason(t, "rail station")
            if why:
                self.w.say(why)
                return
            bought = self.w.rail_tools_panel.bought.value()
            self.w.document.set_feature(tid, STATION, new_piece(bought))
            self.w.say(f"placed a rail station in {t.name}" + (f", bought on turn {bought}" if bought else ""))
        self.w.select([tid])

    def move(self, ev: TerritoryMouseEvent) -> None:
        pass

    def release(self, ev: TerritoryMouseEvent) -> None:
        pass

    def remove(self, tid: str) -> bool:
        t = self.w.scenario.map.territories[tid]
        if not isinstance(t.features.get(STATION), dict):
            self.w.say(f"{t.name} has no rail station")
            return False
        self.w.document.set_feature(tid, STATION, None)
        self.w.say(f"removed the rail station in {t.name}")
        return True

    def remove_selected(self) -> bool:
        tid = self.selected
        return tid is not None and self.remove(tid)

    def set_key(self, key: str, value: int) -> bool:
        """Set the selected station's ``damage`` or ``purchased`` (0
        removes the key): one undo step, nothing when it does not change."""
        tid = self.selected
        if tid is None:
            return False
        cur = self.w.scenario.map.territories[tid].features[STATION]
        new = dict(cur)
        if key == "damage":
            top = max_damage(self.w.scenario)
            if not 0 <= value <= top:
                self.w.say(f"a station carries 0 to {top} damage markers, not {value}")
                return False
        if value == 0:
            new.pop(key, None)
        else:
            new[key] = value
        try:
            return self.w.document.set_feature(tid, STATION, new)
        except ModelError as e:
            self.w.say(str(e))
            return False


class RailroadTool:
    """Lay and remove railroad markers by clicking or dragging."""

    id = "railroad"

    def __init__(self, window: TerritoryWindow) -> None:
        self.w = window
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

    def press(self, ev: TerritoryMouseEvent) -> None:
        if ev.button not in ("left", "right") or ev.territory is None:
            return
        s = self.w.scenario
        tid = ev.territory
        if ev.shift and ev.button == "left" and self.last is not None and self.last in s.map and self.last != tid:
            self.lay_route(self.last, tid)
            return
        self._stroke = self.w.document.new_stroke()
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
                self.w.say(why)
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
            self.w.say(f"removed the railroad marker in {self.w.scenario.map.label(self._start)}")
        elif self._stroke is not None and self._count:
            n = self._count
            self.w.say(f"{'laid' if self._present else 'removed'} {n} railroad marker{'s' if n != 1 else ''}")
        self._stroke = None
        self._xy = None
        self._start = None
        self._seen = set()

    def _apply(self, tid: str) -> bool:
        """Lay (or remove) the marker in ``tid`` as part of the stroke; sea
        zones and impassable territories a drag passes are skipped, and a
        marker already there is kept as it is.  Whether it changed."""
        t = self.w.scenario.map.territories[tid]
        has = isinstance(t.features.get(RAILROAD), dict)
        if self._present:
            if has or land_reason(t, "railroad marker"):
                return False
            self.w.document.set_feature(tid, RAILROAD, new_piece(self.w.rail_tools_panel.bought.value()),
                                        self._stroke)
            self.last = tid
            self._count += 1
            return True
        if has and self.w.document.set_feature(tid, RAILROAD, None, self._stroke):
            self._count += 1
            return True
        return False

    def _along(self, a: tuple[float, float], b: tuple[float, float]) -> list[str]:
        """Territories a straight mouse move from ``a`` to ``b`` (map
        coordinates) passes, in order: a fast mouse skips none."""
        c = self.w.canvas
        (x0, y0), (x1, y1) = a, b
        if c.wrap and abs(x1 - x0) > c.map_width / 2:
            x1 += c.map_width if x1 < x0 else -c.map_width
        step = 3.0 / max(c.zoom(), 1e-9)
        n = max(1, min(2000, math.ceil(math.hypot(x1 - x0, y1 - y0) / step)))
        out: list[str] = []
        for i in range(1, n + 1):
            f = i / n
            tid = c.territory_at_map(c.wrap_x(x0 + (x1 - x0) * f), y0 + (y1 - y0) * f)
            if tid is not None and (not out or out[-1] != tid):
                out.append(tid)
        return out

    def lay_route(self, a: str, b: str) -> int:
        """Lay markers on the shortest land route from ``a`` to ``b`` (land
        territories that are not impassable, across any border but a closed
        one): one undo step; the number of markers laid."""
        m = self.w.scenario.map
        land = [t.id for t in m.territories.values() if land_reason(t, "railroad marker") is None]
        sub = m.graph.subgraph(land)
        view = nx.subgraph_view(sub, filter_edge=lambda u, v: sub.edges[u, v]["border"].kind != BorderKind.CLOSED)
        try:
            route = nx.shortest_path(view, a, b)
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            self.w.say(f"no land route from {m.label(a)} to {m.label(b)} to lay railroad along")
            return 0
        self._stroke = self.w.document.new_stroke()
        self._present = True
        laid = sum(1 for tid in route if self._apply(tid))
        self._stroke = None
        self.last = b
        self.w.say(f"railroad from {m.label(a)} to {m.label(b)}: {laid} marker{'s' if laid != 1 else ''} laid "
                   f"along {len(route)} territories")
        return laid


__all__ = ["RailroadTool", "StationTool", "land_reason", "max_damage", "new_piece"]
