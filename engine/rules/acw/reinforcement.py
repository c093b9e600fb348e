"""Reinforcement points, the Rebel roll, and where factors may be added.

* The Union gains ``union_points_per_turn`` (1) point each turn.
* The Rebels gain 1 point when their "Reinforcement" post's time in
  milliseconds, modulo ``roll_modulus`` (6), is at most the number of the
  cities ``rebel_cities`` (E, G, I, O, M, L) they hold.  By default the
  milliseconds are the post time's millisecond part (0-999); option
  ``roll_source: "time_of_day"`` uses the whole time of day in milliseconds.
* Points are stored (``scenario.state["acw"]["points"][side]``).
* A factor costs the unit type's ``reinforcement_cost`` (infantry 1, cavalry
  and artillery 2, HQ 2 -- the document does not price HQ factors); a new
  unit (no factors) costs ``new_unit_cost`` (1).
* Factors are added only to a unit that does not move that turn (its
  ``moved`` property is not set) and stands in or next to a rail hex joined
  by rail, through hexes its side controls, to the map edge.  New units
  appear in such a hex too (the document's sentence breaks off at "starts").

A city (or a rail hex) is held by a side when one of its units stands
there, or when the control layer gives it to the side and no enemy unit
stands there.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.grids import Cell
from engine.model import ModelError, Scenario, Unit
from engine.words import counted, side_phrase, verb

from .combat import PostTime, parse_post_time
from .options import SYSTEM, AcwOptions, options_for
from .stacking import stack_at
from .units import display_name, factor_cost


def holder(scenario: Scenario, cell: Cell) -> str | None:
    """The side holding ``cell``: the side of the units in it, else the
    control layer's side."""
    here = scenario.units_at(cell)
    if here:
        return here[0].side
    f = scenario.controller(cell)
    return None if f is None else f.id


def holds(scenario: Scenario, side: str, cell: Cell) -> bool:
    h = holder(scenario, cell)
    return h is not None and scenario.allied(h, side)


def city_cell(scenario: Scenario, code: str) -> Cell:
    for cell, place in scenario.map.places.items():
        if place.code is not None and place.code.casefold() == code.casefold():
            return cell
    raise ModelError(f"the map has no city '{code}' (give a place the code '{code}')")


def cities_held(scenario: Scenario, side: str, codes: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c for c in codes if holds(scenario, side, city_cell(scenario, c)))


