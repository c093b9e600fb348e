"""Rail Options purchases, placements, raids and destruction through
``adjutant orders``, and ``adjutant rail-options FILE --nation N`` (issue 17;
docs/rules/rail-options.md, "Buying, building, bombing")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import load_any, save_any

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def orders(tmp_path: Path, items: list[dict[str, Any]]) -> str:
    p = tmp_path / "orders.json"
    p.write_text(json.dumps(items), encoding="utf-8")
    return str(p)


def test_buy_place_and_the_nation_report_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = load_any(str(ROOT / "maps" / "aa_rail_options.json"))
    s.state["rail_options"]["ipcs"] = {"germany": 20}
    f = tmp_path / "game.json"
    save_any(s, str(f))
    code, out, err = run(["orders", str(f), "--orders", orders(tmp_path, [
        {"action": "buy", "nation": "germany", "piece": "station"},
        {"action": "buy", "nation": "germany", "piece": "station"}]), "--json"], capsys)
    res = json.loads(out)
    assert code == 1 and res["carried_out"] == 1 and res["refused"] == 1
    assert res["entries"][1]["reasons"] == ["1 station cost 15 IPCs under Option 1 (15 each); Germany has 5"]
    for _ in range(3):
        assert run(["end-turn", str(f), "--phase"], capsys)[0] == 0
    code, out, err = run(["orders", str(f), "--orders", orders(tmp_path, [
        {"action": "place", "nation": "germany", "piece": "station", "territory": "balkans"}])], capsys)
    assert code == 0, out + err
    code, out, _ = run(["rail-options", str(f), "--nation", "germany", "--json"], capsys)
    rep = json.loads(out)
    assert code == 0 and rep["ipcs"] == 5 and rep["bought"] == {} and rep["prices"] == {"station": 15, "railroad": 1}
    balkans = next(st for st in rep["stations"] if st["territory"] == "balkans")
    assert balkans == {"territory": "balkans", "name": "Balkans", "damage": 0, "usable": False,
                       "reason": "the rail station in Balkans was bought on turn 5 and cannot be used before turn 6"}
    code, out, _ = run(["rail-options", str(f), "--nation", "Germany"], capsys)
    assert code == 0 and out.startswith("Option 1 (stations and railroad): Germany, turn 5: 5 IPCs (income 29)")
    assert "  station Germany: 1 damage marker, usable" in out.splitlines()


def test_the_cli_names_bad_nation_and_missing_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(ROOT / "maps" / "aa_rail_options.json")
    code, _, err = run(["rail-options", f, "--nation", "prussia"], capsys)
    assert code == 1 and "unknown side 'prussia'" in err and "Traceback" not in err
    code, _, err = run(["rail-options", f], capsys)
    assert code == 1 and "give --unit ID" in err


def test_a_seeded_raid_through_adjutant_orders_records_its_dice(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """"Rail stations can be damaged with strategic bombing like factories to a maximum of 6 damage markers":
    the dice rolled from the seed are in the journal entry, and the damage follows them."""
    f = tmp_path / "game.json"
    save_any(load_any(str(ROOT / "maps" / "aa_rail_options.json")), str(f))
    while True:
        turn = json.loads(f.read_text(encoding="utf-8")).get("state", {}).get("game", {}).get("turn", {})
        if turn.get("side") == "uk" and turn.get("phase") == "combat":
            break
        assert run(["end-turn", str(f), "--phase"], capsys)[0] == 0
    code, out, err = run(["orders", str(f), "--orders", orders(tmp_path, [
        {"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 2, "seed": 1940}]), "--json"], capsys)
    assert code == 0, err
    rec = json.loads(out)["entries"][0]["effect"]["record"]
    assert rec["seed"] == 1940 and len(rec["aa"]) == 2 and len(rec["dice"]) == 2 - sum(d == 1 for d in rec["aa"])
    assert rec["damage"] == min(6, 1 + sum(rec["dice"]))
    code, out, _ = run(["rail-options", str(f), "--nation", "germany", "--json"], capsys)
    germany = next(st for st in json.loads(out)["stations"] if st["territory"] == "germany")
    assert germany["damage"] == rec["damage"] and germany["usable"] is (rec["damage"] < 3)
