"""The whole ACW game as orders (issue 16; ``docs/rules/acw.md``, "Orders and
the turn"): combat, the cavalry's choice, retreat, reinforcement, deployment,
victory, the CLI, and the scripted campaign's report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import dumps_any, load_any, loads_any
from engine.model import ModelError, Scenario
from engine.rules.acw import retreat_options, victory
from engine.rules.base import get
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"


def sample() -> Scenario:
    return load_any(str(SAMPLE))


def place(s: Scenario, where: dict[str, str]) -> None:
    """Put units where a test wants them; the scenario accepts the set-up it makes."""
    for uid, label in where.items():
        s.unit(uid).at = s.map.parse_label(label)
    s.state["setup_accepted"] = True


def worked_example() -> Game:
    """15 Union factors in 0613 against 6 Rebel factors across the river in 0714 (open ground, no bridge)."""
    s = sample()
    place(s, {"US-14": "0613", "US-13": "0613", "US-12": "0613", "US-8A": "0613", "US-HQ": "0613",
              "CS-51": "0714", "CS-52": "0714"})
    return Game(s)


def test_the_worked_example_on_the_map_gives_56_21_and_spreads_1_and_3_over_the_units_present() -> None:
    g = worked_example()
    s = g.scenario
    e = g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"})
    assert e.kind == "order", e.reasons
    rec = e.effect["record"]
    assert (rec["victory_number"], rec["result_number"], rec["winner"]) == (56, 21, "attacker")
    assert (rec["attacker_casualties"], rec["defender_casualties"]) == (1, 3)
    assert rec["defender_effective"] == "12" and rec["total_factors"] == "27"
    # spread evenly: the strongest first, no unit takes a second loss before the others took one
    assert [s.unit(u).strength for u in ("US-14", "US-13", "US-12")] == [3, 4, 4]
    assert (s.unit("CS-51").strength, s.unit("CS-52").strength) == (1, 2)
    assert s.state["acw"]["retreats"] == [{"hex": "0714", "side": "rebel", "units": ["CS-51", "CS-52"]}]
    # the turn cannot end while the retreat is owed; the refusal names it
    with pytest.raises(ModelError, match=r"owe the retreat of CS-51, CS-52 from 0714"):
        g.end_turn()
    bad = g.give({"retreat": "0714", "to": "0613"})
    assert bad.kind == "refused" and "may retreat to" in bad.reasons[0]
    r = g.give({"retreat": "CS-51", "to": "0815"})
    assert r.kind == "order", r.reasons
    assert s.unit("CS-51").at == s.map.parse_label("0815") and "retreats" not in s.state["acw"]
    g.end_turn()
    # undo through the journal gives the file back; loading replays it
    text = dumps_any(s)
    loaded = Game(loads_any(text, "saved"))
    assert dumps_any(loaded.scenario) == text


def test_a_retreat_ending_next_to_the_enemy_loses_half_rounded_up() -> None:
    g = worked_example()
    s = g.scenario
    s.unit("US-29").at = s.map.parse_label("0916")  # a Union unit beside some of the retreat hexes
    assert g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"}).kind == "order"
    plan = retreat_options(s, s.map.parse_label("0714"))
    near = next(h for h in plan.hexes if h.adjacent_to_enemy)
    assert plan.factors == 3 and near.loss == 2  # half of 3, the odd half rounded up
    e = g.give({"retreat": "0714", "to": near.label})
    assert e.kind == "order" and "loses half its factors (2)" in e.reasons[0]
    assert sum(s.unit(u).strength for u in ("CS-51", "CS-52") if any(x.id == u for x in s.units)) == 1
    assert sorted(x["lost"] for x in e.effect["record"]["losses"]) == [1, 1]


def test_a_unit_that_halts_next_to_the_enemy_owes_a_combat_and_end_turn_names_it() -> None:
    s = sample()
    place(s, {"US-3C": "1205"})  # cavalry, 5 movement points: within reach of a hex next to 37th Cav
    g = Game(s)
    enemy = s.unit("CS-37C").at
    target = next(n for n in s.map.grid.neighbours(enemy) if not s.units_at(n)
                  and get("acw").check(s, {"unit": "US-3C", "to": s.map.label(n)}).ok)
    assert g.give({"unit": "US-3C", "to": s.map.label(target)}).kind == "order"
    with pytest.raises(ModelError, match=r"3rd Cav \(US-3C\) entered .* owes a combat this turn"):
        g.end_turn()
    assert g.turn.side == "union"  # nothing changed


def test_cavalry_engaged_by_infantry_chooses_before_the_battle() -> None:
    s = sample()
    place(s, {"US-14": "0613", "CS-37C": "0714"})
    g = Game(s)
    e = g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"})
    assert e.kind == "refused" and "its owner chooses first" in e.reasons[0]
    w = g.give({"withdraw": "CS-37C", "to": "0613"})
    assert w.kind == "refused" and "may withdraw 1 hex to" in w.reasons[0]
    assert g.give({"stand": "CS-37C"}).kind == "order"
    assert g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"}).kind == "order"


def test_no_legal_retreat_eliminates_the_force() -> None:
    s = sample()
    # three Rebel infantry (12 factors) in 0714 ringed by Union units: they lose and have nowhere to go
    place(s, {"CS-39": "0714", "CS-40": "0714", "CS-17": "0714"})
    centre = s.map.parse_label("0714")
    ring = s.map.grid.neighbours(centre)
    attack = next(c for c in ring if not s.map.river_between(c, centre))
    union = ["US-14", "US-13", "US-12", "US-3", "US-6", "US-27"]  # US-14 (4 factors) attacks
    for uid, cell in zip(union, [attack] + [c for c in ring if c != attack], strict=True):
        s.unit(uid).at = cell
    g = Game(s)
    e = g.give({"attack": s.map.label(attack), "defend": "0714", "time": "9:51:45"})
    assert e.kind == "order", e.reasons
    rec = e.effect["record"]
    assert (rec["victory_number"], rec["result_number"], rec["winner"]) == (25, 21, "attacker")
    assert rec["defender_casualties"] == 2  # row 0-5: L2 x 16/15 = 2.13 -> 2
    assert "has no hex to retreat to" in rec["no_retreat"][0] and "it is eliminated" in rec["no_retreat"][0]
    assert sorted(rec["eliminated"]) == ["CS-17", "CS-39", "CS-40"]
    assert not s.units_at(centre) and "retreats" not in s.state["acw"]


def test_reinforcement_points_post_and_purchases() -> None:
    g = Game(sample())
    s = g.scenario
    e = g.give({"unit": "US-13", "factors": 1})
    assert e.kind == "refused" and "has 0" in e.reasons[0]
    g.end_turn()
    p = g.give({"reinforcement_post": "9:51:45.250"})  # 250 mod 6 = 4 <= 6 cities
    assert p.kind == "order" and s.state["acw"]["points"]["rebel"] == 1
    assert g.give({"reinforcement_post": "9:51:46.250"}).kind == "refused"  # a single post a turn
    far = g.give({"unit": "CS-37C", "factors": 1})  # cavalry: 2 points
    assert far.kind == "refused"
    assert g.give({"unit": "CS-40", "factors": 1}).kind == "order"  # Idlewood is on the rail line
    assert s.unit("CS-40").strength == 5 and s.state["acw"]["points"]["rebel"] == 0
    moved = g.give({"unit": "CS-40", "to": "1712"})
    assert moved.kind == "refused" and "spends the turn not moving" in moved.reasons[0]
    g.end_turn()
    assert s.state["acw"]["points"]["union"] == 1  # a new turn: the Union's point
    n = g.give({"new_unit": "US-31", "type": "inf", "at": "0310", "name": "31st Inf"})
    assert n.kind == "order", n.reasons
    assert s.unit("US-31").strength == 0 and s.state["acw"]["points"]["union"] == 0
    assert g.give({"unit": "US-31", "to": "0410"}).kind == "refused"


def test_rebel_gain_factor_reading() -> None:
    s = sample()
    s.ruleset.options["acw"] = {"rebel_gain": "factor"}
    g = Game(s)
    g.end_turn()
    assert g.give({"reinforcement_post": "9:51:45.250"}).kind == "refused"  # names no unit
    e = g.give({"reinforcement_post": "9:51:45.250", "unit": "CS-40"})
    assert e.kind == "order" and s.unit("CS-40").strength == 5


def _hold(s: Scenario, side: str, code: str) -> None:
    cell = next(c for c, p in s.map.places.items() if p.code == code)
    unit = next(u for u in s.units if u.side == side)
    unit.at = cell


@pytest.mark.parametrize(("turn", "complete", "expected"), [
    (7, False, "major_union"), (7, True, "major_union"), (8, False, "minor_union"), (12, True, "minor_union"),
    (13, False, "minor_rebel")])
def test_victory_union_holding_m(turn: int, complete: bool, expected: str) -> None:
    s = sample()
    _hold(s, "union", "M")
    s.turn = turn
    assert victory(s, turn_complete=complete).outcome == expected


@pytest.mark.parametrize(("turn", "complete", "expected"), [
    (11, True, None), (12, False, None), (12, True, "minor_rebel"), (13, False, "minor_rebel")])
def test_victory_twelve_turns_for_the_rebels(turn: int, complete: bool, expected: str | None) -> None:
    s = sample()
    s.turn = turn
    assert victory(s, turn_complete=complete).outcome == expected


@pytest.mark.parametrize("turn", [1, 7, 12])
def test_victory_rebels_holding_a_at_any_time(turn: int) -> None:
    s = sample()
    for u in [u for u in s.units if u.side == "union" and s.map.label(u.at) == "0310"]:
        u.at = s.map.parse_label("0410")
    _hold(s, "rebel", "A")
    s.turn = turn
    assert victory(s).outcome == "major_rebel"


def test_victory_is_checked_at_the_end_of_a_turn_and_ends_the_game() -> None:
    s = sample()
    s.turn = 7
    _hold(s, "union", "M")
    s.unit("CS-45C").at = s.map.parse_label("2005")  # out of the way of the unit in M
    g = Game(s)
    entries = g.end_turn()
    assert "VICTORY: the Union holds M on turn 7 (within 7): major Union victory" in entries[0].summary
    assert s.state["acw"]["victory"]["outcome"] == "major_union"
    with pytest.raises(ModelError, match="the game is over"):
        g.end_turn()
    assert g.give({"unit": "CS-40", "to": "1712"}).kind == "refused"


def test_deployment_is_checked_by_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert get("acw").setup_problems(sample()) == []  # type: ignore[attr-defined]
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    for u in data["units"]:
        if u["id"] in ("US-14", "CS-45C"):
            u["at"] = "1212"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "units.US-14: 14th Inf (union) stands in 1212, more than 1 hex from the deployment cities A, B, C" in out
    assert "units.CS-45C: 45th Cav (rebel) stands in 1212, more than 1 hex from the deployment cities E, I, H, G" \
        in out


def test_cli_orders_and_combat_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = worked_example()
    path = tmp_path / "game.json"
    path.write_text(dumps_any(g.scenario), encoding="utf-8")
    assert main(["combat", str(path), "--attack", "0613", "--defend", "0714", "--time", "9:51:45", "--apply"]) == 0
    out = capsys.readouterr().out
    assert "result 21 <= victory number 56: the attacker wins by 35" in out
    loaded = Game(load_any(str(path)))
    assert loaded.scenario.unit("CS-51").strength == 1
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([{"retreat": "0714", "to": "0815"}]), encoding="utf-8")
    assert main(["orders", str(path), "--orders", str(orders)]) == 1  # the Union's file: the retreat is the Rebels'
    assert "This order is the Rebels' to give; these orders are the Union's." in capsys.readouterr().out
    assert main(["orders", str(path), "--orders", str(orders), "--side", "rebel"]) == 0
    assert main(["end-turn", str(path)]) == 0
    capsys.readouterr()
    assert main(["combat", str(path), "--attack", "0613", "--defend", "0815", "--time", "9:51:45", "--apply"]) == 1
    assert "REFUSED" in capsys.readouterr().out


def test_the_scripted_campaign_regenerates_its_report(acw_cli_campaign: tuple[str, Path]) -> None:
    text, game_file = acw_cli_campaign
    # the same report but for the journal's head: each entry's salt is drawn at random (docs/file-format.md)
    head = re.compile(r"head `[0-9a-f]{12}`")
    assert head.sub("head `…`", text) == head.sub(
        "head `…`", (ROOT / "docs" / "examples" / "acw-campaign-report.md").read_text(encoding="utf-8"))
    s = load_any(str(game_file))
    assert s.turn >= 12 and s.state["acw"]["victory"]["game_over"]
    for needle in ("**attack on ", "**the force in ", "**reinforcement post at ", "**US-", "**CS-", "is reinforced by 1 factor**",
                   "- **Result:** casualties: attacker", "VICTORY"):
        assert needle in text, needle
    # every entry taken back from the file (deltas): the sample as it was
    g = Game(s)
    while len(g.journal):
        g.undo()
    start = sample()
    assert [(u.id, u.at, u.strength, u.props) for u in s.units] == \
        [(u.id, u.at, u.strength, u.props) for u in start.units]
    assert s.state["acw"] == start.state["acw"] and s.turn == start.turn


@pytest.mark.parametrize(("order", "message"), [
    ({"attack": "0613", "time": "9:51:45"}, "defend"),
    ({"attack": "0613", "defend": "0714", "time": "9:61:45"}, "not a time of day"),
    ({"retreat": "0714"}, "to"),
    ({"unit": "US-13", "factors": 0}, "factors"),
    ({"new_unit": "US-99", "type": "dragoons", "at": "0310"}, "dragoons"),
])
def test_a_malformed_order_is_refused_naming_why_and_changes_nothing_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], order: dict[str, Any], message: str) -> None:
    path = tmp_path / "game.json"
    start = worked_example().scenario
    path.write_text(dumps_any(start), encoding="utf-8")
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([order]), encoding="utf-8")
    assert main(["orders", str(path), "--orders", str(orders)]) == 1
    out, err = capsys.readouterr()
    assert "REFUSED" in out and message in out and "Traceback" not in err
    after = Game(load_any(str(path)))
    assert [e.kind for e in after.journal] == ["refused"]
    assert [(u.id, u.at, u.strength, u.props) for u in after.scenario.units] == \
        [(u.id, u.at, u.strength, u.props) for u in start.units]
