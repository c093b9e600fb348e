"""A spatial index of the map's edge sets (rivers, rail, road), so a tile
finds the few edges it shows without scanning every edge of a huge map."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.grids import Cell, Edge, Grid

BUCKET = 16
"""Cells per bucket side."""


class EdgeIndex:
    """Edges of one layer bucketed by the cell ``edge.a`` (the canonical
    first cell).  :meth:`refresh` re-reads the edges around touched cells
    from the model's set; :meth:`rebuild` re-reads the whole set."""

    def __init__(self, grid: Grid, edges: set[Edge], sides_only: bool) -> None:
        self.grid = grid
        self.edges = edges
        self.sides_only = sides_only
        self.buckets: dict[tuple[int, int], set[Edge]] = {}
        self.rebuild(edges)

    def rebuild(self, edges: set[Edge]) -> None:
        self.edges = edges
        self.buckets = {}
        for e in edges:
            self.buckets.setdefault((e.a.col // BUCKET, e.a.row // BUCKET), set()).add(e)

    def refresh(self, cells: Iterable[Cell]) -> None:
        """Bring the index up to date after edges touching ``cells`` changed."""
        g = self.grid
        for c in cells:
            if not g.contains(c):
                continue
            near = g.neighbours(c) if self.sides_only else g.link_neighbours(c)
            for n in near:
                e = Edge.between(c, n)
                key = (e.a.col // BUCKET, e.a.row // BUCKET)
                if e in self.edges:
                    self.buckets.setdefault(key, set()).add(e)
                else:
                    b = self.buckets.get(key)
                    if b is not None:
                        b.discard(e)

    def query(self, cols: range, rows: range) -> Iterator[Edge]:
        """Edges with at least one end in (or next to) the cell ranges."""
        if not self.buckets or not cols or not rows:
            return
        c0, c1 = (cols.start - 1) // BUCKET, (cols.stop) // BUCKET
        r0, r1 = (rows.start - 1) // BUCKET, (rows.stop) // BUCKET
        lo_c, hi_c, lo_r, hi_r = cols.start - 1, cols.stop, rows.start - 1, rows.stop
        for bc in range(c0, c1 + 1):
            for br in range(r0, r1 + 1):
                b = self.buckets.get((bc, br))
                if not b:
                    continue
                for e in b:
                    a, o = e.a, e.b
                    if ((lo_c <= a.col <= hi_c and lo_r <= a.row <= hi_r)
                            or (lo_c <= o.col <= hi_c and lo_r <= o.row <= hi_r)):
                        yield e
