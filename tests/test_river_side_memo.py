"""The grid-map loader remembers whether two cells share a side by the
first cell's column and row parity and the offset between them
(engine/io/grid.py): on square and hex grids that answer is the same
wherever the pair lies on the map."""

from __future__ import annotations

import pytest

from engine.grids import Cell, HexGrid, Orientation, SquareGrid

GRIDS = [SquareGrid(9, 9), SquareGrid(9, 9, 8)] + [
    HexGrid(9, 9, o, p) for o in (Orientation.FLAT, Orientation.POINTY) for p in ("odd", "even")]


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: type(g).__name__ + str(getattr(g, "orientation", "")))
def test_shares_side_depends_on_parity_and_offset_only(grid) -> None:
    seen: dict[tuple[int, int, int, int], bool] = {}
    for ac in range(1, 8):
        for ar in range(1, 8):
            for dc in (-2, -1, 0, 1, 2):
                for dr in (-2, -1, 0, 1, 2):
                    a, b = Cell(ac, ar), Cell(ac + dc, ar + dr)
                    got = grid.shares_side(a, b)
                    assert seen.setdefault((ac & 1, ar & 1, dc, dr), got) == got, (a, b)
    assert any(seen.values()) and not all(seen.values())
