"""Checked line of sight between two cells of a square or hex map: every
cell and side the line crosses or touches, classified exactly, the first
that blocks and why.

The geometry is :mod:`engine.grids.sight` (integer arithmetic, no epsilon):
the line from centre to centre, and the same line nudged to its left and to
its right.  What both nudged lines cross, the line *crosses*; what only one
does, the line touches: a cell touched at a corner or a side it passes
exactly through the end of (a ``vertex`` tie), or a cell it runs beside
along a side (an ``along`` tie; the side itself it runs along is on both
ways).  A *way* is one nudged line; the scenario's ``tie`` rule resolves
the two: ``either`` (blocked if either way is blocked) or ``both`` (blocked
only if both are).  Left and right swap when the line is reversed and
under a reflection of the grid, so the verdict is the same from B to A and
under the grid's symmetries.

What blocks (:class:`SightRules`, ``ruleset.options.movement.sight``):

* a cell between the ends whose terrain is in ``blocking_terrain`` (when
  ``heights`` gives that terrain no height);
* a side whose feature is in ``blocking_sides`` (``river``, a bridge kind, a
  ``hexsides`` kind of the movement options);
* with heights: each cell's ground is its terrain type's ``elevation``
  (when ``elevation`` is true; else 0) and its top is the ground plus
  ``heights[terrain]``; the eye is at the first cell's ground, the target at
  the last's, and the line's height varies linearly between them along the
  line.  A cell between the ends blocks when its top is higher than the line
  at the lower end of the stretch the line spends in it (for a tie cell, the
  stretch it touches or runs beside).  Equal heights do not block.

The end cells never block (a unit sees out of woods and into them).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from .grids import Cell, Edge
from .grids.sight import Crossing, Lattice, Walk, Walker, crossing, is_hex, to_cell
from .model import ModelError, Scenario

How = Literal["crosses", "vertex", "along"]
Ways = Literal["both", "left", "right"]


@dataclass(frozen=True)
class SightRules:
    """What blocks sight; see the module docstring."""

    blocking_terrain: tuple[str, ...] = ()
    blocking_sides: tuple[str, ...] = ()
    heights: Mapping[str, int] = field(default_factory=dict)
    elevation: bool = False
    tie: Literal["either", "both"] = "either"


@dataclass(frozen=True)
class Element:
    """One cell or side on the line: ``how`` the line meets it, on which
    ``ways`` (both, or only the left or right nudged line), the stretch of
    the line ``t_in``..``t_out`` (0 at the first cell's centre, 1 at the
    last's) and ``blocks``: why it blocks, or ``None``."""

    kind: Literal["cell", "side"]
    label: str
    how: How
    ways: Ways
    t_in: Fraction
    t_out: Fraction
    blocks: str | None

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label, "how": self.how, "ways": self.ways,
                "at": _num(self.t_in), **({"to": _num(self.t_out)} if self.t_out != self.t_in else {}),
                "blocks": self.blocks}


def _num(x: Fraction) -> int | str:
    return int(x) if x.denominator == 1 else str(x)


@dataclass(frozen=True)
class Sight:
    """The verdict on the line from ``start`` to ``end``: ``clear``, the
    ``blocker`` (``None`` when clear) and the ``reason``.  :attr:`elements`
    lists every cell and side the line meets, worked out when first asked
    (the verdict itself reads only what can block)."""

    start: str
    end: str
    tie: str
    clear: bool
    blocker: Element | None
    reason: str
    _build: Callable[[], list[Element]] = field(repr=False, compare=False)
    _cache: list[list[Element]] = field(default_factory=list, repr=False, compare=False)

    @property
    def elements(self) -> tuple[Element, ...]:
        if not self._cache:
            self._cache.append(self._build())
        return tuple(self._cache[0])

    @property
    def ok(self) -> bool:
        return self.clear

    @property
    def reasons(self) -> tuple[str, ...]:
        return (self.reason,)

    @property
    def ties(self) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.how != "crosses")

    def to_data(self) -> dict[str, Any]:
        es = self.elements
        return {"from": self.start, "to": self.end, "clear": self.clear, "tie_rule": self.tie,
                "blocker": None if self.blocker is None else self.blocker.to_data(), "reason": self.reason,
                "elements": [e.to_data() for e in es],
                "ties": sorted({e.how for e in es if e.how != "crosses"})}


