"""Which units are spent: they acted this turn.

Both renderers' top passes (:mod:`app.gui.render.top` for grid maps,
:mod:`app.gui.render.counters` for territory maps) draw a spent unit's
counter dimmed.  They read the game's turn state kept in the scenario
(``state.game.turn.acted``, written by :class:`engine.turns.game.Game`; see
``docs/turns.md``); nothing here decides what a unit may do.
"""

from __future__ import annotations

from typing import Any

SPENT_OPACITY = 0.4
"""How opaque the counter of a unit that has acted this turn is drawn."""


def spent_units(scenario: Any) -> frozenset[str]:
    """The units that have acted this turn, read from the game's turn state
    (``state.game.turn.acted``, kept by :class:`engine.turns.game.Game`; see
    ``docs/turns.md``): the renderer shows them spent, it does not decide."""
    state = getattr(scenario, "state", None)
    game = state.get("game") if isinstance(state, dict) else None
    turn = game.get("turn") if isinstance(game, dict) else None
    acted = turn.get("acted") if isinstance(turn, dict) else None
    return frozenset(k for k, v in acted.items() if v) if isinstance(acted, dict) else frozenset()


__all__ = ["SPENT_OPACITY", "spent_units"]
