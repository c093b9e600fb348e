"""Hex-grid renderer (flat or pointy top, odd or even offset): pixel to hex
by vectorised cube rounding, as :meth:`engine.grids.HexLayout.pick` does
for one point.  Offset<->axial conversion and cube rounding are the grid's
(:meth:`engine.grids.HexGrid.offset_to_axial_arrays`,
:func:`engine.grids.cube_round_arrays`); only the pixel geometry is here."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from engine.grids import Cell, GridKind, HexGrid, HexLayout, Orientation, cube_round_arrays

from .base import Array, MapRenderer

SQRT3 = math.sqrt(3.0)


class HexRenderer(MapRenderer):
    kind: ClassVar[GridKind] = GridKind.HEX
    base_size: ClassVar[float] = 32.0 / SQRT3
    """Circumradius giving 32 map units across the flats, like a square."""

    grid: HexGrid
    layout: HexLayout

    def inner_extent(self) -> float:
        return SQRT3 * self.base_size

    def make_corner_offsets(self) -> Array:
        cx, cy = self.layout.center(Cell(0, 0))
        return np.array([(x - cx, y - cy) for x, y in self.layout.corners(Cell(0, 0))], np.float64)

    @property
    def _flat(self) -> bool:
        return self.grid.orientation is Orientation.FLAT

    def centers(self, cols: Array, rows: Array) -> tuple[Array, Array]:
        cols = np.asarray(cols, np.int64)
        rows = np.asarray(rows, np.int64)
        lay = self.layout
        ox, oy = lay.origin
        q, r = self.grid.offset_to_axial_arrays(cols, rows)
        if self._flat:
            return ox + lay.sx * 1.5 * q, oy + lay.sy * (SQRT3 / 2 * q + SQRT3 * r)
        return ox + lay.sx * (SQRT3 * q + SQRT3 / 2 * r), oy + lay.sy * 1.5 * r

    def pick_pixels(self, xs: Array, ys: Array, want_edge: bool) -> tuple[Array, Array, Array | None]:
        lay = self.layout
        px = ((xs - lay.origin[0]) / lay.sx).astype(np.float32)
        py = ((ys - lay.origin[1]) / lay.sy).astype(np.float32)
        if self._flat:
            q = np.float32(2.0 / 3.0) * px
            r = np.float32(-1.0 / 3.0) * px + np.float32(SQRT3 / 3.0) * py
        else:
            q = np.float32(SQRT3 / 3.0) * px - np.float32(1.0 / 3.0) * py
            r = np.float32(2.0 / 3.0) * py
        s = -q - r
        rq, rr = cube_round_arrays(q, r, s)
        cols, rows = self.grid.axial_to_offset_arrays(rq.astype(np.intp), rr.astype(np.intp))
        dist = None
        if want_edge:
            # within a hex, max(|dq-dr|, |dr-ds|, |ds-dq|) runs linearly from 0 at the
            # centre to 1 on the outline; the outline is an apothem from the centre
            fq, fr = q - rq, r - rr
            fs = -fq - fr
            e = np.maximum(np.maximum(np.abs(fq - fr), np.abs(fr - fs)), np.abs(fs - fq))
            dist = (1.0 - e) * np.float32(SQRT3 / 2 * min(lay.sx, lay.sy))
        return cols, rows, dist
