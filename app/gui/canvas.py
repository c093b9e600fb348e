"""The map canvas: one widget for square and hex maps (see
``docs/editor.md``, "Canvas and rendering", for the contract with the editor).

It paints only what is visible: cached tiles of the static map (terrain,
control, rivers, links, grid, labels; see :mod:`app.gui.render`), then
places, units, the selected unit and overlays fresh on top.  It never holds
one item per cell.  It asks nothing of the document: the main window
connects document signals to :meth:`MapCanvas.invalidate_cells`,
:meth:`MapCanvas.invalidate_all` and :meth:`MapCanvas.set_scenario`, and the
mouse signals below to the active tool.

Coordinates: *map* coordinates are the engine layout's units (zoom
independent); ``zoom`` is screen pixels per map unit.  The map's top-left
corner sits at viewport point :meth:`MapCanvas.origin`.  Zoom, scrolling,
panning and fit are :class:`~app.gui.map_view.MapView`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QPaintEvent, QPen, QTransform
from PySide6.QtWidgets import QToolTip, QWidget

from engine.grids import Cell, Edge, Layout
from engine.model import Scenario

from .map_view import Button, MapView, modifier_flags
from .overlay import Overlay
from .render import DEFAULT_LAYERS, LAYERS, MapRenderer, TileCache, renderer_for, style
from .render.marks import overlay_change_rect
from .render.region import paint_region
from .underlay import TilePyramid, image_to_layout, view_transform


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


UNDERLAY_GRID = "#e6007e"
"""The calibrated grid's colour over a scan (a magenta no map or scan palette uses)."""


