"""Grid calibration on a scanned map: fit the grid to an image.

A user clicks at least three cells on a scan and types their labels.  The
grid's own layout coordinates of those cells (:meth:`engine.grids.Layout.center`
of a layout with cell size 1: hex circumradius 1, or square side 1, map's
top-left corner at 0, 0) are fitted to the clicked pixels by least squares
with a full **affine** map (scale, rotation, skew and translation: six
parameters, so three points not on one line fix it and more points refine
it).  The residual of each clicked point (pixels) and their RMS say how well
a regular lattice explains the clicks.

Scanned maps are not perfect lattices (paper stretch, a scanner's drift,
hexes of different sizes).  The **piecewise** option keeps the affine fit
and adds a residual correction that is piecewise linear over a Delaunay
triangulation of the clicked cells (in grid coordinates): inside a triangle
the correction is the barycentric mix of its three corners' residuals, so the
corrected map is affine per triangle and meets every clicked point exactly;
outside the triangulation the correction is that of the nearest point on its
hull, so the map stays continuous everywhere and falls back towards the
affine fit's trend far away.  This was chosen over inverse-distance weighting
because it is exact on linear drift within each triangle, local (a bad click
only moves its own triangles) and continuous; its price is that the clicked
points' residuals are absorbed, so the affine residuals stay the measure of
how far the scan drifts.  See ``docs/file-format.md`` (the ``underlay`` record).

A scan under a **territory map** is placed by a scale and an offset only
(``pixel = offset + scale * map point``): :func:`fit_scale_offset` fits them
to click pairs (a scan point and the map point it shows) by least squares.

The inverse (image pixel -> cell) goes through the inverse affine map (and,
for piecewise, a fixed-point iteration on the correction) and then the
grid's own picking (:meth:`engine.grids.Layout.pick`), so both square grids
and flat or pointy hexes are handled by the grid code that draws them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .grids import Cell, Layout, Point
from .model import GridMap, ModelError

MIN_POINTS = 3
"""An affine map has six unknowns: three points (not on one line) fix it."""
_FLAT = 1e-9
"""Relative size of the smallest spread of the points (singular value) below
which they count as lying on one line."""
MAX_PIXEL = 1e9
"""Clicked coordinates beyond this (in either direction) are refused: no scan
is that large, and the fit's arithmetic stays far from overflow."""
_INVERSE_STEPS = 100
_INVERSE_TOLERANCE = 1e-10


class CalibrationError(ValueError):
    """Calibration input that cannot be fitted; the message names the point."""


@dataclass(frozen=True)
class ClickedPoint:
    """A point clicked on the image (pixels, y down) and the cell label typed for it."""

    x: float
    y: float
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y, "label": self.label}


def _describe(i: int, p: ClickedPoint) -> str:
    return f"point {i + 1} (label '{p.label}')"


def _entries(data: Any, where: str, keys: tuple[str, ...], shape: str) -> list[tuple[str, dict[str, Any]]]:
    """The objects of a list of ``shape`` objects with the ``keys`` (JSON
    path, object); raises :class:`CalibrationError` naming the first entry
    that is no object or has another key."""
    if not isinstance(data, list):
        raise CalibrationError(f"{where}: expected a list of {shape} objects, got {type(data).__name__}")
    names = ", ".join(keys[:-1]) + f" and {keys[-1]}"
    out = []
    for i, item in enumerate(data):
        p = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise CalibrationError(f"{p}: expected an object with {names}, got {type(item).__name__}")
        unknown = sorted(set(item) - set(keys))
        if unknown:
            raise CalibrationError(f"{p}: unknown key '{unknown[0]}' (expected {names})")
        out.append((p, item))
    return out


