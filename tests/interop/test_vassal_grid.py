"""The VASSAL module's grid, checked by arithmetic: for every cell, VASSAL's
own formula for the location name (``vassal_formulas``, written from
VASSAL's Java source) at the pixel Adjutant says is the cell's centre gives
Adjutant's label, and VASSAL's grid puts the cell's centre exactly on the
centre the board is drawn with.  Every grid sample, and random maps of each
kind, orientation, parity and numbering (an oblique one for VASSAL 3.8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vassal_formulas import Board, centre_of_raw

from engine.editing import new_scenario
from engine.grids import Cell
from engine.io import load_any
from engine.io.vassal import build_xml, plan_module
from engine.model import Scenario

MAPS = Path(__file__).resolve().parents[2] / "maps"
GRID_SAMPLES = sorted(p.name for p in MAPS.glob("*.json")
                      if json.loads(p.read_text())["map"]["grid"]["kind"] in ("square", "hex"))


def check_every_cell(s: Scenario, version: str, scale: int = 40) -> int:
    """Assert the label check for every cell; returns the cells checked."""
    plan = plan_module(s, scale, version)
    board = Board(build_xml(plan), (plan.width, plan.height))
    n = 0
    for cell in s.map.grid.cells():
        x, y = plan.centre(cell)
        px, py = round(x), round(y)
        assert board.location_name(px, py) == s.map.label(cell), (cell, px, py)
        # VASSAL's centre of the raw cell at that pixel is the drawn centre
        for g in board.grids():
            rx, ry = centre_of_raw(g, g.raw_column(px, py), g.raw_row(px, py))
            assert abs(rx - x) < 1e-6 and abs(ry - y) < 1e-6, (cell, (rx, ry), (x, y))
        n += 1
    assert plan.mismatches == 0 and not plan.warnings
    return n


def test_there_are_grid_samples() -> None:
    assert len(GRID_SAMPLES) >= 8 and "cwol_mobile_columbus.json" in GRID_SAMPLES


@pytest.mark.parametrize("name", GRID_SAMPLES)
@pytest.mark.parametrize("version", ["3.7", "3.8"])
def test_every_cell_of_every_sample(name: str, version: str) -> None:
    s = load_any(MAPS / name)
    assert isinstance(s, Scenario)
    assert check_every_cell(s, version) == s.map.grid.size


GRIDS = st.one_of(
    st.builds(lambda w, h: {"kind": "square", "width": w, "height": h, "neighbours": 8},
              st.integers(1, 24), st.integers(1, 24)),
    st.builds(lambda w, h, o, p: {"kind": "hex", "width": w, "height": h, "orientation": o, "parity": p},
              st.integers(1, 24), st.integers(1, 24), st.sampled_from(["flat", "pointy"]),
              st.sampled_from(["odd", "even"])))
SEPARATORS = st.sampled_from(["", "-", ".", "/", " ", "$"])


@st.composite
def axis(draw: st.DrawFn, size: int) -> dict[str, object]:
    style = draw(st.sampled_from(["number", "letters"]))
    d: dict[str, object] = {"style": style, "start": draw(st.integers(0, 40))}
    if style == "number":
        d["width"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        d.update(descending=True, count=size + draw(st.integers(0, 5)))
    return d


@st.composite
def numbering(draw: st.DrawFn, w: int, h: int) -> dict[str, object]:
    kind = draw(st.sampled_from(["numeric", "ccrr", "cwol", "axes", "boards"]))
    if kind == "numeric":
        return {"scheme": "numeric", "first": draw(st.integers(0, 5)), "separator": draw(st.sampled_from(["-", "."])),
                "order": draw(st.sampled_from(["col-row", "row-col"]))}
    if kind == "ccrr":
        return {"scheme": "ccrr", "first": draw(st.integers(0, 3)), "digits": draw(st.integers(2, 3)),
                "order": draw(st.sampled_from(["col-row", "row-col"])), "separator": draw(st.sampled_from(["", "."]))}
    if kind == "cwol":
        return {"scheme": "cwol", "first_col": draw(st.integers(0, 200)), "first_row": draw(st.integers(0, 200))}
    d = {"scheme": "axes", "col": draw(axis(w)), "row": draw(axis(h)), "first": draw(st.sampled_from(["col", "row"])),
         "separator": draw(st.sampled_from(["-", ".", "/"]))}
    if kind == "boards":
        cols, rows = draw(st.integers(2, 8)), draw(st.integers(2, 8))
        across = -(-w // cols)
        d["boards"] = {"cols": cols, "rows": rows, "across": across}
        d["col"] = {"style": "number", "start": draw(st.integers(0, 3)), "width": 2}
        d["first"] = "col"
    return d


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_maps_keep_every_label(data: st.DataObject) -> None:
    grid = data.draw(GRIDS)
    num = data.draw(numbering(grid["width"], grid["height"]))
    try:
        s = new_scenario("random", grid, num)
    except ValueError:  # a numbering that cannot label this map (e.g. CWOL beyond Z9)
        return
    version = data.draw(st.sampled_from(["3.7", "3.8"]))
    check_every_cell(s, version, scale=data.draw(st.sampled_from([12, 31, 40, 64])))


def natural_oblique(grid: dict[str, object]) -> st.SearchStrategy[dict[str, str]]:
    """An Avalon Hill numbering along the hexes' own slanted lines: 'minus'
    with the grid's parity, or 'plus' with the other."""
    other = {"odd": "even", "even": "odd"}
    axis_ = "row" if grid["orientation"] == "flat" else "col"
    return st.sampled_from([{"axis": axis_, "direction": "minus", "parity": str(grid["parity"])},
                            {"axis": axis_, "direction": "plus", "parity": other[str(grid["parity"])]}])