class _Map:
    """What the verdict reads of the scenario, indexed once per map, rules
    and side layers (:func:`_map_for` keeps it while they stay the same)."""

    def __init__(self, scenario: Scenario, rules: SightRules, hexsides: Mapping[str, Sequence[Sequence[str]]]) -> None:
        gm = scenario.map
        self.gm = gm
        self.grid = gm.grid
        self.hexes = is_hex(gm.grid)
        self.terrain = scenario.ruleset.terrain
        self.rules = rules
        ids = [t.id for t in self.terrain]
        for tid in (*rules.blocking_terrain, *rules.heights):
            if tid not in ids:
                raise ModelError(f"ruleset.options.movement.sight: no terrain {tid!r} in the ruleset "
                                 f"(known: {', '.join(sorted(ids))})")
        self.sides: dict[Edge, list[str]] = {}
        for e in gm.rivers:
            self.sides.setdefault(e, []).append(gm.bridges.get(e, "river"))
        for kind, pairs in hexsides.items():
            for la, lb in pairs:
                a, b = gm.parse_label(la), gm.parse_label(lb)
                self.sides.setdefault(Edge.between(a, b), []).append(kind)
        # per terrain index: flat blocking, height above ground, ground
        n = max(len(self.terrain), 256)
        self.flat = np.zeros(n, bool)
        self.has_height = np.zeros(n, bool)
        self.top_add = np.zeros(n, np.int64)
        self.ground_of = np.zeros(n, np.int64)
        for i, t in enumerate(self.terrain):
            self.has_height[i] = t.id in rules.heights
            self.top_add[i] = rules.heights.get(t.id, 0)
            self.flat[i] = t.id in rules.blocking_terrain and t.id not in rules.heights
            self.ground_of[i] = t.elevation if rules.elevation else 0
        w = gm.width
        self.size = gm.width * gm.height
        keys = [min(a, b) * self.size + max(a, b)
                for e, feats in self.sides.items() if any(f in rules.blocking_sides for f in feats)
                for a, b in [(e.a.row * w + e.a.col, e.b.row * w + e.b.col)]]
        self.side_keys = np.array(sorted(keys), np.int64)

    def cell(self, lat: Lattice) -> Cell | None:
        c = to_cell(self.grid, lat)
        return c if self.grid.contains(c) else None

    def label(self, lat: Lattice) -> str:
        c = self.cell(lat)
        return self.gm.label(c) if c is not None else f"off the map (axial {lat[0]}, {lat[1]})"

    def ground(self, c: Cell) -> int:
        return int(self.ground_of[self.gm.terrain_at(c)])

    def cell_blocks(self, lat: Lattice, t_in: Fraction, t_out: Fraction, z0: int, z1: int) -> str | None:
        c = self.cell(lat)
        if c is None:
            return None
        ti = self.gm.terrain_at(c)
        t = self.terrain[ti]
        ground = int(self.ground_of[ti])
        r = self.rules
        if t.id in r.heights or (r.elevation and ground > min(z0, z1)):
            top = ground + r.heights.get(t.id, 0)
            line = min(z0 + t_in * (z1 - z0), z0 + t_out * (z1 - z0))
            if top > line:
                what = (f"{t.name.lower()} of height {r.heights[t.id]}" if t.id in r.heights else "the ground")
                return f"{what} at {self.gm.label(c)} rises to {top}, above the line of sight there ({_num(line)})"
            return None
        if t.id in r.blocking_terrain:
            return f"{t.name.lower()} at {self.gm.label(c)} blocks sight"
        return None

    def side_blocks(self, a: Lattice, b: Lattice) -> str | None:
        ca, cb = self.cell(a), self.cell(b)
        if ca is None or cb is None:
            return None
        feats = [f for f in self.sides.get(Edge.between(ca, cb), ()) if f in self.rules.blocking_sides]
        if not feats:
            return None
        return f"the {feats[0]} on the side {self.gm.label(ca)}|{self.gm.label(cb)} blocks sight"

    def blocking_pair(self, a: Lattice, b: Lattice) -> bool:
        """Whether the side between lattice cells ``a`` and ``b`` blocks."""
        ca, cb = self.cell(a), self.cell(b)
        if ca is None or cb is None:
            return False
        w = self.gm.width
        i, j = ca.row * w + ca.col, cb.row * w + cb.col
        key = min(i, j) * self.size + max(i, j)
        pos = int(np.searchsorted(self.side_keys, key))
        return pos < len(self.side_keys) and int(self.side_keys[pos]) == key

    def side_label(self, a: Lattice, b: Lattice) -> str:
        return f"{self.label(a)}|{self.label(b)}"

    def first_block(self, cells: Sequence[Lattice], enter: Sequence[tuple[int, int]], lo: int, z0: int,
                    z1: int) -> int | None:
        """The position of the first cell or side that blocks among cells
        ``lo .. len(cells) - 2`` and the sides before each of them (cell ``i``
        at position ``2i``, the side after it at ``2i + 1``), worked out over
        whole arrays.  The first and last cells of a walk are its ends and
        never block; the last cell of an unfinished walk is checked on the
        next call, when its exit is known."""
        n = len(cells)
        hi = n - 1  # cells lo .. hi - 1; sides lo - 1 .. hi - 1
        if hi <= lo - 1:
            return None
        lat = np.array(cells[lo - 1:hi + 1], np.int64)  # cells lo - 1 .. hi
        cols, rows = self.grid.axial_to_offset_arrays(lat[:, 0], lat[:, 1])
        cols, rows = np.asarray(cols, np.int64), np.asarray(rows, np.int64)
        inb = (cols >= 0) & (cols < self.gm.width) & (rows >= 0) & (rows < self.gm.height)
        m = len(lat)
        first = None
        if m > 2:
            inner = slice(1, m - 1)  # cells lo .. hi - 1
            ok = inb[inner]
            t = np.zeros(m - 2, np.int64)
            t[ok] = self.gm.terrain[rows[inner][ok], cols[inner][ok]]
            flat = self.flat[t]
            if self.has_height.any() or self.rules.elevation:
                ground = self.ground_of[t]
                top = ground + self.top_add[t]
                e = np.array(enter[lo - 1:hi], np.int64)  # entries of cells lo .. hi
                num_in, den_in = e[:-1, 0], e[:-1, 1]
                num_out, den_out = e[1:, 0], e[1:, 1]
                dz = z1 - z0
                above = (top * den_in > z0 * den_in + num_in * dz) | (top * den_out > z0 * den_out + num_out * dz)
                by_height = self.has_height[t] | (self.rules.elevation & (ground > min(z0, z1)))
                blocked = np.where(by_height, above, flat) & ok
            else:
                blocked = flat & ok
            hits = np.flatnonzero(blocked)
            if len(hits):
                first = 2 * (lo + int(hits[0]))
        if len(self.side_keys):
            idx = rows * self.gm.width + cols
            a, b = idx[:-1], idx[1:]  # sides lo - 1 .. hi - 1
            keys = np.minimum(a, b) * self.size + np.maximum(a, b)
            pos = np.minimum(np.searchsorted(self.side_keys, keys), len(self.side_keys) - 1)
            sh = np.flatnonzero((self.side_keys[pos] == keys) & inb[:-1] & inb[1:])
            if len(sh) and (first is None or 2 * (lo - 1 + int(sh[0])) + 1 < first):
                first = 2 * (lo - 1 + int(sh[0])) + 1
        return first

    def scan(self, w: Walker, z0: int, z1: int) -> int | None:
        """Walk ``w`` a stretch at a time until something blocks (its
        position, as :meth:`first_block`) or the walk ends (``None``)."""
        lo, chunk = 1, 24
        while True:
            w.advance(chunk)
            pos = self.first_block(w.cells, w.enter, lo, z0, z1)
            if pos is not None or w.done:
                return pos
            lo, chunk = len(w.cells) - 1, chunk * 2


