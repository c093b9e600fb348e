"""The numbers a game keeps per side outside its units and map -- Rail
Options' IPCs to spend and IPC income, ACW's reinforcement points -- read
and set for the editor's Game > Game Data (``docs/turns.md``, "Game
data").  Each lives in ``scenario.state[SYSTEM][KEY][SIDE]``; a number not
yet recorded reads as ``None``."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError

KNOWN: Mapping[str, tuple[tuple[str, str], ...]] = {
    "rail_options": (("ipcs", "IPCs to spend"), ("income", "IPC income (rail capacity under Option 4)")),
    "acw": (("points", "reinforcement points"),),
}
"""Per rules system (its ``state`` key): the per-side numbers its rules
read, each with the words the editor shows."""

MAX_VALUE = 1_000_000
"""The largest number a game data entry takes."""


@dataclass(frozen=True)
class GameNumber:
    """One side's number: ``scenario.state[system][key][side]``."""

    system: str
    key: str
    side: str
    what: str
    value: int | None


def _per_side(value: Any, sides: set[str]) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= sides and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value.values())


def game_numbers(scenario: Any) -> list[GameNumber]:
    """Every per-side number of the rules systems the scenario's ruleset
    names: the ones their rules read (:data:`KNOWN`, every side, recorded or
    not) and any other ``{side: whole number}`` table found in their state."""
    options = getattr(scenario.ruleset, "options", None) or {}
    sides = [f.id for f in scenario.sides]
    out: list[GameNumber] = []
    for system in options:
        state = scenario.state.get(system)
        state = state if isinstance(state, Mapping) else {}
        keys = list(KNOWN.get(system, ()))
        keys += [(k, k.replace("_", " ")) for k, v in state.items()
                 if k not in dict(keys) and _per_side(v, set(sides))]
        for key, what in keys:
            table = state.get(key)
            table = table if isinstance(table, Mapping) else {}
            for side in sides:
                v = table.get(side)
                out.append(GameNumber(system, key, side, what, v if isinstance(v, int) else None))
    return out


def set_game_number(scenario: Any, system: str, key: str, side: str, value: int | None) -> None:
    """Set ``state[system][key][side]`` to ``value`` (``None``: no longer
    recorded; tables left empty are removed).  A :class:`ModelError` names
    an unknown side or a value that is not a whole number from 0 to
    :data:`MAX_VALUE`, changing nothing."""
    scenario.side(side)  # ModelError names an unknown side
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE):
        raise ModelError(f"state.{system}.{key}.{side}: {value!r} is not a whole number from 0 to {MAX_VALUE}")
    state = scenario.state.get(system)
    if state is not None and not isinstance(state, dict):
        raise ModelError(f"state.{system} is not an object; it cannot hold {key}")
    new = copy.deepcopy(state) if isinstance(state, dict) else {}
    table = new.get(key)
    if table is not None and not isinstance(table, dict):
        raise ModelError(f"state.{system}.{key} is not an object of numbers per side")
    table = dict(table or {})
    if value is None:
        table.pop(side, None)
    else:
        table[side] = value
    if table:
        new[key] = table
    else:
        new.pop(key, None)
    if new or state is not None:
        scenario.state[system] = new
    else:
        scenario.state.pop(system, None)


__all__ = ["KNOWN", "MAX_VALUE", "GameNumber", "game_numbers", "set_game_number"]
