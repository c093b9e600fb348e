"""The river tool's strokes (issue 18, item 7): which sides a drag lays is
decided by :func:`engine.editing.shapes.river_walk`, corner to corner, so
consecutive sides always share a corner, on square grids and both hex
orientations."""

from __future__ import annotations

import pytest

from engine.editing.shapes import corner_sides, nearest_corner, river_walk
from engine.grids import Cell, Edge, Grid
from engine.grids.hexgrid import HexGrid
from engine.grids.square import SquareGrid


def E(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    return Edge.between(Cell(*a), Cell(*b))


def joined(grid: Grid, edges: list[Edge]) -> bool:
    """Whether each side shares an end with the next (as drawn at size 10)."""
    layout = grid.make_layout(10)
    ends = [set(layout.edge_segment(e)) for e in edges]
    return all(any(abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6 for p in a for q in b)
               for a, b in zip(ends, ends[1:], strict=False))


GRIDS = {
    "square": lambda: SquareGrid(6, 6),
    "flat": lambda: HexGrid(6, 6, "flat", "odd"),
    "pointy": lambda: HexGrid(6, 6, "pointy", "odd"),
}

# A drag from the centre of cell (2, 1) to the centre of cell (2, 4): down a column.
DOWN_A_COLUMN = {
    "square": [E((1, 1), (2, 1)), E((1, 2), (2, 2)), E((1, 3), (2, 3))],
    "flat": [E((1, 1), (2, 1)), E((1, 1), (2, 2)), E((1, 2), (2, 2)), E((1, 2), (2, 3)), E((1, 3), (2, 3))],
    "pointy": [E((1, 1), (2, 1)), E((2, 1), (2, 2)), E((2, 2), (3, 2)), E((2, 2), (2, 3)), E((1, 3), (2, 3))],
}


@pytest.mark.parametrize("kind", sorted(GRIDS))
def test_a_drag_down_a_column_lays_joined_sides(kind: str) -> None:
    grid = GRIDS[kind]()
    layout = grid.make_layout(10)
    a, b = layout.center(Cell(2, 1)), layout.center(Cell(2, 4))
    start = nearest_corner(layout, grid, *a)
    assert start is not None
    end, edges = river_walk(layout, grid, start, a, b)
    assert edges == DOWN_A_COLUMN[kind]
    assert joined(grid, edges)
    assert end in layout.edge_segment(edges[-1])


def test_a_drag_along_a_grid_line_lays_that_line_only() -> None:
    grid = SquareGrid(6, 6)
    layout = grid.make_layout(10)
    # along x = 20, wobbling a little either side of the line: no stubs
    start = nearest_corner(layout, grid, 20.5, 10.5)
    assert start == (20.0, 10.0)
    corner, edges = river_walk(layout, grid, start, (20.5, 10.5), (19.0, 25.0))
    corner, more = river_walk(layout, grid, corner, (19.0, 25.0), (21.0, 39.5))
    assert edges + more == [E((1, 1), (2, 1)), E((1, 2), (2, 2)), E((1, 3), (2, 3))]
    assert corner == (20.0, 40.0)
    # and along the horizontal line y = 30
    corner, edges = river_walk(layout, grid, (10.0, 30.0), (10.0, 30.0), (50.0, 31.0))
    assert edges == [E((c, 2), (c, 3)) for c in (1, 2, 3, 4)]


@pytest.mark.parametrize("kind", sorted(GRIDS))
def test_a_fast_mouse_has_the_skipped_sides_filled_in(kind: str) -> None:
    grid = GRIDS[kind]()
    layout = grid.make_layout(10)
    a, b = layout.center(Cell(1, 1)), layout.center(Cell(4, 4))
    start = nearest_corner(layout, grid, *a)
    assert start is not None
    # one mouse event across the map: a chain, not scattered sides
    _, edges = river_walk(layout, grid, start, b, b)
    assert len(edges) >= 3 and joined(grid, edges)
    assert len(set(edges)) == len(edges)


@pytest.mark.parametrize("kind", sorted(GRIDS))
def test_corner_sides_are_the_sides_meeting_there(kind: str) -> None:
    grid = GRIDS[kind]()
    layout = grid.make_layout(10)
    inner = 4 if kind == "square" else 3
    for cell in (Cell(2, 2), Cell(3, 3)):
        for p in layout.corners(cell):
            sides = corner_sides(layout, grid, p)
            assert len(sides) == inner
            for e, q in sides:
                assert set(layout.edge_segment(e)) >= {q}
    # at a corner of the map only the on-map sides
    assert nearest_corner(layout, grid, -5, -5) is None


def test_a_one_cell_map_has_no_corner_to_start_from() -> None:
    grid = SquareGrid(1, 1)
    layout = grid.make_layout(10)
    assert nearest_corner(layout, grid, 5, 5) is None
