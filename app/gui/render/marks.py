"""Painting a preview's :class:`~app.gui.overlay.Overlay` fast enough to
follow the mouse (the target: hover to painted frame within 8 ms,
``docs/performance.md``).

:class:`OverlayPainter` is what the top pass (:mod:`app.gui.render.top`)
calls for every overlay.  It draws the same pixels as one shape per item
would, at a cost that does not grow with the items the frame cannot see:

* cell marks outside the painted rectangle are skipped; a run of cell marks
  is drawn grouped by look (one brush and pen set per look, square cells of
  a look in one ``drawRects`` call);
* the text of a mark or marker is a sprite made once per text, size and
  colour (the glyph outlines with their white halo), not a text path
  stroked and filled again on every frame; all the texts of a run are
  drawn after its shapes, so a neighbour's translucent fill never covers
  part of a text wider than its cell;
* the unit counters under the overlay stay readable: no mark text on a
  cell with a counter, a circle marker there rings the counter, a path
  starts and ends at a counter's edge;
* the items an overlay marks as not changing with the mouse
  (``Overlay.layer_count`` items under ``Overlay.layer_key``, e.g. the ACW
  reach) are painted once per key and zoom into an image of their scene
  rectangle around what is on screen, and blitted afterwards.

:func:`overlay_scene_rect` bounds what an overlay paints, in scene pixels,
so the canvas repaints only the old and new overlay's area on a hover.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QPen, QPolygonF

from app.gui.overlay import CellMark, CellMarks, CellSeq, EdgeMark, Item, Marker, Overlay, PathLine
from engine.grids import Cell, Layout, SquareLayout

from . import style
from .paths import polygons_path


class MapRenderer(Protocol):
    """What the overlay painter needs of a grid renderer
    (:class:`app.gui.render.base.MapRenderer` is one): its layout, cell
    geometry at a zoom, and its own overlay painter."""

    @property
    def layout(self) -> Layout: ...

    @property
    def corner_offsets(self) -> np.ndarray[Any, Any]: ...

    def cell_px(self, zoom: float) -> float: ...

    def centers(self, cols: np.ndarray[Any, Any],
                rows: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]: ...

    def cell_ranges(self, zoom: float, rect: QRect | QRectF, pad: int = 1) -> tuple[range, range]: ...

    def overlay_painter(self) -> OverlayPainter: ...

LAYER_MARGIN = 384
"""Scene pixels the cached layer reaches beyond the view on each side, so a
short scroll reuses it."""
LAYER_MAX_PIXELS = 6_000_000
"""A layer larger than this (a huge reach at a close zoom) is not cached:
its items are drawn directly."""
SIMPLIFY_BELOW_PX = 4.0
"""Long paths through cells smaller than this (screen pixels) are simplified."""
SIMPLIFY_TOLERANCE = 0.5
"""How far (screen pixels) a simplified path may pass from a dropped point."""
TEXT_MIN_PX = 12
"""Cells smaller than this (screen pixels) get no mark text."""

_SPRITES: OrderedDict[tuple[str, int, int, int], tuple[QImage, float, float]] = OrderedDict()
"""Halo text sprites by text, pixel size and colour: the image and the
point in it that lands on the text's anchor."""


def text_size(px: float) -> int:
    """Pixel size of a cell mark's text in a cell ``px`` screen pixels wide."""
    return int(min(18, max(8, px * 0.28)))


HALO = QColor(255, 255, 255, 220)
"""The halo around a mark's text."""


