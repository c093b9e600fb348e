"""Nothing stale when the side to move changes: the post times typed for
one side's turn are gone on the next side's; an attack's time does not
outlive its attack; the previous side's selected unit, its reach or
preview and its verdict are cleared by End Turn, in both window kinds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from system_parts import combat, rail
from test_combat_panel import WORKED, choose, window, worked
from test_journal_editor import game_window, order_by_mouse, select
from window_kit import open_map

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def test_the_post_times_are_per_turn(qtbot: Any, tmp_path: Path) -> None:
    s = worked(WORKED)
    s.state["setup_accepted"] = True  # the worked example's units stand outside the deployment zones
    w = window(qtbot, tmp_path, s)
    p = combat(w)
    choose(p.attack_box, "0613 \u2192 0714")
    p.time_edit.setText("9:51:45")
    assert p.resolve(), p.result.text()
    assert p.time_edit.text() == ""  # the next attack is another post
    p.time_edit.setText("9:52:00")
    p.reinforcements.post_time.setText("9:51:45.250")
    p.retreat(p.retreat_box.itemData(0))  # the Rebels' retreat owed
    assert w.turns.end() is None, p.result.text()
    assert w.turns.game().turn.side != "union"
    assert p.time_edit.text() == "" and p.reinforcements.post_time.text() == ""


def test_end_turn_clears_the_grid_selection_and_verdict(qtbot: Any, tmp_path: Path) -> None:
    w, _path = game_window(qtbot, tmp_path)
    select(w, "US-14")
    order_by_mouse(w, "US-13", "0411")
    select(w, "US-14")
    w.adjudicate.hover_cell = w.document.scenario.map.parse_label("0410")
    w.adjudicate.refresh()
    assert w.state.selected_unit == "US-14" and w.verdict.overlay is not None
    w.game.act_end_turn.trigger()
    assert w.turns.game().turn.side != "union"
    assert w.state.selected_unit is None
    assert w.adjudicate.overlay is None and w.verdict.overlay is None
    assert w.canvas._overlays.get("preview") is None


def test_end_turn_clears_the_territory_selection_reach_and_verdict(qtbot: Any, tmp_path: Path) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json")
    w.turns.set_playing(True)
    w.set_mode("railoptions")
    w.select_unit("ger_inf")
    w.show_verdict(False, "Russia cannot be the end of a rail move")
    assert rail(w).reach is not None and w.canvas.overlay().shades
    assert w.turns.end() is None
    assert w.turns.game().turn.side != "germany"
    assert w.selected_unit is None and rail(w).reach is None and w.verdict.overlay is None
    assert not w.canvas.overlay().shades
