"""Live previews of the movement system configured in the scenario
(``docs/rules/movement.md``), on square and hex maps: the move, and the
line of sight.

Select a unit: every cell it can reach this turn is shaded by the movement
points it would have left, and the cells where its move must stop (an enemy
zone of control, friendly units it may not pass) get a red outline and an
``S``.  Point at a cell: the cheapest path is drawn, the side features it
crosses are marked on their sides, and the verdict names the cost of each
step or the reason for "no".  A click moves the unit when the rules allow.

Line of sight: select a unit, point at a cell: the line from the unit's
cell is drawn (green when clear, red when blocked), the cell or side that
blocks is marked with the reason, and cells the line only touches at a
corner or runs beside along a side are outlined (amber).

All the rules are :mod:`engine.rules.movement`'s (``reach``,
``check_move``) and :mod:`engine.sight`'s (``line_of_sight``); this module
only draws their results.
"""

from __future__ import annotations

from fractions import Fraction

from engine.grids import Cell, Edge
from engine.model import Scenario, Unit
from engine.rules.movement import SYSTEM, Reach, check_move, number, options_for, reach
from engine.sight import line_of_sight

from ...overlay import CellMark, EdgeMark, Item, Marker, Overlay, PathLine, counted
from ...preview import MoveOrder, Preview

LEFT_FILLS = ("#d9534f66", "#f0ad4e66", "#f7e0666e", "#9fd36a70", "#4caf5070", "#2e8b5780")
"""Reachable cells by whole movement points left: 0 (red) ... 5 or more (green)."""
STOP_OUTLINE = "#c0201a"
SIDE_COLOR = "#1f5fbf"
PATH_COLOR = "#1b1b1b"
OK_OUTLINE = "#1f7a34"
NO_OUTLINE = "#e0201a"
START_COLOR = "#ffd23f"

MAP_LAYERS = ("terrain", "control", "rivers", "bridges", "road", "rail")
"""The map layers a reach depends on (their edit revisions key the cache)."""


def _signature(scenario: Scenario) -> tuple[object, ...]:
    m = scenario.map
    return (*(m.revision(k) for k in MAP_LAYERS), repr(scenario.ruleset.options.get(SYSTEM)),
            *((u.id, u.side, u.type, u.strength, u.at) for u in scenario.units))


def left_fill(left: Fraction) -> str:
    return LEFT_FILLS[max(0, min(int(left), len(LEFT_FILLS) - 1))]


