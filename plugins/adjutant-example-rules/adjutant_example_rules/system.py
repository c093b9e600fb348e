"""Leap (see the package's README): a unit leaps exactly ``distance`` cells.

A complete rules system in one module: options and order as frozen
dataclasses read by Adjutant's generic reader, a verdict value with ``ok``,
``reasons`` and ``to_data()``, and the effect as an undoable record.  The
class is not decorated with ``register``: the entry point names it and the
registry registers it when the plugin is first used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from engine.grids import Cell
from engine.model import Scenario
from engine.rules.base import AtLeast, RulesSystem, UnitsMoved, Verdict

NAME = "leap"


@dataclass(frozen=True)
class LeapOptions:
    """``ruleset.options["leap"]``."""

    distance: Annotated[int, AtLeast(1)] = 2
    blocked_terrain: tuple[str, ...] = ()
    stacking: bool = True


@dataclass(frozen=True)
class LeapOrder:
    """``{"unit": ID, "to": CELL}``."""

    unit: str
    to: str


@dataclass(frozen=True)
class LeapVerdict:
    unit: str
    start: str
    to: str
    target: Cell
    ok: bool
    reasons: tuple[str, ...]
    distance: int

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": self.start, "to": self.to, "ok": self.ok, "distance": self.distance,
                "reasons": list(self.reasons)}


class Leap(RulesSystem[Scenario, LeapOptions]):
    """Leap: exactly ``distance`` cells, not onto blocked terrain or enemies."""

    name = NAME
    title = "Leap (the example plugin)"
    map_kinds = frozenset({"square", "hex"})
    Options = LeapOptions
    Order = LeapOrder
    doc = "plugins/adjutant-example-rules/README.md"

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> LeapVerdict:
        o: LeapOrder = self.read_order(order)
        opts = self.options(scenario)
        gm = scenario.map
        u = scenario.unit(o.unit)
        to = gm.parse_label(o.to)
        d = gm.grid.distance(u.at, to)
        start, dest = gm.label(u.at), gm.label(to)
        reasons = []
        if d != opts.distance:
            reasons.append(f"{dest} is {d} cell{'s' if d != 1 else ''} from {start}; a unit leaps exactly "
                           f"{opts.distance}.")
        t = scenario.ruleset.terrain[gm.terrain_at(to)]
        if t.impassable or t.id in opts.blocked_terrain:
            reasons.append(f"{u.id} may not land on {t.name.lower()} at {dest}.")
        others = [x for x in scenario.units_at(to) if x.id != u.id]
        enemies = [x.id for x in others if not scenario.allied(x.side, u.side)]
        if enemies:
            reasons.append(f"{dest} is held by the enemy ({', '.join(enemies)}).")
        elif others and not opts.stacking:
            reasons.append(f"{dest} holds {', '.join(x.id for x in others)}; units do not stack.")
        ok = not reasons
        if ok:
            reasons.append(f"{u.id} leaps {d} cell{'s' if d != 1 else ''} from {start} to {dest}.")
        return LeapVerdict(u.id, start, dest, to, ok, tuple(reasons), d)

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, LeapVerdict)
        return UnitsMoved.move(scenario, self.name, [(verdict.unit, verdict.target)])
