"""The scenario file format: round trips, atomic saves, and hostile input."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main
from engine.grids import Cell, Edge
from engine.io import (
    MAX_SIDE,
    OutputError,
    ScenarioError,
    dumps_scenario,
    load_scenario,
    loads_scenario,
    save_scenario,
    scenario_from_data,
)
from engine.model import Place, Unit

ROOT = Path(__file__).resolve().parent.parent


def base_data(kind: str = "hex", w: int = 6, h: int = 5) -> dict[str, Any]:
    grid: dict[str, Any] = {"kind": kind, "width": w, "height": h}
    if kind == "hex":
        grid |= {"orientation": "pointy", "parity": "even"}
    numbering = {"scheme": "ccrr"} if kind == "hex" else {"scheme": "cwol", "first_col": 40, "first_row": 200}
    lab = (lambda c, r: f"{c + 1:02d}{r + 1:02d}") if kind == "hex" else (
        lambda c, r: "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(c + 40) // 10] + str((c + 40) % 10) + "-"
        + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(r + 200) // 10] + str((r + 200) % 10))
    return {
        "format": "adjutant-scenario", "version": 1, "name": "Test", "description": "a test map", "turn": 3,
        "ruleset": {"name": "test", "terrain": [
            {"id": "clear", "name": "Clear", "symbol": ".", "color": "#d8e0b0"},
            {"id": "woods", "name": "Woods", "symbol": "w", "color": "#3c7a3c", "move_cost": 3},
            {"id": "lake", "name": "Lake", "symbol": "~", "color": "#4080d0", "impassable": True},
        ], "unit_types": [{"id": "inf", "name": "Infantry", "movement": 3}],
            "options": {"demo": {"limit": 40}}},
        "sides": [{"id": "Union", "name": "Union", "color": "#2040a0", "symbol": "U", "alliance": "north"},
                  {"id": "CSA", "name": "Confederacy", "color": "#808080", "symbol": "C"}],
        "map": {
            "grid": grid, "numbering": numbering,
            "terrain": ["." * w] * (h - 1) + ["w" * (w - 1) + "~"],
            "control": ["U" * w] + ["." * w] * (h - 2) + ["C" * w],
            "rivers": [[lab(0, 0), lab(0, 1)]],
            "bridges": [{"between": [lab(0, 0), lab(0, 1)], "kind": "road"}],
            "links": {"rail": [[lab(0, 0), lab(1, 0), lab(2, 0)]], "road": [[lab(0, 0), lab(0, 1)]]},
            "places": [{"at": lab(1, 1), "name": "Mobile", "code": "M"}],
        },
        "units": [{"id": "CS1IN", "side": "CSA", "type": "inf", "at": lab(1, 1), "strength": 4,
                   "props": {"fortified": True}}],
        "state": {"reinforcement_points": {"Union": 2}},
    }


@pytest.mark.parametrize("kind", ["hex", "square"])
def test_save_load_is_identity(kind: str, tmp_path: Path) -> None:
    s = scenario_from_data(base_data(kind))
    p = tmp_path / "s.json"
    save_scenario(s, p)
    s2 = load_scenario(p)
    assert dumps_scenario(s2) == p.read_text(encoding="utf-8")
    assert np.array_equal(s2.map.terrain, s.map.terrain) and np.array_equal(s2.map.control, s.map.control)
    assert s2.map.rivers == s.map.rivers and s2.map.links == s.map.links and s2.map.bridges == s.map.bridges
    assert s2.map.places == s.map.places and s2.units == s.units and s2.state == s.state
    assert s2.ruleset == s.ruleset and s2.sides == s.sides and s2.turn == 3


def test_file_is_diff_friendly(tmp_path: Path) -> None:
    data = base_data("square", 50, 40)
    s = scenario_from_data(data)
    text = dumps_scenario(s)
    lines = text.splitlines()
    # every map row is one line of its own
    assert sum(1 for ln in lines if ln.strip().strip(",") == json.dumps("." * 50)) == 39 + 38  # terrain + control
    assert len(lines) < 150
    assert json.loads(text)["format"] == "adjutant-scenario"


def test_edits_round_trip(tmp_path: Path) -> None:
    s = scenario_from_data(base_data("hex", 8, 8))
    m = s.map
    m.terrain[3, 4] = 1
    s.set_control(Cell(2, 2), "Union")
    m.rivers.add(Edge.between(Cell(3, 3), Cell(3, 4)))
    m.links["rail"].update({Edge.between(Cell(5, 5), n) for n in m.grid.neighbours(Cell(5, 5))})
    m.places[Cell(7, 7)] = Place("Columbia TN")
    s.units.append(Unit("US1", "Union", "inf", Cell(0, 7), 2, "1st Inf"))
    p = tmp_path / "e.json"
    save_scenario(s, p)
    s2 = load_scenario(p)
    assert dumps_scenario(s2) == dumps_scenario(s)
    assert s2.map.links["rail"] == m.links["rail"]


def test_atomic_save_keeps_the_old_file_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = scenario_from_data(base_data())
    p = tmp_path / "keep.json"
    save_scenario(s, p)
    before = p.read_bytes()
    s.name = "Changed"

    def boom(*a: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OutputError, match="disk full"):
        save_scenario(s, p)
    assert p.read_bytes() == before
    assert [f.name for f in tmp_path.iterdir()] == ["keep.json"]  # no temporary left behind


def _problems(data: Any) -> list[str]:
    with pytest.raises(ScenarioError) as e:
        scenario_from_data(data, "bad.json")
    return [str(p) for p in e.value.problems]


@pytest.mark.parametrize("mutate,expect", [
    (lambda d: d.pop("map"), "$: missing required key 'map'"),
    (lambda d: d["map"]["grid"].update(width="6"), "$.map.grid"),
    (lambda d: d.update(version=2), "$.version: expected 1, got 2"),
    (lambda d: d["map"]["terrain"].pop(), "$.map.terrain: expected 5 rows"),
    (lambda d: d["map"]["terrain"].__setitem__(2, "..x..."), "$.map.terrain[2]: column 3: 'x' is not a terrain symbol"),
    (lambda d: d["map"]["control"].__setitem__(0, "UUUUU"), "$.map.control[0]: expected 6 characters"),
    (lambda d: d["units"][0].update(at="9999"), "$.units[0].at: '9999' is off the map"),
    (lambda d: d["units"][0].update(side="Martians"), "$.units[0].side: unknown side 'Martians'"),
    (lambda d: d["units"][0].update(type="tank"), "$.units[0].type: unknown unit type 'tank'"),
    (lambda d: d["map"]["rivers"].append(["0101", "0303"]), "share no side"),
    (lambda d: d["map"]["links"]["rail"].append(["0101", "0505"]), "are not adjacent"),
    (lambda d: d["map"]["bridges"].append({"between": ["0303", "0304"], "kind": "rail"}), "no river runs between"),
    (lambda d: d["sides"][1].update(symbol="U"), "$.sides[1].symbol: side symbol 'U' is used twice"),
    (lambda d: d["map"]["grid"].update(width=MAX_SIDE + 1), "larger than the limit"),
    (lambda d: d["map"]["numbering"].update(scheme="numeric", separator="1"), "$.map.numbering: numeric labels need"),
    (lambda d: d["map"]["numbering"].update(digits=1, first=5), "$.map.numbering: cannot label"),
    (lambda d: d["units"].append(dict(d["units"][0])), "unit id 'CS1IN' is used twice"),
    (lambda d: d["map"].update(extra=1), "$.map: unknown key 'extra'"),
    # bulk lists and records are checked outside jsonschema, with its wording
    (lambda d: d["map"]["terrain"].__setitem__(1, 7), "$.map.terrain[1]: expected string, got 7"),
    (lambda d: d["map"]["rivers"].append(["0101", "0102", "0103"]), "$.map.rivers[1]: expected exactly 2 labels, got 3"),
    (lambda d: d["map"]["links"]["rail"].append(["0101"]), "$.map.links.rail[1]: expected at least 2 labels, got 1"),
    (lambda d: d["map"]["links"]["road"].append([1, "0102"]), "$.map.links.road[1][0]: expected string, got 1"),
    (lambda d: d["units"][0].update(colour="red"), "$.units[0]: unknown key 'colour'"),
    (lambda d: d["units"][0].pop("side"), "$.units[0]: missing required key 'side'"),
    (lambda d: d["units"][0].update(strength=-1), "$.units[0].strength: -1 is less than the minimum of 0"),
    (lambda d: d["units"][0].update(strength=True), "$.units[0].strength: expected integer, got true"),
    (lambda d: d["units"].append("CS2"), "$.units[1]: expected object"),
    (lambda d: d["map"]["places"][0].update(name=""), "$.map.places[0].name: should be non-empty"),
])
def test_each_problem_is_named_with_its_path(mutate: Any, expect: str) -> None:
    data = base_data()
    mutate(data)
    problems = _problems(data)
    assert any(expect in p for p in problems), problems
    assert all(p.startswith("bad.json: ") for p in problems)


def test_huge_declared_size_is_refused_before_allocating() -> None:
    data = base_data()
    data["map"]["numbering"] = {"scheme": "numeric"}
    data["map"]["grid"].update(width=4000, height=4000)  # 16M cells, within MAX_SIDE but rows missing
    problems = _problems(data)
    assert any("expected 4000 rows" in p for p in problems)
    data["map"]["grid"].update(width=100_000_000, height=100_000_000)
    assert any("larger than the limit" in p for p in _problems(data))


def test_an_integer_field_written_as_a_float_is_refused_not_a_crash() -> None:
    """JSON Schema counts 40.0 as an integer; it reached the loader as a
    float and numpy could not shape the map by it (a TypeError found by
    the fuzzer).  The schema's integers are JSON integers."""
    data = base_data()
    w = data["map"]["grid"]["width"]
    data["map"]["grid"]["width"] = float(w)
    assert any("$.map.grid" in p for p in _problems(data))
    data = base_data()
    data["turn"] = 2.0
    assert any("$.turn" in p and "integer" in p for p in _problems(data))
    assert scenario_from_data(base_data(), "good.json").map.width == w  # as it was: loads


