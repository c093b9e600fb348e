"""The territory-map renderer: everything a territory map looks like.

A :class:`TerritoryRenderer` paints one territory scenario in two passes, as
the grid renderers (:mod:`app.gui.render.base`) do:

* :meth:`TerritoryRenderer.render_static` — territory fills (land in the
  controller's colour, sea blue, occupied territories hatched in the
  original owner's colour), outlines, borders by kind (closed: dashed red
  along the shared boundary; rail crossing: a dotted rail line across the
  water; strait: dotted blue), labels at the engine's label points (name and
  value), rail stations (with their damage count) and railroad markers.
  The canvas caches its output per zoom and only blits it while the mouse
  moves; export and tests call it directly.
* :meth:`TerritoryRenderer.paint_top` — the mode's
  :class:`~app.gui.territory.overlay.TerritoryOverlay` (painting grid and
  cells, shades, routes), the selection and the unit counters
  (:mod:`.counters`), in parts the canvas may cache (:meth:`paint_shades`,
  :meth:`paint_names_over`, :meth:`paint_shade_texts`) or paint each frame.

Shapes are turned into ``QPainterPath`` s once per level of detail (shapely
``simplify`` with a tolerance of about half a screen pixel), so a world map
of 330 territories and 115,000 points draws quickly when zoomed out.  Where
a border is drawn comes from :func:`engine.territory.geometry.border_lines`.
Maps with ``wrap_x`` repeat east and west: each pass paints every copy of
the world that meets the region asked for.

Coordinates: *map* coordinates are the file's (x right, y down); ``z`` is
screen pixels per map unit.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
import pyqtgraph as pg
import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from app.gui.territory.overlay import Route, TerritoryOverlay
from engine.territory import BorderKind, Territory, TerritoryScenario
from engine.territory.geometry import border_lines

from . import style
from .counters import NOBODY, Counter, layout_counters, paint_counters, side_color

SEA = QColor("#9cc3e0")
SEA_EDGE = QColor("#6f9cc0")
IMPASSABLE = QColor("#9a958a")
OUTLINE = QColor(40, 36, 30, 200)
CLOSED = QColor("#d01c1c")
RAIL = QColor("#1e1e1e")
STRAIT = QColor("#2f5f9f")
LAND_TINT = 0.55
"""How strongly the controller's colour fills its land (0 .. 1, over paper)."""
PAPER = QColor("#f4f1e8")


