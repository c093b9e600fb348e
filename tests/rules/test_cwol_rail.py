"""CWOL rail movement (shared seed 000): the document's example on the sample
map, the 40/80 boundaries, ties, blocking, the search bound and the options.

Small scenarios are built in code: ``rail_scenario`` lays rail chains on a
square map held by the Confederates, with chosen squares held by the Union.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.io import load_scenario
from engine.labels import NumericNumbering
from engine.model import NO_SIDE, Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType, Unit
from engine.rules.cwol_rail import (
    ARRIVED,
    NO_VALID_PATH,
    STOPPED_SHORT,
    RailOptions,
    invalidate_rail_network,
    rail_move,
    rail_network,
    with_control,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "cwol_mobile_columbus.json"


def row_chain(n: int, row: int = 0, start_col: int = 0) -> list[Cell]:
    """``n`` steps east along ``row``: ``n + 1`` squares."""
    return [Cell(start_col + i, row) for i in range(n + 1)]


def rail_scenario(width: int, height: int, chains: list[list[Cell]], *, union: Iterable[Cell] = (),
                  nobody: Iterable[Cell] = (), units: Sequence[Unit] = (), options: dict[str, Any] | None = None,
                  grid: Any = None, sides: list[Faction] | None = None) -> Scenario:
    g = grid if grid is not None else SquareGrid(width, height, 8)
    gm = GridMap(g, NumericNumbering(first=0))
    gm.control[:] = 0
    for c in union:
        gm.control[c.row, c.col] = 1
    for c in nobody:
        gm.control[c.row, c.col] = NO_SIDE
    rail: set[Edge] = set()
    for chain in chains:
        for a, b in pairwise(chain):
            rail.add(g.link(a, b))
    gm.links["rail"] = rail
    all_units = list(units) or [Unit("CS1IN", "CS", "infantry", chains[0][0])]
    return Scenario("test", Ruleset("test", [TerrainType("clear", "Clear", "c", "#cccccc")],
                                    options={"cwol_rail": options or {}}),
                    sides or [Faction("CS", "Confederate", "#888888", "C"), Faction("US", "Union", "#2244aa", "U")],
                    gm, all_units)


# ---------------------------------------------------------------------------
# the document's example, through the engine API

@pytest.fixture(scope="module")
def sample() -> Scenario:
    return load_scenario(SAMPLE)


def labels(s: Scenario, cells: Iterable[Cell]) -> list[str]:
    return [s.map.label(c) for c in cells]


def test_example_all_confederate_arrives_in_30_via_meridian(sample: Scenario) -> None:
    r = rail_move(sample, "CS1IN", "E4-X4")
    assert (r.status, r.path_length, r.moved, sample.map.label(r.stop), r.ties) == (ARRIVED, 30, 30, "E4-X4", ())
    assert r.path is not None
    path = labels(sample, r.path)
    assert path[0] == "E6-Y4" and path[-1] == "E4-X4" and "E3-X2" in path and "E3-X1" in path


def test_example_e3x1_union_stops_short_at_d8w0_after_40_of_68(sample: Scenario) -> None:
    s = with_control(sample, {sample.map.parse_label("E3-X1"): "Union"})
    r = rail_move(s, "CS1IN", "E4-X4")
    assert (r.status, r.path_length, r.moved, s.map.label(r.stop), r.ties) == (STOPPED_SHORT, 68, 40, "D8-W0", ())
    assert r.path is not None
    path = labels(s, r.path)
    for town in ("E3-X2", "D6-X3", "E4-V4"):  # Meridian, Jackson, Corinth
        assert town in path
    assert path.index("D8-W0") == 40
    assert path[-1] == "E4-X4" and "E3-X1" not in path
    assert "68 squares" in r.reason and "D8-W0" in r.reason


def test_example_next_turn_from_d8w0_reaches_columbus_after_28(sample: Scenario) -> None:
    s = with_control(sample, {sample.map.parse_label("E3-X1"): "Union"})
    s.unit("CS1IN").at = rail_move(s, "CS1IN", "E4-X4").stop
    r = rail_move(s, "CS1IN", "E4-X4")
    assert (r.status, r.path_length, s.map.label(r.stop)) == (ARRIVED, 28, "E4-X4")


def test_example_corinth_union_too_the_112_path_is_not_used(sample: Scenario) -> None:
    s = with_control(sample, {sample.map.parse_label("E3-X1"): "Union", sample.map.parse_label("Corinth MS"): "union"})
    r = rail_move(s, "CS1IN", "E4-X4")
    assert (r.status, r.path, r.path_length, r.moved, s.map.label(r.stop)) == (NO_VALID_PATH, None, None, 0, "E6-Y4")
    assert r.over_limit_length == 112
    assert "112 squares" in r.reason and "longer than 80" in r.reason
    # the 112-square path is real: with a bound of 200 it is found, via the named towns in order
    long = rail_move(s, "CS1IN", "E4-X4", options=RailOptions(max_path=200))
    assert long.path is not None and long.path_length == 112
    names = [s.map.places[c].name for c in long.path if c in s.map.places]
    wanted = ["Mobile", "Meridian MS", "Jackson MS", "Clarksville TN", "Hopkinsville KY", "Nashville TN",
              "Columbia TN", "Decatur AL", "Columbus MS"]
    assert [n for n in names if n in wanted] == wanted


def test_example_sample_map_uses_the_cwol_labels(sample: Scenario) -> None:
    places = {p.name: sample.map.label(c) for c, p in sample.map.places.items()}
    assert places["Mobile"] == "E6-Y4"
    assert places["Columbus MS"] == "E4-X4"
    assert places["Meridian MS"] == "E3-X2"
    assert places["Jackson MS"] == "D6-X3"
    assert places["Corinth MS"] == "E4-V4"
    assert sample.unit("CS1IN").at == sample.map.parse_label("Mobile")


# ---------------------------------------------------------------------------
# the 40/80 boundaries

@pytest.mark.parametrize(("n", "status", "moved"), [
    (40, ARRIVED, 40), (41, STOPPED_SHORT, 40), (80, STOPPED_SHORT, 40), (81, NO_VALID_PATH, 0),
])
def test_boundaries(n: int, status: str, moved: int) -> None:
    chain = row_chain(100)
    s = rail_scenario(101, 1, [chain])
    r = rail_move(s, "CS1IN", Cell(n, 0))
    assert (r.status, r.moved) == (status, moved)
    if status == NO_VALID_PATH:
        assert r.stop == Cell(0, 0) and r.path is None
        assert r.over_limit_length == 81 and "81 squares, longer than 80" in r.reason
    else:
        assert r.path_length == n and r.path == tuple(chain[:n + 1])
        assert r.stop == Cell(min(n, 40), 0)


def test_limits_are_ruleset_values() -> None:
    s = rail_scenario(31, 1, [row_chain(30)], options={"max_move": 10, "max_path": 20})
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == ARRIVED
    r = rail_move(s, "CS1IN", Cell(20, 0))
    assert (r.status, r.stop) == (STOPPED_SHORT, Cell(10, 0))
    assert rail_move(s, "CS1IN", Cell(21, 0)).status == NO_VALID_PATH


@pytest.mark.parametrize("bad", [{"max_move": 0}, {"max_path": "80"}, {"max_move": True},
                                 {"enemy_units_block": "yes"}, {"max_squares": 40}])
def test_bad_options_are_refused_with_a_message(bad: dict[str, Any]) -> None:
    s = rail_scenario(5, 1, [row_chain(4)], options=bad)
    with pytest.raises(ModelError, match="cwol_rail"):
        rail_move(s, "CS1IN", Cell(4, 0))


# ---------------------------------------------------------------------------
# the search bound

def test_the_search_never_reaches_past_80_steps() -> None:
    # a line of 150 with side branches: an 81-step path is not found, and the
    # search reached exactly the squares within 80 steps
    chain = row_chain(150, row=1)
    branches = [[Cell(c, 1), Cell(c, 0)] for c in range(0, 151, 10)]
    s = rail_scenario(151, 2, [chain, *branches], options={"measure_long_paths": False})
    r = rail_move(s, "CS1IN", Cell(81, 1))
    assert r.status == NO_VALID_PATH and r.over_limit_length is None
    within = 81 + sum(1 for c in range(0, 151, 10) if c <= 79)  # line squares 0..80, branch tips within 80
    assert r.searched == within
    assert "80 squares or less" in r.reason


def test_squares_beyond_the_bound_are_never_examined() -> None:
    # squares 81..84 are Union-held: the bounded search never looks at them, so
    # it reports no refused square; the destination 85 is Confederate
    union = [Cell(c, 0) for c in range(81, 85)]
    s = rail_scenario(101, 1, [row_chain(100)], union=union, options={"measure_long_paths": False})
    r = rail_move(s, "CS1IN", Cell(85, 0))
    assert r.status == NO_VALID_PATH
    assert r.blocked == () and r.searched == 81


def test_measuring_a_long_path_does_not_change_the_verdict() -> None:
    s = rail_scenario(101, 1, [row_chain(100)])
    on = rail_move(s, "CS1IN", Cell(90, 0), measure_long_paths=True)
    off = rail_move(s, "CS1IN", Cell(90, 0), measure_long_paths=False)
    assert (on.status, on.moved, on.stop, on.searched) == (off.status, off.moved, off.stop, off.searched)
    assert on.over_limit_length == 90 and off.over_limit_length is None


# ---------------------------------------------------------------------------
# ties

def two_routes(n_steps: int, split_after: int = 0) -> tuple[Scenario, Cell]:
    """Start at (0, 1); a common stem east along row 1 for ``split_after``
    steps, then two equally long routes (row 0 and row 2) rejoining at the
    destination on row 1, ``n_steps`` from the start."""
    k = split_after
    stem = [Cell(c, 1) for c in range(k + 1)]
    north = [Cell(k, 1)] + [Cell(c, 0) for c in range(k + 1, n_steps)] + [Cell(n_steps, 1)]
    south = [Cell(k, 1)] + [Cell(c, 2) for c in range(k + 1, n_steps)] + [Cell(n_steps, 1)]
    chains = [stem, north, south] if k else [north, south]
    return rail_scenario(n_steps + 1, 3, chains, units=[Unit("CS1IN", "CS", "infantry", Cell(0, 1))]), Cell(n_steps, 1)


def test_tie_with_two_different_stop_squares() -> None:
    s, dest = two_routes(50)
    r = rail_move(s, "CS1IN", dest)
    assert (r.status, r.path_length) == (STOPPED_SHORT, 50)
    # first step NE (row 0) before SE (row 2): N, E, S, W, NE, SE, SW, NW
    assert r.stop == Cell(40, 0)
    assert r.ties == (Cell(40, 2),)
    assert "40-2" in r.reason and r.notes


def test_tie_breaking_is_deterministic_and_documented_order() -> None:
    s, dest = two_routes(50)
    paths = {rail_move(s, "CS1IN", dest).path for _ in range(3)}
    assert len(paths) == 1
    path = paths.pop()
    assert path is not None and all(c.row == 0 for c in path[1:-1])


def test_equal_paths_that_stop_in_the_same_square_are_not_a_tie() -> None:
    s, dest = two_routes(60, split_after=45)
    r = rail_move(s, "CS1IN", dest)
    assert (r.status, r.stop, r.ties) == (STOPPED_SHORT, Cell(40, 1), ())


def test_no_ties_when_the_unit_arrives() -> None:
    s, dest = two_routes(30)
    r = rail_move(s, "CS1IN", dest)
    assert (r.status, r.stop, r.ties) == (ARRIVED, dest, ())


# ---------------------------------------------------------------------------
# control, blocking and refusals

def test_one_enemy_square_breaks_the_path() -> None:
    s = rail_scenario(21, 1, [row_chain(20)], union=[Cell(10, 0)])
    r = rail_move(s, "CS1IN", Cell(20, 0))
    assert (r.status, r.moved, r.stop) == (NO_VALID_PATH, 0, Cell(0, 0))
    assert r.blocked == (Cell(10, 0),)
    assert r.reason == ("No Confederate-held rail line joins 0-0 to 20-0 (10-0 is rail-controlled by Union, "
                        "not Confederate), so CS1IN does not move.")


def test_an_enemy_square_forces_the_detour() -> None:
    # a direct line of 20 and a loop round it; Union holds one square of the line
    direct = row_chain(20, row=1)
    loop = [Cell(0, 1)] + [Cell(c, 0) for c in range(1, 20)] + [Cell(20, 1)]
    s = rail_scenario(21, 2, [direct, loop], union=[Cell(10, 1)],
                      units=[Unit("CS1IN", "CS", "infantry", Cell(0, 1))])
    r = rail_move(s, "CS1IN", Cell(20, 1))
    assert r.status == ARRIVED and r.path is not None and Cell(10, 1) not in r.path and r.path_length == 20


def test_uncontrolled_squares_are_not_valid() -> None:
    s = rail_scenario(11, 1, [row_chain(10)], nobody=[Cell(5, 0)])
    r = rail_move(s, "CS1IN", Cell(10, 0))
    assert r.status == NO_VALID_PATH and r.blocked == (Cell(5, 0),)


def test_destination_off_the_rail_is_a_verdict() -> None:
    s = rail_scenario(11, 3, [row_chain(10)])
    r = rail_move(s, "CS1IN", Cell(5, 2))
    assert (r.status, r.moved, r.stop) == (NO_VALID_PATH, 0, Cell(0, 0))
    assert r.reason == "5-2 is not on a rail line, so CS1IN does not move."


def test_unit_not_on_the_rail() -> None:
    s = rail_scenario(11, 3, [row_chain(10)], units=[Unit("CS1IN", "CS", "infantry", Cell(3, 2))])
    r = rail_move(s, "CS1IN", Cell(10, 0))
    assert r.status == NO_VALID_PATH and "not on a rail line" in r.reason


def test_enemy_held_destination_and_start() -> None:
    s = rail_scenario(11, 1, [row_chain(10)], union=[Cell(10, 0)])
    r = rail_move(s, "CS1IN", Cell(10, 0))
    assert r.status == NO_VALID_PATH and "controlled by Union" in r.reason
    s = rail_scenario(11, 1, [row_chain(10)], union=[Cell(0, 0)])
    r = rail_move(s, "CS1IN", Cell(10, 0))
    assert r.status == NO_VALID_PATH and "cannot start" in r.reason


def test_already_there() -> None:
    s = rail_scenario(11, 1, [row_chain(10)])
    r = rail_move(s, "CS1IN", Cell(0, 0))
    assert (r.status, r.path, r.moved) == (ARRIVED, (Cell(0, 0),), 0)


def test_enemy_units_block_only_with_the_option() -> None:
    units = [Unit("CS1IN", "CS", "infantry", Cell(0, 0)), Unit("US1IN", "US", "infantry", Cell(5, 0))]
    s = rail_scenario(11, 1, [row_chain(10)], units=units)
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == ARRIVED
    s = rail_scenario(11, 1, [row_chain(10)], units=units, options={"enemy_units_block": True})
    r = rail_move(s, "CS1IN", Cell(10, 0))
    assert r.status == NO_VALID_PATH and r.blocked == (Cell(5, 0),)


def test_allied_control_counts_only_with_the_option() -> None:
    sides = [Faction("CS", "Confederate", "#888888", "C", alliance="south"),
             Faction("US", "Union", "#2244aa", "U"),
             Faction("TX", "Texas", "#aa4422", "T", alliance="south")]
    s = rail_scenario(11, 1, [row_chain(10)], sides=sides)
    s.map.control[0, 5] = 2
    r = rail_move(s, "CS1IN", Cell(10, 0))
    assert r.status == NO_VALID_PATH and "controlled by Texas" in r.reason
    s.ruleset.options["cwol_rail"] = {"allied_control_counts": True}
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == ARRIVED


def test_unknown_unit_and_off_map_destination_raise() -> None:
    s = rail_scenario(11, 1, [row_chain(10)])
    with pytest.raises(ModelError, match="no unit 'XX'"):
        rail_move(s, "XX", Cell(1, 0))
    with pytest.raises(ModelError, match="off the map"):
        rail_move(s, "CS1IN", "50-0")
    with pytest.raises(ModelError, match="unknown side"):
        with_control(s, {Cell(1, 0): "Martians"})


# ---------------------------------------------------------------------------
# the network snapshot follows edits

def test_cutting_a_link_updates_the_next_search() -> None:
    s = rail_scenario(11, 1, [row_chain(10)])
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == ARRIVED
    s.map.links["rail"].discard(Edge.between(Cell(4, 0), Cell(5, 0)))
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == NO_VALID_PATH
    s.map.links["rail"].add(Edge.between(Cell(4, 0), Cell(5, 0)))
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == ARRIVED


def test_repainting_control_needs_no_rebuild() -> None:
    s = rail_scenario(11, 1, [row_chain(10)])
    net = rail_network(s.map)
    s.map.control[0, 3] = 1
    assert rail_network(s.map) is net
    assert rail_move(s, "CS1IN", Cell(10, 0)).status == NO_VALID_PATH
    invalidate_rail_network(s.map)
    assert rail_network(s.map) is not net


def test_hex_grid_rail() -> None:
    g = HexGrid(12, 3, "flat", "odd")
    chain = [Cell(c, 1) for c in range(12)]
    s = rail_scenario(12, 3, [chain], grid=g, options={"max_move": 5, "max_path": 11})
    r = rail_move(s, "CS1IN", Cell(11, 1))
    assert (r.status, r.path_length, r.stop) == (STOPPED_SHORT, 11, Cell(5, 1))


# ---------------------------------------------------------------------------
# the command line

def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_cli_json_keys(in_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["rail", "maps/cwol_mobile_columbus.json", "--unit", "CS1IN", "--to", "E4-X4",
                         "--control", "E3-X1=Union", "--json"], capsys)
    assert code == 0
    assert list(out) == ["status", "path", "path_length", "moved", "stop", "ties", "reason"]
    assert (out["status"], out["path_length"], out["moved"], out["stop"]) == ("stopped_short", 68, 40, "D8-W0")
    assert out["path"][0] == "E6-Y4" and out["path"][40] == "D8-W0" and len(out["path"]) == 69


@pytest.mark.parametrize(("extra", "message"), [
    (["--unit", "CS9IN", "--to", "E4-X4"], "no unit 'CS9IN'"),
    (["--unit", "CS1IN", "--to", "Z9-Z9"], "off the map"),
    (["--unit", "CS1IN", "--to", "E4-X4", "--control", "E3-X1=Martians"], "unknown side 'Martians'"),
    (["--unit", "CS1IN", "--to", "E4-X4", "--control", "E3-X1"], "LABEL=SIDE"),
    (["--unit", "CS1IN", "--to", "E4-X4", "--control", "E0-Z5=Union"], "off the map"),
])
def test_cli_bad_input_exits_1(extra: list[str], message: str, in_root: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["rail", "maps/cwol_mobile_columbus.json", *extra, "--json"], capsys)
    assert code == 1 and message in out["error"]


def test_cli_control_none_and_text_output(in_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["rail", "maps/cwol_mobile_columbus.json", "--unit", "CS1IN", "--to", "Columbus MS",
                 "--control", "E3-X1=none"])
    text = capsys.readouterr().out
    assert code == 0
    assert text.startswith("CS1IN stops short at D8-W0 after 40 of 68 squares")


@pytest.mark.parametrize(("extra", "headline"), [
    (["--to", "E5-Y1"], "CS1IN: E5-Y1 is not on a rail line; stays at E6-Y4"),
    (["--to", "E4-X4", "--control", "E4-X4=Union"],
     "CS1IN: E4-X4 is rail-controlled by Union, not Confederate; stays at E6-Y4"),
    (["--to", "E4-X4", "--control", "E3-X1=Union", "--control", "E4-V4=Union"],
     "CS1IN: the shortest valid rail path to E4-X4 is 112 squares, over 80; stays at E6-Y4"),
])
def test_cli_headline_names_the_actual_reason(extra: list[str], headline: str, in_root: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The first line says why the unit stays (not "no valid rail path"
    when the square is off the rail net): the verdict's headline, which
    the editor's status bar shows too."""
    code = main(["rail", "maps/cwol_mobile_columbus.json", "--unit", "CS1IN", *extra])
    first = capsys.readouterr().out.splitlines()[0]
    assert code == 1 and first == headline
    s = load_scenario("maps/cwol_mobile_columbus.json")
    for item in extra[2:][1::2]:
        label, side = item.split("=")
        s.set_control(s.map.parse_label(label), s.side(side).id)
    assert rail_move(s, "CS1IN", s.map.parse_label(extra[1])).headline == headline


def test_cached_network_follows_a_same_size_link_swap() -> None:
    """An edit that removes one link and adds another (same set, same size)
    must not leave a stale cached network behind."""
    from engine.editing import EdgeSetChange
    from engine.grids import Edge
    from engine.io import load_scenario

    s = load_scenario("maps/cwol_mobile_columbus.json")
    unit = s.unit("CS1IN")
    before = rail_move(s, unit, s.map.parse_label("E4-X4"))
    assert before.status == "arrived"
    # cut the first link of the found path and add a link elsewhere
    a, b = before.path[0], before.path[1]
    spare = next(Edge.between(c, n) for c in s.map.grid.cells() for n in s.map.grid.link_neighbours(c)
                 if Edge.between(c, n) not in s.map.links["rail"])
    EdgeSetChange("rail", added=frozenset({spare}), removed=frozenset({Edge.between(a, b)})).apply(s)
    after = rail_move(s, unit, s.map.parse_label("E4-X4"))
    assert after.path != before.path
