"""Coordinate labels: round trips and the schemes' own examples."""

from __future__ import annotations

import pytest

from engine.grids import Cell
from engine.labels import CcrrNumbering, CwolNumbering, LabelError, NumericNumbering
from engine.numbering import numbering_from_dict


def test_cwol_round_trip_over_every_cell_of_260x260() -> None:
    n = CwolNumbering()
    seen = set()
    for row in range(260):
        for col in range(260):
            c = Cell(col, row)
            text = n.label(c)
            assert n.parse(text) == c
            seen.add(text)
    assert len(seen) == 260 * 260
    assert n.label(Cell(0, 0)) == "A0-A0"
    assert n.label(Cell(259, 259)) == "Z9-Z9"


@pytest.mark.parametrize("label,col,row", [
    ("E6-Y4", 46, 244),  # Mobile
    ("E4-X4", 44, 234),  # Columbus MS
    ("E3-X2", 43, 232),  # Meridian MS
    ("D6-X3", 36, 233),  # Jackson MS
    ("E4-V4", 44, 214),  # Corinth MS
    ("D8-W0", 38, 220),
])
def test_cwol_document_labels(label: str, col: int, row: int) -> None:
    assert CwolNumbering().parse(label) == Cell(col, row)
    # a map cut out of the big map keeps its labels
    cut = CwolNumbering(first_col=30, first_row=200)
    assert cut.parse(label) == Cell(col - 30, row - 200)
    assert cut.label(Cell(col - 30, row - 200)) == label


def test_cwol_rejects() -> None:
    n = CwolNumbering(first_col=10)
    for bad in ["E6Y4", "E66-Y4", "6E-Y4", "", "E6-Y", "É6-Y4"]:
        with pytest.raises(LabelError):
            n.parse(bad)
    with pytest.raises(LabelError, match="before this map's first square"):
        n.parse("A5-A0")
    with pytest.raises(LabelError):
        CwolNumbering().label(Cell(260, 0))
    assert n.parse("e6-y4") == Cell(36, 244)  # case-insensitive input


def test_ccrr_round_trip_over_60x60() -> None:
    n = CcrrNumbering()
    for row in range(60):
        for col in range(60):
            c = Cell(col, row)
            assert n.parse(n.label(c)) == c
    assert n.label(Cell(0, 0)) == "0101"
    assert n.label(Cell(11, 14)) == "1215"


@pytest.mark.parametrize("kwargs,cell,text", [
    ({"order": "row-col"}, Cell(11, 14), "1512"),
    ({"first": 0}, Cell(0, 0), "0000"),
    ({"digits": 3}, Cell(104, 7), "105008"),
    ({"separator": "."}, Cell(2, 3), "03.04"),
])
def test_ccrr_options(kwargs: dict[str, object], cell: Cell, text: str) -> None:
    n = CcrrNumbering(**kwargs)  # type: ignore[arg-type]
    assert n.label(cell) == text
    assert n.parse(text) == cell


def test_ccrr_refuses_what_it_cannot_label() -> None:
    with pytest.raises(LabelError):
        CcrrNumbering().label(Cell(99, 0))  # column 100 needs 3 digits
    with pytest.raises(LabelError):
        CcrrNumbering().check_fits(120, 10)
    with pytest.raises(LabelError):
        CcrrNumbering().parse("101")


def test_numeric_as_gitm_writes_it() -> None:
    n = NumericNumbering()
    assert n.parse("3-1") == Cell(2, 0)
    assert n.label(Cell(2, 0)) == "3-1"
    assert n.parse("11-4") == Cell(10, 3)
    for row in range(40):
        for col in range(40):
            assert n.parse(n.label(Cell(col, row))) == Cell(col, row)
    zero = NumericNumbering(first=0, separator=",", order="row-col")
    assert zero.label(Cell(5, 2)) == "2,5"
    assert zero.parse("2,5") == Cell(5, 2)
    with pytest.raises(LabelError):
        n.parse("0-1")  # numbering starts at 1
    with pytest.raises(LabelError):
        n.parse("3.1")


@pytest.mark.parametrize("scheme", [NumericNumbering(first=0), CwolNumbering(3, 4), CcrrNumbering(digits=3)])
def test_numbering_dict_round_trip(scheme: object) -> None:
    d = scheme.to_dict()  # type: ignore[attr-defined]
    again = numbering_from_dict(d)
    assert again.to_dict() == d


def test_unknown_scheme_and_bad_options_are_clear() -> None:
    with pytest.raises(LabelError, match="unknown numbering scheme"):
        numbering_from_dict({"scheme": "letters"})
    with pytest.raises(LabelError, match="bad option"):
        numbering_from_dict({"scheme": "cwol", "digits": 2})
