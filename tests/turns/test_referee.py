"""A referee players cannot fool or stall (``docs/turns.md``, "Authority",
"Pending choices", "Set-up"; ``docs/rules/acw.md``, "Readings"): an order
carries only its system's keys, is given by the side it belongs to, a turn
can always end, set-up problems stop the first order, and the whole-game
edges of the ACW victory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import dumps_any, load_any
from engine.model import ModelError, Scenario, Unit
from engine.rules.acw.orders import cavalry_choices
from engine.rules.base import get
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"


def acw(where: dict[str, str] | None = None) -> Scenario:
    s = load_any(str(MAPS / "acw_short_campaign.json"))
    for uid, label in (where or {}).items():
        s.unit(uid).at = s.map.parse_label(label)
    if where:
        s.state["setup_accepted"] = True
    return s


def write(tmp_path: Path, name: str, data: Any) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return str(p)


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------------------
# the rules are the scenario's

def rail_options_noncombat() -> Game:
    g = Game(load_any(str(MAPS / "aa_rail_options.json")))  # option 1, turn 5
    assert g.turn.turn == 5 and g.system.options(g.scenario).option == 1
    g.end_phase()
    g.end_phase()
    assert g.turn.phase == "noncombat"
    return g


def test_a_rail_order_cannot_pick_its_own_option() -> None:
    g = rail_options_noncombat()
    plain = g.give({"unit": "ger_art", "to": "bryansk"})
    assert plain.kind == "refused"
    e = g.give({"unit": "ger_art", "to": "bryansk", "option": 2})
    assert e.kind == "refused"
    assert e.reasons == ("the order key 'option' selects rules; the scenario's ruleset decides them",)
    assert g.scenario.unit("ger_art").at == "germany"


def test_every_system_declares_its_order_keys_and_refuses_any_other() -> None:
    keys = {name: set(get(name).order_keys) for name in ("acw", "cwol_rail", "gitm", "railroads", "rail_options")}
    assert keys["gitm"] == {"unit", "to", "via"} and keys["cwol_rail"] == {"unit", "to"}
    assert keys["railroads"] == {"unit", "to", "nation", "from", "count", "type"}
    assert {"attack", "defend", "time", "withdraw", "stand", "retreat", "reinforcement_post", "factors",
            "new_unit"} <= keys["acw"]
    assert {"action", "nation", "piece", "territory", "bombers", "dice", "seed", "option"} <= keys["rail_options"]
    assert get("rail_options").rule_keys == ("option",)
    g = Game(acw())
    e = g.give({"unit": "US-14", "to": "0311", "reading": "loose"})
    assert e.kind == "refused" and "the order key 'reading' is not a key of a acw order" in e.reasons[0]


def test_the_cli_refuses_a_rule_selecting_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = rail_options_noncombat().scenario
    path = tmp_path / "game.json"
    path.write_text(dumps_any(s), encoding="utf-8")
    o = write(tmp_path, "o.json", [{"unit": "ger_art", "to": "bryansk", "option": 2}])
    code, out, err = cli(["orders", str(path), "--orders", o], capsys)
    assert code == 1 and "REFUSED - the order key 'option' selects rules" in out and "Traceback" not in err


# ---------------------------------------------------------------------------
# authority

def worked_example() -> Game:
    return Game(acw({"US-14": "0613", "US-13": "0613", "US-12": "0613", "US-8A": "0613", "US-HQ": "0613",
                     "CS-51": "0714", "CS-52": "0714"}))


def test_the_side_to_move_cannot_choose_the_defenders_retreat() -> None:
    g = worked_example()
    assert g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"}, side="union").kind == "order"
    e = g.give({"retreat": "0714", "to": "0815"}, side="union")
    assert e.kind == "refused" and e.reasons == ("This order is the Rebels' to give; these orders are the Union's.",)
    assert e.verdict["author"] == "union"
    assert [p.side for p in g.pending()] == ["rebel"]
    ok = g.give({"retreat": "0714", "to": "0815"}, side="rebel")
    assert ok.kind == "order" and ok.verdict["author"] == "rebel"
    assert not g.pending() and g.scenario.unit("CS-51").at == g.scenario.map.parse_label("0815")


def test_the_other_sides_units_and_nations_are_refused_everywhere() -> None:
    g = worked_example()
    for order in ({"unit": "CS-51", "to": "0815"}, {"unit": "CS-51", "factors": 1}):
        e = g.give(order, side="union")
        assert e.kind == "refused" and "It is the Union's move: CS-51 (Rebels) cannot act now." in e.reasons
    e = g.give({"unit": "CS-51", "to": "0815"}, side="rebel")  # the Rebels' own file, out of turn
    assert e.kind == "refused" and "This order is the Union's to give; these orders are the Rebels'." in e.reasons
    rail = Game(load_any(str(MAPS / "railroad_module_europe.json")))
    while rail.turn.phase != "noncombat":
        rail.end_phase()
    other = next(s.id for s in rail.scenario.sides if s.id != rail.turn.side)
    e = rail.give({"nation": other, "from": "moscow", "to": "moscow"})
    assert e.kind == "refused" and any("cannot act now" in r for r in e.reasons)


def test_cavalry_chooses_by_its_owner_and_an_unanswered_choice_takes_the_rules_default() -> None:
    g = Game(acw({"US-14": "0613", "CS-37C": "0714"}))
    assert g.give({"stand": "CS-37C"}, side="union").kind == "refused"
    (p,) = g.pending()
    assert p.side == "rebel" and dict(p.default) == {"stand": "CS-37C"}
    (d,) = g.give_defaults()
    assert d.kind == "order" and d.verdict["author"] == "rebel" and "unanswered: the rules' default" in d.summary
    assert g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"}, side="union").kind == "order"


def test_an_orders_file_says_its_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = worked_example()
    g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"})
    path = tmp_path / "game.json"
    path.write_text(dumps_any(g.scenario), encoding="utf-8")
    retreat = [{"retreat": "0714", "to": "0815"}]
    code, out, _ = cli(["orders", str(path), "--orders", write(tmp_path, "u.json", retreat)], capsys)
    assert code == 1 and "REFUSED - This order is the Rebels' to give" in out
    assert "waiting for the Rebels: the retreat of CS-51, CS-52 from 0714" in out
    code, _, err = cli(["orders", str(path), "--orders", write(tmp_path, "x.json", {"side": "rebel", "orders": []}),
                        "--side", "union"], capsys)
    assert code == 1 and "the file says it is the orders of 'rebel', --side says 'union'" in err
    code, out, _ = cli(["orders", str(path), "--orders",
                        write(tmp_path, "r.json", {"side": "rebel", "orders": retreat})], capsys)
    assert code == 0 and "1 order of the Rebels" in out


def test_pending_defaults_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = worked_example()
    g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"})
    path = tmp_path / "game.json"
    path.write_text(dumps_any(g.scenario), encoding="utf-8")
    code, out, _ = cli(["pending", str(path), "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and not res["written"] and res["pending"][0]["side"] == "rebel"
    code, out, _ = cli(["pending", str(path), "--defaults"], capsys)
    assert code == 0 and "the force in 0714 retreats to" in out and "carried out" in out
    assert not Game(load_any(str(path))).pending()
    assert main(["end-turn", str(path)]) == 0


# ---------------------------------------------------------------------------
# liveness

def zero_factor_next_to_the_enemy() -> Game:
    s = acw({"CS-37C": "2009"})
    s.units.append(Unit("US-NEW", "union", "inf", s.map.parse_label("1405"), 0, "New Inf", {}))
    g = Game(s)
    target = next(n for n in s.map.grid.neighbours(s.unit("CS-39").at) if not s.units_at(n)
                  and get("acw").check(s, {"unit": "US-NEW", "to": s.map.label(n)}).ok)
    assert g.give({"unit": "US-NEW", "to": s.map.label(target)}).kind == "order"
    return g


def test_a_unit_with_no_factors_owes_no_combat_and_the_turn_can_end() -> None:
    g = zero_factor_next_to_the_enemy()
    s = g.scenario
    e = g.give({"attack": s.map.label(s.unit("US-NEW").at), "defend": "1706", "time": "9:51:45"})
    assert e.kind == "refused" and "no factors" in e.reasons[0]
    g.end_turn()
    assert g.turn.side == "rebel"


def test_an_attack_that_cannot_be_made_does_not_discard_the_files_other_orders(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = zero_factor_next_to_the_enemy()
    s = g.scenario
    path = tmp_path / "game.json"
    path.write_text(dumps_any(s), encoding="utf-8")
    o = write(tmp_path, "o.json", [{"attack": s.map.label(s.unit("US-NEW").at), "defend": "1706", "time": "9:51:45"},
                                   {"unit": "US-14", "to": "0311"}])
    code, out, err = cli(["orders", str(path), "--orders", o], capsys)
    assert code == 1 and "Traceback" not in err
    assert "REFUSED" in out and "US-14 to 0311: carried out" in out
    assert load_any(str(path)).unit("US-14").at == s.map.parse_label("0311")


def test_an_order_for_a_unit_an_earlier_order_eliminated_is_refused_and_the_attack_stands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = acw({"CS-39": "0714", "CS-40": "0714", "CS-17": "0714"})
    centre = s.map.parse_label("0714")
    ring = s.map.grid.neighbours(centre)
    attack = next(c for c in ring if not s.map.river_between(c, centre))
    for uid, cell in zip(["US-14", "US-13", "US-12", "US-3", "US-6", "US-27"],
                         [attack] + [c for c in ring if c != attack], strict=True):
        s.unit(uid).at = cell
    path = tmp_path / "game.json"
    path.write_text(dumps_any(s), encoding="utf-8")
    o = write(tmp_path, "o.json", [{"attack": s.map.label(attack), "defend": "0714", "time": "9:51:45"},
                                   {"unit": "CS-39", "factors": 1}])
    code, out, err = cli(["orders", str(path), "--orders", o, "--json"], capsys)
    res = json.loads(out)
    assert code == 1 and "Traceback" not in err
    assert [e["kind"] for e in res["entries"]] == ["order", "refused"]
    assert "CS-39" in res["entries"][1]["reasons"][0]
    assert all(u.id != "CS-39" for u in load_any(str(path)).units)


# ---------------------------------------------------------------------------
# set-up

def test_set_up_problems_refuse_the_first_order_unless_the_scenario_accepts_them() -> None:
    s = acw()
    s.unit("US-14").at = s.map.parse_label("1212")
    g = Game(s)
    e = g.give({"unit": "US-13", "to": "0311"})
    assert e.kind == "refused" and "The set-up is not the rules': units.US-14: 14th Inf (union) stands in 1212" \
        in e.reasons[0]
    with pytest.raises(Exception, match="set-up"):
        g.end_turn()
    s.state["setup_accepted"] = True
    assert g.give({"unit": "US-13", "to": "0311"}).kind == "order"
    del s.state["setup_accepted"]
    assert g.give({"unit": "US-12", "to": "0411"}).kind == "order"  # the game has begun


# ---------------------------------------------------------------------------
# whole-game edges

def test_both_objectives_held_at_the_end_of_turn_12_end_the_game() -> None:
    s = acw({"US-14": "2411", "CS-39": "0310"})
    for uid in ("US-13", "US-HQ", "US-8A"):
        s.unit(uid).at = s.map.parse_label("0410")
    s.turn = 12
    g = Game(s)
    g.end_turn()  # the Union's move: both held; the Rebels' capture (A) is older than the Union's move
    v = s.state["acw"].get("victory")
    assert v is not None and v["outcome"] == "major_rebel"


def test_both_objectives_held_after_the_rebels_move_give_the_union_its_capture() -> None:
    s = acw({"US-14": "2411", "CS-39": "0310"})
    for uid in ("US-13", "US-HQ", "US-8A"):
        s.unit(uid).at = s.map.parse_label("0410")
    s.turn = 12
    s.state["acw"]["phasing"] = "rebel"
    g = Game(s)
    g.turn.side = "rebel"
    g.end_turn()
    v = s.state["acw"]["victory"]
    assert v["outcome"] == "minor_union" and g.turn.turn == 13


def test_the_union_point_comes_before_the_victory_check_at_the_rebels_end_of_move() -> None:
    s = acw()
    s.turn = 12
    g = Game(s)
    g.end_turn()
    assert s.state["acw"]["points"]["union"] == 0
    g.end_turn()  # the Rebels' move ends turn 12: minor Rebel victory, and the Union's point first
    assert s.state["acw"]["victory"]["outcome"] == "minor_rebel"
    assert s.state["acw"]["points"]["union"] == 1


def test_cavalry_withdrawing_next_to_the_enemy_loses_nothing() -> None:
    g = Game(acw({"US-14": "0613", "CS-37C": "0714", "US-13": "0916"}))
    s = g.scenario
    ((_, hexes),) = cavalry_choices(s, s.map.parse_label("0714"))
    near = [h for h in hexes if any(s.map.grid.are_adjacent(s.map.parse_label(h), u.at)
                                    for u in s.units if u.side == "union")]
    assert near, hexes
    e = g.give({"withdraw": "CS-37C", "to": near[0]}, side="rebel")
    assert e.kind == "order" and s.unit("CS-37C").strength == 3


def test_cavalry_with_no_hex_to_withdraw_to_has_no_choice() -> None:
    s = acw({"US-14": "0613", "CS-37C": "0714"})
    centre = s.map.parse_label("0714")
    others = ["US-13", "US-12", "US-3", "US-6", "US-27"]
    for uid, cell in zip(others, [c for c in s.map.grid.neighbours(centre) if c != s.unit("US-14").at],
                         strict=True):
        s.unit(uid).at = cell
    g = Game(s)
    assert not g.pending()
    e = g.give({"stand": "CS-37C"}, side="rebel")
    assert e.kind == "refused" and "no hex to withdraw to" in e.reasons[0]
    assert g.give({"attack": "0613", "defend": "0714", "time": "9:51:45"}).kind == "order"


def test_a_unit_bought_with_one_point_moved_next_to_the_enemy_does_not_stall_the_turn() -> None:
    s = acw({"CS-39": "1008"})
    g = Game(s)
    g.end_turn()
    g.end_turn()  # turn 2: the Union has its point
    assert g.give({"new_unit": "US-NEW", "type": "inf", "at": "0708"}, side="union").kind == "order"
    assert s.unit("US-NEW").strength == 0
    g.end_turn()
    g.end_turn()
    enemy = s.unit("CS-39").at
    target = next(n for n in s.map.grid.neighbours(enemy) if not s.units_at(n)
                  and get("acw").check(s, {"unit": "US-NEW", "to": s.map.label(n)}).ok)
    assert g.give({"unit": "US-NEW", "to": s.map.label(target)}, side="union").kind == "order"
    e = g.give({"attack": s.map.label(target), "defend": "1008", "time": "9:51:45"}, side="union")
    assert e.kind == "refused" and "no factors" in " ".join(e.reasons)
    g.end_turn()  # it owes no combat: the turn ends
    assert g.turn.side == "rebel"


def test_cavalry_with_nowhere_to_go_is_not_offered_a_choice() -> None:
    s = acw({"US-14": "0613", "CS-37C": "0714"})
    centre = s.map.parse_label("0714")
    for uid, cell in zip(["US-13", "US-12", "US-3", "US-6", "US-27"],
                         [c for c in s.map.grid.neighbours(centre) if c != s.unit("US-14").at], strict=True):
        s.unit(uid).at = cell
    assert cavalry_choices(s, centre) == []


def test_an_order_whose_effect_fails_is_a_refusal_that_leaves_nothing() -> None:
    g = Game(acw())
    system = g.system
    real = type(system).effect

    def failing(self: Any, scenario: Any, order: Any, verdict: Any) -> Any:
        real(self, scenario, order, verdict)  # changes the scenario, then finds it cannot go on
        raise ModelError("the units were to go to 0311; 0 are there")

    before = dumps_any(g.scenario)
    type(system).effect = failing  # type: ignore[method-assign]
    try:
        e = g.give({"unit": "US-14", "to": "0311"}, side="union")
    finally:
        type(system).effect = real  # type: ignore[method-assign]
    assert e.kind == "refused" and e.reasons == ("the units were to go to 0311; 0 are there",)
    after = json.loads(dumps_any(g.scenario))
    del after["state"]["game"]
    expected = json.loads(before)
    del expected["state"]["game"]
    assert after == expected
