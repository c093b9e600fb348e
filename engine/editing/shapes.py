"""Which cells (or sides) an editing tool touches, decided without a window.

:func:`brush_cells`, :func:`bucket_cells`, :func:`rect_cells`,
:func:`line_cells`, :func:`cells_along`, :func:`nearest_edge`,
:func:`river_walk`, :func:`nearest_link` read the grid (and, for picking, a
:class:`~engine.grids.Layout` in map coordinates) and never the screen.  What
differs between square and hex grids is asked of the grid
(:meth:`~engine.grids.Grid.brush`, :meth:`~engine.grids.Grid.line`,
:meth:`~engine.grids.Grid.label_sides`), so nothing here names a kind.
"""

from __future__ import annotations

import math

import numpy as np

from ..grids import Cell, Edge, Grid, Layout, Point
from ..model import GridMap, ModelError
from .edits import ArrayLayer

MIN_BRUSH = 1
MAX_BRUSH = 9


def brush_cells(grid: Grid, center: Cell, size: int) -> list[Cell]:
    """The on-map cells a brush of ``size`` (1–9, its width in cells) centred
    on ``center`` covers, in a deterministic order (:meth:`Grid.brush
    <engine.grids.Grid.brush>`).

    * Square grids: a ``size`` x ``size`` block; for an even size the block
      reaches one cell further east and south than west and north.
    * Hex grids: for an odd size the hexes within distance ``(size - 1) / 2``
      of ``center`` (size 5 is a radius-2 hex: 19 hexes); for an even size the
      hexes whose distances to ``center`` and to its neighbour in direction 0
      add up to at most ``size - 1`` (size 2 is two hexes, size 4 a ten-hex
      "oval"), so every size is as wide as its number.

    ``center`` may lie off the map; only on-map cells are returned.  Raises
    :class:`ModelError` for a size outside 1–9.
    """
    if not MIN_BRUSH <= size <= MAX_BRUSH:
        raise ModelError(f"brush size must be {MIN_BRUSH} to {MAX_BRUSH}, got {size}")
    return grid.brush(center, size)


