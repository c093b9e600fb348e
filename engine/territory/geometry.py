"""Territory shapes: polygons from painted cells, label points, shared
borders, and picking (what lies under a point: territory, border line, unit
counter box).

Coordinates are map units with x to the right and y *down* (screen and
TripleA convention).  Shapes are shapely geometry; a territory's shape is a
``Polygon`` or ``MultiPolygon`` (islands, exclaves), possibly empty for a
territory not drawn yet.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points, polylabel, unary_union

Shape: TypeAlias = Any
"""A shapely ``Polygon`` or ``MultiPolygon`` (shapely ships no type stubs, so
mypy sees ``Any``)."""
Ring = list[tuple[float, float]]
K = TypeVar("K")


MAX_REPAIR_POINTS = 10000
"""Largest self-crossing ring repaired (repair time grows faster than the
number of points; real TripleA rings have at most about 1,200)."""


MAX_REPAIR_PAIRS = 40_000
"""Most pairs of segments with overlapping bounding boxes in one
self-crossing ring repaired.  Repair time grows with the crossings, which
these pairs bound: a star of 200 points (40,000 pairs) takes about 0.4 s
of CPU, one of 400 points 2 s, one of 2,000 points minutes; a ring that
crosses itself only locally (a zigzag) has about 3 pairs a point."""
MAX_BUDGET_PAIRS = 60_000
"""Most such pairs repaired over all rings read together (one file: see
:class:`GeometryBudget`)."""
MAX_BUDGET_RINGS = 200_000
"""Most rings (outer and holes) read together."""
MAX_BUDGET_POINTS = 5_000_000
"""Most ring points read together."""
_PAIR_CHUNK = 64


class GeometryError(ValueError):
    """A shape that cannot be built (too few points, nothing painted, over
    the work budget)."""


_SMALL_RING = 64
"""Rings of at most this many points count their overlapping segment pairs
without a spatial tree (:meth:`GeometryBudget.spend_repair`)."""


class GeometryBudget:
    """The geometry work one input may cost (seconds, never minutes): rings,
    points and the repair of self-crossing rings, counted over every call of
    :func:`shape_from_rings` given the same budget (a loader makes one per
    file).  Going over raises :class:`GeometryError` saying which limit."""

    def __init__(self, pairs: int = MAX_BUDGET_PAIRS, rings: int = MAX_BUDGET_RINGS,
                 points: int = MAX_BUDGET_POINTS) -> None:
        self.pairs = pairs
        self.rings = rings
        self.points = points

    def spend_ring(self, points: int, what: str) -> None:
        self.rings -= 1
        self.points -= points
        if self.rings < 0:
            raise GeometryError(f"{what}: more than {MAX_BUDGET_RINGS} rings in one file")
        if self.points < 0:
            raise GeometryError(f"{what}: more than {MAX_BUDGET_POINTS} ring points in one file")

    def spend_repair(self, pts: Sequence[tuple[float, float]], what: str) -> None:
        """Count the segment pairs whose boxes overlap (in chunks, stopping
        as soon as a limit is passed, so a huge star costs no more than
        the refusal) and take them from the budget."""
        limit = min(MAX_REPAIR_PAIRS, self.pairs)
        a = np.asarray(pts, dtype=float)
        b = np.concatenate((a[1:], a[:1]))  # each segment's other end
        if len(a) <= _SMALL_RING:
            # a few segments: the pairs whose boxes meet (each with itself,
            # both orders, as the tree's query counts them) from arrays; a
            # tree per ring cost most of a file of thousands of bow ties
            lo, hi = np.minimum(a, b), np.maximum(a, b)
            meet = ((lo[:, None, 0] <= hi[None, :, 0]) & (lo[None, :, 0] <= hi[:, None, 0])
                    & (lo[:, None, 1] <= hi[None, :, 1]) & (lo[None, :, 1] <= hi[:, None, 1]))
            counts: Iterable[int] = [int(meet.sum())]
        else:
            segments = shapely.linestrings(np.stack([a, b], axis=1))
            tree = shapely.STRtree(segments)
            counts = (int(tree.query(segments[start:start + _PAIR_CHUNK]).shape[1])
                      for start in range(0, len(segments), _PAIR_CHUNK))
        found = 0
        for n in counts:
            found += n
            if found > limit:
                if limit == MAX_REPAIR_PAIRS:
                    why = f"more than {MAX_REPAIR_PAIRS} pairs of overlapping segments in one ring"
                else:
                    why = (f"the self-crossing rings read with it need more repair than {MAX_BUDGET_PAIRS} pairs of "
                           f"overlapping segments, the budget of one file")
                raise GeometryError(f"{what} crosses itself too often to repair ({why}); redraw it without "
                                    f"crossings")
        self.pairs -= found


def polygon_from_cells(cells: Iterable[tuple[int, int]], cell_size: float = 1.0,
                       origin: tuple[float, float] = (0.0, 0.0)) -> Shape:
    """The shape covered by the painted backdrop cells ``(col, row)``.

    Each cell is the square ``[x0 + col*s, x0 + (col+1)*s] × [y0 + row*s,
    y0 + (row+1)*s]``; the result is their union (shapely ``unary_union``),
    simplified so that collinear cell corners disappear.  Cells touching only
    at a corner give a ``MultiPolygon``.  Raises :class:`GeometryError` when
    no cell is given.
    """
    x0, y0 = origin
    s = float(cell_size)
    boxes = [shapely.box(x0 + c * s, y0 + r * s, x0 + (c + 1) * s, y0 + (r + 1) * s) for c, r in set(cells)]
    if not boxes:
        raise GeometryError("no cells painted: a territory needs at least one cell")
    shape = unary_union(boxes).simplify(0)
    return _polygonal(shape)


def polygonal(g: BaseGeometry) -> Shape:
    """The polygonal part of any geometry as a Polygon or MultiPolygon
    (lines and points dropped; empty when nothing is left)."""
    return _polygonal(g)


def _polygonal(g: BaseGeometry) -> Shape:
    """The polygonal part of ``g`` as a Polygon or MultiPolygon."""
    if isinstance(g, (Polygon, MultiPolygon)):
        return g
    parts: list[Polygon] = []
    for sub in getattr(g, "geoms", []):
        if isinstance(sub, Polygon) and not sub.is_empty:
            parts.append(sub)
        elif isinstance(sub, MultiPolygon):
            parts.extend(p for p in sub.geoms if not p.is_empty)
    if len(parts) == 1:
        return parts[0]
    return MultiPolygon(parts)


def shape_from_rings(polygons: Sequence[Sequence[Sequence[float]]],
                     holes: Sequence[Sequence[Sequence[float]]] = (), budget: GeometryBudget | None = None) -> Shape:
    """A valid shape from exterior rings (each a list of ``[x, y]``, closed or
    not, the first point possibly repeated) minus the hole rings.

    Self-intersecting rings are repaired with ``shapely.make_valid`` (method
    "structure": a bow tie becomes two triangles), up to
    :data:`MAX_REPAIR_POINTS` points and within ``budget`` (a fresh
    :class:`GeometryBudget` when none is given).  Raises
    :class:`GeometryError` naming the ring with fewer than three distinct
    points, too many to repair, or over the budget.
    """
    spend = budget or GeometryBudget()

    def ring_shape(ring: Sequence[Sequence[float]], what: str) -> BaseGeometry:
        spend.spend_ring(len(ring), what)
        pts = [(float(p[0]), float(p[1])) for p in ring]
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()
        if len(set(pts)) < 3:
            raise GeometryError(f"{what} has {len(set(pts))} distinct points; a polygon needs at least 3")
        poly = Polygon(pts)
        if poly.is_valid:
            return poly
        if len(pts) > MAX_REPAIR_POINTS:
            raise GeometryError(f"{what} crosses itself and has {len(pts)} points; self-crossing rings are "
                                f"repaired only up to {MAX_REPAIR_POINTS} points")
        spend.spend_repair(pts, what)
        return shapely.make_valid(poly, method="structure", keep_collapsed=False)

    outer = [ring_shape(r, f"polygon {i + 1}") for i, r in enumerate(polygons)]
    if not outer:
        return Polygon()
    shape = outer[0] if len(outer) == 1 else unary_union(outer)
    if holes:
        shape = shape.difference(unary_union([ring_shape(r, f"hole {i + 1}") for i, r in enumerate(holes)]))
    return _polygonal(shape)


def shape_to_rings(shape: Shape, ndigits: int = 3) -> tuple[list[Ring], list[Ring]]:
    """Exterior rings and hole rings of ``shape``, unclosed (the first point
    is not repeated), rounded to ``ndigits`` (integers stay integers): the
    inverse of :func:`shape_from_rings`.

    The form is canonical, so that saving what was loaded changes nothing:
    exteriors counter-clockwise and holes clockwise (in x-right, y-up terms),
    each ring starting at its smallest point, rings sorted by that point."""
    def ring(coords: Iterable[tuple[float, ...]]) -> Ring:
        pts = [(_num(x, ndigits), _num(y, ndigits)) for x, y, *_ in coords]
        if len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()
        if pts:
            i = min(range(len(pts)), key=lambda k: pts[k])
            pts = pts[i:] + pts[:i]
        return pts

    outer: list[Ring] = []
    holes: list[Ring] = []
    polys = [shape] if isinstance(shape, Polygon) else list(shape.geoms)
    for p in polys:
        if p.is_empty:
            continue
        p = orient(p, sign=1.0)
        outer.append(ring(p.exterior.coords))
        holes.extend(ring(h.coords) for h in p.interiors)
    return sorted(outer), sorted(holes)


def _num(v: float, ndigits: int) -> float:
    r = round(float(v), ndigits)
    return int(r) if r == int(r) else r


def label_point(shape: Shape, tolerance: float | None = None) -> tuple[float, float] | None:
    """A point well inside ``shape`` for its label: the pole of
    inaccessibility (shapely ``polylabel``) of its largest part.  ``None``
    for an empty shape.  ``tolerance`` defaults to 1/100 of the part's
    smaller side."""
    if shape.is_empty:
        return None
    part = shape if isinstance(shape, Polygon) else max(shape.geoms, key=lambda p: p.area)
    minx, miny, maxx, maxy = part.bounds
    tol = tolerance if tolerance is not None else max(min(maxx - minx, maxy - miny) / 100.0, 1e-9)
    pt: Point = polylabel(part, tolerance=tol)
    return (float(pt.x), float(pt.y))


def shared_border_length(a: Shape, b: Shape) -> float:
    """Length of the boundary ``a`` and ``b`` share (0 when they touch at
    points only or not at all)."""
    if a.is_empty or b.is_empty or not a.intersects(b):
        return 0.0
    return float(a.boundary.intersection(b.boundary).length)


def derive_adjacency(shapes: dict[str, Shape], min_length: float = 1e-9) -> list[tuple[str, str]]:
    """Pairs of ids whose shapes share a border of length > ``min_length``
    (touching at a single point does not count), sorted; uses an STR-tree so
    large maps stay fast."""
    ids = [k for k, s in shapes.items() if not s.is_empty]
    geoms = [shapes[k] for k in ids]
    tree = shapely.STRtree(geoms)
    pairs: set[tuple[str, str]] = set()
    left, right = tree.query(geoms, predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j:
            continue
        if shared_border_length(geoms[i], geoms[j]) > min_length:
            a, b = ids[i], ids[j]
            pairs.add((a, b) if a < b else (b, a))
    return sorted(pairs)


# ----------------------------------------------------------------------
# picking: what is under a point (the territory editor's canvas and tools)


@dataclass(frozen=True)
class PickIndex:
    """Territory shapes in an STR-tree, for :func:`territory_at`.

    Built by :func:`pick_index`; rebuilt when shapes or the set of
    territories change (it keeps each shape's area for the overlap rule)."""

    ids: tuple[str, ...]
    areas: tuple[float, ...]
    tree: Any
    """A shapely ``STRtree`` over the non-empty shapes, or ``None``."""
    width: float
    wrap_x: bool


def pick_index(shapes: Mapping[str, Shape], width: float, wrap_x: bool = False) -> PickIndex:
    """The pick index of ``shapes`` (id → shape; empty shapes are left
    out) on a map ``width`` wide that repeats east–west when ``wrap_x``."""
    ids = tuple(k for k, g in shapes.items() if not g.is_empty)
    tree = shapely.STRtree([shapes[k] for k in ids]) if ids else None
    return PickIndex(ids, tuple(float(shapes[k].area) for k in ids), tree, float(width), wrap_x)


def territory_at(index: PickIndex, x: float, y: float) -> str | None:
    """The territory whose shape contains map point (x, y) — on its edge
    counts — the smallest when shapes overlap (an island drawn over its
    sea zone), else ``None``.  On a ``wrap_x`` map x is taken round the
    world first."""
    if index.tree is None:
        return None
    if index.wrap_x and index.width > 0:
        x = x % index.width
    hits = index.tree.query(Point(x, y), predicate="intersects")
    if len(hits) == 0:
        return None
    return index.ids[min((int(i) for i in hits), key=lambda i: index.areas[i])]


MAX_ALONG_STEPS = 2000
"""Most points :func:`territories_along` samples on one segment."""


def territories_along(index: PickIndex, a: tuple[float, float], b: tuple[float, float], step: float) -> list[str]:
    """Territories a straight move from map point ``a`` to ``b`` passes, in
    order, without repeats in a row (``a``'s own territory first when the
    first sample is still in it): sampled every ``step`` map units after
    ``a`` (at most
    :data:`MAX_ALONG_STEPS` samples), so a fast mouse drag skips none.  On
    a ``wrap_x`` map a move longer than half the world goes the short way
    round."""
    (x0, y0), (x1, y1) = a, b
    if index.wrap_x and abs(x1 - x0) > index.width / 2:
        x1 += index.width if x1 < x0 else -index.width
    n = max(1, min(MAX_ALONG_STEPS, math.ceil(math.hypot(x1 - x0, y1 - y0) / max(step, 1e-12))))
    out: list[str] = []
    for i in range(1, n + 1):
        f = i / n
        tid = territory_at(index, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
        if tid is not None and (not out or out[-1] != tid):
            out.append(tid)
    return out


def border_lines(a: Shape, b: Shape, closed: bool, label_a: tuple[float, float] | None = None,
                 label_b: tuple[float, float] | None = None) -> list[list[tuple[float, float]]]:
    """Where the border between shapes ``a`` and ``b`` is drawn, as
    polylines of map points.

    A closed border runs along the boundary the shapes share.  Any other
    border (a rail crossing or strait over water), or a closed one between
    shapes that only touch, is one short line across the gap: from the
    nearest point of ``a`` to the nearest point of ``b``, reaching beyond
    both by a quarter of the gap (at least 6 units); when the shapes touch,
    it points from ``label_a`` to ``label_b`` (no line without them).
    Empty shapes have no border line."""
    if a.is_empty or b.is_empty:
        return []
    lines: list[list[tuple[float, float]]] = []
    if closed:
        shared = a.boundary.intersection(b.boundary)
        for line in getattr(shared, "geoms", [shared]):
            coords = shapely.get_coordinates(line)
            if len(coords) >= 2:
                lines.append([(float(x), float(y)) for x, y in coords])
    if lines:
        return lines
    pa, pb = nearest_points(a, b)
    ax, ay, bx, by = pa.x, pa.y, pb.x, pb.y
    d = math.hypot(bx - ax, by - ay)
    ext = max(6.0, d * 0.25)
    if d < 1e-9:
        if label_a is None or label_b is None:
            return []
        ux, uy = (label_b[0] - label_a[0]), (label_b[1] - label_a[1])
        n = math.hypot(ux, uy) or 1.0
        ux, uy = ux / n, uy / n
    else:
        ux, uy = (bx - ax) / d, (by - ay) / d
    return [[(ax - ux * ext, ay - uy * ext), (bx + ux * ext, by + uy * ext)]]


def nearest_border(lines: Iterable[tuple[K, Sequence[Sequence[tuple[float, float]]]]], x: float, y: float,
                   max_distance: float) -> K | None:
    """The key of the border whose drawn lines (``(key, polylines)`` pairs,
    as :func:`border_lines` gives them) pass nearest map point (x, y), if
    within ``max_distance``; else ``None`` (the first of equally near)."""
    pt = Point(x, y)
    best: K | None = None
    best_d = max_distance
    for key, polys in lines:
        for poly in polys:
            if len(poly) < 2:
                continue
            d = float(shapely.LineString(poly).distance(pt))
            if d <= best_d and (best is None or d < best_d):
                best, best_d = key, d
    return best


def nearest_corner(shapes: Iterable[BaseGeometry], x: float, y: float,
                   max_distance: float) -> tuple[float, float] | None:
    """The corner (a vertex of any ring) of ``shapes`` nearest map point
    (x, y), if within ``max_distance``; else ``None``: where a calibration
    click on the map snaps."""
    best: tuple[float, float] | None = None
    best_d = max_distance
    for shape in shapes:
        if shape is None or shape.is_empty:
            continue
        x0, y0, x1, y1 = shape.bounds
        if x < x0 - best_d or x > x1 + best_d or y < y0 - best_d or y > y1 + best_d:
            continue
        xy = shapely.get_coordinates(shape)
        d = np.hypot(xy[:, 0] - x, xy[:, 1] - y)
        i = int(np.argmin(d))
        if d[i] <= best_d:
            best, best_d = (float(xy[i, 0]), float(xy[i, 1])), float(d[i])
    return best


Box = tuple[float, float, float, float]
"""A rectangle as (left, top, width, height)."""


def box_at(boxes: Sequence[Box], x: float, y: float, pad: float = 0.0) -> int | None:
    """The index of the first box containing point (x, y) once grown by
    ``pad`` on every side (its edges count), else ``None``: which unit
    counter a click hits (screen pixels)."""
    for i, (left, top, w, h) in enumerate(boxes):
        x0, y0 = left - pad, top - pad  # grown as QRectF.adjusted grows it, to the last bit
        if x0 <= x <= x0 + (w + 2 * pad) and y0 <= y <= y0 + (h + 2 * pad):
            return i
    return None


__all__ = ["MAX_ALONG_STEPS", "MAX_BUDGET_PAIRS", "MAX_BUDGET_POINTS", "MAX_BUDGET_RINGS", "MAX_REPAIR_PAIRS", "Box",
           "GeometryBudget", "GeometryError", "PickIndex", "Shape", "border_lines", "box_at",
           "derive_adjacency", "label_point", "nearest_border", "nearest_corner", "pick_index", "polygon_from_cells", "polygonal",
           "shape_from_rings", "shape_to_rings", "shared_border_length", "territories_along", "territory_at"]
