"""The territory commands: railplan, info and validate on territory maps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main

EUROPE = "maps/railroad_module_europe.json"
ORDERS = "tests/territory/europe_orders.json"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_railplan_text(in_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["railplan", EUROPE, "--orders", ORDERS], capsys)
    assert code == 0
    assert out.startswith("FEASIBLE (milp): All 8 orders fit")
    assert "ger_inf_dk: Denmark > Prussia > Belarus" in out
    assert any(ln.split() == ["Western", "Poland", "2", "of", "2", "FULL"] for ln in out.splitlines())
    assert "bottleneck: Hungary, Western Poland, Yugoslavia" in out


def test_railplan_json_keys_and_what_if_orders(in_root: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps([{"nation": "Germany", "from": "France", "to": "Germany", "count": 7}]))
    code, out, _ = run(["railplan", EUROPE, "--orders", str(orders), "--json"], capsys)
    d = json.loads(out)
    assert set(d) >= {"feasible", "routes", "usage", "bottleneck", "reason"}
    assert code == 1 and d["feasible"] is False and d["bottleneck"] == ["France"]
    assert "France can carry 6 units, but 7 units must pass through it" in d["reason"]
    assert d["routes"][0]["unrouted"] == 1 and d["routes"][0]["paths"] == [{"route": ["France", "Germany"], "count": 6}]


def test_railplan_refusals_are_reported(in_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps({"orders": [{"unit": "sov_inf_ru", "to": "Belarus"},
                                             {"unit": "ita_art_it", "to": "Sicily"}]}))
    code, out, _ = run(["railplan", EUROPE, "--orders", str(orders)], capsys)
    assert code == 1
    assert "1. sov_inf_ru: refused: cannot rail to Belarus: Belarus is held by Germany" in out
    assert "2. ita_art_it: Italy > Sicily" in out  # across the Strait of Messina


@pytest.mark.parametrize("content, words", [
    ("{not json", "not valid JSON"),
    ('{"orders": 3}', "expected a list of orders"),
    ('[{"unit": "ger_inf_dk"}]', "order 1: expected"),
    ('[{"nation": "Narnia", "from": "France", "to": "Germany"}]', "order 1: unknown side 'Narnia'"),
])
def test_railplan_bad_orders(in_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             content: str, words: str) -> None:
    orders = tmp_path / "o.json"
    orders.write_text(content)
    code, _, err = run(["railplan", EUROPE, "--orders", str(orders)], capsys)
    assert code == 1 and words in err and "Traceback" not in err


def test_railplan_needs_a_territory_map(in_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = Path("maps/cwol_mobile_columbus.json")
    if not grid.exists():
        pytest.skip("the grid sample maps/cwol_mobile_columbus.json is absent")
    code, _, err = run(["railplan", str(grid), "--orders", ORDERS], capsys)
    assert code == 1 and "rail plans need a territory map" in err


def test_info_and_validate_read_territory_maps(in_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["info", EUROPE, "--json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["territories"] == 32 and d["land"] == 26 and d["sea"] == 6
    assert d["borders"]["rail_crossing"] == 1 and d["borders"]["total"] == 80
    assert {p["id"]: p["alliance"] for p in d["powers"]}["italy"] == "Axis"
    code, out, _ = run(["info", EUROPE], capsys)
    assert "territories: 32 (26 land, 6 sea)" in out
    code, out, _ = run(["validate", EUROPE], capsys)
    assert code == 0 and out.strip() == f"{EUROPE}: ok"
