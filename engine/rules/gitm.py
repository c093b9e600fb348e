"""GITM ("Gathered In Their Masses") tactical movement: the straight-line march.

Implements shared seed 002, *Tactical Movement in GITM*.  A move names a
start (where the unit stands), an end and optionally one waypoint; each
straight *leg* (start to waypoint, waypoint to end) is checked on its own.
See ``docs/rules/gitm.md`` for every decision taken where the document is
ambiguous.

(Longer than 600 lines on purpose: the line, the squares it checks, the
verdict and the registered system are one rule read top to bottom, and a
system kept as a single module stays one file; ``docs/developing.md``,
"How to add a rules system".)

The line
    A leg from ``(c0, r0)`` to ``(c1, r1)`` has ``n = max(|c1-c0|, |r1-r0|)``
    steps.  Step ``i`` (``1 <= i <= n``) advances one whole square along the
    major axis and exactly ``i/n`` of the move along the other, so position
    ``i`` is ``(c0 + i*(c1-c0)/n, r0 + i*(r1-r0)/n)``: one coordinate whole,
    the other a fraction with denominator ``n``.  Everything is computed with
    integers (numerators over ``n``); :func:`line` returns the same positions
    as :class:`fractions.Fraction` values.  No floats anywhere.

Rounding
    A position rounds to the nearest square, an exact half rounding *down*
    (2.5 -> 2): :func:`round_half_down`.  A fractional position also has an
    *other* candidate square (the one it does not round to); a whole position
    has only its own square.

Which squares are checked (the document's graphics)
    * ``T/U`` (terrain and units): every rounded square after the start, the
      destination included (the start square is not checked: the graphics
      leave it blank).
    * ``U`` (units only): on an exact 45-degree diagonal, the two squares
      flanking each diagonal step (including the first step out of the
      start); on any other non-orthogonal line, the other rounding candidate
      of each fractional position.  A due N/S/E/W line has no ``U`` squares.

Terrain blocks (ruleset data: :attr:`TerrainType.impassable`,
:attr:`TerrainType.linear`, :attr:`TerrainType.elevation`)
    * an impassable ``T/U`` square;
    * a diagonal step between consecutive rounded squares whose two flanking
      squares are both *linear* terrain (river, mountain ridge);
    * a step between consecutive rounded squares (the first step from the
      start included) whose elevations differ by more than the ruleset
      option ``gitm.max_climb`` (default 1: flat 0 to high hills 2 is too
      steep).

Unit blocks
    Units of a side that is not allied to the mover's side (enemy or neutral)
    standing on any checked square.  When every other unit on the map is
    allied (or there is none) the move succeeds automatically and nothing is
    checked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import pairwise
from math import gcd
from typing import Annotated, Any, Literal, NamedTuple

import numpy as np

from ..grids import Cell, SquareGrid
from ..labels import NumericNumbering
from ..model import GridMap, ModelError, Scenario, Unit
from .base import AtLeast, RulesSystem, UnitsMoved, Verdict
from .registry import register

SYSTEM = "gitm"
"""Key of this system's options in :attr:`Ruleset.options`."""

CheckKind = Literal["T/U", "U"]
"""``T/U``: checked for terrain and units; ``U``: checked for units only."""

BlockBy = Literal["terrain", "unit"]

Direction = Literal["orthogonal", "diagonal", "oblique"]
"""Due N/S/E/W; exact 45-degree diagonal; any other line (the document's
cases 1, 2 and 3)."""

TU: CheckKind = "T/U"
U: CheckKind = "U"


# ---------------------------------------------------------------------------
# exact line arithmetic