RAIL_MARK_H = 12.0
"""Height of a rail station box and a railroad mark (pixels)."""


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` of the way to ``b``."""
    return QColor(round(a.red() + (b.red() - a.red()) * t), round(a.green() + (b.green() - a.green()) * t),
                  round(a.blue() + (b.blue() - a.blue()) * t))


def land_color(scenario: TerritoryScenario, t: Territory) -> QColor:
    """A territory's fill: sea, impassable, nobody's, or its controller's
    colour over paper."""
    if t.sea:
        return QColor(SEA)
    if t.impassable:
        return QColor(IMPASSABLE)
    return blend(PAPER, side_color(scenario, t.controller), LAND_TINT) if t.controller else QColor(NOBODY)


class TerritoryRenderer:
    """Paints one territory scenario (``font``: the widget's font, which the
    label fonts are made from; default: the application's), the renderer of
    the ``territory`` map kind (:data:`app.gui.render.RENDERERS`)."""

    kind: ClassVar[str] = "territory"

    def __init__(self, scenario: TerritoryScenario, font: QFont | None = None) -> None:
        font = QFont() if font is None else font
        self.s = scenario
        self._paths: dict[int, dict[str, QPainterPath]] = {}
        self._label_cache: dict[float, tuple[object, dict[str, str]]] = {}
        self._counter_cache: tuple[object, list[Counter]] | None = None
        """The counters of the last zoom and units, laid out at (0, 0)."""
        self.border_lines: list[tuple[BorderKind, list[QPolygonF]]] = []
        """Drawn non-ordinary borders: kind and polylines (map coordinates)."""
        self._border_names: list[tuple[str, QPointF]] = []
        self.labels: dict[str, tuple[float, float]] = {}
        """Label point of each territory that has a shape."""
        self._font = QFont(font)
        self._font.setPixelSize(11)
        self._small = QFont(font)
        self._small.setPixelSize(9)
        self._small.setBold(True)
        self._italic = QFont(font)
        self._italic.setPixelSize(10)
        self._italic.setItalic(True)
        self.shapes_changed()

    # ------------------------------------------------------------------
    # model

    @property
    def map_width(self) -> float:
        return float(self.s.map.width)

    @property
    def map_height(self) -> float:
        return float(self.s.map.height)

    @property
    def wrap(self) -> bool:
        return bool(self.s.map.wrap_x)

    def shapes_changed(self) -> None:
        """Shapes, label points or the set of territories changed: drop the
        paths, find the label points and border lines again."""
        self._paths.clear()
        self._label_cache.clear()
        self._counter_cache = None
        self.labels = {}
        for k, t in self.s.map.territories.items():
            p = t.label_point()
            if p is not None:
                self.labels[k] = p
        self.borders_changed()

    def borders_changed(self) -> None:
        """Borders changed (kinds, names): find their lines again."""
        self.border_lines = []
        self._border_names = []
        m = self.s.map
        for b in m.borders():
            if b.kind == BorderKind.ORDINARY:
                continue
            ta, tb = m.territories[b.a], m.territories[b.b]
            lines = border_lines(ta.shape, tb.shape, b.kind == BorderKind.CLOSED, self.labels.get(b.a),
                                 self.labels.get(b.b))
            if not lines:
                continue
            polys = [QPolygonF([QPointF(x, y) for x, y in line]) for line in lines]
            self.border_lines.append((b.kind, polys))
            if b.name:
                longest = max(polys, key=lambda q: q.boundingRect().width() + q.boundingRect().height())
                self._border_names.append((b.name, longest.boundingRect().center()))

    # ------------------------------------------------------------------
    # paths

    @staticmethod
    def lod(z: float) -> int:
        """Level of detail at zoom ``z``: simplify to about half a screen
        pixel, in steps of 4× (0: the shapes as they are, used from half a
        pixel per map unit up)."""
        tol = 0.5 / z
        return 0 if tol <= 1.0 else min(6, math.ceil(math.log(tol, 4)))

    def paths(self, z: float) -> dict[str, QPainterPath]:
        """Each territory's path at zoom ``z``'s level of detail (built once
        per level)."""
        lod = self.lod(z)
        got = self._paths.get(lod)
        if got is None:
            got = self._paths[lod] = self._build_paths(4.0 ** lod if lod else 0.0)
        return got

    def _build_paths(self, tol: float) -> dict[str, QPainterPath]:
        """One ``QPainterPath`` per territory (rings as subpaths, odd-even
        fill), its shape simplified by ``tol`` map units; built through
        pyqtgraph's array-to-path, which takes numpy arrays whole."""
        s = self.s
        out: dict[str, QPainterPath] = {}
        ids = list(s.map.territories)
        shapes = np.asarray([s.map.territories[k].shape for k in ids], dtype=object)
        simple = shapely.simplify(shapes, tol, preserve_topology=False) if tol > 0 else shapes
        for k, g, orig in zip(ids, simple, shapes, strict=True):
            if g is None or g.is_empty:  # simplified away: a speck, drawn as it is
                g = orig
            out[k] = self._rings_path(g)
        return out

    @classmethod
    def _shape_path(cls, g: Any, tol: float) -> QPainterPath:
        """The path of one shape simplified by ``tol`` map units (as
        :meth:`_build_paths` makes each territory's)."""
        simple = shapely.simplify(g, tol, preserve_topology=False) if tol > 0 else g
        return cls._rings_path(g if simple is None or simple.is_empty else simple)

    @staticmethod
    def _rings_path(g: Any) -> QPainterPath:
        """The rings of polygon or multipolygon ``g`` as one odd-even path
        (other geometries, such as lines left by a clip, are skipped)."""
        path = QPainterPath()
        polys = [] if g is None or g.is_empty else [
            x for x in getattr(g, "geoms", [g]) if isinstance(x, shapely.Polygon)]
        rings = [r for poly in polys for r in (poly.exterior, *poly.interiors)]
        xy = [shapely.get_coordinates(r) for r in rings]
        xy = [a for a in xy if len(a) >= 3]
        if xy:
            pts = np.concatenate(xy)
            connect = np.ones(len(pts), dtype=np.int32)
            connect[np.cumsum([len(a) for a in xy]) - 1] = 0
            path = pg.arrayToQPath(pts[:, 0], pts[:, 1], connect=connect)
        path.setFillRule(Qt.FillRule.OddEvenFill)
        return path

    # ------------------------------------------------------------------
    # painting

    # ------------------------------------------------------------------
    # static pass

    def copies(self, region: QRectF) -> list[float]:
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
        drawn, under ``p``'s own transform (a printed page's margin).
        Export, printing and tests call it directly."""
        s = self.s
        m = s.map
        paths = self.paths(z)
        outline = QPen(OUTLINE, 0.8)
        outline.setCosmetic(True)
        sea_pen = QPen(SEA_EDGE, 0.6)
        sea_pen.setCosmetic(True)
        world = QRectF(0, 0, self.map_width, self.map_height)
        for dx in self.copies(region):
            view = (limit if limit is not None else region).translated(-dx, 0)
            if not view.intersects(world):
                continue
            p.save()
            p.setTransform(QTransform.fromScale(z, z).translate(-region.x() + dx, -region.y()), True)
            for tid, t in m.territories.items():
                path = paths.get(tid)
                if path is None or path.isEmpty() or not path.boundingRect().intersects(view):
                    continue
                self._paint_territory(p, t, path, z, outline, sea_pen)
            self._paint_borders(p, z)
            p.restore()
        self._paint_labels(p, region, z, limit)

    def _paint_territory(self, p: QPainter, t: Territory, path: QPainterPath, z: float, outline: QPen,
                         sea_pen: QPen) -> None:
        """One territory's fill, outline and occupation hatching (``p`` in
        map coordinates at zoom ``z``)."""
        s = self.s
        p.setPen(sea_pen if t.sea else outline)
        p.setBrush(land_color(s, t))
        p.drawPath(path)
        if t.occupied and not t.sea:
            hatch = QBrush(blend(side_color(s, t.owner), QColor("#000000"), 0.15), Qt.BrushStyle.BDiagPattern)
            hatch.setTransform(QTransform.fromScale(1 / z, 1 / z))
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(hatch)
            p.drawPath(path)

    def render_swatch(self, p: QPainter, region: QRectF, z: float) -> None:
        """Paint map rectangle ``region`` at zoom ``z`` into ``p`` (whose
        (0, 0) is the region's top-left corner) as :meth:`render_static`
        paints territories and borders, without labels or rail symbols:
        only the shapes that meet ``region`` are simplified and drawn (a
        legend swatch; no path of the whole map is built for its zoom)."""
        m = self.s.map
        outline = QPen(OUTLINE, 0.8)
        outline.setCosmetic(True)
        sea_pen = QPen(SEA_EDGE, 0.6)
        sea_pen.setCosmetic(True)
        box = shapely.box(region.left(), region.top(), region.right(), region.bottom())
        p.save()
        p.setClipRect(QRectF(0, 0, region.width() * z, region.height() * z))
        p.setTransform(QTransform.fromScale(z, z).translate(-region.x(), -region.y()), True)
        for t in m.territories.values():
            shape = t.shape
            if shape is None or shape.is_empty or not shape.intersects(box):
                continue
            path = self._shape_path(shape.intersection(box.buffer(1.0 / z)), 0.5 / z)
            if not path.isEmpty():
                self._paint_territory(p, t, path, z, outline, sea_pen)
        self._paint_borders(p, z)
        p.restore()

    def _paint_borders(self, p: QPainter, z: float) -> None:
        for kind, polys in self.border_lines:
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
        s = self.s
        fm = QFontMetricsF(self._font)
        p.setFont(self._font)
        world = QRectF(0, 0, self.map_width, self.map_height)
        near = None if limit is None else limit.adjusted(-80 / z, -30 / z, 80 / z, 30 / z)
        placed = self.label_layout(z)
        paths = self.paths(z) if any(isinstance(t.features.get(k), dict) for t in s.map.territories.values()
                                     for k in ("rail_station", "railroad")) else {}
        for dx in self.copies(region):
            if near is not None and not near.translated(-dx, 0).intersects(world):
                continue
            for tid, (lx, ly) in self.labels.items():
                x, y = (lx + dx - region.x()) * z, (ly - region.y()) * z
                if x < -150 or y < -60 or x > region.width() * z + 150 or y > region.height() * z + 60:
                    continue
                if near is not None and not near.contains(QPointF(lx + dx, ly)):
                    continue
                t = s.map.territories[tid]
                text = placed.get(tid, "")
                if text:
                    ink = QColor("#23406a") if t.sea else QColor("#1c1a16")
                    tw = fm.horizontalAdvance(text)
                    self._halo_text(p, QPointF(x - tw / 2, y + fm.ascent() / 2 - 1), text, ink)
                    fx, fy = self.rail_marks_at(tid, tw, z, paths)
                    self._paint_rail_features(p, t, fx + (dx - region.x()) * z, fy - region.y() * z)

        p.setFont(self._italic)
        for dx in self.copies(region):
            for name, at in self._border_names:
                x, y = (at.x() + dx - region.x()) * z, (at.y() - region.y()) * z
                if -200 < x < region.width() * z + 200 and -40 < y < region.height() * z + 40:
                    self._halo_text(p, QPointF(x + 6, y - 4), name, STRAIT)
            for tid, t in s.map.territories.items():
                c = t.features.get("crossing")
                lp = self.labels.get(tid)
                if not isinstance(c, dict) or not isinstance(c.get("name"), str) or lp is None:
                    continue
                x, y = (lp[0] + dx - region.x()) * z, (lp[1] - region.y()) * z
                text = f"× {c['name']}"
                tw = QFontMetricsF(self._italic).horizontalAdvance(text)
                self._halo_text(p, QPointF(x - tw / 2, y - fm.height() * 0.9), text, CLOSED)

    def label_rect(self, tid: str, text: str, z: float) -> QRectF:
        """The rectangle (map pixels at zoom ``z``) label ``text`` of
        ``tid`` covers, with a little room around it."""
        fm = QFontMetricsF(self._font)
        lx, ly = self.labels[tid]
        tw = fm.horizontalAdvance(text)
        return QRectF(lx * z - tw / 2 - 2, ly * z - fm.height() / 2 - 1, tw + 4, fm.height() + 2)

    def label_layout(self, z: float) -> dict[str, str]:
        """What each territory's label says at zoom ``z`` so that no two
        labels meet (never "Germany 20Western Poland 2"): land
        territories by value, then sea zones, each with its full label, or
        its value alone, or nothing, whichever first meets no label placed
        before.  Computed once per zoom and names (tiles drawn apart agree)."""
        s = self.s
        key = (z, tuple((tid, t.name, t.value) for tid, t in s.map.territories.items()))
        cached = self._label_cache.get(z)
        if cached is not None and cached[0] == key:
            return cached[1]
        fm = QFontMetricsF(self._font)
        paths = self.paths(z)
        order = sorted(self.labels, key=lambda tid: (s.map.territories[tid].sea, -(s.map.territories[tid].value or 0),
                                                     tid))
        taken: list[QRectF] = []
        out: dict[str, str] = {}
        for tid in order:
            t = s.map.territories[tid]
            full = self.label_text(tid, paths, fm, z)
            for text in dict.fromkeys([full, str(t.value) if t.value and not t.sea and full else ""]):
                if not text:
                    break
                r = self.label_rect(tid, text, z)
                if not any(r.intersects(o) for o in taken):
                    taken.append(r)
                    out[tid] = text
                    break
        if len(self._label_cache) > 8:
            self._label_cache.clear()
        self._label_cache[z] = (key, out)
        return out

    def label_text(self, tid: str, paths: dict[str, QPainterPath], fm: QFontMetricsF, z: float) -> str:
        """What the label of ``tid`` says at zoom ``z``: name and value,
        just the value when the name does not fit, nothing when the
        territory is tiny on screen."""
        t = self.s.map.territories[tid]
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

    def rail_marks_at(self, tid: str, text_width: float, z: float,
                      paths: dict[str, QPainterPath] | None = None) -> tuple[float, float]:
        """Where the rail symbols of ``tid`` go (their centre's x and their
        top, map pixels at zoom ``z``) under a label ``text_width`` wide:
        under the label, or beside it where the territory (or the map)
        ends too close under the label for them (Egypt's strip at the map's
        bottom edge)."""
        fm = QFontMetricsF(self._font)
        lx, ly = self.labels[tid]
        x, y = lx * z, ly * z
        below = y + fm.height() * 0.5 + 2
        shape = (paths if paths is not None else self.paths(z)).get(tid)
        bottom = min(shape.boundingRect().bottom() if shape is not None else self.map_height, self.map_height)
        if below + RAIL_MARK_H <= bottom * z:
            return x, below
        t = self.s.map.territories[tid]
        return x + text_width / 2 + 4 + self.rail_features_width(t) / 2, y - RAIL_MARK_H / 2

    @staticmethod
    def rail_features_width(t: Territory) -> float:
        """How wide the rail symbols of ``t`` are drawn (pixels; 0: none)."""
        items = sum(1 for key in ("rail_station", "railroad") if isinstance(t.features.get(key), dict))
        return items * 16 + max(0, items - 1) * 4

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
            fresh = isinstance(bought, int) and not isinstance(bought, bool) \
                and bought >= self.s.turn
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
            if isinstance(bought, int) and not isinstance(bought, bool) \
                    and bought >= self.s.turn:
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

    # ------------------------------------------------------------------
    # top pass

    def paint_map(self, p: QPainter, region: QRectF, z: float, selected: set[str] | None = None) -> None:
        """The map rectangle ``region`` at zoom ``z`` with its top-left
        corner at the painter's (0, 0), as an image of the map shows it
        (export, print, journal crops): the static pass, then the
        ``selected`` territories and the counters, no overlay."""
        import app.gui.territory.overlay as territory_overlay

        p.save()
        self.render_static(p, region, z)
        p.restore()
        self.paint_top(p, (-region.x() * z, -region.y() * z), z, region, territory_overlay.EMPTY,
                       set() if selected is None else selected, None)

    def paint_top(self, p: QPainter, origin: tuple[float, float], z: float, vis: QRectF, ov: TerritoryOverlay,
                  selected: set[str], selected_unit: str | None) -> None:
        """Paint the overlay ``ov``, the ``selected`` territories and the
        unit counters (``selected_unit`` ringed) over the view whose map
        (0, 0) is at viewport point ``origin`` and which shows map rectangle
        ``vis`` at zoom ``z``.  The canvas paints the same parts in the same
        order, the still ones from cached layers."""
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        ox, oy = origin
        for dx in self.copies(vis):
            base = (ox + dx * z, oy)
            self.paint_backdrop_marks(p, base, z, vis, ov)
            self.paint_shades(p, base, z, ov, selected)
        for dx in self.copies(vis):
            base = (ox + dx * z, oy)
            self.paint_routes(p, ov, base, z)
            self.paint_names_over(p, self.route_only(ov), base, z)
            self.paint_names_over(p, self.shaded(ov), base, z)
            self.paint_shade_texts(p, ov, base, z)
            self.paint_counters(p, base, z, selected_unit)
            self.paint_border_names_over_counters(p, base, z)
        p.restore()

    @staticmethod
    def shaded(ov: TerritoryOverlay) -> set[str]:
        """The territories ``ov`` shades."""
        return {sh.territory for sh in ov.shades}

    @classmethod
    def route_only(cls, ov: TerritoryOverlay) -> set[str]:
        """The territories the routes of ``ov`` pass that it does not shade."""
        return {t for r in ov.routes for t in r.territories} - cls.shaded(ov)

    def paint_backdrop_marks(self, p: QPainter, base: tuple[float, float], z: float, vis: QRectF,
                             ov: TerritoryOverlay) -> None:
        """The backdrop grid and the cells being painted (paint mode), the
        map's (0, 0) at viewport point ``base``."""
        s = self.s
        c = s.map.backdrop_cell
        if not (ov.grid and c > 0 and c * z >= 5) and not (ov.cells and c > 0):
            return
        p.save()
        p.setTransform(QTransform.fromScale(z, z) * QTransform.fromTranslate(*base), True)
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
        if ov.cells and c > 0:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(255, 210, 31, 150))
            for col, row in ov.cells:
                p.drawRect(QRectF(col * c, row * c, c, c))
        p.restore()

    def paint_shades(self, p: QPainter, base: tuple[float, float], z: float, ov: TerritoryOverlay,
                     selected: set[str] | frozenset[str]) -> None:
        """The shades of ``ov`` and the outlines of the ``selected``
        territories, the map's (0, 0) at viewport point ``base``."""
        paths = self.paths(z)
        p.save()
        p.setTransform(QTransform.fromScale(z, z) * QTransform.fromTranslate(*base), True)
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
        for tid in selected:
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

    def shades_extent(self, z: float, ov: TerritoryOverlay, selected: set[str] | frozenset[str]) -> QRectF:
        """What :meth:`paint_shades` may touch, in pixels from the map's
        (0, 0) at zoom ``z`` (empty when it paints nothing)."""
        paths = self.paths(z)
        out = QRectF()
        wide = 0.0
        for tid, width in [(sh.territory, sh.width if sh.outline else 0.0) for sh in ov.shades] + \
                [(t, 4.5) for t in selected]:
            path = paths.get(tid)
            if path is None or path.isEmpty():
                continue
            b = path.boundingRect()
            out = out.united(QRectF(b.x() * z, b.y() * z, b.width() * z, b.height() * z))
            wide = max(wide, width)
        return out if out.isEmpty() else out.adjusted(-wide - 2, -wide - 2, wide + 2, wide + 2)

    def paint_routes(self, p: QPainter, ov: TerritoryOverlay, base: tuple[float, float], z: float) -> None:
        """The routes of ``ov``, the map's (0, 0) at viewport point ``base``."""
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for r in ov.routes:
            self._paint_route(p, r, base, z)
        p.restore()

    def paint_shade_texts(self, p: QPainter, ov: TerritoryOverlay, base: tuple[float, float], z: float) -> None:
        """The shades' texts in boxes above their labels, the map's (0, 0)
        at viewport point ``base``."""
        p.setFont(self._small)
        fm = QFontMetricsF(self._small)
        for sh in ov.shades:
            lp = self.labels.get(sh.territory)
            if sh.text and lp is not None:
                at = QPointF(base[0] + lp[0] * z, base[1] + lp[1] * z - 14)
                w = fm.horizontalAdvance(sh.text) + 6
                box = QRectF(at.x() - w / 2, at.y() - 7, w, 13)
                p.setPen(QPen(QColor("#111111"), 1))
                p.setBrush(QColor(255, 255, 255, 225))
                p.drawRoundedRect(box, 3, 3)
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, sh.text)

    def texts_extent(self, z: float, ov: TerritoryOverlay) -> QRectF:
        """What the shaded territories' names (:meth:`paint_names_over`)
        and :meth:`paint_shade_texts` may touch, in pixels from the map's
        (0, 0) at zoom ``z``."""
        fm = QFontMetricsF(self._font)
        small = QFontMetricsF(self._small)
        placed = self.label_layout(z)
        out = QRectF()
        for sh in ov.shades:
            lp = self.labels.get(sh.territory)
            if lp is None:
                continue
            half = max(fm.horizontalAdvance(placed.get(sh.territory, "")),
                       small.horizontalAdvance(sh.text or "") + 6) / 2 + 4
            out = out.united(QRectF(lp[0] * z - half, lp[1] * z - 24, 2 * half, 24 + fm.height() + 4))
        return out

    def paint_counters(self, p: QPainter, base: tuple[float, float], z: float, selected_unit: str | None,
                       within: QRectF | None = None) -> None:
        """The unit counters, ``selected_unit`` ringed, the map's (0, 0) at
        viewport point ``base``; only those that meet ``within`` (viewport
        coordinates) when given."""
        counters = self.counters(base, z)
        if within is not None:
            near = within.adjusted(-6, -6, 6, 6)  # the ring and a stack's second counter reach beyond the rect
            counters = [c for c in counters if near.intersects(c.rect)]
        paint_counters(p, self.s, counters, selected_unit, self._small)

    def border_name_rects(self, base: tuple[float, float], z: float) -> list[tuple[str, QPointF, QRectF]]:
        """Each named border's name (a strait, a canal): where its text
        starts and the rectangle it covers, the map's (0, 0) at viewport
        point ``base``."""
        fm = QFontMetricsF(self._italic)
        out = []
        for name, at in self._border_names:
            start = QPointF(base[0] + at.x() * z + 6, base[1] + at.y() * z - 4)
            out.append((name, start, QRectF(start.x() - 1, start.y() - fm.ascent() - 1,
                                            fm.horizontalAdvance(name) + 2, fm.height() + 2)))
        return out

    def paint_border_names_over_counters(self, p: QPainter, base: tuple[float, float], z: float) -> None:
        """The name of a border (the Suez Canal) that a unit counter would
        cover, painted again over the counter so it stays readable."""
        if not self._border_names:
            return
        names = self.border_name_rects(base, z)
        boxes = [c.rect for c in self.counters(base, z)]
        p.setFont(self._italic)
        for name, start, rect in names:
            if any(rect.intersects(b) for b in boxes):
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(QColor(255, 252, 240, 225))
                p.drawRoundedRect(rect, 2, 2)
                self._halo_text(p, start, name, STRAIT)

    def paint_names_over(self, p: QPainter, tids: set[str], base: tuple[float, float], z: float) -> None:
        """Names of ``tids`` (the territories an overlay shades or its
        routes pass) again, above the routes, so that lines never hide
        them."""
        s = self.s
        if not tids:
            return
        p.setFont(self._font)
        fm = QFontMetricsF(self._font)
        placed = self.label_layout(z)
        for tid in tids:
            lp = self.labels.get(tid)
            if lp is None or tid not in s.map.territories:
                continue
            text = placed.get(tid, "")
            if text:
                tw = fm.horizontalAdvance(text)
                at = QPointF(base[0] + lp[0] * z - tw / 2, base[1] + lp[1] * z + fm.ascent() / 2 - 1)
                self._halo_text(p, at, text, QColor("#1c1a16"))

    def _route_points(self, r: Route, base: tuple[float, float], z: float) -> list[QPointF]:
        pts: list[QPointF] = []
        prev_x: float | None = None
        for tid in r.territories:
            lp = self.labels.get(tid)
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

    def counters(self, base: tuple[float, float], z: float) -> list[Counter]:
        """The unit counters at zoom ``z`` with the map's (0, 0) at viewport
        point ``base`` (:func:`.counters.layout_counters`; laid out once per
        zoom, units and label points, then moved to ``base``)."""
        key = (z, id(self.labels), tuple((u.id, u.at, u.side, u.type) for u in self.s.units))
        got = self._counter_cache
        if got is None or got[0] != key:
            got = self._counter_cache = (key, layout_counters(self.s, self.labels, z, (0.0, 0.0)))
        bx, by = base
        return [Counter(c.rect.translated(bx, by), c.territory, c.ids, c.label) for c in got[1]]


__all__ = ["CLOSED", "IMPASSABLE", "LAND_TINT", "OUTLINE", "PAPER", "RAIL", "SEA", "SEA_EDGE", "STRAIT",
           "TerritoryRenderer", "blend", "land_color"]
