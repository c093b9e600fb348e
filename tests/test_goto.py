"""Go to (issue 18): the pure lookups behind Edit > Go to, table tests on
sample maps (engine/goto.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.goto import goto_cell, goto_territory, grid_names, territory_names
from engine.grids import Cell
from engine.io import load_any
from engine.model import ModelError, Scenario
from engine.territory.model import TerritoryScenario

MAPS = Path(__file__).resolve().parent.parent / "maps"


@pytest.fixture(scope="module")
def acw() -> Scenario:
    s = load_any(MAPS / "acw_short_campaign.json")
    assert isinstance(s, Scenario)
    return s


@pytest.fixture(scope="module")
def cwol() -> Scenario:
    s = load_any(MAPS / "cwol_mobile_columbus.json")
    assert isinstance(s, Scenario)
    return s


@pytest.fixture(scope="module")
def europe() -> TerritoryScenario:
    s = load_any(MAPS / "railroad_module_europe.json")
    assert isinstance(s, TerritoryScenario)
    return s


@pytest.mark.parametrize(("text", "cell", "kind", "name"), [
    ("Mobile", Cell(16, 49), "place", "Mobile"),
    ("  mobile ", Cell(16, 49), "place", "Mobile"),
    ("cs1in", Cell(16, 49), "unit", "CS1IN"),
    ("US1IN", Cell(7, 17), "unit", "US1IN"),
    ("D3-T9", Cell(3, 4), "cell", "D3-T9"),
    ("d3-t9", Cell(3, 4), "cell", "D3-T9"),
])
def test_goto_cell_on_a_cwol_map(cwol: Scenario, text: str, cell: Cell, kind: str, name: str) -> None:
    t = goto_cell(cwol, text)
    assert (t.cell, t.kind, t.name) == (cell, kind, name)


@pytest.mark.parametrize(("text", "kind"), [("Elkwood", "place"), ("E", "place"), ("US-14", "unit"), ("0101", "cell")])
def test_goto_cell_on_the_acw_map(acw: Scenario, text: str, kind: str) -> None:
    t = goto_cell(acw, text)
    assert t.kind == kind
    if kind == "place":
        assert acw.map.places[t.cell].name == "Elkwood"
    if kind == "unit":
        assert t.cell == next(u.at for u in acw.units if u.id == "US-14")
    if kind == "cell":
        assert acw.map.label(t.cell) == "0101"


@pytest.mark.parametrize(("text", "says"), [
    ("", "type a cell label"),
    ("   ", "type a cell label"),
    ("Atlantis", "no unit, place or cell 'Atlantis'"),
    ("Z9-Z9", "off the map"),
])
def test_goto_cell_refusals_say_what(cwol: Scenario, text: str, says: str) -> None:
    with pytest.raises(ModelError, match=says):
        goto_cell(cwol, text)


def test_grid_names_complete_places_and_units(cwol: Scenario, acw: Scenario) -> None:
    names = grid_names(cwol)
    assert names[:3] == ["Clarksville TN", "Columbia TN", "Columbus MS"]
    assert names[-2:] == ["CS1IN", "US1IN"]
    assert len(names) == len(set(names))
    assert {"Elkwood", "E", "US-14"} <= set(grid_names(acw))


@pytest.mark.parametrize(("text", "tid", "kind"), [
    ("germany", "germany", "territory"),
    ("Germany", "germany", "territory"),
    ("Belgium/Holland", "belgium_holland", "territory"),
    ("ger_inf_dk", "denmark", "unit"),
    ("GER_INF_BH", "belgium_holland", "unit"),
])
def test_goto_territory(europe: TerritoryScenario, text: str, tid: str, kind: str) -> None:
    t = goto_territory(europe, text)
    assert (t.territory, t.kind) == (tid, kind)


@pytest.mark.parametrize(("text", "says"), [
    ("", "type a territory name"),
    ("germ", "did you mean 'Germany'"),
    ("Atlantis", "no territory 'Atlantis'"),
])
def test_goto_territory_refusals_say_what(europe: TerritoryScenario, text: str, says: str) -> None:
    with pytest.raises(ModelError, match=says):
        goto_territory(europe, text)


def test_territory_names(europe: TerritoryScenario) -> None:
    names = territory_names(europe)
    assert names[:2] == ["Aegean Sea", "Atlantic Ocean"]
    assert "ger_inf_dk" in names and len(names) == len(set(names))
