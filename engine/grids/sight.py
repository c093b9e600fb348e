"""Which cells and sides a straight line between two cell centres crosses,
exactly: integer arithmetic, no epsilon.

Cells are convex polygons in an integer lattice: a square cell ``(c, r)``
is ``|x - 2c| <= 1, |y - 2r| <= 1``; a hex with axial coordinates ``(q, r)``
is, in coordinates ``(x, y) = 3 (q, r)`` (cube ``z = -x - y``),
``|u - U| <= 3, |v - V| <= 3, |w - W| <= 3`` with ``u = x - y``,
``v = x + 2y``, ``w = -2x - y`` and ``U, V, W`` the same forms at its centre.
A side is where one of those bounds is reached; each bound faces one
neighbour.  A line ``P(t) = A + t (B - A)`` leaves a cell through the bound
it reaches first; the parameter of each bound is a ratio of integers, kept
as a numerator over a fixed positive denominator per bound family and
compared by cross-multiplication.

A line may run exactly along a side or pass exactly through a corner.  Both
are resolved by two *nudged* lines: the line moved an infinitesimal amount
to its left, and to its right (symbolically: a tie between two bounds at
the same parameter is broken by the order in which the shifted line would
reach them, a fixed order per direction, worked out from the same
integers).  A nudged line never meets a corner or runs along a side, so
each gives a plain sequence of cells joined by the sides it crosses.  What
both sequences hold, the line crosses; what only one holds, the line
touches at a corner or runs beside along a side: a tie, which the caller
resolves by its rule (blocked if either way is blocked, or only if both
are).  Reversing the line swaps its left and right, so the pair of
sequences, and any verdict that treats left and right alike, is the same
from B to A; a symmetry of the grid maps the pair onto the pair of the
image line.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .base import Cell, Grid

Lattice = tuple[int, int]
"""A cell in lattice coordinates: ``(col, row)`` for squares, axial
``(q, r)`` for hexes."""

_HEX_FORMS: tuple[tuple[int, int, Lattice], ...] = (
    (1, -1, (1, -1)),   # u = x - y: the + bound faces axial (+1, -1)
    (1, 2, (0, 1)),     # v = x + 2y: faces (0, +1)
    (-2, -1, (-1, 0)),  # w = -2x - y: faces (-1, 0)
)
_SQUARE_FORMS: tuple[tuple[int, int, Lattice], ...] = (
    (1, 0, (1, 0)),
    (0, 1, (0, 1)),
)


@dataclass(frozen=True)
class Walk:
    """One nudged line's cells in order (lattice coordinates, from the
    start cell to the end cell) and the parameter ``t`` (a fraction
    ``num / den`` of the way from A to B, the line's own, not the nudged
    one's) at which it enters each cell after the first."""

    cells: tuple[Lattice, ...]
    enter: tuple[tuple[int, int], ...]

    def t_in(self, i: int) -> Fraction:
        """The parameter at which the walk enters its ``i``-th cell (0 for the first)."""
        if i == 0:
            return Fraction(0)
        n, d = self.enter[i - 1]
        return Fraction(n, d)

    def t_out(self, i: int) -> Fraction:
        """The parameter at which the walk leaves its ``i``-th cell (1 for the last)."""
        if i == len(self.cells) - 1:
            return Fraction(1)
        n, d = self.enter[i]
        return Fraction(n, d)


@dataclass(frozen=True)
class Crossing:
    """The two nudged walks of a line from ``a`` to ``b``; ``tied`` when
    they differ (the line touches a corner or runs along a side)."""

    a: Lattice
    b: Lattice
    left: Walk
    right: Walk

    @property
    def tied(self) -> bool:
        return self.left.cells != self.right.cells


def is_hex(grid: Grid) -> bool:
    """Whether ``grid``'s cells are hexes."""
    from .hexgrid import HexGrid

    return isinstance(grid, HexGrid)


class Walker:
    """The walk of the line from ``a``'s centre to ``b``'s nudged to its
    left (or right), taken a stretch at a time (:meth:`advance`): a caller
    that only needs the walk up to the first thing that blocks stops there.
    ``cells`` and ``enter`` grow as it goes (as in :class:`Walk`);
    ``first_tie`` is the index in ``enter`` of the first step at which two
    bounds were reached at exactly the same parameter (``None``: none yet) --
    up to it, the left and right walks are the same."""

    def __init__(self, grid: Grid, a: Cell, b: Cell, left: bool) -> None:
        forms, scale, bound = (_HEX_FORMS, 3, 3) if is_hex(grid) else (_SQUARE_FORMS, 2, 1)
        la, lb = grid.to_axial(a), grid.to_axial(b)
        dx, dy = scale * (lb[0] - la[0]), scale * (lb[1] - la[1])
        if scale == 3:
            nx, ny = dx + dy, -dx  # D turned by 60 degrees: a fixed side of the line
        else:
            nx, ny = -dy, dx  # D turned by 90 degrees
        if not left:
            nx, ny = -nx, -ny
        fams = []
        for lx, ly, (ex, ey) in forms:
            s = lx * dx + ly * dy
            if s == 0:
                continue
            sign = 1 if s > 0 else -1
            # the bound reached: sign * (L.P(t) - L.centre) = bound, at t = M / S
            # with M = bound + sign * (L.centre - L.A) and S = |s|; the line
            # shifted by eps * N reaches it at t - eps * nudge / S
            nudge = sign * (lx * nx + ly * ny)
            fams.append((Fraction(-nudge, abs(s)), lx, ly, sign, abs(s), (sign * ex, sign * ey)))
        # on a tie the shifted line reaches first the bound with the smallest
        # -nudge / S: families in that order, the first of equals wins
        fams.sort(key=lambda f: f[0])
        self._S = [f[4] for f in fams]
        self._steps = [f[5] for f in fams]
        # leaving across family g's bound moves the centre by scale * step_g,
        # and every M_f grows by sign_f * L_f . (scale * step_g)
        self._inc = [[f[3] * (f[1] * scale * g[5][0] + f[2] * scale * g[5][1]) for f in fams] for g in fams]
        self._M = [bound] * len(fams)
        self._q, self._r = la
        self.end: Lattice = lb
        self.cells: list[Lattice] = [la]
        self.enter: list[tuple[int, int]] = []
        self.first_tie: int | None = None
        self._limit = 4 * (abs(lb[0] - la[0]) + abs(lb[1] - la[1])) + 8

    @property
    def done(self) -> bool:
        return self._q == self.end[0] and self._r == self.end[1]

    def advance(self, steps: int) -> None:
        """Take up to ``steps`` more steps (fewer when the end is reached)."""
        M, S, inc, moves = self._M, self._S, self._inc, self._steps
        k = len(M)
        q, r = self._q, self._r
        bq, br = self.end
        cells, enter = self.cells, self.enter
        tie = self.first_tie
        while steps > 0 and (q != bq or r != br):
            steps -= 1
            g = 0
            mg, sg = M[0], S[0]
            for f in range(1, k):
                lhs, rhs = M[f] * sg, mg * S[f]
                if lhs < rhs:
                    g, mg, sg = f, M[f], S[f]
                elif lhs == rhs and tie is None:
                    tie = len(enter)
            enter.append((mg, sg))
            dq, dr = moves[g]
            q += dq
            r += dr
            cells.append((q, r))
            ig = inc[g]
            for f in range(k):
                M[f] += ig[f]
        self._q, self._r, self.first_tie = q, r, tie
        if len(enter) > self._limit:
            raise AssertionError("line walk did not reach its end cell")

    def walk(self) -> Walk:
        """The walk so far as a :class:`Walk`."""
        return Walk(tuple(self.cells), tuple(self.enter))


def crossing(grid: Grid, a: Cell, b: Cell) -> Crossing:
    """The two nudged walks of the line from the centre of ``a`` to that of
    ``b`` (see the module docstring)."""
    left = Walker(grid, a, b, True)
    left.advance(1 << 62)
    lw = left.walk()
    if left.first_tie is None:
        return Crossing(lw.cells[0], left.end, lw, lw)
    right = Walker(grid, a, b, False)
    right.advance(1 << 62)
    return Crossing(lw.cells[0], left.end, lw, right.walk())


def to_cell(grid: Grid, lattice: Lattice) -> Cell:
    """The cell at lattice coordinates (it may lie off the map)."""
    return grid.from_axial(*lattice)
