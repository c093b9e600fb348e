"""Replay and undo on random games of every registered rules system
(issue 15, "Must hold"): random orders (carried out or refused), ends of
phases and undos on each system's sample map; then the game is saved and
loaded, which replays it from its turn-0 state, and

* the loaded file writes back byte for byte;
* ``Game.at(n)`` is the scenario as it was after entry ``n``;
* undoing the loaded entries one by one gives back the file text exactly as
  it was when the journal had that many entries, down to the start.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.grids import Cell
from engine.io import dumps_any, loads_any
from engine.model import ModelError
from engine.rules.base import BUILTIN_MODULES, systems
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLES = {"acw": "acw_short_campaign.json", "cwol_rail": "cwol_mobile_columbus.json", "gitm": "gitm_allied.json",
           "railroads": "railroad_module_europe.json", "rail_options": "aa_rail_options.json",
           "movement": "movement_features.json"}
"""Each built-in system's sample map (``maps/``)."""

_TEXTS: dict[str, str] = {}


def sample(name: str) -> str:
    if name not in _TEXTS:
        _TEXTS[name] = (ROOT / "maps" / SAMPLES[name]).read_text(encoding="utf-8")
    return _TEXTS[name]


def test_every_built_in_system_has_a_sample() -> None:
    built_in = {s.name for s in systems() if type(s).__module__.startswith(tuple(BUILTIN_MODULES))}
    assert built_in <= set(SAMPLES), f"add a sample map for {sorted(built_in - set(SAMPLES))}"


def order_for(s: Any, draw: Any, side: str | None) -> dict[str, Any]:
    mine = [u for u in s.units if u.side == side]
    unit = draw(st.sampled_from(mine)) if mine and draw(st.integers(0, 4)) else draw(st.sampled_from(s.units))
    if hasattr(s.map, "territories"):
        to = draw(st.sampled_from(sorted(s.map.territories)))
    else:
        col = min(s.map.width - 1, max(0, unit.at.col + draw(st.integers(-4, 4))))
        row = min(s.map.height - 1, max(0, unit.at.row + draw(st.integers(-4, 4))))
        to = s.map.label(Cell(col, row))
    return {"unit": unit.id, "to": to}


def play(name: str, data: Any) -> tuple[Any, Game, dict[int, str]]:
    s = loads_any(sample(name), SAMPLES[name])
    g = Game(s, name)
    texts = {0: dumps_any(s)}
    for _ in range(data.draw(st.integers(1, 25), label="steps")):
        what = data.draw(st.sampled_from(["order", "order", "order", "end_phase", "undo"]), label="step")
        if what == "order":
            try:
                g.give(order_for(s, data.draw, g.turn.side))
            except ModelError:  # a malformed order (e.g. a march to where the unit stands) journals nothing
                pass
        elif what == "end_phase":
            try:
                g.end_phase()
            except ModelError:  # the system refuses to end the phase now (a combat owed, the game over)
                pass
        elif len(g.journal):
            g.undo()
            assert dumps_any(s) == texts.get(len(g.journal), dumps_any(s))
        # the history is the current line of play: forget what was undone (the lengths an end of
        # phase passed through at once have no text of their own)
        texts = {k: v for k, v in texts.items() if k < len(g.journal)}
        texts[len(g.journal)] = dumps_any(s)
    return s, g, texts


@pytest.mark.parametrize("name", sorted(SAMPLES))
@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_replay_and_undo_reproduce_the_file(name: str, data: Any) -> None:
    s, g, texts = play(name, data)
    text = dumps_any(s)
    n = len(g.journal)
    loaded = Game(loads_any(text, "saved"))  # verifies the chain and replays from turn 0
    assert dumps_any(loaded.scenario) == text
    assert max(texts) == n
    for k in sorted(texts):
        assert json.loads(dumps_any(loaded.at(k))) == json.loads(texts[k]), f"at({k})"
    while len(loaded.journal):
        loaded.undo()
        k = len(loaded.journal)
        if k in texts:
            assert dumps_any(loaded.scenario) == texts[k], f"undo to {k}"
    assert dumps_any(loaded.scenario) == texts[0]