def round_half_down(x: Fraction | int) -> int:
    """The integer nearest to ``x``, an exact half rounding down
    (``round_half_down(Fraction(5, 2)) == 2``, ``Fraction(-5, 2) -> -3``)."""
    f = Fraction(x)
    # nearest with ties down == ceil(x - 1/2)
    return -((f.denominator - 2 * f.numerator) // (2 * f.denominator))


def step_count(start: Cell, end: Cell) -> int:
    """Steps of the straight line: the Chebyshev distance
    ``max(|dcol|, |drow|)``."""
    return max(abs(end.col - start.col), abs(end.row - start.row))


def direction(start: Cell, end: Cell) -> Direction:
    """The document's case of a line: ``orthogonal`` (due N, S, E or W),
    ``diagonal`` (due NE, SE, SW or NW, 45 degrees) or ``oblique``.  A
    zero-length line counts as orthogonal."""
    dc, dr = end.col - start.col, end.row - start.row
    if dc == 0 or dr == 0:
        return "orthogonal"
    if abs(dc) == abs(dr):
        return "diagonal"
    return "oblique"


def line(start: Cell, end: Cell) -> tuple[tuple[Fraction, Fraction], ...]:
    """The exact positions ``(col, row)`` of the line, start included: ``n +
    1`` positions for ``n`` steps, in storage coordinates (0-based)."""
    n = step_count(start, end)
    if n == 0:
        return ((Fraction(start.col), Fraction(start.row)),)
    dc, dr = end.col - start.col, end.row - start.row
    return tuple((start.col + Fraction(i * dc, n), start.row + Fraction(i * dr, n)) for i in range(n + 1))


def rounded_line(start: Cell, end: Cell) -> tuple[Cell, ...]:
    """The rounded squares of the line, start included (the document's
    "rounded path")."""
    cols, rows = _rounded_arrays(start.col, start.row, end.col, end.row)
    return tuple(Cell(c, r) for c, r in zip(cols.tolist(), rows.tolist(), strict=True))


def _rounded_arrays(c0: int, r0: int, c1: int, r1: int) -> tuple[np.ndarray, np.ndarray]:
    """Columns and rows (``int64``) of the rounded squares, start included.

    Integer arithmetic only: position ``i`` has the coordinate ``N / n`` with
    ``N = x0*n + i*d``; rounded to the nearest, a half down, that is
    ``ceil((2N - n) / 2n) == (2N + n - 1) // 2n`` (floor division)."""
    dc, dr = c1 - c0, r1 - r0
    n = max(abs(dc), abs(dr))
    if n == 0:
        return np.array([c0], dtype=np.int64), np.array([r0], dtype=np.int64)
    sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
    if abs(dc) == abs(dr) or dc == 0 or dr == 0:  # whole at every step
        cols = np.arange(c0, c1 + sc, sc, dtype=np.int64) if sc else np.full(n + 1, c0, dtype=np.int64)
        rows = np.arange(r0, r1 + sr, sr, dtype=np.int64) if sr else np.full(n + 1, r0, dtype=np.int64)
        return cols, rows
    i = np.arange(n + 1, dtype=np.int64)
    if abs(dc) > abs(dr):
        return i * sc + c0, (i * (2 * dr) + (2 * r0 * n + n - 1)) // (2 * n)
    return (i * (2 * dc) + (2 * c0 * n + n - 1)) // (2 * n), i * sr + r0


@dataclass(frozen=True, eq=False)
class _Luts:
    """Terrain properties by terrain index, as arrays for vectorised lookup."""

    imp: np.ndarray  # bool
    lin: np.ndarray  # bool
    elev: np.ndarray  # int64
    any_imp: bool
    any_lin: bool
    elev_range: int


_LUT_CACHE: dict[tuple[tuple[bool, bool, int], ...], _Luts] = {}


def _luts(scenario: Scenario) -> _Luts:
    key = tuple((t.impassable, t.linear, t.elevation) for t in scenario.ruleset.terrain)
    luts = _LUT_CACHE.get(key)
    if luts is None:
        if len(_LUT_CACHE) > 64:
            _LUT_CACHE.clear()
        imp, lin, elev = zip(*key, strict=True)
        luts = _LUT_CACHE[key] = _Luts(np.array(imp, dtype=bool), np.array(lin, dtype=bool),
                                       np.array(elev, dtype=np.int64), any(imp), any(lin), max(elev) - min(elev))
    return luts


# ---------------------------------------------------------------------------
# options

DiagonalUnits = Literal["flanks", "adjacent"]


@dataclass(frozen=True)
class GitmOptions:
    """The ``gitm`` options of a ruleset (see ``docs/rules/gitm.md``).

    * ``max_climb`` (int, default 1): the largest elevation difference one
      step may cross; flat 0 to high hills 2 is too steep.
    * ``linear_must_match`` (bool, default false): when true, a diagonal step
      is blocked only by two linear squares of the *same* terrain type (two
      rivers, two mountains); by default any two linear squares join.
    * ``diagonal_units`` (``"flanks"`` default, or ``"adjacent"``): on a
      45-degree diagonal, the ``U`` squares are the two squares flanking each
      step (the graphics), or every square sharing a side with a square of
      the path, start included (the case 2 sentence read literally).
    * ``check_start`` (bool, default false): also check the start square for
      enemy or neutral units (the graphics do not).
    * ``neutral_sides`` (list of side ids): sides called "neutral" rather
      than "enemy" in reasons; by default sides whose id, name or alliance is
      "neutral".  Either way, every side not allied to the mover blocks.
    """

    max_climb: Annotated[int, AtLeast(0)] = 1
    linear_must_match: bool = False
    diagonal_units: DiagonalUnits = "flanks"
    check_start: bool = False
    neutral_sides: tuple[str, ...] | None = None

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> GitmOptions:
        """Read and validate the options (:func:`~engine.rules.base.read_options`);
        raises :class:`~engine.rules.base.OptionError` naming the bad key.
        Read through :meth:`Gitm.options`, which keeps them read."""
        return Gitm().options(scenario)


# ---------------------------------------------------------------------------
# results

class Check(NamedTuple):
    """A square the move checks: ``kind`` ``T/U`` or ``U``; ``leg`` 0 or 1;
    ``step`` the step (1-based) of that leg it belongs to (0: the start)."""

    cell: Cell
    kind: CheckKind
    leg: int
    step: int


@dataclass(frozen=True)
class Block:
    """One reason the move is blocked.

    ``cell`` is the square to point at (the impassable square, the first of
    the two linear squares, the far end of a steep step, the unit's square);
    ``cells`` all squares involved; ``unit_id`` the blocking unit when
    ``by == "unit"``; ``leg`` and ``step`` where on the move it happens.
    """

    cell: Cell
    by: BlockBy
    reason: str
    cells: tuple[Cell, ...]
    leg: int
    step: int
    unit_id: str | None = None


@dataclass(frozen=True)
class Leg:
    """One straight line of the move, ``start`` to ``end``; everything else
    about it (steps, direction, rounded squares) follows from those two."""

    start: Cell
    end: Cell

    @property
    def steps(self) -> int:
        return step_count(self.start, self.end)

    @property
    def direction(self) -> Direction:
        return direction(self.start, self.end)

    @cached_property
    def xy(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Storage columns and rows (``int64`` arrays) of the rounded
        squares, start included."""
        return _rounded_arrays(self.start.col, self.start.row, self.end.col, self.end.row)

    @cached_property
    def cols(self) -> tuple[int, ...]:
        """Storage columns of the rounded squares, start included."""
        return tuple(self.xy[0].tolist())

    @cached_property
    def rows(self) -> tuple[int, ...]:
        """Storage rows of the rounded squares, start included."""
        return tuple(self.xy[1].tolist())

    @cached_property
    def rounded(self) -> tuple[Cell, ...]:
        """Rounded squares, start included."""
        return tuple(Cell(c, r) for c, r in zip(self.cols, self.rows, strict=True))

    def positions(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """Exact positions, start included (storage coordinates)."""
        return line(self.start, self.end)

    def u_squares(self, diagonal_units: DiagonalUnits = "flanks",
                  width: int | None = None, height: int | None = None) -> list[tuple[int, Cell]]:
        """The ``U`` squares as ``(step, cell)`` in step order: the other
        rounding candidate of each fractional position (oblique line), the
        squares flanking each step (diagonal line; with ``"adjacent"`` every
        on-map square sharing a side with a path square, start included,
        that is not itself on the path), none (orthogonal line)."""
        return [(i, Cell(c, r)) for i, c, r in self.u_squares_xy(diagonal_units, width, height)]

    def u_squares_xy(self, diagonal_units: DiagonalUnits = "flanks",
                     width: int | None = None, height: int | None = None) -> list[tuple[int, int, int]]:
        """:meth:`u_squares` as ``(step, column, row)`` (no Cell made)."""
        steps, cols, rows = self.u_arrays(diagonal_units, width, height)
        return list(zip(steps.tolist(), cols.tolist(), rows.tolist(), strict=True))

    def u_arrays(self, diagonal_units: DiagonalUnits = "flanks", width: int | None = None,
                 height: int | None = None) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """:meth:`u_squares` as ``int64`` arrays of steps, columns and rows
        (a march across a big map has hundreds, on every hover)."""
        kind = self.direction
        cols, rows = self.xy
        n = self.steps
        if kind == "diagonal" and diagonal_units == "adjacent":
            on_path = set(zip(cols.tolist(), rows.tolist(), strict=True))
            seen: set[tuple[int, int]] = set()
            w = width if width is not None else 1 << 30
            h = height if height is not None else 1 << 30
            out: list[tuple[int, int, int]] = []
            for i, (c, r) in enumerate(zip(cols.tolist(), rows.tolist(), strict=True)):
                for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                    sq = (c + dc, r + dr)
                    if 0 <= sq[0] < w and 0 <= sq[1] < h and sq not in on_path and sq not in seen:
                        seen.add(sq)
                        out.append((i, *sq))
            a = np.array(out, np.int64).reshape(-1, 3)
            return a[:, 0], a[:, 1], a[:, 2]
        if kind == "diagonal":  # each step flanked by the two squares its corner touches
            st = np.repeat(np.arange(1, n + 1, dtype=np.int64), 2)
            uc = np.empty(2 * n, np.int64)
            ur = np.empty(2 * n, np.int64)
            uc[0::2], ur[0::2] = cols[:-1], rows[1:]
            uc[1::2], ur[1::2] = cols[1:], rows[:-1]
            return st, uc, ur
        if kind == "oblique":  # the other rounding of each fractional position
            c0, r0 = self.start.col, self.start.row
            dc, dr = self.end.col - c0, self.end.row - r0
            col_major = abs(dc) > abs(dr)
            x0, d = (r0, dr) if col_major else (c0, dc)
            ks = np.arange(1, n + 1, dtype=np.int64)
            q, rem = np.divmod(x0 * n + ks * d, n)
            frac = rem != 0
            other = np.where(2 * rem > n, q, q + 1)[frac]
            if col_major:
                return ks[frac], cols[1:][frac], other
            return ks[frac], other, rows[1:][frac]
        empty = np.zeros(0, np.int64)
        return empty, empty, empty


@dataclass(frozen=True)
class MarchResult:
    """The verdict on a straight-line march.

    ``blocks`` lists every reason the move is blocked, in path order
    (terrain before units at the same step).  ``auto_success``: every other
    unit is allied, so nothing was checked and the move succeeds.
    :attr:`path` and :attr:`checks` are built on first use from the legs.
    """

    unit_id: str
    start: Cell
    end: Cell
    via: Cell | None
    legs: tuple[Leg, ...]
    blocks: tuple[Block, ...]
    auto_success: bool
    reason: str
    options: GitmOptions
    map_size: tuple[int, int]
    """Width and height of the map (for the on-map test of ``U`` squares)."""
    gmap: GridMap | None = field(default=None, compare=False, repr=False)
    """The map, for labels and positions in :meth:`to_data`."""

    @property
    def blocked(self) -> bool:
        return bool(self.blocks)

    @property
    def ok(self) -> bool:
        """The verdict's answer (:class:`engine.rules.base.Verdict`): not blocked."""
        return not self.blocks

    @property
    def reasons(self) -> tuple[str, ...]:
        return (self.reason,)

    def to_data(self) -> dict[str, Any]:
        """The JSON form of the verdict (``adjutant march --json``): labels
        only, no storage cells."""
        gmap = self.gmap
        lab: Callable[[Cell], str] = gmap.label if gmap is not None else str

        def position(c: Fraction, rw: Fraction) -> str:
            return format_position(gmap, c, rw) if gmap is not None else f"({c}, {rw})"

        return {
            "unit": self.unit_id,
            "from": lab(self.start),
            "to": lab(self.end),
            "via": None if self.via is None else lab(self.via),
            "blocked": self.blocked,
            "auto_success": self.auto_success,
            "path": [lab(c) for c in self.path],
            "legs": [{"from": lab(leg.start), "to": lab(leg.end), "direction": leg.direction, "steps": leg.steps,
                      "positions": [position(c, rw) for c, rw in leg.positions()],
                      "rounded": [lab(c) for c in leg.rounded]} for leg in self.legs],
            "checks": [{"cell": lab(c.cell), "kind": c.kind} for c in self.checks],
            "blocks": [{"cell": lab(b.cell), "by": b.by, "reason": b.reason, "cells": [lab(c) for c in b.cells],
                        "leg": b.leg + 1, **({"unit": b.unit_id} if b.unit_id else {})} for b in self.blocks],
            "reason": self.reason,
        }

    @cached_property
    def path(self) -> tuple[Cell, ...]:
        """The rounded squares in order, start first, the waypoint once."""
        return (self.start, *(c for leg in self.legs for c in leg.rounded[1:]))

    def path_squares(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """:attr:`path` as arrays of columns and rows (no Cell per square)."""
        start = np.array([self.start.col], np.int64), np.array([self.start.row], np.int64)
        return (np.concatenate([start[0], *(leg.xy[0][1:] for leg in self.legs)]),
                np.concatenate([start[1], *(leg.xy[1][1:] for leg in self.legs)]))

    @cached_property
    def _check_arrays(self) -> tuple[np.ndarray[Any, Any], ...]:
        """:attr:`checks` as arrays in path order: columns, rows, whether
        ``T/U``, legs, steps.

        Each step's ``T/U`` square comes before its ``U`` squares; a square
        is listed once, where it is first met, with that step's leg and
        step, and is ``T/U`` when any step checks its terrain (a ``U``
        square a later step enters is upgraded).  As arrays, not a dict of
        squares (a march across a big map checks hundreds of squares on
        every hover)."""
        empty = np.zeros(0, np.int64)
        if self.auto_success:
            return empty, empty, np.zeros(0, bool), empty, empty
        cs: list[np.ndarray[Any, Any]] = []
        rs: list[np.ndarray[Any, Any]] = []
        tus: list[np.ndarray[Any, Any]] = []
        legs: list[np.ndarray[Any, Any]] = []
        steps: list[np.ndarray[Any, Any]] = []
        if self.options.check_start:
            one = np.zeros(1, np.int64)
            cs.append(one + self.start.col)
            rs.append(one + self.start.row)
            tus.append(np.zeros(1, bool))
            legs.append(one)
            steps.append(one)
        w, h = self.map_size
        for k, leg in enumerate(self.legs):
            us, uc, ur = leg.u_arrays(self.options.diagonal_units, w, h)
            lc, lr = leg.xy
            n = len(lc) - 1
            st = np.concatenate([np.arange(1, n + 1, dtype=np.int64), us])
            sub = np.concatenate([np.zeros(n, np.int64), np.arange(1, len(us) + 1, dtype=np.int64)])
            order = np.lexsort((sub, st))  # by step: its T/U square, then its U squares in order
            cs.append(np.concatenate([lc[1:], uc])[order])
            rs.append(np.concatenate([lr[1:], ur])[order])
            tus.append((sub == 0)[order])
            legs.append(np.full(len(st), k, np.int64))
            steps.append(st[order])
        c, r, tu = np.concatenate(cs), np.concatenate(rs), np.concatenate(tus)
        if len(c) == 0:
            return empty, empty, np.zeros(0, bool), empty, empty
        c0, r0 = int(c.min()), int(r.min())
        key = (c - c0) * (int(r.max()) - r0 + 1) + (r - r0)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        upgraded = np.zeros(len(first), bool)
        upgraded[inverse[tu]] = True
        order = np.argsort(first, kind="stable")
        at = first[order]
        return c[at], r[at], upgraded[order], np.concatenate(legs)[at], np.concatenate(steps)[at]

    @cached_property
    def checks(self) -> tuple[Check, ...]:
        """The squares checked, in path order (each step's ``T/U`` square,
        then its ``U`` squares), each square once (``T/U`` wins over ``U``
        where legs overlap); empty on an automatic success."""
        c, r, tu, leg, step = (a.tolist() for a in self._check_arrays)
        return tuple(Check(Cell(c_, r_), TU if t else U, lg, st)
                     for c_, r_, t, lg, st in zip(c, r, tu, leg, step, strict=True))

    def check_squares(self) -> dict[CheckKind, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
        """The columns and rows of the checked squares of each kind, in path
        order: :attr:`checks` without an object per square (a live preview
        of a march across a big map draws hundreds on every hover)."""
        c, r, tu, _leg, _step = self._check_arrays
        if len(c) == 0:
            return {}
        out: dict[CheckKind, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = {}
        order = [(TU, tu), (U, ~tu)]
        order.sort(key=lambda ks: int(np.argmax(ks[1])) if ks[1].any() else len(tu))  # the first seen first
        for kind, sel in order:
            if sel.any():
                out[kind] = (c[sel], r[sel])
        return out

    def cells_of(self, kind: CheckKind) -> tuple[Cell, ...]:
        """The checked squares of one kind, in path order."""
        return tuple(c.cell for c in self.checks if c.kind == kind)


# ---------------------------------------------------------------------------
# adjudication

def format_position(gmap: GridMap, col: Fraction, row: Fraction) -> str:
    """A position as the document writes it (``4-1.5``, ``10.67-5``) on a
    numeric numbering; whole positions are plain labels.  Fractions are shown
    to two decimals (exactly rounded, half up) for reading only; other
    numberings say "between A and B"."""
    if col.denominator == 1 and row.denominator == 1:
        return gmap.label(Cell(int(col), int(row)))
    num = gmap.numbering
    if isinstance(num, NumericNumbering):
        a, b = _decimal(col + num.first), _decimal(row + num.first)
        if num.order == "row-col":
            a, b = b, a
        return f"{a}{num.separator}{b}"
    lo = Cell(col.numerator // col.denominator, row.numerator // row.denominator)
    hi = Cell(-((-col.numerator) // col.denominator), -((-row.numerator) // row.denominator))
    return f"between {gmap.label(lo)} and {gmap.label(hi)}"


def _decimal(x: Fraction, places: int = 2) -> str:
    scale = 10 ** places
    n = (x.numerator * scale * 2 + x.denominator) // (2 * x.denominator)  # half up, exact
    whole, frac = divmod(n, scale)
    return f"{whole}" if frac == 0 else f"{whole}.{frac:0{places}d}".rstrip("0")


def _side_word(scenario: Scenario, side_id: str, options: GitmOptions) -> str:
    if options.neutral_sides is not None:
        return "neutral" if side_id in options.neutral_sides else "enemy"
    try:
        f = scenario.side(side_id)
    except ModelError:
        return "enemy"
    return "neutral" if "neutral" in (f.id.casefold(), f.name.casefold(), f.alliance.casefold()) else "enemy"


def _unit_hit(leg: Leg, uc: int, ur: int, diagonal_units: DiagonalUnits) -> tuple[CheckKind, int] | None:
    """Whether a unit at ``(uc, ur)`` stands on a square ``leg`` checks, and
    as what: ``(kind, step)``.  O(1), exact integer arithmetic: no list of
    squares is built."""
    c0, r0 = leg.start.col, leg.start.row
    dc, dr = leg.end.col - c0, leg.end.row - r0
    n = max(abs(dc), abs(dr))
    if n == 0:
        return None
    if abs(dc) == abs(dr):  # diagonal: the path is x == y in step units
        x = (uc - c0) * (1 if dc > 0 else -1)
        y = (ur - r0) * (1 if dr > 0 else -1)
        if x == y:
            return (TU, x) if 1 <= x <= n else None
        if x - y not in (1, -1):
            return None
        if diagonal_units == "adjacent":
            if 0 <= y <= n:
                return U, y
            return (U, x) if 0 <= x <= n else None
        m = min(x, y)  # a flank of step m+1: (x, y) = (m, m+1) or (m+1, m)
        return (U, m + 1) if 0 <= m < n else None
    if abs(dc) > abs(dr):  # whole columns, fractional rows
        j = (uc - c0) * (1 if dc > 0 else -1)
        x0, d, other = r0, dr, ur
    else:
        j = (ur - r0) * (1 if dr > 0 else -1)
        x0, d, other = c0, dc, uc
    if not 1 <= j <= n:
        return None
    q, rem = divmod(x0 * n + j * d, n)
    up = 2 * rem > n
    if other == q + up:
        return TU, j
    if rem and other == q + (not up):
        return U, j
    return None


VECTORISE_UNITS = 12
"""Above this many hostile units near the move, test them with numpy."""


def _units_hit(leg: Leg, uc: np.ndarray, ur: np.ndarray, diagonal_units: DiagonalUnits) -> np.ndarray:
    """:func:`_unit_hit` for many units at once: a bool array, true where
    the unit at ``(uc[k], ur[k])`` stands on a square ``leg`` checks."""
    c0, r0 = leg.start.col, leg.start.row
    dc, dr = leg.end.col - c0, leg.end.row - r0
    n = max(abs(dc), abs(dr))
    if n == 0:
        return np.zeros(uc.shape, dtype=bool)
    if abs(dc) == abs(dr):
        x = (uc - c0) * (1 if dc > 0 else -1)
        y = (ur - r0) * (1 if dr > 0 else -1)
        if diagonal_units == "adjacent":
            side = (np.abs(x - y) == 1) & (((y >= 0) & (y <= n)) | ((x >= 0) & (x <= n)))
            hit: np.ndarray = ((x == y) & (x >= 1) & (x <= n)) | side
            return hit
        # path: x == y in 1..n, i.e. |x-y| = 0 and x+y in 2..2n; flank of step m+1: |x-y| = 1 and
        # min(x, y) = m in 0..n-1, i.e. x+y in 1..2n-1.  Both: |x-y| <= 1 and x+y+|x-y| in 2..2n.
        ad = np.abs(x - y)
        v = x + y + ad
        hit = (ad <= 1) & (v >= 2) & (v <= 2 * n)
        return hit
    if abs(dc) > abs(dr):
        j = (uc - c0) * (1 if dc > 0 else -1)
        x0, d, other = r0, dr, ur
    else:
        j = (ur - r0) * (1 if dr > 0 else -1)
        x0, d, other = c0, dc, uc
    num = x0 * n + j * d
    q = num // n
    rem = num - q * n
    up = 2 * rem > n
    on: np.ndarray = (other == q + up) | ((rem != 0) & (other == q + ~up))
    return on & (j >= 1) & (j <= n)


def march(scenario: Scenario, unit: Unit | str, to: Cell, via: Cell | None = None,
          options: GitmOptions | None = None) -> MarchResult:
    """Adjudicate ``unit`` marching in a straight line to ``to`` (through
    ``via`` when given: two lines, each checked).

    Raises :class:`ModelError` if the map is not a square grid, a cell is
    off the map, or the move goes nowhere (``to`` is where the unit stands).
    A waypoint equal to the start or the end adds nothing (one line).
    Cost: O(steps) in numpy for terrain plus O(units) for units.
    """
    u = scenario.unit(unit) if isinstance(unit, str) else unit
    gmap = scenario.map
    w, h = gmap.width, gmap.height
    if not isinstance(gmap.grid, SquareGrid):
        raise ModelError(f"GITM tactical movement needs a square grid; '{scenario.name}' is a "
                         f"{gmap.grid.kind.value} map")
    for what, cell in (("destination", to), ("waypoint", via)):
        if cell is not None and not gmap.grid.contains(cell):
            try:
                shown = gmap.label(cell)
            except ValueError:
                shown = f"at column {cell.col}, row {cell.row} (counted from 0)"
            first, last = gmap.label(Cell(0, 0)), gmap.label(Cell(w - 1, h - 1))
            raise ModelError(f"the {what} {shown} is off the map (it runs from {first} to {last})")
    start = u.at
    if to == start:
        raise ModelError(f"{u.id} is already at {gmap.label(start)}; a march needs a different destination")
    opts = GitmOptions.from_scenario(scenario) if options is None else options
    ends = [start] + ([via] if via is not None and via not in (start, to) else []) + [to]
    label = gmap.label
    route = " -> ".join(label(c) for c in ends)

    legs = tuple(Leg(a, b) for a, b in pairwise(ends))

    # who could block: units of sides not allied to the mover's; only those
    # within a square of the move's bounding box can stand on a checked square
    allied: dict[str, bool] = {}
    near: list[Unit] = []
    others = hostile = 0
    x0, x1 = min(c.col for c in ends) - 1, max(c.col for c in ends) + 1
    y0, y1 = min(c.row for c in ends) - 1, max(c.row for c in ends) + 1
    for v in scenario.units:
        if v is u or v.id == u.id:
            continue
        others += 1
        ok = allied.get(v.side)
        if ok is None:
            ok = allied[v.side] = scenario.allied(u.side, v.side)
        if not ok:
            hostile += 1
            at = v.at
            if x0 <= at.col <= x1 and y0 <= at.row <= y1:
                near.append(v)
    if not hostile:
        reason = (f"There is no other unit on the map, so {u.id}'s march {route} succeeds automatically."
                  if others == 0 else
                  f"Every other unit on the map is allied to {u.id}, so the march {route} succeeds automatically "
                  "(no straight-line check is needed).")
        return MarchResult(u.id, start, to, via, legs, (), True, reason, opts, (w, h), gmap)

    blocks: list[Block] = []
    seen: set[tuple[Any, ...]] = set()

    def block(key: tuple[Any, ...], b: Block) -> None:
        if key not in seen:
            seen.add(key)
            blocks.append(b)

    # terrain, vectorised over each leg's steps
    terrain = scenario.ruleset.terrain
    luts = _luts(scenario)
    imp, lin, elev = luts.imp, luts.lin, luts.elev
    flat = gmap.terrain.reshape(-1)
    check_imp, check_lin, check_steep = luts.any_imp, luts.any_lin, luts.elev_range > opts.max_climb
    for k, leg in enumerate(legs):
        pc, pr = leg.xy  # the rounded squares, computed once per leg
        idx = pr * w + pc
        t = flat[idx]
        if check_imp:
            bad = imp[t[1:]]
            if bad.any():
                for i in np.flatnonzero(bad).tolist():
                    cell = Cell(int(pc[i + 1]), int(pr[i + 1]))
                    name = terrain[int(t[i + 1])].name
                    block(("imp", cell), Block(cell, "terrain", f"{name} at {label(cell)} is impassable", (cell,),
                                               k, i + 1))
        dc, dr = leg.end.col - leg.start.col, leg.end.row - leg.start.row
        if check_lin and dc and dr:
            # one flank of every step first, in one operation: (previous column, this row) is the square
            # before this one when columns are the major axis, the square below (above) the previous one
            # when rows are; only if one of those is linear look further
            if abs(dc) >= abs(dr):
                la = lin[flat[idx[1:] - (1 if dc > 0 else -1)]]
            else:
                la = lin[flat[idx[:-1] + (w if dr > 0 else -w)]]
            if la.any():
                hit = la & lin[flat[pr[:-1] * w + pc[1:]]] & (pc[1:] != pc[:-1]) & (pr[1:] != pr[:-1])
                for i in np.flatnonzero(hit).tolist():
                    frm, dst = Cell(int(pc[i]), int(pr[i])), Cell(int(pc[i + 1]), int(pr[i + 1]))
                    fa, fb = sorted((Cell(frm.col, dst.row), Cell(dst.col, frm.row)))
                    ta, tb = int(flat[fa.row * w + fa.col]), int(flat[fb.row * w + fb.col])
                    if opts.linear_must_match and ta != tb:
                        continue
                    na, nb = terrain[ta].name, terrain[tb].name
                    what = (f"{na} at {label(fa)} and {label(fb)}" if na == nb
                            else f"{na} at {label(fa)} and {nb} at {label(fb)}")
                    block(("lin", fa, fb, frm, dst),
                          Block(fa, "terrain", f"{what} block the diagonal step from {label(frm)} to {label(dst)}",
                                (fa, fb), k, i + 1))
        if check_steep:
            e = elev[t]
            if int(e.max()) - int(e.min()) > opts.max_climb:  # otherwise no step can be too steep
                climb = e[1:] - e[:-1]
                for i in np.flatnonzero(np.abs(climb) > opts.max_climb).tolist():
                    frm, dst = Cell(int(pc[i]), int(pr[i])), Cell(int(pc[i + 1]), int(pr[i + 1]))
                    up = int(climb[i])
                    block(("steep", frm, dst),
                          Block(dst, "terrain",
                                f"the step from {terrain[int(t[i])].name} at {label(frm)} to "
                                f"{terrain[int(t[i + 1])].name} at {label(dst)} is too steep "
                                f"({'up' if up > 0 else 'down'} {abs(up)} levels; at most {opts.max_climb} allowed)",
                                (frm, dst), k, i + 1))

    # units: every nearby hostile unit tested against each leg at once, in O(1) each
    if near:
        if opts.check_start:
            for v in near:
                if v.at == start:
                    block(("unit", v.id), Block(v.at, "unit", f"{_side_word(scenario, v.side, opts)} {v.id} at "
                                                f"{label(v.at)} (on the start square)", (v.at,), 0, 0, v.id))
        vectorise = len(near) > VECTORISE_UNITS
        if vectorise:
            uc = np.array([v.at.col for v in near], dtype=np.int64)
            ur = np.array([v.at.row for v in near], dtype=np.int64)
        for k, leg in enumerate(legs):
            if vectorise:  # many: one vectorised test first (tests check it agrees with the scalar one)
                candidates = [near[j] for j in np.flatnonzero(_units_hit(leg, uc, ur, opts.diagonal_units)).tolist()]
            else:  # a few units: one O(1) test each
                candidates = near
            for v in candidates:
                hit = _unit_hit(leg, v.at.col, v.at.row, opts.diagonal_units)
                if hit is None:
                    continue
                kind, step = hit
                why = _unit_context(gmap, leg, v.at, kind, step)
                block(("unit", v.id), Block(v.at, "unit", f"{_side_word(scenario, v.side, opts)} {v.id} at "
                                            f"{label(v.at)}{why}", (v.at,), k, step, v.id))

    blocks.sort(key=lambda b: (b.leg, b.step, b.by == "unit"))
    if blocks:
        reason = f"{u.id}'s march {route} is blocked: " + "; ".join(b.reason for b in blocks) + "."
    else:
        reason = (f"{u.id}'s march {route} is clear: no impassable or too-steep terrain on the line and no enemy "
                  "or neutral unit on any square checked.")
    return MarchResult(u.id, start, to, via, legs, tuple(blocks), False, reason, opts, (w, h), gmap)


def _unit_context(gmap: GridMap, leg: Leg, cell: Cell, kind: CheckKind, step: int) -> str:
    """Why a unit on ``cell`` blocks, in words."""
    if kind == TU:
        return " (on the path)" if cell != leg.end else " (on the destination)"
    if leg.direction == "diagonal":
        cols, rows = leg.cols, leg.rows
        if 1 <= step and cell.col in (cols[step - 1], cols[step]) and cell.row in (rows[step - 1], rows[step]):
            return (f", beside the diagonal step from {gmap.label(Cell(cols[step - 1], rows[step - 1]))} "
                    f"to {gmap.label(Cell(cols[step], rows[step]))}")
        return f", next to {gmap.label(Cell(cols[step], rows[step]))} on the diagonal path"
    n = leg.steps
    col = leg.start.col + Fraction(step * (leg.end.col - leg.start.col), n)
    row = leg.start.row + Fraction(step * (leg.end.row - leg.start.row), n)
    return f", where the line at {format_position(gmap, col, row)} can round either way"


def fractional_positions(start: Cell, end: Cell) -> int:
    """How many positions of the line (start excluded) are fractional, i.e.
    how many ``U`` squares an oblique line has: ``n - gcd(n, minor)``."""
    n = step_count(start, end)
    minor = min(abs(end.col - start.col), abs(end.row - start.row))
    return 0 if n == 0 else n - gcd(n, minor)


# ---------------------------------------------------------------------------
# the registered system


@dataclass(frozen=True)
class GitmOrder:
    """``{"unit": ID, "to": LABEL, "via": LABEL}``: march in a straight line
    to the square (through the waypoint when given)."""

    unit: str
    to: str
    via: str | None = None


@register
class Gitm(RulesSystem[Scenario, GitmOptions]):
    """GITM tactical movement as a registered system: :meth:`check` is
    :func:`march`; apply moves the unit to the destination when nothing
    blocks the march."""

    name = SYSTEM
    title = "GITM straight-line tactical movement"
    map_kinds = frozenset({"square"})
    Options = GitmOptions
    Order = GitmOrder
    doc = "docs/rules/gitm.md"
    once_per_turn = frozenset({"marched"})
    """Turn rule (``docs/rules/gitm.md``): one march per unit per turn."""

    def action_of(self, order: Mapping[str, Any]) -> str:
        return "marched"

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> MarchResult:
        o: GitmOrder = self.read_order(order)
        gmap = scenario.map
        via = gmap.parse_label(o.via) if o.via is not None else None
        return march(scenario, o.unit, gmap.parse_label(o.to), via)

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, MarchResult)
        return UnitsMoved.move(scenario, self.name, [(verdict.unit_id, verdict.end)])


__all__ = [
    "SYSTEM", "Block", "BlockBy", "Check", "CheckKind", "DiagonalUnits", "Direction", "Gitm", "GitmOptions",
    "GitmOrder", "Leg", "MarchResult", "direction", "format_position", "fractional_positions", "line", "march",
    "round_half_down", "rounded_line", "step_count",
]
