"""The Combat dock of an ACW game (issue 16; ``app/gui/docks/combat.py``):
the worked example resolved in the real window, the retreat chosen by a
click on the map, End Turn's refusal pointing at the panel, the cavalry's
choice, reinforcements and their refusals, and the dock living through map
switches and a closed and reopened window (pytest-qt, offscreen)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QSettings
from system_parts import combat
from test_editor_tools import click
from test_window_lifetimes import CWOL, pump

from app.gui.main_window import MainWindow
from app.gui.systems import previews_for
from engine.io import load_any
from engine.model import Scenario

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "maps" / "acw_short_campaign.json")
WORKED = {"US-14": "0613", "US-13": "0613", "US-12": "0613", "US-8A": "0613", "US-HQ": "0613",
          "CS-51": "0714", "CS-52": "0714"}
"""15 Union factors in 0613 against 6 Rebel factors across the river in 0714
(``docs/rules/acw.md``, the worked example; as tests/rules/test_acw_game.py)."""


def window(qtbot: Any, tmp_path: Path, scenario: Scenario, path: str | None = None,
           size: tuple[int, int] = (1280, 820)) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(scenario, path, settings, tmp_path / "state", previews=previews_for())
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    pump()
    w.canvas.fit()
    return w


def worked(where: dict[str, str] = WORKED) -> Scenario:
    """The sample with units placed for a test; the scenario accepts that set-up."""
    s = load_any(SAMPLE)
    for uid, label in where.items():
        s.unit(uid).at = s.map.parse_label(label)
    s.state["setup_accepted"] = True
    return s


def choose(box: Any, text: str) -> None:
    i = box.findText(text)
    assert i >= 0, [box.itemText(k) for k in range(box.count())]
    box.setCurrentIndex(i)


def test_the_worked_example_in_the_combat_panel_gives_56_21_and_casualties_1_and_3(qtbot, tmp_path) -> None:
    w = window(qtbot, tmp_path, worked())
    p = combat(w)
    assert combat(w).dock.isVisible()
    choose(p.attack_box, "0613 \u2192 0714")
    forces = p.forces.text()
    assert "15 factors" in forces and "6 factors, counting 12" in forces and "\u00d72 (river)" in forces
    assert "Victory number <b>56</b>" in forces
    assert p.plot.attack is not None and p.plot.attack.odds.victory_number == 56
    p.resolve_btn.click()  # no time yet: nothing happens, the panel says why
    assert "post's time" in p.result.text() and not w.document.undo_stack.count()
    p.time_edit.setText("9:51:45")
    p.resolve_btn.click()
    s = w.document.scenario
    text = p.result.text()
    assert "Result number <b>21</b> against victory number 56" in text and "the attackers win" in text
    assert "attacker 1 (14th Inf 4\u21923)" in text and "defender 3 (51st Inf 3\u21921, 52nd Inf 3\u21922)" in text
    # spread over the units present: the strongest first, none loses twice before the others once
    assert [s.unit(u).strength for u in ("US-14", "US-13", "US-12")] == [3, 4, 4]
    assert (s.unit("CS-51").strength, s.unit("CS-52").strength) == (1, 2)
    entry = w.turns.game().journal[-1]
    assert entry.order == {"attack": "0613", "defend": "0714", "time": "9:51:45"} and entry.time == "9:51:45"
    assert w.document.undo_stack.count() == 1 and w.turns.playing()

    # the Rebels owe the retreat: End Turn refuses, naming it, and points to the panel
    assert p.retreat_group.isVisible() and "The Rebels must retreat" in p.retreat_label.text()
    w.game.act_end_turn.trigger()
    dlg = w.error_dialog
    assert dlg is not None and "Combat panel" in dlg.summary
    assert any("owe the retreat of CS-51, CS-52 from 0714" in x for x in dlg.problems)
    assert w.turns.game().turn.side == "union"
    # the legal hexes are on the map; a half-loss hex says so
    marks = {m.cell: m for m in w.canvas._overlays["combat"].items if hasattr(m, "fill")}
    labels = {s.map.label(c): m.text for c, m in marks.items()}
    assert labels["0815"] == "R" and labels["0614"] == "-2"
    w.set_tool("brush")
    w.state.set_terrain(1)
    click(w, s.map.parse_label("0815"))  # painting: the click is the brush's, not the retreat
    assert s.unit("CS-51").at == s.map.parse_label("0714") and p.retreat_group.isVisible()
    assert w.document.undo_stack.count() == 2
    w.document.undo_stack.undo()  # the stroke
    w.set_tool("adjudicate")
    click(w, s.map.parse_label("0815"))  # the owner's click on a marked hex is the retreat
    assert s.unit("CS-51").at == s.map.parse_label("0815") and s.unit("CS-52").at == s.map.parse_label("0815")
    assert w.turns.game().journal[-1].order == {"retreat": "0714", "to": "0815"}
    assert not p.retreat_group.isVisible()
    assert not any(getattr(m, "text", None) == "R" for m in getattr(w.canvas._overlays.get("combat"), "items", ()))
    w.game.act_end_turn.trigger()
    assert w.turns.game().turn.side == "rebel"
    assert p.result.text() == ""  # another step: the battle's result is the journal's now
    w.document.undo_stack.undo()
    w.document.undo_stack.undo()  # undo the retreat: it is owed again, and drawn again
    assert p.retreat_group.isVisible() and p.retreat_box.count() > 0


def test_end_turn_names_the_combat_owed_and_points_to_the_panel(qtbot, tmp_path) -> None:
    s = worked({"US-14": "0613", "CS-51": "0714"})
    w = window(qtbot, tmp_path, s)
    w.set_tool("adjudicate")
    w.game.act_play.trigger()
    s.unit("US-14").at = s.map.parse_label("0612")
    w.document.scenarioReplaced.emit(s)  # as the file was laid out; US-14 then moves next to CS-51
    assert w.turns.give({"unit": "US-14", "to": "0613"})[0]
    p = combat(w)
    assert p.attack_box.itemText(0) == "0613 \u2192 0714 (owed)"
    combat(w).dock.hide()
    w.game.act_end_turn.trigger()
    assert combat(w).dock.isVisible()
    dlg = w.error_dialog
    assert dlg is not None and "Combat panel" in dlg.summary
    assert any("US-14" in x and "owes a combat this turn" in x for x in dlg.problems)


def test_reinforcements_purchases_posts_and_the_rail_shown_when_refused(qtbot, tmp_path) -> None:
    s = load_any(SAMPLE)
    s.state["acw"] = {"points": {"union": 3, "rebel": 0}}
    w = window(qtbot, tmp_path, s)
    p = combat(w)
    p.tabs.setCurrentIndex(1)
    assert "Union 3, Rebels 0" in p.reinforcements.points_label.text()
    p.reinforcements.buy_unit.setCurrentIndex(p.reinforcements.buy_unit.findData("US-6"))  # in 0505, off the rail held to the edge
    p.reinforcements.buy_btn.click()
    assert p.reinforcements.message.text().startswith("Refused: 6th Inf in 0505 is not in or next to a rail hex")
    rail = [m for m in w.canvas._overlays["combat"].items if getattr(m, "outline", None) == "#7b3294"]
    assert {s.map.label(m.cell) for m in rail} >= {"0310"}  # Aldie's rail to the west edge, drawn
    assert s.unit("US-6").strength == 4 and not w.document.undo_stack.count()
    p.reinforcements.buy_unit.setCurrentIndex(p.reinforcements.buy_unit.findData("US-8A"))  # artillery: 2 points a factor
    p.reinforcements.buy_btn.click()
    assert "8th Arty in 0310 gains 1 factor for 2 points (1 left)" in p.reinforcements.message.text()
    assert s.unit("US-8A").strength == 3 and "Union 1, Rebels 0" in p.reinforcements.points_label.text()
    assert w.turns.game().journal[-1].order == {"unit": "US-8A", "factors": 1}
    assert "combat" not in w.canvas._overlays or not any(
        getattr(m, "outline", None) == "#7b3294" for m in w.canvas._overlays["combat"].items)
    assert not p.reinforcements.post_group.isEnabled()  # the post is the Rebels', on their move
    w.game.act_end_turn.trigger()
    assert p.reinforcements.post_group.isEnabled()
    p.reinforcements.post_now.click()
    assert re.fullmatch(r"\d{1,2}:\d{2}:\d{2}\.\d{3}", p.reinforcements.post_time.text())
    p.reinforcements.post_time.setText("9:51:45.250")  # 250 mod 6 = 4 <= the cities the Rebels hold
    assert p.reinforcements.post()
    assert w.turns.game().journal[-1].order == {"reinforcement_post": "9:51:45.250"}
    assert "Rebels 1" in p.reinforcements.points_label.text()
    assert not p.reinforcements.post()
    assert "already made their reinforcement post" in p.reinforcements.message.text()
    p.reinforcements.new_id.setText("CS-NEW")
    p.reinforcements.new_at.setText("1711")
    p.reinforcements.new_type.setCurrentText("inf")
    assert p.reinforcements.raise_unit(), p.reinforcements.message.text()
    assert s.unit("CS-NEW").strength == 0 and "Rebels 0" in p.reinforcements.points_label.text()


def test_the_cavalry_engaged_by_infantry_is_offered_its_withdrawal(qtbot, tmp_path) -> None:
    w = window(qtbot, tmp_path, worked({"US-14": "0613", "CS-37C": "0714"}))
    p = combat(w)
    s = w.document.scenario
    choose(p.attack_box, "0613 \u2192 0714")
    assert p.cavalry_group.isVisible() and not p.resolve_btn.isEnabled()
    assert "cavalry engaged by infantry" in p.cavalry.text()
    to = p.withdraw_to.currentText()
    p.withdraw_btn.click()
    assert s.map.label(s.unit("CS-37C").at) == to
    assert w.turns.game().journal[-1].order == {"withdraw": "CS-37C", "to": to}


def test_the_combat_dock_lives_through_map_switches_and_a_reopened_window(qtbot, tmp_path, capfd) -> None:
    w = window(qtbot, tmp_path, load_any(SAMPLE), SAMPLE)
    panel, dock = combat(w), combat(w).dock
    assert dock.isVisible()
    assert w.open_file(CWOL)
    pump()
    assert not dock.isVisible() and not dock.toggleViewAction().isEnabled()
    assert w.open_file(SAMPLE)
    pump()
    assert shiboken6.isValid(panel) and shiboken6.isValid(panel.plot) and dock.isVisible()
    s = w.document.scenario
    for uid, label in WORKED.items():
        s.unit(uid).at = s.map.parse_label(label)
    s.state["setup_accepted"] = True
    w.document.scenarioReplaced.emit(s)
    choose(panel.attack_box, "0613 \u2192 0714")
    panel.time_edit.setText("9:51:45")
    assert panel.resolve()
    assert "Result number <b>21</b>" in panel.result.text()
    w.close()
    pump()
    w2 = window(qtbot, tmp_path, load_any(SAMPLE), SAMPLE)
    assert combat(w2).dock.isVisible() and combat(w2) is not panel
    assert combat(w2).attack_box.count() == 0
    err = capfd.readouterr().err
    assert "already deleted" not in err and "Internal C++ object" not in err and "Traceback" not in err


def test_a_bad_post_time_is_refused_naming_it_and_changes_nothing(qtbot, tmp_path) -> None:
    w = window(qtbot, tmp_path, worked())
    p = combat(w)
    choose(p.attack_box, "0613 \u2192 0714")
    p.time_edit.setText("9:61:45")
    assert not p.resolve()
    assert p.result.text().startswith("Refused:") and "9:61" in p.result.text()
    assert not w.document.undo_stack.count() and w.document.scenario.unit("CS-51").strength == 3
    p.now_btn.click()  # the clock's time, as the engine reads a post time
    assert re.fullmatch(r"\d{1,2}:\d{2}:\d{2}", p.time_edit.text())


def test_an_attack_from_two_hexes_doubles_behind_a_river_only_when_every_hex_is_across(qtbot, tmp_path) -> None:
    w = window(qtbot, tmp_path, worked({"US-14": "0613", "US-13": "0614", "CS-51": "0714", "CS-52": "0714"}))
    w.game.act_play.trigger()  # playing: the chosen attack is drawn on the map
    p = combat(w)
    s = w.document.scenario
    choose(p.attack_box, "0613 \u2192 0714")
    assert "\u00d72 (river)" in p.forces.text()  # 0613 lies across the river from 0714
    assert p.join_list.isVisible() and p.join_list.count() == 1
    item = p.join_list.item(0)
    assert "0614" in item.text()
    item.setCheckState(item.checkState().Checked)
    text = p.forces.text()
    assert "in 0613, 0614 (8 factors)" in text and "river" not in text  # 0614 is not across the river
    outlined = {s.map.label(m.cell): m.outline for m in w.canvas._overlays["combat"].items}
    assert outlined == {"0613": "#1b1b1b", "0614": "#1b1b1b", "0714": "#e0201a"}
    p.time_edit.setText("9:51:45")
    assert p.resolve()
    assert w.turns.game().journal[-1].order == {"attack": ["0613", "0614"], "defend": "0714", "time": "9:51:45"}
    assert s.unit("US-14").props.get("fought") and s.unit("US-13").props.get("fought")


def test_a_force_with_no_legal_retreat_is_dealt_with_as_the_option_says(qtbot, tmp_path) -> None:
    s = worked({"CS-39": "0714", "CS-40": "0714", "CS-17": "0714"})
    centre = s.map.parse_label("0714")
    ring = s.map.grid.neighbours(centre)
    attack = next(c for c in ring if not s.map.river_between(c, centre))
    for uid, cell in zip(["US-14", "US-13", "US-12", "US-3", "US-6", "US-27"],
                         [attack] + [c for c in ring if c != attack], strict=True):
        s.unit(uid).at = cell
    w = window(qtbot, tmp_path, s)
    p = combat(w)
    choose(p.attack_box, f"{s.map.label(attack)} \u2192 0714")
    p.time_edit.setText("9:51:45")
    assert p.resolve()
    text = p.result.text()
    assert "the attackers win" in text and "has no hex to retreat to" in text and "it is eliminated" in text
    assert not s.units_at(centre) and not p.retreat_group.isVisible()
