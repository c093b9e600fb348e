"""A movement system configured in the scenario (``ruleset.options["movement"]``):
unit classes with movement allowances, terrain costs per class, hexside
features (river, bridge, ford, wall: an added cost, a least cost, prohibited
or negated), movement along roads and rail, zones of control, stacking by
count or factors, and whether friendly units may be passed through.  It
gives the reach of a unit with the points left, the cheapest path with its
cost per step, and the reason for every "no".  Rules: ``docs/rules/movement.md``.
"""

from __future__ import annotations

from .board import Board, Step, search
from .options import SYSTEM, MovementOptions, SideRule, Sight, Stacking, UnitClass
from .system import Movement, MoveVerdict, PathStep, Reach, check_move, number, options_for, reach

__all__ = ["SYSTEM", "Board", "MoveVerdict", "Movement", "MovementOptions", "PathStep", "Reach", "SideRule", "Sight",
           "Stacking", "Step", "UnitClass", "check_move", "number", "options_for", "reach", "search"]
