"""The map as one moving unit's search sees it, and the search.

:class:`Board` indexes the scenario for one unit (its class's terrain, side
and link costs; enemy cells, enemy zones of control, friendly cells; the
side features of rivers, bridges and the ``hexsides`` option).  Costs are
kept as whole numbers of ``1/scale`` points (``scale`` is the least common
denominator of every cost the class can pay), so the search adds integers
while the options may say ``"1/2"``.  :func:`search` is a uniform-cost
search that only touches the cells within reach.  Cells are indexes
``row * width + col``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.grids import Cell, Edge, Grid
from engine.model import ModelError, Scenario, Unit

from .options import SYSTEM, MovementOptions, UnitClass

RIVER = "river"
"""The side feature of a river side that no bridge crosses."""


@dataclass(frozen=True)
class Step:
    """How one step from a cell into a neighbour is paid: ``cost`` (in
    ``1/scale`` points), ``via`` the link kind followed (``None``: across
    country, paying the terrain) and the side ``features`` crossed."""

    cost: int
    via: str | None
    features: tuple[str, ...]


def _lcm(values: Iterable[Fraction]) -> int:
    out = 1
    for v in values:
        out = math.lcm(out, v.denominator)
    return out


class Board:
    """What the search of ``unit`` needs to know, indexed once.

    Raises :class:`ModelError` naming the option when a class names terrain
    or a unit type the ruleset lacks, or ``hexsides`` names a side that is not
    one."""

    def __init__(self, scenario: Scenario, unit: Unit, options: MovementOptions) -> None:
        self.scenario = scenario
        self.unit = unit
        self.options = options
        rs = scenario.ruleset
        ut = rs.unit_type(unit.type)
        self.class_name, cls = options.class_of(ut.id)
        self.klass: UnitClass = cls
        known_types = {t.id for t in rs.unit_types}
        for name, c in options.classes.items():
            for t in c.unit_types:
                if t not in known_types:
                    raise ModelError(f"ruleset.options.{SYSTEM}.classes.{name}.unit_types: no unit type {t!r} in "
                                     f"the ruleset (known: {', '.join(sorted(known_types))})")
        terrain_ids = [t.id for t in rs.terrain]
        for tid in cls.terrain:
            if tid not in terrain_ids:
                raise ModelError(f"ruleset.options.{SYSTEM}.classes.{self.class_name}.terrain.{tid}: no terrain "
                                 f"{tid!r} in the ruleset (known: {', '.join(terrain_ids)})")
        terrain_costs: list[Fraction | None] = []
        for tt in rs.terrain:
            if tt.id in cls.terrain:
                terrain_costs.append(cls.terrain[tt.id])
            else:
                terrain_costs.append(None if tt.impassable else Fraction(tt.move_cost))
        self.terrain_names = [t.name.lower() for t in rs.terrain]
        paid = [c for c in terrain_costs if c is not None]
        paid += [c for c in cls.links.values() if c is not None]
        paid += [r.add for r in cls.sides.values()] + [r.at_least for r in cls.sides.values()]
        paid.append(options.zoc_leave_cost)
        self.scale = _lcm(paid)
        sc = self.scale
        self.enter: list[int | None] = [None if c is None else int(c * sc) for c in terrain_costs]
        self.side_rules: dict[str, tuple[int, int, bool]] = {
            k: (int(r.add * sc), int(r.at_least * sc), r.prohibited) for k, r in cls.sides.items()}
        self.leave_cost = int(options.zoc_leave_cost * sc) if options.zoc == "stop_leave" else 0
        allowance = cls.allowance if cls.allowance is not None else ut.movement
        self.allowance = allowance
        self.budget = allowance * sc

        gm = scenario.map
        self.grid: Grid = gm.grid
        self.width, self.height = gm.width, gm.height
        self.terrain = gm.terrain
        self._steps = self.grid.neighbour_step_table()
        w = self.width
        # side features per ordered pair of neighbouring cells
        self.features: dict[int, dict[int, tuple[str, ...]]] = {}
        self.crossing_kinds: set[str] = set(gm.bridges.values())
        for e in gm.rivers:
            self._add_feature(e, gm.bridges.get(e, RIVER))
        for kind, sides in options.hexsides.items():
            for j, (la, lb) in enumerate(sides):
                where = f"ruleset.options.{SYSTEM}.hexsides.{kind}[{j}]"
                try:
                    ca, cb = gm.parse_label(la), gm.parse_label(lb)
                except ModelError as err:
                    raise ModelError(f"{where}: {err}") from None
                if not self.grid.shares_side(ca, cb):
                    raise ModelError(f"{where}: {la} and {lb} share no side")
                self._add_feature(Edge.between(ca, cb), kind)
        # links the class may follow: per ordered pair, (cost, kind) of the cheapest
        self.links: dict[int, dict[int, tuple[int, str]]] = {}
        for kind, link_cost in cls.links.items():
            if link_cost is None:
                continue
            paid_link = int(link_cost * sc)
            for edge in gm.links.get(kind, ()):
                a, b = edge.a.row * w + edge.a.col, edge.b.row * w + edge.b.col
                for x, y in ((a, b), (b, a)):
                    old = self.links.setdefault(x, {}).get(y)
                    if old is None or paid_link < old[0]:
                        self.links[x][y] = (paid_link, kind)
        scenario.side(unit.side)
        self.enemy: dict[int, list[Unit]] = {}
        self.friendly: set[int] = set()
        zoc_units: list[int] = []
        for u in scenario.units:
            i = u.at.row * w + u.at.col
            if scenario.allied(u.side, unit.side):
                if u.id != unit.id:
                    self.friendly.add(i)
                continue
            self.enemy.setdefault(i, []).append(u)
            if options.zoc != "none" and options.class_of(u.type)[1].zoc:
                zoc_units.append(i)
        self.zoc: set[int] = set()
        for i in zoc_units:
            self.zoc.update(self.neighbours(i))
        self.start = self.index(unit.at)
        self._links_cache: dict[int, tuple[tuple[int, int], ...]] = {}

    def _add_feature(self, e: Edge, kind: str) -> None:
        w = self.width
        a, b = e.a.row * w + e.a.col, e.b.row * w + e.b.col
        for x, y in ((a, b), (b, a)):
            here = self.features.setdefault(x, {})
            here[y] = here.get(y, ()) + (kind,)

    # -- indexes ---------------------------------------------------------
    def index(self, cell: Cell) -> int:
        return cell.row * self.width + cell.col

    def cell(self, i: int) -> Cell:
        return Cell(i % self.width, i // self.width)

    def neighbours(self, i: int) -> list[int]:
        w, h = self.width, self.height
        row, col = divmod(i, w)
        out = []
        for dc, dr in self._steps[(col & 1) | (row & 1) << 1]:
            c, r = col + dc, row + dr
            if 0 <= c < w and 0 <= r < h:
                out.append(r * w + c)
        return out

    def terrain_index(self, i: int) -> int:
        row, col = divmod(i, self.width)
        t: int = self.terrain.item(row, col)
        return t

    def side_rule(self, feature: str) -> tuple[int, int, bool]:
        """(add, at_least, prohibited) of a side feature for this class: its
        own rule, or for a bridge kind the class does not name, its rule for
        ``bridge``; a feature it names under neither costs nothing."""
        rule = self.side_rules.get(feature)
        if rule is None and feature != RIVER:
            rule = self.side_rules.get("bridge")
        return rule if rule is not None else (0, 0, False)

    # -- one step --------------------------------------------------------
    def step(self, a: int, b: int) -> Step | str:
        """How the step from ``a`` into its neighbour ``b`` is paid, or why
        it may not be taken (a sentence)."""
        if b in self.enemy:
            return "it is held by the enemy"
        link = self.links.get(a, {}).get(b)
        via: str | None = None
        if link is not None:
            cost, via = link
        else:
            t = self.terrain_index(b)
            c = self.enter[t] if t < len(self.enter) else None
            if c is None:
                return f"{self.terrain_names[t] if t < len(self.terrain_names) else 'its terrain'} is prohibited to " \
                       f"{self.class_name} units"
            cost = c
        refusal = ""
        best: Step | None = None
        for feats in self.crossings(a, b):
            add, least, blocked = 0, 0, ""
            for f in feats:
                fa, fl, prohibited = self.side_rule(f)
                if prohibited:
                    blocked = f"{self.class_name} units may not cross a {self.feature_name(f)} side"
                    break
                add += fa
                least = max(least, fl)
            if blocked:
                refusal = refusal or blocked
                continue
            paid = max(cost + add, least) if feats else cost
            if best is None or paid < best.cost:
                best = Step(paid, via, feats)
        return best if best is not None else refusal

    def crossings(self, a: int, b: int) -> tuple[tuple[str, ...], ...]:
        """The ways a step from ``a`` into its neighbour ``b`` may cross
        sides, each the side features it crosses; the step takes the
        cheapest allowed.  A step across a side has one way.  A step between
        cells that share no side (a diagonal on a square map with 8
        neighbours) passes a corner and has two: round it through either
        cell beside both, crossing the features of both sides of that way;
        so a river or wall drawn through the corner is crossed either way,
        and one that ends at the corner can be passed by its open way."""
        direct = self.features.get(a)
        if direct is not None and b in direct:
            return (direct[b],)
        if not self.features:
            return ((),)
        ra, ca = divmod(a, self.width)
        rb, cb = divmod(b, self.width)
        if ra == rb or ca == cb or self.grid.shares_side(Cell(ca, ra), Cell(cb, rb)):
            return ((),)
        m1, m2 = ra * self.width + cb, rb * self.width + ca
        f = self.features
        one = f.get(a, {}).get(m1, ()) + f.get(m1, {}).get(b, ())
        two = f.get(a, {}).get(m2, ()) + f.get(m2, {}).get(b, ())
        return (one, two) if one != two else (one,)

    def feature_name(self, key: str) -> str:
        """A side feature as a sentence names it: ``river``, ``river (road
        crossing)`` for a bridge or ford of kind ``road``, or the
        ``hexsides`` kind (``wall``)."""
        return f"river ({key} crossing)" if key in self.crossing_kinds else key

    def steps(self, i: int) -> tuple[tuple[int, int], ...]:
        """The steps allowed out of ``i``: (neighbour, cost), in neighbour
        order (cached per Board)."""
        out = self._links_cache.get(i)
        if out is None:
            found = []
            for n in self.neighbours(i):
                s = self.step(i, n)
                if isinstance(s, Step):
                    found.append((n, s.cost))
            out = tuple(found)
            self._links_cache[i] = out
        return out

    def stops(self, i: int) -> bool:
        """Whether a move entering ``i`` ends there: an enemy zone of
        control, or friendly units that may not be passed through."""
        return (i in self.zoc) or (not self.options.friendly_pass and i in self.friendly)

    def points(self, scaled: int) -> Fraction:
        return Fraction(scaled, self.scale)


def search(board: Board, budget: int, halting: bool = True) -> tuple[dict[int, int], dict[int, int]]:
    """Cheapest cost (in ``1/scale`` points) of every cell reachable from
    the unit's cell within ``budget``, and the cell each is entered from.
    With ``halting`` a move stops on entering a cell :meth:`Board.stops`
    names, pays ``zoc_leave_cost`` to leave an enemy zone it starts in
    (``stop_leave``) and may not step from its enemy zone into another
    (``locked``)."""
    start = board.start
    best = {start: 0}
    parents: dict[int, int] = {}
    heap = [(0, start)]
    zoc_start = halting and start in board.zoc
    locked = zoc_start and board.options.zoc == "locked"
    leave = board.leave_cost if zoc_start else 0
    zoc = board.zoc
    stops = board.stops
    while heap:
        cost, i = heapq.heappop(heap)
        if best[i] != cost:
            continue
        if i != start and halting and stops(i):
            continue
        for n, sc in board.steps(i):
            if i == start:
                if locked and n in zoc:
                    continue
                sc += leave
            nc = cost + sc
            if nc <= budget and nc < best.get(n, budget + 1):
                best[n] = nc
                parents[n] = i
                heapq.heappush(heap, (nc, n))
    return best, parents
