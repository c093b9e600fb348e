"""Geometry and topology tables for square and hex grids."""

from __future__ import annotations

import itertools
import math
from collections import deque

import numpy as np
import pytest

from engine.grids import (
    Cell,
    Edge,
    FractionalHex,
    Grid,
    GridError,
    Hex,
    HexGrid,
    SquareGrid,
    cube_round_arrays,
    step_class,
)

# --- hex neighbour tables (Red Blob Games, "offset coordinates"), in the
# direction order of HEX_DIRECTIONS: +q, +q-r, -r, -q, -q+r, +r.
HEX_TABLES = {
    ("flat", "odd"): {0: [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
                      1: [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)]},
    ("flat", "even"): {0: [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)],
                       1: [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)]},
    ("pointy", "odd"): {0: [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
                        1: [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)]},
    ("pointy", "even"): {0: [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
                         1: [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)]},
}
HEX_CONFIGS = list(HEX_TABLES)


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
@pytest.mark.parametrize("cell", [Cell(2, 2), Cell(3, 3), Cell(2, 3), Cell(3, 2)])
def test_hex_neighbours_match_offset_tables(orientation: str, parity: str, cell: Cell) -> None:
    g = HexGrid(8, 8, orientation, parity)
    axis = cell.col if orientation == "flat" else cell.row
    want = [Cell(cell.col + dc, cell.row + dr) for dc, dr in HEX_TABLES[(orientation, parity)][axis & 1]]
    assert g.neighbours(cell) == want


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_hex_neighbours_are_one_hex_apart_on_screen(orientation: str, parity: str) -> None:
    g = HexGrid(7, 6, orientation, parity)
    lay = g.make_layout(10.0)
    for c in g.cells():
        cx, cy = lay.center(c)
        for n in g.neighbours(c):
            nx, ny = lay.center(n)
            assert math.hypot(nx - cx, ny - cy) == pytest.approx(10.0 * math.sqrt(3))
            assert g.distance(c, n) == 1


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_hex_corner_cells_neighbour_counts(orientation: str, parity: str) -> None:
    g = HexGrid(5, 5, orientation, parity)
    assert len(g.neighbours(Cell(2, 2))) == 6
    assert all(2 <= len(g.neighbours(c)) <= 3 for c in g.corner_cells().values())


def _bfs(grid: HexGrid | SquareGrid, start: Cell) -> dict[Cell, int]:
    dist = {start: 0}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for n in grid.neighbours(c):
            if n not in dist:
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


@pytest.mark.parametrize("grid", [HexGrid(9, 7, o, p) for o, p in HEX_CONFIGS]
                         + [SquareGrid(9, 7, 4), SquareGrid(9, 7, 8)], ids=lambda g: str(g.to_dict()))
def test_distance_equals_breadth_first_steps(grid: HexGrid | SquareGrid) -> None:
    for start in (Cell(0, 0), Cell(4, 3), Cell(8, 6), Cell(3, 5)):
        for cell, steps in _bfs(grid, start).items():
            assert grid.distance(start, cell) == steps, (start, cell)


@pytest.mark.parametrize("a,b,d4,d8", [
    (Cell(0, 0), Cell(3, 4), 7, 4),
    (Cell(5, 5), Cell(5, 5), 0, 0),
    (Cell(2, 7), Cell(6, 1), 10, 6),
])
def test_square_distances(a: Cell, b: Cell, d4: int, d8: int) -> None:
    assert SquareGrid(10, 10, 4).distance(a, b) == d4
    assert SquareGrid(10, 10, 8).distance(a, b) == d8


def test_square_neighbour_order_and_clipping() -> None:
    g4, g8 = SquareGrid(5, 5, 4), SquareGrid(5, 5, 8)
    c = Cell(2, 2)
    assert g4.neighbours(c) == [Cell(2, 1), Cell(3, 2), Cell(2, 3), Cell(1, 2)]
    assert g8.neighbours(c)[4:] == [Cell(3, 1), Cell(3, 3), Cell(1, 3), Cell(1, 1)]
    assert g8.neighbours(Cell(0, 0)) == [Cell(1, 0), Cell(0, 1), Cell(1, 1)]
    # links may join diagonal neighbours even on a 4-neighbour grid
    assert g4.can_link(Cell(0, 0), Cell(1, 1))
    assert not g4.can_link(Cell(0, 0), Cell(2, 2))


