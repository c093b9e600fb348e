"""What an editing tool changes, decided without a window.

Two halves, both pure Python:

* **Shapes** — which cells (or sides) a tool touches: :func:`brush_cells`,
  :func:`bucket_cells`, :func:`rect_cells`, :func:`line_cells`,
  :func:`cells_along`, :func:`nearest_edge`, :func:`nearest_link`.  They read
  the grid (and, for picking, a :class:`~engine.grids.Layout` in map
  coordinates) and never the screen.
* **Edits** — small frozen records of a change to a scenario
  (:class:`CellValues`, :class:`EdgeSetChange`, :class:`BridgeChange`,
  :class:`PlaceChange`, :class:`UnitChange`).  The ``plan_*`` functions look
  at the scenario and return the edit that would make a change, or ``None``
  when nothing would change (so the editor pushes no empty undo step); they do
  not mutate.  :func:`apply_edits` and :func:`revert_edits` carry edits out and
  back, and return a :class:`Touched` record of what changed (cells per layer,
  unit ids), which is what views repaint.

The editor's undo commands hold lists of edits; a whole brush stroke is the
concatenation of its dabs' edits, reverted in reverse order.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from .grids import Cell, Edge, Grid, HexGrid, Layout
from .grids.hexgrid import HEX_DIRECTIONS, Hex, Orientation
from .labels import numbering_from_dict
from .model import (
    NO_SIDE,
    Faction,
    GridMap,
    ModelError,
    Place,
    Ruleset,
    Scenario,
    TerrainType,
    Unit,
    UnitType,
    make_grid,
)

MIN_BRUSH = 1
MAX_BRUSH = 9

ArrayLayer = Literal["terrain", "control"]
BULK_CELLS = 20_000
"""Above this many cells an edit reports its layer as changed in bulk
(:attr:`Touched.whole`) instead of listing every cell."""
LINK_KINDS = ("rail", "road")
"""Link kinds the editor's tools lay (a file may hold others; they are kept)."""


# ---------------------------------------------------------------------------
# shapes

def brush_cells(grid: Grid, center: Cell, size: int) -> list[Cell]:
    """The on-map cells a brush of ``size`` (1–9, its width in cells) centred
    on ``center`` covers, in a deterministic order.

    * Square grids: a ``size`` x ``size`` block; for an even size the block
      reaches one cell further east and south than west and north.
    * Hex grids: for an odd size the hexes within distance ``(size - 1) / 2``
      of ``center`` (size 5 is a radius-2 hex: 19 hexes); for an even size the
      hexes whose distances to ``center`` and to its neighbour in direction 0
      add up to at most ``size - 1`` (size 2 is two hexes, size 4 a ten-hex
      "oval"), so every size is as wide as its number.

    ``center`` may lie off the map; only on-map cells are returned.  Raises
    :class:`ModelError` for a size outside 1–9.
    """
    if not MIN_BRUSH <= size <= MAX_BRUSH:
        raise ModelError(f"brush size must be {MIN_BRUSH} to {MAX_BRUSH}, got {size}")
    if isinstance(grid, HexGrid):
        return _hex_brush(grid, center, size)
    lo, hi = (size - 1) // 2, size // 2
    return [Cell(c, r)
            for r in range(max(0, center.row - lo), min(grid.height, center.row + hi + 1))
            for c in range(max(0, center.col - lo), min(grid.width, center.col + hi + 1))]


