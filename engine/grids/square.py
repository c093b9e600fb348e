"""Square grids, 4- or 8-neighbour.

Axial coordinates of a square are its column and row, so the conversions
of :class:`~engine.grids.base.Grid` are the identity here.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from .base import Cell, Edge, Grid, GridError, GridKind, Layout, Point, Step

# Neighbour order: N, E, S, W, then NE, SE, SW, NW.  Rules that must break
# ties deterministically rely on this order.
ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


class SquareGrid(Grid):
    """A rectangle of squares.

    With ``neighbours=4`` cells touch across their four sides and the
    distance is the Manhattan distance ``|dc| + |dr|``.  With
    ``neighbours=8`` diagonal cells also touch and the distance is the
    Chebyshev distance ``max(|dc|, |dr|)``.  Either way, two cells share a
    *side* only when they are orthogonal neighbours; diagonal neighbours share
    a corner.  Links (rail, road) may always join diagonal neighbours.
    """

    kind = GridKind.SQUARE

    def __init__(self, width: int, height: int, neighbours: Literal[4, 8] = 8) -> None:
        super().__init__(width, height)
        if neighbours not in (4, 8):
            raise GridError(f"square grid neighbours must be 4 or 8, got {neighbours!r}")
        self.neighbour_count: Literal[4, 8] = neighbours
        self._steps = ORTHOGONAL + DIAGONAL if neighbours == 8 else ORTHOGONAL

    def neighbours(self, cell: Cell) -> list[Cell]:
        """On-map neighbours in the order N, E, S, W (then NE, SE, SW, NW)."""
        out = []
        w, h = self.width, self.height
        for dc, dr in self._steps:
            c, r = cell.col + dc, cell.row + dr
            if 0 <= c < w and 0 <= r < h:
                out.append(Cell(c, r))
        return out

    def link_neighbours(self, cell: Cell) -> list[Cell]:
        out = []
        for dc, dr in ORTHOGONAL + DIAGONAL:
            c, r = cell.col + dc, cell.row + dr
            if 0 <= c < self.width and 0 <= r < self.height:
                out.append(Cell(c, r))
        return out

    def can_link(self, a: Cell, b: Cell) -> bool:
        """Links may join any two of the eight neighbours (on either grid)."""
        return a != b and max(abs(a.col - b.col), abs(a.row - b.row)) == 1 and self.contains(a) and self.contains(b)

    def neighbour_steps(self, cell: Cell) -> tuple[Step, ...]:
        """N, E, S, W (then NE, SE, SW, NW), the same for every square."""
        return self._steps

    def link_steps(self, cell: Cell) -> tuple[Step, ...]:
        """All eight steps, N, E, S, W, NE, SE, SW, NW (links may join
        diagonal neighbours on either grid)."""
        return ORTHOGONAL + DIAGONAL

    def to_axial(self, cell: Cell) -> tuple[int, int]:
        return cell.col, cell.row

    def from_axial(self, q: int, r: int) -> Cell:
        return Cell(q, r)

    def offset_to_axial_arrays(self, cols: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(cols), np.asarray(rows)

    def axial_to_offset_arrays(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(q), np.asarray(r)

    def side_structure(self) -> np.ndarray:
        """Orthogonal steps only: diagonal squares share a corner, not a side."""
        return np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)

    def label_sides(self, mask: np.ndarray) -> np.ndarray:
        """Labelled on the mask as it is: a square's axial frame is its
        storage frame (the structure is symmetric, so ``[dq, dr]`` and
        ``[drow, dcol]`` read the same), which spares the base method's copy
        into that frame (five times faster on a million squares)."""
        from scipy import ndimage

        labels, _ = ndimage.label(mask, structure=self.side_structure())
        out: np.ndarray = labels
        return out

    def disc(self, center: Cell, radius: int) -> list[Cell]:
        """On-map squares within :meth:`distance` (Manhattan or Chebyshev)
        of ``center``, row by row, west to east."""
        c0, r0 = center.col, center.row
        return [Cell(c, r)
                for r in range(max(0, r0 - radius), min(self.height, r0 + radius + 1))
                for c in range(max(0, c0 - radius), min(self.width, c0 + radius + 1))
                if self.distance(center, Cell(c, r)) <= radius]

    def brush(self, center: Cell, size: int) -> list[Cell]:
        """A ``size`` x ``size`` block (whatever the neighbour count); for an
        even size it reaches one square further east and south than west and
        north.  Row by row, west to east."""
        lo, hi = (size - 1) // 2, size // 2
        return [Cell(c, r)
                for r in range(max(0, center.row - lo), min(self.height, center.row + hi + 1))
                for c in range(max(0, center.col - lo), min(self.width, center.col + hi + 1))]

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """``max(|dc|, |dr|) + 1`` squares, interpolated and rounded half up
        (diagonal steps allowed, as links allow them)."""
        n = max(abs(b.col - a.col), abs(b.row - a.row))
        if n == 0:
            return [a]
        return [Cell(_round_half_up(a.col + (b.col - a.col) * i / n), _round_half_up(a.row + (b.row - a.row) * i / n))
                for i in range(n + 1)]

    def distance(self, a: Cell, b: Cell) -> int:
        """Manhattan distance on a 4-neighbour grid, Chebyshev distance on an
        8-neighbour grid."""
        dc, dr = abs(a.col - b.col), abs(a.row - b.row)
        return dc + dr if self.neighbour_count == 4 else max(dc, dr)

    def shares_side(self, a: Cell, b: Cell) -> bool:
        return abs(a.col - b.col) + abs(a.row - b.row) == 1

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "square", "width": self.width, "height": self.height,
                "neighbours": self.neighbour_count}

    def make_layout(self, size: float) -> SquareLayout:
        return SquareLayout(self, size)


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


class SquareLayout(Layout):
    """Squares of side ``size``; cell (0, 0) has its top-left corner at 0, 0."""

    def __init__(self, grid: SquareGrid, size: float) -> None:
        if not size > 0:
            raise GridError(f"cell size must be positive, got {size!r}")
        self.grid = grid
        self.size = float(size)

    def center(self, cell: Cell) -> Point:
        s = self.size
        return ((cell.col + 0.5) * s, (cell.row + 0.5) * s)

    def corners(self, cell: Cell) -> list[Point]:
        s = self.size
        x, y = cell.col * s, cell.row * s
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]

    def pick(self, x: float, y: float) -> Cell:
        return Cell(math.floor(x / self.size), math.floor(y / self.size))

    def edge_segment(self, edge: Edge) -> tuple[Point, Point]:
        a, b = edge.a, edge.b
        s = self.size
        if a.row == b.row:  # vertical edge between west a and east b
            x = max(a.col, b.col) * s
            return (x, a.row * s), (x, (a.row + 1) * s)
        if a.col == b.col:
            y = max(a.row, b.row) * s
            return (a.col * s, y), ((a.col + 1) * s, y)
        raise GridError(f"{a!r} and {b!r} share no side")

    def edge_segments(self, ac: np.ndarray, ar: np.ndarray, bc: np.ndarray, br: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`edge_segment` as arrays; NaN where the cells share no side."""
        ac, ar, bc, br = (np.asarray(v, np.int64) for v in (ac, ar, bc, br))
        s = self.size
        across = ar == br  # a vertical side between west and east (as the scalar form reads it)
        down = (ac == bc) & ~across
        xv, yh = np.maximum(ac, bc) * s, np.maximum(ar, br) * s
        nan = np.nan
        x0 = np.where(across, xv, np.where(down, ac * s, nan))
        y0 = np.where(across, ar * s, np.where(down, yh, nan))
        x1 = np.where(across, xv, np.where(down, (ac + 1) * s, nan))
        y1 = np.where(across, (ar + 1) * s, np.where(down, yh, nan))
        return x0, y0, x1, y1

    def bounds(self) -> tuple[float, float]:
        return self.grid.width * self.size, self.grid.height * self.size

    def cells_in_rect(self, x0: float, y0: float, x1: float, y1: float) -> tuple[range, range]:
        s = self.size
        c0 = max(0, math.floor(x0 / s))
        c1 = min(self.grid.width, math.floor(x1 / s) + 1)
        r0 = max(0, math.floor(y0 / s))
        r1 = min(self.grid.height, math.floor(y1 / s) + 1)
        return range(c0, max(c0, c1)), range(r0, max(r0, r1))
