"""Turns: whose move it is, fortification at the end of a turn, victory.

* The Union moves first; ``scenario.state["acw"]["phasing"]`` names the side
  to move, ``scenario.turn`` counts game turns (a Union and a Rebel move).
* A unit that did not move during its side's turn (its ``moved`` property is
  not set) is fortified at the end of that turn; moving clears
  ``fortified`` (the move order sets ``moved`` and clears ``fortified``).
* Victory: the Union taking city ``union_objective`` (M) by the end of turn
  ``major_union_by_turn`` (7) is a major victory, later a minor one; the
  Rebels taking ``rebel_objective`` (A) is a major Rebel victory; the Rebels
  avoiding both Union victories for ``rebel_holds_turns`` (12) turns is a
  minor Rebel victory: from turn ``rebel_holds_turns + 1`` (13) on the answer
  is the minor Rebel victory whoever holds M (the game ended with turn 12).
  A city is taken when the side holds it (a unit in it,
  or the control layer without an enemy unit in it).  The game ends at the
  first victory; if both capitals are held at once the earlier capture,
  recorded by the caller in ``state.acw.captured``, decides, and when it is
  not recorded the capital held by the side that did not just move fell
  first (``mover``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.model import ModelError, Scenario

from .options import SYSTEM, options_for
from .reinforcement import city_cell, holds
from .units import display_name


def phasing(scenario: Scenario) -> str:
    """The side whose turn it is (the Union's when not recorded)."""
    o = options_for(scenario)
    side = scenario.state.get(SYSTEM, {}).get("phasing", o.union_side)
    if not isinstance(side, str):
        raise ModelError(f"state.acw.phasing must be a side id, got {side!r}")
    return scenario.side(side).id


@dataclass(frozen=True)
class Fortify:
    unit_id: str
    fortified: bool
    reason: str


def end_of_turn(scenario: Scenario, side: str) -> tuple[Fortify, ...]:
    """The fortification of each unit of ``side`` after its turn: units that
    did not move fortify, units that moved are not fortified."""
    scenario.side(side)
    out = []
    for u in scenario.units:
        if u.side != side:
            continue
        if u.props.get("moved"):
            out.append(Fortify(u.id, False, f"{display_name(u)} moved this turn: no fortifications"))
        else:
            out.append(Fortify(u.id, True, f"{display_name(u)} stayed put: it fortifies "
                                            f"{scenario.map.label(u.at)}"))
    return tuple(out)


Outcome = Literal["major_union", "minor_union", "major_rebel", "minor_rebel"]


@dataclass(frozen=True)
class Victory:
    outcome: Outcome | None
    reason: str

    @property
    def game_over(self) -> bool:
        return self.outcome is not None

    def to_data(self) -> dict[str, object]:
        return {"outcome": self.outcome, "game_over": self.game_over, "reason": self.reason}


def victory(scenario: Scenario, *, turn_complete: bool = False, mover: str | None = None) -> Victory:
    """The victory standing now (``turn_complete``: the current turn has been
    played out, which matters for the Rebels' 12 turns).  ``mover`` is the
    side whose move just ended: when both objectives are held and
    ``state.acw.captured`` records neither, the city the other side holds
    fell first (the mover's capture is the one its move made)."""
    o = options_for(scenario)
    union, rebel = o.union_side, o.rebel_side
    m, a = city_cell(scenario, o.union_objective), city_cell(scenario, o.rebel_objective)
    t = scenario.turn
    if t > o.rebel_holds_turns:
        return Victory("minor_rebel", f"turn {t}: the {o.rebel_holds_turns} turns ended without a Union victory "
                                      f"(holding {o.union_objective} now comes too late): minor Rebel victory")
    union_has = holds(scenario, union, m)
    rebel_has = holds(scenario, rebel, a)
    if union_has and rebel_has:
        first = scenario.state.get(SYSTEM, {}).get("captured")
        if first not in (o.union_objective, o.rebel_objective) and mover in (union, rebel):
            first = o.rebel_objective if mover == union else o.union_objective
        if first not in (o.union_objective, o.rebel_objective):
            return Victory(None, f"both {o.union_objective} and {o.rebel_objective} are taken; record which fell "
                                 "first in state.acw.captured to decide")
        union_has = first == o.union_objective
        rebel_has = not union_has
    if rebel_has:
        return Victory("major_rebel", f"the Rebels hold {o.rebel_objective}: major Rebel victory")
    if union_has:
        if t <= o.major_union_by_turn:
            return Victory("major_union", f"the Union holds {o.union_objective} on turn {t} "
                                          f"(within {o.major_union_by_turn}): major Union victory")
        return Victory("minor_union", f"the Union holds {o.union_objective} on turn {t} "
                                      f"(after turn {o.major_union_by_turn}): minor Union victory")
    done = t if turn_complete else t - 1
    if done >= o.rebel_holds_turns:
        return Victory("minor_rebel", f"{done} turns played and the Union has not taken {o.union_objective}: "
                                      "minor Rebel victory")
    return Victory(None, f"turn {t}: {o.union_objective} is not in Union hands and {o.rebel_objective} not in "
                         f"Rebel hands; {o.rebel_holds_turns - done} turns left for the Union")
