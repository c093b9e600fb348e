"""Square-grid renderer: cells are axis-aligned squares, so pixel to cell
is a floor per axis (separable, computed once per row and column)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from engine.grids import GridKind

from .base import Array, MapRenderer


class SquareRenderer(MapRenderer):
    kind: ClassVar[GridKind] = GridKind.SQUARE
    base_size: ClassVar[float] = 32.0

    def inner_extent(self) -> float:
        return self.base_size

    def make_corner_offsets(self) -> Array:
        h = self.base_size / 2
        return np.array([(-h, -h), (h, -h), (h, h), (-h, h)], np.float64)

    def centers(self, cols: Array, rows: Array) -> tuple[Array, Array]:
        s = self.base_size
        return (np.asarray(cols, np.float64) + 0.5) * s, (np.asarray(rows, np.float64) + 0.5) * s

    def pick_pixels(self, xs: Array, ys: Array, want_edge: bool) -> tuple[Array, Array, Array | None]:
        s = self.base_size
        fx, fy = xs / s, ys / s
        cols, rows = np.floor(fx), np.floor(fy)
        dist = None
        if want_edge:
            ex, ey = fx - cols, fy - rows
            dist = np.minimum(np.minimum(ex, 1.0 - ex), np.minimum(ey, 1.0 - ey)) * s
        return cols.astype(np.intp), rows.astype(np.intp), dist