def _cover(w: Walker, t: Fraction) -> None:
    """Advance ``w`` until it has entered a cell at ``t`` or later (or ended)."""
    while not w.done and (not w.enter or Fraction(*w.enter[-1]) <= t):
        w.advance(24)


_MAPS: weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], _Map]] = weakref.WeakKeyDictionary()


def _map_for(scenario: Scenario, rules: SightRules, hexsides: Mapping[str, Sequence[Sequence[str]]]) -> _Map:
    gm = scenario.map
    key = (id(scenario.ruleset), len(scenario.ruleset.terrain), gm.revision("rivers"), gm.revision("bridges"),
           len(gm.rivers), len(gm.bridges), rules.blocking_terrain, rules.blocking_sides,
           tuple(sorted(rules.heights.items())), rules.elevation, repr(sorted(hexsides.items())))
    got = _MAPS.get(gm)
    if got is not None and got[0] == key:
        return got[1]
    m = _Map(scenario, rules, hexsides)
    _MAPS[gm] = (key, m)
    return m


def _cells(w: Walk) -> dict[Lattice, tuple[Fraction, Fraction]]:
    return {c: (w.t_in(i), w.t_out(i)) for i, c in enumerate(w.cells)}


def _sides(w: Walk) -> dict[tuple[Lattice, Lattice], Fraction]:
    return {(w.cells[i], w.cells[i + 1]): w.t_out(i) for i in range(len(w.cells) - 1)}


