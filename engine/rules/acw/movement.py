"""Movement: which hexes a unit can reach this turn, at what cost, and
where it must halt.

Rules (defaults; every number is ruleset data):

* a unit has its type's ``movement`` points "in the open" (infantry and
  artillery 3, HQ and cavalry 5);
* entering a hex costs its terrain's ``move_cost`` (open 1, woods 3);
* crossing a river hexside costs ``river_cost`` (3), at a bridge, rail or
  road, ``bridge_cost`` (1); a step that both crosses a river and enters
  woods costs the higher of the two (option ``step_cost: "sum"`` adds them);
* a unit may not enter a hex that holds an enemy unit, and a unit entering a
  hex adjacent to an enemy unit must halt there (it may leave such a hex at
  the start of its move);
* friendly units may be passed through; the stacking limit applies where a
  move ends (:mod:`.stacking`).

:class:`Board` indexes the map once for one moving side (terrain costs,
river hexsides, enemy hexes and the hexes next to them); :func:`reach` then
answers in well under a millisecond for a 5-point move on any map size,
because it only touches the hexes within reach.  Build a new board after the
map changes; after units move, :meth:`Board.with_units` makes the new board
from the old one, searching again only the steps next to hexes whose enemy
occupation changed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from engine.grids import Cell, Grid
from engine.model import ModelError, Scenario, Unit

from .options import AcwOptions, options_for
from .stacking import Stack, stack_at
from .units import display_name, movement_of

Crossing = Literal["river", "rail bridge", "road bridge", "bridge"]


class Board:
    """The map as the movement search sees it, for units of ``side``.

    Holds plain Python indexes (a hex is ``row * width + col``); cheap to
    build (proportional to the rivers and units, not the map's area).
    """

    def __init__(self, scenario: Scenario, side: str, options: AcwOptions | None = None) -> None:
        self.scenario = scenario
        self.side = side
        self.options = options or options_for(scenario)
        gm = scenario.map
        self.grid: Grid = gm.grid
        self.width, self.height = gm.width, gm.height
        self.terrain: np.ndarray = gm.terrain
        self.terrain_cost: list[int | None] = [None if t.impassable else t.move_cost for t in scenario.ruleset.terrain]
        # entering cost per hex as one byte (255: impassable), so the search
        # reads ``bytes[i]`` instead of a numpy item and a table per step
        # (kept empty, and the slow path used, when a cost does not fit a byte)
        self._enter: bytes = b""
        if (self.terrain_cost and all(c is None or 0 <= c < 255 for c in self.terrain_cost)
                and self.terrain.size and int(self.terrain.max()) < len(self.terrain_cost)):
            lut = np.array([255 if c is None else c for c in self.terrain_cost], dtype=np.uint8)
            self._enter = lut[self.terrain].tobytes()
        self._steps = self.grid.neighbour_step_table()
        o = self.options
        passable = [c for c in self.terrain_cost if c is not None]
        self.min_step = min(passable) if passable and min(passable) > 0 and o.river_cost >= 0 \
            and o.bridge_cost >= 0 else 0
        """The least a step can cost (entering terrain; a river or bridge adds
        to it or replaces it with a larger cost): a search stops expanding
        hexes from which no step fits the allowance left."""
        w = self.width
        self.rivers: dict[int, dict[int, str | None]] = {}
        for e in gm.rivers:
            a, b = e.a.row * w + e.a.col, e.b.row * w + e.b.col
            kind = gm.bridges.get(e)
            self.rivers.setdefault(a, {})[b] = kind
            self.rivers.setdefault(b, {})[a] = kind
        scenario.side(side)  # unknown side: ModelError
        self.enemy: dict[int, list[Unit]] = {}
        self.near_enemy: set[int] = set()
        self._place_units(scenario)
        self._links: dict[int, tuple[tuple[int, int], ...]] = {}
        """Per hex searched so far, its allowed steps (neighbour, cost) in
        neighbour order: filled by the search as it goes (:meth:`links`), so
        the Board, like a prebuilt graph, answers a later search from it."""

    def _place_units(self, scenario: Scenario) -> None:
        """Index the units of ``scenario`` not allied to the side: the
        hexes they hold and the hexes next to those."""
        w = self.width
        self.enemy = {}
        for u in scenario.units:
            if not scenario.allied(u.side, self.side):
                self.enemy.setdefault(u.at.row * w + u.at.col, []).append(u)
        self.near_enemy = set()
        for i in self.enemy:
            self.near_enemy.update(self.neighbours(i))

    def with_units(self, scenario: Scenario | None = None) -> Board:
        """A board for the same map, side and options with the units as
        they stand now in ``scenario`` (default: this board's, its units
        moved since), this board left as it was.  The terrain and river
        indexes are shared and the steps already searched kept, but for
        the steps into hexes an enemy unit entered or left.  Only for unit
        moves, arrivals and removals: after a map edit build a new board."""
        new = copy.copy(self)
        new.scenario = scenario if scenario is not None else self.scenario
        new._place_units(new.scenario)
        changed = self.enemy.keys() ^ new.enemy.keys()
        links = dict(self._links)
        for i in changed:
            for n in self.neighbours(i):
                links.pop(n, None)
        new._links = links
        return new

    # -- indexes ---------------------------------------------------------
    def index(self, cell: Cell) -> int:
        return cell.row * self.width + cell.col

    def cell(self, i: int) -> Cell:
        return Cell(i % self.width, i // self.width)

    def neighbours(self, i: int) -> list[int]:
        w, h = self.width, self.height
        row, col = divmod(i, w)
        out = []
        for dc, dr in self._steps[(col & 1) | (row & 1) << 1]:  # grids.step_class, inlined
            c, r = col + dc, row + dr
            if 0 <= c < w and 0 <= r < h:
                out.append(r * w + c)
        return out

    def enter_cost(self, i: int) -> int | None:
        """Terrain cost of entering hex ``i``; ``None`` if impassable."""
        if self._enter:
            v = self._enter[i]
            return None if v == 255 else v
        row, col = divmod(i, self.width)
        t: int = self.terrain.item(row, col)
        return self.terrain_cost[t]

    def crossing(self, a: int, b: int) -> Crossing | None:
        """What lies on the hexside between ``a`` and ``b``."""
        sides = self.rivers.get(a)
        if sides is None or b not in sides:
            return None
        kind = sides[b]
        if kind is None:
            return "river"
        return "rail bridge" if kind == "rail" else "road bridge" if kind == "road" else "bridge"

    def links(self, i: int) -> tuple[tuple[int, int], ...]:
        """The allowed steps out of hex ``i``: (neighbour, :meth:`step_cost`)
        for every neighbour it may enter, in neighbour order (cached)."""
        out = self._links.get(i)
        if out is not None:
            return out
        enter = self._enter
        if not enter:
            out = tuple((n, c) for n in self.neighbours(i) if (c := self.step_cost(i, n)) is not None)
        else:  # step_cost inlined over the byte table
            w, h, enemy, o = self.width, self.height, self.enemy, self.options
            sides = self.rivers.get(i)
            row, col = divmod(i, w)
            steps = []
            for dc, dr in self._steps[(col & 1) | (row & 1) << 1]:
                c, r = col + dc, row + dr
                if not (0 <= c < w and 0 <= r < h):
                    continue
                n = r * w + c
                cost = enter[n]
                if cost == 255 or n in enemy:
                    continue
                if sides is not None and n in sides:
                    river = o.river_cost if sides[n] is None else o.bridge_cost
                    cost = cost + river if o.step_cost == "sum" else max(cost, river)
                steps.append((n, cost))
            out = tuple(steps)
        self._links[i] = out
        return out

    def step_cost(self, a: int, b: int) -> int | None:
        """Movement points to step from ``a`` into its neighbour ``b``;
        ``None`` if the step is not allowed (impassable, enemy-held)."""
        if b in self.enemy:
            return None
        cost = self.enter_cost(b)
        if cost is None:
            return None
        sides = self.rivers.get(a)
        if sides is not None and b in sides:
            o = self.options
            river = o.river_cost if sides[b] is None else o.bridge_cost
            cost = cost + river if o.step_cost == "sum" else max(cost, river)
        return cost


@dataclass(frozen=True)
class PathStep:
    """One step of a route: the hex entered, what that step cost and why."""

    cell: Cell
    label: str
    cost: int
    total: int
    terrain: str
    crossing: Crossing | None

    def describe(self) -> str:
        why = self.terrain + (f", across a {self.crossing}" if self.crossing else "")
        return f"{self.label} +{self.cost} ({why})"


@dataclass(frozen=True)
class ReachedHex:
    cell: Cell
    label: str
    cost: int
    left: int
    halt: bool
    """The unit must halt here: the hex is adjacent to an enemy unit."""


@dataclass(frozen=True, eq=False)
class Reach:
    """Every hex ``unit_id`` can reach this turn with its cost.

    ``costs`` maps a hex index to the cheapest cost; ``parents`` to the hex
    it is entered from on that cheapest route (first found among equals, in
    the grid's neighbour order).  Use :meth:`hexes`, :meth:`cost`,
    :meth:`path`.
    """

    unit_id: str
    start: Cell
    allowance: int
    board: Board
    costs: dict[int, int]
    parents: dict[int, int]

    def reachable(self, cell: Cell) -> bool:
        return self.board.index(cell) in self.costs

    def cost(self, cell: Cell) -> int | None:
        return self.costs.get(self.board.index(cell))

    def halts(self, cell: Cell) -> bool:
        """Whether a unit entering ``cell`` must halt there."""
        return self.board.index(cell) in self.board.near_enemy

    def hexes(self) -> list[ReachedHex]:
        """Every reachable hex except the start, cheapest first, then in hex order."""
        b = self.board
        label = b.scenario.map.label
        out = []
        start = b.index(self.start)
        for i, c in sorted(self.costs.items(), key=lambda kv: (kv[1], kv[0] % b.width, kv[0] // b.width)):
            if i == start:
                continue
            cell = b.cell(i)
            out.append(ReachedHex(cell, label(cell), c, self.allowance - c, i in b.near_enemy))
        return out

    def to_data(self) -> dict[str, Any]:
        """The JSON form (``adjutant reach --json``): every reachable hex with
        its cost, the points left, whether the unit must halt there, the
        route and its crossings, and why a hex it reaches cannot end its
        move (:func:`check_move`); the hexes where it must halt."""
        s = self.board.scenario
        u = s.unit(self.unit_id)
        hexes: list[dict[str, object]] = []
        halts: list[str] = []
        for h in self.hexes():
            m = check_move(s, u, h.cell, self)
            hexes.append({"hex": h.label, "cost": h.cost, "left": h.left, "halt": h.halt, "ok": m.ok,
                          "path": [st.label for st in m.path],
                          "crossings": [{"into": st.label, "kind": st.crossing, "cost": st.cost} for st in m.crossings],
                          **({} if m.ok else {"reason": m.reason})})
            if h.halt:
                halts.append(h.label)
        return {"unit": u.id, "name": display_name(u), "from": s.map.label(self.start), "movement": movement_of(s, u),
                "fortified": bool(u.props.get("fortified")), "reachable": hexes, "halts": halts}

    def path(self, cell: Cell) -> tuple[PathStep, ...]:
        """The cheapest route to ``cell`` (empty if unreachable or the start)."""
        b = self.board
        i = b.index(cell)
        if i not in self.costs:
            return ()
        chain = []
        while i in self.parents:
            chain.append(i)
            i = self.parents[i]
        chain.reverse()
        steps = []
        prev = b.index(self.start)
        gm = b.scenario.map
        terrain = b.scenario.ruleset.terrain
        for j in chain:
            cost = b.step_cost(prev, j)
            assert cost is not None
            c = b.cell(j)
            steps.append(PathStep(c, gm.label(c), cost, self.costs[j], terrain[gm.terrain_at(c)].name.lower(),
                                  b.crossing(prev, j)))
            prev = j
        return tuple(steps)


def _search(board: Board, start: int, allowance: int, halting: bool = True) -> tuple[dict[int, int], dict[int, int]]:
    """Uniform-cost search with a bucket queue (costs are small integers),
    over the Board's cached steps (:meth:`Board.links`): a hex's steps are
    worked out once per Board, so a search costs one dictionary probe per
    step after the first over the same hexes (``bench/peers.py`` compares
    it with networkx's Dijkstra on its prebuilt graph)."""
    best = {start: 0}
    parents: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(allowance + 1)]
    buckets[0].append(start)
    near = board.near_enemy if halting else set()
    cached = board._links
    links = board.links
    over = allowance + 1
    get = best.get
    # hexes costing more than allowance - min_step take no further step
    # (every step costs at least min_step): the last buckets, usually the
    # largest, are settled without being expanded
    for cost in range(allowance + 1 - board.min_step):
        for i in buckets[cost]:
            if best[i] != cost or (i != start and i in near):
                continue
            steps = cached.get(i)
            if steps is None:
                steps = links(i)
            for n, sc in steps:
                nc = cost + sc
                if nc < get(n, over):
                    best[n] = nc
                    parents[n] = i
                    buckets[nc].append(n)
    return best, parents


def reach(scenario: Scenario, unit: Unit | str, board: Board | None = None) -> Reach:
    """Every hex ``unit`` can reach with its movement allowance this turn.

    ``board`` (for the unit's side) may be passed to reuse its index; it
    must reflect the scenario as it is now.
    """
    u = scenario.unit(unit) if isinstance(unit, str) else unit
    if board is None:
        board = Board(scenario, u.side)
    elif not scenario.allied(board.side, u.side):
        raise ModelError(f"the board was built for side '{board.side}', not for {display_name(u)} ({u.side})")
    allowance = movement_of(scenario, u)
    start = board.index(u.at)
    costs, parents = _search(board, start, allowance)
    return Reach(u.id, u.at, allowance, board, costs, parents)


@dataclass(frozen=True)
class MoveCheck:
    """Whether ``unit_id`` may move to ``target`` this turn, and what it costs."""

    unit_id: str
    target: Cell
    label: str
    ok: bool
    reason: str
    cost: int | None
    left: int | None
    path: tuple[PathStep, ...]
    halt: bool
    adjacent_enemies: tuple[str, ...]
    stack: Stack

    @property
    def crossings(self) -> tuple[PathStep, ...]:
        return tuple(s for s in self.path if s.crossing)

    @property
    def reasons(self) -> tuple[str, ...]:
        """:attr:`reason` as the verdict's reasons (:class:`engine.rules.base.Verdict`)."""
        return (self.reason,)

    def to_data(self) -> dict[str, object]:
        return {"unit": self.unit_id, "hex": self.label, "ok": self.ok, "reason": self.reason, "cost": self.cost,
                "left": self.left, "path": [s.label for s in self.path], "halt": self.halt,
                "crossings": [{"into": s.label, "kind": s.crossing, "cost": s.cost} for s in self.crossings],
                "adjacent_enemies": list(self.adjacent_enemies), "stack": self.stack.to_data()}


def check_move(scenario: Scenario, unit: Unit | str, target: Cell, reached: Reach | None = None) -> MoveCheck:
    """Can the unit end its move in ``target``?  Every "no" says why."""
    u = scenario.unit(unit) if isinstance(unit, str) else unit
    r = reached if reached is not None and reached.unit_id == u.id else reach(scenario, u)
    b = r.board
    gm = scenario.map
    if not gm.grid.contains(target):
        raise ModelError(f"{target!r} is off the map")
    label = gm.label(target)
    name = display_name(u)
    ti = b.index(target)
    adjacent = tuple(e.id for n in b.neighbours(ti) for e in b.enemy.get(n, ()))
    stack = stack_at(scenario, target, arriving=u, options=b.options)
    halt = ti in b.near_enemy and target != u.at

    def no(reason: str) -> MoveCheck:
        return MoveCheck(u.id, target, label, False, reason, r.cost(target), None, r.path(target), halt,
                         adjacent, stack)

    if target == u.at:
        return MoveCheck(u.id, target, label, True, f"{name} stays in {label}", 0, r.allowance, (), False,
                         adjacent, stack)
    if ti in b.enemy:
        return no(f"{label} is held by the enemy ({', '.join(display_name(e) for e in b.enemy[ti])}); "
                  "attack it from an adjacent hex instead")
    if b.enter_cost(ti) is None:
        return no(f"{label} is impassable terrain")
    cost = r.cost(target)
    if cost is None:
        return no(_why_unreachable(scenario, u, r, target, label))
    if stack.over:
        return MoveCheck(u.id, target, label, False, f"{name} may not end its move in {label}: {stack.reason}",
                         cost, r.allowance - cost, r.path(target), halt, adjacent, stack)
    path = r.path(target)
    crossings = [s for s in path if s.crossing]
    via = "".join(f"; crosses a {s.crossing} into {s.label}" for s in crossings)
    reason = f"{name} moves to {label} for {cost} of {r.allowance} movement points{via}"
    if halt:
        reason += f"; it must halt there, next to the enemy ({', '.join(adjacent)})"
    return MoveCheck(u.id, target, label, True, reason, cost, r.allowance - cost, path, halt, adjacent, stack)


def _why_unreachable(scenario: Scenario, u: Unit, r: Reach, target: Cell, label: str) -> str:
    b = r.board
    name = display_name(u)
    dist = scenario.map.grid.distance(u.at, target)
    if dist > r.allowance:
        return (f"{label} is {dist} hexes away; {name} has {r.allowance} movement points "
                "and every hex costs at least 1")
    # distance is small: find what stops it (budget wide enough for any route of this length)
    budget = r.allowance + 3 * dist + 6
    free, _ = _search(b, b.index(u.at), budget, halting=False)
    ti = b.index(target)
    if ti in free and free[ti] <= r.allowance:
        return (f"{name} cannot reach {label}: every route within its {r.allowance} movement points "
                "passes a hex next to the enemy, where it would have to halt")
    if ti in free:
        return (f"{name} cannot reach {label}: the cheapest route costs {free[ti]} movement points "
                f"(woods and unbridged river crossings cost more than open ground); it has {r.allowance}")
    return f"{name} cannot reach {label}: no route leads there around enemy-held and impassable hexes"
