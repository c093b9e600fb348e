"""The movement system as a registered rules system: reach with the points
left, the cheapest path with its cost per step, and every "no" with its
reason; the move order ``{"unit": ID, "to": CELL}``.  Rules and choices:
``docs/rules/movement.md``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.grids import Cell
from engine.model import ModelError, Scenario, Unit

from ..base import RulesSystem, UnitsMoved, Verdict, read_options
from ..registry import register
from .board import Board, Step, search
from .options import SYSTEM, MovementOptions


def number(x: Fraction) -> int | str:
    """A number as JSON shows it: a whole number, or a fraction like ``"3/2"``."""
    return int(x) if x.denominator == 1 else str(x)


def options_for(scenario: Scenario) -> MovementOptions:
    raw = scenario.ruleset.options.get(SYSTEM)
    opts: MovementOptions = read_options(MovementOptions, raw, f"ruleset.options.{SYSTEM}")
    return opts


def _name(u: Unit) -> str:
    return u.name or u.id


@dataclass(frozen=True)
class PathStep:
    """One step of a route: the cell entered, its cost and why."""

    label: str
    cost: Fraction
    total: Fraction
    terrain: str
    via: str | None
    sides: tuple[str, ...]
    stop: bool

    def why(self) -> str:
        out = f"along the {self.via}" if self.via else self.terrain
        if self.sides:
            out += ", across " + ", ".join(f"a {s}" for s in self.sides)
        return out

    def to_data(self) -> dict[str, Any]:
        return {"cell": self.label, "cost": number(self.cost), "total": number(self.total), "terrain": self.terrain,
                "via": self.via, "sides": list(self.sides), "stop": self.stop}


@dataclass(frozen=True)
class Stack:
    """The units in the target cell if the mover ended there: what counts
    against the limit (by count or factors) and whether it is over."""

    label: str
    counted: tuple[str, ...]
    amount: int
    limit: int | None
    by: str
    class_over: str = ""
    """Why a class's own ``stack_limit`` is exceeded ("" when none is)."""

    @property
    def over(self) -> bool:
        return self.limit is not None and self.amount > self.limit or bool(self.class_over)

    def reason(self) -> str:
        what = "units" if self.by == "count" else "factors"
        if self.limit is not None and self.amount > self.limit or not self.class_over:
            if self.limit is None:
                return f"{self.label} has no stacking limit"
            return (f"{self.label} would hold {self.amount} {what} ({', '.join(self.counted) or 'none'}); "
                    f"the limit is {self.limit}")
        return self.class_over

    def to_data(self) -> dict[str, Any]:
        return {"cell": self.label, "counted": list(self.counted), "amount": self.amount, "limit": self.limit,
                "by": self.by, "over": self.over, **({"class_over": self.class_over} if self.class_over else {})}


@dataclass(frozen=True)
class MoveVerdict:
    """Whether ``unit`` may end its move in ``target``, what it costs, the
    cheapest path step by step, and why (every "no" one sentence)."""

    unit: str
    unit_class: str
    start: str
    target: Cell
    label: str
    ok: bool
    reasons: tuple[str, ...]
    cost: Fraction | None
    allowance: int
    path: tuple[PathStep, ...]
    stop: bool
    stack: Stack | None

    @property
    def left(self) -> Fraction | None:
        return None if self.cost is None else self.allowance - self.cost

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "class": self.unit_class, "from": self.start, "to": self.label, "ok": self.ok,
                "reasons": list(self.reasons), "cost": None if self.cost is None else number(self.cost),
                "left": None if self.left is None else number(self.left), "allowance": self.allowance,
                "stop": self.stop, "path": [s.to_data() for s in self.path],
                **({"stack": self.stack.to_data()} if self.stack is not None else {})}


