"""Hop: the smallest complete rules system, kept as the worked example of
"How to add a rules system" (``docs/developing.md``).

The rule.  A unit hops in a straight line — along a row or a column, or
also diagonally (option ``lines``) — at most ``reach`` squares (2).  It may
not land on nor pass over a square whose terrain id is in ``blocking``
(``["water"]``), and may not land on a square holding another unit unless
``stacking`` is true.  Every reason that stops a hop is given, one sentence
each.  Applied, the hop moves the unit; the record moves it back.

Everything a system needs is here: the options as a frozen dataclass read
by :func:`~engine.rules.base.read_options` (no hand-written reader), the
order as a frozen dataclass, a verdict value with ``ok``, ``reasons`` and
``to_data()``, the effect as an undoable record, and :func:`register`.
Its golden cases are ``golden.json`` beside this file, run by
``tests/rules/test_example_system.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from engine.grids import Cell
from engine.model import Scenario
from engine.rules.base import AtLeast, RulesSystem, UnitsMoved, Verdict, register

NAME = "example_hop"


@dataclass(frozen=True)
class HopOptions:
    """``ruleset.options["example_hop"]``: ``reach`` (squares, 1 or more),
    ``lines`` (``"rook"``: rows and columns; ``"queen"``: diagonals too),
    ``blocking`` (terrain ids a hop cannot land on or pass over),
    ``stacking`` (whether a unit may land on another)."""

    reach: Annotated[int, AtLeast(1)] = 2
    lines: Literal["rook", "queen"] = "queen"
    blocking: tuple[str, ...] = ("water",)
    stacking: bool = False


@dataclass(frozen=True)
class HopOrder:
    """``{"unit": ID, "to": LABEL}``."""

    unit: str
    to: str


@dataclass(frozen=True)
class Hop:
    """The verdict on one hop: ``path`` is the squares passed and landed on
    (start excluded), ``reasons`` one sentence each."""

    unit: str
    start: str
    to: str
    ok: bool
    reasons: tuple[str, ...]
    path: tuple[str, ...]
    target: Cell

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": self.start, "to": self.to, "ok": self.ok,
                "reasons": list(self.reasons), "path": list(self.path)}


@register
class HopSystem(RulesSystem[Scenario, HopOptions]):
    """Hop (see the module docstring)."""

    name = NAME
    title = "Hop (the example system)"
    map_kinds = frozenset({"square"})
    Options = HopOptions
    Order = HopOrder
    doc = "tests/rules/example_system/__init__.py"

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> Hop:
        o: HopOrder = self.read_order(order)
        opts = self.options(scenario)
        gmap = scenario.map
        u = scenario.unit(o.unit)
        to = gmap.parse_label(o.to)
        dc, dr = to.col - u.at.col, to.row - u.at.row
        steps = max(abs(dc), abs(dr))
        start, dest = gmap.label(u.at), gmap.label(to)
        reasons: list[str] = []
        straight = dc == 0 or dr == 0 or (opts.lines == "queen" and abs(dc) == abs(dr))
        if steps == 0:
            reasons.append(f"{u.id} is already at {dest}.")
        elif not straight:
            lines = "a row or a column" if opts.lines == "rook" else "a row, a column or a diagonal"
            reasons.append(f"{dest} is not on {lines} from {start}.")
        elif steps > opts.reach:
            reasons.append(f"{dest} is {steps} squares from {start}; a unit hops at most {opts.reach}.")
        path: list[Cell] = []
        if straight and steps:
            sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
            path = [Cell(u.at.col + k * sc, u.at.row + k * sr) for k in range(1, steps + 1)]
        terrain = scenario.ruleset.terrain
        for c in path:
            t = terrain[gmap.terrain_at(c)]
            if t.id in opts.blocking:
                verb = "lands on" if c == to else "passes over"
                reasons.append(f"The hop {verb} {t.name.lower()} at {gmap.label(c)}.")
        if not opts.stacking and steps:
            for other in scenario.units_at(to):
                if other.id != u.id:
                    reasons.append(f"{dest} holds {other.id}; units do not stack.")
        ok = not reasons
        if ok:
            reasons.append(f"{u.id} hops {steps} square{'s' if steps != 1 else ''} to {dest}.")
        return Hop(u.id, start, dest, ok, tuple(reasons), tuple(gmap.label(c) for c in path), to)

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, Hop)
        return UnitsMoved.move(scenario, self.name, [(verdict.unit, verdict.target)])