def rect_cells(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The on-map cells of the storage rectangle with corners ``a`` and ``b``
    (columns and rows between them, inclusive): a region fill.  On a hex map
    this is the block of columns and rows as numbered, which is what a map
    designer drags out."""
    c0, c1 = sorted((a.col, b.col))
    r0, r1 = sorted((a.row, b.row))
    c0, r0 = max(c0, 0), max(r0, 0)
    c1, r1 = min(c1, grid.width - 1), min(r1, grid.height - 1)
    return [Cell(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def line_cells(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The cells of a straight line from ``a`` to ``b``, both included, each
    link-adjacent to the next (so a line is also a valid rail or road):
    :meth:`Grid.line <engine.grids.Grid.line>`.

    Hex grids: Red Blob's cube interpolation, ``distance(a, b) + 1`` hexes,
    ties nudged consistently.  Square grids: ``max(|dc|, |dr|) + 1`` squares,
    interpolated and rounded (diagonal steps allowed, as links allow them).
    """
    return grid.line(a, b)


def bucket_mask(gmap: GridMap, start: Cell, layer: ArrayLayer = "terrain") -> np.ndarray:
    """Boolean ``[row, col]`` mask of the cells of ``layer`` joined to
    ``start`` through cells of the same value, stepping only across shared
    sides (on an 8-neighbour square grid a fill does not leak through
    corners); all ``False`` for an off-map start.  Runs in C: the grid
    labels the regions (:meth:`~engine.grids.Grid.label_sides`)."""
    grid = gmap.grid
    arr = gmap.terrain if layer == "terrain" else gmap.control
    if not grid.contains(start):
        return np.zeros(arr.shape, bool)
    labels = grid.label_sides(arr == arr[start.row, start.col])
    out: np.ndarray = labels == labels[start.row, start.col]
    return out


def bucket_cells(gmap: GridMap, start: Cell, layer: ArrayLayer = "terrain") -> list[Cell]:
    """The cells of :func:`bucket_mask`, in row-major order."""
    rows, cols = np.nonzero(bucket_mask(gmap, start, layer))
    return [Cell(int(c), int(r)) for r, c in zip(rows.tolist(), cols.tolist())]


def rect_mask(grid: Grid, a: Cell, b: Cell) -> np.ndarray:
    """Boolean ``[row, col]`` mask of :func:`rect_cells`."""
    out = np.zeros((grid.height, grid.width), bool)
    c0, c1 = sorted((a.col, b.col))
    r0, r1 = sorted((a.row, b.row))
    out[max(r0, 0):max(r1 + 1, 0), max(c0, 0):max(c1 + 1, 0)] = True
    return out


def cells_along(layout: Layout, grid: Grid, p0: tuple[float, float], p1: tuple[float, float],
                step: float | None = None) -> list[Cell]:
    """The on-map cells under a straight mouse path from ``p0`` to ``p1``
    (map coordinates), in order, without repeats in a row: what a fast drag
    passes over between two mouse events.  Successive cells touch."""
    size = float(getattr(layout, "size", 1.0))
    step = step or size / 6.0
    n = max(1, math.ceil(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / step))
    out: list[Cell] = []
    for i in range(n + 1):
        t = i / n
        c = layout.pick(p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t)
        if grid.contains(c) and (not out or out[-1] != c):
            out.append(c)
    return out


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def nearest_edge(layout: Layout, grid: Grid, x: float, y: float,
                 tolerance: float | None = None) -> Edge | None:
    """The side (between two on-map cells) nearest the map point, if it lies
    within ``tolerance`` (default: a third of the cell size) of the point."""
    size = float(getattr(layout, "size", 1.0))
    tol = size / 3.0 if tolerance is None else tolerance
    cell = layout.pick(x, y)
    if not grid.contains(cell):
        return None
    best: tuple[float, Edge] | None = None
    for e in grid.edges_of(cell):
        a, b = layout.edge_segment(e)
        d = _segment_distance((x, y), a, b)
        if best is None or d < best[0]:
            best = (d, e)
    return best[1] if best is not None and best[0] <= tol else None


def edges_along(layout: Layout, grid: Grid, p0: tuple[float, float], p1: tuple[float, float],
                tolerance: float | None = None) -> list[Edge]:
    """The sides a mouse path from ``p0`` to ``p1`` runs along (each within
    ``tolerance`` of some point of the path), in order, without repeats in a
    row: what a river stroke lays between two mouse events."""
    size = float(getattr(layout, "size", 1.0))
    n = max(1, math.ceil(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / (size / 8.0)))
    out: list[Edge] = []
    for i in range(n + 1):
        t = i / n
        e = nearest_edge(layout, grid, p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t, tolerance)
        if e is not None and (not out or out[-1] != e):
            out.append(e)
    return out


def _same_point(p: Point, q: Point, eps: float) -> bool:
    return abs(p[0] - q[0]) <= eps and abs(p[1] - q[1]) <= eps


def corner_sides(layout: Layout, grid: Grid, corner: Point) -> list[tuple[Edge, Point]]:
    """The sides (between two on-map cells) that end at the cell corner
    ``corner`` (a map point, as :meth:`Layout.edge_segment
    <engine.grids.Layout.edge_segment>` gives it), each with its other end, in
    side order: the steps a river may take from that corner."""
    size = float(getattr(layout, "size", 1.0))
    eps = size * 1e-6
    probe = size * 0.05
    cells: set[Cell] = set()
    for k in range(12):
        a = math.pi * k / 6.0 + 0.1
        c = layout.pick(corner[0] + probe * math.cos(a), corner[1] + probe * math.sin(a))
        if grid.contains(c):
            cells.add(c)
    out: dict[Edge, Point] = {}
    for cell in cells:
        for e in grid.edges_of(cell):
            if e in out:
                continue
            p, q = layout.edge_segment(e)
            if _same_point(p, corner, eps):
                out[e] = q
            elif _same_point(q, corner, eps):
                out[e] = p
    return sorted(out.items())


def nearest_corner(layout: Layout, grid: Grid, x: float, y: float) -> Point | None:
    """The corner nearest the map point among the ends of the sides of the
    cell under it (None off the map or on a one-cell map): where a river
    stroke starts."""
    cell = layout.pick(x, y)
    if not grid.contains(cell):
        return None
    best: tuple[float, Point] | None = None
    for e in grid.edges_of(cell):
        for p in layout.edge_segment(e):
            d = math.hypot(p[0] - x, p[1] - y)
            if best is None or (d, p) < best:
                best = (d, p)
    return None if best is None else best[1]


def river_walk(layout: Layout, grid: Grid, corner: Point, p0: Point, p1: Point) -> tuple[Point, list[Edge]]:
    """The sides a river stroke lays while the mouse moves from ``p0`` to
    ``p1``, starting at the cell corner ``corner``, and the corner it ends
    at.

    The stroke walks from corner to corner along sides: at each point of the
    mouse path it steps to the neighbouring corner the mouse is now nearer
    than the current one (the nearest such, ties to the first side).  So
    consecutive sides always share a corner: a drag down a column follows
    one of its side lines (never a ladder of separate cross sides), a drag
    along a grid line lays just that line (no stubs), and a fast mouse that
    skips sides has them filled in, as the rail tool fills skipped cells.
    Sides are returned in order, without repeats in a
    row; a stroke that comes back lays a side again (no harm: laying a river
    is idempotent)."""
    size = float(getattr(layout, "size", 1.0))
    n = max(1, math.ceil(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / (size / 8.0)))
    out: list[Edge] = []
    here = corner
    for i in range(n + 1):
        t = i / n
        x, y = p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t
        for _ in range(64):
            d_here = math.hypot(here[0] - x, here[1] - y)
            step: tuple[float, Edge, Point] | None = None
            for e, q in corner_sides(layout, grid, here):
                d = math.hypot(q[0] - x, q[1] - y)
                if d < d_here - size * 1e-3 and (step is None or d < step[0]):
                    step = (d, e, q)
            if step is None:
                break
            _, e, here = step
            if not out or out[-1] != e:
                out.append(e)
    return here, out


def nearest_link(gmap: GridMap, layout: Layout, kind: str, x: float, y: float,
                 tolerance: float | None = None) -> Edge | None:
    """The link of ``kind`` whose centre-to-centre segment passes nearest the
    map point, if within ``tolerance`` (default: a quarter of the cell size):
    what a click on a drawn rail or road picks."""
    links = gmap.links.get(kind)
    if not links:
        return None
    size = float(getattr(layout, "size", 1.0))
    tol = size / 4.0 if tolerance is None else tolerance
    grid = gmap.grid
    cell = layout.pick(x, y)
    candidates = {cell, *grid.link_neighbours(cell)} if grid.contains(cell) else set()
    best: tuple[float, Edge] | None = None
    for c in sorted(candidates):
        for n in gmap.linked_neighbours(kind, c):
            e = Edge.between(c, n)
            d = _segment_distance((x, y), layout.center(e.a), layout.center(e.b))
            if best is None or (d, e) < best:
                best = (d, e)
    return best[1] if best is not None and best[0] <= tol else None
