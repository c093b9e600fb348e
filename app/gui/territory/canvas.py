"""The territory-map canvas: the widget that shows a territory scenario.

It keeps only the widget's part: the cached static layer (a pixmap per
zoom, the whole map when it is small enough, else the view and a margin,
patched in place when a few territories change), the overlay and selection
it is told to show, picking and the mouse.  What the map looks like is
:class:`~app.gui.render.territory.TerritoryRenderer`'s (static and top
passes, counters in :mod:`app.gui.render.counters`); what lies under a
point is :mod:`engine.territory.geometry`'s (``territory_at``,
``box_at``).  Maps with ``wrap_x`` repeat east and west: the view scrolls
round the world without end.

Coordinates: *map* coordinates are the file's (x right, y down); ``zoom`` is
screen pixels per map unit.  Zoom, scrolling, panning and fit are
:class:`~app.gui.map_view.MapView`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPainterPath, QPaintEvent, QPixmap
from PySide6.QtWidgets import QWidget

from engine.territory import TerritoryScenario
from engine.territory.geometry import PickIndex, box_at, pick_index, territory_at

from ..map_view import Button, MapView, modifier_flags
from ..render import style
from ..render.counters import COUNTER_PAD, Counter, side_color
from ..render.territory import TerritoryRenderer, land_color
from .overlay import EMPTY, TerritoryOverlay

MAX_CACHE_PIXELS = 12_000_000
"""The whole map is cached when its pixmap would be at most this big."""


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
        self._renderer: TerritoryRenderer | None = None
        self._pick: PickIndex | None = None
        self._cache: tuple[tuple[float, int], QRectF, QPixmap] | None = None
        self._static_rev = 0
        self._overlay: TerritoryOverlay = EMPTY
        self._selected: set[str] = set()
        self._selected_unit: str | None = None
        self._wrapping = False
        self.render_count = 0
        """How many times the static layer was rendered (tests, bench)."""
        self._underlay: tuple[Any, dict[str, Any]] | None = None
        self._layers: dict[tuple[str, float], tuple[tuple[float, float, float, int], QPixmap | None,
                                                    tuple[int, int]]] = {}
        """Overlay layers by (kind, copy of the world: its x offset in map
        units): the key they were rendered for, the pixmap, its offset."""
        self.layer_renders = 0
        """How many times an overlay layer was rendered (tests, bench)."""

    # ------------------------------------------------------------------
    # model

    def show_position(self, scenario: TerritoryScenario) -> None:
        """Show ``scenario`` when it is another position of the game shown
        (the Journal dock's replay, and back to the present): drawn anew, as
        :meth:`set_scenario` does."""
        self.set_scenario(scenario)

    def set_scenario(self, scenario: TerritoryScenario) -> None:
        self._s = scenario
        self._renderer = TerritoryRenderer(scenario, self.font())
        self._pick = self._pick_index()
        self._selected.clear()
        self._selected_unit = None
        self._hover = None
        self.invalidate()
        self._fit_pending = True
        self.fit()

    def scenario(self) -> TerritoryScenario | None:
        return self._s

    def renderer(self) -> TerritoryRenderer | None:
        """What paints the map (``None`` before a scenario is shown)."""
        return self._renderer

    def _pick_index(self) -> PickIndex | None:
        s = self._s
        if s is None:
            return None
        return pick_index({k: t.shape for k, t in s.map.territories.items()}, s.map.width, s.map.wrap_x)

    def shapes_changed(self) -> None:
        """Shapes, label points or the set of territories changed: rebuild
        paths, the pick index and the border lines."""
        if self._renderer is None:
            return
        self._renderer.shapes_changed()
        self._pick = self._pick_index()
        self.invalidate()

    def borders_changed(self) -> None:
        if self._renderer is not None:
            self._renderer.borders_changed()
        self.invalidate()

    def invalidate(self, territories: Iterable[str] | None = None) -> None:
        """Attributes of ``territories`` changed (colours, labels,
        features): re-render just their part of the cached static layer
        (all of it when ``territories`` is ``None``)."""
        self.viewport().update()
        self._layers.clear()
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
        return None if self._renderer is None else self._renderer.labels.get(tid)


    # ------------------------------------------------------------------
    # overlay and selection

    def set_overlay(self, overlay: TerritoryOverlay | None) -> None:
        new = overlay or EMPTY
        old = self._overlay
        if new is old:
            return
        if new.shades != old.shades:
            self._layers.clear()
        self._overlay = new
        self.viewport().update()

    def overlay(self) -> TerritoryOverlay:
        return self._overlay

    def set_selected(self, tids: Iterable[str]) -> None:
        new = set(tids)
        if new != self._selected:
            self._selected = new
            for k in [k for k in self._layers if k[0] == "shades"]:
                del self._layers[k]
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
        return None if self._pick is None else territory_at(self._pick, x, y)

    def pick(self) -> PickIndex | None:
        """The pick index of the shapes shown (for tools that pick along a
        drag: :func:`engine.territory.geometry.territories_along`)."""
        return self._pick

    def territory_at(self, pos: QPointF) -> str | None:
        return self.territory_at_map(*self.view_to_map(pos))

    def _zoom_changed(self) -> None:
        self._cache = None
        self._layers.clear()

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
        p = self.label_point(tid)
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

    def paths(self) -> dict[str, QPainterPath]:
        """Each territory's path at the current zoom's level of detail."""
        return {} if self._renderer is None else self._renderer.paths(self._zoom)

    # ------------------------------------------------------------------
    # painting

    def set_underlay(self, pyramid: Any, record: dict[str, Any] | None) -> None:
        """Show a scan (its tile pyramid and the map's underlay record)
        between the territories and the top layers, or none."""
        self._underlay = None if pyramid is None or record is None else (pyramid, dict(record))
        self.viewport().update()

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
        if self._underlay is not None and self._underlay[1].get("visible", True):
            from .underlay import image_to_view

            pyr, rec = self._underlay
            p.save()
            p.setOpacity(float(rec.get("opacity", 1.0)))
            pyr.paint(p, image_to_view(rec, (ox, oy), z), QRectF(rect))
            p.restore()
        self._paint_top(p, (ox, oy), z)

    def _paint_top(self, p: QPainter, origin: tuple[float, float], z: float) -> None:
        """What :meth:`TerritoryRenderer.paint_top` paints, in its order,
        the overlay's shades, the selection, the shaded territories' names
        and the shades' texts blitted from cached layers (rendered again
        only for a new overlay, selection, zoom, sub-pixel offset or edit)."""
        r = self._renderer
        assert r is not None
        ov = self._overlay
        vis = self.visible_map_rect()
        copies = r.copies(vis)
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        ox, oy = origin
        for dx in copies:
            base = (ox + dx * z, oy)
            r.paint_backdrop_marks(p, base, z, vis, ov)
            self._blit_layer(p, "shades", base, z, dx)
        for dx in copies:
            base = (ox + dx * z, oy)
            r.paint_routes(p, ov, base, z)
            r.paint_names_over(p, r.route_only(ov), base, z)
            self._blit_layer(p, "texts", base, z, dx)
            r.paint_counters(p, base, z, self._selected_unit, QRectF(self.viewport().rect()))
            r.paint_border_names_over_counters(p, base, z)
        p.restore()

    def _blit_layer(self, p: QPainter, which: str, base: tuple[float, float], z: float, copy: float) -> None:
        """Paint overlay layer ``which`` ("shades": shades and selection;
        "texts": the shaded territories' names and the shades' texts) with
        the map's (0, 0) at viewport point ``base``, from its cache; each
        ``copy`` of a wrapping world (its x offset in map units) has its own,
        the copies lying a fraction of a pixel apart."""
        r = self._renderer
        assert r is not None
        ix, iy = math.floor(base[0]), math.floor(base[1])
        fx, fy = base[0] - ix, base[1] - iy
        key = (z, fx, fy, self._static_rev)
        got = self._layers.get((which, copy))
        if got is None or got[0] != key:
            got = (key, *self._render_layer(which, fx, fy, z))
            self._layers[(which, copy)] = got
        pix, (px, py) = got[1], got[2]
        if pix is None:  # nothing to draw, or too big a layer to keep: drawn directly
            if px:
                self._paint_layer(p, which, base, z)
            return
        p.drawPixmap(ix + px, iy + py, pix)

    def _render_layer(self, which: str, fx: float, fy: float, z: float) -> tuple[QPixmap | None, tuple[int, int]]:
        """The pixmap of layer ``which`` for a map (0, 0) at sub-pixel
        offset (``fx``, ``fy``) and its integer offset from that point;
        ``(None, (0, 0))`` when it is empty, ``(None, (1, 0))`` when it is
        too big to cache."""
        r = self._renderer
        assert r is not None
        ov = self._overlay
        area = r.shades_extent(z, ov, self._selected) if which == "shades" else r.texts_extent(z, ov)
        if area.isEmpty():
            return None, (0, 0)
        x0, y0 = math.floor(fx + area.left()), math.floor(fy + area.top())
        w, h = math.ceil(fx + area.right()) - x0 + 1, math.ceil(fy + area.bottom()) - y0 + 1
        if w * h > MAX_CACHE_PIXELS:
            return None, (1, 0)
        pix = QPixmap(w, h)
        pix.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pix)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._paint_layer(painter, which, (fx - x0, fy - y0), z)
        painter.end()
        self.layer_renders += 1
        return pix, (x0, y0)

    def _paint_layer(self, p: QPainter, which: str, base: tuple[float, float], z: float) -> None:
        r = self._renderer
        assert r is not None
        ov = self._overlay
        if which == "shades":
            r.paint_shades(p, base, z, ov, self._selected)
        else:
            r.paint_names_over(p, r.shaded(ov), base, z)
            r.paint_shade_texts(p, ov, base, z)

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
        return [0.0] if self._renderer is None else self._renderer.copies(region)

    def render_static(self, p: QPainter, region: QRectF, z: float, limit: QRectF | None = None) -> None:
        """Paint the static layer of map rectangle ``region`` at zoom ``z``
        into ``p`` (whose (0, 0) is the region's top-left corner); only what
        meets ``limit`` (map coordinates, default: all of ``region``) is
        drawn.  Export and tests call it directly."""
        assert self._renderer is not None
        self._renderer.render_static(p, region, z, limit)

    # ------------------------------------------------------------------
    # unit counters

    def counters(self, base: tuple[float, float] | None = None) -> list[Counter]:
        """The unit counters drawn with the map's (0, 0) at viewport point
        ``base`` (default: where it is now), in viewport coordinates
        (:func:`app.gui.render.counters.layout_counters`)."""
        if self._renderer is None:
            return []
        return self._renderer.counters(self.origin() if base is None else base, self._zoom)

    def unit_boxes(self, base: tuple[float, float] | None = None) -> list[tuple[QRectF, str, list[str]]]:
        """Where each territory's unit counters are drawn: (viewport rect,
        territory, unit ids) of each of :meth:`counters`."""
        return [(c.rect, c.territory, c.ids) for c in self.counters(base)]

    def units_at_view(self, pos: QPointF) -> tuple[str, list[str]] | None:
        """The unit counter under a viewport point: (territory, unit ids)."""
        vis = self.visible_map_rect()
        ox, oy = self.origin()
        for dx in self._copies(vis):
            counters = self.counters((ox + dx * self._zoom, oy))
            hit = box_at([c.box() for c in counters], pos.x(), pos.y(), COUNTER_PAD)
            if hit is not None:
                return counters[hit].territory, counters[hit].ids
        return None

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