def test_unreadable_files(tmp_path: Path) -> None:
    for content, expect in [(b"", "not valid JSON"), (b"\xff\xfe{", "not UTF-8"),
                            (b"[" * 100_000, "nested too deeply"), (b"[]", "expected object")]:
        p = tmp_path / "x.json"
        p.write_bytes(content)
        with pytest.raises(ScenarioError) as e:
            load_scenario(p)
        assert expect in str(e.value), str(e.value)
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "missing.json")
    with pytest.raises(ScenarioError, match="is a folder"):
        load_scenario(tmp_path)


# --- hostile input: every mutation either loads or is refused with messages ---

VALID = json.dumps(base_data())


def _mutations() -> st.SearchStrategy[str]:
    text = st.integers(0, len(VALID))
    truncated = text.map(lambda i: VALID[:i])
    flipped = st.tuples(st.integers(0, len(VALID) - 1), st.characters(codec="utf-8")).map(
        lambda t: VALID[:t[0]] + t[1] + VALID[t[0] + 1:])
    json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
                               lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=5), kids, max_size=3),
                               max_leaves=8)

    def replace_at(data: Any, path: list[int], value: Any) -> str:
        d = copy.deepcopy(data)
        node = d
        for step in path:
            items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
            if not items:
                break
            key, child = items[step % len(items)]
            if not isinstance(child, (dict, list)) or not child:
                node[key] = value
                return json.dumps(d)
            node = child
        return json.dumps(d)

    structural = st.tuples(st.lists(st.integers(0, 50), min_size=1, max_size=6), json_values).map(
        lambda t: replace_at(json.loads(VALID), t[0], t[1]))
    return st.one_of(truncated, flipped, structural)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_mutated_files_load_or_are_refused_clearly(text: str) -> None:
    try:
        loads_scenario(text, "fuzz.json")
    except ScenarioError as e:
        assert e.problems
        for p in e.problems:
            assert str(p).startswith("fuzz.json"), str(p)
            assert "Traceback" not in str(p)


