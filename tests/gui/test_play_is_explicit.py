"""Play is explicit: on a map with a game, a unit moved outside play asks
whether the move is an order of the game or a set-up edit; an order starts
play and is journalled, a set-up edit says so (and is asked once), a
cancelled question moves nothing.  In both window kinds."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from system_parts import rail
from test_editor_tools import click, open_window
from test_journal_editor import SAMPLE, select
from window_kit import open_map

from app.gui.systems import previews_for as available
from engine.io import load_scenario

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def grid_window(qtbot: Any, tmp_path: Path, answer: str) -> tuple[Any, list[str]]:
    path = tmp_path / "acw.json"
    shutil.copy(SAMPLE, path)
    w = open_window(qtbot, tmp_path, load_scenario(path), str(path), previews=available())
    w.document.scenario.state["setup_accepted"] = True
    asked: list[str] = []
    w.turns.ask_play = lambda: asked.append("asked") or answer
    w.set_tool("adjudicate")
    assert not w.turns.playing()
    return w, asked


def move(w: Any, unit: str, to: str) -> None:
    select(w, unit)
    click(w, w.document.scenario.map.parse_label(to))


def test_a_grid_move_outside_play_asks_and_an_order_starts_play(qtbot: Any, tmp_path: Path) -> None:
    w, asked = grid_window(qtbot, tmp_path, "order")
    move(w, "US-14", "0410")
    assert asked == ["asked"] and w.turns.playing()
    g = w.turns.game()
    assert [e.kind for e in g.journal] == ["order"] and g.journal[0].summary == "US-14 to 0410"
    assert w.document.scenario.unit("US-14").at == w.document.scenario.map.parse_label("0410")


def test_a_grid_set_up_edit_says_so_and_is_asked_once(qtbot: Any, tmp_path: Path) -> None:
    w, asked = grid_window(qtbot, tmp_path, "setup")
    s = w.document.scenario
    move(w, "US-14", "0410")
    assert s.unit("US-14").at == s.map.parse_label("0410") and "game" not in s.state
    assert w.statusBar().currentMessage().startswith("Set-up edit (not an order of the game): ")
    assert w.document.undo_stack.undoText().startswith("Set-up edit")
    move(w, "US-13", "0411")
    assert asked == ["asked"] and not w.turns.playing()  # asked once


def test_a_cancelled_question_moves_nothing(qtbot: Any, tmp_path: Path) -> None:
    w, asked = grid_window(qtbot, tmp_path, "cancel")
    s = w.document.scenario
    before = s.unit("US-14").at
    move(w, "US-14", "0410")
    assert asked == ["asked"] and s.unit("US-14").at == before and not w.document.undo_stack.count()
    assert "did not move" in w.statusBar().currentMessage()


@pytest.mark.parametrize("answer", ["order", "setup"])
def test_a_territory_rail_move_outside_play_asks(qtbot: Any, tmp_path: Path, answer: str) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=None)
    asked: list[str] = []
    w.turns.ask_play = lambda: asked.append("asked") or answer
    w.set_mode("railoptions")
    w.select_unit("ger_inf")
    moved = rail(w).rail_to("italy")
    assert asked == ["asked"]
    s = w.document.scenario
    if answer == "order":  # play starts; the game is in its purchase phase, so the rail move is refused, said so
        assert w.turns.playing() and not moved and s.unit("ger_inf").at == "germany"
        assert w.statusBar().currentMessage().startswith("Refused: This order belongs to the noncombat phase")
    else:
        assert moved and s.unit("ger_inf").at == "italy" and not w.turns.playing()
        assert w.statusBar().currentMessage().startswith("Set-up edit (not an order of the game): ")


def test_a_set_up_edit_during_a_game_is_a_journalled_adjustment(qtbot: Any, tmp_path: Path) -> None:
    from engine.editing import plan_move_unit

    w, _asked = grid_window(qtbot, tmp_path, "order")
    move(w, "US-14", "0410")  # the game begins
    s = w.document.scenario
    g = w.turns.game()
    assert len(g.journal) == 1
    before = s.unit("CS-51").at
    to = s.map.parse_label("1707")
    assert w.document.push("Move CS-51 to 1707", plan_move_unit(s, "CS-51", to, {}))  # the Unit tool's edit
    e = g.journal[-1]
    assert e.kind == "adjust" and e.summary == "game master's adjustment: Move CS-51 to 1707"
    assert s.unit("CS-51").at == to
    w.document.undo_stack.undo()
    assert s.unit("CS-51").at == before and len(g.journal) == 1
    w.document.undo_stack.redo()
    assert s.unit("CS-51").at == to and g.journal[-1].kind == "adjust"