def _hex_brush(grid: HexGrid, center: Cell, size: int) -> list[Cell]:
    h0 = grid.to_hex(center)
    if size % 2 == 1:
        return sorted(_hex_disc(grid, h0, (size - 1) // 2))
    h1 = h0 + HEX_DIRECTIONS[0]
    radius = size // 2
    out = [c for c in _hex_disc(grid, h0, radius)
           if grid.to_hex(c).distance(h0) + grid.to_hex(c).distance(h1) <= size - 1]
    return sorted(out)


def _hex_disc(grid: HexGrid, h: Hex, radius: int) -> list[Cell]:
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            c = grid.to_cell(Hex(h.q + dq, h.r + dr, -h.q - dq - h.r - dr))
            if grid.contains(c):
                out.append(c)
    return out


def rect_cells(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The on-map cells of the storage rectangle with corners ``a`` and ``b``
    (columns and rows between them, inclusive): a region fill.  On a hex map
    this is the block of columns and rows as numbered, which is what a map
    designer drags out."""
    c0, c1 = sorted((a.col, b.col))
    r0, r1 = sorted((a.row, b.row))
    c0, r0 = max(c0, 0), max(r0, 0)
    c1, r1 = min(c1, grid.width - 1), min(r1, grid.height - 1)
    return [Cell(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def line_cells(grid: Grid, a: Cell, b: Cell) -> list[Cell]:
    """The cells of a straight line from ``a`` to ``b``, both included, each
    link-adjacent to the next (so a line is also a valid rail or road).

    Hex grids: Red Blob's cube interpolation, ``distance(a, b) + 1`` hexes,
    ties nudged consistently.  Square grids: ``max(|dc|, |dr|) + 1`` squares,
    interpolated and rounded (diagonal steps allowed, as links allow them).
    """
    if a == b:
        return [a]
    if isinstance(grid, HexGrid):
        ha, hb = grid.to_hex(a), grid.to_hex(b)
        n = ha.distance(hb)
        out = []
        for i in range(n + 1):
            t = i / n
            q = ha.q + (hb.q - ha.q) * t + 1e-6
            r = ha.r + (hb.r - ha.r) * t + 1e-6
            s = ha.s + (hb.s - ha.s) * t - 2e-6
            out.append(grid.to_cell(_cube_round(q, r, s)))
        return out
    n = max(abs(b.col - a.col), abs(b.row - a.row))
    return [Cell(_round_half_up(a.col + (b.col - a.col) * i / n), _round_half_up(a.row + (b.row - a.row) * i / n))
            for i in range(n + 1)]


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


def _cube_round(q: float, r: float, s: float) -> Hex:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return Hex(int(rq), int(rr), int(rs))


def bucket_mask(gmap: GridMap, start: Cell, layer: ArrayLayer = "terrain") -> np.ndarray:
    """Boolean ``[row, col]`` mask of the cells of ``layer`` joined to
    ``start`` through cells of the same value, stepping only across shared
    sides (on an 8-neighbour square grid a fill does not leak through
    corners); all ``False`` for an off-map start.  Runs in C
    (:func:`scipy.ndimage.label`), on a hex map too, by labelling in axial
    coordinates where hex adjacency is a fixed 3x3 pattern."""
    from scipy import ndimage

    grid = gmap.grid
    arr = gmap.terrain if layer == "terrain" else gmap.control
    if not grid.contains(start):
        return np.zeros(arr.shape, bool)
    mask = arr == arr[start.row, start.col]
    if not isinstance(grid, HexGrid):
        labels, _ = ndimage.label(mask, structure=np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]]))
        out: np.ndarray = labels == labels[start.row, start.col]
        return out
    h, w = mask.shape
    rr, cc = np.mgrid[0:h, 0:w]
    odd = grid.parity.value == "odd"
    if grid.orientation is Orientation.FLAT:  # q = col, r = row - shove(col)
        shove = (cc - (cc & 1)) // 2 if odd else (cc + (cc & 1)) // 2
        aq, ar = cc, rr - shove
    else:  # r = row, q = col - shove(row)
        shove = (rr - (rr & 1)) // 2 if odd else (rr + (rr & 1)) // 2
        aq, ar = cc - shove, rr
    aq0, ar0 = aq - aq.min(), ar - ar.min()
    axial = np.zeros((int(aq0.max()) + 1, int(ar0.max()) + 1), bool)
    axial[aq0, ar0] = mask
    # axial neighbours (dq, dr): (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) (0,+1)
    structure = np.array([[0, 1, 1], [1, 1, 1], [1, 1, 0]])
    labels, _ = ndimage.label(axial, structure=structure)
    mine = labels[aq0[start.row, start.col], ar0[start.row, start.col]]
    hexes: np.ndarray = labels[aq0, ar0] == mine
    return hexes


def bucket_cells(gmap: GridMap, start: Cell, layer: ArrayLayer = "terrain") -> list[Cell]:
    """The cells of :func:`bucket_mask`, in row-major order."""
    rows, cols = np.nonzero(bucket_mask(gmap, start, layer))
    return [Cell(int(c), int(r)) for r, c in zip(rows.tolist(), cols.tolist())]


def rect_mask(grid: Grid, a: Cell, b: Cell) -> np.ndarray:
    """Boolean ``[row, col]`` mask of :func:`rect_cells`."""
    out = np.zeros((grid.height, grid.width), bool)
    c0, c1 = sorted((a.col, b.col))
    r0, r1 = sorted((a.row, b.row))
    out[max(r0, 0):max(r1 + 1, 0), max(c0, 0):max(c1 + 1, 0)] = True
    return out


def cells_along(layout: Layout, grid: Grid, p0: tuple[float, float], p1: tuple[float, float],
                step: float | None = None) -> list[Cell]:
    """The on-map cells under a straight mouse path from ``p0`` to ``p1``
    (map coordinates), in order, without repeats in a row: what a fast drag
    passes over between two mouse events.  Successive cells touch."""
    size = float(getattr(layout, "size", 1.0))
    step = step or size / 6.0
    n = max(1, math.ceil(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / step))
    out: list[Cell] = []
    for i in range(n + 1):
        t = i / n
        c = layout.pick(p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t)
        if grid.contains(c) and (not out or out[-1] != c):
            out.append(c)
    return out


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def nearest_edge(layout: Layout, grid: Grid, x: float, y: float,
                 tolerance: float | None = None) -> Edge | None:
    """The side (between two on-map cells) nearest the map point, if it lies
    within ``tolerance`` (default: a third of the cell size) of the point."""
    size = float(getattr(layout, "size", 1.0))
    tol = size / 3.0 if tolerance is None else tolerance
    cell = layout.pick(x, y)
    if not grid.contains(cell):
        return None
    best: tuple[float, Edge] | None = None
    for e in grid.edges_of(cell):
        a, b = layout.edge_segment(e)
        d = _segment_distance((x, y), a, b)
        if best is None or d < best[0]:
            best = (d, e)
    return best[1] if best is not None and best[0] <= tol else None


def edges_along(layout: Layout, grid: Grid, p0: tuple[float, float], p1: tuple[float, float],
                tolerance: float | None = None) -> list[Edge]:
    """The sides a mouse path from ``p0`` to ``p1`` runs along (each within
    ``tolerance`` of some point of the path), in order, without repeats in a
    row: what a river stroke lays between two mouse events."""
    size = float(getattr(layout, "size", 1.0))
    n = max(1, math.ceil(math.hypot(p1[0] - p0[0], p1[1] - p0[1]) / (size / 8.0)))
    out: list[Edge] = []
    for i in range(n + 1):
        t = i / n
        e = nearest_edge(layout, grid, p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t, tolerance)
        if e is not None and (not out or out[-1] != e):
            out.append(e)
    return out


def nearest_link(gmap: GridMap, layout: Layout, kind: str, x: float, y: float,
                 tolerance: float | None = None) -> Edge | None:
    """The link of ``kind`` whose centre-to-centre segment passes nearest the
    map point, if within ``tolerance`` (default: a quarter of the cell size):
    what a click on a drawn rail or road picks."""
    links = gmap.links.get(kind)
    if not links:
        return None
    size = float(getattr(layout, "size", 1.0))
    tol = size / 4.0 if tolerance is None else tolerance
    grid = gmap.grid
    cell = layout.pick(x, y)
    candidates = {cell, *grid.link_neighbours(cell)} if grid.contains(cell) else set()
    best: tuple[float, Edge] | None = None
    for c in sorted(candidates):
        for n in gmap.linked_neighbours(kind, c):
            e = Edge.between(c, n)
            d = _segment_distance((x, y), layout.center(e.a), layout.center(e.b))
            if best is None or (d, e) < best:
                best = (d, e)
    return best[1] if best is not None and best[0] <= tol else None


# ---------------------------------------------------------------------------
# edits

@dataclass(frozen=True)
class Touched:
    """What an edit changed, for views to repaint: cells per layer
    (``terrain``, ``control``, ``rivers``, ``bridges``, ``rail``, ``road``,
    ``places``, ``units``) and the ids of units changed."""

    cells: dict[str, frozenset[Cell]] = field(default_factory=dict)
    units: frozenset[str] = frozenset()
    whole: frozenset[str] = frozenset()
    """Layers changed in bulk (a fill of more than :data:`BULK_CELLS`
    cells): repaint them entirely rather than cell by cell."""

    def __bool__(self) -> bool:
        return bool(self.cells) or bool(self.units) or bool(self.whole)

    def all_cells(self) -> frozenset[Cell]:
        out: set[Cell] = set()
        for cells in self.cells.values():
            out |= cells
        return frozenset(out)

    def __or__(self, other: Touched) -> Touched:
        cells = dict(self.cells)
        for k, v in other.cells.items():
            cells[k] = cells.get(k, frozenset()) | v
        return Touched(cells, self.units | other.units, self.whole | other.whole)


@dataclass(frozen=True, eq=False)
class CellValues:
    """New values of some cells of an array layer (``terrain`` or
    ``control``); ``before``/``after`` are aligned with ``rows``/``cols``
    (numpy arrays, so a whole-map fill stays compact)."""

    layer: ArrayLayer
    rows: np.ndarray
    cols: np.ndarray
    before: np.ndarray
    after: np.ndarray

    def __len__(self) -> int:
        return int(self.rows.size)

    def cells(self) -> frozenset[Cell]:
        return frozenset(Cell(int(c), int(r)) for r, c in zip(self.rows.tolist(), self.cols.tolist()))

    def _array(self, s: Scenario) -> np.ndarray:
        return s.map.terrain if self.layer == "terrain" else s.map.control

    def touched(self) -> Touched:
        if len(self) > BULK_CELLS:
            return Touched(whole=frozenset((self.layer,)))
        return Touched({self.layer: self.cells()})

    def apply(self, s: Scenario) -> Touched:
        self._array(s)[self.rows, self.cols] = self.after
        s.map.touch(self.layer)
        return self.touched()

    def revert(self, s: Scenario) -> Touched:
        self._array(s)[self.rows, self.cols] = self.before
        s.map.touch(self.layer)
        return self.touched()


@dataclass(frozen=True)
class EdgeSetChange:
    """Sides added to and removed from an edge layer: ``rivers`` or a link
    kind (``rail``, ``road``)."""

    layer: str
    added: frozenset[Edge] = frozenset()
    removed: frozenset[Edge] = frozenset()

    def _set(self, s: Scenario) -> set[Edge]:
        return s.map.rivers if self.layer == "rivers" else s.map.links.setdefault(self.layer, set())

    def _touched(self) -> Touched:
        cells: set[Cell] = set()
        for e in self.added | self.removed:
            cells.update((e.a, e.b))
        return Touched({self.layer: frozenset(cells)})

    def apply(self, s: Scenario) -> Touched:
        st = self._set(s)
        st -= self.removed
        st |= self.added
        s.map.touch(self.layer)
        return self._touched()

    def revert(self, s: Scenario) -> Touched:
        st = self._set(s)
        st -= self.added
        st |= self.removed
        s.map.touch(self.layer)
        return self._touched()


@dataclass(frozen=True)
class BridgeChange:
    """The bridge on one river side: kind before and after (``None``: no
    bridge)."""

    edge: Edge
    before: str | None
    after: str | None

    def _set(self, s: Scenario, kind: str | None) -> Touched:
        if kind is None:
            s.map.bridges.pop(self.edge, None)
        else:
            s.map.bridges[self.edge] = kind
        return Touched({"bridges": frozenset((self.edge.a, self.edge.b))})

    def apply(self, s: Scenario) -> Touched:
        return self._set(s, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._set(s, self.before)


@dataclass(frozen=True)
class PlaceChange:
    """The place (name, code) of one cell before and after."""

    cell: Cell
    before: Place | None
    after: Place | None

    def _set(self, s: Scenario, place: Place | None) -> Touched:
        if place is None:
            s.map.places.pop(self.cell, None)
        else:
            s.map.places[self.cell] = Place(place.name, place.code)
        return Touched({"places": frozenset((self.cell,))})

    def apply(self, s: Scenario) -> Touched:
        return self._set(s, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._set(s, self.before)


@dataclass(frozen=True)
class UnitChange:
    """One unit before and after (``None`` before: added; ``None`` after:
    deleted); ``index`` is its position in ``scenario.units``.  The records
    hold private copies, so later edits cannot reach into them."""

    index: int
    before: Unit | None
    after: Unit | None

    def _put(self, s: Scenario, old: Unit | None, new: Unit | None) -> Touched:
        if old is not None:
            i = next(i for i, u in enumerate(s.units) if u.id == old.id)
            del s.units[i]
        if new is not None:
            s.units.insert(min(self.index, len(s.units)), _copy_unit(new))
        cells = frozenset(u.at for u in (old, new) if u is not None)
        ids = frozenset(u.id for u in (old, new) if u is not None)
        return Touched({"units": cells}, ids)

    def apply(self, s: Scenario) -> Touched:
        return self._put(s, self.before, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._put(s, self.after, self.before)


Edit = CellValues | EdgeSetChange | BridgeChange | PlaceChange | UnitChange


def apply_edits(s: Scenario, edits: Sequence[Edit]) -> Touched:
    """Carry out ``edits`` in order; what they touched."""
    out = Touched()
    for e in edits:
        out = out | e.apply(s)
    return out


def revert_edits(s: Scenario, edits: Sequence[Edit]) -> Touched:
    """Undo ``edits`` (in reverse order); what they touched."""
    out = Touched()
    for e in reversed(edits):
        out = out | e.revert(s)
    return out


def _copy_unit(u: Unit) -> Unit:
    return replace(u, props=dict(u.props))


# -- planning: what an edit would change (no mutation) ----------------------

def _layer_array(s: Scenario, layer: ArrayLayer, value: int) -> np.ndarray:
    """The array of ``layer``, after checking ``value`` fits it."""
    if layer == "terrain":
        if not 0 <= value < len(s.ruleset.terrain):
            raise ModelError(f"no terrain number {value} (the ruleset has {len(s.ruleset.terrain)})")
        return s.map.terrain
    if value != NO_SIDE and not 0 <= value < len(s.sides):
        raise ModelError(f"no side number {value} (the scenario has {len(s.sides)})")
    return s.map.control


def plan_paint(s: Scenario, layer: ArrayLayer, cells: Iterable[Cell], value: int) -> CellValues | None:
    """Set ``layer`` to ``value`` on ``cells`` (off-map cells ignored);
    ``None`` when every cell already has it.  ``value`` is a terrain index,
    or a side index / :data:`~engine.model.NO_SIDE` for control."""
    gmap = s.map
    arr = _layer_array(s, layer, value)
    pts = [(c.row, c.col) for c in dict.fromkeys(cells) if gmap.grid.contains(c)]
    if not pts:
        return None
    rows = np.fromiter((p[0] for p in pts), np.int64, len(pts))
    cols = np.fromiter((p[1] for p in pts), np.int64, len(pts))
    before = arr[rows, cols]
    changed = before != value
    if not changed.any():
        return None
    rows, cols, before = rows[changed], cols[changed], before[changed]
    return CellValues(layer, rows, cols, before.copy(), np.full(rows.size, value, arr.dtype))


def plan_paint_mask(s: Scenario, layer: ArrayLayer, mask: np.ndarray, value: int) -> CellValues | None:
    """:func:`plan_paint` for the cells of a boolean ``[row, col]`` mask
    (a bucket or rectangle fill), vectorised: a whole-map fill of a
    million cells takes milliseconds."""
    arr = _layer_array(s, layer, value)
    rows, cols = np.nonzero(mask & (arr != value))
    if rows.size == 0:
        return None
    return CellValues(layer, rows, cols, arr[rows, cols].copy(), np.full(rows.size, value, arr.dtype))


def plan_links(s: Scenario, kind: str, path: Sequence[Cell], present: bool = True) -> EdgeSetChange | None:
    """Lay (``present``) or lift links of ``kind`` between successive cells
    of ``path``.  Raises :class:`ModelError` when two successive cells
    cannot be linked (``grid.can_link``); ``None`` when nothing changes."""
    grid = s.map.grid
    edges: set[Edge] = set()
    for a, b in itertools.pairwise(path):
        if a == b:
            continue
        if not (grid.contains(a) and grid.contains(b) and grid.can_link(a, b)):
            raise ModelError(f"{s.map.label(a)} and {s.map.label(b)} are not adjacent, so no {kind} can join them")
        edges.add(Edge.between(a, b))
    return plan_edge_set(s, kind, edges, present)


def plan_edge_set(s: Scenario, layer: str, edges: Iterable[Edge], present: bool) -> EdgeSetChange | None:
    """Add (``present``) or remove ``edges`` in ``layer`` (``rivers`` or a
    link kind); ``None`` when nothing changes."""
    current = s.map.rivers if layer == "rivers" else s.map.links.get(layer, set())
    edges = set(edges)
    if present:
        add = frozenset(edges - current)
        return EdgeSetChange(layer, added=add) if add else None
    rem = frozenset(edges & current)
    return EdgeSetChange(layer, removed=rem) if rem else None


def plan_rivers(s: Scenario, edges: Iterable[Edge], present: bool = True) -> list[Edit]:
    """Lay or remove rivers on sides.  A river lies on the side two cells
    share, never in a cell: sides of cells that only touch at a corner are
    refused with :class:`ModelError`.  Removing a river removes its bridge.
    An empty list when nothing changes."""
    grid = s.map.grid
    edges = list(edges)
    for e in edges:
        if not (grid.contains(e.a) and grid.contains(e.b) and grid.shares_side(e.a, e.b)):
            raise ModelError(f"{s.map.label(e.a)} and {s.map.label(e.b)} share no side, so no river can lie between them")
    out: list[Edit] = []
    if not present:
        for e in sorted(set(edges)):
            kind = s.map.bridges.get(e)
            if kind is not None:
                out.append(BridgeChange(e, kind, None))
    change = plan_edge_set(s, "rivers", edges, present)
    if change is not None:
        out.append(change)
    return out


def plan_bridge(s: Scenario, edge: Edge, kind: str | None) -> BridgeChange | None:
    """Put a bridge of ``kind`` (``rail`` or ``road``) on a river side, or
    remove it (``kind=None``).  Raises :class:`ModelError` when no river runs
    there; ``None`` when nothing changes."""
    if kind is not None and edge not in s.map.rivers:
        raise ModelError(f"no river runs between {s.map.label(edge.a)} and {s.map.label(edge.b)}, "
                         "so a bridge there crosses nothing")
    before = s.map.bridges.get(edge)
    return None if before == kind else BridgeChange(edge, before, kind)


def plan_place(s: Scenario, cell: Cell, name: str | None, code: str | None = None) -> PlaceChange | None:
    """Name a cell (``name`` empty or ``None``: remove its place).  Raises
    :class:`ModelError` for an off-map cell or a name/code another cell
    already uses; ``None`` when nothing changes."""
    if not s.map.grid.contains(cell):
        raise ModelError(f"{cell!r} is off the map")
    name = (name or "").strip()
    code = (code or "").strip() or None
    before = s.map.places.get(cell)
    after = Place(name, code) if name else None
    if after is not None:
        for key in (name, code):
            if key is None:
                continue
            other = s.map.find_place(key)
            if other is not None and other != cell:
                raise ModelError(f"'{key}' already names {s.map.label(other)}")
    if before == after:
        return None
    return PlaceChange(cell, before, after)


def _unit_index(s: Scenario, unit_id: str) -> int:
    for i, u in enumerate(s.units):
        if u.id == unit_id:
            return i
    raise ModelError(f"no unit '{unit_id}' in scenario '{s.name}'")


def check_unit(s: Scenario, unit: Unit, replacing: str | None = None) -> None:
    """Raise :class:`ModelError` when ``unit`` cannot stand in the scenario:
    empty or duplicate id, unknown side or type, off the map, negative
    strength.  ``replacing`` is the id of the unit it replaces, if any."""
    if not unit.id.strip():
        raise ModelError("a unit needs an id")
    if unit.id != replacing and any(u.id == unit.id for u in s.units):
        raise ModelError(f"unit id '{unit.id}' is already used")
    s.side(unit.side)
    if s.ruleset.unit_types:
        s.ruleset.unit_type(unit.type)
    elif not unit.type.strip():
        raise ModelError("a unit needs a type")
    if not s.map.grid.contains(unit.at):
        raise ModelError(f"{unit.at!r} is off the map")
    if unit.strength < 0:
        raise ModelError(f"strength must be 0 or more, got {unit.strength}")


def plan_add_unit(s: Scenario, unit: Unit) -> UnitChange:
    """Add ``unit`` at the end of the unit list (checked by :func:`check_unit`)."""
    check_unit(s, unit)
    return UnitChange(len(s.units), None, _copy_unit(unit))


def plan_update_unit(s: Scenario, unit_id: str, **changes: Any) -> UnitChange | None:
    """Change fields of a unit (``id``, ``side``, ``type``, ``at``,
    ``strength``, ``name``, ``props``); ``None`` when nothing changes."""
    i = _unit_index(s, unit_id)
    old = s.units[i]
    new = replace(_copy_unit(old), **changes)
    check_unit(s, new, replacing=old.id)
    if new == old:
        return None
    return UnitChange(i, _copy_unit(old), new)


def plan_move_unit(s: Scenario, unit_id: str, to: Cell, props: dict[str, Any] | None = None) -> UnitChange | None:
    """Move a unit to ``to``, setting ``props`` (a rules move order's unit
    properties) at the same time; ``None`` when nothing changes."""
    old = s.units[_unit_index(s, unit_id)]
    merged = dict(old.props)
    merged.update(props or {})
    return plan_update_unit(s, unit_id, at=to, props=merged)


def plan_delete_unit(s: Scenario, unit_id: str) -> UnitChange:
    i = _unit_index(s, unit_id)
    return UnitChange(i, _copy_unit(s.units[i]), None)


def next_unit_id(s: Scenario, prefix: str = "u") -> str:
    """The first free id ``prefix1``, ``prefix2``, …"""
    used = {u.id for u in s.units}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


# ---------------------------------------------------------------------------
# new scenarios

def basic_ruleset() -> tuple[Ruleset, list[Faction]]:
    """The built-in ruleset a new map starts from when no other is chosen:
    common terrain, three unit types and two sides.  The first terrain
    (``clear``) is what the eraser paints."""
    terrain = [
        TerrainType("clear", "Clear", ".", "#d8d9a6", 1),
        TerrainType("forest", "Forest", "f", "#5f8f4e", 2),
        TerrainType("rough", "Rough", "r", "#b39c6f", 2),
        TerrainType("hills", "Hills", "h", "#a98955", 2, elevation=1),
        TerrainType("mountain", "Mountain", "m", "#8a7a6a", 3, elevation=2),
        TerrainType("marsh", "Marsh", "s", "#8fae9a", 3),
        TerrainType("town", "Town", "t", "#c9a0a0", 1),
        TerrainType("water", "Water", "w", "#6c9cc9", 1, impassable=True),
    ]
    units = [UnitType("infantry", "Infantry", 4), UnitType("cavalry", "Cavalry", 8),
             UnitType("artillery", "Artillery", 3)]
    sides = [Faction("blue", "Blue", "#3461b3", "B"), Faction("red", "Red", "#b33434", "R")]
    return Ruleset("basic", terrain, units), sides


def new_scenario(name: str, grid: dict[str, Any], numbering: dict[str, Any],
                 ruleset: Ruleset | None = None, sides: list[Faction] | None = None) -> Scenario:
    """A blank scenario: every cell the ruleset's first terrain, nobody in
    control, no units.  ``grid`` and ``numbering`` are as in the file format
    (``{"kind": "hex", "width": 20, "height": 15, "orientation": "flat",
    "parity": "odd"}``, ``{"scheme": "ccrr"}``).  Raises a ``ValueError``
    (:class:`~engine.grids.GridError`, :class:`~engine.labels.LabelError`,
    :class:`ModelError`) naming what is wrong."""
    from .scenario_io import MAX_CELLS, MAX_SIDE

    if not name.strip():
        raise ModelError("a scenario needs a name")
    g = dict(grid)
    kind = g.pop("kind", None)
    w, h = int(g.pop("width", 0)), int(g.pop("height", 0))
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_CELLS:
        raise ModelError(f"{w}x{h} is larger than the limit ({MAX_SIDE} per side, {MAX_CELLS} cells)")
    gr = make_grid(str(kind), w, h, **g)
    num = numbering_from_dict(numbering)
    num.check_fits(w, h)
    if ruleset is None:
        ruleset, default_sides = basic_ruleset()
        sides = default_sides if sides is None else sides
    return Scenario(name.strip(), ruleset, list(sides or []), GridMap(gr, num))


__all__ = [
    "LINK_KINDS",
    "MAX_BRUSH",
    "MIN_BRUSH",
    "BridgeChange",
    "CellValues",
    "EdgeSetChange",
    "Edit",
    "PlaceChange",
    "Touched",
    "UnitChange",
    "apply_edits",
    "basic_ruleset",
    "brush_cells",
    "bucket_cells",
    "bucket_mask",
    "cells_along",
    "check_unit",
    "edges_along",
    "line_cells",
    "nearest_edge",
    "nearest_link",
    "new_scenario",
    "next_unit_id",
    "plan_add_unit",
    "plan_bridge",
    "plan_delete_unit",
    "plan_edge_set",
    "plan_links",
    "plan_move_unit",
    "plan_paint",
    "plan_paint_mask",
    "plan_place",
    "plan_rivers",
    "plan_update_unit",
    "rect_cells",
    "rect_mask",
    "revert_edits",
]
