"""A small rules-system plugin module for tests/rules/test_plugins.py: Step,
one square at a time; and Sloppy, a system the conformance kit must reject
(its check moves the unit)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.model import Scenario
from engine.rules.base import PlainVerdict, RulesSystem, UnitsMoved, Verdict


@dataclass(frozen=True)
class StepOptions:
    reach: int = 1


@dataclass(frozen=True)
class StepOrder:
    unit: str
    to: str


class Step(RulesSystem[Scenario, StepOptions]):
    name = "fake_step"
    title = "Step (a test plugin)"
    map_kinds = frozenset({"square", "hex"})
    Options = StepOptions
    Order = StepOrder

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> PlainVerdict:
        o: StepOrder = self.read_order(order)
        u = scenario.unit(o.unit)
        to = scenario.map.parse_label(o.to)
        d = scenario.map.grid.distance(u.at, to)
        if d > self.options(scenario).reach or d == 0:
            return PlainVerdict(False, (f"{o.to} is {d} cells away.",))
        return PlainVerdict(True, (f"{u.id} steps to {o.to}.",))

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        return UnitsMoved.move(scenario, self.name, [(order["unit"], scenario.map.parse_label(order["to"]))])


class Sloppy(Step):
    name = "fake_sloppy"
    title = "Sloppy (breaks the contract)"

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> PlainVerdict:
        v = super().check(scenario, order)
        scenario.unit(order["unit"]).at = scenario.map.parse_label(order["to"])  # a check must not change anything
        return v
