"""A spatial index of the map's edge sets (rivers, rail, road), so a tile
finds the few edges it shows without scanning every edge of a huge map."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np

from engine.grids import Cell, Edge, Grid

BUCKET = 16
"""Cells per bucket side."""


class EdgeIndex:
    """Edges of one layer bucketed by the cell ``edge.a`` (the canonical
    first cell), with what a renderer draws of them.  :meth:`refresh`
    re-reads the edges around touched cells from the model's set;
    :meth:`rebuild` re-reads the whole set.  ``edges`` is anything that
    holds edges (a set of rivers, the dict of bridges)."""

    def __init__(self, grid: Grid, edges: Collection[Edge], sides_only: bool,
                 geometry: Callable[[np.ndarray, Sequence[Edge]], np.ndarray]) -> None:
        self.grid = grid
        self.edges = edges
        self.sides_only = sides_only
        self.geometry = geometry
        """Makes an ``(n, k)`` float array of what a renderer draws of each
        edge (map coordinates, independent of zoom) from the ``(n, 4)`` end
        cells and the edges themselves, in the same order; kept per bucket
        with the ends (:meth:`query`)."""
        self.buckets: dict[tuple[int, int], set[Edge]] = {}
        self._arrays: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        """Each bucket's edges as an ``(n, 4)`` array of the end cells'
        columns and rows, and their geometry, made when first asked and
        dropped when the bucket changes."""
        self.rebuild(edges)

    def rebuild(self, edges: Collection[Edge]) -> None:
        self.edges = edges
        self._arrays = {}
        groups: dict[tuple[int, int], list[Edge]] = {}
        for e in edges:
            a = e.a
            key = (a.col // BUCKET, a.row // BUCKET)
            group = groups.get(key)
            if group is None:
                groups[key] = [e]
            else:
                group.append(e)
        self.buckets = {k: set(v) for k, v in groups.items()}

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
                self._arrays.pop(key, None)
                if e in self.edges:
                    self.buckets.setdefault(key, set()).add(e)
                else:
                    b = self.buckets.get(key)
                    if b is not None:
                        b.discard(e)

    def fill(self) -> None:
        """Make every bucket's arrays that are not made yet, the geometry of
        all their edges in one call (row by row the same floats as bucket
        by bucket): what a whole-map export asks for, where thousands of
        small calls cost more than the drawing."""
        keys = [k for k, b in self.buckets.items() if b and k not in self._arrays]
        if not keys:
            return
        edges = [e for k in keys for e in self.buckets[k]]  # bucket by bucket, each in its own order
        ends = np.array([(e.a.col, e.a.row, e.b.col, e.b.row) for e in edges], np.int64).reshape(-1, 4)
        geometry = self.geometry(ends, edges)
        start = 0
        for k in keys:
            n = len(self.buckets[k])
            self._arrays[k] = (ends[start:start + n], geometry[start:start + n])
            start += n

    def query(self, cols: range, rows: range) -> tuple[np.ndarray, np.ndarray]:
        """The edges with at least one end in (or next to) the cell ranges:
        an ``(n, 4)`` ``int64`` array of their end cells (``a.col, a.row,
        b.col, b.row``) and their geometry (``geometry``'s rows), no Edge
        made: a tile of a big map shows hundreds.  The order is
        that of the buckets (by column, then row), then the bucket's own,
        so the edges of a smaller range come in the same order as within a
        larger one."""
        empty = np.zeros((0, 4), np.int64)
        if not self.buckets or not cols or not rows:
            return empty, self.geometry(empty, [])
        c0, c1 = (cols.start - 1) // BUCKET, (cols.stop) // BUCKET
        r0, r1 = (rows.start - 1) // BUCKET, (rows.stop) // BUCKET
        parts: list[np.ndarray] = []
        geoms: list[np.ndarray] = []
        for bc in range(c0, c1 + 1):
            for br in range(r0, r1 + 1):
                key = (bc, br)
                b = self.buckets.get(key)
                if not b:
                    continue
                got = self._arrays.get(key)
                if got is None:
                    edges = list(b)
                    ends = np.array([(e.a.col, e.a.row, e.b.col, e.b.row) for e in edges], np.int64).reshape(-1, 4)
                    got = self._arrays[key] = (ends, self.geometry(ends, edges))
                parts.append(got[0])
                geoms.append(got[1])
        if not parts:
            return empty, self.geometry(empty, [])
        a = parts[0] if len(parts) == 1 else np.concatenate(parts)
        g = geoms[0] if len(geoms) == 1 else np.concatenate(geoms)
        lo_c, hi_c, lo_r, hi_r = cols.start - 1, cols.stop, rows.start - 1, rows.stop
        near = (((a[:, 0] >= lo_c) & (a[:, 0] <= hi_c) & (a[:, 1] >= lo_r) & (a[:, 1] <= hi_r))
                | ((a[:, 2] >= lo_c) & (a[:, 2] <= hi_c) & (a[:, 3] >= lo_r) & (a[:, 3] <= hi_r)))
        return (a, g) if near.all() else (a[near], g[near])
