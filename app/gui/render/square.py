"""Square-grid renderer: cells are axis-aligned squares, so pixel to cell
is a floor per axis (separable, computed once per row and column)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor

from engine.grids import GridKind
from engine.model import NO_SIDE

from . import style
from .base import GRID_LEVELS, Array, MapRenderer


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

    def raster(self, zoom: float, rect: QRect, layers: frozenset[str], background: QColor) -> Array:
        """The base class's raster, pixel for pixel, computed by rows: a
        square's column depends on x alone, its row on y alone, and the grid
        line's coverage is the larger of the two axes' coverages.  So each
        distinct (cell row, row coverage) pair is coloured once as a whole
        pixel row and the image is those rows repeated: a 24-px cell has
        about three distinct pixel rows, not 24 (``adjutant render`` of a
        200 x 200 map: 4.5x faster than the per-pixel path)."""
        x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
        s = self.base_size
        fx = ((np.arange(x, x + w, dtype=np.float64) + 0.5) / zoom) / s
        fy = ((np.arange(y, y + h, dtype=np.float64) + 0.5) / zoom) / s
        cols, rows = np.floor(fx), np.floor(fy)
        grid_on = "grid" in layers and self.cell_px(zoom) >= style.GRID_MIN_PX
        m = self.scenario.map
        W, H = m.width, m.height
        nsides = len(self.scenario.sides) + 1
        control_on = "control" in layers and len(self.scenario.sides) > 0
        lut = self._lut("terrain" in layers, control_on, grid_on)

        def level(f: Array, whole: Array) -> Array:
            if not grid_on:
                return np.zeros(f.shape, np.intp)
            e = f - whole
            cover = np.clip(1.0 - np.minimum(e, 1.0 - e) * s * zoom, 0.0, 1.0)
            lev: Array = np.rint(cover * (GRID_LEVELS - 1)).astype(np.intp)
            return lev

        lx, ly = level(fx, cols), level(fy, rows)
        ci, ri = cols.astype(np.intp), rows.astype(np.intp)
        in_x, in_y = (ci >= 0) & (ci < W), (ri >= 0) & (ri < H)
        cc, rr = np.where(in_x, ci, 0), np.where(in_y, ri, 0)
        # the distinct pixel rows: (cell row, row coverage)
        pairs, which = np.unique(rr * GRID_LEVELS + ly, return_inverse=True)
        urow, ulev = pairs // GRID_LEVELS, pairs % GRID_LEVELS
        key = m.terrain[urow][:, cc].astype(np.intp) * nsides
        if control_on:
            key += np.clip(m.control[urow][:, cc].astype(np.intp), NO_SIDE, nsides - 2) + 1
        if grid_on:
            key += np.maximum(lx[None, :], ulev[:, None]) * (256 * nsides)
        out = lut[key][which.reshape(-1)]
        if not (in_x.all() and in_y.all()):
            bg = style.argb(background)
            out[:, ~in_x] = bg
            out[~in_y, :] = bg
        return np.ascontiguousarray(out, dtype=np.uint32)