def test_edges_are_canonical() -> None:
    g = SquareGrid(4, 4, 8)
    a, b = Cell(1, 1), Cell(1, 2)
    assert g.edge(a, b) == g.edge(b, a) == Edge(a, b)
    assert len({g.edge(a, b), g.edge(b, a)}) == 1
    with pytest.raises(GridError):
        g.edge(Cell(1, 1), Cell(2, 2))  # diagonal: a corner, not a side
    h = HexGrid(4, 4)
    for c in h.cells():
        for n in h.neighbours(c):
            assert h.edge(c, n) == h.edge(n, c)
            assert Edge.between(c, n).other(c) == n
    assert len(h.edges_of(Cell(1, 1))) == 6


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_hex_edge_segment_is_shared_by_both_cells(orientation: str, parity: str) -> None:
    g = HexGrid(6, 6, orientation, parity)
    lay = g.make_layout(20.0)
    for c in g.cells():
        for n in g.neighbours(c):
            p, q = lay.edge_segment(g.edge(c, n))
            mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            ca, cb = lay.center(c), lay.center(n)
            assert mid == pytest.approx(((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2))
            assert math.dist(p, q) == pytest.approx(20.0)


def test_square_edge_segments() -> None:
    lay = SquareGrid(4, 4).make_layout(10)
    assert lay.edge_segment(Edge.between(Cell(1, 1), Cell(2, 1))) == ((20.0, 10.0), (20.0, 20.0))
    assert lay.edge_segment(Edge.between(Cell(1, 1), Cell(1, 0))) == ((10.0, 10.0), (20.0, 10.0))


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_hex_picking_at_centres_and_near_corners(orientation: str, parity: str) -> None:
    g = HexGrid(7, 7, orientation, parity)
    lay = g.make_layout(12.0)
    for c in g.cells():
        cx, cy = lay.center(c)
        assert lay.pick(cx, cy) == c
        for px, py in lay.corners(c):
            # 95 % of the way from the centre to each corner is still inside
            assert lay.pick(cx + 0.95 * (px - cx), cy + 0.95 * (py - cy)) == c
        for n in g.neighbours(c):
            nx, ny = lay.center(n)
            # just across the shared side is the neighbour
            assert lay.pick(cx + 0.52 * (nx - cx), cy + 0.52 * (ny - cy)) == n


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_hex_layout_starts_at_origin_and_bounds_cover_every_corner(orientation: str, parity: str) -> None:
    g = HexGrid(6, 5, orientation, parity)
    lay = g.make_layout(10.0)
    pts = [p for c in g.cells() for p in lay.corners(c)]
    w, h = lay.bounds()
    assert min(x for x, _ in pts) == pytest.approx(0.0, abs=1e-9)
    assert min(y for _, y in pts) == pytest.approx(0.0, abs=1e-9)
    assert max(x for x, _ in pts) == pytest.approx(w)
    assert max(y for _, y in pts) == pytest.approx(h)


def test_square_picking_and_corners() -> None:
    lay = SquareGrid(5, 5).make_layout(10)
    assert lay.pick(0.1, 0.1) == Cell(0, 0)
    assert lay.pick(49.9, 9.9) == Cell(4, 0)
    assert lay.pick(10.0, 10.0) == Cell(1, 1)
    assert lay.pick(-0.1, 5) == Cell(-1, 0)
    assert lay.corners(Cell(1, 2)) == [(10.0, 20.0), (20.0, 20.0), (20.0, 30.0), (10.0, 30.0)]
    assert lay.center(Cell(1, 2)) == (15.0, 25.0)


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_offset_cube_round_trip_and_invariant(orientation: str, parity: str) -> None:
    g = HexGrid(11, 9, orientation, parity)
    for c in g.cells():
        h = g.to_hex(c)
        assert h.q + h.r + h.s == 0
        assert g.to_cell(h) == c


def test_hex_invariant_is_checked() -> None:
    with pytest.raises(GridError):
        Hex(1, 1, 1)
    assert Hex.axial(2, -1) == Hex(2, -1, -1)
    assert Hex(3, -1, -2).length() == 3


def test_hex_within_is_a_disc_not_a_square() -> None:
    g = HexGrid(11, 11)
    centre = Cell(5, 5)
    disc = g.within(centre, 2)
    assert len(disc) == 19  # 1 + 6 + 12
    assert all(g.distance(centre, c) <= 2 for c in disc)
    assert len(g.within(Cell(0, 0), 1)) == len(g.neighbours(Cell(0, 0))) + 1


def test_invalid_grids_are_refused() -> None:
    with pytest.raises(GridError):
        SquareGrid(0, 5)
    with pytest.raises(GridError):
        HexGrid(3, 3, "round", "odd")
    with pytest.raises(GridError):
        SquareGrid(3, 3, 6)  # type: ignore[arg-type]


def test_can_link_matches_link_neighbours() -> None:
    for g in [SquareGrid(5, 4, 4), SquareGrid(5, 4, 8)] + [HexGrid(5, 4, o, p) for o, p in HEX_CONFIGS]:
        for a in g.cells():
            for dc in (-2, -1, 0, 1, 2):
                for dr in (-2, -1, 0, 1, 2):
                    b = Cell(a.col + dc, a.row + dr)
                    assert g.can_link(a, b) == (b in g.link_neighbours(a)), (g.to_dict(), a, b)


# --- the kind-specific math behind the Grid interface -------------------------

ALL_GRIDS = [SquareGrid(9, 7, 4), SquareGrid(9, 7, 8)] + [HexGrid(9, 7, o, p) for o, p in HEX_CONFIGS]


@pytest.mark.parametrize("orientation,parity", HEX_CONFIGS)
def test_hex_step_table_matches_offset_tables(orientation: str, parity: str) -> None:
    table = HexGrid(4, 4, orientation, parity).neighbour_step_table()
    for col in (0, 1):
        for row in (0, 1):
            axis = col if orientation == "flat" else row
            assert list(table[step_class(col, row)]) == HEX_TABLES[(orientation, parity)][axis & 1]


@pytest.mark.parametrize("neighbours,steps", [
    (4, [(0, -1), (1, 0), (0, 1), (-1, 0)]),
    (8, [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)]),
])
def test_square_step_tables(neighbours: int, steps: list[tuple[int, int]]) -> None:
    g = SquareGrid(3, 3, neighbours)  # type: ignore[arg-type]
    assert all(list(row) == steps for row in g.neighbour_step_table())
    eight = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)]
    assert all(list(row) == eight for row in g.link_step_table())


