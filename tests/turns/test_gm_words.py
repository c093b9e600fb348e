"""Every carried-out order says its outcome in words, one order text
whatever path gave it, side names read as a sentence says them, and the
refusals a game master reads aloud are sentences without raw JSON, said
once (wording by exact text)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import dumps_any, load_any
from engine.model import ModelError
from engine.turns.game import Game
from engine.words import counted, joined, possessive, side_phrase

ROOT = Path(__file__).resolve().parents[2]
RAIL = ROOT / "maps" / "aa_rail_options.json"
ACW = ROOT / "maps" / "acw_short_campaign.json"
WORKED = {"US-14": "0613", "US-13": "0613", "US-12": "0613", "US-8A": "0613", "US-HQ": "0613",
          "CS-51": "0714", "CS-52": "0714"}


@pytest.mark.parametrize("name, phrase, owner", [
    ("Germany", "Germany", "Germany's"), ("Soviet Union", "the Soviet Union", "the Soviet Union's"),
    ("United Kingdom", "the United Kingdom", "the United Kingdom's"), ("USSR", "the USSR", "the USSR's"),
    ("Union", "the Union", "the Union's"), ("Rebels", "the Rebels", "the Rebels'"),
    ("North", "the North", "the North's"), ("Italy", "Italy", "Italy's"), ("France", "France", "France's")])
def test_side_names_read_as_a_sentence_says_them(name: str, phrase: str, owner: str) -> None:
    assert side_phrase(name) == phrase and possessive(name) == owner


def test_counts_and_joins() -> None:
    assert counted(1, "territory", "territories") == "1 territory"
    assert counted(2, "territory", "territories") == "2 territories"
    assert joined(["It is over.", "a clause", "another"]) == "It is over. a clause; another"


def rail_game(tmp_path: Path) -> Path:
    path = tmp_path / "ro.json"
    shutil.copy(RAIL, path)
    return path


def orders(tmp_path: Path, name: str, data: list[dict[str, Any]]) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data), encoding="utf-8")
    return str(p)


def test_the_rail_options_sample_has_its_documents_ipcs_and_can_buy() -> None:
    s = load_any(RAIL)
    assert s.state["rail_options"]["ipcs"]["germany"] == 29  # "Germany begins the turn at 29 on the IPC chart"
    e = Game(s).give({"action": "buy", "nation": "germany", "piece": "station"})
    assert e.kind == "order", e.reasons


def test_rail_options_results_in_words(tmp_path: Path, capsys: Any) -> None:
    path = rail_game(tmp_path)
    assert main(["orders", str(path), "--orders", orders(tmp_path, "1.json", [
        {"action": "buy", "nation": "germany", "piece": "station", "count": 1}])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith('"Rail Options 1-4", 1 order of Germany')
    assert out[1] == "   1. Germany buys a rail station: carried out - paid 15 IPCs for a rail station; 14 IPCs left"
    assert out[2].startswith("1 carried out, 0 refused; now turn 5, purchase phase: Germany to move")
    assert main(["end-turn", "--phase", str(path)]) == 0
    capsys.readouterr()
    assert main(["orders", str(path), "--orders", orders(tmp_path, "2.json", [
        {"action": "bomb", "nation": "germany", "territory": "russia", "bombers": 2, "aa": [1, 4], "dice": [5]}])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("   3. Germany bombs the rail in Russia with 2 bombers: carried out - 2 bombers, 1 shot down "
                      "(anti-aircraft dice 1, 4); bombing dice 5; the rail station in Russia now has 5 damage "
                      "(was 0); it is inoperable")
    assert main(["end-turn", "--phase", str(path)]) == 0
    capsys.readouterr()
    assert main(["orders", str(path), "--orders", orders(tmp_path, "3.json", [{"unit": "ger_inf", "to": "italy"}])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("   5. ger_inf rails to Italy: carried out - railed Germany > Austria > Italy: 2 spaces, through "
                      "the station in Germany; 1 unit of Germany's rail capacity used")
    assert main(["journal", str(path), "--markdown"]) == 0
    md = capsys.readouterr().out
    assert "### Germany\n" in md and "The Germany" not in md and "the Germany" not in md
    assert "1. **Germany buys a rail station** — carried out.\n    - **Result:** paid 15 IPCs for a rail station; " \
           "14 IPCs left" in md
    assert "- **Result:** railed Germany \\> Austria \\> Italy: 2 spaces" in md


def acw_worked(tmp_path: Path) -> Path:
    s = load_any(ACW)
    for uid, label in WORKED.items():
        s.unit(uid).at = s.map.parse_label(label)
    s.state["setup_accepted"] = True
    path = tmp_path / "acw.json"
    path.write_text(dumps_any(s), encoding="utf-8")
    return path


def test_combat_apply_journals_as_orders_does(tmp_path: Path, capsys: Any) -> None:
    a = acw_worked(tmp_path)
    b = tmp_path / "b.json"
    shutil.copy(a, b)
    assert main(["combat", str(a), "--attack", "0613", "--defend", "0714", "--time", "9:51:45", "--apply"]) == 0
    applied = capsys.readouterr().out.splitlines()[0]
    assert main(["orders", str(b), "--orders", orders(tmp_path, "o.json", [
        {"attack": "0613", "defend": "0714", "time": "9:51:45"}])]) == 0
    given = capsys.readouterr().out.splitlines()[1]
    assert applied == given
    assert applied.startswith("   1. attack on 0714 from 0613: carried out - result 21 <= victory number 56")
    assert applied.endswith("; casualties: attacker 1 (14th Inf (US-14) 4 to 3); defender 3 (51st Inf (CS-51) 3 to 1, "
                            "52nd Inf (CS-52) 3 to 2)")
    ea, eb = Game(load_any(a)).journal[0], Game(load_any(b)).journal[0]
    assert (ea.summary, ea.order, ea.time) == (eb.summary, eb.order, eb.time)
    assert ea.order["attack"] == "0613" and "['" not in ea.summary
    # the refusal to end the turn: one sentence, not doubled, no JSON
    with pytest.raises(ModelError) as err:
        Game(load_any(a)).end_turn()
    assert str(err.value) == ("The movement phase cannot end: the Rebels owe the retreat of CS-51, CS-52 from 0714 "
                              "(a retreat to a hex they choose).")
    assert main(["journal", str(a)]) == 0
    assert "1 journal entry;" in capsys.readouterr().out


def test_the_acw_end_of_turn_and_purchases_in_words(tmp_path: Path) -> None:
    g = Game(load_any(acw_worked(tmp_path)))
    entries = g.end_turn()
    assert entries[0].summary.startswith("the Union fortifies ") and "; the Rebels move next" in entries[0].summary
    assert entries[-1].summary == "end of the Union's move; turn 1: the Rebels to move"
    assert g.order_text({"unit": "US-13", "factors": 1}) == "US-13 is reinforced by 1 factor"
    assert g.order_text({"attack": ["0613", "0614"], "defend": "0714", "time": "9:00:00"}) == \
        "attack on 0714 from 0613 and 0614"


def test_a_rules_command_on_another_systems_map_says_so(capsys: Any) -> None:
    assert main(["reach", str(ROOT / "maps" / "gitm_examples.json"), "--unit", "FR3IN"]) == 1
    err = capsys.readouterr().err
    assert "adjutant reach is for \"A Short ACW Campaign\" (acw) maps; this map plays GITM" in err
    assert "0 movement points" not in err


def test_validate_names_a_bad_value_as_a_bad_value(tmp_path: Path, capsys: Any) -> None:
    data = json.loads(ACW.read_text(encoding="utf-8"))
    data["map"]["grid"]["width"] = -3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "1 problem" in out and '$.map.grid: grid kind "hex": width: -3 is less than the minimum of 1' in out
    assert "missing" not in out and "needs width" not in out


def test_a_grid_command_on_a_territory_map_names_no_python(tmp_path: Path, capsys: Any) -> None:
    assert main(["export-tiled", str(RAIL), "--out", str(tmp_path / "x.tmj")]) == 1
    err = capsys.readouterr().err
    assert "territory map" in err and "load_any" not in err and "engine.io" not in err


def test_validate_says_each_problem_once(tmp_path: Path, capsys: Any) -> None:
    data = json.loads(RAIL.read_text(encoding="utf-8"))
    del data["units"][0]["side"]
    del data["units"][0]["at"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "1 problem" in out and out.count("missing required key 'side', 'at'") == 1
    data = json.loads(ACW.read_text(encoding="utf-8"))
    del data["map"]["grid"]["kind"]
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "$.map.grid: missing required key 'kind' (square, hex or territory)" in out and "{'" not in out


def test_module_i_orders_and_results_in_words(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "rr.json"
    shutil.copy(ROOT / "maps" / "railroad_module_europe.json", path)
    assert main(["end-turn", "--phase", str(path)]) == 0
    capsys.readouterr()
    assert main(["orders", str(path), "--orders", orders(tmp_path, "rr-orders.json", [
        {"unit": "ger_inf_dk", "to": "germany"}, {"nation": "germany", "from": "france", "to": "germany",
                                                   "count": 2}])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("   2. ger_inf_dk rails to Germany: carried out - All 1 order fit (1 unit). routed 1 unit by "
                      "Denmark > Prussia > Western Poland > Germany; moved ger_inf_dk")
    assert out[2].startswith("   3. Germany rails 2 units from France to Germany: carried out - ")
    assert out[2].endswith("routed 2 units by France > Germany; moved ger_arm_fr, ger_art_fr")


@pytest.mark.parametrize("argv, says", [
    (["rail-options", "railroad_module_europe.json", "--unit", "ger_inf_dk"],
     'adjutant rail-options is for Axis & Allies "Rail Options 1-4" (rail_options) maps; this map plays Axis & '
     'Allies "Module I: Railroads" (railroads)'),
    (["march", "acw_short_campaign.json", "--unit", "US-14", "--to", "0410"],
     'adjutant march is for GITM straight-line tactical movement (gitm) maps; this map plays "A Short ACW '
     'Campaign" (acw)'),
    (["stacking", "gitm_examples.json"], 'adjutant stacking is for "A Short ACW Campaign" (acw) maps')])
def test_each_rules_command_refuses_another_systems_map(argv: list[str], says: str, capsys: Any) -> None:
    argv = [argv[0], str(ROOT / "maps" / argv[1]), *argv[2:]]
    assert main(argv) == 1
    assert says in capsys.readouterr().err
