"""Paint a region of a map onto any :class:`QPainter`.

:func:`paint_region` is the one drawing path shared by the canvas (a
viewport, with its tile cache) and export (a ``QImage`` or an SVG
generator, without a cache): both get exactly the same pixels from the same
renderer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtGui import QColor, QPaintEngine, QPainter, QRegion

from app.gui.overlay import Overlay

from . import style
from .base import MapRenderer
from .tiles import TILE, TileCache

BAND = 256
"""Rows of scene pixels rastered at a time without a tile cache (bounds the
numpy temporaries of a big export to a few tens of MB)."""
VECTOR_TILE = 512
"""Side (scene pixels) of the squares whose vectors (rivers, roads, rail,
borders) a raster export strokes one at a time, each clipped to its square:
Qt's anti-aliasing rasteriser slows down far more than in proportion on a
path of tens of thousands of segments spanning a whole image, and a square's
pixels come out the same either way (the stroke of the segments that reach
into it).  Lines are stroked in smaller squares still
(:func:`app.gui.render.base.stroke_in_squares`); this size sets how often
the edges are looked up and the bridges, borders and rail ties drawn."""


def paint_region(p: QPainter, renderer: MapRenderer, zoom: float, origin: tuple[int, int], target: QRect,
                 layers: frozenset[str], *, selected: str | None = None, overlays: Sequence[Overlay] = (),
                 background: QColor = style.BACKGROUND, tiles: TileCache | None = None,
                 under: Callable[[QPainter], None] | None = None) -> None:
    """Paint target rectangle ``target`` of ``p``'s device: the background,
    the static map (from ``tiles`` when given, else rendered directly), then
    places, units, the selected unit and ``overlays``.  ``under`` (a scanned
    underlay: ``app/gui/underlay.py``) paints between the static map and the
    top layers.

    Scene pixel ``(sx, sy)`` (map coordinates times ``zoom``) lands on
    target point ``origin + (sx, sy)``; only scene pixels inside the map's
    scene rectangle are drawn from the map, the rest of ``target`` is
    ``background``.
    """
    ox, oy = origin
    sw, sh = renderer.scene_size(zoom)
    # background only where the map is not (the map's pixels are opaque)
    bg = QRegion(target).subtracted(QRegion(QRect(ox, oy, sw, sh)))
    # QRegion iterates its rectangles (QRegion.rects() crashes under PySide6 6.11)
    for r in bg:  # type: ignore[attr-defined]
        p.fillRect(r, background)
    x0, y0 = max(0, target.x() - ox), max(0, target.y() - oy)
    x1, y1 = min(sw, target.x() + target.width() - ox), min(sh, target.y() + target.height() - oy)
    if x1 > x0 and y1 > y0:
        p.save()
        p.setClipRect(QRect(ox, oy, sw, sh).intersected(target))
        if tiles is not None:
            need = QRect(x0, y0, x1 - x0, y1 - y0)  # a new tile is rendered only where it shows
            tiles.render_new(renderer, zoom, need, layers)  # new tiles at once (a zoom change)
            for tx, ty in TileCache.tile_range(x0, y0, x1, y1):
                img = tiles.tile(renderer, zoom, tx, ty, layers, need)
                p.drawImage(QPoint(ox + tx * TILE, oy + ty * TILE), img)
        else:
            # the raster by bands, then the vectors: square by square on a
            # raster device, the whole region at once on a vector one (an SVG
            # file draws each line once)
            p.translate(ox, oy)
            for index in renderer.indexes.values():
                index.fill()  # the edges' geometry in one call each, not a call per bucket
            for by in range(y0, y1, BAND):
                renderer.render_base(p, zoom, QRect(x0, by, x1 - x0, min(BAND, y1 - by)), layers, background,
                                     vectors=False)
            engine = p.paintEngine()
            step = VECTOR_TILE if engine is not None and engine.type() == QPaintEngine.Type.Raster else max(
                x1 - x0, y1 - y0)
            for vy in range(y0, y1, step):
                for vx in range(x0, x1, step):
                    part = QRect(vx, vy, min(step, x1 - vx), min(step, y1 - vy))
                    p.save()
                    p.setClipRect(part)
                    renderer.paint_vectors(p, zoom, part, layers)
                    p.restore()
        p.restore()
    if under is not None:
        p.save()
        p.setClipRect(target)
        under(p)
        p.restore()
    renderer.paint_top(p, zoom, ox, oy, QRectF(target), layers, selected, list(overlays))


__all__ = ["paint_region"]
