"""Rail Options orders a skeptical player tries on maps/aa_rail_options.json:
station spacing read as rail movement reads a line, a marker removed from
play is gone, Option 4 destroys railroad only, one raid on a target a turn,
no capture while defenders stand, the rail technology granted by an order
(docs/rules/rail-options.md, "The turn: buying, building, bombing")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import load_any, save_any
from engine.rules.rail_options import config_of
from engine.rules.rail_options.economy import build_reason, nation_report
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]


def game(options: dict[str, Any] | None = None) -> Game:
    s = load_any(str(ROOT / "maps" / "aa_rail_options.json"))
    s.ruleset.options["rail_options"] = {"option": 1, **(options or {})}
    s.state["rail_options"]["ipcs"] = {"germany": 40, "ussr": 30, "uk": 30}
    return Game(s, "rail_options")


def to_phase(g: Game, side: str, phase: str) -> None:
    while not (g.turn.side == side and g.turn.phase == phase):
        g.end_phase()


def test_a_station_next_to_germanys_station_needs_no_marker_in_germany() -> None:
    g = game()
    s = g.scenario
    cfg = config_of(s.ruleset.options)
    s.territory("germany").features.pop("railroad")  # Germany: a station, no marker
    s.territory("poland").features.pop("rail_station")
    assert build_reason(s, cfg, s.territory("poland"), "germany", "station") is None
    s.territory("poland").features.pop("railroad")  # the new station's own territory needs none either
    assert build_reason(s, cfg, s.territory("poland"), "germany", "station") is None
    # a station territory is passed through: Belarus is 2 from Germany's station, through Poland's new one
    s.territory("poland").features["rail_station"] = {}
    s.territory("belarus").features.pop("railroad")
    assert build_reason(s, cfg, s.territory("belarus"), "germany", "station") is None
    # the strict reading: station territories need a marker too
    strict = config_of({"rail_options": {"option": 1, "stations_need_railroad": True}})
    assert "has no railroad marker" in build_reason(s, strict, s.territory("belarus"), "germany", "station")


def test_a_captured_option_1_marker_is_out_of_play_and_a_new_one_may_be_built() -> None:
    g = game()
    s = g.scenario
    cfg = config_of(s.ruleset.options)
    # Belgium: France's setup marker, Germany holds it since turn 1: "removed from play rather than captured"
    assert build_reason(s, cfg, s.territory("belgium"), "germany", "railroad") is None
    assert g.give({"action": "buy", "nation": "germany", "piece": "railroad"}).kind == "order"
    to_phase(g, "germany", "place")
    e = g.give({"action": "place", "nation": "germany", "piece": "railroad", "territory": "belgium"})
    assert e.kind == "order", e.reasons
    assert s.territory("belgium").features["railroad"] == {"purchased": 5}
    # under Option 2 captured rail is kept: the marker stands and blocks another
    kept = config_of({"rail_options": {"option": 2}})
    assert "already has a railroad marker" in build_reason(s, kept, s.territory("france"), "germany", "railroad")


def test_option_4_destroys_railroad_only() -> None:
    g = game({"option": 4})
    to_phase(g, "germany", "combat")
    e = g.give({"action": "destroy", "nation": "germany", "piece": "station", "territory": "germany"})
    assert e.kind == "refused" and "Option 4 has no rail stations: it destroys railroad only" in e.reasons[0]
    assert "rail_station" in g.scenario.territory("germany").features
    e = g.give({"action": "destroy", "nation": "germany", "piece": "railroad", "territory": "germany"})
    assert e.kind == "order" and "railroad" not in g.scenario.territory("germany").features


@pytest.mark.parametrize(("per_turn", "second"), [(None, "refused"), (2, "order"), (0, "order")])
def test_one_raid_on_a_target_a_turn_unless_the_scenario_says_otherwise(per_turn: int | None, second: str) -> None:
    g = game({} if per_turn is None else {"raids_per_turn": per_turn})
    to_phase(g, "uk", "combat")
    raid = {"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 1, "aa": [6], "dice": [1]}
    assert g.give(raid).kind == "order"
    e = g.give(raid)
    assert e.kind == second
    if second == "refused":
        assert e.reasons[0] == ("United Kingdom has already raided the rail station in Germany 1 time this turn: at "
                                "most 1 raid on a target a turn (option raids_per_turn)")
        g.end_phase()
        to_phase(g, "uk", "combat")  # the next turn: a new raid
        assert g.give(raid).kind == "order"
        assert [r["turn"] for r in g.scenario.state["rail_options"]["raids"]] == [5, 6]
        g.undo()
        assert g.scenario.state["rail_options"]["raids"] == [{"territory": "germany", "nation": "uk", "turn": 5}]


def test_no_capture_while_defending_units_stand() -> None:
    g = game()
    to_phase(g, "germany", "combat")
    e = g.give({"action": "capture", "nation": "germany", "territory": "russia"})
    assert e.kind == "refused"
    assert e.reasons[0] == ("Soviet Union infantry sov_inf still stands in Russia: a territory is captured only "
                            "when no defending unit is left in it")
    assert g.scenario.territory("russia").controller == "ussr"
    g.scenario.unit("sov_inf").at = "smolensk"
    assert g.give({"action": "capture", "nation": "germany", "territory": "russia"}).kind == "order"


def test_the_rail_technology_is_granted_by_an_order() -> None:
    g = game({"technology": True})
    before = nation_report(g.scenario, config_of(g.scenario.ruleset.options), "germany")["capacity"]["limit"]
    e = g.give({"action": "technology", "nation": "germany"})
    assert e.kind == "order", e.reasons
    rep = nation_report(g.scenario, config_of(g.scenario.ruleset.options), "germany")
    assert rep["technology"] is True and rep["capacity"]["limit"] == before + 1
    assert "already has the rail technology" in g.give({"action": "technology", "nation": "germany"}).reasons[0]
    g.undo()
    g.undo()
    assert "technology" not in g.scenario.state["rail_options"]
    off = game()
    e = off.give({"action": "technology", "nation": "germany"})
    assert e.kind == "refused" and "the technology switch is off" in e.reasons[0]
    to_phase(g, "germany", "combat")
    assert "purchase phase" in g.give({"action": "technology", "nation": "germany"}).reasons[0]


def test_the_rail_technology_through_adjutant_orders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "game.json"
    save_any(game({"technology": True}).scenario, str(f))
    o = tmp_path / "orders.json"
    o.write_text(json.dumps([{"action": "technology", "nation": "germany"}]), encoding="utf-8")
    assert main(["orders", str(f), "--orders", str(o)]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["rail-options", str(f), "--nation", "germany", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["technology"] is True
