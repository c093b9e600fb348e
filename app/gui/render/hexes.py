"""Hex-grid renderer (flat or pointy top, odd or even offset): pixel to hex
by vectorised cube rounding, as :meth:`engine.grids.HexLayout.pick` does
for one point.  Offset<->axial conversion and cube rounding are the grid's
(:meth:`engine.grids.HexGrid.offset_to_axial_arrays`,
:func:`engine.grids.cube_round_arrays`); only the pixel geometry is here."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor

from engine.grids import Cell, GridKind, HexGrid, HexLayout, Orientation, cube_round_arrays
from engine.model import NO_SIDE

from . import style
from .base import GRID_LEVELS, Array, MapRenderer

SQRT3 = math.sqrt(3.0)

NEAR_PX = 0.05
"""Points closer than this (screen pixels) to a hex's outline, or to a
distance where the grid line's level changes, are picked one by one by
:meth:`HexRenderer.raster`'s repeating path (float32 rounding decides them;
elsewhere the pick is a whole period's)."""


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

    def raster(self, zoom: float, rect: QRect, layers: frozenset[str], background: QColor) -> Array:
        """The base class's raster, pixel for pixel, picked once per period:
        when a cell is a whole number ``n`` of pixels across the flats, the
        picture repeats every ``n`` pixels across them (down a column of
        flat hexes, along a row of pointy ones), one cell further each
        time.  So one period of pixels is picked (cube rounding, the costly
        part) and the rest of ``rect`` looks its cells up from it; the few
        points of the period within :data:`NEAR_PX` of a decision (the hex's
        outline, a change of grid level), where float rounding may pick
        otherwise at another place, are picked at their own places."""
        n = round(self.cell_px(zoom))
        along = rect.height() if self._flat else rect.width()
        if n < 1 or abs(self.cell_px(zoom) - n) > 1e-9 or along < 3 * n:
            return super().raster(zoom, rect, layers, background)
        x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
        grid_on = "grid" in layers and self.cell_px(zoom) >= style.GRID_MIN_PX

        def coords(x0: int, cnt: int) -> Array:
            return (np.arange(x0, x0 + cnt, dtype=np.float64) + 0.5) / zoom

        if self._flat:  # one period of rows, all columns; the period's axis first
            xs, ys = coords(x, w)[None, :], coords(y, n)[:, None]
        else:  # one period of columns, all rows, transposed so the period's axis is first
            xs, ys = coords(x, n)[:, None], coords(y, h)[None, :]
        cols, rows, dist = self.pick_pixels(xs, ys, True)
        assert dist is not None
        cols, rows = np.broadcast_arrays(cols, rows)
        step_rows = self._flat  # a period further: one row further (flat), one column (pointy)
        periods = -(-along // n)
        m = self.scenario.map
        # the cells the rect can meet, with a margin of off-map cells
        r0 = int(rows.min())
        r1 = int(rows.max()) + (periods - 1 if step_rows else 0)
        c0 = int(cols.min())
        c1 = int(cols.max()) + (0 if step_rows else periods - 1)
        nsides = len(self.scenario.sides) + 1
        control_on = "control" in layers and len(self.scenario.sides) > 0
        lut = self._lut("terrain" in layers, control_on, grid_on)
        off = len(lut)  # key of an off-map cell: the background at every grid level
        table = np.concatenate([lut, np.full(256 * nsides * GRID_LEVELS, style.argb(background), np.uint32)])
        keys = np.full((r1 - r0 + 1, c1 - c0 + 1), off, np.int64)
        rr0, rr1, cc0, cc1 = max(r0, 0), min(r1 + 1, m.height), max(c0, 0), min(c1 + 1, m.width)
        if rr1 > rr0 and cc1 > cc0:
            k = m.terrain[rr0:rr1, cc0:cc1].astype(np.int64) * nsides
            if control_on:
                k += np.clip(m.control[rr0:rr1, cc0:cc1].astype(np.int64), NO_SIDE, nsides - 2) + 1
            keys[rr0 - r0:rr1 - r0, cc0 - c0:cc1 - c0] = k
        kw = keys.shape[1]
        flat_keys = keys.reshape(-1)
        base = (rows - r0) * kw + (cols - c0)
        stride = kw if step_rows else 1
        level_key: Array | None = self.grid_levels(dist, zoom) * (256 * nsides) if grid_on else None
        out = np.empty((along, w if self._flat else h), np.uint32)
        for period in range(periods):
            a, b = period * n, min(along, (period + 1) * n)
            key = flat_keys[base[:b - a] + period * stride]
            out[a:b] = table[key if level_key is None else key + level_key[:b - a]]
        # points near a decision: picked at their own places
        dpx = dist * zoom
        near = dpx < NEAR_PX
        if grid_on:
            for lv in range(GRID_LEVELS - 1):
                near |= np.abs(dpx - (1.0 - (lv + 0.5) / (GRID_LEVELS - 1))) < NEAR_PX
        ia, ib = np.nonzero(near)
        if len(ia):
            ks = np.arange(periods)
            pa = (ia[None, :] + ks[:, None] * n).reshape(-1)  # along the period's axis
            pb = np.broadcast_to(ib[None, :], (periods, len(ib))).reshape(-1)
            keep = pa < along
            pa, pb = pa[keep], pb[keep]
            if self._flat:
                px_x, px_y = coords(x, w)[pb], coords(y, along)[pa]
            else:
                px_x, px_y = coords(x, along)[pa], coords(y, h)[pb]
            c2, r2, d2 = self.pick_pixels(px_x, px_y, grid_on)
            out[pa, pb] = self.colour_picks(c2, r2, d2 if grid_on else None, zoom, layers, background)
        return out if self._flat else np.ascontiguousarray(out.T)
