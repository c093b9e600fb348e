"""Module I as a registered rules system (:class:`engine.rules.base.RulesSystem`).

One order at a time: :meth:`Railroads.check` routes the order alone with
:func:`~.routing.plan` (its capacity, control and path checks; an order by
count also needs that many units ready in its start); a turn's
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
from ...territory.model import Territory, TerritoryScenario, TerritoryUnit
from ..base import AtLeast, RulesSystem, UnitsMoved, Verdict
from ..registry import register
from .routing import plan
from .rules import SYSTEM, RailOrder, RailPlan, RailroadOptions, RailRules, Refusal


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


class TurnRailRules(RailRules):
    """The rules with the rail capacity already spent this turn taken off
    each territory: Module I capacity is summed over all rail orders of the
    turn (``docs/rules/railroads.md``, "Capacity"; the turn engine keeps
    what was spent in ``state.game.turn.used`` under ``"rail:<territory>"``)."""

    def __init__(self, scenario: TerritoryScenario) -> None:
        game = scenario.state.get("game")
        used = game.get("turn", {}).get("used", {}) if isinstance(game, Mapping) else {}
        self.spent: dict[str, int] = {k[len(SPENT):]: int(v) for k, v in used.items() if k.startswith(SPENT)}
        super().__init__(scenario)

    def capacity(self, t: Territory) -> int:
        return max(0, super().capacity(t) - self.spent.get(t.id, 0))

    def why_unusable(self, t: Territory, nation: str) -> str | None:
        why = super().why_unusable(t, nation)
        spent = self.spent.get(t.id, 0)
        if why is not None and spent and why.endswith(f"has no rail capacity (value {t.value})"):
            return f"{t.name}'s rail capacity is spent this turn ({spent} of {spent + self.capacity(t)})"
        return why


SPENT = "rail:"
"""The prefix of the turn state's ``used`` keys for capacity spent."""


@register
class Railroads(RulesSystem[TerritoryScenario, RailroadOptions]):
    """Axis & Allies "Module I: Railroads" on territory maps."""

    name = SYSTEM
    title = 'Axis & Allies "Module I: Railroads"'
    map_kinds = frozenset({"territory"})
    Options = RailroadOptions
    Order = RailroadOrder
    doc = "docs/rules/railroads.md"
    phases = ("combat", "noncombat")
    """A nation's movement phases; rail orders belong to the non-combat
    movement phase only, a unit rails once a turn, and the turn's rail
    orders share each territory's capacity (``docs/rules/railroads.md``)."""
    once_per_turn = frozenset({"railed"})

    def action_of(self, order: Mapping[str, Any]) -> str:
        return "railed"

    def order_phases(self, order: Mapping[str, Any]) -> tuple[str, ...]:
        return ("noncombat",)

    def turn_use(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Verdict) -> dict[str, int]:
        """The capacity the carried-out order spent, by territory."""
        assert isinstance(verdict, RailPlan)
        return {f"{SPENT}{u.territory}": u.used for u in verdict.usage}

    def check(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> RailPlan:
        """The order routed alone (:func:`plan`); an order by count is
        refused when fewer units than it names stand ready in its start."""
        self.read_order(order)
        rules = TurnRailRules(scenario)
        (o,) = rules.read_orders([dict(order)])
        if o.unit is None:
            ready = _ready(scenario, o)
            if len(ready) < o.count:
                what = f"{o.unit_type} unit" if o.unit_type else "unit"
                why = (f"only {len(ready)} {what}{'s' if len(ready) != 1 else ''} of "
                       f"{scenario.side(o.nation).name} that have not moved stand in {scenario.map.label(o.start)}")
                return RailPlan(False, "milp", (o,), refused=(Refusal(0, why),),
                                reason=f"Refused: {rules.describe(o)}: {why}.", label=scenario.map.label)
        return plan(scenario, [o], rules)

    def effect(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, RailPlan)
        o = verdict.orders[0]
        movers = [o.unit] if o.unit is not None else [u.id for u in _ready(scenario, o)[:o.count]]
        if len(movers) < o.count:
            raise ModelError(f"{o.count} units were to rail from {scenario.map.label(o.start)}; {len(movers)} are there")
        return UnitsMoved.move(scenario, self.name, [(u, o.to) for u in movers])


def _ready(scenario: TerritoryScenario, o: RailOrder) -> list[TerritoryUnit]:
    """The units an order by count may move: the nation's (of the order's
    type, when it names one) in its start that have not moved, by id."""
    return sorted((u for u in scenario.units_in(o.start)
                   if u.side == o.nation and (o.unit_type is None or u.type == o.unit_type)
                   and not u.props.get("moved")), key=lambda u: u.id)
