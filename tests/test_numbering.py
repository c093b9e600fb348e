"""The ``axes`` numbering (issue 20, item 4; engine/numbering.py): every
scheme the designer offers round-trips every cell of 100 × 100 maps of both
grid kinds, its corner labels are the ones written here, bad settings and
bad labels are refused naming what is wrong, and random settings
round-trip too (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import Cell, HexGrid, SquareGrid
from engine.labels import LabelError
from engine.numbering import AxesNumbering, Axis, Boards, Oblique, numbering_from_dict

N = 100
SCHEMES: dict[str, tuple[dict[str, Any], dict[tuple[int, int], str]]] = {
    # name: (the file's numbering object, corner labels)
    "GITM numeric": ({"scheme": "numeric"}, {(0, 0): "1-1", (99, 0): "100-1", (99, 99): "100-100"}),
    "CWOL": ({"scheme": "cwol"}, {(0, 0): "A0-A0", (99, 0): "J9-A0", (99, 99): "J9-J9"}),
    "CCRR from 00": ({"scheme": "ccrr", "first": 0, "digits": 2}, {(0, 0): "0000", (99, 0): "9900", (0, 99): "0099"}),
    "Squad Leader (lettered columns, doubled)": (
        {"scheme": "axes", "col": {"style": "letters", "start": 0}, "row": {"style": "number", "start": 1}},
        {(0, 0): "A1", (26, 0): "AA1", (99, 0): "VVVV1", (0, 99): "A100"}),
    "spreadsheet columns, rows counted up from the bottom": (
        {"scheme": "axes", "col": {"style": "alpha", "start": 0},
         "row": {"style": "number", "start": 1, "descending": True, "count": N}, "separator": "-"},
        {(0, 0): "A-100", (0, 99): "A-1", (26, 0): "AA-100", (99, 99): "CV-1"}),
    "row first, three digits then letters": (
        {"scheme": "axes", "first": "row", "row": {"style": "number", "start": 0, "width": 3},
         "col": {"style": "alpha", "start": 0}},
        {(0, 0): "000A", (99, 0): "000CV", (0, 99): "099A"}),
    "Avalon Hill oblique, rows slanting down": (
        {"scheme": "axes", "col": {"style": "alpha", "start": 0}, "row": {"style": "number", "start": 1},
         "oblique": {"axis": "row", "direction": "plus", "parity": "odd"}},
        {(0, 0): "A1", (1, 0): "B1", (2, 0): "C2", (3, 0): "D2", (99, 99): "CV149"}),
    "Avalon Hill oblique, rows slanting up": (
        {"scheme": "axes", "col": {"style": "alpha", "start": 0}, "row": {"style": "number", "start": 50},
         "oblique": {"axis": "row", "direction": "minus", "parity": "even"}},
        {(0, 0): "A50", (1, 0): "B49", (2, 0): "C49", (99, 0): "CV0"}),
    "boards of 10 x 10, A0101": (
        {"scheme": "axes", "col": {"style": "number", "start": 1, "width": 2},
         "row": {"style": "number", "start": 1, "width": 2}, "boards": {"cols": 10, "rows": 10, "across": 10}},
        {(0, 0): "A0101", (10, 0): "B0101", (9, 9): "A1010", (0, 10): "K0101", (99, 99): "CV1010"}),
}
GRIDS = {"square": SquareGrid(N, N), "flat odd hexes": HexGrid(N, N, "flat", "odd"),
         "pointy even hexes": HexGrid(N, N, "pointy", "even")}


@pytest.mark.parametrize("grid", list(GRIDS), ids=list(GRIDS))
@pytest.mark.parametrize("name", list(SCHEMES), ids=list(SCHEMES))
def test_every_cell_round_trips(name: str, grid: str) -> None:
    data, corners = SCHEMES[name]
    num = numbering_from_dict(data)
    g = GRIDS[grid]
    num.check_fits(g.width, g.height)
    seen: dict[str, Cell] = {}
    for row in range(g.height):
        for col in range(g.width):
            cell = Cell(col, row)
            text = num.label(cell)
            assert num.parse(text) == cell, (text, cell)
            assert text not in seen, (text, cell, seen.get(text))
            seen[text] = cell
    for (c, r), text in corners.items():
        assert num.label(Cell(c, r)) == text
    assert numbering_from_dict(num.to_dict()).to_dict() == num.to_dict()


@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_oblique_numbers_follow_a_hex_axis(orientation: str, parity: str) -> None:
    """On the slanted axis one number names one straight line of hexes: two
    hexes with the same oblique number and neighbouring straight indexes
    are neighbours on the grid (the axial coordinate of its offset layout)."""
    g = HexGrid(12, 12, orientation, parity)
    axis = "row" if orientation == "flat" else "col"
    num = AxesNumbering(Axis("number", 100, 0), Axis("number", 100, 0), separator="-",
                        oblique=Oblique(axis, "minus", parity))
    by_label = {num.label(Cell(c, r)): Cell(c, r) for c in range(12) for r in range(12)}
    pairs = 0
    for text, cell in by_label.items():
        a, b = (int(x) for x in text.split("-"))
        nxt = f"{a + 1}-{b}" if axis == "row" else f"{a}-{b + 1}"
        if nxt in by_label:
            assert by_label[nxt] in g.neighbours(cell), (text, nxt)
            pairs += 1
    assert pairs > 50


@pytest.mark.parametrize(("data", "words"), [
    ({"scheme": "axes", "col": {"style": "number"}, "row": {"style": "number"}}, "more than one way"),
    ({"scheme": "axes", "col": {"style": "letters"}, "row": {"style": "alpha"}, }, "more than one way"),
    ({"scheme": "axes", "col": {"style": "roman"}}, "style must be one of"),
    ({"scheme": "axes", "col": {"style": "number", "descending": True}, "separator": "-"}, "needs its count"),
    ({"scheme": "axes", "separator": "x"}, "neither letters nor digits"),
    ({"scheme": "axes", "col": {"style": "letters"}, "boards": {"cols": 5, "rows": 5, "across": 2}},
     "board name followed by letters"),
    ({"scheme": "axes", "colour": 3}, "unknown field"),
    ({"scheme": "axes", "oblique": {"axis": "diagonal"}, "separator": "-"}, "oblique"),
])
def test_bad_settings_are_refused_naming_what(data: dict[str, Any], words: str) -> None:
    with pytest.raises(LabelError, match=words):
        numbering_from_dict(data)


def test_a_map_the_settings_cannot_label_is_refused() -> None:
    num = numbering_from_dict({"scheme": "axes", "col": {"style": "number", "width": 2, "start": 1},
                               "row": {"style": "number", "width": 2, "start": 1}})
    num.check_fits(99, 99)
    with pytest.raises(LabelError, match="more than 2 digits"):
        num.check_fits(100, 10)
    ob = numbering_from_dict(SCHEMES["Avalon Hill oblique, rows slanting up"][0])
    with pytest.raises(LabelError, match="negative"):
        ob.check_fits(120, 10)
    bd = numbering_from_dict({**SCHEMES["boards of 10 x 10, A0101"][0],
                              "boards": {"cols": 10, "rows": 10, "across": 2, "names": ["A", "B"]}})
    with pytest.raises(LabelError, match="boards but 2 are named"):
        bd.check_fits(20, 11)


@pytest.mark.parametrize("text", ["", "1", "A", "A0", "AB1", "a 1", "1A", "A01"])
def test_bad_labels_are_refused(text: str) -> None:
    num = numbering_from_dict(SCHEMES["Squad Leader (lettered columns, doubled)"][0])
    with pytest.raises(LabelError):
        cell = num.parse(text)
        assert cell.col >= 0 and text == num.label(cell)  # only a canonical label may pass


def test_labels_read_in_any_case() -> None:
    num = numbering_from_dict(SCHEMES["boards of 10 x 10, A0101"][0])
    assert num.parse("b0101") == Cell(10, 0)


axes = st.builds(Axis, st.sampled_from(["number", "letters", "alpha"]), st.integers(0, 30), st.integers(0, 4),
                 st.booleans(), st.just(40))


@settings(max_examples=150, deadline=None)
@given(col=axes, row=axes, first=st.sampled_from(["col", "row"]), sep=st.sampled_from(["", "-", ".", " / "]),
       oblique=st.none() | st.builds(Oblique, st.sampled_from(["col", "row"]), st.sampled_from(["plus", "minus"]),
                                      st.sampled_from(["odd", "even"])),
       boards=st.none() | st.builds(Boards, st.integers(1, 12), st.integers(1, 12), st.integers(1, 5)))
def test_random_settings_round_trip_or_are_refused(col: Axis, row: Axis, first: str, sep: str,
                                                   oblique: Oblique | None, boards: Boards | None) -> None:
    try:
        num = AxesNumbering(col, row, first, sep, oblique, boards)
    except LabelError:
        return
    for r in range(0, 40, 3):
        for c in range(0, 40, 3):
            cell = Cell(c, r)
            try:
                text = num.label(cell)
            except LabelError:
                continue  # a cell the settings cannot label (negative, too many digits, off the boards)
            assert num.parse(text) == cell, (num.to_dict(), cell, text)