def halo_sprite(text: str, size: int, colour: QColor, halo: QColor = HALO) -> tuple[QImage, float, float]:
    """``text`` in bold at ``size`` pixels, filled with ``colour`` over a
    ``halo`` (white by default), and the image point of the text's centre;
    cached.  Mark texts and place names are both made here."""
    key = (text, size, colour.rgba(), halo.rgba())
    made = _SPRITES.get(key)
    if made is not None:
        _SPRITES.move_to_end(key)
        return made
    font = QFont()
    font.setPixelSize(size)
    font.setBold(True)
    path = QPainterPath()
    path.addText(0, 0, font, text)
    br = path.boundingRect()
    pad = 3
    img = QImage(math.ceil(br.width()) + 2 * pad, math.ceil(br.height()) + 2 * pad,
                 QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    q = QPainter(img)
    q.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    q.translate(pad - br.x(), pad - br.y())
    q.strokePath(path, QPen(halo, 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    q.fillPath(path, colour)
    q.end()
    made = (img, pad + br.width() / 2, pad + br.height() / 2)
    _SPRITES[key] = made
    if len(_SPRITES) > 4096:  # a big map's place names and the marks' texts
        _SPRITES.popitem(last=False)
    return made


_ARRAYS: OrderedDict[int, tuple[Sequence[Cell], np.ndarray[Any, Any], np.ndarray[Any, Any]]] = OrderedDict()
"""Columns and rows of the latest long cell sequences by identity (with the
sequence, so an id is never taken for another's): a hover's overlay is
bounded, painted and shown in the legend from the same tuples."""


def cell_arrays(cells: Sequence[Cell]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The columns and rows of ``cells`` as arrays, made once per sequence."""
    if isinstance(cells, CellSeq):
        return cells.cols, cells.rows
    made = _ARRAYS.get(id(cells))
    if made is not None and made[0] is cells:
        return made[1], made[2]
    n = len(cells)
    cs = np.fromiter((c.col for c in cells), np.int64, n)
    rs = np.fromiter((c.row for c in cells), np.int64, n)
    _ARRAYS[id(cells)] = (cells, cs, rs)
    while len(_ARRAYS) > 16:
        _ARRAYS.popitem(last=False)
    return cs, rs


def _cells_of(it: Item) -> Sequence[Cell]:
    if isinstance(it, (PathLine, CellMarks)):
        return it.cells
    if isinstance(it, EdgeMark):
        return (it.edge.a, it.edge.b)
    return (it.cell,)


def overlay_scene_rect(r: MapRenderer, zoom: float, ov: Overlay, items: Sequence[Item] | None = None) -> QRect | None:
    """Scene pixels (map coordinates times ``zoom``) holding everything
    ``items`` (default: all of ``ov``'s) paint: the cells they name, one
    cell and a text's height around them; ``None`` when they paint nothing."""
    its = ov.items if items is None else items
    c0 = r0 = math.inf
    c1 = r1 = -math.inf
    for it in its:
        cells = _cells_of(it)
        if len(cells) > 16:
            cs, rs = cell_arrays(cells)
            c0, c1 = min(c0, int(cs.min())), max(c1, int(cs.max()))
            r0, r1 = min(r0, int(rs.min())), max(r1, int(rs.max()))
            continue
        for c in cells:
            col, row = c.col, c.row
            if col < c0:
                c0 = col
            if col > c1:
                c1 = col
            if row < r0:
                r0 = row
            if row > r1:
                r1 = row
    if c0 == math.inf:
        return None
    lay = r.layout
    xs, ys = [], []
    for col in (int(c0), int(c1)):
        for row in (int(r0), int(r0) + 1, int(r1) - 1, int(r1)):  # hex columns shift every other row/column
            x, y = lay.center(Cell(col, row))
            xs.append(x)
            ys.append(y)
    for row in (int(r0), int(r1)):
        for col in (int(c0) + 1, int(c1) - 1):
            x, y = lay.center(Cell(col, row))
            xs.append(x)
            ys.append(y)
    pad = r.cell_px(zoom) * 1.1 + 30  # a cell's half and a marker's text below it, line widths
    x0, x1 = min(xs) * zoom - pad, max(xs) * zoom + pad
    y0, y1 = min(ys) * zoom - pad, max(ys) * zoom + pad
    return QRect(math.floor(x0), math.floor(y0), math.ceil(x1 - x0) + 1, math.ceil(y1 - y0) + 1)


def _simplified(xs: np.ndarray[Any, Any], ys: np.ndarray[Any, Any], tol: float
                ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Douglas-Peucker: the points of polyline ``xs``, ``ys`` to keep so that
    no dropped point is more than ``tol`` from the simplified line."""
    n = len(xs)
    keep = np.zeros(n, bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        dx, dy = xs[b] - xs[a], ys[b] - ys[a]
        px, py = xs[a + 1:b] - xs[a], ys[a + 1:b] - ys[a]
        norm = math.hypot(dx, dy)
        d = np.abs(px * dy - py * dx) / norm if norm > 0 else np.hypot(px, py)
        i = int(np.argmax(d))
        if d[i] > tol:
            m = a + 1 + i
            keep[m] = True
            stack.append((a, m))
            stack.append((m, b))
    return xs[keep], ys[keep]


PIXEL_MARKS_BELOW_PX = 1.5
"""Below this many screen pixels per cell a batch of unoutlined marks is
drawn as the pixels their centres fall in (:func:`_paint_pixels`)."""


class _Cells(NamedTuple):
    """Polygons of a batch of cells: one row of corner xs and ys a cell."""

    xs: np.ndarray[Any, Any]
    ys: np.ndarray[Any, Any]


class _Pixels(NamedTuple):
    """Scene pixels (columns, rows) marked by a batch of sub-pixel cells."""

    xs: np.ndarray[Any, Any]
    ys: np.ndarray[Any, Any]


def _paint_pixels(p: QPainter, parts: Sequence[_Pixels], colour: QColor) -> None:
    """Set the pixels of ``parts`` to ``colour`` (over what is below, as a
    fill would), as one image of their bounding box."""
    xs = np.concatenate([q.xs for q in parts])
    ys = np.concatenate([q.ys for q in parts])
    if not len(xs):
        return
    x0, y0 = int(xs.min()), int(ys.min())
    w, h = int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1
    a = colour.alpha()
    argb = (a << 24) | ((colour.red() * a // 255) << 16) | ((colour.green() * a // 255) << 8) \
        | (colour.blue() * a // 255)  # premultiplied
    buf = np.zeros((h, w), np.uint32)
    buf[ys - y0, xs - x0] = argb
    img = QImage(buf.data, w, h, w * 4, QImage.Format.Format_ARGB32_Premultiplied)
    p.drawImage(QPointF(x0, y0), img)
    del img


def _runs(cs: np.ndarray[Any, Any], rs: np.ndarray[Any, Any]
          ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Cells (columns ``cs``, rows ``rs``) as runs of consecutive columns in
    a row: first and last column, first and last row (the same) of each."""
    order = np.lexsort((cs, rs))
    c, r = cs[order], rs[order]
    start = np.ones(len(c), bool)
    start[1:] = (r[1:] != r[:-1]) | (c[1:] != c[:-1] + 1)
    first = np.flatnonzero(start)
    last = np.r_[first[1:], len(c)] - 1
    return c[first], c[last], r[first], r[first]


def overlay_change_rect(r: MapRenderer, zoom: float, origin: tuple[int, int], old: Overlay | None,
                        new: Overlay | None) -> QRect | None:
    """The viewport rectangle to repaint when overlay ``old`` becomes
    ``new`` (either None: none), map point (0, 0) being at ``origin``;
    None when nothing is painted by either.  When both have the same cached
    layer (the same ``layer_key`` and count) only the items after it count:
    the layer looks the same."""
    rect: QRect | None = None
    bounds = r.overlay_painter().bounds
    same = (old is not None and new is not None and old.layer_key is not None and old.layer_key is new.layer_key
            and old.layer_count == new.layer_count)
    for ov in (old, new):
        if ov is None:
            continue
        skip = ov.layer_count if same else 0
        memo = bounds.get((id(ov), skip))
        if memo is not None and memo[0] is ov and memo[1] == zoom:
            b = memo[2]
        else:  # the old overlay's bounds were found when it was new
            b = overlay_scene_rect(r, zoom, ov, ov.items[skip:] if skip else None)
            bounds[(id(ov), skip)] = (ov, zoom, b)
            while len(bounds) > 8:
                del bounds[next(iter(bounds))]
        if b is not None:
            rect = b if rect is None else rect.united(b)
    return None if rect is None else rect.translated(*origin)


class OverlayPainter:
    """Paints overlays for one renderer; holds its cached layer."""

    def __init__(self, r: MapRenderer) -> None:
        self.r = r
        self._layer: tuple[object, int, float, QRect, QRect, QImage | None, bool] | None = None
        """The cached layer (see :meth:`_render_layer`)."""
        self.bounds: dict[tuple[int, int], tuple[Overlay, float, QRect | None]] = {}
        """The scene bounds of the latest overlays (without their first
        items when the key's second number says how many) by identity (with
        the overlay, so an id is never taken for another's) and zoom."""
        self.layer_renders = 0
        """How many times a layer was painted (tests read it)."""

    def clear(self) -> None:
        """Forget the cached layer (the renderer's look changed)."""
        self._layer = None

    # -- whole overlays -----------------------------------------------------------

    def counter_boxes(self, zoom: float, cols: range, rows: range, shown: bool) -> dict[Cell, QRectF]:
        """The scene rectangles of the unit counters (stacks) on the cells
        ``cols`` x ``rows`` when counters are ``shown`` (empty otherwise, or
        when the renderer draws none)."""
        rects = getattr(self.r, "counter_rects", None)
        if not shown or rects is None or self.r.cell_px(zoom) < style.COUNTER_MIN_PX:
            return {}
        got: dict[Cell, QRectF] = rects(zoom, cols, rows)
        return got

    def paint(self, p: QPainter, zoom: float, ov: Overlay, scene: QRectF, cols: range, rows: range,
              counters: bool = False) -> None:
        """Paint ``ov``; ``p`` is translated to scene pixels, ``scene`` is the
        scene rectangle being painted and ``cols`` x ``rows`` the cells it
        shows (with a margin); with ``counters`` (the unit counters are
        drawn under it) the overlay keeps them readable
        (:meth:`paint_items`)."""
        items = ov.items
        n = ov.layer_count if ov.layer_key is not None else 0
        n = max(0, min(n, len(items)))
        if n:
            self._paint_layer(p, zoom, ov, n, scene, cols, rows, counters)
        self.paint_items(p, zoom, items[n:] if n else items, cols, rows, scene,
                         self.counter_boxes(zoom, cols, rows, counters))

    def _paint_layer(self, p: QPainter, zoom: float, ov: Overlay, n: int, scene: QRectF,
                     cols: range, rows: range, counters: bool = False) -> None:
        want = scene.toAlignedRect()
        c = self._layer
        if c is None or c[0] is not ov.layer_key or c[1] != n or c[2] != zoom or not c[3].contains(want) \
                or c[6] != counters:
            c = self._layer = self._render_layer(zoom, ov, n, want, counters)
        at, img = c[4], c[5]
        if img is None:  # too large to cache
            self.paint_items(p, zoom, ov.items[:n], cols, rows, scene, self.counter_boxes(zoom, cols, rows, counters))
        elif not img.isNull():
            p.drawImage(QPointF(at.x(), at.y()), img)

    def _render_layer(self, zoom: float, ov: Overlay, n: int, want: QRect, counters: bool = False
                      ) -> tuple[object, int, float, QRect, QRect, QImage | None, bool]:
        """The layer of the first ``n`` items around scene rect ``want``:
        key, count, zoom, the scene rect it is complete for, where its image
        goes and the image (empty: nothing there; None: too large)."""
        items = ov.items[:n]
        self.layer_renders += 1
        covers = want.adjusted(-LAYER_MARGIN, -LAYER_MARGIN, LAYER_MARGIN, LAYER_MARGIN)
        bounds = overlay_scene_rect(self.r, zoom, ov, items)
        area = QRect() if bounds is None else bounds.intersected(covers)
        if area.isEmpty():
            return (ov.layer_key, n, zoom, covers, area, QImage(), counters)
        if area.width() * area.height() > LAYER_MAX_PIXELS:
            return (ov.layer_key, n, zoom, QRect(), area, None, counters)
        img = QImage(area.width(), area.height(), QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        q = QPainter(img)
        q.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        q.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        q.translate(-area.x(), -area.y())
        cols, rows = self.r.cell_ranges(zoom, QRectF(area), pad=2)
        self.paint_items(q, zoom, items, cols, rows, QRectF(area), self.counter_boxes(zoom, cols, rows, counters))
        q.end()
        return (ov.layer_key, n, zoom, covers, area, img, counters)

    # -- items --------------------------------------------------------------------

    def paint_items(self, p: QPainter, zoom: float, items: Sequence[Item], cols: range, rows: range,
                    clip: QRectF | None = None, counters: Mapping[Cell, QRectF] | None = None) -> None:
        """Paint ``items`` in order; a run of cell marks is painted grouped
        by look (in the order each look first appears in the run: the marks
        of one look in one call); the marks' texts come after every item, so
        no line or marker is drawn over them; marks on cells
        outside ``cols`` x ``rows`` are skipped, and long paths drawn only
        near ``clip`` (scene pixels; the dashes as if drawn whole).

        ``counters`` (the scene rectangles of the unit counters drawn
        under the overlay, by cell) stay readable: a mark's text is left
        out on a cell with a counter (its tooltip still says it), a circle
        marker there is a ring around the counter, and a path starts and
        ends at the edge of a counter on its first or last cell."""
        boxes: Mapping[Cell, QRectF] = counters or {}
        r = self.r
        px = r.cell_px(zoom)
        square = r.layout.size if isinstance(r.layout, SquareLayout) else None
        c0, c1, r0, r1 = cols.start, cols.stop, rows.start, rows.stop
        with_text = px >= TEXT_MIN_PX
        tsize = text_size(px)
        looks: dict[tuple[str | None, str | None, float], list[Any]] = {}
        texts: list[tuple[float, float, str, str | None]] = []

        def flush() -> None:
            for (fill, outline, width), shapes in looks.items():
                p.setBrush(style.qcolor(fill) if fill else Qt.BrushStyle.NoBrush)
                p.setPen(QPen(style.qcolor(outline), width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                              Qt.PenJoinStyle.RoundJoin) if outline else Qt.PenStyle.NoPen)
                pixels = [sh for sh in shapes if isinstance(sh, _Pixels)]
                if pixels and fill:
                    _paint_pixels(p, pixels, style.qcolor(fill))
                cells = [sh for sh in shapes if isinstance(sh, _Cells)]
                singles = [sh for sh in shapes if not isinstance(sh, (_Cells, _Pixels))]
                if cells:  # the batches' cells as one path: no seam where they touch
                    p.drawPath(polygons_path(np.concatenate([c.xs for c in cells]),
                                             np.concatenate([c.ys for c in cells])))
                if square is not None and singles:
                    p.drawRects(singles)
                else:
                    for poly in singles:
                        p.drawPolygon(poly)
            looks.clear()

        for it in items:
            if isinstance(it, CellMark):
                cell = it.cell
                col, row = cell.col, cell.row
                if not (c0 <= col < c1 and r0 <= row < r1):
                    continue
                key = (it.fill, it.outline, it.width)
                shapes = looks.get(key)
                if shapes is None:
                    shapes = looks[key] = []
                if square is not None:  # QRectF keeps x, y, width, height: these are its own sums
                    x, y = col * square, row * square
                    x0, y0 = x * zoom, y * zoom
                    shapes.append(QRectF(x0, y0, (x + square) * zoom - x0, (y + square) * zoom - y0))
                else:
                    shapes.append(self._poly(cell, zoom))
                if it.text and with_text and cell not in boxes:
                    x, y = r.layout.center(cell)
                    texts.append((x * zoom, y * zoom, it.text, it.outline))
                continue
            if isinstance(it, CellMarks):
                key = (it.fill, it.outline, it.width)
                shapes = looks.get(key)
                if shapes is None:
                    shapes = looks[key] = []
                self._batch(shapes, texts if it.text and with_text else None, it, zoom, cols, rows, boxes)
                continue
            if looks:
                flush()
            if isinstance(it, PathLine):
                self._path(p, zoom, it, clip, boxes)
            elif isinstance(it, EdgeMark):
                self._edge(p, zoom, it)
            elif isinstance(it, Marker):
                self._marker(p, zoom, it, boxes.get(it.cell))
        flush()
        # the marks' texts last, over every line and marker: a march line
        # never strikes through "T/U"
        for x, y, text, outline in texts:
            self._text(p, x, y, text, tsize, style.qcolor(outline or "#111111"))

    def _batch(self, shapes: list[Any], texts: list[tuple[float, float, str, str | None]] | None, it: CellMarks,
               zoom: float, cols: range, rows: range, boxes: Mapping[Cell, QRectF] | None = None) -> None:
        """Add the shapes (and texts) of ``it``'s cells in view to a run."""
        n = len(it.cells)
        if n == 0:
            return
        cs, rs = cell_arrays(it.cells)
        inside = (cs >= cols.start) & (cs < cols.stop) & (rs >= rows.start) & (rs < rows.stop)
        if not inside.all():
            cs, rs = cs[inside], rs[inside]
        if len(cs) == 0:
            return
        r = self.r
        if it.outline is None and r.cell_px(zoom) < PIXEL_MARKS_BELOW_PX:
            # cells smaller than a pixel and a half: each marks the pixel its
            # centre falls in (a march across a big map marks well over a
            # thousand; as polygons that cost more than the rest of a hover)
            cx, cy = r.centers(cs, rs)
            shapes.append(_Pixels(np.floor(np.asarray(cx, np.float64) * zoom).astype(np.int64),
                                  np.floor(np.asarray(cy, np.float64) * zoom).astype(np.int64)))
        elif isinstance(r.layout, SquareLayout):  # the same sums as a CellMark's rectangle
            size = r.layout.size
            if it.outline is None and len(cs) > 1:  # unoutlined: a run of cells is one rectangle
                a0, a1, b0, b1 = _runs(cs, rs)
                if len(a0) > len(cs) // 2:  # across the rows, or down the columns: fewer rectangles
                    d0, d1, e0, e1 = _runs(rs, cs)
                    if len(d0) < len(a0):
                        a0, a1, b0, b1 = e0, e1, d0, d1
            else:
                a0, a1, b0, b1 = cs, cs, rs, rs
            x, y = a0 * size, b0 * size
            x0, y0 = x * zoom, y * zoom
            x1, y1 = (a1 * size + size) * zoom, (b1 * size + size) * zoom
            shapes.append(_Cells(np.stack([x0, x1, x1, x0], axis=1), np.stack([y0, y0, y1, y1], axis=1)))
        else:  # the corners of every cell at once (arrays, drawn as one path)
            cx, cy = r.centers(cs, rs)
            off = r.corner_offsets
            shapes.append(_Cells((np.asarray(cx, np.float64)[:, None] + off[None, :, 0]) * zoom,
                                 (np.asarray(cy, np.float64)[:, None] + off[None, :, 1]) * zoom))
        if texts is not None and it.text:
            if boxes:
                free = np.array([Cell(c_, r_) not in boxes for c_, r_ in zip(cs.tolist(), rs.tolist(), strict=True)],
                                bool)
                cs, rs = cs[free], rs[free]
            xs, ys = r.centers(cs, rs)
            texts.extend((x_ * zoom, y_ * zoom, it.text, it.outline)
                         for x_, y_ in zip(np.asarray(xs).tolist(), np.asarray(ys).tolist(), strict=True))

    def _poly(self, cell: Cell, zoom: float) -> QPolygonF:
        return QPolygonF([QPointF(x * zoom, y * zoom) for x, y in self.r.layout.corners(cell)])

    def _text(self, p: QPainter, x: float, y: float, text: str, size: int, colour: QColor) -> None:
        img, cx, cy = halo_sprite(text, size, colour)
        p.drawImage(QPointF(round(x - cx), round(y - cy)), img)

    def _path(self, p: QPainter, zoom: float, it: PathLine, clip: QRectF | None = None,
              boxes: Mapping[Cell, QRectF] | None = None) -> None:
        cells = it.cells
        if len(cells) < 2:
            return
        if len(cells) <= 16:
            lay = self.r.layout
            runs = [(QPolygonF([QPointF(x * zoom, y * zoom) for x, y in (lay.center(c) for c in cells)]), 0.0)]
        else:
            runs = self._long_path(cells, zoom, clip, it.width + 6.0)
        if boxes and runs:
            pad = it.width / 2 + 2.0
            first, last = boxes.get(cells[0]), boxes.get(cells[-1])
            if first is not None:
                poly, before = runs[0]
                runs[0] = (_from_edge(poly, first.adjusted(-pad, -pad, pad, pad)), before)
            if last is not None:
                poly, before = runs[-1]
                back = _from_edge(QPolygonF(list(reversed([poly.at(i) for i in range(poly.size())]))),
                                  last.adjusted(-pad, -pad, pad, pad))
                runs[-1] = (QPolygonF(list(reversed([back.at(i) for i in range(back.size())]))), before)
            runs = [(poly, before) for poly, before in runs if poly.size() >= 2]
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor(255, 255, 255, 170), it.width + 2.5, Qt.PenStyle.SolidLine,
                      Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        for poly, _ in runs:
            p.drawPolyline(poly)
        pen = QPen(style.qcolor(it.color), it.width, Qt.PenStyle.DashLine if it.dashed else Qt.PenStyle.SolidLine,
                   Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
        for poly, before in runs:
            if it.dashed:  # the dashes of a part go on from where the whole path's would be
                pen.setDashOffset(before / it.width)
            p.setPen(pen)
            p.drawPolyline(poly)

    def _long_path(self, cells: Sequence[Cell], zoom: float, clip: QRectF | None, margin: float
                   ) -> list[tuple[QPolygonF, float]]:
        """The polyline through ``cells``' centres without the points where
        it goes straight on (a march across the map has hundreds: the pen's
        dashes and joins come out the same, at a fraction of the cost); where
        cells are smaller than ``SIMPLIFY_BELOW_PX``, also without the
        points less than ``SIMPLIFY_TOLERANCE`` pixels off the line through
        their neighbours kept (a staircase of sub-pixel steps drawn as the
        line it looks like; the pen's cost grows with its points).  With
        ``clip`` (scene pixels) only its parts within ``margin`` of it, each
        with the length of the path before it (for the dashes' offset)."""
        n = len(cells)
        cols, rows = cell_arrays(cells)
        xs, ys = self.r.centers(cols, rows)
        xs = np.asarray(xs, np.float64) * zoom
        ys = np.asarray(ys, np.float64) * zoom
        dx, dy = np.diff(xs), np.diff(ys)
        keep = np.ones(n, bool)
        turn = np.abs(dx[:-1] * dy[1:] - dy[:-1] * dx[1:]) > 1e-9 * (np.hypot(dx[:-1], dy[:-1]) + 1e-12) \
            * (np.hypot(dx[1:], dy[1:]) + 1e-12)
        back = dx[:-1] * dx[1:] + dy[:-1] * dy[1:] <= 0  # a reversal or a repeated cell is kept
        keep[1:-1] = turn | back
        xs, ys = xs[keep], ys[keep]
        if len(xs) > 16 and self.r.cell_px(zoom) < SIMPLIFY_BELOW_PX:
            xs, ys = _simplified(xs, ys, SIMPLIFY_TOLERANCE)
        spans = [(0, len(xs) - 1)]
        if clip is not None and len(xs) > 2:
            seen = ((np.maximum(xs[:-1], xs[1:]) >= clip.left() - margin)
                    & (np.minimum(xs[:-1], xs[1:]) <= clip.right() + margin)
                    & (np.maximum(ys[:-1], ys[1:]) >= clip.top() - margin)
                    & (np.minimum(ys[:-1], ys[1:]) <= clip.bottom() + margin))
            if not seen.all():
                idx = np.flatnonzero(seen)
                if len(idx) == 0:
                    return []
                cut = np.flatnonzero(np.diff(idx) > 1)
                firsts = np.r_[idx[0], idx[cut + 1]]
                lasts = np.r_[idx[cut], idx[-1]]
                spans = list(zip(firsts.tolist(), (lasts + 1).tolist(), strict=True))
        if len(spans) == 1 and spans[0] == (0, len(xs) - 1):
            return [(QPolygonF([QPointF(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]), 0.0)]
        before = np.r_[0.0, np.cumsum(np.hypot(np.diff(xs), np.diff(ys)))]
        return [(QPolygonF([QPointF(x, y) for x, y in zip(xs[a:b + 1].tolist(), ys[a:b + 1].tolist(), strict=True)]),
                 float(before[a])) for a, b in spans]

    def _edge(self, p: QPainter, zoom: float, it: EdgeMark) -> None:
        lay = self.r.layout
        try:
            a, b = lay.edge_segment(it.edge)
        except ValueError:
            a, b = lay.center(it.edge.a), lay.center(it.edge.b)
        p.setPen(QPen(style.qcolor(it.color), it.width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(a[0] * zoom, a[1] * zoom), QPointF(b[0] * zoom, b[1] * zoom))

    def _marker(self, p: QPainter, zoom: float, it: Marker, box: QRectF | None = None) -> None:
        x, y = self.r.layout.center(it.cell)
        c = QPointF(x * zoom, y * zoom)
        r = max(3.0, it.size * self.r.cell_px(zoom) / 2)
        colour = style.qcolor(it.color)
        if box is not None and it.shape == "circle":  # a ring around the counter, which stays readable
            ring = math.hypot(box.width(), box.height()) / 2 + 2.5
            w = max(2.5, min(5.0, ring * 0.12))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(QColor(20, 20, 20, 220), w + 2))
            p.drawEllipse(box.center(), ring + w / 2, ring + w / 2)
            p.setPen(QPen(colour, w))
            p.drawEllipse(box.center(), ring + w / 2, ring + w / 2)
            if it.text:
                self._text(p, c.x(), box.center().y() + ring + w + 7, it.text, int(min(16, max(8, r * 0.9))),
                           QColor("#111111"))
            return
        p.setPen(QPen(QColor(20, 20, 20, 220), max(1.0, r * 0.12), Qt.PenStyle.SolidLine,
                      Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        p.setBrush(colour)
        if it.shape == "circle":
            p.drawEllipse(c, r, r)
        elif it.shape == "square":
            p.drawRect(QRectF(c.x() - r * 0.85, c.y() - r * 0.85, r * 1.7, r * 1.7))
        elif it.shape == "diamond":
            p.drawPolygon(QPolygonF([QPointF(c.x(), c.y() - r), QPointF(c.x() + r, c.y()),
                                     QPointF(c.x(), c.y() + r), QPointF(c.x() - r, c.y())]))
        elif it.shape == "star":
            pts = []
            for i in range(10):
                rad = r if i % 2 == 0 else r * 0.45
                a = math.radians(-90 + 36 * i)
                pts.append(QPointF(c.x() + rad * math.cos(a), c.y() + rad * math.sin(a)))
            p.drawPolygon(QPolygonF(pts))
        else:  # cross
            w = max(2.0, r * 0.35)
            d = r * 0.8
            segs = [QLineF(c.x() - d, c.y() - d, c.x() + d, c.y() + d),
                    QLineF(c.x() - d, c.y() + d, c.x() + d, c.y() - d)]
            p.setPen(QPen(QColor(20, 20, 20, 220), w + 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLines(segs)
            p.setPen(QPen(colour, w, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLines(segs)
        if it.text:
            self._text(p, c.x(), c.y() + r + 7, it.text, int(min(16, max(8, r * 0.9))), QColor("#111111"))


def _from_edge(poly: QPolygonF, box: QRectF) -> QPolygonF:
    """``poly`` starting where it leaves ``box`` (its points inside the
    box dropped, the first segment cut at the box's edge); as it is when
    it does not start inside the box, empty when it never leaves it."""
    pts = [poly.at(i) for i in range(poly.size())]
    if not pts or not box.contains(pts[0]):
        return poly
    i = 0
    while i < len(pts) and box.contains(pts[i]):
        i += 1
    if i == len(pts):
        return QPolygonF()
    a, b = pts[i - 1], pts[i]
    dx, dy = b.x() - a.x(), b.y() - a.y()
    t = 1.0
    if dx > 0:
        t = min(t, (box.right() - a.x()) / dx)
    elif dx < 0:
        t = min(t, (box.left() - a.x()) / dx)
    if dy > 0:
        t = min(t, (box.bottom() - a.y()) / dy)
    elif dy < 0:
        t = min(t, (box.top() - a.y()) / dy)
    return QPolygonF([QPointF(a.x() + dx * t, a.y() + dy * t), *pts[i:]])


__all__ = ["OverlayPainter", "halo_sprite", "overlay_change_rect", "overlay_scene_rect", "text_size"]
