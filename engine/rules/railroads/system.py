"""Module I as a registered rules system (:class:`engine.rules.base.RulesSystem`).

One order at a time: :meth:`Railroads.check` routes the order alone with
:func:`~.routing.plan` (its capacity, control and path checks); a turn's
orders are judged together, sharing the territories' capacity, by
:func:`~.routing.plan` itself (``adjutant railplan``).
:meth:`Railroads.apply` moves the order's units to the destination and
returns the record that moves them back.  Rules: ``docs/rules/railroads.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from ...model import ModelError
from ...territory.model import TerritoryScenario
from ..base import AtLeast, RulesSystem, UnitsMoved, Verdict
from ..registry import register
from .routing import plan
from .rules import SYSTEM, RailPlan, RailroadOptions, RailRules


@dataclass(frozen=True)
class RailroadOrder:
    """An order as written in an orders file: ``{"unit": ID, "to": T}`` or
    ``{"nation": N, "from": T, "to": T, "count": K, "type": TYPE}``
    (territory ids or names)."""

    to: str
    unit: str | None = None
    nation: str | None = None
    start: str | None = field(default=None, metadata={"key": "from"})
    count: Annotated[int, AtLeast(1)] = 1
    type: str | None = None


@register
class Railroads(RulesSystem[TerritoryScenario, RailroadOptions]):
    """Axis & Allies "Module I: Railroads" on territory maps."""

    name = SYSTEM
    title = 'Axis & Allies "Module I: Railroads"'
    map_kinds = frozenset({"territory"})
    Options = RailroadOptions
    Order = RailroadOrder
    doc = "docs/rules/railroads.md"

    def options(self, scenario: TerritoryScenario) -> RailroadOptions:
        return RailRules(scenario).options

    def check(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> RailPlan:
        self.read_order(order)
        rules = RailRules(scenario)
        return plan(scenario, rules.read_orders([dict(order)]), rules)

    def effect(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, RailPlan)
        o = verdict.orders[0]
        if o.unit is not None:
            movers = [o.unit]
        else:
            here = sorted((u for u in scenario.units_in(o.start)
                           if u.side == o.nation and (o.unit_type is None or u.type == o.unit_type)
                           and not u.props.get("moved")), key=lambda u: u.id)
            if len(here) < o.count:
                what = f"{o.unit_type} unit(s)" if o.unit_type else "unit(s)"
                raise ModelError(f"the order rails {o.count} {what} of {o.nation} from "
                                 f"{scenario.map.label(o.start)}, but only {len(here)} that have not moved are there")
            movers = [u.id for u in here[:o.count]]
        return UnitsMoved.move(scenario, self.name, [(u, o.to) for u in movers])