def points_from_data(data: Any, where: str = "points") -> list[ClickedPoint]:
    """Clicked points from decoded JSON, a list of ``{"x": .., "y": .., "label": ".."}``;
    raises :class:`CalibrationError` naming the first bad entry (``where`` is
    prefixed to its path, e.g. ``points[2].x``)."""
    out = []
    for p, item in _entries(data, where, ("x", "y", "label"), '{"x": .., "y": .., "label": ".."}'):
        for key in ("x", "y"):
            v = item.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise CalibrationError(f"{p}.{key}: expected a finite number of pixels, got {v!r}")
        label = item.get("label")
        if not isinstance(label, str) or not label:
            raise CalibrationError(f"{p}.label: expected a cell label (text), got {label!r}")
        out.append(ClickedPoint(float(item["x"]), float(item["y"]), label))
    return out


@dataclass(frozen=True)
class Affine:
    """``(x, y) -> (a x + b y + c, d x + e y + f)``: grid layout coordinates
    (cell size 1) to image pixels."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    @property
    def det(self) -> float:
        return self.a * self.e - self.b * self.d

    def apply(self, x: float, y: float) -> Point:
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)

    def inverse(self) -> Affine:
        det = self.det
        if det == 0 or not math.isfinite(det):
            raise CalibrationError("the transform is singular (it flattens the grid onto a line) and has no inverse")
        a, b, d, e = self.e / det, -self.b / det, -self.d / det, self.a / det
        return Affine(a, b, -(a * self.c + b * self.f), d, e, -(d * self.c + e * self.f))

    def to_list(self) -> list[list[float]]:
        """As stored in files: ``[[a, b, c], [d, e, f]]``."""
        return [[self.a, self.b, self.c], [self.d, self.e, self.f]]

    @staticmethod
    def from_list(rows: Sequence[Sequence[float]]) -> Affine:
        (a, b, c), (d, e, f) = rows
        return Affine(float(a), float(b), float(c), float(d), float(e), float(f))

    def describe(self) -> dict[str, float]:
        """Scale (pixels per layout unit along the grid's x and y), rotation
        of the grid's x axis and skew (degrees, clockwise on screen), from
        the decomposition ``[[a, b], [d, e]] = R(rotation) [[sx, k], [0, sy]]``."""
        sx = math.hypot(self.a, self.d)
        rot = math.atan2(self.d, self.a)
        cos, sin = math.cos(rot), math.sin(rot)
        k = cos * self.b + sin * self.e
        sy = -sin * self.b + cos * self.e
        return {"scale_x": sx, "scale_y": sy, "rotation_degrees": math.degrees(rot),
                "skew_degrees": math.degrees(math.atan2(k, sy)), "translate_x": self.c, "translate_y": self.f}


def _flat(xy: np.ndarray) -> bool:
    """True when the points ``xy`` (n x 2) lie on one line (or one spot)."""
    centred = xy - xy.mean(axis=0)
    s = np.linalg.svd(centred, compute_uv=False)
    return bool(s[-1] <= _FLAT * max(1.0, float(s[0])))


def _fit_affine(src: np.ndarray, dst: np.ndarray) -> Affine:
    """Least-squares affine map taking ``src`` to ``dst`` (n x 2 each); the
    source is centred first so the solve stays well conditioned."""
    mean = src.mean(axis=0)
    m = np.column_stack([src - mean, np.ones(len(src))])
    sol, *_ = np.linalg.lstsq(m, dst, rcond=None)
    a, d = sol[0]
    b, e = sol[1]
    cx, cy = sol[2]
    return Affine(float(a), float(b), float(cx - a * mean[0] - b * mean[1]),
                  float(d), float(e), float(cy - d * mean[0] - e * mean[1]))


@dataclass
class _Correction:
    """Piecewise linear residual correction over a Delaunay triangulation of
    the clicked cells (grid layout coordinates); see the module docstring."""

    src: np.ndarray
    residuals: np.ndarray
    tri: Any = field(init=False)
    hull: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        from scipy.spatial import Delaunay, QhullError

        try:
            self.tri = Delaunay(self.src)
        except QhullError as e:
            raise CalibrationError("the clicked cells cannot be triangulated for the piecewise correction "
                                   f"({str(e).splitlines()[0]}); use the affine fit") from None
        self.hull = np.asarray(self.tri.convex_hull)

    def at(self, xy: np.ndarray) -> np.ndarray:
        """The correction (pixels, n x 2) at layout points ``xy`` (n x 2)."""
        out = np.zeros_like(xy)
        simplex = np.asarray(self.tri.find_simplex(xy))
        inside = simplex >= 0
        if inside.any():
            s = simplex[inside]
            t = self.tri.transform[s]
            bary = np.einsum("nij,nj->ni", t[:, :2], xy[inside] - t[:, 2])
            w = np.column_stack([bary, 1.0 - bary.sum(axis=1)])
            out[inside] = np.einsum("nk,nkd->nd", w, self.residuals[self.tri.simplices[s]])
        outside = ~inside
        if outside.any():
            p = xy[outside][:, None, :]
            a, b = self.src[self.hull[:, 0]], self.src[self.hull[:, 1]]
            seg = b - a
            t_ = np.clip(np.einsum("nej,ej->ne", p - a, seg) / np.einsum("ej,ej->e", seg, seg), 0.0, 1.0)
            dist = np.hypot(*np.moveaxis(a + t_[..., None] * seg - p, -1, 0))
            e = np.argmin(dist, axis=1)
            te = t_[np.arange(len(e)), e][:, None]
            out[outside] = (1.0 - te) * self.residuals[self.hull[e, 0]] + te * self.residuals[self.hull[e, 1]]
        return out


@dataclass
class Calibration:
    """A grid fitted to an image: build with :func:`calibrate`.

    ``residuals`` are the affine fit's distances (pixels) from each clicked
    point to where the fit puts its cell's centre, in the order given;
    ``rms`` is their root mean square.  With ``piecewise`` the mapping also
    applies the correction described in the module docstring (which meets
    every clicked point exactly)."""

    map: GridMap
    points: list[ClickedPoint]
    cells: list[Cell]
    affine: Affine
    residuals: list[float]
    rms: float
    piecewise: bool = False
    layout: Layout = field(init=False)
    _inverse: Affine = field(init=False)
    _correction: _Correction | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.layout = self.map.grid.make_layout(1.0)
        self._inverse = self.affine.inverse()
        if self.piecewise:
            src = np.array([self.layout.center(c) for c in self.cells], float)
            dst = np.array([(p.x, p.y) for p in self.points], float)
            t = self.affine
            fitted = src @ np.array([[t.a, t.d], [t.b, t.e]]) + np.array([t.c, t.f])
            self._correction = _Correction(src, dst - fitted)

    def layout_to_pixels(self, xy: np.ndarray) -> np.ndarray:
        """Image pixels (n x 2) of points ``xy`` (n x 2) in grid layout
        coordinates (cell size 1)."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        t = self.affine
        out: np.ndarray = xy @ np.array([[t.a, t.d], [t.b, t.e]]) + np.array([t.c, t.f])
        if self._correction is not None:
            out += self._correction.at(xy)
        return out

    def pixels_to_layout(self, pixels: np.ndarray) -> np.ndarray:
        """Grid layout coordinates (n x 2) of image pixels (n x 2); with the
        piecewise correction, by fixed-point iteration on it."""
        q = np.asarray(pixels, float).reshape(-1, 2)
        inv = self._inverse
        m, c = np.array([[inv.a, inv.d], [inv.b, inv.e]]), np.array([inv.c, inv.f])
        xy: np.ndarray = q @ m + c
        if self._correction is None:
            return xy
        for _ in range(_INVERSE_STEPS):
            nxt: np.ndarray = (q - self._correction.at(xy)) @ m + c
            step = np.hypot(*(nxt - xy).T)
            xy = nxt
            if not (step > _INVERSE_TOLERANCE).any():
                return xy
        bad = q[int(np.argmax(step))]
        raise CalibrationError(f"pixel ({bad[0]:g}, {bad[1]:g}): the piecewise correction folds the grid over "
                               "itself there (clicked points too close or inconsistent); the affine fit has no "
                               "such fold")

    def layout_to_pixel(self, x: float, y: float) -> Point:
        """Image pixel of a point in grid layout coordinates (cell size 1)."""
        px, py = self.layout_to_pixels(np.array([[x, y]]))[0]
        return float(px), float(py)

    def pixel_to_layout(self, px: float, py: float) -> Point:
        """Grid layout coordinates (cell size 1) of an image pixel."""
        x, y = self.pixels_to_layout(np.array([[px, py]]))[0]
        return float(x), float(y)

    def cell_to_pixel(self, cell: Cell) -> Point:
        """Image pixel of a cell's centre."""
        return self.layout_to_pixel(*self.layout.center(cell))

    def pixel_to_cell(self, px: float, py: float) -> Cell:
        """The cell under an image pixel (it may lie off the map: check with
        :meth:`engine.grids.Grid.contains`)."""
        return self.layout.pick(*self.pixel_to_layout(px, py))

    def cells_to_pixels(self, cells: Sequence[Cell]) -> np.ndarray:
        """Image pixels (n x 2) of the centres of ``cells``."""
        return self.layout_to_pixels(np.array([self.layout.center(c) for c in cells], float))

    def corners_in_pixels(self, cell: Cell) -> list[Point]:
        """A cell's outline on the image (for drawing the grid over the scan)."""
        return [(float(x), float(y)) for x, y in self.layout_to_pixels(np.array(self.layout.corners(cell)))]

    def leave_one_out(self) -> list[float | None]:
        """Per clicked point, its distance (pixels) from where a fit of the
        *other* points (same mode) puts its cell: a bad click stands out
        here even where least squares spreads its error over every residual
        (and the piecewise correction hides it).  None where the other points
        cannot fix a fit (three points, or the rest on one line)."""
        out: list[float | None] = []
        for i in range(len(self.points)):
            rest = self.points[:i] + self.points[i + 1:]
            try:
                other = calibrate(self.map, rest, self.piecewise)
            except CalibrationError:
                out.append(None)
                continue
            x, y = other.cell_to_pixel(self.cells[i])
            out.append(math.hypot(x - self.points[i].x, y - self.points[i].y))
        return out

    def report(self) -> dict[str, Any]:
        """The fit as JSON-ready data: transform, its decomposition, per-point
        residuals (and :meth:`leave_one_out` distances) and RMS."""
        loo = self.leave_one_out()
        return {
            "transform": self.affine.to_list(),
            "describe": self.affine.describe(),
            "piecewise": self.piecewise,
            "points": [{**p.to_dict(), "residual": r, "leave_one_out": lo}
                       for p, r, lo in zip(self.points, self.residuals, loo)],
            "rms": self.rms,
        }


def calibrate(gmap: GridMap, points: Sequence[ClickedPoint], piecewise: bool = False) -> Calibration:
    """Fit ``gmap``'s grid to the clicked ``points``; raises
    :class:`CalibrationError` for fewer than three points, an unknown or
    off-map label, a cell or pixel clicked twice, or points on one line
    (in the grid or on the image), naming the points concerned."""
    points = list(points)
    if len(points) < MIN_POINTS:
        raise CalibrationError(f"{len(points)} point{'s' if len(points) != 1 else ''} given: a calibration needs at "
                               f"least {MIN_POINTS} cells clicked, not all on one line")
    layout = gmap.grid.make_layout(1.0)
    cells: list[Cell] = []
    seen: dict[Cell, int] = {}
    for i, p in enumerate(points):
        if not (math.isfinite(p.x) and math.isfinite(p.y)):
            raise CalibrationError(f"{_describe(i, p)}: pixel ({p.x}, {p.y}) is not a finite position")
        if abs(p.x) > MAX_PIXEL or abs(p.y) > MAX_PIXEL:
            raise CalibrationError(f"{_describe(i, p)}: pixel ({p.x:g}, {p.y:g}) lies beyond {MAX_PIXEL:g} "
                                   "pixels from the image's corner, which no scan reaches")
        try:
            cell = gmap.parse_label(p.label)
        except ModelError as e:
            raise CalibrationError(f"{_describe(i, p)}: {e}") from None
        if not gmap.grid.contains(cell):
            raise CalibrationError(f"{_describe(i, p)}: the cell is off the map ({gmap.width}x{gmap.height})")
        if cell in seen:
            j = seen[cell]
            raise CalibrationError(f"{_describe(i, p)}: the same cell as {_describe(j, points[j])}; "
                                   "click each cell once")
        seen[cell] = i
        cells.append(cell)
    src = np.array([layout.center(c) for c in cells], float)
    dst = np.array([(p.x, p.y) for p in points], float)
    names = ", ".join(_describe(i, p) for i, p in enumerate(points))
    if _flat(src):
        raise CalibrationError(f"{names}: these cells lie on one line of the grid, which cannot fix a "
                               "transform; click at least one cell off that line")
    if _flat(dst):
        raise CalibrationError(f"{names}: these clicks lie on one line (or one spot) of the image although "
                               "their cells do not; check the clicked positions")
    for i in range(len(points)):
        for j in range(i):
            if dst[i, 0] == dst[j, 0] and dst[i, 1] == dst[j, 1]:
                raise CalibrationError(f"{_describe(i, points[i])}: clicked at the same pixel as "
                                       f"{_describe(j, points[j])}")
    affine = _fit_affine(src, dst)
    if abs(affine.det) <= _FLAT * max(1.0, affine.a ** 2 + affine.b ** 2 + affine.d ** 2 + affine.e ** 2):
        raise CalibrationError(f"{names}: the fitted transform flattens the grid onto a line; check the clicks")
    fitted = src @ np.array([[affine.a, affine.d], [affine.b, affine.e]]) + np.array([affine.c, affine.f])
    res = np.hypot(*(fitted - dst).T)
    return Calibration(gmap, points, cells, affine, [float(r) for r in res],
                       float(np.sqrt(np.mean(res ** 2))), piecewise)


# ---------------------------------------------------------------------------
# the underlay record (``map.underlay`` in grid scenario files)

@dataclass
class Underlay:
    """A scan shown under the map: ``image`` relative to the scenario file
    (``/`` separators), ``opacity`` 0..1, ``visible``, the clicked
    ``points`` and the fitted ``transform`` (None until three points are
    clicked), ``piecewise`` correction on or off.  See ``docs/file-format.md``."""

    image: str
    opacity: float = 1.0
    visible: bool = True
    points: list[ClickedPoint] = field(default_factory=list)
    piecewise: bool = False
    transform: Affine | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"image": self.image, "opacity": self.opacity, "visible": self.visible}
        if self.points:
            out["points"] = [p.to_dict() for p in self.points]
        if self.piecewise:
            out["piecewise"] = True
        if self.transform is not None:
            out["transform"] = self.transform.to_list()
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Underlay:
        """From a record the schema has checked (``engine.io.grid`` loads it)."""
        t = data.get("transform")
        return Underlay(data["image"], float(data.get("opacity", 1.0)), bool(data.get("visible", True)),
                        points_from_data(data.get("points", []), "underlay.points"),
                        bool(data.get("piecewise", False)), None if t is None else Affine.from_list(t))

    def calibration(self, gmap: GridMap) -> Calibration:
        """Refit the stored points on ``gmap`` (the stored transform is the
        fit's cached result; the points are the source of truth)."""
        return calibrate(gmap, self.points, self.piecewise)

    def calibrated(self, cal: Calibration) -> Underlay:
        """This underlay with ``cal``'s points, option and transform."""
        return Underlay(self.image, self.opacity, self.visible, list(cal.points), cal.piecewise, cal.affine)