HEXES = st.builds(lambda w, h, o, p: {"kind": "hex", "width": w, "height": h, "orientation": o, "parity": p},
                  st.integers(1, 20), st.integers(1, 20), st.sampled_from(["flat", "pointy"]),
                  st.sampled_from(["odd", "even"]))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_oblique_numbering_is_exact_for_vassal_3_8(data: st.DataObject) -> None:
    grid = data.draw(HEXES)
    ob = data.draw(natural_oblique(grid))
    start = data.draw(st.integers(20, 40))  # slanted indexes go below the first row's
    num = {"scheme": "axes", "col": {"style": "number", "start": start, "width": 2},
           "row": {"style": "number", "start": start, "width": 2}, "first": "col", "separator": "",
           "oblique": ob}
    s = new_scenario("oblique", grid, num)
    check_every_cell(s, "3.8")
    plan = plan_module(s, 40, "3.8")
    assert plan.numbering is not None and plan.numbering.cls.endswith("ObliqueHexGridNumbering")


def afrika_korps_like() -> Scenario:
    return new_scenario("oblique", {"kind": "hex", "width": 12, "height": 9, "orientation": "flat", "parity": "odd"},
                        {"scheme": "axes", "col": {"style": "letters", "start": 0},
                         "row": {"style": "number", "start": 10}, "first": "col", "separator": "",
                         "oblique": {"axis": "row", "direction": "minus", "parity": "odd"}})


def test_oblique_for_3_7_is_the_nearest_plain_scheme_with_a_warning() -> None:
    s = afrika_korps_like()
    plan = plan_module(s, 40, "3.7")
    assert plan.numbering is not None and plan.numbering.cls.endswith(".HexGridNumbering")
    assert plan.mismatches > 0
    assert any("no oblique hex numbering" in w and "3.8.0" in w for w in plan.warnings)
    assert any(f"{plan.mismatches} of {s.map.grid.size} cells" in w for w in plan.warnings)
    # the straight rows it writes instead: VASSAL's name is the plain label
    board = Board(build_xml(plan), (plan.width, plan.height))
    x, y = plan.centre(Cell(3, 4))
    assert board.location_name(round(x), round(y)) == "D14"
    check_every_cell(s, "3.8")


def test_an_oblique_scheme_vassal_cannot_slant_is_written_plain_with_the_reason() -> None:
    s = new_scenario("oblique", {"kind": "hex", "width": 6, "height": 6, "orientation": "flat", "parity": "odd"},
                     {"scheme": "axes", "col": {"style": "number", "start": 10},
                      "row": {"style": "number", "start": 10}, "first": "col", "separator": "-",
                      "oblique": {"axis": "row", "direction": "plus", "parity": "odd"}})
    plan = plan_module(s, 40, "3.8")
    assert plan.mismatches > 0 and any("do not run along the hexes" in w for w in plan.warnings)


def test_spreadsheet_letters_are_named_as_a_difference() -> None:
    s = new_scenario("alpha", {"kind": "square", "width": 30, "height": 3, "neighbours": 8},
                     {"scheme": "axes", "col": {"style": "alpha", "start": 0}, "row": {"style": "number", "start": 1},
                      "first": "col", "separator": ""})
    plan = plan_module(s, 20, "3.7")
    assert any("spreadsheet letters" in w for w in plan.warnings)
    assert plan.mismatches == 3 * 3  # columns AB, AC, AD (VASSAL: BB, CC, DD); A..Z and AA agree


def test_separator_text_is_kept_literally() -> None:
    for sep in ["$", "'", "\\", ""]:
        s = new_scenario("sep", {"kind": "square", "width": 3, "height": 3, "neighbours": 8},
                         {"scheme": "axes", "col": {"style": "number", "start": 1},
                          "row": {"style": "letters", "start": 0}, "first": "col", "separator": sep})
        check_every_cell(s, "3.7")


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_oblique_boards_an_even_number_of_lines_wide_keep_every_label(orientation: str) -> None:
    flat = orientation == "flat"
    s = new_scenario("boards", {"kind": "hex", "width": 8, "height": 8, "orientation": orientation, "parity": "odd"},
                     {"scheme": "axes", "col": {"style": "number", "start": 10, "width": 2},
                      "row": {"style": "number", "start": 10, "width": 2}, "first": "col", "separator": "",
                      "oblique": {"axis": "row" if flat else "col", "direction": "minus", "parity": "odd"},
                      "boards": {"cols": 4, "rows": 4, "across": 2}})
    check_every_cell(s, "3.8")
    plan = plan_module(s, 40, "3.8")
    assert len(plan.zones) == 4 and all(z.numbering.cls.endswith("ObliqueHexGridNumbering") for z in plan.zones)