_HEX_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
_SQUARE_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _raw(w: Walk) -> dict[Lattice, tuple[tuple[int, int], tuple[int, int]]]:
    """Each cell of ``w`` with the parameters it is entered and left at, as
    ``(num, den)`` pairs (no fractions made)."""
    n = len(w.cells)
    e = w.enter
    return {c: (e[i - 1] if i else (0, 1), e[i] if i < n - 1 else (1, 1)) for i, c in enumerate(w.cells)}


def _along(cr: Crossing, hexes: bool, keep: Callable[[Lattice, Lattice], bool] | None = None
           ) -> list[tuple[Lattice, Lattice, Fraction, Fraction]]:
    """The sides the line runs along: between a cell only the left way runs
    beside and a neighbour only the right way does, over a stretch of
    positive length (``(left cell, right cell, from, to)``); with ``keep``,
    only the pairs it accepts (checked before any fraction is made)."""
    if not cr.tied:
        return []
    lc, rc = _raw(cr.left), _raw(cr.right)
    ronly = {c: v for c, v in rc.items() if c not in lc and v[0][0] * v[1][1] != v[1][0] * v[0][1]}
    out = []
    for x, (xa, xb) in lc.items():
        if x in rc or xa[0] * xb[1] == xb[0] * xa[1]:
            continue
        for dq, dr in (_HEX_STEPS if hexes else _SQUARE_STEPS):
            y = (x[0] + dq, x[1] + dr)
            if y in ronly and (keep is None or keep(x, y)):
                ya, yb = ronly[y]
                lo = max(Fraction(*xa), Fraction(*ya))
                hi = min(Fraction(*xb), Fraction(*yb))
                if lo < hi:
                    out.append((x, y, lo, hi))
    return out


def elements(cr: Crossing, m: _Map, z0: int, z1: int) -> list[Element]:
    """Every cell and side of the crossing, in order along the line."""
    lc, rc = _cells(cr.left), _cells(cr.right)
    out: list[Element] = []
    ends = {cr.a, cr.b}
    for lat in dict.fromkeys([*cr.left.cells, *cr.right.cells]):
        if lat in lc and lat in rc:
            t0, t1 = min(lc[lat][0], rc[lat][0]), max(lc[lat][1], rc[lat][1])
            how: How = "crosses"
            ways: Ways = "both"
        else:
            t0, t1 = lc[lat] if lat in lc else rc[lat]
            how = "vertex" if t0 == t1 else "along"
            ways = "left" if lat in lc else "right"
        blocks = None if lat in ends else m.cell_blocks(lat, t0, t1, z0, z1)
        out.append(Element("cell", m.label(lat), how, ways, t0, t1, blocks))
    ls, rs = _sides(cr.left), _sides(cr.right)
    for pair in dict.fromkeys([*ls, *rs]):
        t = ls.get(pair, rs.get(pair))
        assert t is not None
        if pair in ls and pair in rs:
            how, ways = "crosses", "both"
        else:
            how, ways = "vertex", ("left" if pair in ls else "right")
        out.append(Element("side", m.side_label(*pair), how, ways, t, t, m.side_blocks(*pair)))
    for x, y, lo, hi in _along(cr, m.hexes):
        out.append(Element("side", m.side_label(x, y), "along", "both", lo, hi, m.side_blocks(x, y)))
    out.sort(key=lambda e: (e.t_in, e.t_out, e.kind != "side"))
    return out


def _element_at(w: Walk, pos: int, m: _Map, ways: Ways, other: Walk, z0: int, z1: int) -> Element:
    """The element at ``pos`` of walk ``w`` (see :meth:`_Map.first_block`)."""
    i = pos // 2
    in_other = set(other.cells)
    if pos % 2 == 0:
        lat = w.cells[i]
        t0, t1 = w.t_in(i), w.t_out(i)
        if lat in in_other:
            how: How = "crosses"
            way: Ways = "both"
        else:
            how, way = ("vertex" if t0 == t1 else "along"), ways
        return Element("cell", m.label(lat), how, way, t0, t1, m.cell_blocks(lat, t0, t1, z0, z1))
    a, b = w.cells[i], w.cells[i + 1]
    pairs = set(zip(other.cells, other.cells[1:]))
    t = w.t_out(i)
    crossed = (a, b) in pairs
    return Element("side", m.side_label(a, b), "crosses" if crossed else "vertex", "both" if crossed else ways,
                   t, t, m.side_blocks(a, b))


