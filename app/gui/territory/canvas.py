"""The territory-map canvas: territories drawn from their shapely shapes.

Two layers, as on the grid canvas:

* the *static* layer — territory fills (land in the controller's colour,
  sea blue, occupied territories hatched in the original owner's colour),
  outlines, borders by kind (closed: dashed red along the shared boundary;
  rail crossing: a dotted rail line across the water; strait: dotted
  blue), labels at the engine's label points (name and value), rail stations
  (with their damage count) and railroad markers — is rendered into a
  pixmap once per zoom (the whole map when it is small enough, else the view
  and a margin) and only blitted while the mouse moves;
* the *top* layer — unit counters, the selection and the mode's
  :class:`~app.gui.territory.overlay.TerritoryOverlay` — is painted fresh
  every frame.

Shapes are turned into ``QPainterPath`` s once per level of detail (shapely
``simplify`` with a tolerance of about half a screen pixel), so a world map
of 330 territories and 115,000 points draws quickly when zoomed out.
Picking uses a shapely ``STRtree``.  Maps with ``wrap_x`` repeat east and
west: the view scrolls round the world without end.

Coordinates: *map* coordinates are the file's (x right, y down); ``zoom`` is
screen pixels per map unit.  Zoom, scrolling, panning and fit are
:class:`~app.gui.map_view.MapView`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
import shapely
from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import QWidget
from shapely.geometry import Point
from shapely.ops import nearest_points

from engine.territory import BorderKind, Territory, TerritoryScenario

from ..map_view import Button, MapView, modifier_flags
from ..render import style
from .overlay import EMPTY, Route, TerritoryOverlay

SEA = QColor("#9cc3e0")
SEA_EDGE = QColor("#6f9cc0")
NOBODY = QColor("#e6dfc8")
IMPASSABLE = QColor("#9a958a")
OUTLINE = QColor(40, 36, 30, 200)
CLOSED = QColor("#d01c1c")
RAIL = QColor("#1e1e1e")
STRAIT = QColor("#2f5f9f")
LAND_TINT = 0.55
"""How strongly the controller's colour fills its land (0 .. 1, over paper)."""
PAPER = QColor("#f4f1e8")
MAX_CACHE_PIXELS = 12_000_000
"""The whole map is cached when its pixmap would be at most this big."""


COUNTER_W, COUNTER_H = 30.0, 18.0
"""A unit counter (one side and type) in screen pixels."""
COUNTER_COMPACT_W = 20.0
"""A counter showing only how many units a side has there."""
COUNTER_DOT = 7.0
"""A side's dot where a territory has no room for counters."""
COUNTER_OVERHANG = 1.5
"""How much wider than its territory on screen a row of counters may be."""


@dataclass(frozen=True)
class Counter:
    """One drawn unit counter: viewport rect, territory, the unit ids it
    stands for and its text (empty: drawn as a dot)."""

    rect: QRectF
    territory: str
    ids: list[str]
    label: str


@dataclass(frozen=True)
class TerritoryMouseEvent:
    """A mouse event in map terms (x wrapped into the map on wrap_x maps)."""

    x: float
    y: float
    territory: str | None
    button: Button | None
    shift: bool
    ctrl: bool
    alt: bool
    view: tuple[float, float] = (0.0, 0.0)
    """The viewport point (unit counters are hit in screen terms)."""


