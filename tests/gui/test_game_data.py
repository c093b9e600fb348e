"""Game > Game Data…: IPCs and points edited in the editor -- an undoable
set-up edit before play starts, a journalled game master's adjustment
during play (undone with the journal entry)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from window_kit import open_map

from app.gui.dialogs.game_data import GameDataDialog
from engine.editing.game_data import game_numbers, set_game_number
from engine.io import load_any
from engine.model import ModelError
from engine.turns.game import Game

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def test_the_numbers_of_each_game() -> None:
    s = load_any(ROOT / "maps" / "aa_rail_options.json")
    got = {(n.key, n.side): n.value for n in game_numbers(s)}
    assert got[("ipcs", "germany")] == 29 and got[("income", "uk")] == 28
    acw = load_any(ROOT / "maps" / "acw_short_campaign.json")
    assert {n.side for n in game_numbers(acw) if n.key == "points"} == {f.id for f in acw.sides}
    with pytest.raises(ModelError, match="not a whole number"):
        set_game_number(s, "rail_options", "ipcs", "germany", -5)
    with pytest.raises(ModelError):
        set_game_number(s, "rail_options", "ipcs", "atlantis", 5)
    assert s.state["rail_options"]["ipcs"]["germany"] == 29


def test_before_play_an_undoable_set_up_edit(qtbot: Any, tmp_path: Path) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=None)
    assert not w.turns.playing() and w.game.act_game_data.isEnabled()
    dlg = GameDataDialog(w)
    dlg.set_value("rail_options", "ipcs", "germany", 40)
    assert dlg.accept_changes()
    s = w.document.scenario
    assert s.state["rail_options"]["ipcs"]["germany"] == 40
    assert "game" not in s.state  # not journalled
    assert w.document.undo_stack.undoText() == "Set-up: Germany's IPCs to spend 29 to 40"
    w.document.undo_stack.undo()
    assert s.state["rail_options"]["ipcs"]["germany"] == 29
    w.document.undo_stack.redo()
    assert s.state["rail_options"]["ipcs"]["germany"] == 40


def test_during_play_a_journalled_adjustment(qtbot: Any, tmp_path: Path) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=None)
    w.turns.set_playing(True)
    dlg = GameDataDialog(w)
    dlg.set_value("rail_options", "ipcs", "uk", 35)
    dlg.set_value("rail_options", "ipcs", "france", None)
    assert dlg.accept_changes()
    g = w.turns.game()
    e = g.journal[-1]
    assert e.kind == "adjust"
    assert e.summary == ("game master's adjustment: the United Kingdom's IPCs to spend 28 to 35; "
                         "France's IPCs to spend 0 to none")
    s = w.document.scenario
    assert s.state["rail_options"]["ipcs"]["uk"] == 35 and "france" not in s.state["rail_options"]["ipcs"]
    # the adjustment does not count as the game's first order: a buy still works, and the journal replays
    ok, why = w.turns.give({"action": "buy", "nation": "germany", "piece": "station"})
    assert ok, why
    saved = tmp_path / "adjusted.json"
    assert w.save_as(str(saved))
    again = Game(load_any(saved))  # the journal, adjustment and all, replays to the saved scenario
    assert [x.kind for x in again.journal] == ["adjust", "order"]
    again.undo()
    again.undo()
    assert again.scenario.state["rail_options"]["ipcs"] == {"germany": 29, "ussr": 24, "italy": 10, "uk": 28,
                                                            "france": 0}
    w.document.undo_stack.undo()
    w.document.undo_stack.undo()
    assert s.state["rail_options"]["ipcs"]["uk"] == 28 and s.state["rail_options"]["ipcs"]["france"] == 0
    assert "game" not in s.state or not len(w.turns.game().journal)
    # a change to nothing is no step
    dlg = GameDataDialog(w)
    assert dlg.accept_changes() and w.document.undo_stack.index() == 0


def test_an_adjustment_is_made_again_from_its_record() -> None:
    from engine.editing.game_data import set_game_number as put

    s = load_any(ROOT / "maps" / "aa_rail_options.json")
    g = Game(s)
    start = g.at(0)
    e = g.adjust("game master's adjustment: Germany's IPCs to spend 29 to 40",
                 lambda x: put(x, "rail_options", "ipcs", "germany", 40))
    again = Game(start)
    made = again.redo_adjust(e)
    assert made.hash == e.hash and again.scenario.state["rail_options"]["ipcs"]["germany"] == 40
