"""Where a game stands: the turn, the phase, the side to move, what each unit
did this turn, the capacity spent this turn and the points banked.

A :class:`TurnState` is plain data (``to_data``/``from_data``) kept in the
scenario file beside the journal (``state.game.turn`` — see
``docs/file-format.md``).  The rules systems read it to apply their per-turn
rules (a unit moves once; Module I capacity is one pool a round for a
sharing group); :class:`~engine.turns.game.Game` keeps it current.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .journal import JournalError

ACTIONS: tuple[str, ...] = ("moved", "railed", "marched", "fought", "retreated", "fortified", "reinforced",
                            "bought", "placed", "bombed", "destroyed")
"""What a unit (or a nation, for purchases) can have done this turn.  Each
rules system says which of its orders records which action."""


@dataclass
class TurnState:
    """The game's position in its turn sequence.

    ``turn`` counts game turns from 1 (a turn is every side's move, in the
    system's side order); ``phase`` is one of the system's phases; ``side`` is
    the side to move.  ``acted`` maps a unit id (or a nation, for orders that
    have no unit) to what it did this turn, in order; ``used`` holds capacity
    spent this turn under keys the system names (``'rail:["germany","belarus"]'``;
    the system's ``round_use`` keeps some for the whole round);
    ``banked`` points kept from turn to turn, by side (ACW reinforcement
    points, a nation's IPCs)."""

    turn: int = 1
    phase: str = ""
    side: str | None = None
    acted: dict[str, list[str]] = field(default_factory=dict)
    used: dict[str, int] = field(default_factory=dict)
    banked: dict[str, int] = field(default_factory=dict)

    def did(self, who: str, action: str) -> bool:
        """Whether ``who`` did ``action`` this turn."""
        return action in self.acted.get(who, ())

    def record(self, who: str, action: str) -> None:
        self.acted.setdefault(who, []).append(action)

    def copy(self) -> TurnState:
        return TurnState(self.turn, self.phase, self.side, {k: list(v) for k, v in self.acted.items()},
                         dict(self.used), dict(self.banked))

    def to_data(self) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "side": self.side,
                "acted": {k: list(v) for k, v in sorted(self.acted.items())},
                "used": dict(sorted(self.used.items())), "banked": dict(sorted(self.banked.items()))}

    @classmethod
    def from_data(cls, data: Any, where: str = "state.game.turn") -> TurnState:
        """Read a turn state; :class:`JournalError` names the bad field."""
        if not isinstance(data, Mapping):
            raise JournalError(f"{where}: expected an object, got {type(data).__name__}")
        turn = data.get("turn", 1)
        if not _whole(turn) or not 1 <= turn < 2**31:
            raise JournalError(f"{where}.turn: expected a whole number from 1, got {turn!r}")
        phase = data.get("phase", "")
        if not isinstance(phase, str):
            raise JournalError(f"{where}.phase: expected text, got {phase!r}")
        side = data.get("side")
        if side is not None and not isinstance(side, str):
            raise JournalError(f"{where}.side: expected a side id, got {side!r}")
        acted_raw = data.get("acted", {})
        if not isinstance(acted_raw, Mapping):
            raise JournalError(f"{where}.acted: expected an object of unit ids, got {acted_raw!r}")
        acted: dict[str, list[str]] = {}
        for k, v in acted_raw.items():
            if not isinstance(v, list) or not all(isinstance(a, str) and a in ACTIONS for a in v):
                raise JournalError(f"{where}.acted.{k}: expected a list of {', '.join(ACTIONS)}, got {v!r}")
            acted[str(k)] = list(v)
        return cls(turn, phase, side, acted, _counts(data.get("used", {}), f"{where}.used"),
                   _counts(data.get("banked", {}), f"{where}.banked"))


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _counts(raw: Any, where: str) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise JournalError(f"{where}: expected an object of whole numbers, got {raw!r}")
    out = {}
    for k, v in raw.items():
        if not _whole(v) or not -(2**31) < v < 2**31:
            raise JournalError(f"{where}.{k}: expected a whole number, got {v!r}")
        out[str(k)] = v
    return out
