"""The map canvas: one widget for square and hex maps (see
``/work/brief/canvas-contract.md`` for the contract with the editor).

It paints only what is visible: cached tiles of the static map (terrain,
control, rivers, links, grid, labels; see :mod:`app.gui.render`), then
places, units, the selected unit and overlays fresh on top.  It never holds
one item per cell.  It asks nothing of the document: the main window
connects document signals to :meth:`MapCanvas.invalidate_cells`,
:meth:`MapCanvas.invalidate_all` and :meth:`MapCanvas.set_scenario`, and the
mouse signals below to the active tool.

Coordinates: *map* coordinates are the engine layout's units (zoom
independent); ``zoom`` is screen pixels per map unit.  The map's top-left
corner sits at viewport point :meth:`MapCanvas.origin`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from engine.grids import Cell, Edge, Layout
from engine.model import Scenario

from .overlay import Overlay
from .render import DEFAULT_LAYERS, LAYERS, MapRenderer, TileCache, renderer_for, style
from .render.region import paint_region

Button = Literal["left", "right", "middle"]


@dataclass(frozen=True)
class MapMouseEvent:
    """A mouse event in map terms, for tools."""

    x: float
    y: float
    """Map coordinates (layout units, zoom independent)."""
    cell: Cell | None
    """On-map cell under the cursor, else None."""
    edge: Edge | None
    """The side of ``cell`` nearest the cursor (towards an on-map cell), else None."""
    button: Button | None
    shift: bool
    ctrl: bool
    alt: bool


_BUTTONS: dict[Qt.MouseButton, Button] = {
    Qt.MouseButton.LeftButton: "left",
    Qt.MouseButton.RightButton: "right",
    Qt.MouseButton.MiddleButton: "middle",
}


class MapCanvas(QAbstractScrollArea):
    """Scrollable, zoomable view of a scenario's map."""

    cellHovered = Signal(object)  # Cell | None
    mousePressed = Signal(object)  # MapMouseEvent (left/right only)
    mouseMoved = Signal(object)  # MapMouseEvent
    mouseReleased = Signal(object)  # MapMouseEvent
    zoomChanged = Signal(float)

    MARGIN = 48
    """Screen pixels of background around the map when it is larger than the view."""
    ZOOM_STEP = 1.25
    MAX_ZOOM = 8.0
    """Largest zoom: 256-pixel cells."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._scenario: Scenario | None = None
        self._renderer: MapRenderer | None = None
        self._tiles = TileCache()
        self._zoom = 1.0
        self._layers: set[str] = set(DEFAULT_LAYERS)
        self._overlays: dict[str, Overlay] = {}
        self._selected: str | None = None
        self._hover: Cell | None = None
        self._space = False
        self._pan: tuple[QPointF, int, int] | None = None
        self._drag_button: Button | None = None
        self._fit_pending = False
        vp = self.viewport()
        vp.setMouseTracking(True)
        vp.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        vp.setAutoFillBackground(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.horizontalScrollBar().setSingleStep(32)
        self.verticalScrollBar().setSingleStep(32)

    # ------------------------------------------------------------------
    # model

    def set_scenario(self, scenario: Scenario) -> None:
        """Show a (new) scenario: rebuild the renderer and caches, fit it."""
        self._scenario = scenario
        self._renderer = renderer_for(scenario)
        self._tiles.clear()
        self._hover = None
        if self._selected is not None and not any(u.id == self._selected for u in scenario.units):
            self._selected = None
        self._fit_pending = True
        self.fit()

    def scenario(self) -> Scenario | None:
        return self._scenario

    def renderer(self) -> MapRenderer | None:
        return self._renderer

    def tile_cache(self) -> TileCache:
        return self._tiles

    EDGE_LAYERS = frozenset({"rivers", "bridges", "rail", "road"})
    """Layers whose edits change the edge sets the renderer indexes."""
    TOP_LAYERS = frozenset({"units", "places"})
    """Layers drawn by the top pass, fresh every frame (no tiles to re-render)."""

    def invalidate_cells(self, cells: Iterable[Cell], layer: str | None = None) -> None:
        """An edit touched these cells: re-render only the tiles they cover.
        ``layer`` (optional: the document's ``cellsChanged`` layer) lets a
        terrain, control, place or unit edit skip re-indexing the edges
        around the cells, a terrain edit re-render only the cells' own
        pixels and a place or unit edit no tiles at all; without it the
        edges are re-read and one cell around is re-rendered too."""
        r = self._renderer
        if r is None:
            return
        if r.grid is not r.scenario.map.grid:
            self.invalidate_all()
            return
        cells = list(cells)
        if not cells:
            return
        if layer in self.TOP_LAYERS:  # drawn fresh every frame, not in tiles
            self.viewport().update()
            return
        if layer is None or layer in self.EDGE_LAYERS:
            r.refresh_cells(cells)
        # a terrain edit changes only the cells' own pixels; others reach the neighbours
        rect = r.cells_scene_rect(cells, self._zoom, 0.6 if layer == "terrain" else 1.6)
        if rect is None:
            return
        self._tiles.invalidate(self._zoom, rect)
        ox, oy = self.origin()
        self.viewport().update(rect.translated(ox, oy))

    def invalidate_all(self) -> None:
        """Anything may have changed (a reload, undo of a big edit, new sides)."""
        s = self._scenario
        if s is None:
            return
        if self._renderer is None or self._renderer.grid is not s.map.grid:
            self._renderer = renderer_for(s)
            self._update_scrollbars()
        else:
            self._renderer.refresh()
        self._tiles.clear()
        self.viewport().update()

    # ------------------------------------------------------------------
    # layers, overlays, selection

    def set_layer_visible(self, layer: str, visible: bool) -> None:
        if layer not in LAYERS:
            raise ValueError(f"unknown layer '{layer}' (layers: {', '.join(LAYERS)})")
        if (layer in self._layers) == visible:
            return
        if visible:
            self._layers.add(layer)
        else:
            self._layers.discard(layer)
        self._tiles.clear()
        self.viewport().update()

    def layer_visible(self, layer: str) -> bool:
        if layer not in LAYERS:
            raise ValueError(f"unknown layer '{layer}' (layers: {', '.join(LAYERS)})")
        return layer in self._layers

    def layers(self) -> frozenset[str]:
        return frozenset(self._layers)

    def set_overlay(self, key: str, overlay: Overlay | None) -> None:
        """Show ``overlay`` under ``key`` (e.g. "tool", "preview"); None removes it."""
        if overlay is None:
            if self._overlays.pop(key, None) is None:
                return
        else:
            self._overlays[key] = overlay
        self.viewport().update()

    def overlays(self) -> list[Overlay]:
        return list(self._overlays.values())

    def set_selected_unit(self, unit_id: str | None) -> None:
        if unit_id != self._selected:
            self._selected = unit_id
            self.viewport().update()

    def selected_unit(self) -> str | None:
        return self._selected

    # ------------------------------------------------------------------
    # geometry

    def layout(self) -> Layout | None:
        """The engine layout in map coordinates (None before a scenario)."""
        return None if self._renderer is None else self._renderer.layout

    def zoom(self) -> float:
        return self._zoom

    def origin(self) -> tuple[int, int]:
        """Viewport position of map point (0, 0)."""
        r = self._renderer
        if r is None:
            return 0, 0
        sw, sh = r.scene_size(self._zoom)
        vw, vh = self.viewport().width(), self.viewport().height()
        ox = (vw - sw) // 2 if sw <= vw else self.MARGIN - self.horizontalScrollBar().value()
        oy = (vh - sh) // 2 if sh <= vh else self.MARGIN - self.verticalScrollBar().value()
        return int(ox), int(oy)

    def map_to_view(self, x: float, y: float) -> QPointF:
        ox, oy = self.origin()
        return QPointF(ox + x * self._zoom, oy + y * self._zoom)

    def view_to_map(self, pos: QPointF | QPoint) -> tuple[float, float]:
        ox, oy = self.origin()
        return (pos.x() - ox) / self._zoom, (pos.y() - oy) / self._zoom

    def cell_at(self, pos: QPointF | QPoint) -> Cell | None:
        """The on-map cell under a viewport point."""
        r = self._renderer
        if r is None:
            return None
        x, y = self.view_to_map(pos)
        c = r.layout.pick(x, y)
        return c if r.grid.contains(c) else None

    def visible_map_rect(self) -> QRectF:
        """The part of the map (map coordinates) the view shows."""
        x0, y0 = self.view_to_map(QPointF(0, 0))
        x1, y1 = self.view_to_map(QPointF(self.viewport().width(), self.viewport().height()))
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    def _zoom_limits(self) -> tuple[float, float]:
        return min(self._fit_zoom() * 0.5, 0.05), self.MAX_ZOOM

    def _fit_zoom(self) -> float:
        r = self._renderer
        if r is None:
            return 1.0
        # The space the viewport gets once the scroll bars hide, less the
        # margin :meth:`origin` keeps around a map that does not fit; one pixel
        # spare so ``scene_size`` (rounded up) still fits and the map is
        # centred with no scroll bars.
        avail = self.maximumViewportSize()
        vw = max(1, avail.width() - 2 * self.MARGIN - 1)
        vh = max(1, avail.height() - 2 * self.MARGIN - 1)
        return max(1e-4, min(vw / r.map_width, vh / r.map_height, self.MAX_ZOOM))

    def _update_scrollbars(self) -> None:
        r = self._renderer
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        if r is None:
            h.setRange(0, 0)
            v.setRange(0, 0)
            return
        sw, sh = r.scene_size(self._zoom)
        vw, vh = self.viewport().width(), self.viewport().height()
        h.setRange(0, 0 if sw <= vw else sw + 2 * self.MARGIN - vw)
        v.setRange(0, 0 if sh <= vh else sh + 2 * self.MARGIN - vh)
        h.setPageStep(max(1, vw))
        v.setPageStep(max(1, vh))

    def set_zoom(self, z: float, anchor: QPointF | None = None) -> None:
        """Zoom so that the map point under ``anchor`` (a viewport point;
        default the view's centre) stays where it is."""
        self._fit_pending = False
        if self._renderer is None:
            self._zoom = z
            return
        lo, hi = self._zoom_limits()
        z = min(max(z, lo), hi)
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        mx, my = self.view_to_map(anchor)
        changed = not math.isclose(z, self._zoom, rel_tol=1e-9)
        self._zoom = z
        self._update_scrollbars()
        self.horizontalScrollBar().setValue(round(self.MARGIN + mx * z - anchor.x()))
        self.verticalScrollBar().setValue(round(self.MARGIN + my * z - anchor.y()))
        self.viewport().update()
        if changed:
            self.zoomChanged.emit(z)

    def zoom_in(self) -> None:
        self._fit_pending = False
        self.set_zoom(self._zoom * self.ZOOM_STEP)

    def zoom_out(self) -> None:
        self._fit_pending = False
        self.set_zoom(self._zoom / self.ZOOM_STEP)

    def fit(self) -> None:
        """Zoom so the whole map fits the view, centred."""
        if self._renderer is None:
            return
        z = self._fit_zoom()
        self.set_zoom(z)
        self._fit_pending = True  # a later resize (docks, first show) fits again
        self._update_scrollbars()
        self.horizontalScrollBar().setValue(0)
        self.verticalScrollBar().setValue(0)

    def center_on(self, cell: Cell) -> None:
        r = self._renderer
        if r is None:
            return
        x, y = r.layout.center(cell)
        self._fit_pending = False
        self.horizontalScrollBar().setValue(round(self.MARGIN + x * self._zoom - self.viewport().width() / 2))
        self.verticalScrollBar().setValue(round(self.MARGIN + y * self._zoom - self.viewport().height() / 2))
        self.viewport().update()

    # ------------------------------------------------------------------
    # painting

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self.viewport())
        self.paint_view(p, event.rect())
        p.end()

    def paint_view(self, p: QPainter, rect: QRect) -> None:
        """Paint viewport rectangle ``rect``: cached tiles, then the fresh top layers."""
        r = self._renderer
        if r is None:
            p.fillRect(rect, style.BACKGROUND)
            return
        paint_region(p, r, self._zoom, self.origin(), rect, frozenset(self._layers), selected=self._selected,
                     overlays=list(self._overlays.values()), background=style.BACKGROUND, tiles=self._tiles)

    # ------------------------------------------------------------------
    # events

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fit_pending:
            self.fit()
        else:
            self._update_scrollbars()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self.viewport().update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y()
        if delta == 0 or self._renderer is None:
            event.ignore()
            return
        self._fit_pending = False
        self.set_zoom(self._zoom * self.ZOOM_STEP ** (delta / 120.0), event.position())
        event.accept()

    def _map_event(self, pos: QPointF, button: Button | None, mods: Qt.KeyboardModifier) -> MapMouseEvent:
        x, y = self.view_to_map(pos)
        cell = self.cell_at(pos)
        edge = self._nearest_edge(cell, x, y) if cell is not None else None
        return MapMouseEvent(x, y, cell, edge, button,
                             bool(mods & Qt.KeyboardModifier.ShiftModifier),
                             bool(mods & Qt.KeyboardModifier.ControlModifier),
                             bool(mods & Qt.KeyboardModifier.AltModifier))

    def _nearest_edge(self, cell: Cell, x: float, y: float) -> Edge | None:
        r = self._renderer
        assert r is not None
        best: tuple[float, Edge] | None = None
        for e in r.grid.edges_of(cell):
            (ax, ay), (bx, by) = r.layout.edge_segment(e)
            d = _point_segment_distance(x, y, ax, ay, bx, by)
            if best is None or d < best[0]:
                best = (d, e)
        return None if best is None else best[1]

    def _set_hover(self, cell: Cell | None) -> None:
        if cell != self._hover:
            self._hover = cell
            self.cellHovered.emit(cell)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        button = _BUTTONS.get(event.button())
        if button == "middle" or (button == "left" and self._space):
            self._pan = (event.position(), self.horizontalScrollBar().value(), self.verticalScrollBar().value())
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if button is None or self._renderer is None:
            return
        self._drag_button = button
        self.mousePressed.emit(self._map_event(event.position(), button, event.modifiers()))
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan is not None:
            start, h0, v0 = self._pan
            d = event.position() - start
            self.horizontalScrollBar().setValue(round(h0 - d.x()))
            self.verticalScrollBar().setValue(round(v0 - d.y()))
            event.accept()
            return
        if self._renderer is None:
            return
        ev = self._map_event(event.position(), self._drag_button, event.modifiers())
        self._set_hover(ev.cell)
        self.mouseMoved.emit(ev)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        button = _BUTTONS.get(event.button())
        if self._pan is not None and (button == "middle" or button == "left"):
            self._pan = None
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        if button is None or button == "middle" or self._renderer is None:
            return
        self._drag_button = None
        self.mouseReleased.emit(self._map_event(event.position(), button, event.modifiers()))
        event.accept()

    def leaveEvent(self, event: QEvent) -> None:
        self._set_hover(None)
        super().leaveEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            if self._pan is None:
                self.viewport().setCursor(Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    def tooltip_text(self, cell: Cell) -> str | None:
        """What the overlays say about ``cell`` (their tooltips, joined)."""
        tips = [t for ov in self._overlays.values() if (t := ov.tooltip_at(cell))]
        return "\n".join(tips) or None

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            cell = self.cell_at(event.pos())
            text = self.tooltip_text(cell) if cell is not None else None
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)


def _point_segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


__all__ = ["LAYERS", "MapCanvas", "MapMouseEvent"]