@pytest.mark.parametrize("col,row,klass", [(0, 0, 0), (1, 0, 1), (0, 1, 2), (1, 1, 3), (6, 3, 2), (-1, -2, 1)])
def test_step_class(col: int, row: int, klass: int) -> None:
    assert step_class(col, row) == klass


@pytest.mark.parametrize("grid", ALL_GRIDS, ids=lambda g: str(g.to_dict()))
def test_step_tables_give_the_neighbours_and_link_neighbours(grid: Grid) -> None:
    for c in grid.cells():
        steps = grid.neighbour_step_table()[step_class(c.col, c.row)]
        on_map = [Cell(c.col + dc, c.row + dr) for dc, dr in steps]
        assert [n for n in on_map if grid.contains(n)] == grid.neighbours(c)
        links = [Cell(c.col + dc, c.row + dr) for dc, dr in grid.link_step_table()[step_class(c.col, c.row)]]
        assert [n for n in links if grid.contains(n)] == grid.link_neighbours(c)


# Red Blob's worked conversions: offset (col, row) -> axial (q, r)
AXIAL_TABLE = [
    (("flat", "odd"), Cell(3, 2), (3, 1)),
    (("flat", "odd"), Cell(0, 0), (0, 0)),
    (("flat", "odd"), Cell(1, 0), (1, 0)),
    (("flat", "even"), Cell(3, 2), (3, 0)),
    (("flat", "even"), Cell(1, 0), (1, -1)),
    (("pointy", "odd"), Cell(2, 3), (1, 3)),
    (("pointy", "odd"), Cell(0, 1), (0, 1)),
    (("pointy", "even"), Cell(2, 3), (0, 3)),
    (("pointy", "even"), Cell(0, 1), (-1, 1)),
]


@pytest.mark.parametrize("config,cell,axial", AXIAL_TABLE)
def test_offset_to_axial_table(config: tuple[str, str], cell: Cell, axial: tuple[int, int]) -> None:
    g = HexGrid(5, 5, *config)
    assert g.to_axial(cell) == axial
    assert g.from_axial(*axial) == cell
    q, r = g.offset_to_axial_arrays(np.array([cell.col]), np.array([cell.row]))
    assert (int(q[0]), int(r[0])) == axial


@pytest.mark.parametrize("grid", ALL_GRIDS, ids=lambda g: str(g.to_dict()))
@pytest.mark.parametrize("dtype", [np.int64, np.intp, np.int32])
def test_vectorised_conversions_agree_with_the_scalar_ones(grid: Grid, dtype: type) -> None:
    cc, rr = np.meshgrid(np.arange(-4, 13, dtype=dtype), np.arange(-5, 11, dtype=dtype))
    q, r = grid.offset_to_axial_arrays(cc, rr)
    assert q.dtype == dtype and r.dtype == dtype and q.shape == cc.shape
    for c, rw, qq, ra in zip(cc.ravel(), rr.ravel(), q.ravel(), r.ravel()):
        assert grid.to_axial(Cell(int(c), int(rw))) == (int(qq), int(ra))
    back_c, back_r = grid.axial_to_offset_arrays(q, r)
    assert np.array_equal(back_c, cc) and np.array_equal(back_r, rr)


