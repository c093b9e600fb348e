"""Module I as a registered rules system (:class:`engine.rules.base.RulesSystem`).

One order at a time: :meth:`Railroads.check` routes the order together
with the rail orders its side gave earlier in the round (:func:`~.routing.plan`,
as ``adjutant railplan`` routes a plan), on the capacity the other members
of its sharing group left earlier in the round (:class:`RoundRail`: the
turn state keeps a round's rail as one pool per sharing group); an order by
count also needs that many units ready in its start.
:meth:`Railroads.apply` moves the order's units to the destination and
returns the record that moves them back.  Rules: ``docs/rules/railroads.md``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from ...model import ModelError
from ...territory.model import Territory, TerritoryScenario, TerritoryUnit
from ..base import AtLeast, RulesSystem, UnitsMoved, Verdict
from ..registry import register
from . import words
from .routing import plan
from .rules import SYSTEM, RailOrder, RailOrderError, RailPlan, RailroadOptions, RailRules, Refusal


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
    """The rules with the rail capacity that other members of a sharing
    group spent earlier in the round taken off each territory
    (``docs/rules/railroads.md``, "Capacity"): ``spent`` maps a territory
    id to the units railed through it, ``by`` names who spent it."""

    def __init__(self, scenario: TerritoryScenario, spent: Mapping[str, int] | None = None,
                 by: Sequence[str] = ()) -> None:
        self.spent: dict[str, int] = {t: n for t, n in (spent or {}).items() if n > 0}
        self.spent_by = tuple(by)
        super().__init__(scenario)

    def capacity(self, t: Territory) -> int:
        return max(0, super().capacity(t) - self.spent.get(t.id, 0))

    def why_unusable(self, t: Territory, nation: str) -> str | None:
        why = super().why_unusable(t, nation)
        spent = self.spent.get(t.id, 0)
        if why is not None and spent and why.endswith(f"has no rail capacity (value {t.value})"):
            who = f", by {' and '.join(self.spent_by)}" if self.spent_by else ""
            return f"{t.name}'s rail capacity is spent this round ({spent} of {spent + self.capacity(t)}{who})"
        return why


SPENT = "rail:"
"""The prefix of the turn state's ``used`` keys for capacity spent:
``rail:["germany","ukraine"]`` counts the units railed through Ukraine in
Germany's turn this round (the JSON list of a side id and a territory id)."""
ORDERED = "rail-order:"
"""The prefix of the turn state's ``used`` keys for the round's rail
orders: ``rail-order:["germany","france","ukraine"]`` counts the units
Germany railed from France to Ukraine this round."""


@dataclass(frozen=True)
class RoundRail:
    """The rail of the current round as the turn state keeps it
    (``state.game.turn.used``; ``docs/turns.md``): per side, the units it
    railed through each territory (``spent``) and its orders by start and
    destination (``orders``).  The keys last the whole round
    (:meth:`Railroads.round_use`), so the members of a sharing group spend
    one pool of capacity across their turns."""

    spent: Mapping[tuple[str, str], int] = field(default_factory=dict)
    orders: Mapping[tuple[str, str, str], int] = field(default_factory=dict)

    @classmethod
    def of(cls, scenario: TerritoryScenario) -> RoundRail:
        """Read from ``scenario.state["game"]["turn"]["used"]``; a key of
        this system that does not name a side and territories raises
        :class:`RailOrderError` naming it.  A key ``rail:TERRITORY`` (no
        side) counts as spent by the group before the railing side's turn."""
        game = scenario.state.get("game")
        turn = game.get("turn", {}) if isinstance(game, Mapping) else {}
        used = turn.get("used", {}) if isinstance(turn, Mapping) else {}
        spent: dict[tuple[str, str], int] = {}
        orders: dict[tuple[str, str, str], int] = {}
        for key, n in (used.items() if isinstance(used, Mapping) else ()):
            if not isinstance(key, str) or not isinstance(n, int) or not n:
                continue
            if key.startswith(ORDERED):
                nation, start, to = _ids(scenario, key, key[len(ORDERED):], 3)
                orders[(nation, start, to)] = orders.get((nation, start, to), 0) + n
            elif key.startswith(SPENT):
                rest = key[len(SPENT):]
                if rest in scenario.map.territories:
                    spent[("", rest)] = spent.get(("", rest), 0) + n
                    continue
                nation, tid = _ids(scenario, key, rest, 2)
                spent[(nation, tid)] = spent.get((nation, tid), 0) + n
        return cls(spent, orders)

    def spent_before(self, group: frozenset[str], nation: str) -> tuple[dict[str, int], list[str]]:
        """Capacity spent this round by the other members of ``nation``'s
        sharing ``group`` (territory id -> units), and their side ids."""
        out: dict[str, int] = {}
        who: list[str] = []
        for (n, t), k in self.spent.items():
            if n != nation and (n in group or n == ""):
                out[t] = out.get(t, 0) + k
                if n and n not in who:
                    who.append(n)
        return out, sorted(who)

    def orders_of(self, nation: str) -> list[RailOrder]:
        """``nation``'s rail orders this round, as orders by count."""
        return [RailOrder(n, start, to, k) for (n, start, to), k in sorted(self.orders.items())
                if n == nation and k > 0]

    def use_of(self, nation: str) -> dict[str, int]:
        return {t: k for (n, t), k in self.spent.items() if n == nation}


def _key(*ids: str) -> str:
    return json.dumps(list(ids), ensure_ascii=False, separators=(",", ":"))