# -- a scan under a territory map: a scale and an offset -----------------------

SCALE_TOLERANCE = 1e-6
"""A stored scale or offset agrees with its points' fit within this, relative
to the scale (the loader's check)."""


@dataclass(frozen=True)
class MapPoint:
    """A point of a scan (pixels ``x``, ``y``, y down) and the map point
    ``at`` (map units) it shows: one click pair of a territory map's
    calibration."""

    x: float
    y: float
    at: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y, "at": [self.at[0], self.at[1]]}


@dataclass(frozen=True)
class ScaleFit:
    """``pixel = offset + scale * map point``, the least-squares fit of
    :class:`MapPoint` pairs, and how far off each pair is (map units: the
    map point against where the fit puts its pixel)."""

    scale: float
    offset: tuple[float, float]
    residuals: tuple[float, ...]

    @property
    def rms(self) -> float:
        return math.sqrt(sum(r * r for r in self.residuals) / len(self.residuals)) if self.residuals else 0.0


def map_points_from_data(data: Any, where: str = "points") -> list[MapPoint]:
    """Click pairs from decoded JSON, a list of ``{"x": .., "y": .., "at": [x, y]}``;
    raises :class:`CalibrationError` naming the first bad entry."""
    out = []
    for p, item in _entries(data, where, ("x", "y", "at"), '{"x": .., "y": .., "at": [x, y]}'):
        values = [item.get("x"), item.get("y")]
        at = item.get("at")
        if not isinstance(at, list) or len(at) != 2:
            raise CalibrationError(f"{p}.at: expected the map point [x, y], got {at!r}")
        for key, v in zip(("x", "y", "at[0]", "at[1]"), [*values, *at], strict=True):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > MAX_PIXEL:
                raise CalibrationError(f"{p}.{key}: expected a finite number, got {v!r}")
        out.append(MapPoint(float(item["x"]), float(item["y"]), (float(at[0]), float(at[1]))))
    return out


