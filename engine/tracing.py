"""Tracing terrain from a calibrated scan.

Given the scan as an ``(h, w, 3)`` array of RGB bytes and the grid's
calibration on it (:class:`engine.calibration.Calibration`: grid layout
coordinates with cell size 1 to image pixels), each cell's colour is the
**median** of the pixels in a ring round its centre, from 45 % to 80 % of
the cell's inner radius in grid units, mapped through the calibration, so it
stays inside the cell on a rotated or skewed scan: clear of the centre,
where roads and rail meet and towns are printed, and of the sides, where
the grid lines and rivers are; the median ignores what crosses the ring (a
road leaving the centre covers a tenth of it).

Each terrain is known by colour samples the user clicks on the scan (or
gives as colours); the samples' mean in **CIELAB** (D65, the sRGB
formulas; Euclidean distance there is the CIE76 colour difference ΔE*ab,
about 2.3 for a just-noticeable one) stands for the terrain.  A cell takes the
nearest terrain; its **confidence** is ``1 - d1 / d2`` (``d1``, ``d2``: the
distances to the nearest and second-nearest terrain), 0 when the two are
equally near, 1 on a sample's colour.  A cell is **uncertain** when the
confidence is under ``min_confidence`` (default 0.35) or the nearest terrain
is more than ``max_distance`` ΔE away (default 30: nothing sampled looks
like it); the editor marks those for review.  Rivers, roads and rail are not
traced: they are drawn by hand (``docs/editor.md``).

The result paints as one undo step through :func:`engine.editing.plan_paint_mask`
records (one per terrain).  The CLI is ``adjutant trace``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from shapely.geometry.base import BaseGeometry

from .calibration import Calibration
from .editing import CellValues, plan_paint_mask
from .grids import Cell
from .model import Scenario

RING = (0.45, 0.8)
"""The sampled ring's inner and outer radius, as fractions of the cell's
inner radius (the centre to the middle of a side)."""
MIN_CONFIDENCE = 0.35
MAX_DISTANCE = 30.0


class TraceError(ValueError):
    """Bad samples or an image that cannot be traced, saying what."""


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB bytes (any shape ending in 3)."""
    c = np.asarray(rgb, np.float64) / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def _ring_offsets(cal: Calibration) -> np.ndarray:
    """Pixel offsets (k x 2) of the sampled ring round a cell's centre."""
    lay = cal.layout
    c0 = np.array(lay.center(Cell(0, 0)))
    corners = np.array(lay.corners(Cell(0, 0)), np.float64)
    mids = (corners + np.roll(corners, -1, axis=0)) / 2  # the middles of the sides
    inner = float(np.min(np.hypot(*(mids - c0).T)))
    r0, r = RING[0] * inner, RING[1] * inner
    t = cal.affine
    lin = np.array([[t.a, t.b], [t.d, t.e]])
    # the ring's outer radius in pixels along its shortest axis sets the sampling step
    px = float(np.linalg.svd(lin, compute_uv=False).min()) * r
    n = max(3, int(np.ceil(px)))
    g = np.linspace(-r, r, 2 * n + 1)
    xs, ys = np.meshgrid(g, g)
    d2 = xs ** 2 + ys ** 2
    keep = (d2 <= r * r) & (d2 >= r0 * r0)
    pts = np.stack([xs[keep], ys[keep]], axis=1)
    out: np.ndarray = pts @ lin.T
    return out