def test_square_axial_is_column_and_row() -> None:
    g = SquareGrid(4, 4)
    assert g.to_axial(Cell(3, 1)) == (3, 1) and g.from_axial(-2, 5) == Cell(-2, 5)


@pytest.mark.parametrize("grid", ALL_GRIDS, ids=lambda g: str(g.to_dict()))
def test_side_structure_is_sharing_a_side_in_axial_steps(grid: Grid) -> None:
    structure = grid.side_structure()
    assert structure.shape == (3, 3) and structure[1, 1]
    for c in grid.cells():
        q, r = grid.to_axial(c)
        by_structure = {grid.from_axial(q + dq, r + dr)
                        for dq in (-1, 0, 1) for dr in (-1, 0, 1) if structure[dq + 1, dr + 1] and (dq, dr) != (0, 0)}
        sides = {n for n in by_structure if grid.contains(n)}
        assert sides == {n for n in grid.neighbours(c) if grid.shares_side(c, n)}


@pytest.mark.parametrize("grid,center,radius,count", [
    (SquareGrid(9, 9, 4), Cell(4, 4), 1, 5),     # Manhattan: a diamond
    (SquareGrid(9, 9, 4), Cell(4, 4), 2, 13),
    (SquareGrid(9, 9, 8), Cell(4, 4), 1, 9),     # Chebyshev: a square
    (SquareGrid(9, 9, 8), Cell(4, 4), 2, 25),
    (SquareGrid(9, 9, 8), Cell(0, 0), 1, 4),     # clipped at the corner
    (HexGrid(9, 9), Cell(4, 4), 1, 7),
    (HexGrid(9, 9, "pointy", "even"), Cell(4, 4), 3, 37),
    (HexGrid(9, 9), Cell(4, 4), 0, 1),
    (HexGrid(9, 9), Cell(-3, 4), 1, 0),          # wholly off the map
])
def test_disc_sizes(grid: Grid, center: Cell, radius: int, count: int) -> None:
    disc = grid.disc(center, radius)
    assert len(disc) == count == len(set(disc))
    assert all(grid.contains(c) and grid.distance(center, c) <= radius for c in disc)
    near = [c for c in grid.cells() if grid.distance(center, c) <= radius]
    assert sorted(disc) == sorted(near)


@pytest.mark.parametrize("grid", [SquareGrid(21, 21, 4), SquareGrid(21, 21, 8), HexGrid(21, 21), HexGrid(21, 21, "pointy", "odd")],
                         ids=lambda g: str(g.to_dict()))
def test_brush_sizes(grid: Grid) -> None:
    hex_counts = {1: 1, 2: 2, 3: 7, 4: 10, 5: 19, 6: 24, 7: 37, 8: 44, 9: 61}
    for size in range(1, 10):
        cells = grid.brush(Cell(10, 10), size)
        assert len(cells) == len(set(cells)) and cells == grid.brush(Cell(10, 10), size)
        assert len(cells) == (size * size if isinstance(grid, SquareGrid) else hex_counts[size])


@pytest.mark.parametrize("grid,a,b,want", [
    (SquareGrid(9, 9), Cell(0, 0), Cell(3, 1), [Cell(0, 0), Cell(1, 0), Cell(2, 1), Cell(3, 1)]),
    (SquareGrid(9, 9), Cell(2, 2), Cell(2, 2), [Cell(2, 2)]),
    (SquareGrid(9, 9), Cell(4, 4), Cell(1, 1), [Cell(4, 4), Cell(3, 3), Cell(2, 2), Cell(1, 1)]),
    (HexGrid(9, 9), Cell(0, 0), Cell(3, 0), [Cell(0, 0), Cell(1, 0), Cell(2, 0), Cell(3, 0)]),
    (HexGrid(9, 9), Cell(1, 1), Cell(1, 4), [Cell(1, 1), Cell(1, 2), Cell(1, 3), Cell(1, 4)]),
])
def test_line_table(grid: Grid, a: Cell, b: Cell, want: list[Cell]) -> None:
    assert grid.line(a, b) == want


