"""A cache of rendered map tiles, per zoom level.

Tiles are ``TILE`` x ``TILE`` scene pixels (scene pixel = map coordinate
times zoom).  An edit marks the part of each touched tile it covers dirty;
the next paint re-renders only that part of only those tiles.  Tiles of
other zoom levels that an edit touches are dropped.  Least recently used
tiles are evicted beyond ``max_tiles``.
"""

from __future__ import annotations

import math
from collections import OrderedDict, deque
from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPainter, QRegion

from . import style
from .base import MapRenderer

TILE = 256


@dataclass
class Tile:
    image: QImage
    dirty: QRegion | None  # scene pixels still to re-render, None when clean
    unrendered: QRegion | None = None
    """Scene pixels never rendered yet (None: all were): they are rendered
    with the vectors of the whole tile (clipped), so the parts of a new tile
    join up as one render would."""


class TileCache:
    """Rendered tiles keyed by ``(zoom, tx, ty)``.  ``renders`` counts tile
    renders (full or partial), ``rendered`` holds the keys of the latest
    256 (bounded: a long session renders without end)."""

    def __init__(self, max_tiles: int = 320, background: QColor = style.BACKGROUND) -> None:
        self.max_tiles = max_tiles
        self.background = background
        self.tiles: OrderedDict[tuple[float, int, int], Tile] = OrderedDict()
        self.renders = 0
        self.rendered: deque[tuple[float, int, int]] = deque(maxlen=256)

    def clear(self) -> None:
        self.tiles.clear()

    def __len__(self) -> int:
        return len(self.tiles)

    @staticmethod
    def tile_range(x0: float, y0: float, x1: float, y1: float) -> Iterator[tuple[int, int]]:
        """Tile indexes covering scene-pixel rectangle ``[x0, x1) x [y0, y1)``."""
        for ty in range(math.floor(y0 / TILE), math.ceil(y1 / TILE)):
            for tx in range(math.floor(x0 / TILE), math.ceil(x1 / TILE)):
                yield tx, ty

    def tile(self, renderer: MapRenderer, zoom: float, tx: int, ty: int, layers: frozenset[str],
             need: QRect | None = None) -> QImage:
        """The tile image, rendering it (or its dirty part) first if needed;
        with ``need`` (scene pixels) only the dirty part inside it is
        rendered, the rest stays dirty for a later paint (after a zoom change
        the tiles along the view's edges are mostly off screen)."""
        key = (zoom, tx, ty)
        t = self.tiles.get(key)
        full = QRect(tx * TILE, ty * TILE, TILE, TILE)
        if t is None:
            img = QImage(TILE, TILE, QImage.Format.Format_RGB32)
            t = Tile(img, QRegion(full), QRegion(full))
            self.tiles[key] = t
            while len(self.tiles) > self.max_tiles:
                self.tiles.popitem(last=False)
        else:
            self.tiles.move_to_end(key)
        if t.dirty is not None:
            dirty = t.dirty.intersected(full)
            area = dirty if need is None else dirty.intersected(need)
            if not area.isEmpty():
                p = QPainter(t.image)
                p.translate(-full.x(), -full.y())
                # QRegion iterates its rectangles (QRegion.rects() crashes under PySide6 6.11)
                fresh = area.intersected(t.unrendered) if t.unrendered is not None else QRegion()
                for part in fresh:  # type: ignore[attr-defined]
                    if part == full:
                        renderer.render_base(p, zoom, part, layers, self.background)
                    else:
                        self._render_part(p, renderer, zoom, part, full, layers)
                for part in area.subtracted(fresh) if not fresh.isEmpty() else area:  # type: ignore[attr-defined]
                    renderer.render_base(p, zoom, part, layers, self.background)  # an edit's part, as ever
                p.end()
                if t.unrendered is not None:
                    t.unrendered = t.unrendered.subtracted(area)
                    if t.unrendered.isEmpty():
                        t.unrendered = None
                self.renders += 1
                self.rendered.append(key)
            left = dirty.subtracted(area)
            t.dirty = None if left.isEmpty() else left
        return t.image

    def render_new(self, renderer: MapRenderer, zoom: float, need: QRect, layers: frozenset[str]) -> int:
        """Render the parts inside ``need`` (scene pixels) of the tiles not
        cached yet at once: their union's raster (in blocks of a tile: a
        bigger raster runs out of the cache) and its vectors once, cut into
        tiles (after a zoom change a screenful of tiles is new; tile by tile,
        the rivers, links and bridges near a tile's edges would be stroked
        for each tile they touch).  The pixels are those of tiles made
        one by one: lines are stroked as one joined path
        (:func:`app.gui.render.base.joined`), so a junction does not depend
        on which other lines were chosen with it.  The rest of each tile
        stays to render when it shows, as :meth:`tile` does.  Returns how
        many tiles it made (none when fewer than two are new)."""
        if need.isEmpty():
            return 0
        keys = [(tx, ty) for tx, ty in self.tile_range(need.x(), need.y(), need.x() + need.width(),
                                                          need.y() + need.height())
                if (zoom, tx, ty) not in self.tiles]
        if len(keys) < 2:
            return 0
        region = QRegion()
        for tx, ty in keys:
            region = region.united(QRect(tx * TILE, ty * TILE, TILE, TILE).intersected(need))
        box = region.boundingRect()
        img = QImage(box.width(), box.height(), QImage.Format.Format_RGB32)
        p = QPainter(img)
        p.translate(-box.x(), -box.y())
        for y in range(box.y(), box.y() + box.height(), TILE):  # in blocks of a tile: a bigger raster
            for x in range(box.x(), box.x() + box.width(), TILE):  # runs out of the cache (twice as slow)
                renderer.render_base(p, zoom, QRect(x, y, min(TILE, box.x() + box.width() - x),
                                                    min(TILE, box.y() + box.height() - y)),
                                     layers, self.background, vectors=False)
        p.setClipRect(box)
        renderer.paint_vectors(p, zoom, box, layers)  # stroked as joined paths: the same pixels as tile by tile
        p.end()
        for tx, ty in keys:
            full = QRect(tx * TILE, ty * TILE, TILE, TILE)
            part = full.intersected(need)
            tile = QImage(TILE, TILE, QImage.Format.Format_RGB32)
            q = QPainter(tile)
            q.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            q.drawImage(part.topLeft() - full.topLeft(), img, part.translated(-box.x(), -box.y()))
            q.end()
            rest = QRegion(full).subtracted(QRegion(part))
            key = (zoom, tx, ty)
            self.tiles[key] = Tile(tile, None if rest.isEmpty() else rest, None if rest.isEmpty() else rest)
            self.renders += 1
            self.rendered.append(key)
        while len(self.tiles) > self.max_tiles:
            self.tiles.popitem(last=False)
        return len(keys)

    def _render_part(self, p: QPainter, renderer: MapRenderer, zoom: float, area: QRect, full: QRect,
                     layers: frozenset[str]) -> None:
        """What :meth:`MapRenderer.render_base` paints in ``area`` of tile
        ``full``, its vectors chosen for the whole tile and clipped to the
        part: the part's strokes are then those of the whole tile (lines
        are stroked as one joined path, :func:`app.gui.render.base.joined`,
        so a junction's pixels depend on which lines are stroked with it)."""
        pixels = renderer.raster(zoom, area, layers, self.background)
        img = QImage(pixels.data, area.width(), area.height(), area.width() * 4, QImage.Format.Format_RGB32)
        p.save()
        p.setClipRect(area)
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        p.drawImage(area.topLeft(), img)
        p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        del img
        renderer.paint_vectors(p, zoom, full, layers)
        p.restore()

    def invalidate(self, zoom: float, rect: QRect) -> None:
        """Mark scene rect ``rect`` (at ``zoom``) dirty; drop tiles of other
        zoom levels (their scene rect differs; they re-render when used)."""
        drop = [k for k in self.tiles if k[0] != zoom]
        for k in drop:
            del self.tiles[k]
        for tx, ty in self.tile_range(rect.x(), rect.y(), rect.x() + rect.width(), rect.y() + rect.height()):
            t = self.tiles.get((zoom, tx, ty))
            if t is None:
                continue
            area = QRegion(rect.intersected(QRect(tx * TILE, ty * TILE, TILE, TILE)))
            t.dirty = area if t.dirty is None else t.dirty.united(area)