def points(scenario: Scenario, side: str) -> int:
    """Stored reinforcement points of ``side``."""
    scenario.side(side)
    value = scenario.state.get(SYSTEM, {}).get("points", {}).get(side, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ModelError(f"state.acw.points.{side} must be a whole number of 0 or more, got {value!r}")
    return value


@dataclass(frozen=True)
class Roll:
    """The Rebels' reinforcement roll."""

    time: str
    milliseconds: int
    remainder: int
    cities: tuple[str, ...]
    gained: int
    reason: str

    def to_data(self) -> dict[str, object]:
        return {"time": self.time, "milliseconds": self.milliseconds, "remainder": self.remainder,
                "cities": list(self.cities), "cities_held": len(self.cities), "gained": self.gained,
                "reason": self.reason}


def roll(post: PostTime | str | int, cities: tuple[str, ...], options: AcwOptions | None = None) -> Roll:
    """The roll for a post (a time with milliseconds, or a number of
    milliseconds) when the Rebels hold ``cities``."""
    o = options or AcwOptions()
    if isinstance(post, bool):
        raise ModelError("a post is a time like 9:51:45.250 or a number of milliseconds")
    if isinstance(post, int):
        if post < 0:
            raise ModelError(f"milliseconds cannot be negative, got {post}")
        ms, shown = post, f"{post} ms"
    else:
        t = parse_post_time(post) if isinstance(post, str) else post
        if o.roll_source == "milliseconds":
            if t.milliseconds is None:
                raise ModelError(f"the post time {t} has no milliseconds; give it as H:MM:SS.mmm")
            ms = t.milliseconds
        else:
            ms = ((t.hours * 60 + t.minutes) * 60 + t.seconds) * 1000 + (t.milliseconds or 0)
        shown = str(t)
    rem = ms % o.roll_modulus
    n = len(cities)
    gained = 1 if rem <= n else 0
    held = ", ".join(cities) or "none"
    reason = (f"{ms} mod {o.roll_modulus} = {rem} {'<=' if gained else '>'} {n} cities held ({held}): "
              + ("the Rebels gain 1 reinforcement point" if gained else "no reinforcement this turn"))
    return Roll(shown, ms, rem, cities, gained, reason)


def rebel_roll(scenario: Scenario, post: PostTime | str | int) -> Roll:
    o = options_for(scenario)
    return roll(post, cities_held(scenario, o.rebel_side, o.rebel_cities), o)


@dataclass(frozen=True)
class Gain:
    """Reinforcement points a side gains at the start of its turn."""

    side: str
    gained: int
    total: int
    reason: str

    def to_data(self) -> dict[str, object]:
        return {"side": self.side, "gained": self.gained, "total": self.total, "reason": self.reason}


def turn_gain(scenario: Scenario, side: str, post: PostTime | str | int | None = None) -> Gain:
    """The points ``side`` gains this turn and its new total (nothing is
    stored: the caller records ``total`` in ``state.acw.points``).  The Union
    gains ``union_points_per_turn`` every turn; the Rebels roll with their
    "Reinforcement" post (``post``, required for them)."""
    o = options_for(scenario)
    before = points(scenario, side)
    if side == o.rebel_side:
        if post is None:
            raise ModelError("the Rebels' point depends on their Reinforcement post: give its time (H:MM:SS.mmm)")
        r = rebel_roll(scenario, post)
        return Gain(side, r.gained, before + r.gained, r.reason)
    if side != o.union_side:
        raise ModelError(f"side '{side}' takes no reinforcement points in this campaign "
                         f"(the sides are '{o.union_side}' and '{o.rebel_side}')")
    g = o.union_points_per_turn
    return Gain(side, g, before + g,
                f"the Union gains {g} reinforcement point{'s' if g != 1 else ''} each turn: {before} + {g} = {before + g}")


def rail_to_edge(scenario: Scenario, side: str, options: AcwOptions | None = None) -> frozenset[Cell]:
    """Rail hexes joined by rail to a map-edge rail hex through hexes
    ``side`` controls (option ``rail_control: "not_enemy"``: through hexes
    no enemy holds)."""
    o = options or options_for(scenario)
    gm = scenario.map
    rail = gm.links.get("rail", set())
    if not rail:
        return frozenset()

    def ok(c: Cell) -> bool:
        h = holder(scenario, c)
        if o.rail_control == "friendly":
            return h is not None and scenario.allied(h, side)
        return h is None or scenario.allied(h, side)

    adj: dict[Cell, list[Cell]] = {}
    for e in rail:
        adj.setdefault(e.a, []).append(e.b)
        adj.setdefault(e.b, []).append(e.a)
    w, h = gm.width, gm.height
    todo = [c for c in adj if (c.col in (0, w - 1) or c.row in (0, h - 1)) and ok(c)]
    seen = set(todo)
    while todo:
        c = todo.pop()
        for n in adj[c]:
            if n not in seen and ok(n):
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


@dataclass(frozen=True)
class Reinforcement:
    """Whether a purchase is allowed, its cost and the points left."""

    ok: bool
    cost: int
    available: int
    reason: str

    def to_data(self) -> dict[str, object]:
        return {"ok": self.ok, "cost": self.cost, "available": self.available,
                "left": self.available - self.cost if self.ok else self.available, "reason": self.reason}


def _supplied(scenario: Scenario, side: str, cell: Cell, o: AcwOptions) -> bool:
    rail = rail_to_edge(scenario, side, o)
    return cell in rail or any(n in rail for n in scenario.map.grid.neighbours(cell))


def check_reinforce(scenario: Scenario, unit: Unit | str, factors: int = 1, *, free: bool = False) -> Reinforcement:
    """May ``factors`` factors be added to ``unit`` this turn?  ``free``: the
    factor costs no points (the Rebel post under ``rebel_gain: "factor"``)."""
    o = options_for(scenario)
    u = scenario.unit(unit) if isinstance(unit, str) else unit
    if factors < 1:
        raise ModelError("add at least one factor")
    cost = 0 if free else factor_cost(scenario, u) * factors
    have = points(scenario, u.side)
    name, label = display_name(u), scenario.map.label(u.at)
    if u.props.get("moved"):
        return Reinforcement(False, cost, have, f"{name} moved this turn; only a unit that stays put is reinforced")
    if not _supplied(scenario, u.side, u.at, o):
        return Reinforcement(False, cost, have, f"{name} in {label} is not in or next to a rail hex held all the "
                                                "way to the map edge")
    if cost > have:
        side = scenario.side(u.side).name
        return Reinforcement(False, cost, have, f"{factors} factor{'s' if factors > 1 else ''} for {name} cost "
                                                f"{counted(cost, 'point')}; {side_phrase(side)} "
                                                f"{verb(side, 'has', 'have')} {have}")
    return Reinforcement(True, cost, have, f"{name} in {label} gains {factors} factor{'s' if factors > 1 else ''} "
                                           f"for {counted(cost, 'point')} ({have - cost} left)")


def check_new_unit(scenario: Scenario, side: str, unit_type: str, cell: Cell) -> Reinforcement:
    """May ``side`` raise a new unit (no factors) of ``unit_type`` in ``cell``?"""
    o = options_for(scenario)
    scenario.ruleset.unit_type(unit_type)
    have = points(scenario, side)
    label = scenario.map.label(cell)
    probe = Unit("__new__", side, unit_type, cell, 0)
    if holder(scenario, cell) not in (None, side) and not holds(scenario, side, cell):
        return Reinforcement(False, o.new_unit_cost, have, f"{label} is held by the enemy")
    if not _supplied(scenario, side, cell, o):
        return Reinforcement(False, o.new_unit_cost, have,
                             f"{label} is not in or next to a rail hex held all the way to the map edge")
    stack = stack_at(scenario, cell, arriving=probe, options=o)
    if stack.over:
        return Reinforcement(False, o.new_unit_cost, have, f"no room in {label}: {stack.reason}")
    if o.new_unit_cost > have:
        return Reinforcement(False, o.new_unit_cost, have, f"a new unit costs {o.new_unit_cost} point; "
                                                           f"{side} has {have}")
    return Reinforcement(True, o.new_unit_cost, have, f"a new {unit_type} unit (no factors) may be raised in {label}")