def line_of_sight(scenario: Scenario, a: Cell, b: Cell, rules: SightRules,
                  hexsides: Mapping[str, Sequence[Sequence[str]]] | None = None) -> Sight:
    """The verdict on the line from the centre of ``a`` to that of ``b``."""
    gm = scenario.map
    for c in (a, b):
        if not gm.grid.contains(c):
            raise ModelError(f"{c!r} is off the map")
    m = _map_for(scenario, rules, hexsides or {})
    z0, z1 = m.ground(a), m.ground(b)
    la, lb = gm.label(a), gm.label(b)
    tie = rules.tie
    built: list[Crossing] = []

    def whole() -> Crossing:
        if not built:
            built.append(crossing(gm.grid, a, b))
        return built[0]

    def build() -> list[Element]:
        return elements(whole(), m, z0, z1)

    if a == b:
        return Sight(la, lb, tie, True, None, f"{la} sees itself", build)
    lw = Walker(gm.grid, a, b, True)
    pl = m.scan(lw, z0, z1)
    tied = lw.first_tie is not None and (pl is None or pl > 2 * lw.first_tie)
    if not tied:  # the two ways are the same up to the blocker (or all along)
        left = right = None if pl is None else _element_at(lw.walk(), pl, m, "left", lw.walk(), z0, z1)
    else:
        rw = Walker(gm.grid, a, b, False)
        pr = m.scan(rw, z0, z1)
        if pl is not None:
            _cover(rw, lw.walk().t_out(pl // 2))
        if pr is not None:
            _cover(lw, rw.walk().t_out(pr // 2))
        lwk, rwk = lw.walk(), rw.walk()
        left = None if pl is None else _element_at(lwk, pl, m, "left", rwk, z0, z1)
        right = None if pr is None else _element_at(rwk, pr, m, "right", lwk, z0, z1)
        if len(m.side_keys):  # a blocking side the line runs along blocks both ways
            for x, y, lo, hi in _along(Crossing(lwk.cells[0], lw.end, lwk, rwk), m.hexes, m.blocking_pair):
                why = m.side_blocks(x, y)
                if why is not None:
                    e = Element("side", m.side_label(x, y), "along", "both", lo, hi, why)
                    left = e if left is None or (e.t_in, e.t_out) < (left.t_in, left.t_out) else left
                    right = e if right is None or (e.t_in, e.t_out) < (right.t_in, right.t_out) else right
                    break
    if tie == "either":
        hit = [e for e in (left, right) if e is not None]
        blocker = min(hit, key=lambda e: (e.t_in, e.t_out)) if hit else None
    else:
        blocker = None if left is None or right is None else max(left, right, key=lambda e: (e.t_in, e.t_out))
    if blocker is not None:
        why = blocker.blocks or ""
        if blocker.ways == "both":
            where = "the line runs along it" if blocker.how == "along" else "the line crosses it"
            reason = f"{la} cannot see {lb}: {why} ({where})"
        elif tie == "either":
            reason = (f"{la} cannot see {lb}: {why}; the line passes exactly "
                      f"{'through a corner of' if blocker.how == 'vertex' else 'along a side of'} {blocker.label}, "
                      "and the tie rule 'either' blocks it when either side blocks")
        else:
            other = left if blocker is right else right
            assert other is not None
            reason = f"{la} cannot see {lb}: both ways are blocked: {other.blocks} and {why} (tie rule 'both')"
        return Sight(la, lb, tie, False, blocker, reason, build)
    one = left or right
    if one is not None:
        reason = (f"{la} sees {lb}: only one side of the tie at {one.label} blocks ({one.blocks}); the tie "
                  "rule 'both' needs both")
    elif tied:
        reason = f"{la} sees {lb}: nothing on the line blocks (it passes exactly through corners or along sides)"
    else:
        reason = f"{la} sees {lb}: nothing on the line blocks"
    return Sight(la, lb, tie, True, None, reason, build)
