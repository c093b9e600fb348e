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

from .base import Cell, Grid, GridError, GridKind, Layout, Point, Edge

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

    def neighbour(self, direction: int) -> Hex:
        return self + HEX_DIRECTIONS[direction % 6]


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
        q, r, s = round(self.q), round(self.r), round(self.s)
        dq, dr, ds = abs(q - self.q), abs(r - self.r), abs(s - self.s)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        else:
            s = -q - r
        return Hex(int(q), int(r), int(s))


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

    # -- offset <-> cube -------------------------------------------------
    def to_hex(self, cell: Cell) -> Hex:
        col, row = cell.col, cell.row
        if self._flat:
            q = col
            r = row - ((col - (col & 1)) // 2 if self._odd else (col + (col & 1)) // 2)
        else:
            r = row
            q = col - ((row - (row & 1)) // 2 if self._odd else (row + (row & 1)) // 2)
        return Hex(q, r, -q - r)

    def to_cell(self, h: Hex) -> Cell:
        q, r = h.q, h.r
        if self._flat:
            row = r + ((q - (q & 1)) // 2 if self._odd else (q + (q & 1)) // 2)
            return Cell(q, row)
        col = q + ((r - (r & 1)) // 2 if self._odd else (r + (r & 1)) // 2)
        return Cell(col, r)

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

    def distance(self, a: Cell, b: Cell) -> int:
        """Cube distance: the number of hex steps between the two hexes."""
        return self.to_hex(a).distance(self.to_hex(b))

    def can_link(self, a: Cell, b: Cell) -> bool:
        return self.contains(a) and self.contains(b) and self.distance(a, b) == 1

    def within(self, cell: Cell, radius: int) -> list[Cell]:
        """On-map cells at distance ``<= radius`` from ``cell`` (a hex brush)."""
        h = self.to_hex(cell)
        out = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                c = self.to_cell(Hex(h.q + dq, h.r + dr, -h.q - dq - h.r - dr))
                if self.contains(c):
                    out.append(c)
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
