"""The turn commands (issue 15): ``adjutant orders``, ``end-turn``,
``journal`` and ``branch`` — a turn played from the CLI alone, every verdict
printed with its reasons, and a tampered file refused naming the entry
with nothing else in it lost."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
CWOL = ROOT / "maps" / "cwol_mobile_columbus.json"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def orders(tmp_path: Path, items: list[dict[str, Any]], name: str = "orders.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(items), encoding="utf-8")
    return str(p)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    f = tmp_path / "game.json"
    shutil.copyfile(CWOL, f)
    return f


def test_a_turn_played_from_the_cli(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    o = orders(tmp_path, [{"unit": "CS1IN", "to": "E4-X4", "time": "1862-04-01 12:00"},
                          {"unit": "CS1IN", "to": "E6-Y4"}, {"unit": "US1IN", "to": "D7-V2"}])
    code, out, _ = run(["orders", str(game), "--orders", o], capsys)
    assert code == 1  # two refused
    lines = out.splitlines()
    assert lines[1].startswith("   1. CS1IN to E4-X4: carried out - ")
    assert lines[2].startswith("   2. CS1IN to E6-Y4: REFUSED - CS1IN has already")
    assert lines[3] == "   3. US1IN to D7-V2: REFUSED - It is the Confederate's move: US1IN (Union) cannot act now."
    data = json.loads(game.read_text(encoding="utf-8"))
    assert next(u for u in data["units"] if u["id"] == "CS1IN")["at"] == "E4-X4"
    assert data["state"]["game"]["journal"]["count"] == 3
    code, out, _ = run(["end-turn", str(game), "--json"], capsys)
    assert code == 0
    res = json.loads(out)
    assert res["turn"]["side"] == "Union" and res["written"] and res["entries"][-1]["kind"] == "end_turn"
    code, out, _ = run(["orders", str(game), "--orders", orders(tmp_path, [{"unit": "US1IN", "to": "D7-V2"}]),
                        "--json"], capsys)
    res = json.loads(out)
    assert res["entries"][0]["position"] == 5 and res["entries"][0]["order"] == {"unit": "US1IN", "to": "D7-V2"}
    run(["end-turn", str(game)], capsys)
    code, out, _ = run(["journal", str(game), "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["count"] == 6 and res["turn"]["turn"] == 2
    assert res["entries"][0]["time"] == "1862-04-01 12:00"


def test_dry_run_writes_nothing(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = game.read_bytes()
    code, out, _ = run(["orders", str(game), "--orders", orders(tmp_path, [{"unit": "CS1IN", "to": "E4-X4"}]),
                        "--dry-run"], capsys)
    assert code == 0 and "not written (--dry-run)" in out
    assert game.read_bytes() == before


def test_a_file_is_applied_order_by_order_and_every_refusal_keeps_its_reason(
        game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    o = orders(tmp_path, [{"unit": "NOPE", "to": "E4-X4"}, {"unit": "CS1IN", "to": "E4-X4", "speed": 3},
                          {"unit": "CS1IN", "to": "E4-X4"}])
    code, out, err = run(["orders", str(game), "--orders", o, "--json"], capsys)
    assert code == 1 and "Traceback" not in err
    res = json.loads(out)
    assert [e["kind"] for e in res["entries"]] == ["refused", "refused", "order"]
    assert "NOPE" in res["entries"][0]["reasons"][0]
    assert res["entries"][1]["reasons"] == ["the order key 'speed' is not a key of a cwol_rail order (its keys: "
                                            "unit, to)"]
    data = json.loads(game.read_text(encoding="utf-8"))
    assert next(u for u in data["units"] if u["id"] == "CS1IN")["at"] == "E4-X4"
    before = game.read_bytes()
    code, _, err = run(["orders", str(game), "--orders", orders(tmp_path, [["CS1IN"]])], capsys)
    assert code == 1 and "order 1: expected an object" in err
    code, _, err = run(["orders", str(game), "--orders", str(tmp_path / "missing.json")], capsys)
    assert code == 1 and "missing.json: no such file" in err
    assert game.read_bytes() == before  # a file that is not a list of orders changes nothing


def played(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(["orders", str(game), "--orders", orders(tmp_path, [{"unit": "CS1IN", "to": "E4-X4"}])], capsys)
    run(["end-turn", str(game)], capsys)
    run(["orders", str(game), "--orders", orders(tmp_path, [{"unit": "US1IN", "to": "D7-V2"}])], capsys)


@pytest.mark.parametrize("tamper, message", [
    (lambda d: d["state"]["game"]["journal"]["entries"][0]["order"].update(to="E6-Y4"),
     "entry 1 (turn 1, order: CS1IN to E4-X4) was changed after it was written"),
    (lambda d: d["state"]["game"]["journal"]["entries"].reverse(), "entry 1 (turn 1, "),
    (lambda d: d["state"]["game"]["journal"]["entries"].pop(), "the journal was cut short"),
    (lambda d: next(u for u in d["units"] if u["id"] == "CS1IN").update(at="E6-Y4"),
     "entry 1 (turn 1, order: CS1IN to E4-X4) does not match the scenario: unit CS1IN"),
])
def test_a_tampered_file_is_refused_naming_the_entry(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      tamper: Any, message: str) -> None:
    played(game, tmp_path, capsys)
    data = json.loads(game.read_text(encoding="utf-8"))
    tamper(data)
    text = json.dumps(data, indent=1)
    game.write_text(text, encoding="utf-8")
    for argv in (["journal", str(game)], ["end-turn", str(game)],
                 ["orders", str(game), "--orders", orders(tmp_path, [{"unit": "US1IN", "to": "D7-V2"}])],
                 ["branch", str(game), "--entry", "1", "--out", str(tmp_path / "b.json")]):
        code, _, err = run(argv, capsys)
        assert code == 1 and message in err and "Traceback" not in err, (argv, err)
    assert game.read_text(encoding="utf-8") == text  # nothing else in the file lost
    assert not (tmp_path / "b.json").exists()


def test_journal_markdown_and_turns(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played(game, tmp_path, capsys)
    code, out, _ = run(["journal", str(game), "--markdown"], capsys)
    assert code == 0
    assert out.startswith("# game.json: CWOL rail movement")
    assert "## Turn 1" in out and "### The Confederate" in out and "### The Union" in out
    assert "1. **CS1IN to E4-X4** — carried out." in out
    assert "\n    - The shortest Confederate-held rail path" in out
    code, out, _ = run(["journal", str(game), "--turn", "1"], capsys)
    assert code == 0 and "   3. US1IN to D7-V2" in out
    code, _, err = run(["journal", str(game), "--turn", "7"], capsys)
    assert code == 1 and "no entry in turn 7 (turns 1 to 1)" in err


def test_branch(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played(game, tmp_path, capsys)
    out_file = tmp_path / "whatif.json"
    code, out, _ = run(["branch", str(game), "--entry", "1", "--out", str(out_file), "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["branch_of"]["source"] == "game.json" and res["branch_of"]["entries"] == 1
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["state"]["game"]["journal"]["count"] == 1
    assert data["state"]["game"]["turn"]["side"] == "Confederate"
    assert next(u for u in data["units"] if u["id"] == "CS1IN")["at"] == "E4-X4"
    code, out, _ = run(["journal", str(out_file), "--markdown"], capsys)
    assert code == 0 and "*A what-if branch of game.json after its entry 1.*" in out
    code, _, err = run(["branch", str(game), "--entry", "0", "--out", str(game)], capsys)
    assert code == 1 and "will not write over the input" in err
    code, _, err = run(["branch", str(game), "--entry", "9", "--out", str(tmp_path / "x.json")], capsys)
    assert code == 1 and "--entry 9" in err


WHOLE_TURNS = {  # system: (sample map, phases to end first, an order the side to move may give)
    "acw": ("acw_short_campaign.json", 0, {"unit": "US-14", "to": "0410"}),
    "cwol_rail": ("cwol_mobile_columbus.json", 0, {"unit": "CS1IN", "to": "E4-X4"}),
    "gitm": ("gitm_allied.json", 0, {"unit": "FR2IN", "to": "2-2"}),
    "railroads": ("railroad_module_europe.json", 1, {"unit": "ger_inf_dk", "to": "Belarus"}),
    "rail_options": ("aa_rail_options.json", 2, {"unit": "ger_inf", "to": "smolensk"}),
}


@pytest.mark.parametrize("system", sorted(WHOLE_TURNS))
def test_a_whole_turn_of_every_system_from_the_cli(system: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    sample, phases, order = WHOLE_TURNS[system]
    f = tmp_path / sample
    shutil.copyfile(ROOT / "maps" / sample, f)
    for _ in range(phases):
        code, out, _ = run(["end-turn", str(f), "--phase", "--json"], capsys)
        assert code == 0 and json.loads(out)["entries"][-1]["kind"] == "end_phase"
    code, out, err = run(["orders", str(f), "--orders", orders(tmp_path, [order]), "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["carried_out"] == 1 and res["system"] == system, err
    code, out, _ = run(["orders", str(f), "--orders", orders(tmp_path, [order]), "--json"], capsys)
    assert code == 1 and "already" in json.loads(out)["entries"][0]["reasons"][0]  # once a turn
    start = json.loads(f.read_text(encoding="utf-8"))
    first, turn, n_sides = start["state"]["game"]["turn"]["side"], start["state"]["game"]["turn"]["turn"], len(start["sides"])
    for k in range(n_sides):  # every side ends its move: the next turn begins with the first side again
        code, out, _ = run(["end-turn", str(f), "--json"], capsys)
        res = json.loads(out)
        assert code == 0 and res["turn"]["turn"] == (turn if k < n_sides - 1 else turn + 1)
    assert res["turn"]["side"] == first
    code, out, _ = run(["journal", str(f), "--turn", str(turn), "--markdown"], capsys)
    assert code == 0 and "carried out" in out and "**refused**" in out
