"""Rail Options in the territory editor (issue 17, "Views" and "Build
limits"): the per-nation rail panel, economy orders from the editor giving
the journal the command line gives, and the Station/Railroad tools refusing
an illegal placement with the rules' reason while a game is played (placing
freely in the designer's mode)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_territory_rail_tools import click
from window_kit import open_map

from app.gui.territory import TerritoryWindow
from engine.io import load_any, save_any
from engine.rules.rail_options import config_of
from engine.rules.rail_options.economy import nation_report
from engine.turns.game import Game

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "aa_rail_options.json"


def prepared(tmp_path: Path, option: int = 1) -> Path:
    s = load_any(str(SAMPLE))
    s.ruleset.options["rail_options"] = {"option": option}
    s.state["rail_options"]["ipcs"] = {"germany": 40, "ussr": 30, "uk": 30}
    path = tmp_path / f"option{option}.json"
    save_any(s, str(path))
    return path


def window(qtbot: Any, tmp_path: Path, path: Path) -> TerritoryWindow:
    w: TerritoryWindow = open_map(qtbot, tmp_path, path)
    w.nation_rail.dock.show()
    w.nation_rail.dock.raise_()
    return w


def to_phase(w: TerritoryWindow, side: str, phase: str) -> None:
    g = w.turns.game()
    assert g is not None
    while not (g.turn.side == side and g.turn.phase == phase):
        assert w.turns.end(phase_only=True) is None


def journal(scenario: Any) -> list[dict[str, Any]]:
    """The game's entries but their place in the chain (each entry's salt
    is its own, so two games played alike differ in their hashes only)."""
    return [{k: v for k, v in e.items() if k not in ("hash", "prev", "salt")}
            for e in json.loads(json.dumps(list(scenario.state["game"]["journal"]["entries"])))]


def test_an_option_1_game_in_the_editor_gives_the_command_lines_journal(qtbot: Any, tmp_path: Path) -> None:
    path = prepared(tmp_path)
    w = window(qtbot, tmp_path, path)
    panel = w.nation_rail.panel
    assert "IPCs: 40" in panel.report.text() and "Germany" in panel.report.text()
    panel.piece.setCurrentText("station")
    panel.count.setValue(1)
    panel.buy.click()  # "Cost: 15 (Rail Station)"
    assert "IPCs: 25" in panel.report.text() and "1 station" in panel.report.text()
    to_phase(w, "germany", "place")
    w.mode_actions["station"].trigger()
    before = json.dumps(w.scenario.territory("austria").features, sort_keys=True)
    click(qtbot, w, "austria")  # Italy's: "built in any territory controlled for 1(+) round"
    assert "held by Italy" in w.statusBar().currentMessage()
    assert json.dumps(w.scenario.territory("austria").features, sort_keys=True) == before
    click(qtbot, w, "balkans")
    assert w.scenario.territory("balkans").features["rail_station"] == {"purchased": w.scenario.turn}
    assert "Bought, not placed: none" in panel.report.text()
    to_phase(w, "ussr", "combat")
    w.select(["bryansk"])
    panel.capture.click()
    assert w.scenario.territory("bryansk").controller == "ussr"
    to_phase(w, "uk", "combat")
    w.select(["germany"])
    damage_before = w.scenario.territory("germany").features["rail_station"].get("damage", 0)
    panel.bombers.setValue(2)
    panel.aa.setText("1 5")
    panel.dice.setText("1")
    panel.bomb.click()
    assert w.scenario.territory("germany").features["rail_station"]["damage"] == damage_before + 1 == 2
    panel.nation.setCurrentIndex(panel.nation.findData("germany"))
    rep = nation_report(w.scenario, config_of(w.scenario.ruleset.options), "germany")
    assert f"IPCs: {rep['ipcs']}" in panel.report.text() and "Germany: damage 2, usable" in panel.report.text()

    # the same orders through the engine, as adjutant orders gives them (the editor shows a refusal and
    # journals nothing, as its turn controller does for every gesture: the refused Austria is left out)
    g = Game(load_any(str(path)), "rail_options")

    def cli_phase(side: str, phase: str) -> None:
        while not (g.turn.side == side and g.turn.phase == phase):
            g.end_phase()

    def give(order: dict[str, object]) -> None:
        g.give(order, side=g.turn.side)  # an orders file of the side to move

    give({"action": "buy", "nation": "germany", "piece": "station", "count": 1})
    cli_phase("germany", "place")
    give({"action": "place", "nation": "germany", "piece": "station", "territory": "balkans"})
    cli_phase("ussr", "combat")
    give({"action": "capture", "nation": "ussr", "territory": "bryansk"})
    cli_phase("uk", "combat")
    give({"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 2, "dice": [1], "aa": [1, 5]})
    assert journal(w.scenario) == journal(g.scenario)
    assert [e["kind"] for e in journal(g.scenario) if e["kind"] in ("order", "refused")] == \
        ["order", "order", "order", "order"]
    # one undo takes back the raid
    w.document.undo_stack.undo()
    assert w.scenario.territory("germany").features["rail_station"].get("damage", 0) == damage_before


def test_the_designers_mode_places_freely_and_the_panel_follows_the_map(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "sample.json"
    path.write_bytes(SAMPLE.read_bytes())
    w = window(qtbot, tmp_path, path)
    assert not w.nation_rail.playing()
    w.mode_actions["station"].trigger()
    click(qtbot, w, "austria")  # no game yet: an edit, wherever land is
    assert isinstance(w.scenario.territory("austria").features.get("rail_station"), dict)
    assert "game" not in w.scenario.state
    europe = ROOT / "maps" / "railroad_module_europe.json"
    assert w.open_file(str(europe), ask=False)
    assert not w.nation_rail.panel.buy.isEnabled()
    assert "not a Rail Options game" in w.nation_rail.panel.target.text()
    assert w.open_file(str(path), ask=False)
    assert w.nation_rail.panel.buy.isEnabled() and "Germany" in w.nation_rail.panel.report.text()
    w.close()
    again = window(qtbot, tmp_path, path)
    assert "IPCs" in again.nation_rail.panel.report.text()


def test_the_capacity_shown_follows_each_rail_order_of_the_turn(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "sample.json"
    path.write_bytes(SAMPLE.read_bytes())
    w = window(qtbot, tmp_path, path)
    w.turns.set_playing(True)
    to_phase(w, "germany", "noncombat")
    left = w.options_panel.nation_left("Germany")
    shown = w.nation_rail.panel.report.text()
    ok, why = w.turns.give({"unit": "ger_inf", "to": "smolensk"})
    assert ok, why
    assert w.options_panel.nation_left("Germany") == str(int(left or 0) - 1)  # the Rail options table
    assert w.nation_rail.panel.report.text() != shown and "Rail this turn: 1 " in w.nation_rail.panel.report.text()
    w.document.undo_stack.undo()
    assert w.options_panel.nation_left("Germany") == left and w.nation_rail.panel.report.text() == shown


def test_the_dock_grants_the_rail_technology_by_an_order(qtbot: Any, tmp_path: Path) -> None:
    s = load_any(str(prepared(tmp_path)))
    s.ruleset.options["rail_options"]["technology"] = True
    path = tmp_path / "tech.json"
    save_any(s, str(path))
    w = window(qtbot, tmp_path, path)
    panel = w.nation_rail.panel
    assert panel.tech.isEnabled() and "Rail technology" not in panel.report.text()
    limit = nation_report(w.scenario, config_of(w.scenario.ruleset.options), "germany")["capacity"]["limit"]
    panel.tech.click()  # the purchase phase: Germany gains the technology, one journal entry
    g = w.turns.game()
    assert g is not None and g.journal[-1].kind == "order" and g.journal[-1].order == {
        "action": "technology", "nation": "germany"}
    assert w.scenario.state["rail_options"]["technology"] == ["germany"]
    assert "Rail technology: yes" in panel.report.text()
    rep = nation_report(w.scenario, config_of(w.scenario.ruleset.options), "germany")
    assert rep["technology"] is True and rep["capacity"]["limit"] == limit + 1  # tech_bonus
    panel.tech.click()  # again: refused, nothing changes
    assert "already has the rail technology" in w.statusBar().currentMessage()
    w.document.undo_stack.undo()
    assert "technology" not in w.scenario.state["rail_options"]