# --- the command line ------------------------------------------------------

def test_validate_and_info_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    save_scenario(scenario_from_data(base_data("square", 20, 10)), good)
    assert main(["validate", str(good)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["info", str(good), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["corners"] == {"nw": "E0-U0", "ne": "F9-U0", "sw": "E0-U9", "se": "F9-U9"}
    assert info["grid"]["kind"] == "square" and info["units"] == 1

    truncated = tmp_path / "trunc.json"
    truncated.write_text(good.read_text()[:200])
    wrong = tmp_path / "wrong.json"
    d = base_data()
    d["turn"] = "three"
    d["units"][0]["strength"] = [4]
    wrong.write_text(json.dumps(d))
    assert main(["validate", str(good), str(truncated), str(wrong)]) == 1
    out = capsys.readouterr().out
    assert "trunc.json: 1 problem" in out and "not valid JSON" in out
    assert "$.turn: expected integer" in out and "$.units[0].strength: expected integer" in out


def test_info_reports_cwol_corners_as_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = base_data("square", 260, 260)
    d["map"]["numbering"] = {"scheme": "cwol"}
    d["map"]["terrain"] = ["." * 260] * 260
    d["map"]["control"] = ["." * 260] * 260
    for key in ("rivers", "bridges", "links", "places"):
        d["map"].pop(key)
    d["units"][0]["at"] = "E6-Y4"
    p = tmp_path / "cwol.json"
    p.write_text(json.dumps(d))
    assert main(["info", "--json", str(p)]) == 0
    assert json.loads(capsys.readouterr().out)["corners"] == {"nw": "A0-A0", "ne": "Z9-A0", "sw": "A0-Z9", "se": "Z9-Z9"}


def test_validate_cli_process_prints_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "adjutant-scenario", "version": 1, "name": 5}')
    r = subprocess.run([sys.executable, "-m", "app", "validate", str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    assert "$.name: expected string, got 5" in r.stdout
    assert "missing required key" in r.stdout


def test_sample_maps_are_valid(capsys: pytest.CaptureFixture[str]) -> None:
    maps = sorted(str(p) for p in (ROOT / "maps").glob("*.json"))
    if not maps:
        pytest.skip("no sample maps yet")
    assert main(["validate", *maps]) == 0, capsys.readouterr().out
