""""A Short ACW Campaign" (shared seed 003): hex movement with terrain and
river costs, stacking, halting next to the enemy, fortification, the
post-time combat, casualties spread over the units present, retreat,
reinforcement points and the Rebel roll, the victory conditions, and the
orders that play all of it as a game (:mod:`.orders`).

Pure and typed; every result is a frozen value with a ``reason``.  Rule
values and the readings of ambiguous text are options
(:class:`~.options.AcwOptions`, ``ruleset.options["acw"]``); the decisions
are written down in ``docs/rules/acw.md``.
"""

from __future__ import annotations

from .battle import Battle, CavalryOption, Engagement, Participant, battle, engagement
from .combat import (
    CombatResult,
    Loss,
    LossSpread,
    Odds,
    Outcome,
    PostTime,
    ResultNumber,
    casualty_row,
    defence_multiplier,
    odds,
    parse_post_time,
    resolve,
    result_number,
    round_half,
    spread_losses,
    victory_number,
)
from .movement import Board, MoveCheck, PathStep, Reach, ReachedHex, check_move, reach
from .options import SYSTEM, AcwOptions, CasualtyRow, default_options, options_for, options_from_dict
from .orders import AcwChange, AcwVerdict, apply_order, check_order, end_refusal, owed_combats, pending_retreats
from .reinforcement import (
    Gain,
    Reinforcement,
    Roll,
    check_new_unit,
    check_reinforce,
    cities_held,
    points,
    rail_to_edge,
    rebel_roll,
    roll,
    turn_gain,
)
from .retreat import RetreatHex, RetreatPlan, half_loss, retreat_losses, retreat_options
from .stacking import Stack, over_limit, stack_at
from .system import Acw, AcwMoved, AcwMoveOrder
from .turns import Fortify, Victory, end_of_turn, phasing, victory

__all__ = [
    "SYSTEM",
    "Acw",
    "AcwChange",
    "AcwMoveOrder",
    "AcwMoved",
    "AcwOptions",
    "AcwVerdict",
    "Battle",
    "Board",
    "CasualtyRow",
    "CavalryOption",
    "CombatResult",
    "Engagement",
    "Fortify",
    "Gain",
    "Loss",
    "LossSpread",
    "MoveCheck",
    "Odds",
    "Outcome",
    "Participant",
    "PathStep",
    "PostTime",
    "Reach",
    "ReachedHex",
    "Reinforcement",
    "ResultNumber",
    "RetreatHex",
    "RetreatPlan",
    "Roll",
    "Stack",
    "Victory",
    "apply_order",
    "battle",
    "casualty_row",
    "check_move",
    "check_new_unit",
    "check_order",
    "check_reinforce",
    "cities_held",
    "default_options",
    "defence_multiplier",
    "end_of_turn",
    "end_refusal",
    "engagement",
    "half_loss",
    "odds",
    "options_for",
    "options_from_dict",
    "over_limit",
    "owed_combats",
    "pending_retreats",
    "parse_post_time",
    "phasing",
    "points",
    "rail_to_edge",
    "reach",
    "rebel_roll",
    "resolve",
    "result_number",
    "retreat_losses",
    "retreat_options",
    "roll",
    "round_half",
    "spread_losses",
    "stack_at",
    "turn_gain",
    "victory",
    "victory_number",
]
