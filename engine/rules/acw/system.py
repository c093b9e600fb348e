""""A Short ACW Campaign" as a registered rules system
(:class:`engine.rules.base.RulesSystem`).

The order it understands is a move, ``{"unit": ID, "to": HEX}``:
:meth:`Acw.check` is :func:`~.movement.check_move` (cost, halting next to
the enemy, stacking, every "no" with its reason); apply moves the unit,
marks it ``moved`` and gives up its fortifications, as the editor's move
preview does, and returns the record that puts all of it back.  Combat,
reinforcement and the end of turn stay functions of their own
(:func:`~.battle.battle`, :mod:`.reinforcement`, :mod:`.turns`).  Rules:
``docs/rules/acw.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.grids import Cell
from engine.model import ModelError, Scenario

from ..base import RulesSystem, Verdict
from ..registry import register
from .movement import MoveCheck, check_move
from .options import SYSTEM, AcwOptions, options_for

MOVE_PROPS: Mapping[str, Any] = {"moved": True, "fortified": False}
"""Unit properties a move sets: it has moved this turn, and a unit that
moves gives up its fortifications."""

_ABSENT = "<absent>"


@dataclass(frozen=True)
class AcwMoveOrder:
    """``{"unit": ID, "to": HEX}``: move the unit to the hex (a label or
    place name) this turn."""

    unit: str
    to: str


@dataclass(frozen=True)
class AcwMoved:
    """The record of an applied move: where the unit was and the values
    its :data:`MOVE_PROPS` had (``<absent>`` when unset)."""

    unit: str
    before: Cell
    after: Cell
    before_label: str
    after_label: str
    props_before: tuple[tuple[str, Any], ...]

    def undo(self, scenario: Scenario) -> None:
        u = scenario.unit(self.unit)
        if u.at != self.after:
            raise ModelError(f"cannot undo the acw move of {self.unit}: it is at {scenario.map.label(u.at)}, "
                             f"not {self.after_label}; undo the later orders first")
        u.at = self.before
        for key, value in self.props_before:
            if value == _ABSENT:
                u.props.pop(key, None)
            else:
                u.props[key] = value

    def to_data(self) -> dict[str, Any]:
        return {"system": SYSTEM, "moved": [{"unit": self.unit, "from": self.before_label, "to": self.after_label}],
                "props": dict(MOVE_PROPS)}


@register
class Acw(RulesSystem[Scenario, AcwOptions]):
    """The ACW rules: hex movement with terrain and river costs, stacking
    and halting next to the enemy."""

    name = SYSTEM
    title = '"A Short ACW Campaign"'
    map_kinds = frozenset({"hex"})
    Options = AcwOptions
    Order = AcwMoveOrder
    doc = "docs/rules/acw.md"

    def options(self, scenario: Scenario) -> AcwOptions:
        return options_for(scenario)

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> MoveCheck:
        o: AcwMoveOrder = self.read_order(order)
        return check_move(scenario, o.unit, scenario.map.parse_label(o.to))

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> AcwMoved:
        assert isinstance(verdict, MoveCheck)
        u = scenario.unit(verdict.unit_id)
        label = scenario.map.label
        record = AcwMoved(u.id, u.at, verdict.target, label(u.at), verdict.label,
                          tuple((k, u.props.get(k, _ABSENT)) for k in MOVE_PROPS))
        u.at = verdict.target
        u.props.update(MOVE_PROPS)
        return record
