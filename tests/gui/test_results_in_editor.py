"""The editor says what a carried-out order did, in the words the command
line and the report use: a raid from the Nation rail panel (its bombers
lost, dice and damage: not "bomb in Germany: done"), a rail move by the
Rail options tool (its path and cost); the Journal dock's tooltip holds the
result too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from system_parts import rail
from test_nation_rail_panel import prepared, to_phase, window

pytestmark = pytest.mark.gui


def test_a_raid_and_a_rail_move_say_their_results(qtbot: Any, tmp_path: Path) -> None:
    w = window(qtbot, tmp_path, prepared(tmp_path))
    w.turns.game().scenario.state["setup_accepted"] = True
    panel = rail(w).nation_rail.panel
    to_phase(w, "germany", "noncombat")
    w.set_mode("railoptions")
    w.select_unit("ger_inf")
    assert rail(w).rail_to("italy")
    assert w.statusBar().currentMessage() == ("ger_inf rails to Italy: railed Germany > Austria > Italy: 2 spaces, through the station in "
                                              "Germany; 1 unit of Germany's rail capacity used")
    to_phase(w, "uk", "combat")
    w.select(["germany"])
    panel.bombers.setValue(2)
    panel.aa.setText("1 5")
    panel.dice.setText("1")
    panel.bomb.click()
    assert w.statusBar().currentMessage() == (
        "the United Kingdom bombs the rail in Germany with 2 bombers: 2 bombers, 1 shot down (anti-aircraft dice "
        "1, 5); bombing dice 1; the rail station in Germany now has 2 damage (was 1)")
    tree = w.game.journal_panel.tree
    turn = tree.topLevelItem(tree.topLevelItemCount() - 1)
    last = turn.child(turn.childCount() - 1)
    assert last.text(0).endswith("the United Kingdom bombs the rail in Germany with 2 bombers: carried out")
    assert "now has 2 damage (was 1)" in last.toolTip(0)