class MapCanvas(MapView):
    """Scrollable, zoomable view of a scenario's map (mouse signals carry
    :class:`MapMouseEvent` s)."""

    cellHovered = Signal(object)  # Cell | None
    overlayChanged = Signal(str, object)  # key, Overlay | None (the verdict panel follows "preview")

    MAX_ZOOM = 8.0
    """Largest zoom: 256-pixel cells."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._scenario: Scenario | None = None
        self._renderer: MapRenderer | None = None
        self._tiles = TileCache()
        self._layers: set[str] = set(DEFAULT_LAYERS)
        self._overlays: dict[str, Overlay] = {}
        self._selected: str | None = None
        self._underlay: tuple[TilePyramid, dict[str, Any]] | None = None

    # ------------------------------------------------------------------
    # model

    def set_underlay(self, pyramid: TilePyramid | None, record: dict[str, Any] | None) -> None:
        """Show a scan under the map (``record``: the map's underlay record,
        its opacity, visibility and calibration), or none."""
        self._underlay = None if pyramid is None or record is None else (pyramid, dict(record))
        self.viewport().update()

    def underlay_transform(self) -> QTransform | None:
        """Image pixels -> viewport pixels of the scan shown, if any."""
        r = self._renderer
        if self._underlay is None or r is None:
            return None
        pyr, record = self._underlay
        base = r.base_size
        a = image_to_layout(record, (pyr.width, pyr.height), r.map_width / base)
        return view_transform(a, lambda x, y: self.map_to_view(x * base, y * base))

    def _paint_underlay(self, p: QPainter) -> None:
        assert self._underlay is not None
        pyr, record = self._underlay
        t = self.underlay_transform()
        if t is None:
            return
        p.setOpacity(float(record.get("opacity", 1.0)))
        pyr.paint(p, t, QRectF(self.viewport().rect()))
        r = self._renderer
        if record.get("transform") is not None and r is not None and r.cell_px(self._zoom) >= 6:
            # the calibrated grid over the scan, so its fit shows at any opacity
            p.setOpacity(1.0)
            ox, oy = self.origin()
            p.translate(ox, oy)
            vp = self.viewport().rect()
            r.paint_grid_lines(p, self._zoom, QRectF(vp).translated(-ox, -oy), QPen(QColor(UNDERLAY_GRID), 1.2))

    def set_scenario(self, scenario: Scenario) -> None:
        """Show a (new) scenario: rebuild the renderer and caches, fit it."""
        self._scenario = scenario
        self._renderer = renderer_for(scenario)
        self._tiles.clear()
        self._hover = None
        # Overlays name cells of the old map (a brush outline, a preview):
        # drop them; the active tool draws its own again.
        for key in list(self._overlays):
            self.set_overlay(key, None)
        if self._selected is not None and not any(u.id == self._selected for u in scenario.units):
            self._selected = None
        self._fit_pending = True
        self.fit()

    def show_position(self, scenario: Scenario) -> None:
        """Show ``scenario`` when it is another position of the game shown
        (the Journal dock's replay, and back to the present): its map, sides
        and ruleset those shown (:func:`engine.turns.delta.unrecorded`: what
        no journal entry changes), so the rendered tiles and the view stay
        and only the top layers (units, places) are painted again; anything
        else is :meth:`set_scenario`."""
        from engine.turns.delta import unrecorded

        r, old = self._renderer, self._scenario
        if (r is None or old is None or r.scenario is not old or scenario.map.grid is not old.map.grid
                or scenario.map.numbering is not old.map.numbering or unrecorded(scenario) != unrecorded(old)):
            self.set_scenario(scenario)
            return
        self._scenario = scenario
        r.scenario = scenario  # the same map: the edge indexes and sprites built for it still hold
        for key in list(self._overlays):  # overlays speak of the position shown before
            self.set_overlay(key, None)
        if self._selected is not None and not any(u.id == self._selected for u in scenario.units):
            self._selected = None
        self.viewport().update()

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
        """Show ``overlay`` under ``key`` (e.g. "tool", "preview"); None removes it.
        Only the area the old and new overlay paint is repainted."""
        old = self._overlays.get(key)
        if overlay is None:
            if self._overlays.pop(key, None) is None:
                return
        else:
            self._overlays[key] = overlay
        r = self._renderer
        rect = None if r is None else overlay_change_rect(r, self._zoom, self.origin(), old, overlay)
        if rect is not None:
            self.viewport().update(rect)
        elif r is None:
            self.viewport().update()
        self.overlayChanged.emit(key, overlay)

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

    def layout(self) -> Layout | None:  # type: ignore[override]
        """The engine layout in map coordinates (None before a scenario).

        It shadows ``QWidget.layout()``, which a map view never uses (the
        scroll area lays out its viewport itself); renaming it is left for a
        change that can follow every caller."""
        return None if self._renderer is None else self._renderer.layout

    def _map_size(self) -> tuple[float, float] | None:
        r = self._renderer
        return None if r is None else (r.map_width, r.map_height)

    def _fit_space(self) -> tuple[int, int]:
        # The space the viewport gets once the scroll bars hide; one pixel
        # spare so ``scene_size`` (rounded up) still fits and the map is
        # centred with no scroll bars.
        avail = self.maximumViewportSize()
        return avail.width() - 1, avail.height() - 1

    def origin(self) -> tuple[int, int]:
        """Viewport position of map point (0, 0), on whole pixels (tiles are drawn there)."""
        ox, oy = super().origin()
        return int(ox), int(oy)

    def cell_at(self, pos: QPointF | QPoint) -> Cell | None:
        """The on-map cell under a viewport point."""
        r = self._renderer
        if r is None:
            return None
        x, y = self.view_to_map(pos)
        c = r.layout.pick(x, y)
        return c if r.grid.contains(c) else None

    def center_on(self, cell: Cell) -> None:
        r = self._renderer
        if r is None:
            return
        self._scroll_to(*r.layout.center(cell))

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
        shown = self._underlay is not None and self._underlay[1].get("visible", True)
        paint_region(p, r, self._zoom, self.origin(), rect, frozenset(self._layers), selected=self._selected,
                     overlays=list(self._overlays.values()), background=style.BACKGROUND, tiles=self._tiles,
                     under=self._paint_underlay if shown else None)

    # ------------------------------------------------------------------
    # events

    def _mouse_event(self, pos: QPointF, button: Button | None, mods: Qt.KeyboardModifier) -> MapMouseEvent:
        x, y = self.view_to_map(pos)
        cell = self.cell_at(pos)
        edge = self._nearest_edge(cell, x, y) if cell is not None else None
        return MapMouseEvent(x, y, cell, edge, button, *modifier_flags(mods))

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

    def _hover_of(self, event: object) -> Cell | None:
        assert isinstance(event, MapMouseEvent)
        return event.cell

    def _hover_changed(self, hover: object) -> None:
        self.cellHovered.emit(hover)

    def tooltip_text(self, cell: Cell) -> str | None:
        """What the overlays say about ``cell``: their tooltips, joined, each
        line once (the verdict is said once, not by every item repeating it)."""
        tips = [t for ov in self._overlays.values() if (t := ov.tooltip_at(cell))]
        lines = dict.fromkeys(line for t in tips for line in t.split("\n"))
        return "\n".join(lines) or None

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
