"""Territory model, geometry and the territory file format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPolygon, Point, Polygon

from engine.io import ScenarioError, load_any, load_scenario, loads_any, save_any
from engine.io.territory import dumps_territory_scenario, territory_scenario_to_data
from engine.model import Faction, ModelError, Ruleset, TerrainType
from engine.territory import (
    BorderKind,
    GeometryError,
    Territory,
    TerritoryMap,
    TerritoryScenario,
    TerritoryUnit,
    label_point,
    polygon_from_cells,
)

ROOT = Path(__file__).resolve().parents[2]
EUROPE = ROOT / "maps" / "railroad_module_europe.json"


def small_scenario() -> TerritoryScenario:
    m = TerritoryMap(30, 10, backdrop_cell=1)
    m.add(Territory("a", "Alpha", shape=polygon_from_cells([(0, 0), (1, 0)]), value=4, owner="red", controller="red"))
    m.add(Territory("b", "Beta", shape=polygon_from_cells([(2, 0)]), value=3, owner="red", controller="blue",
                    control_since=2, control_since_side="blue"))
    m.add(Territory("c", "Gamma", shape=polygon_from_cells([(3, 1)]), value=2, owner="blue", controller="blue"))
    m.add(Territory("s", "Sea", sea=True, shape=polygon_from_cells([(0, 1), (1, 1), (2, 1)])))
    m.derive_borders()
    m.add_border("a", "c", BorderKind.CLOSED, "Sahara")
    sides = [Faction("red", "Red", "#ff0000", "R", "One"), Faction("blue", "Blue", "#0000ff", "B", "Two")]
    rs = Ruleset("test", [TerrainType("land", "Land", "L", "#00ff00")], options={"railroads": {"sharing": [["red"]]}})
    return TerritoryScenario("small", rs, sides, m, [TerritoryUnit("u1", "red", "infantry", "a")], turn=3)


def test_polygon_from_cells_unions_cells() -> None:
    shape = polygon_from_cells([(0, 0), (1, 0), (1, 1)], cell_size=10)
    assert isinstance(shape, Polygon) and shape.is_valid
    assert shape.area == pytest.approx(300)
    assert len(shape.exterior.coords) == 7  # an L: six corners, collinear cell corners removed
    diagonal = polygon_from_cells([(0, 0), (1, 1)])
    assert isinstance(diagonal, MultiPolygon) and len(diagonal.geoms) == 2
    with pytest.raises(GeometryError, match="no cells"):
        polygon_from_cells([])


def test_label_point_lies_well_inside() -> None:
    # a U shape: its centroid lies outside; the label must be inside, away from the edges
    u = polygon_from_cells([(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)], cell_size=10)
    assert not u.contains(u.centroid)
    pt = label_point(u)
    assert pt is not None
    assert u.contains(Point(pt)) and u.exterior.distance(Point(pt)) >= 4


def test_borders_need_a_shared_segment_not_a_point() -> None:
    s = small_scenario()
    m = s.map
    assert m.border("a", "b") is not None  # share a side of a cell
    assert m.border("b", "c") is None  # touch at a corner only
    assert m.border("a", "s") is not None and m.border("b", "s") is not None
    closed = m.border("c", "a")
    assert closed is not None and closed.kind is BorderKind.CLOSED and closed.name == "Sahara"
    m.remove_border("a", "b")
    assert "b" not in m.neighbours("a")
    with pytest.raises(ModelError, match="share no border"):
        m.remove_border("a", "b")


def test_occupied_is_derived_from_owner_and_controller() -> None:
    s = small_scenario()
    assert not s.territory("a").occupied
    assert s.territory("Beta").occupied
    s.set_control("b", "red")
    assert not s.territory("b").occupied and s.territory("b").control_since == 3


def test_territory_lookup_by_name_or_id_with_a_clear_error() -> None:
    s = small_scenario()
    assert s.territory("gamma").id == "c"
    with pytest.raises(ModelError, match="no territory 'Omega'"):
        s.territory("Omega")


def test_round_trip_is_exact(tmp_path: Path) -> None:
    s = small_scenario()
    out = tmp_path / "small.json"
    save_any(s, out)
    back = load_any(out)
    assert isinstance(back, TerritoryScenario)
    assert territory_scenario_to_data(back) == territory_scenario_to_data(s)
    assert dumps_territory_scenario(back) == out.read_text(encoding="utf-8")


def test_one_territory_and_one_border_per_line() -> None:
    text = dumps_territory_scenario(small_scenario())
    lines = text.splitlines()
    assert sum(1 for ln in lines if '"polygons": [[[' in ln) == 4
    assert sum(1 for ln in lines if ln.strip().startswith('{"between": ')) == len(small_scenario().map.borders())


def test_sample_loads_and_grid_loader_refuses_it_clearly() -> None:
    s = load_any(EUROPE)
    assert isinstance(s, TerritoryScenario)
    assert s.territory("France").occupied and s.territory("France").value == 13
    assert all(t.shape.is_valid and not t.shape.is_empty for t in s.map.territories.values())
    with pytest.raises(ScenarioError, match="territory map, not a square or hex grid"):
        load_scenario(EUROPE)


def test_huge_numbers_and_deep_nesting_are_clear_problems() -> None:
    from engine.io.territory import loads_territory_scenario

    with pytest.raises(ScenarioError, match="big.json: not a scenario"):
        loads_territory_scenario('{"turn": ' + "9" * 5000 + "}", "big.json")
    with pytest.raises(ScenarioError, match="deep.json: not a scenario: JSON nested too deeply"):
        loads_territory_scenario("[" * 100000, "deep.json")


def _data() -> dict:  # type: ignore[type-arg]
    return territory_scenario_to_data(small_scenario())


@pytest.mark.parametrize("edit, where, words", [
    (lambda d: d["map"]["territories"][1].update(id="a"), "$.map.territories[1].id", "used twice"),
    (lambda d: d["map"]["territories"][0].update(owner="green"), "$.map.territories[0].owner", "unknown side 'green'"),
    (lambda d: d["map"]["borders"].append({"between": ["a", "zz"]}), "$.map.borders[", "no territory with id 'zz'"),
    (lambda d: d["map"]["borders"][0].update(kind="tunnel"), "$.map.borders[0].kind", "expected one of"),
    (lambda d: d["units"][0].update(at="nowhere"), "$.units[0].at", "no territory with id 'nowhere'"),
    (lambda d: d["map"]["territories"][0].update(polygons=[[[0, 0], [1, 1], [0, 0]]]), "$.map.territories[0]",
     "at least 3"),
    (lambda d: d["map"]["grid"].pop("width"), "$.map.grid", "territory"),
    (lambda d: d["map"]["territories"][0]["polygons"][0].__setitem__(1, [1, "x"]),
     "$.map.territories[0].polygons[0][1]", "expected a point [x, y] of two finite numbers"),
    (lambda d: d["map"]["territories"][0]["polygons"][0].__setitem__(0, [float("inf"), 0]),
     "$.map.territories[0].polygons[0][0]", "got [Infinity, 0]"),
])
def test_bad_files_name_what_and_where(edit, where: str, words: str) -> None:  # type: ignore[no-untyped-def]
    d = _data()
    edit(d)
    with pytest.raises(ScenarioError) as e:
        loads_any(json.dumps(d), "bad.json")
    text = str(e.value)
    assert where in text and words in text, text


def test_self_crossing_rings_are_repaired_or_refused_clearly() -> None:
    from engine.territory.geometry import MAX_REPAIR_POINTS, shape_from_rings

    bow_tie = shape_from_rings([[[0, 0], [10, 0], [0, 10], [10, 10]]])
    assert bow_tie.is_valid and isinstance(bow_tie, MultiPolygon) and bow_tie.area == pytest.approx(50)
    zigzag = [[i, i % 2] for i in range(MAX_REPAIR_POINTS + 1)]
    with pytest.raises(GeometryError, match="crosses itself and has 10001 points"):
        shape_from_rings([zigzag])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 5), st.sampled_from("abc")), min_size=3, max_size=40),
       st.integers(0, 5))
def test_painted_maps_round_trip(paint: list[tuple[int, int, str]], turn: int) -> None:
    cells: dict[tuple[int, int], str] = {}
    for c, r, t in paint:
        cells[(c, r)] = t
    m = TerritoryMap(80, 60, backdrop_cell=10)
    for tid in sorted(set(cells.values())):
        shape = polygon_from_cells([k for k, v in cells.items() if v == tid], 10)
        assert shape.is_valid and shape.area == pytest.approx(100 * sum(1 for v in cells.values() if v == tid))
        m.add(Territory(tid, tid.upper(), shape=shape, value=turn, owner="red", controller="red"))
    m.derive_borders()
    for a, b in ((x, y) for x in m.territories for y in m.territories if x < y):
        touching = any(cells.get((c + dc, r + dr)) == b for (c, r), v in cells.items() if v == a
                       for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        assert (m.border(a, b) is not None) == touching
    sides = [Faction("red", "Red", "#ff0000", "R")]
    s = TerritoryScenario("p", Ruleset("t", [TerrainType("land", "Land", "L", "#00ff00")]), sides, m, [], turn=turn)
    back = loads_any(dumps_territory_scenario(s), "round-trip")
    assert isinstance(back, TerritoryScenario)
    assert territory_scenario_to_data(back) == territory_scenario_to_data(s)
    for t in back.map.territories.values():
        assert t.shape.equals(m.territories[t.id].shape)