def side_color(scenario: TerritoryScenario, side: str | None) -> QColor:
    if side is None:
        return QColor(NOBODY)
    try:
        return style.qcolor(scenario.side(side).color)
    except ValueError:
        return QColor("#808080")


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` of the way to ``b``."""
    return QColor(round(a.red() + (b.red() - a.red()) * t), round(a.green() + (b.green() - a.green()) * t),
                  round(a.blue() + (b.blue() - a.blue()) * t))


def land_color(scenario: TerritoryScenario, t: Territory) -> QColor:
    if t.sea:
        return QColor(SEA)
    if t.impassable:
        return QColor(IMPASSABLE)
    return blend(PAPER, side_color(scenario, t.controller), LAND_TINT) if t.controller else QColor(NOBODY)


class TerritoryCanvas(MapView):
    """Scrollable, zoomable view of a territory scenario (mouse signals
    carry :class:`TerritoryMouseEvent` s)."""

    territoryHovered = Signal(object)  # str | None

    MARGIN = 40
    MAX_ZOOM = 40.0
    CENTRE_WITH_MARGIN = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._s: TerritoryScenario | None = None
        self._paths: dict[int, dict[str, QPainterPath]] = {}
        self._cache: tuple[tuple[float, int], QRectF, QPixmap] | None = None
        self._static_rev = 0
        self._tree: shapely.STRtree | None = None
        self._tree_ids: list[str] = []
        self._border_lines: list[tuple[BorderKind, list[QPolygonF]]] = []
        self._border_names: list[tuple[str, QPointF]] = []
        self._labels: dict[str, tuple[float, float]] = {}
        self._overlay: TerritoryOverlay = EMPTY
        self._selected: set[str] = set()
        self._selected_unit: str | None = None
        self._wrapping = False
        self.render_count = 0
        """How many times the static layer was rendered (tests, bench)."""
        self._font = QFont(self.font())
        self._font.setPixelSize(11)
        self._small = QFont(self.font())
        self._small.setPixelSize(9)
        self._small.setBold(True)
        self._italic = QFont(self.font())
        self._italic.setPixelSize(10)
        self._italic.setItalic(True)

    # ------------------------------------------------------------------
    # model

    def set_scenario(self, scenario: TerritoryScenario) -> None:
        self._s = scenario
        self._selected.clear()
        self._selected_unit = None
        self._hover = None
        self.shapes_changed()
        self._fit_pending = True
        self.fit()

    def scenario(self) -> TerritoryScenario | None:
        return self._s

    def shapes_changed(self) -> None:
        """Shapes, label points or the set of territories changed: rebuild
        paths, the pick index and the border lines."""
        s = self._s
        self._paths.clear()
        if s is None:
            return
        ids = [k for k, t in s.map.territories.items() if not t.shape.is_empty]
        self._tree_ids = ids
        self._tree = shapely.STRtree([s.map.territories[k].shape for k in ids]) if ids else None
        self._labels = {}
        for k, t in s.map.territories.items():
            p = t.label_point()
            if p is not None:
                self._labels[k] = p
        self.borders_changed()

    def borders_changed(self) -> None:
        s = self._s
        self._border_lines = []
        self._border_names = []
        if s is not None:
            m = s.map
            for b in m.borders():
                if b.kind == BorderKind.ORDINARY:
                    continue
                ta, tb = m.territories[b.a], m.territories[b.b]
                if ta.shape.is_empty or tb.shape.is_empty:
                    continue
                polys: list[QPolygonF] = []
                if b.kind == BorderKind.CLOSED:
                    shared = ta.shape.boundary.intersection(tb.shape.boundary)
                    for line in getattr(shared, "geoms", [shared]):
                        coords = shapely.get_coordinates(line)
                        if len(coords) >= 2:
                            polys.append(QPolygonF([QPointF(x, y) for x, y in coords]))
                if not polys:  # a crossing over water (or closed shapes that only touch): nearest points
                    pa, pb = nearest_points(ta.shape, tb.shape)
                    ax, ay, bx, by = pa.x, pa.y, pb.x, pb.y
                    d = math.hypot(bx - ax, by - ay)
                    ext = max(6.0, d * 0.25)
                    if d < 1e-9:
                        la, lb = self._labels.get(b.a), self._labels.get(b.b)
                        if la is None or lb is None:
                            continue
                        ux, uy = (lb[0] - la[0]), (lb[1] - la[1])
                        n = math.hypot(ux, uy) or 1.0
                        ux, uy = ux / n, uy / n
                    else:
                        ux, uy = (bx - ax) / d, (by - ay) / d
                    polys.append(QPolygonF([QPointF(ax - ux * ext, ay - uy * ext),
                                            QPointF(bx + ux * ext, by + uy * ext)]))
                self._border_lines.append((b.kind, polys))
                if b.name and polys:
                    longest = max(polys, key=lambda q: q.boundingRect().width() + q.boundingRect().height())
                    self._border_names.append((b.name, longest.boundingRect().center()))
        self.invalidate()

    def invalidate(self, territories: Iterable[str] | None = None) -> None:
        """Attributes of ``territories`` changed (colours, labels,
        features): re-render just their part of the cached static layer
        (all of it when ``territories`` is ``None``)."""
        self.viewport().update()
        if territories is None or self._cache is None or self._s is None:
            self._static_rev += 1
            self._cache = None
            return
        paths = self.paths()
        boxes = [paths[t].boundingRect() for t in territories if t in paths and not paths[t].isEmpty()]
        if not boxes:
            return
        area = boxes[0]
        for b in boxes[1:]:
            area = area.united(b)
        z = self._zoom
        area = area.adjusted(-80 / z, -30 / z, 80 / z, 30 / z)  # labels reach beyond the shape
        key, region, pix = self._cache
        if key != (z, self._static_rev):  # a cache of another zoom: drawn afresh anyway
            self._cache = None
            return
        painter = QPainter(pix)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for dx in ([-self.map_width, 0.0, self.map_width] if self.wrap else [0.0]):
            part = area.translated(dx, 0).intersected(region)
            if part.isEmpty():
                continue
            screen = QRectF((part.x() - region.x()) * z, (part.y() - region.y()) * z, part.width() * z,
                            part.height() * z).toAlignedRect()
            painter.setClipRect(screen)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            painter.fillRect(screen, Qt.GlobalColor.transparent)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
            limit = QRectF(screen.x() / z + region.x(), screen.y() / z + region.y(), screen.width() / z,
                           screen.height() / z).adjusted(-3 / z, -3 / z, 3 / z, 3 / z)  # what touches the edge too
            self.render_static(painter, region, z, limit=limit)
        painter.end()
        self.render_count += 1

    def label_point(self, tid: str) -> tuple[float, float] | None:
        return self._labels.get(tid)

    # ------------------------------------------------------------------
    # overlay and selection

    def set_overlay(self, overlay: TerritoryOverlay | None) -> None:
        self._overlay = overlay or EMPTY
        self.viewport().update()

    def overlay(self) -> TerritoryOverlay:
        return self._overlay

    def set_selected(self, tids: Iterable[str]) -> None:
        new = set(tids)
        if new != self._selected:
            self._selected = new
            self.viewport().update()

    def selected(self) -> set[str]:
        return set(self._selected)

    def set_selected_unit(self, unit_id: str | None) -> None:
        if unit_id != self._selected_unit:
            self._selected_unit = unit_id
            self.viewport().update()

    # ------------------------------------------------------------------
    # geometry

    @property
    def map_width(self) -> float:
        return float(self._s.map.width) if self._s else 1.0

    @property
    def map_height(self) -> float:
        return float(self._s.map.height) if self._s else 1.0

    @property
    def wrap(self) -> bool:
        return bool(self._s and self._s.map.wrap_x)

    def _map_size(self) -> tuple[float, float] | None:
        return None if self._s is None else (self.map_width, self.map_height)

    def _wraps(self) -> bool:
        return self.wrap

    def wrap_x(self, x: float) -> float:
        return x % self.map_width if self.wrap else x

    def territory_at_map(self, x: float, y: float) -> str | None:
        """The territory whose shape contains map point (x, y) (the smallest
        when shapes overlap), else ``None``."""
        if self._tree is None or self._s is None:
            return None
        pt = Point(self.wrap_x(x), y)
        hits = self._tree.query(pt, predicate="intersects")
        if len(hits) == 0:
            return None
        terrs = self._s.map.territories
        ids = [self._tree_ids[int(i)] for i in hits]
        return min(ids, key=lambda k: terrs[k].shape.area)

    def territory_at(self, pos: QPointF) -> str | None:
        return self.territory_at_map(*self.view_to_map(pos))

    def _zoom_changed(self) -> None:
        self._cache = None

    def fit(self) -> None:
        """The whole map in view, centred (a wrap_x map: its middle copy).
        Unlike the grid canvas's fit it does not ask a later resize to fit
        again; only a new scenario does."""
        if self._s is None:
            return
        z = self._fit_zoom()
        self._apply_zoom(z)
        if self.wrap:
            self.horizontalScrollBar().setValue(round(self.MARGIN + self.map_width * z
                                                      - (self.viewport().width() - self.map_width * z) / 2))
        else:
            self.horizontalScrollBar().setValue(0)
        self.verticalScrollBar().setValue(0)

    def center_on(self, tid: str) -> None:
        p = self._labels.get(tid)
        if p is not None:
            self._scroll_to(*p)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        if self.wrap and not self._wrapping:
            # keep the view's centre on the middle copy of the world
            cx, _ = self.view_to_map(QPointF(self.viewport().width() / 2, 0))
            step = round(self.map_width * self._zoom)
            h = self.horizontalScrollBar()
            if cx < 0 or cx >= self.map_width:
                self._wrapping = True
                h.setValue(h.value() + (step if cx < 0 else -step))
                if self._pan is not None:
                    start, h0, v0 = self._pan
                    self._pan = (start, h0 + (step if cx < 0 else -step), v0)
                self._wrapping = False
        super().scrollContentsBy(dx, dy)

    # ------------------------------------------------------------------
    # paths

    def _lod(self) -> int:
        """Level of detail: simplify to about half a screen pixel, in steps
        of 4× (0: the shapes as they are, used from half a pixel per map
        unit up)."""
        tol = 0.5 / self._zoom
        return 0 if tol <= 1.0 else min(6, math.ceil(math.log(tol, 4)))

    def paths(self) -> dict[str, QPainterPath]:
        lod = self._lod()
        got = self._paths.get(lod)
        if got is None:
            got = self._paths[lod] = self._build_paths(4.0 ** lod if lod else 0.0)
        return got

    def _build_paths(self, tol: float) -> dict[str, QPainterPath]:
        """One ``QPainterPath`` per territory (rings as subpaths, odd-even
        fill), its shape simplified by ``tol`` map units; built through
        pyqtgraph's array-to-path, which takes numpy arrays whole."""
        s = self._s
        out: dict[str, QPainterPath] = {}
        if s is None:
            return out
        ids = list(s.map.territories)
        shapes = np.asarray([s.map.territories[k].shape for k in ids], dtype=object)
        simple = shapely.simplify(shapes, tol, preserve_topology=False) if tol > 0 else shapes
        for k, g, orig in zip(ids, simple, shapes, strict=True):
            if g is None or g.is_empty:  # simplified away: a speck, drawn as it is
                g = orig
            path = QPainterPath()
            rings = [] if g is None or g.is_empty else [
                r for poly in getattr(g, "geoms", [g]) for r in (poly.exterior, *poly.interiors)]
            xy = [shapely.get_coordinates(r) for r in rings]
            xy = [a for a in xy if len(a) >= 3]
            if xy:
                pts = np.concatenate(xy)
                connect = np.ones(len(pts), dtype=np.int32)
                connect[np.cumsum([len(a) for a in xy]) - 1] = 0
                path = pg.arrayToQPath(pts[:, 0], pts[:, 1], connect=connect)
            path.setFillRule(Qt.FillRule.OddEvenFill)
            out[k] = path
        return out

    # ------------------------------------------------------------------
    # painting

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self.viewport())
        self.paint_view(p, event.rect())
        p.end()

    def paint_view(self, p: QPainter, rect: QRect) -> None:
        p.fillRect(rect, style.BACKGROUND)
        if self._s is None:
            return
        pix, region = self._static_pixmap()
        ox, oy = self.origin()
        z = self._zoom
        p.drawPixmap(QPointF(ox + region.x() * z, oy + region.y() * z), pix)
        self._paint_top(p)

    def _static_pixmap(self) -> tuple[QPixmap, QRectF]:
        """The cached static layer and the map rectangle it covers
        (rendered again only for a new zoom, an edit, or a view that left
        the cached part)."""
        z = self._zoom
        key = (z, self._static_rev)
        W, H = self.map_width, self.map_height
        full = QRectF(-W if self.wrap else 0.0, 0.0, W * (3 if self.wrap else 1), H)
        vis = self.visible_map_rect().intersected(full)
        if self._cache is not None and self._cache[0] == key and (vis.isEmpty() or self._cache[1].contains(vis)):
            return self._cache[2], self._cache[1]
        if full.width() * full.height() * z * z <= MAX_CACHE_PIXELS:
            region = full
        else:
            mx, my = vis.width() * 0.5, vis.height() * 0.5
            region = vis.adjusted(-mx, -my, mx, my).intersected(full)
        pw, ph = max(1, math.ceil(region.width() * z)), max(1, math.ceil(region.height() * z))
        pix = QPixmap(pw, ph)
        pix.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pix)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.render_static(painter, region, z)
        painter.end()
        self.render_count += 1
        self._cache = (key, region, pix)
        return pix, region

    def _copies(self, region: QRectF) -> list[float]:
        """x offsets (map units) of the copies of the world that meet
        ``region``."""
        if not self.wrap:
            return [0.0]
        W = self.map_width
        return [dx for dx in (-W, 0.0, W) if region.right() > dx and region.left() < dx + W]

    def render_static(self, p: QPainter, region: QRectF, z: float, limit: QRectF | None = None) -> None:
        """Paint the static layer of map rectangle ``region`` at zoom ``z``
        into ``p`` (whose (0, 0) is the region's top-left corner); only what
        meets ``limit`` (map coordinates, default: all of ``region``) is
        drawn.  Export and tests call it directly."""
        s = self._s
        assert s is not None
        m = s.map
        paths = self.paths()
        outline = QPen(OUTLINE, 0.8)
        outline.setCosmetic(True)
        sea_pen = QPen(SEA_EDGE, 0.6)
        sea_pen.setCosmetic(True)
        world = QRectF(0, 0, self.map_width, self.map_height)
        for dx in self._copies(region):
            view = (limit if limit is not None else region).translated(-dx, 0)
            if not view.intersects(world):
                continue
            p.save()
            p.setTransform(QTransform.fromScale(z, z).translate(-region.x() + dx, -region.y()))
            for tid, t in m.territories.items():
                path = paths.get(tid)
                if path is None or path.isEmpty() or not path.boundingRect().intersects(view):
                    continue
                fill = land_color(s, t)
                p.setPen(sea_pen if t.sea else outline)
                p.setBrush(fill)
                p.drawPath(path)
                if t.occupied and not t.sea:
                    hatch = QBrush(blend(side_color(s, t.owner), QColor("#000000"), 0.15), Qt.BrushStyle.BDiagPattern)
                    hatch.setTransform(QTransform.fromScale(1 / z, 1 / z))
                    p.setPen(Qt.PenStyle.NoPen)
                    p.setBrush(hatch)
                    p.drawPath(path)
            self._paint_borders(p, z)
            p.restore()
        self._paint_labels(p, region, z, limit)

    def _paint_borders(self, p: QPainter, z: float) -> None:
        for kind, polys in self._border_lines:
            if kind == BorderKind.CLOSED:
                pen = QPen(CLOSED, 2.6, Qt.PenStyle.DashLine)
                pen.setCosmetic(True)
                p.setPen(pen)
                for poly in polys:
                    p.drawPolyline(poly)
                continue
            color = RAIL if kind == BorderKind.RAIL_CROSSING else STRAIT
            under = QPen(QColor(255, 255, 255, 200), 5.0)
            under.setCosmetic(True)
            dots = QPen(color, 3.0, Qt.PenStyle.DotLine)
            dots.setCosmetic(True)
            for poly in polys:
                p.setPen(under)
                p.drawPolyline(poly)
                p.setPen(dots)
                p.drawPolyline(poly)

    def _paint_labels(self, p: QPainter, region: QRectF, z: float, limit: QRectF | None = None) -> None:
        s = self._s
        assert s is not None
        fm = QFontMetricsF(self._font)
        p.setFont(self._font)
        paths = self.paths()
        world = QRectF(0, 0, self.map_width, self.map_height)
        near = None if limit is None else limit.adjusted(-80 / z, -30 / z, 80 / z, 30 / z)
        for dx in self._copies(region):
            if near is not None and not near.translated(-dx, 0).intersects(world):
                continue
            for tid, (lx, ly) in self._labels.items():
                x, y = (lx + dx - region.x()) * z, (ly - region.y()) * z
                if x < -150 or y < -60 or x > region.width() * z + 150 or y > region.height() * z + 60:
                    continue
                if near is not None and not near.contains(QPointF(lx + dx, ly)):
                    continue
                t = s.map.territories[tid]
                text = self.label_text(tid, paths, fm, z)
                if text:
                    ink = QColor("#23406a") if t.sea else QColor("#1c1a16")
                    tw = fm.horizontalAdvance(text)
                    self._halo_text(p, QPointF(x - tw / 2, y + fm.ascent() / 2 - 1), text, ink)
                    self._paint_rail_features(p, t, x, y + fm.height() * 0.5 + 2)

        p.setFont(self._italic)
        for dx in self._copies(region):
            for name, at in self._border_names:
                x, y = (at.x() + dx - region.x()) * z, (at.y() - region.y()) * z
                if -200 < x < region.width() * z + 200 and -40 < y < region.height() * z + 40:
                    self._halo_text(p, QPointF(x + 6, y - 4), name, STRAIT)
            for tid, t in s.map.territories.items():
                c = t.features.get("crossing")
                lp = self._labels.get(tid)
                if not isinstance(c, dict) or not isinstance(c.get("name"), str) or lp is None:
                    continue
                x, y = (lp[0] + dx - region.x()) * z, (lp[1] - region.y()) * z
                text = f"× {c['name']}"
                tw = QFontMetricsF(self._italic).horizontalAdvance(text)
                self._halo_text(p, QPointF(x - tw / 2, y - fm.height() * 0.9), text, CLOSED)

    def label_text(self, tid: str, paths: dict[str, QPainterPath], fm: QFontMetricsF, z: float) -> str:
        """What the label of ``tid`` says at zoom ``z``: name and value,
        just the value when the name does not fit, nothing when the
        territory is tiny on screen."""
        assert self._s is not None
        t = self._s.map.territories[tid]
        text = t.name if t.sea or not t.value else f"{t.name} {t.value}"
        box = paths[tid].boundingRect() if tid in paths else QRectF()
        tw = fm.horizontalAdvance(text)
        if box.width() * z < tw * (1.1 if t.sea else 0.6) or box.height() * z < fm.height() * 1.6:
            if box.width() * z < 16 or box.height() * z < 12:
                return ""
            return str(t.value) if t.value and not t.sea else ""
        return text

    def _halo_text(self, p: QPainter, at: QPointF, text: str, ink: QColor) -> None:
        p.setPen(QColor(255, 252, 240, 200))
        for ddx, ddy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            p.drawText(at + QPointF(ddx, ddy), text)
        p.setPen(ink)
        p.drawText(at, text)

    def _paint_rail_features(self, p: QPainter, t: Territory, x: float, y: float) -> None:
        """A station symbol (with its damage count; crossed when
        inoperable) and a railroad track mark under the label."""
        st = t.features.get("rail_station")
        rr = t.features.get("railroad")
        if not isinstance(st, dict) and not isinstance(rr, dict):
            return
        items = (1 if isinstance(st, dict) else 0) + (1 if isinstance(rr, dict) else 0)
        cx = x - (items * 16 + (items - 1) * 4) / 2
        p.save()
        if isinstance(st, dict):
            dmg = st.get("damage", 0) if isinstance(st.get("damage", 0), int) else 0
            box = QRectF(cx, y, 16, 12)
            p.setPen(QPen(QColor("#111111"), 1.2))
            bought = st.get("purchased")
            fresh = isinstance(bought, int) and not isinstance(bought, bool) and self._s is not None \
                and bought >= self._s.turn
            p.setBrush(QColor("#fff3b0") if fresh else QColor("#ffffff"))
            p.drawRect(box)
            p.setFont(self._small)
            p.setPen(QColor("#c01010") if dmg else QColor("#111111"))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, str(dmg) if dmg else "S")
            if dmg >= 3:
                p.setPen(QPen(QColor("#c01010"), 1.6))
                p.drawLine(box.topLeft(), box.bottomRight())
                p.drawLine(box.topRight(), box.bottomLeft())
            cx += 20
        if isinstance(rr, dict):
            mid = y + 6
            bought = rr.get("purchased")
            if isinstance(bought, int) and not isinstance(bought, bool) and self._s is not None \
                    and bought >= self._s.turn:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor("#ffe066"))
                p.drawRect(QRectF(cx - 1, y, 18, 12))
            p.setPen(QPen(RAIL, 2.0))
            p.drawLine(QPointF(cx, mid), QPointF(cx + 16, mid))
            p.setPen(QPen(RAIL, 1.2))
            for i in range(4):
                tx = cx + 2 + i * 4
                p.drawLine(QPointF(tx, mid - 3), QPointF(tx, mid + 3))
        p.restore()

    def _paint_top(self, p: QPainter) -> None:
        s = self._s
        assert s is not None
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        ox, oy = self.origin()
        z = self._zoom
        vis = self.visible_map_rect()
        paths = self.paths()
        ov = self._overlay
        for dx in self._copies(vis):
            p.save()
            p.setTransform(QTransform.fromScale(z, z) * QTransform.fromTranslate(ox + dx * z, oy))
            c = s.map.backdrop_cell
            if ov.grid and c > 0 and c * z >= 5:
                pen = QPen(QColor(40, 36, 30, 70), 1)
                pen.setCosmetic(True)
                p.setPen(pen)
                x0 = max(0.0, math.floor(vis.left() / c) * c)
                x1 = min(self.map_width, vis.right())
                y0 = max(0.0, math.floor(vis.top() / c) * c)
                y1 = min(self.map_height, vis.bottom())
                x = x0
                while x <= x1:
                    p.drawLine(QPointF(x, y0), QPointF(x, y1))
                    x += c
                y = y0
                while y <= y1:
                    p.drawLine(QPointF(x0, y), QPointF(x1, y))
                    y += c
            if ov.cells and s.map.backdrop_cell > 0:
                c = s.map.backdrop_cell
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(255, 210, 31, 150))
                for col, row in ov.cells:
                    p.drawRect(QRectF(col * c, row * c, c, c))
            for sh in ov.shades:
                path = paths.get(sh.territory)
                if path is None or path.isEmpty():
                    continue
                if sh.fill:
                    p.setPen(Qt.PenStyle.NoPen)
                    p.setBrush(style.qcolor(sh.fill))
                    p.drawPath(path)
                if sh.outline:
                    pen = QPen(style.qcolor(sh.outline), sh.width)
                    pen.setCosmetic(True)
                    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                    p.setPen(pen)
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawPath(path)
            for tid in self._selected:
                path = paths.get(tid)
                if path is None:
                    continue
                for color, width in ((style.SELECTION_DARK, 4.5), (style.SELECTION, 2.5)):
                    pen = QPen(color, width)
                    pen.setCosmetic(True)
                    p.setPen(pen)
                    p.setBrush(Qt.BrushStyle.NoBrush)
                    p.drawPath(path)
            p.restore()
        # routes, shade texts and units in screen coordinates (constant size)
        for dx in self._copies(vis):
            base = (ox + dx * z, oy)
            for r in ov.routes:
                self._paint_route(p, r, base, z)
            self._paint_names_over(p, ov, base, z)
            p.setFont(self._small)
            for sh in ov.shades:
                lp = self._labels.get(sh.territory)
                if sh.text and lp is not None:
                    at = QPointF(base[0] + lp[0] * z, base[1] + lp[1] * z - 14)
                    fm = QFontMetricsF(self._small)
                    w = fm.horizontalAdvance(sh.text) + 6
                    box = QRectF(at.x() - w / 2, at.y() - 7, w, 13)
                    p.setPen(QPen(QColor("#111111"), 1))
                    p.setBrush(QColor(255, 255, 255, 225))
                    p.drawRoundedRect(box, 3, 3)
                    p.drawText(box, Qt.AlignmentFlag.AlignCenter, sh.text)
            self._paint_units(p, base, z, vis.translated(-dx, 0))
        p.restore()

    def _paint_names_over(self, p: QPainter, ov: TerritoryOverlay, base: tuple[float, float], z: float) -> None:
        """Names of the territories the overlay shades or routes pass,
        again above the routes, so that lines never hide them."""
        s = self._s
        assert s is not None
        tids = {sh.territory for sh in ov.shades} | {t for r in ov.routes for t in r.territories}
        if not tids:
            return
        p.setFont(self._font)
        fm = QFontMetricsF(self._font)
        paths = self.paths()
        for tid in tids:
            lp = self._labels.get(tid)
            if lp is None or tid not in s.map.territories:
                continue
            text = self.label_text(tid, paths, fm, z)
            if text:
                tw = fm.horizontalAdvance(text)
                at = QPointF(base[0] + lp[0] * z - tw / 2, base[1] + lp[1] * z + fm.ascent() / 2 - 1)
                self._halo_text(p, at, text, QColor("#1c1a16"))

    def _route_points(self, r: Route, base: tuple[float, float], z: float) -> list[QPointF]:
        pts: list[QPointF] = []
        prev_x: float | None = None
        for tid in r.territories:
            lp = self._labels.get(tid)
            if lp is None:
                continue
            x = lp[0]
            if self.wrap and prev_x is not None:  # take the short way round the world
                W = self.map_width
                while x - prev_x > W / 2:
                    x -= W
                while prev_x - x > W / 2:
                    x += W
            prev_x = x
            pts.append(QPointF(base[0] + x * z, base[1] + lp[1] * z))
        return pts

    def _paint_route(self, p: QPainter, r: Route, base: tuple[float, float], z: float) -> None:
        pts = self._route_points(r, base, z)
        if len(pts) < 2:
            return
        color = style.qcolor(r.color)
        casing = QPen(QColor(255, 255, 255, 210), r.width + 3)
        casing.setCapStyle(Qt.PenCapStyle.RoundCap)
        casing.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        pen = QPen(color, r.width, Qt.PenStyle.DashLine if r.dashed else Qt.PenStyle.SolidLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        poly = QPolygonF(pts)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(casing)
        p.drawPolyline(poly)
        p.setPen(pen)
        p.drawPolyline(poly)
        a, b = pts[-2], pts[-1]
        ang = math.atan2(b.y() - a.y(), b.x() - a.x())
        size = 7 + r.width
        head = QPolygonF([b, QPointF(b.x() - size * math.cos(ang - 0.45), b.y() - size * math.sin(ang - 0.45)),
                          QPointF(b.x() - size * math.cos(ang + 0.45), b.y() - size * math.sin(ang + 0.45))])
        p.setPen(QPen(QColor("#ffffff"), 1))
        p.setBrush(color)
        p.drawPolygon(head)
        for q in pts:
            p.setPen(QPen(color.darker(140), 1))
            p.setBrush(QColor("#ffffff"))
            p.drawEllipse(q, 2.5, 2.5)

    def counters(self, base: tuple[float, float] | None = None) -> list[Counter]:
        """The unit counters to draw, in viewport coordinates, at a level of
        detail each territory has room for on screen (a zoomed-out world map
        would otherwise be buried under counters):

        * one counter per side and type (``INF×2``) while that row is at
          most :data:`COUNTER_OVERHANG` times the territory's on-screen width;
        * else one counter per side with the side's number of units;
        * else a small dot per side.
        """
        s = self._s
        out: list[Counter] = []
        if s is None:
            return out
        if base is None:
            base = self.origin()
        z = self._zoom
        groups: dict[str, dict[tuple[str, str], list[str]]] = {}
        for u in s.units:
            groups.setdefault(u.at, {}).setdefault((u.side, u.type), []).append(u.id)
        for tid, g in groups.items():
            lp = self._labels.get(tid)
            if lp is None:
                continue
            x0, _y0, x1, _y1 = s.map.territories[tid].shape.bounds
            room = (x1 - x0) * z * COUNTER_OVERHANG
            rows: list[tuple[list[str], str]] = [
                (ids, t[:3].upper() + (f"×{len(ids)}" if len(ids) > 1 else ""))
                for (_side, t), ids in sorted(g.items())]
            w, h, gap, dy = COUNTER_W, COUNTER_H, 3.0, 22.0
            if len(rows) * (w + gap) - gap > room:
                by_side: dict[str, list[str]] = {}
                for (side, _t), ids in sorted(g.items()):
                    by_side.setdefault(side, []).extend(ids)
                rows = [(ids, str(len(ids))) for ids in by_side.values()]
                w = COUNTER_COMPACT_W
                if len(rows) * (w + gap) - gap > room:
                    rows = [(ids, "") for ids, _n in rows]
                    w = h = gap = COUNTER_DOT
                    dy = 4.0
            left = base[0] + lp[0] * z - (len(rows) * (w + gap) - gap) / 2
            top = base[1] + lp[1] * z + dy
            for i, (ids, label) in enumerate(rows):
                out.append(Counter(QRectF(left + i * (w + gap), top, w, h), tid, ids, label))
        return out

    def unit_boxes(self, base: tuple[float, float] | None = None) -> list[tuple[QRectF, str, list[str]]]:
        """Where each territory's unit counters are drawn: (viewport rect,
        territory, unit ids) of each of :meth:`counters`."""
        return [(c.rect, c.territory, c.ids) for c in self.counters(base)]

    def _paint_units(self, p: QPainter, base: tuple[float, float], z: float, vis: QRectF) -> None:
        s = self._s
        assert s is not None
        p.setFont(self._small)
        for c in self.counters(base):
            fill = side_color(s, s.unit(c.ids[0]).side)
            p.setPen(QPen(QColor("#111111"), 1))
            p.setBrush(fill)
            if not c.label:  # too small for a counter: a dot in the side's colour
                p.drawEllipse(c.rect)
            else:
                if len(c.ids) > 1:  # a stack: a second counter peeking out
                    p.drawRoundedRect(c.rect.translated(2.5, -2.5), 2, 2)
                p.drawRoundedRect(c.rect, 2, 2)
                p.setPen(style.ink_on(fill))
                p.drawText(c.rect, Qt.AlignmentFlag.AlignCenter, c.label)
            if self._selected_unit in c.ids:
                pen = QPen(style.SELECTION, 2.5)
                p.setPen(pen)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(c.rect.adjusted(-2, -2, 2, 2), 3, 3)

    def units_at_view(self, pos: QPointF) -> tuple[str, list[str]] | None:
        """The unit counter under a viewport point: (territory, unit ids)."""
        vis = self.visible_map_rect()
        ox, oy = self.origin()
        for dx in self._copies(vis):
            for rect, tid, ids in self.unit_boxes((ox + dx * self._zoom, oy)):
                if rect.adjusted(-2, -2, 2, 2).contains(pos):
                    return tid, ids
        return None

    # ------------------------------------------------------------------
    # events

    def _mouse_event(self, pos: QPointF, button: Button | None, mods: Qt.KeyboardModifier) -> TerritoryMouseEvent:
        x, y = self.view_to_map(pos)
        return TerritoryMouseEvent(self.wrap_x(x), y, self.territory_at_map(x, y), button, *modifier_flags(mods),
                                   (pos.x(), pos.y()))

    def _hover_of(self, event: object) -> str | None:
        assert isinstance(event, TerritoryMouseEvent)
        return event.territory

    def _hover_changed(self, hover: object) -> None:
        self.territoryHovered.emit(hover)

    def _start_pan(self, pos: QPointF) -> None:
        self._fit_pending = False  # a pan ends refitting on resize (a wrap_x map pans even when fitted)
        super()._start_pan(pos)


__all__ = ["TerritoryCanvas", "TerritoryMouseEvent", "land_color", "side_color"]