@dataclass(frozen=True, eq=False)
class Reach:
    """Every cell the unit reaches this turn with its cheapest cost (``costs``,
    in ``1/scale`` points) and the cell it is entered from (``parents``)."""

    board: Board
    costs: dict[int, int]
    parents: dict[int, int]

    @property
    def unit(self) -> Unit:
        return self.board.unit

    def cost(self, cell: Cell) -> Fraction | None:
        c = self.costs.get(self.board.index(cell))
        return None if c is None else self.board.points(c)

    def stops(self, cell: Cell) -> bool:
        """Whether a move entering ``cell`` ends there."""
        return self.board.stops(self.board.index(cell))

    def cells(self) -> list[Cell]:
        """Every reachable cell but the start, cheapest first, then by column and row."""
        b = self.board
        return [b.cell(i) for i, _ in sorted(self.costs.items(), key=lambda kv: (kv[1], kv[0] % b.width,
                                                                                   kv[0] // b.width))
                if i != b.start]

    def path(self, cell: Cell) -> tuple[PathStep, ...]:
        """The cheapest route to ``cell`` (empty when unreachable or the start)."""
        b = self.board
        i = b.index(cell)
        if i not in self.costs:
            return ()
        chain = []
        while i in self.parents:
            chain.append(i)
            i = self.parents[i]
        chain.reverse()
        out = []
        prev = b.start
        label = b.scenario.map.label
        for j in chain:
            s = b.step(prev, j)
            assert isinstance(s, Step)
            cost = b.points(self.costs[j] - self.costs[prev])
            out.append(PathStep(label(b.cell(j)), cost, b.points(self.costs[j]),
                                b.terrain_names[b.terrain_index(j)], s.via,
                                tuple(b.feature_name(f) for f in s.features), b.stops(j)))
            prev = j
        return tuple(out)

    def to_data(self) -> dict[str, Any]:
        """The JSON form (``adjutant move --json`` without ``--to``)."""
        b = self.board
        s = b.scenario
        cells = []
        for c in self.cells():
            v = check_move(s, b.unit, c, self)
            cells.append({"cell": v.label, "cost": number(v.cost or Fraction(0)),
                          "left": number(v.left or Fraction(0)), "stop": v.stop, "ok": v.ok,
                          "path": [p.label for p in v.path], **({} if v.ok else {"reason": v.reasons[0]})})
        return {"unit": b.unit.id, "class": b.class_name, "from": s.map.label(b.unit.at), "allowance": b.allowance,
                "reachable": cells, "stops": [c["cell"] for c in cells if c["stop"]]}


def reach(scenario: Scenario, unit: Unit | str, options: MovementOptions | None = None) -> Reach:
    """Every cell ``unit`` can reach with its allowance this turn."""
    u = scenario.unit(unit) if isinstance(unit, str) else unit
    board = Board(scenario, u, options if options is not None else options_for(scenario))
    costs, parents = search(board, board.budget)
    return Reach(board, costs, parents)


def stack_at(board: Board, target: Cell) -> Stack:
    """The stack in ``target`` if the board's unit ended its move there."""
    s, o = board.scenario, board.options
    units = [u for u in s.units if u.at == target and u.id != board.unit.id] + [board.unit]
    counted = [u for u in units if o.class_of(u.type)[1].stacks]

    def size(us: list[Unit]) -> int:
        return len(us) if o.stacking.by == "count" else sum(u.strength for u in us)

    label = s.map.label(target)
    class_over = ""
    for name, cls in sorted(dict(o.class_of(u.type) for u in units).items()):
        if cls.stack_limit is None:
            continue
        mine = [u for u in units if o.class_of(u.type)[0] == name]
        if size(mine) > cls.stack_limit:
            what = "units" if o.stacking.by == "count" else "factors"
            class_over = (f"{label} would hold {size(mine)} {what} of {name} units "
                          f"({', '.join(u.id for u in mine)}); {name} units stack at most {cls.stack_limit}")
            break
    return Stack(label, tuple(u.id for u in counted), size(counted), o.stacking.limit, o.stacking.by, class_over)


def check_move(scenario: Scenario, unit: Unit | str, target: Cell, reached: Reach | None = None) -> MoveVerdict:
    """May the unit end its move in ``target``?  Every "no" says why."""
    u = scenario.unit(unit) if isinstance(unit, str) else unit
    r = reached if reached is not None and reached.unit.id == u.id else reach(scenario, u)
    b = r.board
    gm = scenario.map
    if not gm.grid.contains(target):
        raise ModelError(f"{target!r} is off the map")
    label = gm.label(target)
    name = _name(u)
    start = gm.label(u.at)
    ti = b.index(target)
    stop = ti != b.start and b.stops(ti)

    def verdict(ok: bool, reasons: list[str], stack: Stack | None = None) -> MoveVerdict:
        return MoveVerdict(u.id, b.class_name, start, target, label, ok, tuple(reasons), r.cost(target),
                           b.allowance, r.path(target), stop, stack)

    if target == u.at:
        return verdict(True, [f"{name} stays in {label}"])
    if ti in b.enemy:
        return verdict(False, [f"{label} is held by the enemy ({', '.join(_name(e) for e in b.enemy[ti])})"])
    cost = r.cost(target)
    if cost is None:
        return verdict(False, [_why_unreachable(r, target, label)])
    stack = stack_at(b, target)
    if stack.over:
        return verdict(False, [f"{name} may not end its move in {label}: {stack.reason()}"], stack)
    path = r.path(target)
    via = "".join(f"; {p.label} +{number(p.cost)} ({p.why()})" for p in path)
    reason = f"{name} moves to {label} for {number(cost)} of {b.allowance} movement points{via}"
    if stop and ti in b.zoc:
        reason += "; it stops there, in an enemy zone of control"
    elif stop:
        reason += "; it stops there, on friendly units it may not pass through"
    return verdict(True, [reason], stack)


def _why_unreachable(r: Reach, target: Cell, label: str) -> str:
    b = r.board
    name = _name(b.unit)
    ti = b.index(target)
    entries = [(n, b.step(n, ti)) for n in b.neighbours(ti)]
    if entries and all(isinstance(s, str) for _, s in entries):
        why = dict.fromkeys(s for _, s in entries if isinstance(s, str))
        return f"{name} cannot enter {label} from any side: " + "; ".join(why)
    if (b.options.zoc == "locked" and b.start in b.zoc and ti in b.zoc
            and ti in b.neighbours(b.start)):
        return (f"{name} may not move straight from one enemy zone of control ({b.scenario.map.label(b.unit.at)}) "
                f"into another ({label})")
    # free search (no stopping in zones or on friends), budget enough for a detour
    per_step = max([*(c for c in b.enter if c is not None), *(a + m for a, m, _ in b.side_rules.values()),
                    b.leave_cost], default=1) or 1
    free_budget = b.budget + per_step * (b.grid.distance(b.unit.at, target) + 3) * 3
    free, _ = search(b, free_budget, halting=False)
    if ti in free and free[ti] <= b.budget:
        return (f"{name} cannot reach {label}: every route within its {b.allowance} movement points passes a cell "
                "where its move must stop (an enemy zone of control, or friendly units it may not pass through)")
    if ti in free:
        return (f"{name} cannot reach {label}: the cheapest route costs {number(b.points(free[ti]))} movement "
                f"points; it has {b.allowance}")
    return f"{name} cannot reach {label}: no route leads there around enemy-held cells and prohibited terrain and sides"


@dataclass(frozen=True)
class MoveOrder:
    """``{"unit": ID, "to": CELL}``: move the unit to the cell (a label or place)."""

    unit: str
    to: str


@register
class Movement(RulesSystem[Scenario, MovementOptions]):
    """A hex-and-counter movement rule configured in the scenario: unit
    classes, terrain, hexside and link costs, zones of control, stacking."""

    name = SYSTEM
    title = "Movement (configured in the scenario)"
    map_kinds = frozenset({"square", "hex"})
    Options = MovementOptions
    Order = MoveOrder
    doc = "docs/rules/movement.md"

    phases = ("movement",)

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> MoveVerdict:
        o: MoveOrder = self.read_order(order)
        u = scenario.unit(o.unit)
        return check_move(scenario, u, scenario.map.parse_label(o.to), reach(scenario, u, self.options(scenario)))

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, MoveVerdict)
        return UnitsMoved.move(scenario, self.name, [(verdict.unit, verdict.target)])
