"""Hex-grid renderer (flat or pointy top, odd or even offset): pixel to hex
by vectorised cube rounding, as :meth:`engine.grids.HexLayout.pick` does
for one point."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from engine.grids import Cell, GridKind, HexGrid, HexLayout, Orientation, Parity

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

    @property
    def _odd(self) -> bool:
        return self.grid.parity is Parity.ODD

    def centers(self, cols: Array, rows: Array) -> tuple[Array, Array]:
        cols = np.asarray(cols, np.int64)
        rows = np.asarray(rows, np.int64)
        lay = self.layout
        ox, oy = lay.origin
        if self._flat:
            q = cols
            r = rows - ((cols - (cols & 1)) // 2 if self._odd else (cols + (cols & 1)) // 2)
            return ox + lay.sx * 1.5 * q, oy + lay.sy * (SQRT3 / 2 * q + SQRT3 * r)
        r = rows
        q = cols - ((rows - (rows & 1)) // 2 if self._odd else (rows + (rows & 1)) // 2)
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
        rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
        dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
        fix_q = (dq > dr) & (dq > ds)
        fix_r = ~fix_q & (dr > ds)
        rq = np.where(fix_q, -rr - rs, rq)
        rr = np.where(fix_r, -rq - rs, rr)
        qi = rq.astype(np.intp)
        ri = rr.astype(np.intp)
        if self._flat:
            cols = qi
            rows = ri + ((qi - (qi & 1)) // 2 if self._odd else (qi + (qi & 1)) // 2)
        else:
            rows = ri
            cols = qi + ((ri - (ri & 1)) // 2 if self._odd else (ri + (ri & 1)) // 2)
        dist = None
        if want_edge:
            # within a hex, max(|dq-dr|, |dr-ds|, |ds-dq|) runs linearly from 0 at the
            # centre to 1 on the outline; the outline is an apothem from the centre
            fq, fr = q - rq, r - rr
            fs = -fq - fr
            e = np.maximum(np.maximum(np.abs(fq - fr), np.abs(fr - fs)), np.abs(fs - fq))
            dist = (1.0 - e) * np.float32(SQRT3 / 2 * min(lay.sx, lay.sy))
        return cols, rows, dist
