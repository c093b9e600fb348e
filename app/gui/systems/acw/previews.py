"""Live preview of "A Short ACW Campaign" moves and attacks (shared seed 003).

Select a unit: every hex it can reach this turn is shaded by the movement
points it would have left (darker: fewer), and the hexes where it would have
to halt, next to the enemy, get a red outline and an ``H``.  Point at a hex:
the cheapest route is drawn with its cost, river crossings (red) and bridges
(green) on the hexsides; the message and tooltips give the cost step by
step, the stack the hex would hold (flagged when over the limit) and, when
the hex is next to the enemy, the attack it would make: the victory number
and the chance of winning (victory number + 1 of the 100 result numbers
0-99).  The dock plots, over those 100 result numbers, who wins and the
casualties each side would take.  A click moves the unit when the rules
allow it, clearing its fortifications.

All the rules are :mod:`engine.rules.acw`'s (``reach``, ``check_move``,
``engagement``, ``odds``); this module only draws their results.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import shiboken6

from engine.grids import Cell, Edge, HexGrid
from engine.model import Scenario, Unit
from engine.rules.acw import SYSTEM, Board, MoveCheck, Odds, Reach, check_move, engagement, odds, reach
from engine.rules.acw.options import options_for
from engine.rules.acw.units import display_name

from ...overlay import CellMark, EdgeMark, Item, Marker, Overlay, PathLine, counted
from ...preview import MoveOrder, Preview

LEFT_FILLS = ("#d9534f66", "#f0ad4e66", "#f7e0666e", "#9fd36a70", "#4caf5070", "#2e8b5780")
"""Reachable hexes by movement points left: 0 (red) ... 5 or more (green)."""
HALT_OUTLINE = "#c0201a"
RIVER_COLOR = "#d62728"
BRIDGE_COLOR = "#2ca02c"
PATH_COLOR = "#1b1b1b"
OK_OUTLINE = "#1f7a34"
NO_OUTLINE = "#e0201a"
ATTACK_COLOR = "#e0201a"
START_COLOR = "#ffd23f"


def left_fill(left: int) -> str:
    return LEFT_FILLS[max(0, min(left, len(LEFT_FILLS) - 1))]


MAP_LAYERS = ("terrain", "control", "rivers", "bridges", "road", "rail")
"""The map layers a reach depends on (their edit revisions key the cache)."""


def _signature(scenario: Scenario) -> tuple[object, ...]:
    """What a cached reach depends on: every unit's place and side, and the
    revision of each map layer (a terrain edit changes the reach)."""
    m = scenario.map
    return (*(m.revision(k) for k in MAP_LAYERS), *((u.id, u.side, u.at) for u in scenario.units))


@dataclasses.dataclass(frozen=True)
class Attack:
    """The attack a move would make on one adjacent enemy hex."""

    from_cell: Cell
    from_label: str
    on: Cell
    label: str
    odds: Odds
    reason: str

    @property
    def percent(self) -> int:
        return self.odds.wins


class AcwMovePreview(Preview):
    """ACW movement: reach, cost, halting, stacking and the attack it makes."""

    name = "ACW move and attack"

    def __init__(self) -> None:
        self._cache: tuple[int, str, tuple[object, ...], Reach] | None = None
        self._board: tuple[int, str, tuple[object, ...], tuple[object, ...], Board] | None = None
        """The last movement board: scenario, side, ruleset and map layer
        revisions, units (id, side, place) and the board."""
        self._items: tuple[Reach, tuple[Cell, str], list[Item]] | None = None
        """The reach's marks, made once per reach (the reach does not change
        while the mouse moves)."""
        self._enemies: tuple[int, str, tuple[object, ...], dict[Cell, int]] | None = None
        """Cells holding units not allied to a side, by scenario, side and
        unit signature: hover looks up the target's neighbours only."""
        self._plot: Any = None
        self.attack: Attack | None = None
        """The pending attack of the last hover (the dock plots it)."""

    # -- what it applies to ----------------------------------------------------
    def applies_to(self, scenario: Scenario) -> bool:
        """Hex maps whose ruleset has ``acw`` options or an ACW name."""
        r = scenario.ruleset
        return isinstance(scenario.map.grid, HexGrid) and (
            SYSTEM in r.options or "acw campaign" in r.name.casefold())

    # -- engine calls -------------------------------------------------------------
    def reach_of(self, scenario: Scenario, unit: Unit) -> Reach:
        """The unit's reach, kept while no unit moves (hover reuses it)."""
        sig = _signature(scenario)
        c = self._cache
        if c is not None and c[0] == id(scenario) and c[1] == unit.id and c[2] == sig:
            return c[3]
        r = reach(scenario, unit, self.board_of(scenario, unit.side))
        self._cache = (id(scenario), unit.id, sig, r)
        return r

    def board_of(self, scenario: Scenario, side: str) -> Board:
        """The movement board of ``side`` as the scenario stands now: kept
        while nothing changes, brought up to date from the last one
        (:meth:`Board.with_units`) when only units moved, built afresh for
        another map, side or map edit."""
        m = scenario.map
        layers = (id(scenario.ruleset), *(m.revision(k) for k in MAP_LAYERS))
        units = tuple((u.id, u.side, u.at) for u in scenario.units)
        b = self._board
        if b is not None and b[0] == id(scenario) and b[1] == side and b[2] == layers:
            if b[3] == units:
                return b[4]
            board = b[4].with_units(scenario)
        else:
            board = Board(scenario, side)
        self._board = (id(scenario), side, layers, units, board)
        return board

    def attacks(self, scenario: Scenario, unit: Unit, target: Cell) -> list[Attack]:
        """The attack on each enemy hex next to ``target`` if ``unit`` ended
        its move there, with the friendly units already in ``target``."""
        enemy = self._enemy_cells(scenario, unit.side)
        grid = scenario.map.grid
        enemy_cells = sorted(c for c in grid.neighbours(target) if c in enemy and grid.are_adjacent(c, target))
        out: list[Attack] = []
        if not enemy_cells:
            return out
        moved = dataclasses.replace(unit, at=target)
        what_if = dataclasses.replace(scenario, units=[moved if u.id == unit.id else u for u in scenario.units])
        opts = options_for(scenario)
        lab = scenario.map.label
        for cell in enemy_cells:
            e = engagement(what_if, [target], cell, options=opts)
            o = odds(e.attacker_factors, e.defender_factors, defender_effective=e.defender_effective, options=opts)
            adv = sorted({a for p in e.defenders for a in p.advantages})
            extra = f" (defender: {', '.join(adv)})" if adv else ""
            cav = "; " + "; ".join(c.reason for c in e.cavalry_options) if e.cavalry_options else ""
            names = ", ".join(p.name for p in e.defenders)
            reason = f"attack on {lab(cell)} ({names}){extra}: {o.reason}{cav}"
            out.append(Attack(target, lab(target), cell, lab(cell), o, reason))
        return out

    def _enemy_cells(self, scenario: Scenario, side: str) -> dict[Cell, int]:
        """How many units not allied to ``side`` stand in each cell, kept
        while no unit moves."""
        sig = _signature(scenario)
        c = self._enemies
        if c is not None and c[0] == id(scenario) and c[1] == side and c[2] == sig:
            return c[3]
        cells: dict[Cell, int] = {}
        for u in scenario.units:
            if not scenario.allied(u.side, side):
                cells[u.at] = cells.get(u.at, 0) + 1
        self._enemies = (id(scenario), side, sig, cells)
        return cells

    # -- preview protocol ---------------------------------------------------------
    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        """A newly selected unit (or none) has no pending attack yet: the
        dock is cleared until the mouse points at a hex."""
        self.attack = None
        self._update_plot()
        if unit is None:
            return Overlay()
        r = self.reach_of(scenario, unit)
        made = self._reach_layer(scenario, unit, r)
        items = made[2]
        halts = sum(1 for h in r.hexes() if h.halt)
        msg = (f"{display_name(unit)} has {counted(r.allowance, 'movement point')} and can reach "
               f"{counted(len(r.costs) - 1, 'hex', 'hexes')}"
               + (f"; it must halt in {halts} of them, next to the enemy" if halts else "")
               + ": point at a hex")
        return Overlay(tuple(items), message=msg, details={"reachable": len(r.costs) - 1, "halts": halts},
                       layer_key=made, layer_count=len(items))

    def _reach_layer(self, scenario: Scenario, unit: Unit, r: Reach) -> tuple[Reach, tuple[Cell, str], list[Item]]:
        """The reach's marks, made once per reach, unit place and name; the
        tuple itself is the overlays' ``layer_key`` (the canvas paints the
        marks once per key and zoom)."""
        made = self._items
        if made is None or made[0] is not r or made[1] != (unit.at, display_name(unit)):
            made = self._items = (r, (unit.at, display_name(unit)), self._reach_items(scenario, unit, r))
        return made

    def _reach_items(self, scenario: Scenario, unit: Unit, r: Reach) -> list[Item]:
        items: list[Item] = []
        for h in r.hexes():
            tip = f"{h.label}: costs {h.cost}, {h.left} of {r.allowance} movement points left"
            if h.halt:
                tip += "; next to the enemy: the unit must halt here"
            items.append(CellMark(h.cell, fill=left_fill(h.left), outline=HALT_OUTLINE if h.halt else None,
                                  text="H" if h.halt else str(h.left), tooltip=tip,
                                  width=3.0 if h.halt else 2.0))
        items.append(Marker(unit.at, "circle", START_COLOR, tooltip=f"{display_name(unit)} moves from here"))
        return items

    def check(self, scenario: Scenario, unit: Unit, target: Cell) -> MoveCheck:
        return check_move(scenario, unit, target, self.reach_of(scenario, unit))

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        r = self.reach_of(scenario, unit)
        mc = check_move(scenario, unit, target, r)
        lab = scenario.map.label
        made = self._reach_layer(scenario, unit, r)
        items = list(made[2])
        parts = [mc.reason]
        if mc.path:
            cells = (unit.at, *(s.cell for s in mc.path))
            steps = "; ".join(s.describe() for s in mc.path)
            parts.append(f"route {lab(unit.at)} -> {mc.label}: {steps} = {mc.path[-1].total}")
            items.append(PathLine(cells, PATH_COLOR, width=3.0, dashed=not mc.ok, tooltip="route: " + steps))
            prev = unit.at
            for s in mc.path:
                if s.crossing:
                    color = RIVER_COLOR if s.crossing == "river" else BRIDGE_COLOR
                    items.append(EdgeMark(Edge.between(prev, s.cell), color, width=6.0,
                                          tooltip=f"{s.crossing} into {s.label}: +{s.cost}"))
                prev = s.cell
        st = mc.stack
        flag = " OVER THE LIMIT" if st.over else ""
        parts.append(f"stack {st.count}/{st.limit}{flag}")
        attacks = self.attacks(scenario, unit, target) if mc.ok else []
        self.attack = attacks[0] if attacks else None
        for a in attacks:
            items.append(Marker(a.on, "cross", ATTACK_COLOR, text=f"{a.percent}%", tooltip=a.reason, size=0.6))
            parts.append(a.reason)
        tip = "; ".join(parts)
        items.append(CellMark(target, outline=OK_OUTLINE if mc.ok else NO_OUTLINE,
                              text=(f"{mc.cost}" if mc.cost is not None else None), tooltip=tip, width=4.0))
        details: dict[str, object] = {
            "cost": mc.cost, "left": mc.left, "halt": mc.halt, "stack": st.count, "over": st.over,
            "crossings": [s.crossing for s in mc.crossings],
            "attacks": [{"on": a.label, "victory_number": a.odds.victory_number, "wins": a.odds.wins}
                        for a in attacks],
        }
        self._update_plot()
        return Overlay(tuple(items), message="; ".join(parts), ok=mc.ok, details=details, summary=mc.reason,
                       layer_key=made, layer_count=len(made[2]))

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        mc = check_move(scenario, unit, target, self.reach_of(scenario, unit))
        if not mc.ok or target == unit.at:
            return None
        return MoveOrder(unit.id, target, mc.reason, props={"moved": True, "fortified": False})

    # -- the dock -------------------------------------------------------------
    def dock(self) -> Any:
        """A pyqtgraph plot of the pending attack over the 100 result
        numbers (created on first call, and again if the window that
        showed it has deleted it)."""
        if self._plot is None or not shiboken6.isValid(self._plot):
            from .plot import OddsPlot

            self._plot = OddsPlot()  # one height always: the map never moves under the pointer
            self._update_plot()
        return self._plot

    def _update_plot(self) -> None:
        if self._plot is not None and shiboken6.isValid(self._plot):
            self._plot.show_attack(self.attack)


PREVIEWS = (AcwMovePreview,)
