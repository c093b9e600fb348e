"""Hex grids, flat-top or pointy-top, stored in odd or even offset rows.

Follows Red Blob Games' "Hexagonal Grids": hex math on cube coordinates
(:class:`Hex`, ``q + r + s == 0``), a separate fractional hex for picking,
and offset coordinates (:class:`~engine.grids.base.Cell`) only for storage
and labels.

Offset conventions (Red Blob's names; Tiled's in brackets):

* flat-top, ``odd``: odd columns are shoved down half a hex ("odd-q")
  [Tiled ``staggeraxis="x" staggerindex="odd"``];
* flat-top, ``even``: even columns are shoved down ("even-q");
* pointy-top, ``odd``: odd rows are shoved right ("odd-r")
  [Tiled ``staggeraxis="y" staggerindex="odd"``];
* pointy-top, ``even``: even rows are shoved right ("even-r").

Columns and rows count from 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from .base import Cell, Edge, Grid, GridError, GridKind, Layout, Point, Step

SQRT3 = math.sqrt(3.0)


class Orientation(str, Enum):
    FLAT = "flat"
    POINTY = "pointy"


class Parity(str, Enum):
    ODD = "odd"
    EVEN = "even"


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """A hex in cube coordinates; ``q + r + s == 0`` always holds."""

    q: int
    r: int
    s: int

    def __post_init__(self) -> None:
        if self.q + self.r + self.s != 0:
            raise GridError(f"cube coordinates must sum to 0, got {self.q}, {self.r}, {self.s}")

    @staticmethod
    def axial(q: int, r: int) -> Hex:
        return Hex(q, r, -q - r)

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r, self.s - other.s)

    def length(self) -> int:
        """Number of hex steps from the origin: ``max(|q|, |r|, |s|)``."""
        return max(abs(self.q), abs(self.r), abs(self.s))

    def distance(self, other: Hex) -> int:
        """Number of hex steps between two hexes (cube distance)."""
        return (self - other).length()


# Red Blob's direction order; direction 0 is +q ("east-ish"), then
# counter-clockwise in cube space.
HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0, -1), Hex(1, -1, 0), Hex(0, -1, 1),
    Hex(-1, 0, 1), Hex(-1, 1, 0), Hex(0, 1, -1),
)


@dataclass(frozen=True, slots=True)
class FractionalHex:
    """A point in cube space, for picking; :meth:`round` gives the hex that
    contains it."""

    q: float
    r: float
    s: float

    def round(self) -> Hex:
        """The hex containing this point (:func:`cube_round`)."""
        q, r = cube_round(self.q, self.r, self.s)
        return Hex(q, r, -q - r)


def cube_round(fq: float, fr: float, fs: float) -> tuple[int, int]:
    """Cube rounding, as axial ``(q, r)``: round each coordinate, then
    recompute the one that moved most from the other two (Red Blob's
    ``cube_round``; Python's :func:`round`, ties to even)."""
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


def cube_round_arrays(q: np.ndarray, r: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cube_round` for whole float arrays at once: the
    rounded axial ``(q, r)``, still floats of the input dtype (ties go to
    even, as :func:`numpy.rint` does)."""
    rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return rq, rr


def _shove(n: np.ndarray, odd: bool) -> np.ndarray:
    """How far offset storage shoves each column (flat) or row (pointy) in
    ``n`` along the other axis: the offset<->axial formula of
    :meth:`HexGrid.to_axial`, for integer arrays (dtype kept)."""
    out: np.ndarray = (n - (n & 1)) // 2 if odd else (n + (n & 1)) // 2
    return out


class HexGrid(Grid):
    """A rectangle of hexes in offset storage.

    The distance is the cube distance (the number of hex steps).  Every pair
    of neighbours shares a side.  :meth:`neighbours` lists on-map neighbours
    in :data:`HEX_DIRECTIONS` order.
    """

    kind = GridKind.HEX

    def __init__(self, width: int, height: int,
                 orientation: Orientation | str = Orientation.FLAT,
                 parity: Parity | str = Parity.ODD) -> None:
        super().__init__(width, height)
        try:
            self.orientation = Orientation(orientation)
        except ValueError:
            raise GridError(f"hex orientation must be 'flat' or 'pointy', got {orientation!r}") from None
        try:
            self.parity = Parity(parity)
        except ValueError:
            raise GridError(f"hex parity must be 'odd' or 'even', got {parity!r}") from None
        self._flat = self.orientation is Orientation.FLAT
        self._odd = self.parity is Parity.ODD

    # -- offset <-> cube / axial ------------------------------------------
    # The scalar forms spell :func:`_shove` out: they run for every step of
    # every search, where a function call per conversion costs a fifth.
    def to_hex(self, cell: Cell) -> Hex:
        q, r = self.to_axial(cell)
        return Hex(q, r, -q - r)

    def to_cell(self, h: Hex) -> Cell:
        return self.from_axial(h.q, h.r)

    def to_axial(self, cell: Cell) -> tuple[int, int]:
        col, row = cell.col, cell.row
        if self._flat:
            return col, row - ((col - (col & 1)) // 2 if self._odd else (col + (col & 1)) // 2)
        return col - ((row - (row & 1)) // 2 if self._odd else (row + (row & 1)) // 2), row

    def from_axial(self, q: int, r: int) -> Cell:
        if self._flat:
            return Cell(q, r + ((q - (q & 1)) // 2 if self._odd else (q + (q & 1)) // 2))
        return Cell(q + ((r - (r & 1)) // 2 if self._odd else (r + (r & 1)) // 2), r)

    def offset_to_axial_arrays(self, cols: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._flat:
            return cols, rows - _shove(cols, self._odd)
        return cols - _shove(rows, self._odd), rows

    def axial_to_offset_arrays(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self._flat:
            return q, r + _shove(q, self._odd)
        return q + _shove(r, self._odd), r

    # -- topology --------------------------------------------------------
    def neighbours(self, cell: Cell) -> list[Cell]:
        """On-map neighbours in :data:`HEX_DIRECTIONS` order."""
        h = self.to_hex(cell)
        out = []
        for d in HEX_DIRECTIONS:
            c = self.to_cell(Hex(h.q + d.q, h.r + d.r, h.s + d.s))
            if 0 <= c.col < self.width and 0 <= c.row < self.height:
                out.append(c)
        return out

    def neighbour_steps(self, cell: Cell) -> tuple[Step, ...]:
        """In :data:`HEX_DIRECTIONS` order; they depend on the parity of the
        cell's column (flat-top) or row (pointy-top)."""
        q, r = self.to_axial(cell)
        out = []
        for d in HEX_DIRECTIONS:
            n = self.from_axial(q + d.q, r + d.r)
            out.append((n.col - cell.col, n.row - cell.row))
        return tuple(out)

    def side_structure(self) -> np.ndarray:
        """The six axial directions (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1)
        (0,+1): every hex neighbour shares a side."""
        return np.array([[0, 1, 1], [1, 1, 1], [1, 1, 0]], bool)

    def distance(self, a: Cell, b: Cell) -> int:
        """Cube distance: the number of hex steps between the two hexes."""
        return self.to_hex(a).distance(self.to_hex(b))

    def can_link(self, a: Cell, b: Cell) -> bool:
        return self.contains(a) and self.contains(b) and self.distance(a, b) == 1

    def disc(self, center: Cell, radius: int) -> list[Cell]:
        """On-map hexes at most ``radius`` steps from ``center``, by axial
        ``dq`` then ``dr`` (Red Blob's "range")."""
        q, r = self.to_axial(center)
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                c = self.from_axial(q + dq, r + dr)
                if 0 <= c.col < self.width and 0 <= c.row < self.height:
                    out.append(c)
        return out

    def within(self, cell: Cell, radius: int) -> list[Cell]:
        """:meth:`disc` under its older name."""
        return self.disc(cell, radius)

    def brush(self, center: Cell, size: int) -> list[Cell]:
        """For an odd size the hexes within ``(size - 1) / 2`` steps of
        ``center`` (size 5: a radius-2 hex of 19); for an even size the
        hexes whose distances to ``center`` and to its neighbour in direction
        0 add up to at most ``size - 1`` (size 2 is two hexes, size 4 a
        ten-hex "oval"), so every size is as wide as its number."""
        if size % 2 == 1:
            return sorted(self.disc(center, (size - 1) // 2))
        h0 = self.to_hex(center)
        h1 = h0 + HEX_DIRECTIONS[0]
        out = []
        for c in self.disc(center, size // 2):
            h = self.to_hex(c)
            if h.distance(h0) + h.distance(h1) <= size - 1:
                out.append(c)
        return sorted(out)

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Red Blob's cube interpolation: ``distance(a, b) + 1`` hexes, each
        point nudged by (1e-6, 1e-6, -2e-6) so ties round the same way."""
        ha, hb = self.to_hex(a), self.to_hex(b)
        n = ha.distance(hb)
        if n == 0:
            return [a]
        out = []
        for i in range(n + 1):
            t = i / n
            q = ha.q + (hb.q - ha.q) * t + 1e-6
            r = ha.r + (hb.r - ha.r) * t + 1e-6
            s = ha.s + (hb.s - ha.s) * t - 2e-6
            out.append(self.from_axial(*cube_round(q, r, s)))
        return out

    def direction_of(self, a: Cell, b: Cell) -> int:
        """Index in :data:`HEX_DIRECTIONS` of the step from ``a`` to its
        neighbour ``b``."""
        d = self.to_hex(b) - self.to_hex(a)
        try:
            return HEX_DIRECTIONS.index(d)
        except ValueError:
            raise GridError(f"{a!r} and {b!r} are not adjacent") from None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "hex", "width": self.width, "height": self.height,
                "orientation": self.orientation.value, "parity": self.parity.value}

    def make_layout(self, size: float) -> HexLayout:
        return HexLayout(self, size)


class HexLayout(Layout):
    """Regular hexes of circumradius ``size`` (or ``(sx, sy)`` for stretched
    hexes), placed so that the map's bounding box starts at 0, 0."""

    def __init__(self, grid: HexGrid, size: float | tuple[float, float]) -> None:
        sx, sy = (size, size) if isinstance(size, (int, float)) else size
        if not (sx > 0 and sy > 0):
            raise GridError(f"hex size must be positive, got {size!r}")
        self.grid = grid
        self.sx, self.sy = float(sx), float(sy)
        self.size = self.sx
        flat, odd = grid.orientation is Orientation.FLAT, grid.parity is Parity.ODD
        self._flat = flat
        if flat:
            self.origin = (self.sx, SQRT3 / 2 * self.sy if odd else SQRT3 * self.sy)
            angles = [60.0 * i for i in range(6)]
        else:
            self.origin = (SQRT3 / 2 * self.sx if odd else SQRT3 * self.sx, self.sy)
            angles = [60.0 * i - 30.0 for i in range(6)]
        # corner offsets, clockwise on screen (y down) starting east/north-east
        self._corner_offsets = [(self.sx * math.cos(math.radians(a)), self.sy * math.sin(math.radians(a)))
                                for a in angles]

    def hex_to_point(self, h: Hex) -> Point:
        ox, oy = self.origin
        if self._flat:
            return (ox + self.sx * 1.5 * h.q, oy + self.sy * (SQRT3 / 2 * h.q + SQRT3 * h.r))
        return (ox + self.sx * (SQRT3 * h.q + SQRT3 / 2 * h.r), oy + self.sy * 1.5 * h.r)

    def point_to_hex(self, x: float, y: float) -> FractionalHex:
        px, py = (x - self.origin[0]) / self.sx, (y - self.origin[1]) / self.sy
        if self._flat:
            q = 2.0 / 3.0 * px
            r = -1.0 / 3.0 * px + SQRT3 / 3.0 * py
        else:
            q = SQRT3 / 3.0 * px - 1.0 / 3.0 * py
            r = 2.0 / 3.0 * py
        return FractionalHex(q, r, -q - r)

    def center(self, cell: Cell) -> Point:
        return self.hex_to_point(self.grid.to_hex(cell))

    def corners(self, cell: Cell) -> list[Point]:
        cx, cy = self.center(cell)
        return [(cx + dx, cy + dy) for dx, dy in self._corner_offsets]

    def pick(self, x: float, y: float) -> Cell:
        return self.grid.to_cell(self.point_to_hex(x, y).round())

    def edge_segment(self, edge: Edge) -> tuple[Point, Point]:
        d = self.grid.direction_of(edge.a, edge.b)
        # the side towards direction d lies between two known corners
        corners = self.corners(edge.a)
        i, j = _SIDE_CORNERS[self._flat][d]
        return corners[i], corners[j]

    def edge_segments(self, ac: np.ndarray, ar: np.ndarray, bc: np.ndarray, br: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`edge_segment` as arrays (the same sums in the same order,
        so the same floats); NaN where the cells are not neighbours."""
        g = self.grid
        qa, ra = g.offset_to_axial_arrays(np.asarray(ac, np.int64), np.asarray(ar, np.int64))
        qb, rb = g.offset_to_axial_arrays(np.asarray(bc, np.int64), np.asarray(br, np.int64))
        dq, dr = qb - qa, rb - ra
        near = (np.abs(dq) <= 1) & (np.abs(dr) <= 1)
        d = _DIRECTION_LUT[(np.clip(dq, -1, 1) + 1) * 3 + np.clip(dr, -1, 1) + 1]
        ok = near & (d >= 0)
        d = np.where(ok, d, 0)
        ox, oy = self.origin
        q, r = qa.astype(np.float64), ra.astype(np.float64)
        if self._flat:
            cx, cy = ox + self.sx * 1.5 * q, oy + self.sy * (SQRT3 / 2 * q + SQRT3 * r)
        else:
            cx, cy = ox + self.sx * (SQRT3 * q + SQRT3 / 2 * r), oy + self.sy * 1.5 * r
        offsets = np.array(self._corner_offsets, np.float64)
        ends = _SIDE_CORNER_ARRAYS[self._flat]
        i, j = ends[d, 0], ends[d, 1]
        nan = np.nan
        return (np.where(ok, cx + offsets[i, 0], nan), np.where(ok, cy + offsets[i, 1], nan),
                np.where(ok, cx + offsets[j, 0], nan), np.where(ok, cy + offsets[j, 1], nan))

    def bounds(self) -> tuple[float, float]:
        w, h = self.grid.width, self.grid.height
        shove = 0.5 if (w > 1 if self._flat else h > 1) or self.grid.parity is Parity.EVEN else 0.0
        if self._flat:
            return self.sx * (1.5 * (w - 1) + 2.0), SQRT3 * self.sy * (h + shove)
        return SQRT3 * self.sx * (w + shove), self.sy * (1.5 * (h - 1) + 2.0)

    def cells_in_rect(self, x0: float, y0: float, x1: float, y1: float) -> tuple[range, range]:
        if self._flat:
            cw, rh = 1.5 * self.sx, SQRT3 * self.sy
        else:
            cw, rh = SQRT3 * self.sx, 1.5 * self.sy
        c0 = max(0, math.floor(x0 / cw) - 1)
        c1 = min(self.grid.width, math.ceil(x1 / cw) + 1)
        r0 = max(0, math.floor(y0 / rh) - 1)
        r1 = min(self.grid.height, math.ceil(y1 / rh) + 1)
        return range(c0, max(c0, c1)), range(r0, max(r0, r1))


def _side_corner_table() -> dict[bool, dict[int, tuple[int, int]]]:
    """For each orientation, which two corners bound the side in each
    direction (computed once from the geometry, so it cannot drift)."""
    table: dict[bool, dict[int, tuple[int, int]]] = {}
    for flat in (True, False):
        grid = HexGrid(3, 3, Orientation.FLAT if flat else Orientation.POINTY, Parity.ODD)
        layout = HexLayout(grid, 1.0)
        centre = Hex(0, 0, 0)
        base = layout.hex_to_point(centre)
        corners = [(base[0] + dx, base[1] + dy) for dx, dy in layout._corner_offsets]
        row: dict[int, tuple[int, int]] = {}
        for d, step in enumerate(HEX_DIRECTIONS):
            nx, ny = layout.hex_to_point(centre + step)
            mx, my = (base[0] + nx) / 2, (base[1] + ny) / 2
            # the two corners nearest the midpoint of the two centres
            order = sorted(range(6), key=lambda i: (corners[i][0] - mx) ** 2 + (corners[i][1] - my) ** 2)
            i, j = sorted(order[:2])
            row[d] = (i, j)
        table[flat] = row
    return table


_SIDE_CORNERS = _side_corner_table()
_SIDE_CORNER_ARRAYS = {flat: np.array([row[d] for d in range(6)], np.intp) for flat, row in _SIDE_CORNERS.items()}
""":data:`_SIDE_CORNERS` as ``(6, 2)`` arrays of corner indices by direction."""
_DIRECTION_LUT = np.full(9, -1, np.intp)
"""Direction index (in :data:`HEX_DIRECTIONS`) of an axial step
``(dq, dr)`` at ``(dq + 1) * 3 + dr + 1``; -1: no neighbour."""
for _d, _h in enumerate(HEX_DIRECTIONS):
    _DIRECTION_LUT[(_h.q + 1) * 3 + _h.r + 1] = _d
