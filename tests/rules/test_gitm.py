"""GITM tactical movement (shared seed 002): the engine API.

The document's graphics, worked examples and unit cases are tables of data;
each terrain rule is tested on its own; exactness is tested against
:class:`fractions.Fraction` (and shown to matter: floats get it wrong).
Golden CLI cases live in ``tests/golden/gitm.json``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import main
from engine.grids import Cell
from engine.io import load_scenario
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType, Unit, UnitType, make_grid
from engine.rules import gitm
from engine.rules.gitm import (
    GitmOptions,
    Leg,
    MarchResult,
    direction,
    format_position,
    fractional_positions,
    line,
    march,
    round_half_down,
    rounded_line,
    step_count,
)

NUM = NumericNumbering()


def C(label: str) -> Cell:
    return NUM.parse(label)


def L(cells: Any) -> list[str]:
    return [NUM.label(c) for c in cells]


TERRAIN = [
    TerrainType("flat", "flat ground", ".", "#dfe8b8"),
    TerrainType("hills", "hills", "h", "#c8b07a", elevation=1),
    TerrainType("high_hills", "high hills", "H", "#9c7b4a", elevation=2),
    TerrainType("river", "river", "r", "#5b8fd6", impassable=True, linear=True),
    TerrainType("mountain", "mountain", "M", "#7d7468", impassable=True, linear=True),
    TerrainType("lake", "lake", "L", "#3f6fb5", impassable=True),
]
TID = {t.id: i for i, t in enumerate(TERRAIN)}


def scen(terrain: dict[str, str] | None = None, units: list[tuple[str, str, str]] | None = None,
         w: int = 14, h: int = 14, options: dict[str, Any] | None = None) -> Scenario:
    """A square numeric-labelled map; ``units`` are ``(id, side, label)``;
    sides FR, AU (enemy), BA (allied to FR), NE (neutral)."""
    rs = Ruleset("GITM test", [TerrainType(**t.__dict__) for t in TERRAIN], [UnitType("IN", "infantry")],
                 {"gitm": dict(options or {})})
    m = GridMap(make_grid("square", w, h), NUM)
    for lab, tid in (terrain or {}).items():
        c = C(lab)
        m.terrain[c.row, c.col] = TID[tid]
    sides = [Faction("FR", "French", "#0000ff", "F"), Faction("AU", "Austrian", "#ffffff", "A"),
             Faction("BA", "Bavarian", "#8888ff", "B", alliance="FR"),
             Faction("NE", "Neutral", "#999999", "N", alliance="neutral")]
    us = [Unit(uid, side, "IN", C(at)) for uid, side, at in (units or [])]
    return Scenario("test", rs, sides, m, us)


def checks_by_kind(r: MarchResult) -> tuple[list[str], list[str]]:
    return L(r.cells_of("T/U")), L(r.cells_of("U"))


# ---------------------------------------------------------------------------
# the three graphics, as data

GRAPHICS = [
    # (file, start, to, T/U in path order, U as a set)
    ("maps/gitm_graphic1.json", "1-1", "5-1", ["2-1", "3-1", "4-1", "5-1"], set()),
    ("maps/gitm_graphic2.json", "1-6", "5-2", ["2-5", "3-4", "4-3", "5-2"],
     {"1-5", "2-4", "2-6", "3-3", "3-5", "4-2", "4-4", "5-3"}),
    ("maps/gitm_graphic3.json", "1-2", "6-5", ["2-3", "3-3", "4-4", "5-4", "6-5"], {"2-2", "3-4", "4-3", "5-5"}),
]


@pytest.mark.parametrize(("path", "start", "to", "tu", "u"), GRAPHICS, ids=["graphic1", "graphic2", "graphic3"])
def test_graphics_sample_files(in_root: Any, path: str, start: str, to: str, tu: list[str], u: set[str]) -> None:
    s = load_scenario(path)
    assert s.map.label(s.unit("FR1IN").at) == start
    r = march(s, "FR1IN", C(to))
    got_tu, got_u = checks_by_kind(r)
    assert got_tu == tu
    assert set(got_u) == u and len(got_u) == len(u)
    assert not r.auto_success


@pytest.mark.parametrize(("path", "start", "to", "tu", "u"), GRAPHICS, ids=["graphic1", "graphic2", "graphic3"])
def test_graphics_every_square_blocks_exactly_when_marked(path: str, start: str, to: str, tu: list[str],
                                                          u: set[str]) -> None:
    """Put one enemy on every square of a 6x6 map in turn: the move is
    blocked exactly when the graphic marks that square (T/U or U)."""
    marked = set(tu) | u
    for col, row in itertools.product(range(6), range(6)):
        cell = Cell(col, row)
        if NUM.label(cell) == start:
            continue
        s = scen(units=[("FR1IN", "FR", start), ("AU1IN", "AU", NUM.label(cell))], w=6, h=6)
        r = march(s, "FR1IN", C(to))
        assert r.blocked == (NUM.label(cell) in marked), NUM.label(cell)
        if r.blocked:
            assert [b.unit_id for b in r.blocks] == ["AU1IN"] and r.blocks[0].by == "unit"


def test_graphic2_first_step_flanks_are_checked() -> None:
    r = march(scen(units=[("FR1IN", "FR", "1-6"), ("AU1IN", "AU", "1-5")], w=6, h=6), "FR1IN", C("5-2"))
    assert r.blocked
    assert r.blocks[0].reason == "enemy AU1IN at 1-5, beside the diagonal step from 1-6 to 2-5"


# ---------------------------------------------------------------------------
# the line: steps, exact positions, rounding

def test_step_counts_of_the_examples() -> None:
    assert step_count(C("3-1"), C("7-3")) == 4
    assert step_count(C("11-4"), C("8-13")) == 9


def test_example_path_3_1_to_7_3() -> None:
    pos = [(c + 1, r + 1) for c, r in line(C("3-1"), C("7-3"))]
    assert pos == [(3, 1), (4, Fraction(3, 2)), (5, 2), (6, Fraction(5, 2)), (7, 3)]
    assert L(rounded_line(C("3-1"), C("7-3"))) == ["3-1", "4-1", "5-2", "6-2", "7-3"]


def test_example_path_11_4_to_8_13() -> None:
    pos = [(c + 1, r + 1) for c, r in line(C("11-4"), C("8-13"))]
    cols = [Fraction(33, 3) - Fraction(i, 3) for i in range(10)]
    assert pos == list(zip(cols, range(4, 14), strict=True))
    assert L(rounded_line(C("11-4"), C("8-13"))) == [
        "11-4", "11-5", "10-6", "10-7", "10-8", "9-9", "9-10", "9-11", "8-12", "8-13"]
    m = scen().map
    assert [format_position(m, c, r) for c, r in line(C("11-4"), C("8-13"))] == [
        "11-4", "10.67-5", "10.33-6", "10-7", "9.67-8", "9.33-9", "9-10", "8.67-11", "8.33-12", "8-13"]


@pytest.mark.parametrize(("x", "want"), [
    (Fraction(5, 2), 2), (Fraction(7, 2), 3), (Fraction(13, 5), 3), (Fraction(16, 5), 3), (Fraction(19, 5), 4),
    (Fraction(22, 5), 4), (Fraction(32, 3), 11), (Fraction(31, 3), 10), (3, 3), (Fraction(-5, 2), -3),
    (Fraction(1, 2), 0), (Fraction(1001, 2), 500),
])
def test_round_half_down(x: Fraction, want: int) -> None:
    assert round_half_down(x) == want


@pytest.mark.parametrize(("a", "b", "want"), [
    ("5-2", "5-7", "orthogonal"), ("1-1", "5-1", "orthogonal"), ("5-10", "8-7", "diagonal"),
    ("1-6", "5-2", "diagonal"), ("3-1", "7-3", "oblique"), ("11-4", "8-13", "oblique"),
])
def test_direction_cases(a: str, b: str, want: str) -> None:
    assert direction(C(a), C(b)) == want


def _rounded_by_fractions(a: Cell, b: Cell) -> list[Cell]:
    return [Cell(round_half_down(c), round_half_down(r)) for c, r in line(a, b)]


def test_thousand_step_line_rounds_exactly() -> None:
    """1000 columns, 70 rows: at step 50 the row is exactly 3.5, which
    rounds down to 3; floats compute 50 * (70 / 1000) = 3.5000000000000004
    and would round it up (likewise at steps 150, 350, ...)."""
    a, b = Cell(0, 0), Cell(1000, 70)
    got = rounded_line(a, b)
    assert list(got) == _rounded_by_fractions(a, b)
    assert got[50] == Cell(50, 3) and got[150] == Cell(150, 10)
    assert 50 * (70 / 1000) > 3.5  # the float reading is wrong here: the test has teeth
    halves = [i for i in range(1001) if (i * 70) % 1000 == 500]
    assert len(halves) == 10 and all(got[i].row == (i * 70 - 500) // 1000 for i in halves)
    for a, b in [(Cell(0, 0), Cell(1000, 333)), (Cell(1000, 999), Cell(1, 0)), (Cell(3, 1000), Cell(700, 0))]:
        assert list(rounded_line(a, b)) == _rounded_by_fractions(a, b)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_integer_rounding_matches_fractions(c0: int, r0: int, c1: int, r1: int) -> None:
    a, b = Cell(c0, r0), Cell(c1, r1)
    rounded = rounded_line(a, b)
    assert list(rounded) == _rounded_by_fractions(a, b)
    leg = Leg(a, b)
    assert leg.rounded == rounded
    # every rounded step moves one square along the major axis, at most one along the other
    for p, q in itertools.pairwise(rounded):
        assert max(abs(p.col - q.col), abs(p.row - q.row)) == 1
    if direction(a, b) == "oblique":
        assert len(leg.u_squares()) == fractional_positions(a, b)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 11), st.integers(0, 11), st.integers(0, 11), st.integers(0, 11),
       st.sampled_from(["flanks", "adjacent"]))
def test_unit_test_agrees_with_the_checked_squares(c0: int, r0: int, c1: int, r1: int, mode: str) -> None:
    """The O(1) unit test (scalar and vectorised) blocks exactly on the
    squares the result lists as checked."""
    if (c0, r0) == (c1, r1):
        return
    s = scen(units=[("FR1IN", "FR", NUM.label(Cell(c0, r0)))], w=12, h=12, options={"diagonal_units": mode})
    s.units.append(Unit("AU0", "AU", "IN", Cell(11, 11) if (c0, r0) != (11, 11) else Cell(0, 0)))
    r = march(s, "FR1IN", Cell(c1, r1))
    checked = {c.cell for c in r.checks}
    leg = r.legs[0]
    cells = [Cell(c, rw) for c in range(12) for rw in range(12)]
    uc = np.array([c.col for c in cells], dtype=np.int64)
    ur = np.array([c.row for c in cells], dtype=np.int64)
    vec = gitm._units_hit(leg, uc, ur, mode)  # type: ignore[arg-type]
    for k, cell in enumerate(cells):
        scalar = gitm._unit_hit(leg, cell.col, cell.row, mode)  # type: ignore[arg-type]
        assert (scalar is not None) == bool(vec[k]) == (cell in checked), cell
        if scalar is not None:
            assert scalar[0] == next(c.kind for c in r.checks if c.cell == cell)


def test_many_units_take_the_vectorised_path_and_agree() -> None:
    rng = np.random.default_rng(2)
    spots = {(int(c), int(r)) for c, r in rng.integers(0, 14, size=(60, 2))} - {(2, 0)}
    units = [("FR3IN", "FR", "3-1")] + [(f"AU{i}", "AU", NUM.label(Cell(*p))) for i, p in enumerate(sorted(spots))]
    assert len(units) - 1 > gitm.VECTORISE_UNITS
    s = scen(units=units)
    r = march(s, "FR3IN", C("12-6"))
    checked = {c.cell for c in r.checks}
    assert {b.cell for b in r.blocks if b.by == "unit"} == {Cell(*p) for p in spots} & checked
    few = march(scen(units=[u for u in units if u[0] == "FR3IN" or C(u[2]) in checked][:5]), "FR3IN", C("12-6"))
    assert {b.unit_id for b in few.blocks} <= {b.unit_id for b in r.blocks}


# ---------------------------------------------------------------------------
# terrain, one rule at a time

EX1_SQUARES = ["11-5", "10-6", "10-7", "10-8", "9-9", "9-10", "9-11", "8-12", "8-13"]
ENEMY_FAR = ("AU9", "AU", "1-14")


@pytest.mark.parametrize("where", EX1_SQUARES)
def test_example1_impassable_rounded_square_blocks(where: str) -> None:
    s = scen({where: "lake"}, [("FR4IN", "FR", "11-4"), ENEMY_FAR])
    r = march(s, "FR4IN", C("8-13"))
    assert r.blocked
    assert [(b.by, NUM.label(b.cell), b.reason) for b in r.blocks] == [
        ("terrain", where, f"lake at {where} is impassable")]


@pytest.mark.parametrize("where", ["10-5", "11-6", "9-8", "10-9", "8-11", "9-12", "11-4", "7-13", "12-4"])
def test_example1_impassable_elsewhere_does_not_block(where: str) -> None:
    """The other rounding candidates (U squares), the start and squares off
    the line are not checked for terrain."""
    s = scen({where: "lake"}, [("FR4IN", "FR", "11-4"), ENEMY_FAR])
    assert not march(s, "FR4IN", C("8-13")).blocked


@pytest.mark.parametrize(("a", "b"), [("river", "river"), ("mountain", "mountain"), ("river", "mountain")])
@pytest.mark.parametrize(("frm", "to"), [("4-9", "5-8"), ("5-8", "4-9")])
def test_example2_linear_pair_blocks_the_diagonal_step(a: str, b: str, frm: str, to: str) -> None:
    s = scen({"4-8": a, "5-9": b}, [("FR5IN", "FR", frm), ENEMY_FAR])
    r = march(s, "FR5IN", C(to))
    assert r.blocked and [x.by for x in r.blocks] == ["terrain"]
    what = f"{a} at 4-8 and 5-9" if a == b else f"{a} at 4-8 and {b} at 5-9"
    assert r.blocks[0].reason == f"{what} block the diagonal step from {frm} to {to}"
    assert L(r.blocks[0].cells) == ["4-8", "5-9"]


@pytest.mark.parametrize("pair", [("lake", "lake"), ("lake", "river"), ("river", "flat"), ("flat", "mountain")])
def test_example2_no_linear_pair_no_block(pair: tuple[str, str]) -> None:
    s = scen({"4-8": pair[0], "5-9": pair[1]}, [("FR5IN", "FR", "4-9"), ENEMY_FAR])
    assert not march(s, "FR5IN", C("5-8")).blocked


def test_linear_must_match_option() -> None:
    mixed = scen({"4-8": "river", "5-9": "mountain"}, [("FR5IN", "FR", "4-9"), ENEMY_FAR],
                 options={"linear_must_match": True})
    assert not march(mixed, "FR5IN", C("5-8")).blocked
    same = scen({"4-8": "river", "5-9": "river"}, [("FR5IN", "FR", "4-9"), ENEMY_FAR],
                options={"linear_must_match": True})
    assert march(same, "FR5IN", C("5-8")).blocked


def test_linear_pair_at_a_diagonal_step_of_an_oblique_line() -> None:
    """3-1 -> 7-3 rounds to 3-1 4-1 5-2 6-2 7-3: the step 4-1 -> 5-2 passes
    between 4-2 and 5-1."""
    s = scen({"4-2": "river", "5-1": "river"}, [("FR3IN", "FR", "3-1"), ENEMY_FAR])
    r = march(s, "FR3IN", C("7-3"))
    assert [b.reason for b in r.blocks] == ["river at 4-2 and 5-1 block the diagonal step from 4-1 to 5-2"]
    # 4-2 is also a U square: rivers there are not impassable-checked, only paired
    assert not march(scen({"4-2": "river"}, [("FR3IN", "FR", "3-1"), ENEMY_FAR]), "FR3IN", C("7-3")).blocked


@pytest.mark.parametrize(("a", "b", "blocked"), [
    ("flat", "high_hills", True), ("high_hills", "flat", True), ("flat", "hills", False),
    ("hills", "high_hills", False), ("high_hills", "hills", False), ("flat", "flat", False),
])
def test_example3_steepness(a: str, b: str, blocked: bool) -> None:
    for frm, to in (("7-3", "8-3"), ("8-3", "7-3")):
        s = scen({frm: a, to: b}, [("FR7IN", "FR", frm), ENEMY_FAR])
        r = march(s, "FR7IN", C(to))
        assert r.blocked == blocked
        if blocked:
            assert r.blocks[0].by == "terrain" and L(r.blocks[0].cells) == [frm, to]
            assert "too steep" in r.blocks[0].reason


def test_example3_reason_and_max_climb_option() -> None:
    s = scen({"8-3": "high_hills"}, [("FR7IN", "FR", "7-3"), ENEMY_FAR])
    assert march(s, "FR7IN", C("8-3")).blocks[0].reason == (
        "the step from flat ground at 7-3 to high hills at 8-3 is too steep (up 2 levels; at most 1 allowed)")
    loose = scen({"8-3": "high_hills"}, [("FR7IN", "FR", "7-3"), ENEMY_FAR], options={"max_climb": 2})
    assert not march(loose, "FR7IN", C("8-3")).blocked


def test_steepness_on_a_diagonal_and_mid_line() -> None:
    s = scen({"3-3": "high_hills"}, [("FR1IN", "FR", "1-1"), ENEMY_FAR])
    r = march(s, "FR1IN", C("5-5"))  # 2-2 (flat) -> 3-3 (high hills), then back down to 4-4
    assert [L(b.cells) for b in r.blocks] == [["2-2", "3-3"], ["3-3", "4-4"]]


# ---------------------------------------------------------------------------
# units

@pytest.mark.parametrize(("where", "blocked"), [
    ("5-3", True), ("5-5", True), ("5-7", True), ("4-4", False), ("6-6", False), ("5-8", False), ("5-1", False),
])
def test_case1_due_south(where: str, blocked: bool) -> None:
    s = scen(units=[("FR8IN", "FR", "5-2"), ("AU1IN", "AU", where)])
    assert march(s, "FR8IN", C("5-7")).blocked == blocked


@pytest.mark.parametrize(("where", "blocked"), [
    ("6-9", True), ("7-8", True), ("8-7", True), ("6-8", True), ("7-9", True), ("5-9", True), ("6-10", True),
    ("7-7", True), ("8-8", True), ("5-8", False), ("4-10", False), ("9-7", False), ("8-6", False), ("6-7", False),
])
def test_case2_north_east(where: str, blocked: bool) -> None:
    s = scen(units=[("FR9IN", "FR", "5-10"), ("AU1IN", "AU", where)])
    assert march(s, "FR9IN", C("8-7")).blocked == blocked


@pytest.mark.parametrize(("where", "blocked"), [
    ("4-1", True), ("4-2", True), ("5-2", True), ("6-2", True), ("6-3", True), ("7-3", True),
    ("5-1", False), ("5-3", False), ("4-3", False), ("6-1", False), ("7-2", False),
])
def test_case3_other_direction(where: str, blocked: bool) -> None:
    s = scen(units=[("FR3IN", "FR", "3-1"), ("AU1IN", "AU", where)])
    assert march(s, "FR3IN", C("7-3")).blocked == blocked


def test_unit_reasons() -> None:
    s = scen(units=[("FR3IN", "FR", "3-1"), ("AU1IN", "AU", "4-2"), ("NE1", "NE", "6-2"), ("BA1", "BA", "5-2")])
    r = march(s, "FR3IN", C("7-3"))
    assert [b.reason for b in r.blocks] == [
        "enemy AU1IN at 4-2, where the line at 4-1.5 can round either way",
        "neutral NE1 at 6-2 (on the path)",
    ]
    assert r.reason == ("FR3IN's march 3-1 -> 7-3 is blocked: enemy AU1IN at 4-2, where the line at 4-1.5 can "
                        "round either way; neutral NE1 at 6-2 (on the path).")


def test_neutral_sides_option() -> None:
    s = scen(units=[("FR3IN", "FR", "3-1"), ("AU1IN", "AU", "4-2")], options={"neutral_sides": ["AU"]})
    assert march(s, "FR3IN", C("7-3")).blocks[0].reason.startswith("neutral AU1IN at 4-2")


def test_start_square_is_not_checked_unless_asked() -> None:
    units = [("FR3IN", "FR", "3-1"), ("AU1IN", "AU", "3-1")]
    assert not march(scen(units=units), "FR3IN", C("7-3")).blocked
    r = march(scen(units=units, options={"check_start": True}), "FR3IN", C("7-3"))
    assert [b.reason for b in r.blocks] == ["enemy AU1IN at 3-1 (on the start square)"]
    assert r.checks[0].cell == C("3-1") and r.checks[0].kind == "U"


def test_diagonal_units_adjacent_option() -> None:
    """The case 2 sentence read literally: every square next to the path."""
    s = scen(units=[("FR1IN", "FR", "1-6"), ("AU1IN", "AU", "6-2")], w=6, h=6,
             options={"diagonal_units": "adjacent"})
    r = march(s, "FR1IN", C("5-2"))
    assert r.blocked
    assert set(L(r.cells_of("U"))) == {"1-5", "2-4", "2-6", "3-3", "3-5", "4-2", "4-4", "5-3", "5-1", "6-2"}
    assert not march(scen(units=[("FR1IN", "FR", "1-6"), ("AU1IN", "AU", "6-2")], w=6, h=6), "FR1IN", C("5-2")).blocked


# ---------------------------------------------------------------------------
# automatic success, waypoints, errors

def test_all_allied_succeeds_automatically() -> None:
    s = scen({"3-1": "lake"}, [("FR1IN", "FR", "1-1"), ("BA1", "BA", "3-1"), ("FR2", "FR", "2-1")])
    r = march(s, "FR1IN", C("5-1"))
    assert r.auto_success and not r.blocked and r.checks == () and r.blocks == ()
    assert r.reason == ("Every other unit on the map is allied to FR1IN, so the march 1-1 -> 5-1 succeeds "
                        "automatically (no straight-line check is needed).")
    assert L(r.path) == ["1-1", "2-1", "3-1", "4-1", "5-1"]


def test_alone_on_the_map_succeeds_automatically() -> None:
    r = march(scen({"3-1": "lake"}, [("FR1IN", "FR", "1-1")]), "FR1IN", C("5-1"))
    assert r.auto_success and "no other unit" in r.reason


def test_one_enemy_anywhere_means_checking() -> None:
    s = scen({"3-1": "lake"}, [("FR1IN", "FR", "1-1"), ("BA1", "BA", "3-2"), ENEMY_FAR])
    r = march(s, "FR1IN", C("5-1"))
    assert not r.auto_success and r.blocked and r.blocks[0].reason == "lake at 3-1 is impassable"


def test_waypoint_blocked_only_on_second_leg() -> None:
    s = scen(units=[("FR1IN", "FR", "1-1"), ("AU1IN", "AU", "7-4")])
    direct = march(s, "FR1IN", C("7-7"))
    assert not direct.blocked
    first = march(s, "FR1IN", C("7-1"))
    assert not first.blocked
    r = march(s, "FR1IN", C("7-7"), via=C("7-1"))
    assert r.blocked and [(b.leg, b.step, b.unit_id) for b in r.blocks] == [(1, 3, "AU1IN")]
    assert [leg.direction for leg in r.legs] == ["orthogonal", "orthogonal"]
    assert L(r.path) == ["1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "7-2", "7-3", "7-4", "7-5", "7-6", "7-7"]
    assert "1-1 -> 7-1 -> 7-7" in r.reason


def test_waypoint_terrain_on_second_leg_and_overlapping_checks() -> None:
    s = scen({"4-4": "lake"}, [("FR1IN", "FR", "1-1"), ENEMY_FAR])
    r = march(s, "FR1IN", C("6-1"), via=C("3-3"))  # back out over 4-2? no: 3-3 -> 6-1 rounds 4-2, 5-2 (lake not on it)
    assert not r.blocked
    r = march(s, "FR1IN", C("1-5"), via=C("5-5"))  # 1-1 -> 5-5 passes 4-4
    assert r.blocked and r.blocks[0].leg == 0
    r = march(s, "FR1IN", C("6-4"), via=C("2-4"))  # second line 2-4 -> 6-4 passes 4-4
    assert r.blocked and [(b.leg, b.step) for b in r.blocks] == [(1, 2)]
    # a square checked as U on one leg and T/U on the other is listed once, as T/U
    r = march(scen(units=[("FR1IN", "FR", "1-1"), ENEMY_FAR]), "FR1IN", C("1-3"), via=C("3-3"))
    kinds = {NUM.label(c.cell): c.kind for c in r.checks}
    assert len(kinds) == len(r.checks)
    assert kinds["2-2"] == "T/U" and kinds["3-2"] == "U"


def test_waypoint_equal_to_an_end_is_one_line() -> None:
    s = scen(units=[("FR1IN", "FR", "1-1"), ENEMY_FAR])
    assert len(march(s, "FR1IN", C("5-1"), via=C("5-1")).legs) == 1
    assert len(march(s, "FR1IN", C("5-1"), via=C("1-1")).legs) == 1


def test_errors() -> None:
    s = scen(units=[("FR1IN", "FR", "1-1"), ENEMY_FAR])
    with pytest.raises(ModelError, match="already at 1-1"):
        march(s, "FR1IN", C("1-1"))
    with pytest.raises(ModelError, match="no unit 'XX'"):
        march(s, "XX", C("2-1"))
    with pytest.raises(ModelError, match=r"the destination 41-1 is off the map \(it runs from 1-1 to 14-14\)"):
        march(s, "FR1IN", Cell(40, 0))
    with pytest.raises(ModelError, match="the waypoint 1-41 is off the map"):
        march(s, "FR1IN", Cell(2, 0), via=Cell(0, 40))
    for opts, msg in [({"max_climb": "two"}, "max_climb must be"), ({"max_climb": -1}, "0 or more"),
                      ({"diagonal_units": "near"}, "diagonal_units must be"), ({"check_start": 1}, "check_start"),
                      ({"neutral_sides": "NE"}, "neutral_sides")]:
        with pytest.raises(ModelError, match=msg):
            march(scen(units=[("FR1IN", "FR", "1-1"), ENEMY_FAR], options=opts), "FR1IN", C("2-1"))
    hexmap = Scenario("hexes", s.ruleset, s.sides, GridMap(make_grid("hex", 5, 5, orientation="flat", parity="odd"),
                                                           NUM), [Unit("FR1IN", "FR", "IN", Cell(0, 0))])
    with pytest.raises(ModelError, match="square grid"):
        march(hexmap, "FR1IN", Cell(2, 2))


def test_options_read_from_ruleset() -> None:
    o = GitmOptions.from_scenario(scen(options={"max_climb": 3, "neutral_sides": ["AU"]}))
    assert o.max_climb == 3 and o.neutral_sides == ("AU",) and o.diagonal_units == "flanks" and not o.check_start


# ---------------------------------------------------------------------------
# the command line

def test_cli_text_and_exit_status(in_root: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["march", "maps/gitm_graphic3.json", "--unit", "FR1IN", "--to", "6-5"]) == 0
    out = capsys.readouterr().out
    assert "T/U:   2-3 3-3 4-4 5-4 6-5" in out and "U:     2-2 3-4 4-3 5-5" in out
    picture = [ln.split() for ln in out.splitlines()[-5:]]  # the graphic: columns 1-6 across, rows 2-5 down
    assert picture == [["1", "2", "3", "4", "5", "6"], ["2", "FR1IN", "U", ".", ".", ".", "."],
                       ["3", ".", "T/U", "T/U", "U", ".", "."], ["4", ".", ".", "U", "T/U", "T/U", "."],
                       ["5", ".", ".", ".", ".", "U", "T/U"]]
    assert main(["march", "maps/gitm_graphic2.json", "--unit", "FR1IN", "--to", "5-2"]) == 1
    out = capsys.readouterr().out
    assert "BLOCK 4-2 (unit): enemy AU2CA at 4-2" in out


def test_cli_bad_label(in_root: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["march", "maps/gitm_graphic1.json", "--unit", "FR1IN", "--to", "five-one"]) == 1
    assert "'five-one' is not a label like '1-1'" in capsys.readouterr().err


def test_linear_pair_on_a_rows_major_oblique_line() -> None:
    """11-4 -> 8-13 rounds 11-5 -> 10-6: that step passes between 11-6 and 10-5."""
    s = scen({"11-6": "river", "10-5": "mountain"}, [("FR4IN", "FR", "11-4"), ENEMY_FAR])
    assert [b.reason for b in march(s, "FR4IN", C("8-13")).blocks] == [
        "mountain at 10-5 and river at 11-6 block the diagonal step from 11-5 to 10-6"]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9),
       st.lists(st.integers(0, len(TERRAIN) - 1), min_size=100, max_size=100))
def test_terrain_blocks_match_a_plain_reading_of_the_rules(c0: int, r0: int, c1: int, r1: int,
                                                           cells: list[int]) -> None:
    """The vectorised terrain checks against the rules written out naively
    over the rounded path."""
    if (c0, r0) == (c1, r1):
        return
    s = scen(units=[("FR1IN", "FR", NUM.label(Cell(c0, r0))), ("AU1", "AU", "10-10")], w=10, h=10)
    s.map.terrain[:] = np.array(cells, dtype=np.uint8).reshape(10, 10)
    r = march(s, "FR1IN", Cell(c1, r1))
    t = [[TERRAIN[int(s.map.terrain[rw, c])] for c in range(10)] for rw in range(10)]
    want = set()
    path = rounded_line(Cell(c0, r0), Cell(c1, r1))
    for p, q in itertools.pairwise(path):
        if t[q.row][q.col].impassable:
            want.add(("imp", q))
        if p.col != q.col and p.row != q.row and t[q.row][p.col].linear and t[p.row][q.col].linear:
            want.add(("lin", min(Cell(p.col, q.row), Cell(q.col, p.row))))
        if abs(t[q.row][q.col].elevation - t[p.row][p.col].elevation) > 1:
            want.add(("steep", q))
    got = {("imp" if "impassable" in b.reason else "lin" if "diagonal" in b.reason else "steep", b.cell)
           for b in r.blocks if b.by == "terrain"}
    assert got == want


def test_positions_on_other_numberings_read_between_two_squares() -> None:
    from engine.labels import CcrrNumbering

    m = GridMap(make_grid("square", 12, 12), CcrrNumbering())
    assert format_position(m, Fraction(3), Fraction(1, 2)) == "between 0401 and 0402"
    assert format_position(m, Fraction(3), Fraction(1)) == "0402"
    assert format_position(scen().map, Fraction(3), Fraction(2, 3)) == "4-1.67"
