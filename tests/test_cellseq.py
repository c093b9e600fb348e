"""app/gui/overlay.CellSeq: cells held as arrays behave as the tuple of
Cells they stand for (length, indexing, slicing, iteration, membership,
equality and hashing), and a bad pair of arrays is refused."""

from __future__ import annotations

import numpy as np
import pytest

from app.gui.overlay import CellMarks, CellSeq
from engine.grids import Cell


def test_a_cellseq_is_its_cells() -> None:
    cells = (Cell(3, 4), Cell(5, 6), Cell(0, 0), Cell(5, 6))
    seq = CellSeq(np.array([c.col for c in cells]), np.array([c.row for c in cells]))
    assert len(seq) == 4 and seq[1] == Cell(5, 6) and seq[-1] == Cell(5, 6)
    assert list(seq) == list(cells) and tuple(seq[1:3]) == cells[1:3]
    assert Cell(0, 0) in seq and Cell(4, 3) not in seq and "0-0" not in seq
    assert seq == CellSeq(np.array([3, 5, 0, 5]), np.array([4, 6, 0, 6])) and seq == list(cells)
    assert seq != CellSeq(np.array([3, 5, 0, 5]), np.array([4, 6, 0, 7]))
    assert hash(seq) == hash(CellSeq(np.array([3, 5, 0, 5]), np.array([4, 6, 0, 6])))
    empty = CellSeq(np.array([], np.int64), np.array([], np.int64))
    assert not empty and list(empty) == []
    marks = CellMarks(seq, fill="#ff000080", tooltip="checked", label=lambda c: f"{c.col}-{c.row}")
    assert marks.mark(seq[0]).tooltip == "3-4: checked"


def test_columns_and_rows_must_pair() -> None:
    with pytest.raises(ValueError, match="3 columns for 2 rows"):
        CellSeq(np.array([1, 2, 3]), np.array([1, 2]))
