"""Hop on territory maps: the example system's second half, for maps of
territories instead of squares.

The rule.  A unit hops across at most ``reach`` borders (2) to another
land territory, passing over land only (a sea territory stops it), and may
not land where another side's unit stands unless ``stacking`` is true.
Every reason that stops a hop is given, one sentence each; applied, the hop
moves the unit and the record moves it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from engine.rules.base import AtLeast, RulesSystem, Verdict, register
from engine.territory import TerritoryScenario

NAME = "example_hop_territory"


@dataclass(frozen=True)
class TerritoryHopOptions:
    """``ruleset.options["example_hop_territory"]``: ``reach`` (borders, 1
    or more) and ``stacking`` (whether a unit may land by another side's)."""

    reach: Annotated[int, AtLeast(1)] = 2
    stacking: bool = False


@dataclass(frozen=True)
class TerritoryHopOrder:
    """``{"unit": ID, "to": TERRITORY}``."""

    unit: str
    to: str


@dataclass(frozen=True)
class TerritoryHop:
    """The verdict on one hop: ``path`` the territories passed and landed
    on (start excluded, empty when no land route exists)."""

    unit: str
    start: str
    to: str
    ok: bool
    reasons: tuple[str, ...]
    path: tuple[str, ...]

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": self.start, "to": self.to, "ok": self.ok,
                "reasons": list(self.reasons), "path": list(self.path)}


@dataclass(frozen=True)
class TerritoryHopped:
    """The record of a hop (a :class:`~engine.rules.base.Record`): the unit
    moved from ``start`` to ``to``; undo moves it back."""

    unit: str
    start: str
    to: str

    def undo(self, scenario: Any) -> None:
        scenario.unit(self.unit).at = self.start

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": self.start, "to": self.to}


def land_path(scenario: TerritoryScenario, start: str, to: str) -> list[str]:
    """The fewest borders from ``start`` to ``to`` over land (start
    excluded; ``[]``: no land route)."""
    m = scenario.map
    came: dict[str, str] = {start: start}
    frontier = [start]
    while frontier and to not in came:
        nxt = []
        for tid in frontier:
            for n in m.neighbours(tid):
                if n not in came and not m.territories[n].sea:
                    came[n] = tid
                    nxt.append(n)
        frontier = nxt
    if to not in came or to == start:
        return []
    path = [to]
    while came[path[-1]] != start:
        path.append(came[path[-1]])
    return path[::-1]


@register
class TerritoryHopSystem(RulesSystem[TerritoryScenario, TerritoryHopOptions]):
    """Hop on territory maps (see the module docstring)."""

    name = NAME
    title = "Hop on territories (the example system)"
    map_kinds = frozenset({"territory"})
    Options = TerritoryHopOptions
    Order = TerritoryHopOrder
    doc = "tests/rules/example_system/territory.py"

    def check(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> TerritoryHop:
        o: TerritoryHopOrder = self.read_order(order)
        opts = self.options(scenario)
        m = scenario.map
        u = scenario.unit(o.unit)
        to = m.territory(o.to)
        start, dest = m.label(u.at), m.label(to.id)
        reasons: list[str] = []
        path = land_path(scenario, u.at, to.id)
        if to.id == u.at:
            reasons.append(f"{u.id} is already in {dest}.")
        elif to.sea:
            reasons.append(f"{dest} is sea; a unit hops onto land only.")
        elif not path:
            reasons.append(f"No land route joins {start} and {dest}.")
        elif len(path) > opts.reach:
            reasons.append(f"{dest} is {len(path)} borders from {start}; a unit hops at most {opts.reach}.")
        if not opts.stacking:
            for other in scenario.units_in(to.id):
                if other.side != u.side:
                    reasons.append(f"{dest} holds {other.id} of another side.")
        ok = not reasons
        if ok:
            reasons.append(f"{u.id} hops {len(path)} border{'s' if len(path) != 1 else ''} to {dest}.")
        return TerritoryHop(u.id, u.at, to.id, ok, tuple(reasons), tuple(path))

    def effect(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Verdict) -> TerritoryHopped:
        assert isinstance(verdict, TerritoryHop)
        scenario.unit(verdict.unit).at = verdict.to
        return TerritoryHopped(verdict.unit, verdict.start, verdict.to)