@pytest.mark.parametrize("grid", ALL_GRIDS, ids=lambda g: str(g.to_dict()))
def test_lines_step_between_linkable_cells(grid: Grid) -> None:
    for a in grid.cells():
        for b in [Cell(0, 0), Cell(8, 6), Cell(3, 5)]:
            line = grid.line(a, b)
            assert line[0] == a and line[-1] == b
            # link-adjacent, though a line near a jagged edge may leave the map
            assert all((y.col - x.col, y.row - x.row) in grid.link_steps(x) for x, y in itertools.pairwise(line))
            if isinstance(grid, HexGrid):
                assert len(line) == grid.distance(a, b) + 1


def test_cube_round_arrays_agrees_with_fractional_hex_round() -> None:
    rng = np.random.default_rng(7)
    for dtype in (np.float32, np.float64):
        q = rng.uniform(-20, 20, 5000).astype(dtype)
        r = rng.uniform(-20, 20, 5000).astype(dtype)
        s = -q - r
        rq, rr = cube_round_arrays(q, r, s)
        assert rq.dtype == dtype
        for i in range(0, 5000, 7):
            h = FractionalHex(float(q[i]), float(r[i]), float(s[i])).round()
            assert (h.q, h.r) == (int(rq[i]), int(rr[i]))


def _regions_by_walking(grid: Grid, mask: np.ndarray) -> set[frozenset[Cell]]:
    seen: set[Cell] = set()
    regions = set()
    for c in grid.cells():
        if not mask[c.row, c.col] or c in seen:
            continue
        region, todo = {c}, deque([c])
        while todo:
            x = todo.popleft()
            for n in grid.neighbours(x):
                if grid.shares_side(x, n) and mask[n.row, n.col] and n not in region:
                    region.add(n)
                    todo.append(n)
        seen |= region
        regions.add(frozenset(region))
    return regions


@pytest.mark.parametrize("grid", ALL_GRIDS, ids=lambda g: str(g.to_dict()))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_label_sides_finds_the_regions_a_walk_across_sides_finds(grid: Grid, seed: int) -> None:
    mask = np.random.default_rng(seed).random((grid.height, grid.width)) < 0.55
    labels = grid.label_sides(mask)
    assert labels.shape == mask.shape and not labels[~mask].any() and labels[mask].all()
    found = {frozenset(Cell(int(c), int(r)) for r, c in zip(*np.nonzero(labels == k))) for k in np.unique(labels[mask])}
    assert found == _regions_by_walking(grid, mask)
    # the square override labels in place; the generic axial-frame labelling agrees with it
    generic = Grid.label_sides(grid, mask)
    assert {frozenset(zip(*np.nonzero(generic == k))) for k in np.unique(generic[mask])} == \
        {frozenset(zip(*np.nonzero(labels == k))) for k in np.unique(labels[mask])}


@pytest.mark.parametrize("grid", [HexGrid(12, 9, o, p) for o, p in HEX_CONFIGS]
                         + [SquareGrid(12, 9), SquareGrid(12, 9, neighbours=8)],
                         ids=[f"hex-{o}-{p}" for o, p in HEX_CONFIGS] + ["square4", "square8"])
def test_edge_segments_as_arrays_are_the_scalar_ones(grid: HexGrid | SquareGrid) -> None:
    """Layout.edge_segments (the river sides of a tile at once, issue 19)
    gives exactly :meth:`Layout.edge_segment`'s floats for every pair of
    neighbours (and the pairs of cells below), NaN where edge_segment
    refuses; the generic form, which asks edge_segment, gives the same."""
    from engine.grids import Layout

    layout = grid.make_layout(10.0)
    cells = [Cell(c, r) for r in range(grid.height) for c in range(grid.width)]
    pairs = [(a, b) for a in cells for b in grid.neighbours(a)]
    pairs += [(Cell(0, 0), Cell(5, 7)), (Cell(2, 2), Cell(4, 4)), (Cell(1, 5), Cell(1, 8))]
    pairs = [(e.a, e.b) for e in {Edge.between(a, b): None for a, b in pairs}]  # canonical, as a map stores them
    ac, ar, bc, br = (np.array(v) for v in zip(*[(a.col, a.row, b.col, b.row) for a, b in pairs], strict=True))
    got = np.stack(layout.edge_segments(ac, ar, bc, br), axis=1)
    generic = np.stack(Layout.edge_segments(layout, ac, ar, bc, br), axis=1)
    refused = 0
    for k, (a, b) in enumerate(pairs):
        try:
            (x0, y0), (x1, y1) = layout.edge_segment(Edge(a, b))
        except GridError:
            refused += 1
            assert np.isnan(got[k]).all() and np.isnan(generic[k]).all(), (a, b)
            continue
        assert got[k].tolist() == [x0, y0, x1, y1], (a, b)
        assert generic[k].tolist() == [x0, y0, x1, y1], (a, b)
    assert refused >= 2