class MovementPreview(Preview):
    """The movement system: reach, points left, stops, path and verdict."""

    name = "Movement (configured in the scenario)"

    def __init__(self) -> None:
        self._cache: tuple[int, str, tuple[object, ...], Reach] | None = None
        self._items: tuple[Reach, tuple[Cell, str], list[Item]] | None = None

    def applies_to(self, scenario: Scenario) -> bool:
        """Grid maps whose ruleset has ``movement`` options."""
        return SYSTEM in scenario.ruleset.options

    def reach_of(self, scenario: Scenario, unit: Unit) -> Reach:
        """The unit's reach, kept while nothing it depends on changes."""
        sig = _signature(scenario)
        c = self._cache
        if c is not None and c[0] == id(scenario) and c[1] == unit.id and c[2] == sig:
            return c[3]
        r = reach(scenario, unit)
        self._cache = (id(scenario), unit.id, sig, r)
        return r

    def _layer(self, scenario: Scenario, unit: Unit, r: Reach) -> tuple[Reach, tuple[Cell, str], list[Item]]:
        made = self._items
        if made is None or made[0] is not r or made[1] != (unit.at, unit.id):
            items: list[Item] = []
            allowance = r.board.allowance
            for cell in r.cells():
                cost = r.cost(cell)
                assert cost is not None
                left = allowance - cost
                stop = r.stops(cell)
                tip = (f"{scenario.map.label(cell)}: costs {number(cost)}, {number(left)} of {allowance} movement "
                       "points left" + ("; the move stops here" if stop else ""))
                items.append(CellMark(cell, fill=left_fill(left), outline=STOP_OUTLINE if stop else None,
                                      text="S" if stop else str(number(left)), tooltip=tip,
                                      width=3.0 if stop else 2.0))
            items.append(Marker(unit.at, "circle", START_COLOR, tooltip=f"{unit.name or unit.id} moves from here"))
            made = self._items = (r, (unit.at, unit.id), items)
        return made

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        if unit is None:
            return Overlay()
        r = self.reach_of(scenario, unit)
        made = self._layer(scenario, unit, r)
        stops = sum(1 for c in r.cells() if r.stops(c))
        msg = (f"{unit.name or unit.id} ({r.board.class_name}) has {counted(r.board.allowance, 'movement point')} "
               f"and can reach {counted(len(r.costs) - 1, 'cell')}"
               + (f"; its move stops in {stops} of them" if stops else "") + ": point at a cell")
        return Overlay(tuple(made[2]), message=msg, details={"reachable": len(r.costs) - 1, "stops": stops},
                       layer_key=made, layer_count=len(made[2]))

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        r = self.reach_of(scenario, unit)
        v = check_move(scenario, unit, target, r)
        made = self._layer(scenario, unit, r)
        items = list(made[2])
        lab = scenario.map.label
        parts = list(v.reasons)
        if v.path:
            cells = (unit.at, *(scenario.map.parse_label(p.label) for p in v.path))
            steps = "; ".join(f"{p.label} +{number(p.cost)} ({p.why()})" for p in v.path)
            items.append(PathLine(cells, PATH_COLOR, width=3.0, dashed=not v.ok, tooltip="path: " + steps))
            for a, b, p in zip(cells, cells[1:], v.path):
                if p.sides and scenario.map.grid.shares_side(a, b):
                    items.append(EdgeMark(Edge.between(a, b), SIDE_COLOR, width=6.0,
                                          tooltip=f"{', '.join(p.sides)} into {p.label}"))
        if v.stack is not None and v.stack.limit is not None:
            parts.append(v.stack.reason())
        items.append(CellMark(target, outline=OK_OUTLINE if v.ok else NO_OUTLINE,
                              text=None if v.cost is None else str(number(v.cost)), tooltip="; ".join(parts),
                              width=4.0))
        details: dict[str, object] = {"cost": None if v.cost is None else number(v.cost),
                                      "left": None if v.left is None else number(v.left), "stop": v.stop,
                                      "target": lab(target)}
        return Overlay(tuple(items), message="; ".join(parts), ok=v.ok, details=details, summary=v.reasons[0],
                       layer_key=made, layer_count=len(made[2]))

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        v = check_move(scenario, unit, target, self.reach_of(scenario, unit))
        if not v.ok or target == unit.at:
            return None
        return MoveOrder(unit.id, target, v.reasons[0])


SIGHT_CLEAR = "#1f7a34"
SIGHT_BLOCKED = "#e0201a"
TIE_OUTLINE = "#e6a100"


class SightPreview(Preview):
    """Line of sight from the selected unit's cell to the cell pointed at."""

    name = "Line of sight"

    def applies_to(self, scenario: Scenario) -> bool:
        """Grid maps whose ruleset has ``movement`` options (``sight`` says what blocks)."""
        return SYSTEM in scenario.ruleset.options

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        if unit is None:
            return Overlay()
        return Overlay((Marker(unit.at, "circle", START_COLOR, tooltip=f"{unit.name or unit.id} looks from here"),),
                       message=f"{unit.name or unit.id}: point at a cell to see whether the line of sight is clear")

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        o = options_for(scenario)
        v = line_of_sight(scenario, unit.at, target, o.sight.rules(), o.hexsides)
        m = scenario.map
        items: list[Item] = [Marker(unit.at, "circle", START_COLOR)]
        for e in v.elements:
            if e.kind == "cell" and e.how != "crosses":
                items.append(CellMark(m.parse_label(e.label), outline=TIE_OUTLINE, width=2.0,
                                      tooltip=f"{e.label}: the line {'touches a corner' if e.how == 'vertex' else 'runs along a side'} "
                                              f"({e.ways} way)" + (f"; {e.blocks}" if e.blocks else "")))
        b = v.blocker
        if b is not None:
            if b.kind == "cell":
                items.append(CellMark(m.parse_label(b.label), fill="#e03c3150", outline=SIGHT_BLOCKED, width=4.0,
                                      tooltip=b.blocks))
            else:
                x, y = b.label.split("|")
                items.append(EdgeMark(Edge.between(m.parse_label(x), m.parse_label(y)), SIGHT_BLOCKED, width=6.0,
                                      tooltip=b.blocks))
        items.append(PathLine((unit.at, target), SIGHT_CLEAR if v.clear else SIGHT_BLOCKED, width=3.0,
                              dashed=not v.clear, tooltip=v.reason))
        ties = sorted({e.how for e in v.elements if e.how != "crosses"})
        return Overlay(tuple(items), message=v.reason, ok=v.clear, summary=v.reason.split(": ", 1)[0],
                       details={"clear": v.clear, "blocker": None if b is None else b.label, "ties": ties})


PREVIEWS = (MovementPreview, SightPreview)
