"""The movement system configured as A Short ACW Campaign's movement gives
the ACW system's answers: on random positions every hex's reachability and
cheapest cost, the hexes where the unit must halt next to the enemy, and
whether it may end its move there (stacking) are the same.

Positions are drawn on the campaign's own map (``maps/movement_acw.json``,
the shipped sample: its units are replaced by a random mover, enemies and
friends) and on small random hex maps with woods, impassable water,
rivers, road and rail bridges and both of ACW's ``step_cost`` readings.
The default run checks a few hundred positions; ``-m slow`` checks
thousands."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.grids import Cell, Edge, HexGrid, Orientation
from engine.io import load_any
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit, UnitType
from engine.rules.acw.movement import check_move as acw_check
from engine.rules.acw.movement import reach as acw_reach
from engine.rules.movement import check_move, reach

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = load_any(ROOT / "maps" / "movement_acw.json")
ACW_OPTIONS = {"stack_limit": 3, "river_cost": 3, "bridge_cost": 1}


def movement_config(terrain: list[TerrainType], step_cost: str, river: int, bridge: int) -> dict[str, Any]:
    """ACW's movement rules as the movement system's options."""
    key = "at_least" if step_cost == "highest" else "add"
    table = {t.id: ("prohibited" if t.impassable else t.move_cost) for t in terrain}
    sides = {"river": {key: river}, "bridge": {key: bridge}}
    return {"classes": {"line": {"unit_types": ["inf", "cav"], "terrain": table, "sides": sides},
                        "support": {"unit_types": ["arty", "hq"], "terrain": table, "sides": sides,
                                    "stacks": False}},
            "zoc": "stop", "stacking": {"limit": 3, "by": "count"}, "friendly_pass": True}


def compare(s: Scenario, mover: Unit) -> None:
    a = acw_reach(s, mover)
    m = reach(s, mover)
    b = m.board
    assert b.scale == 1
    assert m.costs == a.costs, "reachable hexes or costs differ"
    for i in a.costs:
        cell = b.cell(i)
        assert m.stops(cell) == a.halts(cell), f"halt differs at {s.map.label(cell)}"
        if cell != mover.at:
            got, want = check_move(s, mover, cell, m), acw_check(s, mover, cell, a)
            assert got.ok == want.ok, f"{s.map.label(cell)}: movement {got.reasons} / acw {want.reason}"
            assert got.cost == want.cost


@st.composite
def campaign_positions(draw: st.DrawFn) -> tuple[Scenario, Unit]:
    s = SAMPLE.copy()
    w, h = s.map.width, s.map.height
    cells = st.builds(Cell, st.integers(0, w - 1), st.integers(0, h - 1))
    start = draw(cells)
    kinds = st.sampled_from(("inf", "cav", "arty", "hq"))
    mover = Unit("M", "union", draw(kinds), start, 5)
    units = [mover]
    for k in range(draw(st.integers(0, 8))):
        at = draw(cells)
        if at != start:
            units.append(Unit(f"E{k}", "rebel", draw(kinds), at, 5))
    for k in range(draw(st.integers(0, 6))):
        units.append(Unit(f"F{k}", "union", draw(kinds), draw(cells), 5))
    s.units = units
    s.ruleset.options = {"acw": dict(ACW_OPTIONS), "movement": movement_config(s.ruleset.terrain, "highest", 3, 1)}
    return s, mover


W, H = 9, 8


@st.composite
def random_maps(draw: st.DrawFn) -> tuple[Scenario, Unit]:
    grid = HexGrid(W, H, draw(st.sampled_from((Orientation.FLAT, Orientation.POINTY))),
                   draw(st.sampled_from(("odd", "even"))))
    gm = GridMap(grid, NumericNumbering())
    cells = [Cell(c, r) for r in range(H) for c in range(W)]
    kinds = draw(st.lists(st.sampled_from((0, 0, 0, 1, 1, 2)), min_size=len(cells), max_size=len(cells)))
    for c, k in zip(cells, kinds):
        gm.terrain[c.row, c.col] = k
    flags = draw(st.lists(st.integers(0, 19), min_size=6 * len(cells), max_size=6 * len(cells)))
    for j, c in enumerate(cells):
        for k, n in enumerate(sorted(grid.neighbours(c))):
            if flags[6 * j + k] < 3:
                e = Edge.between(c, n)
                gm.rivers.add(e)
                if flags[6 * j + k]:
                    gm.bridges[e] = ("road", "rail")[flags[6 * j + k] - 1]
    terrain = [TerrainType("open", "Open", "o", "#dddd99"),
               TerrainType("woods", "Woods", "w", "#338833", move_cost=draw(st.integers(2, 3))),
               TerrainType("water", "Water", "~", "#3366cc", impassable=True)]
    types = [UnitType("inf", "Infantry", 3, {"arm": "infantry"}),
             UnitType("cav", "Cavalry", draw(st.integers(4, 6)), {"arm": "cavalry"}),
             UnitType("arty", "Artillery", 3, {"arm": "artillery"}),
             UnitType("hq", "HQ", 5, {"arm": "hq"})]
    step_cost = draw(st.sampled_from(("sum", "highest")))
    river, bridge = draw(st.integers(1, 4)), draw(st.integers(0, 2))
    options = {"acw": {"step_cost": step_cost, "river_cost": river, "bridge_cost": bridge, "stack_limit": 2},
               "movement": movement_config(terrain, step_cost, river, bridge)}
    options["movement"]["stacking"]["limit"] = 2
    rs = Ruleset("prop", terrain, types, options=options)
    sides = [Faction("union", "Union", "#2244aa", "U"), Faction("rebel", "Rebels", "#888888", "R")]
    start = draw(st.sampled_from(cells))
    tp = st.sampled_from(("inf", "cav", "arty", "hq"))
    mover = Unit("M", "union", draw(tp), start, 5)
    units = [mover]
    for k in range(draw(st.integers(0, 4))):
        at = draw(st.sampled_from(cells))
        if at != start:
            units.append(Unit(f"E{k}", "rebel", draw(tp), at, 5))
    for k in range(draw(st.integers(0, 5))):
        units.append(Unit(f"F{k}", "union", draw(tp), draw(st.sampled_from(cells)), 5))
    return Scenario("prop", rs, sides, gm, units), mover


def _long() -> bool:
    return os.environ.get("ADJUTANT_LONG", "") not in ("", "0")


SHORT = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
LONG = settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


@SHORT
@given(campaign_positions())
def test_campaign_positions_agree(case: tuple[Scenario, Unit]) -> None:
    compare(*case)


@SHORT
@given(random_maps())
def test_random_maps_agree(case: tuple[Scenario, Unit]) -> None:
    compare(*case)


def _long_run(request: pytest.FixtureRequest) -> None:
    expr = str(request.config.getoption("markexpr", "") or "")
    if not _long() and ("slow" not in expr or "not slow" in expr):
        pytest.skip("long form: use `python -m pytest -m slow tests/rules/test_movement_as_acw.py` or ADJUTANT_LONG=1")


@pytest.mark.slow
def test_campaign_positions_agree_long(request: pytest.FixtureRequest) -> None:
    _long_run(request)
    LONG(given(campaign_positions())(compare_case))()


@pytest.mark.slow
def test_random_maps_agree_long(request: pytest.FixtureRequest) -> None:
    _long_run(request)
    LONG(given(random_maps())(compare_case))()


def compare_case(case: tuple[Scenario, Unit]) -> None:
    compare(*case)


def test_the_sample_is_the_campaign() -> None:
    """The shipped sample's map and units are the campaign's, and its units'
    reach agrees with the ACW system's on the campaign file itself."""
    acw = load_any(ROOT / "maps" / "acw_short_campaign.json")
    assert (SAMPLE.map.terrain == acw.map.terrain).all()
    assert SAMPLE.map.rivers == acw.map.rivers and SAMPLE.map.bridges == acw.map.bridges
    assert [(u.id, u.at) for u in SAMPLE.units] == [(u.id, u.at) for u in acw.units]
    for u in acw.units:
        assert reach(SAMPLE, u.id).costs == acw_reach(acw, u.id).costs
