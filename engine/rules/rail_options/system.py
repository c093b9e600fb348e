"""Rail Options as a registered rules system
(:class:`engine.rules.base.RulesSystem`).

An order rails one unit: ``{"unit": ID, "to": TERRITORY}``, optionally in
the ``combat`` phase; ``option`` (another option than the scenario's, a
what-if for :meth:`RailOptionsSystem.check` alone) selects rules, so the turn
engine refuses it in a game.  :meth:`RailOptionsSystem.check` is
:meth:`~.adjudicator.RailOptionsAdjudicator.judge`'s :class:`~.results.RailVerdict`;
:meth:`RailOptionsSystem.apply` records the move (:func:`~.records.record_move`)
and returns the :class:`~.records.RecordedMove` whose ``undo`` takes it back
exactly.  Rules: ``docs/rules/rail-options.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.territory.model import TerritoryScenario

from ..base import RulesSystem, Verdict, selects_rules
from ..registry import register
from . import words
from .adjudicator import RailOptionsAdjudicator
from .config import SYSTEM, OptionNumber, RailConfig, config_of
from .economy import ACTIONS, TURN_ACTIONS, EconomyRecord, EconomyVerdict, carry_out, judge, roll_raid
from .records import RecordedMove, record_move
from .results import RailVerdict


@dataclass(frozen=True)
class RailOptionsOrder:
    """One rail move: ``unit`` to ``to`` (a territory id or name); ``option``
    replaces the scenario's choice when given; ``phase`` is the movement
    phase."""

    unit: str
    to: str
    option: OptionNumber | None = selects_rules()
    phase: Literal["noncombat", "combat"] = "noncombat"


@dataclass(frozen=True)
class RailEconomyOrder:
    """The keys of an economy order (``action`` buy, place, bomb, destroy, technology or
    capture; :mod:`.economy` reads and judges them)."""

    action: str
    nation: str
    piece: str | None = None
    count: int | None = None
    territory: str | None = None
    bombers: int | None = None
    aa: tuple[int, ...] | None = None
    dice: tuple[int, ...] | None = None
    seed: int | None = None


@register
class RailOptionsSystem(RulesSystem[TerritoryScenario, RailConfig]):
    """Axis & Allies "Rail Options 1–4" on territory maps."""

    name = SYSTEM
    title = 'Axis & Allies "Rail Options 1-4"'
    map_kinds = frozenset({"territory"})
    Options = RailConfig
    Order = RailOptionsOrder
    order_forms = (RailEconomyOrder,)
    doc = "docs/rules/rail-options.md"
    phases = ("purchase", "combat", "noncombat", "place")
    """A nation's phases in turn order (``docs/rules/rail-options.md``,
    "The turn"): purchase (``buy`` orders), combat move (raids, captures;
    rail only with the combat_move switch), non-combat move (rail), place
    units (``place`` orders, so a piece bought is never used the turn it is
    bought); a unit rails once a turn (``state.rail_options.moves`` keeps
    the turn's moves, so capacity is spent across the turn)."""
    once_per_turn = frozenset({"railed"})

    def action_of(self, order: Mapping[str, Any]) -> str:
        action = order.get("action")
        return TURN_ACTIONS.get(action, "railed") if isinstance(action, str) else "railed"

    def order_phases(self, order: Mapping[str, Any]) -> tuple[str, ...]:
        """The phase of an economy order (``destroy``: any), else the
        phase a rail move names (``phase``; non-combat when absent)."""
        action = order.get("action")
        if isinstance(action, str) and action in ACTIONS:
            phase = ACTIONS[action]
            return self.phases if phase is None else (phase,)
        phase = order.get("phase", "noncombat")
        return (phase,) if isinstance(phase, str) else ("noncombat",)

    def order_text(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> str | None:
        """A rail move or economy order in words (:func:`.words.order_text`)."""
        return words.order_text(scenario, order)

    def result_text(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Mapping[str, Any],
                    record: Mapping[str, Any]) -> str:
        """Path and cost, IPCs paid, a raid's losses and damage (:func:`.words.result_text`)."""
        return words.result_text(scenario, order, verdict, record)

    def read_options(self, raw: Mapping[str, Any] | None) -> RailConfig:
        return config_of({} if raw is None else {SYSTEM: raw})

    def check(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> RailVerdict | EconomyVerdict:
        """A rail move's :class:`RailVerdict`, or for an order with an
        ``action`` (buy, place, bomb, destroy, capture) the
        :func:`~.economy.judge` verdict."""
        if "action" in order:
            return judge(scenario, self.options(scenario), order)
        o: RailOptionsOrder = self.read_order(order)
        return RailOptionsAdjudicator(scenario, o.option, o.phase).judge(o.unit, o.to)

    def roll_dice(self, scenario: TerritoryScenario, order: Mapping[str, Any],
                  roll: Callable[..., int] | None) -> tuple[str, Mapping[str, Any]] | None:
        """A raid's anti-aircraft and bombing dice (:func:`~.economy.roll_raid`)."""
        return roll_raid(scenario, self.options(scenario), order, roll)

    def effect(self, scenario: TerritoryScenario, order: Mapping[str, Any],
               verdict: Verdict) -> RecordedMove | EconomyRecord:
        if isinstance(verdict, EconomyVerdict):
            return carry_out(scenario, self.options(scenario), order)
        assert isinstance(verdict, RailVerdict)
        return record_move(scenario, verdict)