class PixelSource(Protocol):
    """An image read a few pixels at a time (a tile pyramid: ``app/gui/underlay.py``)."""

    width: int
    height: int

    def gather(self, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """RGB of the pixels at ``ys``, ``xs`` (same shape, in range): shape + (3,)."""
        ...


class ArrayPixels:
    """A whole image in memory as a :class:`PixelSource`."""

    def __init__(self, image: np.ndarray) -> None:
        if image.ndim != 3 or image.shape[2] < 3:
            raise TraceError(f"the image must be RGB (height x width x 3), got shape {image.shape}")
        self.image = image
        self.height, self.width = image.shape[:2]

    def gather(self, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        out: np.ndarray = self.image[ys, xs, :3]
        return out


def _source(image: np.ndarray | PixelSource) -> PixelSource:
    return ArrayPixels(image) if isinstance(image, np.ndarray) else image


def cell_colours(image: np.ndarray | PixelSource, cal: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """The median RGB of each cell's ring, ``(rows, cols, 3)``, and whether
    the ring lay wholly on the image, ``(rows, cols)``."""
    src = _source(image)
    m = cal.map
    h, w = src.height, src.width
    rows, cols = np.mgrid[0:m.height, 0:m.width]
    lay = cal.layout
    centres = np.array([lay.center(Cell(int(c), int(r))) for r, c in zip(rows.ravel(), cols.ravel(), strict=True)])
    px = cal.layout_to_pixels(centres)  # (n, 2)
    offs = _ring_offsets(cal)  # (k, 2)
    xs = np.rint(px[:, None, 0] + offs[None, :, 0]).astype(np.intp)
    ys = np.rint(px[:, None, 1] + offs[None, :, 1]).astype(np.intp)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    whole = inside.all(axis=1)
    xs, ys = np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1)
    colours = np.median(src.gather(ys, xs).astype(np.float64), axis=1)
    return colours.reshape(m.height, m.width, 3), whole.reshape(m.height, m.width)


@dataclass(frozen=True)
class Trace:
    """What a trace found: the terrain index of each cell ``(rows, cols)``,
    its confidence, the uncertain cells (sorted row by row), the cells whose
    ring left the image (also uncertain, and left as they are)."""

    terrain: np.ndarray
    confidence: np.ndarray
    uncertain: tuple[Cell, ...]
    off_image: tuple[Cell, ...]

    def counts(self, names: Sequence[str]) -> dict[str, int]:
        return {names[i]: int((self.terrain == i).sum()) for i in np.unique(self.terrain)}


def terrain_references(samples: Mapping[int, Sequence[Sequence[float]]]) -> tuple[list[int], np.ndarray]:
    """(terrain indexes, their mean Lab colours) from RGB samples per terrain."""
    if len(samples) < 2:
        raise TraceError(f"sample at least two terrains (got {len(samples)}): a trace chooses between them")
    ids, labs = [], []
    for t, cols in sorted(samples.items()):
        arr = np.asarray(cols, np.float64)
        if arr.ndim != 2 or arr.shape[1] != 3 or len(arr) == 0:
            raise TraceError(f"terrain {t}: samples must be RGB triples, got {np.asarray(cols).shape}")
        ids.append(t)
        labs.append(rgb_to_lab(arr).mean(axis=0))
    return ids, np.array(labs)


def trace(image: np.ndarray | PixelSource, cal: Calibration, samples: Mapping[int, Sequence[Sequence[float]]],
          min_confidence: float = MIN_CONFIDENCE, max_distance: float = MAX_DISTANCE) -> Trace:
    """Classify every cell of the calibrated map by its colour on ``image``
    (``samples``: terrain index -> RGB colours)."""
    ids, refs = terrain_references(samples)
    colours, whole = cell_colours(image, cal)
    lab = rgb_to_lab(colours)
    d = np.linalg.norm(lab[:, :, None, :] - refs[None, None, :, :], axis=-1)  # (rows, cols, k)
    order = np.argsort(d, axis=-1)
    d1 = np.take_along_axis(d, order[..., :1], axis=-1)[..., 0]
    d2 = np.take_along_axis(d, order[..., 1:2], axis=-1)[..., 0]
    conf = np.where(d2 > 0, 1.0 - d1 / np.maximum(d2, 1e-9), 0.0)
    terrain = np.asarray(ids)[order[..., 0]]
    unsure = (conf < min_confidence) | (d1 > max_distance) | ~whole
    rs, cs = np.nonzero(unsure)
    off_r, off_c = np.nonzero(~whole)
    return Trace(terrain.astype(np.int64), conf, tuple(Cell(int(c), int(r)) for r, c in zip(rs, cs, strict=True)),
                 tuple(Cell(int(c), int(r)) for r, c in zip(off_r, off_c, strict=True)))


def plan_trace(s: Scenario, result: Trace) -> list[CellValues]:
    """The edits painting a trace (cells off the image left alone): one
    record per terrain, pushed together as one undo step."""
    keep = np.ones(result.terrain.shape, bool)
    for c in result.off_image:
        keep[c.row, c.col] = False
    out = []
    for t in np.unique(result.terrain[keep]):
        e = plan_paint_mask(s, "terrain", keep & (result.terrain == t), int(t))
        if e is not None:
            out.append(e)
    return out


def pixel_samples(image: np.ndarray | PixelSource, points: Sequence[Sequence[float]], where: str) -> list[list[float]]:
    """The RGB colours of clicked pixels (x, y), each the median of its
    3 x 3 neighbourhood (a click a pixel off a grid line still reads the
    cell's colour)."""
    src = _source(image)
    h, w = src.height, src.width
    out = []
    for i, p in enumerate(points):
        x, y = int(round(float(p[0]))), int(round(float(p[1])))
        if not (0 <= x < w and 0 <= y < h):
            raise TraceError(f"{where}[{i}]: pixel ({p[0]}, {p[1]}) is off the {w} x {h} image")
        ys, xs = np.mgrid[max(0, y - 1):min(h, y + 2), max(0, x - 1):min(w, x + 2)]
        patch = src.gather(ys.ravel(), xs.ravel()).reshape(-1, 3)
        out.append(np.median(patch.astype(np.float64), axis=0).tolist())
    return out


# ---------------------------------------------------------------------------
# territory maps: a region's outline by flood fill

REGION_TOLERANCE = 8.0
"""ΔE*ab from the clicked pixel's colour still counted as the region's."""


def region_mask(image: np.ndarray, x: int, y: int, tolerance: float = REGION_TOLERANCE,
                fill_holes: bool = True) -> np.ndarray:
    """The pixels of ``image`` joined to pixel (x, y) (4-connected) whose
    colour is within ``tolerance`` ΔE of that pixel's: a flood fill of its
    colour, as TripleA's polygon grabber does.  ``fill_holes`` fills what
    the region surrounds (the names, counters and symbols printed on it; an
    enclave is then traced separately and cut out by hand)."""
    from scipy import ndimage

    h, w = image.shape[:2]
    if not (0 <= x < w and 0 <= y < h):
        raise TraceError(f"pixel ({x}, {y}) is off the {w} x {h} image")
    lab = rgb_to_lab(image[:, :, :3])
    near = np.linalg.norm(lab - lab[y, x], axis=-1) <= tolerance
    labels, _ = ndimage.label(near)
    region = labels == labels[y, x]
    if fill_holes:
        region = ndimage.binary_fill_holes(region)
    out: np.ndarray = np.asarray(region, bool)
    return out


def mask_polygon(mask: np.ndarray, simplify: float = 1.0) -> BaseGeometry:
    """A shapely (Multi)Polygon covering the True pixels of ``mask`` (pixel
    (c, r) is the square from (c, r) to (c + 1, r + 1)), its outline
    simplified by ``simplify`` pixels (topology kept)."""
    import shapely

    boxes = []
    for r in np.flatnonzero(mask.any(axis=1)):
        row = np.r_[False, mask[r], False]
        edges = np.flatnonzero(np.diff(row.astype(np.int8)))
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            boxes.append(shapely.box(a, r, b, r + 1))
    if not boxes:
        raise TraceError("the region is empty")
    shape: BaseGeometry = shapely.union_all(boxes)
    return shape.simplify(simplify, preserve_topology=True) if simplify > 0 else shape


def trace_region(image: np.ndarray, x: float, y: float, to_map: tuple[float, float, float, float, float, float],
                 tolerance: float = REGION_TOLERANCE, simplify: float = 1.0) -> BaseGeometry:
    """The outline (map coordinates) of the region round image pixel (x, y):
    :func:`region_mask`, :func:`mask_polygon`, then ``to_map`` (``a, b, c,
    d, e, f``: map x = a·px + b·py + c, map y = d·px + e·py + f).  Raises
    :class:`TraceError` for a pixel off the image."""
    import shapely.affinity

    poly = mask_polygon(region_mask(image, int(round(x)), int(round(y)), tolerance), simplify)
    a, b, c, d, e, f = to_map
    out: BaseGeometry = shapely.affinity.affine_transform(poly, [a, b, d, e, c, f])
    return out


def snap_to(shape: BaseGeometry, others: Sequence[BaseGeometry], tolerance: float) -> BaseGeometry:
    """``shape`` with its corners moved onto the outlines of ``others``
    within ``tolerance`` (map units) and what then overlaps them cut away:
    a traced region stops half a border line short of its neighbours, so
    without this it would share no border with them."""
    import shapely

    near = [o for o in others if not o.is_empty and o.distance(shape) <= tolerance]
    if not near:
        return shape
    ref = shapely.union_all(near)
    snapped = shapely.snap(shape, ref, tolerance).difference(ref)
    snapped = shapely.make_valid(snapped)
    if snapped.is_empty or snapped.area < 0.5 * shape.area:
        return shape
    out: BaseGeometry = snapped
    return out
