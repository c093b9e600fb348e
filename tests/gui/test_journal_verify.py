"""The editor refuses a game whose journal is not what the rules give
(``engine/turns/verify.py``): opening the file says so, names the entry, and
the game is not played (no orders, no End Turn)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_editor_tools import open_window

from engine.io import dumps_any, load_scenario, loads_any
from engine.turns.game import Game
from engine.turns.journal import GENESIS, entry_hash, seal

pytestmark = pytest.mark.gui

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json"


def forged_file(tmp_path: Path) -> Path:
    """A Rebel artillery move changed to 0101 (18 hexes for 3 movement points),
    the scenario and every hash made to agree."""
    g = Game(loads_any(SAMPLE.read_text(encoding="utf-8")))
    g.end_turn()
    assert g.give({"unit": "CS-11A", "to": "1611"}).kind == "order"
    data = json.loads(dumps_any(g.scenario))
    entry = data["state"]["game"]["journal"]["entries"][-1]
    entry["order"]["to"] = "0101"
    entry["effect"]["delta"]["units"]["CS-11A"][1]["at"] = "0101"
    next(u for u in data["units"] if u["id"] == "CS-11A")["at"] = "0101"
    prev = GENESIS
    for e in data["state"]["game"]["journal"]["entries"]:
        e["prev"] = prev
        e["hash"] = prev = entry_hash(prev, {k: v for k, v in e.items() if k != "hash"})
    journal = data["state"]["game"]["journal"]
    journal["head"] = prev
    if "seal" in journal:
        journal["seal"] = seal(journal["count"], prev, data["state"]["game"]["turn"])
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_forged_game_is_refused_when_the_file_opens(qtbot, tmp_path) -> None:
    path = forged_file(tmp_path)
    w = open_window(qtbot, tmp_path, load_scenario(path), str(path))
    qtbot.waitUntil(lambda: w.error_dialog is not None and w.error_dialog.isVisible(), timeout=5000)
    assert "entry 3 (turn 1, order: CS-11A to 1611) is not what the rules give" in w.error_dialog.problems[0]
    assert w.turns.game() is None and not w.turns.playing()
    assert not w.act_end_turn.isEnabled()
    assert w.turn_label.text().startswith("Game refused")
    w.error_dialog.close()


def test_a_journal_changed_by_hand_is_named_when_the_file_opens(qtbot, tmp_path) -> None:
    g = Game(loads_any(SAMPLE.read_text(encoding="utf-8")))
    g.give({"unit": "US-14", "to": "0411"})
    data = json.loads(dumps_any(g.scenario))
    data["state"]["game"]["journal"]["entries"][0]["order"]["to"] = "0101"
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    w = open_window(qtbot, tmp_path, load_scenario(path), str(path))
    qtbot.waitUntil(lambda: w.error_dialog is not None and w.error_dialog.isVisible(), timeout=5000)
    assert "was changed after it was written" in w.error_dialog.problems[0]
    assert w.turns.game() is None and not w.act_end_turn.isEnabled()
    w.error_dialog.close()