def fit_scale_offset(points: Sequence[MapPoint]) -> ScaleFit:
    """The scale and offset placing a scan under a territory map so that
    each pair's pixel falls on its map point, by least squares over both
    coordinates (three unknowns: two pairs at different map points fix
    them).  Raises :class:`CalibrationError` for fewer than two pairs, pairs
    all at one map point, or a fit that would mirror the scan."""
    if len(points) < 2:
        raise CalibrationError(f"a scale and an offset need two points, got {len(points)}")
    m = np.array([p.at for p in points], dtype=float)
    px = np.array([(p.x, p.y) for p in points], dtype=float)
    spread = float(np.max(np.ptp(m, axis=0)))
    if spread <= _FLAT * max(1.0, float(np.max(np.abs(m)))):
        raise CalibrationError("the points are all at one place on the map: click two places apart")
    n = len(points)
    a = np.zeros((2 * n, 3))
    a[0::2, 0], a[0::2, 1] = m[:, 0], 1.0
    a[1::2, 0], a[1::2, 2] = m[:, 1], 1.0
    b = px.reshape(-1)
    (scale, ox, oy), *_ = np.linalg.lstsq(a, b, rcond=None)
    if not scale > 0:
        raise CalibrationError("these points would mirror the scan: each scan point must be clicked with the map "
                               "point it shows")
    fitted = (px - np.array([ox, oy])) / scale
    residuals = tuple(float(v) for v in np.hypot(*(fitted - m).T))
    return ScaleFit(float(scale), (float(ox), float(oy)), residuals)


__all__ = ["MAX_PIXEL", "MIN_POINTS", "SCALE_TOLERANCE", "Affine", "Calibration", "CalibrationError", "ClickedPoint",
           "MapPoint", "ScaleFit", "Underlay", "calibrate", "fit_scale_offset", "map_points_from_data",
           "points_from_data"]