def _ids(scenario: TerritoryScenario, key: str, raw: str, n: int) -> list[str]:
    """The side id and territory ids a ``used`` key names."""
    try:
        ids = json.loads(raw)
    except ValueError:
        ids = None
    ok = (isinstance(ids, list) and len(ids) == n and all(isinstance(x, str) for x in ids)
          and any(s.id == ids[0] for s in scenario.sides) and all(t in scenario.map.territories for t in ids[1:]))
    if not ok:
        what = "a side and a territory" if n == 2 else "a side, a start and a destination"
        raise RailOrderError(f"state.game.turn.used: {key!r} should name {what} of the map as a JSON list "
                             f"after {key[:len(key) - len(raw)]!r}")
    return list(ids)


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
    movement phase only, a unit rails once a turn, and a sharing group's
    rail orders of the round share each territory's capacity
    (``docs/rules/railroads.md``, decision 4)."""
    once_per_turn = frozenset({"railed"})

    def order_text(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> str | None:
        """A unit's or a nation's rail order in words (:func:`.words.order_text`)."""
        return words.order_text(scenario, order)

    def result_text(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Mapping[str, Any],
                    record: Mapping[str, Any]) -> str:
        """The order's route and the units it moved (:mod:`.words`)."""
        return "; ".join(x for x in (words.route_text(verdict, order), words.result_text(record)) if x)

    def action_of(self, order: Mapping[str, Any]) -> str:
        return "railed"

    def order_phases(self, order: Mapping[str, Any]) -> tuple[str, ...]:
        return ("noncombat",)

    def turn_use(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Verdict) -> dict[str, int]:
        """What the carried-out order changes in the round's rail
        (:class:`RoundRail`): its units under ``rail-order:``, and the
        railing side's capacity use as the re-solved routing of its orders
        has it, less what the turn state held before."""
        assert isinstance(verdict, RailPlan)
        change = verdict.details.get("turn_use")
        return dict(change) if isinstance(change, Mapping) else {}

    def round_use(self, key: str) -> bool:
        """The ``used`` keys that last the whole round (kept when the move
        passes to the next side): a sharing group's rail is one pool per
        round, spent across its members' turns."""
        return key.startswith((SPENT, ORDERED))

    def check(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> RailPlan:
        """The order routed together with its side's earlier rail orders of
        the round (:func:`plan`), on the capacity its sharing partners left
        earlier in the round; an order by count is refused when fewer units
        than it names stand ready in its start."""
        self.read_order(order)
        base = RailRules(scenario)
        (o,) = base.read_orders([dict(order)])
        label = scenario.map.label
        if o.unit is None:
            ready = _ready(scenario, o)
            if len(ready) < o.count:
                what = f"{o.unit_type} unit" if o.unit_type else "unit"
                why = (f"only {len(ready)} {what}{'s' if len(ready) != 1 else ''} of "
                       f"{scenario.side(o.nation).name} that have not moved stand in {label(o.start)}")
                return RailPlan(False, "milp", (o,), refused=(Refusal(0, why),),
                                reason=f"Refused: {base.describe(o)}: {why}.", label=label)
        pool = RoundRail.of(scenario)
        spent, by = pool.spent_before(base.partners(o.nation), o.nation)
        rules = TurnRailRules(scenario, spent, [scenario.side(n).name for n in by])
        _, refused = rules.validate([o])
        if refused:
            return plan(scenario, [o], rules)
        earlier = pool.orders_of(o.nation)
        p = plan(scenario, [*earlier, o], rules)
        n = sum(e.count for e in earlier)
        together = f"{n} unit{'s' if n != 1 else ''} {scenario.side(o.nation).name} railed earlier this round"
        if not p.feasible and not n:
            return p
        if not p.feasible:
            return dataclasses.replace(p, reason=f"Refused: {rules.describe(o)}: it cannot be routed together with "
                                                 f"the {together}: {p.reason}")
        old = pool.use_of(o.nation)
        new = {u.territory: u.used for u in p.usage}
        change = {f"{SPENT}{_key(o.nation, t)}": new.get(t, 0) - old.get(t, 0)
                  for t in sorted(set(old) | set(new), key=rules.tix.__getitem__)}
        change = {k: v for k, v in change.items() if v}
        change[f"{ORDERED}{_key(o.nation, o.start, o.to)}"] = o.count
        reason = f"Routed with the {together}: {p.reason}" if n else p.reason
        return dataclasses.replace(p, reason=reason, details={**p.details, "turn_use": change})

    def effect(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, RailPlan)
        o = verdict.orders[-1]
        movers = [o.unit] if o.unit is not None else [u.id for u in _ready(scenario, o)[:o.count]]
        if len(movers) < o.count:
            raise ModelError(f"{o.count} units were to rail from {scenario.map.label(o.start)}; {len(movers)} are there")
        return UnitsMoved.move(scenario, self.name, [(u, o.to) for u in movers])


def _ready(scenario: TerritoryScenario, o: RailOrder) -> list[TerritoryUnit]:
    """The units an order by count may move: the nation's (of the order's
    type, when it names one) in its start that have not moved and have not
    railed this turn (``state.game.turn.acted``), by id."""
    game = scenario.state.get("game")
    turn = game.get("turn", {}) if isinstance(game, Mapping) else {}
    acted = turn.get("acted", {}) if isinstance(turn, Mapping) else {}
    railed = {k for k, v in acted.items() if isinstance(v, list) and "railed" in v} if isinstance(acted, Mapping) \
        else set()
    return sorted((u for u in scenario.units_in(o.start)
                   if u.side == o.nation and (o.unit_type is None or u.type == o.unit_type)
                   and not u.props.get("moved") and u.id not in railed), key=lambda u: u.id)
