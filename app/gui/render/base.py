"""The map renderer: everything a map looks like, for one grid kind.

A :class:`MapRenderer` paints a scenario in two passes:

* :meth:`MapRenderer.render_base` paints the static part of the map into a
  rectangle of *scene pixels* (map coordinates times the zoom): terrain,
  control tint and grid lines straight from the model's numpy arrays (each
  pixel looks up its cell; no polygon per cell), then control borders,
  rivers, bridges, roads, rail and coordinate labels as vector strokes.  The
  canvas caches its output in tiles; export calls it directly.
* :meth:`MapRenderer.paint_top` paints what changes often on top, fresh
  every frame: places, unit counters (cached sprites), the selected unit and
  the overlays of :mod:`app.gui.overlay` (the :class:`~.top.TopPass` mixin,
  in :mod:`app.gui.render.top`).

Geometry comes from the engine's :class:`~engine.grids.Layout`; only this
package turns it into Qt types.  Each grid kind supplies the few vectorised
pieces that differ (pixel to cell, cell centres, corner offsets) in its own
subclass, registered in :mod:`app.gui.render`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPaintEngine, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from engine.grids import Cell, Edge, GridKind
from engine.model import NO_SIDE, Scenario

from . import style
from .index import EdgeIndex
from .paths import polygons, segments_path
from .top import TopPass

LAYERS: tuple[str, ...] = ("terrain", "control", "rivers", "rail", "road", "places", "units", "grid", "labels")
"""Every layer the renderer knows, bottom to top."""

DEFAULT_LAYERS: frozenset[str] = frozenset(LAYERS) - {"labels"}

GRID_LEVELS = 5
"""Anti-aliasing levels of raster grid lines (coverage 0 .. 1)."""

Array = np.ndarray[Any, Any]


def joined(lines: Sequence[QLineF]) -> QPainterPath:
    """The lines as one path, to be stroked at once.  A stroke is filled as
    one shape, so where lines overlap (a junction of river sides, a rail
    line's joints) the overlap is covered once: the pixels there do not
    depend on which other lines were stroked with them (``drawLines``
    strokes 16 at a time, so a tile drawn with another set of lines would
    round its junctions differently, and tiles made at once must match
    tiles made one by one)."""
    path = QPainterPath()
    for ln in lines:
        path.moveTo(ln.p1())
        path.lineTo(ln.p2())
    return path


def rail_ties(xy: np.ndarray, half: float, spacing: float) -> np.ndarray:
    """The ties across rail segments (rows ``x0, y0, x1, y1``), as segments
    of the same form: as many as fit at ``spacing`` (at least one), evenly
    spread, each ``half`` long on either side of the line."""
    dx, dy = xy[:, 2] - xy[:, 0], xy[:, 3] - xy[:, 1]
    length = np.hypot(dx, dy)
    keep = length > 0
    xy, dx, dy, length = xy[keep], dx[keep], dy[keep], length[keep]
    ux, uy = dx / length, dy / length
    n = np.maximum(1, (length / spacing).astype(np.int64))
    seg = np.repeat(np.arange(len(n)), n)  # a row per tie
    i = np.arange(len(seg)) - np.repeat(np.cumsum(n) - n, n)
    t = (i + 0.5) * (length / n)[seg]
    x, y = xy[seg, 0] + ux[seg] * t, xy[seg, 1] + uy[seg] * t
    nx, ny = -uy[seg] * half, ux[seg] * half
    return np.column_stack([x - nx, y - ny, x + nx, y + ny]).reshape(-1, 4)


def near_box(xy: np.ndarray, box: QRectF, margin: float) -> np.ndarray:
    """Which segments (rows ``x0, y0, x1, y1``) have a bounding box that,
    grown by ``margin`` on every side, meets ``box``: a stroke at most
    ``margin`` wide around the others leaves no pixel in ``box``."""
    x0, x1 = box.x() - margin, box.x() + box.width() + margin
    y0, y1 = box.y() - margin, box.y() + box.height() + margin
    mask: np.ndarray = ((np.maximum(xy[:, 0], xy[:, 2]) >= x0) & (np.minimum(xy[:, 0], xy[:, 2]) <= x1)
                        & (np.maximum(xy[:, 1], xy[:, 3]) >= y0) & (np.minimum(xy[:, 1], xy[:, 3]) <= y1))
    return mask


STROKE_SQUARE = 128
"""Side (scene pixels) of the squares :func:`stroke_in_squares` strokes
one at a time: Qt's stroker takes more than proportionally longer on a
path of more lines (docs/performance.md)."""


def _whole_device_pixels(p: QPainter) -> bool:
    """Whether ``p`` rasterises (Qt's raster engine) with scene pixels on
    whole device pixels (its transform at most a whole-pixel shift)."""
    engine = p.paintEngine()
    if engine is None or engine.type() != QPaintEngine.Type.Raster:
        return False
    t = p.combinedTransform()
    simple = (QTransform.TransformationType.TxNone, QTransform.TransformationType.TxTranslate)
    return t.type() in simple and t.dx().is_integer() and t.dy().is_integer()


def stroke_in_squares(p: QPainter, xy: np.ndarray, box: QRectF, margin: float, pens: Sequence[QPen]) -> None:
    """Stroke the segments ``xy`` (rows ``x0, y0, x1, y1``, scene pixels)
    that reach into ``box`` with each of ``pens`` in turn, square by square
    of :data:`STROKE_SQUARE` pixels (whole pixels, so every pixel is in one
    square), each square clipped to itself and given the segments within
    ``margin`` (at least half the widest pen) of it as one joined path:
    the pixels of the whole set stroked at once (:func:`joined`), for
    round-capped pens (flat-capped lines' pixels depend on which lines share
    their path).  On a vector device (SVG, PDF), or when scene pixels are
    not whole device pixels, the segments are stroked as one path: each
    line drawn once, no clip edge between squares."""
    xy = xy[near_box(xy, box, margin)]
    if not len(xy):
        return
    x0, y0 = math.floor(box.x()), math.floor(box.y())
    x1, y1 = math.ceil(box.x() + box.width()), math.ceil(box.y() + box.height())
    if (x1 - x0 <= STROKE_SQUARE and y1 - y0 <= STROKE_SQUARE) or not _whole_device_pixels(p):
        path = segments_path(xy[:, 0], xy[:, 1], xy[:, 2], xy[:, 3])
        for pen in pens:
            p.strokePath(path, pen)
        return
    for sy in range(y0, y1, STROKE_SQUARE):
        for sx in range(x0, x1, STROKE_SQUARE):
            square = QRect(sx, sy, min(STROKE_SQUARE, x1 - sx), min(STROKE_SQUARE, y1 - sy))
            part = xy[near_box(xy, QRectF(square), margin)]
            if not len(part):
                continue
            path = segments_path(part[:, 0], part[:, 1], part[:, 2], part[:, 3])
            p.save()
            p.setClipRect(square, Qt.ClipOperation.IntersectClip)
            for pen in pens:
                p.strokePath(path, pen)
            p.restore()


class MapRenderer(TopPass, ABC):
    """Paints one scenario; one subclass per grid kind.

    ``extent`` is the cell's inner size in layout units (a square's side, a
    hex's width across the flats); ``zoom`` everywhere is screen pixels per
    layout unit, so ``extent * zoom`` is how big a cell looks.
    """

    kind: ClassVar[GridKind]
    base_size: ClassVar[float]
    """Size passed to ``grid.make_layout`` (map coordinates)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.grid = scenario.map.grid
        self.layout = self.grid.make_layout(self.base_size)
        self.map_width, self.map_height = self.layout.bounds()
        self.extent = self.inner_extent()
        self.corner_offsets = self.make_corner_offsets()
        self._luts: dict[tuple[bool, bool, bool], Array] = {}
        self._sprites: OrderedDict[tuple[Any, ...], QImage] = OrderedDict()
        m = scenario.map
        self.indexes: dict[str, EdgeIndex] = {
            "rivers": EdgeIndex(self.grid, m.rivers, sides_only=True, geometry=self._side_geometry),
            "rail": EdgeIndex(self.grid, m.links.setdefault("rail", set()), sides_only=False,
                              geometry=self._link_geometry),
            "road": EdgeIndex(self.grid, m.links.setdefault("road", set()), sides_only=False,
                              geometry=self._link_geometry),
            "bridges": EdgeIndex(self.grid, m.bridges, sides_only=True, geometry=self._bridge_geometry),
        }

    # ------------------------------------------------------------------
    # what each grid kind provides

    @abstractmethod
    def inner_extent(self) -> float:
        """The cell's size across (square side, hex width across flats)."""

    @abstractmethod
    def make_corner_offsets(self) -> Array:
        """``(k, 2)`` offsets of the cell's corners from its centre, in the
        layout's clockwise order."""

    @abstractmethod
    def centers(self, cols: Array, rows: Array) -> tuple[Array, Array]:
        """Cell centres (map coordinates) of arrays of columns and rows."""

    @abstractmethod
    def pick_pixels(self, xs: Array, ys: Array, want_edge: bool) -> tuple[Array, Array, Array | None]:
        """Vectorised :meth:`Layout.pick`: ``xs`` has shape ``(1, w)``, ``ys``
        ``(h, 1)`` (map coordinates); returns column and row arrays that
        broadcast to ``(h, w)`` and, when ``want_edge``, the distance (map
        units) from each point to its cell's outline."""

    # ------------------------------------------------------------------
    # model changes

    def refresh(self) -> None:
        """The whole model may have changed (new terrain types, sides, edges)."""
        m = self.scenario.map
        self._luts.clear()
        self._sprites.clear()
        self.indexes["rivers"].rebuild(m.rivers)
        self.indexes["rail"].rebuild(m.links.setdefault("rail", set()))
        self.indexes["road"].rebuild(m.links.setdefault("road", set()))
        self.indexes["bridges"].rebuild(m.bridges)

    def refresh_cells(self, cells: Iterable[Cell]) -> None:
        """Edges around ``cells`` may have changed."""
        cells = list(cells)
        m = self.scenario.map
        for name, edges in (("rivers", m.rivers), ("rail", m.links.setdefault("rail", set())),
                            ("road", m.links.setdefault("road", set())), ("bridges", m.bridges)):
            idx = self.indexes[name]
            if idx.edges is not edges:
                idx.rebuild(edges)
            else:
                idx.refresh(cells)

    def cells_scene_rect(self, cells: Iterable[Cell], zoom: float, pad_cells: float = 1.6) -> QRect | None:
        """Scene-pixel rectangle covering ``cells`` and, by default, one cell
        around them (links, river sides and control borders drawn from
        neighbours reach into a cell); ``pad_cells`` 0.6 covers the cells'
        own pixels only."""
        xs: list[float] = []
        ys: list[float] = []
        for c in cells:
            x, y = self.layout.center(c)
            xs.append(x)
            ys.append(y)
        if not xs:
            return None
        pad = self.extent * pad_cells
        x0, x1 = (min(xs) - pad) * zoom, (max(xs) + pad) * zoom
        y0, y1 = (min(ys) - pad) * zoom, (max(ys) + pad) * zoom
        return QRect(math.floor(x0) - 2, math.floor(y0) - 2,
                     math.ceil(x1 - x0) + 5, math.ceil(y1 - y0) + 5)

    def scene_size(self, zoom: float) -> tuple[int, int]:
        return math.ceil(self.map_width * zoom), math.ceil(self.map_height * zoom)

    # ------------------------------------------------------------------
    # base pass: raster + static vectors

    def _lut(self, terrain: bool, control: bool, grid: bool) -> Array:
        """Colour table indexed ``(level * 256 + terrain) * (S + 1) + control + 1``."""
        key = (terrain, control, grid)
        lut = self._luts.get(key)
        if lut is not None:
            return lut
        s = self.scenario
        nsides = len(s.sides) + 1
        base = np.empty((256, nsides, 3), np.float64)
        unknown = QColor("#ff00ff")
        for t in range(256):
            if not terrain:
                c = style.NO_TERRAIN
            elif t < len(s.ruleset.terrain):
                c = style.qcolor(s.ruleset.terrain[t].color, "#c8c8c8")
            else:
                c = unknown
            base[t, :, :] = (c.red(), c.green(), c.blue())
        if control:
            a = style.CONTROL_TINT_ALPHA
            # impassable terrain (water) keeps its colour: a side's tint over
            # blue water read as another terrain; the
            # control border still shows who holds it
            land = np.array([t >= len(s.ruleset.terrain) or not s.ruleset.terrain[t].impassable
                             for t in range(256)])
            for i in range(len(s.sides)):
                sc = style.side_color(s.sides, i)
                tint = np.array([sc.red(), sc.green(), sc.blue()], np.float64)
                base[land, i + 1, :] = base[land, i + 1, :] * (1 - a) + tint * a
        levels = GRID_LEVELS if grid else 1
        g = style.GRID
        gcol = np.array([g.red(), g.green(), g.blue()], np.float64)
        out = np.empty((levels, 256, nsides), np.uint32)
        for lvl in range(levels):
            a = g.alphaF() * lvl / (GRID_LEVELS - 1)
            rgb = np.clip(np.rint(base * (1 - a) + gcol * a), 0, 255).astype(np.uint32)
            out[lvl] = 0xFF000000 | (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
        lut = out.reshape(-1)
        self._luts[key] = lut
        return lut

    def cell_px(self, zoom: float) -> float:
        return self.extent * zoom

    def raster(self, zoom: float, rect: QRect, layers: frozenset[str], background: QColor) -> Array:
        """``(h, w)`` uint32 ARGB pixels of terrain, control tint and grid
        lines for a rectangle of scene pixels, straight from the arrays."""
        x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
        xs = ((np.arange(x, x + w, dtype=np.float64) + 0.5) / zoom)[None, :]
        ys = ((np.arange(y, y + h, dtype=np.float64) + 0.5) / zoom)[:, None]
        grid_on = "grid" in layers and self.cell_px(zoom) >= style.GRID_MIN_PX
        cols, rows, dist = self.pick_pixels(xs, ys, grid_on)
        out = self.colour_picks(cols, rows, dist if grid_on else None, zoom, layers, background)
        if out.shape != (h, w):
            out = np.broadcast_to(out, (h, w))
        return np.ascontiguousarray(out, dtype=np.uint32)

    def grid_levels(self, dist: Array, zoom: float) -> Array:
        """The grid line's anti-aliasing level (0 .. ``GRID_LEVELS - 1``) of
        points ``dist`` map units from their cell's outline."""
        cover = np.clip(1.0 - dist * zoom, 0.0, 1.0)
        level: Array = np.rint(cover * (GRID_LEVELS - 1)).astype(np.intp)
        return level

    def colour_picks(self, cols: Array, rows: Array, dist: Array | None, zoom: float, layers: frozenset[str],
                     background: QColor) -> Array:
        """The ARGB pixels (uint32) of points picked as cells ``cols``,
        ``rows`` (any shape; off the map: ``background``), at ``dist`` map
        units from their cell's outline (None: no grid lines)."""
        m = self.scenario.map
        W, H = m.width, m.height
        inside = (cols >= 0) & (cols < W) & (rows >= 0) & (rows < H)
        flat = np.where(inside, rows * W + cols, 0)
        control_on = "control" in layers and len(self.scenario.sides) > 0
        lut = self._lut("terrain" in layers, control_on, dist is not None)
        nsides = len(self.scenario.sides) + 1
        key = m.terrain.reshape(-1)[flat].astype(np.intp) * nsides
        if control_on:
            ctl = m.control.reshape(-1)[flat].astype(np.intp)
            key += np.clip(ctl, NO_SIDE, nsides - 2) + 1
        if dist is not None:
            key = key + self.grid_levels(dist, zoom) * (256 * nsides)
        out: Array = lut[key]
        if not inside.all():
            out = np.where(inside, out, np.uint32(style.argb(background)))
        return out

    def cell_ranges(self, zoom: float, rect: QRect | QRectF, pad: int = 1) -> tuple[range, range]:
        """Columns and rows of the cells that may show in a scene-pixel rect."""
        cols, rows = self.layout.cells_in_rect(rect.x() / zoom, rect.y() / zoom,
                                               (rect.x() + rect.width()) / zoom, (rect.y() + rect.height()) / zoom)
        m = self.scenario.map
        return (range(max(0, cols.start - pad), min(m.width, cols.stop + pad)),
                range(max(0, rows.start - pad), min(m.height, rows.stop + pad)))

    def render_base(self, p: QPainter, zoom: float, rect: QRect, layers: frozenset[str],
                    background: QColor = style.BACKGROUND, vectors: bool = True) -> None:
        """Paint the static map into scene-pixel ``rect``; ``p`` draws in
        scene pixels (callers translate it) and is clipped to ``rect`` here.
        ``vectors=False`` paints the raster only (the caller paints the
        vectors of a larger rectangle at once: :func:`.region.paint_region`)."""
        if rect.isEmpty():
            return
        pixels = self.raster(zoom, rect, layers, background)
        img = QImage(pixels.data, rect.width(), rect.height(), rect.width() * 4, QImage.Format.Format_RGB32)
        p.save()
        p.setClipRect(rect)
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        p.drawImage(rect.topLeft(), img)
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        del img
        if vectors:
            self.paint_vectors(p, zoom, rect, layers)
        p.restore()

    def _cell_polygons(self, zoom: float, rect: QRect | QRectF) -> list[tuple[Cell, QPolygonF]]:
        """The outline (scene pixels) of every cell that may show in ``rect``."""
        cols, rows = self.cell_ranges(zoom, rect)
        offsets = self.make_corner_offsets().tolist()
        out = []
        for r in rows:
            for c in cols:
                cell = Cell(c, r)
                x, y = self.layout.center(cell)
                out.append((cell, QPolygonF([QPointF((x + dx) * zoom, (y + dy) * zoom) for dx, dy in offsets])))
        return out

    def paint_grid_lines(self, p: QPainter, zoom: float, rect: QRect | QRectF, pen: QPen) -> None:
        """Every cell's outline in ``rect`` (scene pixels) with ``pen``: the
        grid drawn over a scan being calibrated (``app/gui/canvas.py``)."""
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(pen)
        for _, poly in self._cell_polygons(zoom, rect):
            p.drawPolygon(poly)
        p.restore()

    def paint_base_vector(self, p: QPainter, zoom: float, rect: QRect, layers: frozenset[str],
                          grid_px: float) -> None:
        """The static map of scene-pixel ``rect`` as vectors (a printed page:
        ``app/gui/print_pdf.py``): each cell's polygon filled with the
        raster's terrain and control colour, its outline drawn in the grid's
        colour, opaque, ``grid_px`` wide, then :meth:`paint_vectors`."""
        cells = self._cell_polygons(zoom, rect)
        if not cells:
            return
        s = self.scenario
        m = s.map
        control_on = "control" in layers and len(s.sides) > 0
        lut = self._lut("terrain" in layers, control_on, False)
        nsides = len(s.sides) + 1
        groups: dict[int, list[QPolygonF]] = {}
        for cell, poly in cells:
            key = int(m.terrain[cell.row, cell.col]) * nsides
            if control_on:
                key += min(max(int(m.control[cell.row, cell.col]), NO_SIDE), nsides - 2) + 1
            groups.setdefault(int(lut[key]), []).append(poly)
        p.save()
        p.setClipRect(rect)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for argb, polys in groups.items():
            colour = QColor.fromRgb(argb)
            p.setBrush(colour)
            p.setPen(QPen(colour, 0.5 * grid_px))  # no hairline seams between neighbours
            for poly in polys:
                p.drawPolygon(poly)
        if "grid" in layers and self.cell_px(zoom) >= style.GRID_MIN_PX:
            g = style.GRID
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(QColor(g.red(), g.green(), g.blue()), grid_px))
            for polys in groups.values():
                for poly in polys:
                    p.drawPolygon(poly)
        self.paint_vectors(p, zoom, rect, layers)
        p.restore()

    # the edges' geometry in map coordinates, kept by the indexes per bucket
    # (a tile's rivers, links and bridges are then only picked, scaled and drawn)

    def _side_geometry(self, ends: np.ndarray, edges: Sequence[Edge] = ()) -> np.ndarray:
        """``x0, y0, x1, y1`` of each edge's shared side (NaN: none)."""
        return np.stack(self.layout.edge_segments(ends[:, 0], ends[:, 1], ends[:, 2], ends[:, 3]), axis=1)

    def _link_geometry(self, ends: np.ndarray, edges: Sequence[Edge] = ()) -> np.ndarray:
        """The centres of each link's two cells: ``ax, ay, bx, by``."""
        ax, ay = self.centers(ends[:, 0], ends[:, 1])
        bx, by = self.centers(ends[:, 2], ends[:, 3])
        return np.stack([np.asarray(v, np.float64).reshape(-1) for v in (ax, ay, bx, by)], axis=1)

    def _bridge_geometry(self, ends: np.ndarray, edges: Sequence[Edge]) -> np.ndarray:
        """Each bridge's side (``x0, y0, x1, y1``), the direction across it
        from cell a to cell b (``ux, uy``), 1 for a rail bridge, and 1 where
        the side is a river (a bridge is drawn over a river only)."""
        side = self._side_geometry(ends)
        centres = self._link_geometry(ends)
        angle = np.arctan2(centres[:, 3] - centres[:, 1], centres[:, 2] - centres[:, 0])
        bridges, rivers = self.scenario.map.bridges, self.scenario.map.rivers
        rail = np.array([bridges.get(e) == "rail" for e in edges], np.float64)
        river = np.array([e in rivers for e in edges], np.float64)
        return np.column_stack([side, np.cos(angle), np.sin(angle), rail, river]) if len(ends) else np.zeros((0, 8))

    def paint_vectors(self, p: QPainter, zoom: float, rect: QRect | QRectF, layers: frozenset[str]) -> None:
        """Control borders, rivers, bridges, roads, rail and coordinate labels
        of the cells that may show in ``rect`` (scene pixels), for a painter
        clipped to ``rect`` or less: rivers, links and bridges wholly
        outside it are left out (Qt's stroker spends as long on a line
        the clip removes as on one it draws)."""
        px = self.cell_px(zoom)
        if px < style.LINKS_MIN_PX:
            return
        cols, rows = self.cell_ranges(zoom, rect)
        if not cols or not rows:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if "control" in layers and px >= style.CONTROL_BORDER_MIN_PX and self.scenario.sides:
            self._paint_control_borders(p, zoom, cols, rows)
        box = QRectF(rect)
        if "rivers" in layers:
            self._paint_rivers(p, zoom, cols, rows, box)
        if "road" in layers:
            self._paint_links(p, zoom, "road", cols, rows, box)
        if "rail" in layers:
            self._paint_links(p, zoom, "rail", cols, rows, box)
        if "rivers" in layers and self.scenario.map.bridges:
            self._paint_bridges(p, zoom, cols, rows, box)
        if "labels" in layers and px >= style.LABEL_MIN_PX:
            self._paint_labels(p, zoom, cols, rows)

    def _paint_control_borders(self, p: QPainter, zoom: float, cols: range, rows: range) -> None:
        m = self.scenario.map
        ctl = m.control
        r0, r1, c0, c1 = max(0, rows.start - 1), min(m.height, rows.stop + 1), max(0, cols.start - 1), min(m.width, cols.stop + 1)
        block = ctl[r0:r1, c0:c1]
        if block.size == 0:
            return
        # cells whose storage neighbours (a superset of real neighbours) differ
        diff = np.zeros(block.shape, bool)
        diff[:, 1:] |= block[:, 1:] != block[:, :-1]
        diff[:, :-1] |= block[:, 1:] != block[:, :-1]
        diff[1:, :] |= block[1:, :] != block[:-1, :]
        diff[:-1, :] |= block[1:, :] != block[:-1, :]
        diff[1:, 1:] |= block[1:, 1:] != block[:-1, :-1]
        diff[:-1, :-1] |= block[1:, 1:] != block[:-1, :-1]
        diff[1:, :-1] |= block[1:, :-1] != block[:-1, 1:]
        diff[:-1, 1:] |= block[1:, :-1] != block[:-1, 1:]
        diff &= block != NO_SIDE
        ys, xs = np.nonzero(diff)
        if len(ys) == 0:
            return
        width = max(1.5, 0.07 * self.extent * zoom)
        lines: dict[int, list[QLineF]] = {}
        for rr, cc in zip((ys + r0).tolist(), (xs + c0).tolist()):
            if not (cols.start <= cc < cols.stop and rows.start <= rr < rows.stop):
                continue
            cell = Cell(cc, rr)
            mine = int(ctl[rr, cc])
            cx, cy = self.layout.center(cell)
            for e in self.grid.edges_of(cell):
                o = e.other(cell)
                if int(ctl[o.row, o.col]) == mine:
                    continue
                (ax, ay), (bx, by) = self.layout.edge_segment(e)
                # pull the stroke half its width into this cell
                mx, my = (ax + bx) / 2, (ay + by) / 2
                dx, dy = cx - mx, cy - my
                d = math.hypot(dx, dy) or 1.0
                k = (width / 2) / zoom / d
                ox, oy = dx * k, dy * k
                lines.setdefault(mine, []).append(QLineF((ax + ox) * zoom, (ay + oy) * zoom,
                                                         (bx + ox) * zoom, (by + oy) * zoom))
        for side, segs in lines.items():
            if 0 <= side < len(self.scenario.sides):
                # a dashed band (the side's colour on white), so a control
                # border is never mistaken for a river
                c = style.side_color(self.scenario.sides, side)
                path = joined(segs)
                p.strokePath(path, QPen(style.CONTROL_BAND, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
                dash = QPen(c, width, Qt.PenStyle.CustomDashLine, Qt.PenCapStyle.FlatCap)
                dash.setDashPattern([2.0, 1.0])
                p.strokePath(path, dash)

    def _paint_rivers(self, p: QPainter, zoom: float, cols: range, rows: range, box: QRectF) -> None:
        _, xy = self.indexes["rivers"].query(cols, rows)
        xy = xy[~np.isnan(xy[:, 0])] * zoom  # the sides as arrays (a tile shows hundreds)
        w = max(1.5, 0.13 * self.extent * zoom)
        pens = [QPen(style.RIVER, w, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)]
        if w >= 4:
            pens.insert(0, QPen(style.RIVER_BANK, w + 1.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        stroke_in_squares(p, xy, box, w + 3, pens)

    def _link_lines(self, kind: str, zoom: float, cols: range, rows: range) -> np.ndarray:
        """Centre-to-centre segments (scene pixels, ``x0, y0, x1, y1`` rows)
        of the ``kind`` links near the cell ranges, from the centres the
        index keeps (a whole-map export of a 1000 x 1000 map draws 51,000
        links)."""
        _, xy = self.indexes[kind].query(cols, rows)
        return xy * zoom

    def _paint_links(self, p: QPainter, zoom: float, kind: str, cols: range, rows: range, box: QRectF) -> None:
        xy = self._link_lines(kind, zoom, cols, rows)
        px = self.cell_px(zoom)
        xy = xy[near_box(xy, box, 0.3 * px + 6)]  # the widest: a road's casing, a rail line's ties
        if not len(xy):
            return
        round_cap = Qt.PenCapStyle.RoundCap
        if kind == "road":
            w = max(1.2, 0.11 * px)
            if w >= 3:
                stroke_in_squares(p, xy, box, w + 4, [
                    QPen(style.ROAD_CASING, w + 2, Qt.PenStyle.SolidLine, round_cap, Qt.PenJoinStyle.RoundJoin),
                    QPen(style.ROAD, w, Qt.PenStyle.SolidLine, round_cap, Qt.PenJoinStyle.RoundJoin)])
            else:
                stroke_in_squares(p, xy, box, w + 2, [QPen(style.ROAD_CASING, w, Qt.PenStyle.SolidLine, round_cap)])
            return
        w = max(1.0, 0.055 * px)
        stroke_in_squares(p, xy, box, w + 2, [QPen(style.RAIL, w, Qt.PenStyle.SolidLine, round_cap)])
        if px >= style.RAIL_TIES_MIN_PX:
            # one path, not split into squares: flat-capped lines' pixels depend
            # on which lines share their path
            tie = max(1.0, 0.035 * px)
            ties = rail_ties(xy, 0.13 * px, max(5.0, 0.2 * px))
            ties = ties[near_box(ties, box, tie + 2)]
            if len(ties):
                p.strokePath(segments_path(ties[:, 0], ties[:, 1], ties[:, 2], ties[:, 3]),
                             QPen(style.RAIL, tie, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))

    def _paint_bridges(self, p: QPainter, zoom: float, cols: range, rows: range, box: QRectF) -> None:
        """Each bridge a small rectangle across its river side, drawn as a
        polygon from the geometry the index keeps (a zoom change on a big
        map draws hundreds)."""
        a, g = self.indexes["bridges"].query(cols, rows)
        if not len(a):
            return
        keep = (a[:, 0] >= cols.start - 1) & (a[:, 0] <= cols.stop) & (a[:, 1] >= rows.start - 1) \
            & (a[:, 1] <= rows.stop) & (g[:, 7] > 0) & ~np.isnan(g[:, 0])
        g = g[keep]
        if not len(g):
            return
        px = self.cell_px(zoom)
        mx, my = (g[:, 0] + g[:, 2]) / 2 * zoom, (g[:, 1] + g[:, 3]) / 2 * zoom
        length, width = max(6.0, 0.42 * px), max(3.0, 0.2 * px)
        ux, uy = g[:, 4], g[:, 5]  # along the crossing, and across it
        hx, hy, wx, wy = ux * length / 2, uy * length / 2, -uy * width / 2, ux * width / 2
        corners = np.stack([mx - hx - wx, my - hy - wy, mx + hx - wx, my + hy - wy,
                            mx + hx + wx, my + hy + wy, mx - hx + wx, my - hy + wy], axis=1)
        shown = near_box(np.column_stack([mx, my, mx, my]), box, length + width + 2)
        corners, g = corners[shown], g[shown]
        p.setPen(QPen(QColor("#222222"), max(1.0, 0.03 * px)))
        for rail in (False, True):
            sel = corners[(g[:, 6] > 0) == rail]
            if not len(sel):
                continue
            p.setBrush(style.BRIDGE_RAIL if rail else style.BRIDGE_ROAD)
            for poly in polygons(sel):
                p.drawPolygon(poly)

    def _paint_labels(self, p: QPainter, zoom: float, cols: range, rows: range) -> None:
        px = self.cell_px(zoom)
        font = QFont()
        size = max(7, int(px * 0.15))
        font.setPixelSize(size)
        p.setFont(font)
        p.setPen(style.LABEL)
        m = self.scenario.map
        top = -0.5 * self.extent * zoom + size * 0.2
        for r in rows:
            for c in cols:
                cell = Cell(c, r)
                x, y = self.layout.center(cell)
                box = QRectF(x * zoom - px / 2, y * zoom + top, px, size * 1.4)
                p.drawText(box, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, m.label(cell))


__all__ = ["DEFAULT_LAYERS", "LAYERS", "MapRenderer"]
