"""The renderer's top pass: places, unit counters, the selected unit and
overlays, painted fresh every frame over the cached base pass.

:class:`TopPass` is a mixin of :class:`~app.gui.render.base.MapRenderer`
(which sets the attributes annotated below); it is kept apart so each file
stays readable: the base pass (raster and static vectors) lives in
:mod:`app.gui.render.base`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QPen, QPolygonF

from app.gui.overlay import CellMark, EdgeMark, Marker, Overlay, PathLine
from engine.grids import Cell, Layout, SquareLayout
from engine.model import Scenario, Unit

from . import style
from .spent import SPENT_OPACITY, spent_units


class TopPass:
    """Places, counters, selection and overlays; see the module docstring.

    Besides the attributes annotated here it uses three methods of
    :class:`~app.gui.render.base.MapRenderer`: ``cell_px(zoom)``,
    ``cell_ranges(zoom, rect, pad)`` and ``_pt(xy, zoom)``.
    """

    scenario: Scenario
    layout: Layout
    extent: float
    _sprites: OrderedDict[tuple[Any, ...], QImage]

    if TYPE_CHECKING:  # provided by MapRenderer, which mixes this class in
        def cell_px(self, zoom: float) -> float: ...
        def cell_ranges(self, zoom: float, rect: QRect | QRectF, pad: int = 1) -> tuple[range, range]: ...
        def _pt(self, xy: tuple[float, float], zoom: float) -> QPointF: ...
    def paint_top(self, p: QPainter, zoom: float, ox: float, oy: float, visible: QRectF,
                  layers: frozenset[str], selected: str | None = None,
                  overlays: Sequence[Overlay] = ()) -> None:
        """Paint places, units, the selected unit and overlays; map point
        ``(x, y)`` lands on target point ``(ox + x * zoom, oy + y * zoom)``;
        ``visible`` is the target rectangle that needs painting."""
        scene = QRectF(visible.x() - ox, visible.y() - oy, visible.width(), visible.height())
        cols, rows = self.cell_ranges(zoom, scene, pad=2)
        p.save()
        p.translate(ox, oy)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        px = self.cell_px(zoom)
        if "places" in layers and self.scenario.map.places:
            self._paint_place_symbols(p, zoom, cols, rows)
        # names under counters: where a zoomed-out cell is smaller than its
        # place's name, the name would hide the units standing there
        if "places" in layers and self.scenario.map.places and px >= style.PLACE_NAME_MIN_PX:
            self._paint_place_names(p, zoom, cols, rows)
        if "units" in layers and px >= style.COUNTER_MIN_PX:
            self._paint_units(p, zoom, cols, rows, selected)
        for ov in overlays:
            self._paint_overlay(p, zoom, ov)
        p.restore()

    def _places_in(self, cols: range, rows: range) -> list[tuple[Cell, Any]]:
        c0, c1, r0, r1 = cols.start, cols.stop, rows.start, rows.stop
        return [(c, pl) for c, pl in self.scenario.map.places.items() if c0 <= c.col < c1 and r0 <= c.row < r1]

    def _paint_place_symbols(self, p: QPainter, zoom: float, cols: range, rows: range) -> None:
        px = self.cell_px(zoom)
        r = max(2.0, 0.1 * px)
        p.setPen(QPen(style.PLACE_DOT, max(1.0, 0.03 * px)))
        for cell, place in self._places_in(cols, rows):
            x, y = self.layout.center(cell)
            c = QPointF(x * zoom, y * zoom)
            if place.code and px >= style.PLACE_NAME_MIN_PX:
                rr = max(4.0, 0.2 * px)
                p.setBrush(QColor("#fdfbf3"))
                p.drawEllipse(c, rr, rr)
                font = QFont()
                font.setPixelSize(max(6, int(rr * 1.25)))
                font.setBold(True)
                p.setFont(font)
                p.drawText(QRectF(c.x() - rr, c.y() - rr, 2 * rr, 2 * rr), Qt.AlignmentFlag.AlignCenter, place.code)
            else:
                p.setBrush(QColor("#fdfbf3") if px >= style.PLACE_NAME_MIN_PX else style.PLACE_DOT)
                p.drawEllipse(c, r, r)

    def _paint_place_names(self, p: QPainter, zoom: float, cols: range, rows: range) -> None:
        px = self.cell_px(zoom)
        size = int(min(15, max(9, px * 0.2)))
        for cell, place in self._places_in(cols, rows):
            img = self._text_sprite(place.name, size)
            x, y = self.layout.center(cell)
            tx = x * zoom - img.width() / 2
            ty = y * zoom + 0.5 * self.extent * zoom - img.height() * 0.85
            p.drawImage(QPointF(round(tx), round(ty)), img)

    def _cache(self, key: tuple[Any, ...], make: Any) -> QImage:
        img = self._sprites.get(key)
        if img is None:
            img = make()
            self._sprites[key] = img
            if len(self._sprites) > 4000:
                self._sprites.popitem(last=False)
        else:
            self._sprites.move_to_end(key)
        return img

    def _text_sprite(self, text: str, size: int) -> QImage:
        def make() -> QImage:
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
            q.strokePath(path, QPen(style.PLACE_HALO, 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                                    Qt.PenJoinStyle.RoundJoin))
            q.fillPath(path, style.PLACE_TEXT)
            q.end()
            return img
        return self._cache(("text", text, size), make)

    def counter_size(self, zoom: float) -> float:
        return 0.66 * self.cell_px(zoom)

    def _paint_units(self, p: QPainter, zoom: float, cols: range, rows: range, selected: str | None) -> None:
        size = self.counter_size(zoom)
        isize = max(3, round(size))
        # group only the units in view (a big scenario has thousands elsewhere)
        c0, c1, r0, r1 = cols.start, cols.stop, rows.start, rows.stop
        stacks: dict[Cell, list[Unit]] = {}
        for u in self.scenario.units:
            at = u.at
            if c0 <= at.col < c1 and r0 <= at.row < r1:
                stacks.setdefault(at, []).append(u)
        sel_rect: QRectF | None = None
        spent = spent_units(self.scenario)
        for cell, units in stacks.items():
            top = units[0]
            if selected is not None:
                for u in units:
                    if u.id == selected:
                        top = u
                        break
            img = self.counter_sprite(top, len(units), isize)
            x, y = self.layout.center(cell)
            tx, ty = round(x * zoom - isize / 2), round(y * zoom - isize / 2)
            if top.id in spent:  # acted this turn: dimmed (docs/editor.md, "Turns and the journal")
                p.setOpacity(SPENT_OPACITY)
            p.drawImage(QPointF(tx, ty - (img.height() - isize)), img)
            if top.id in spent:
                p.setOpacity(1.0)
            if top.id == selected:
                sel_rect = QRectF(tx, ty, isize, isize)
        if sel_rect is not None:
            w = max(2.0, isize * 0.08)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(style.SELECTION_DARK, w + 2))
            p.drawRoundedRect(sel_rect.adjusted(-w, -w, w, w), w * 1.5, w * 1.5)
            p.setPen(QPen(style.SELECTION, w))
            p.drawRoundedRect(sel_rect.adjusted(-w, -w, w, w), w * 1.5, w * 1.5)

    def counter_sprite(self, unit: Unit, stack: int, size: int) -> QImage:
        """A counter image: side colour, id, type symbol, strength, and how
        many units share the cell.  Cached per look and size."""
        try:
            side = self.scenario.side(unit.side)
            colour = style.side_color(self.scenario.sides, self.scenario.sides.index(side)).name()
        except ValueError:
            colour = "#9a9a9a"
        key = ("unit", colour, unit.id, unit.type, unit.strength, min(stack, 99), size)

        def make() -> QImage:
            return _draw_counter(colour, unit, stack, size)
        return self._cache(key, make)

    # -- overlays --------------------------------------------------------

    def _poly(self, cell: Cell, zoom: float) -> QPolygonF:
        return QPolygonF([QPointF(x * zoom, y * zoom) for x, y in self.layout.corners(cell)])

    def _paint_overlay(self, p: QPainter, zoom: float, ov: Overlay) -> None:
        px = self.cell_px(zoom)
        # a march checks hundreds of squares: per cell mark only the shape is
        # drawn; colours and pens are made once per look and set only when
        # the look changes; on a square grid the cell is drawn as a rectangle
        # through the same corner points (Qt paints the same pixels as the
        # polygon, at less than half the cost)
        square = self.layout.size if isinstance(self.layout, SquareLayout) else None
        looks: dict[tuple[str | None, str | None, float], tuple[Any, Any]] = {}
        look: tuple[str | None, str | None, float] | None = None
        for it in ov.items:
            if isinstance(it, CellMark):
                key = (it.fill, it.outline, it.width)
                if key != look:
                    made = looks.get(key)
                    if made is None:
                        made = looks[key] = (
                            style.qcolor(it.fill) if it.fill else Qt.BrushStyle.NoBrush,
                            QPen(style.qcolor(it.outline), it.width, Qt.PenStyle.SolidLine,
                                 Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
                            if it.outline else Qt.PenStyle.NoPen)
                    p.setBrush(made[0])
                    p.setPen(made[1])
                    look = key
                if square is not None:  # QRectF keeps x, y, width, height: these are its own sums
                    x, y = it.cell.col * square, it.cell.row * square
                    x0, y0 = x * zoom, y * zoom
                    p.drawRect(QRectF(x0, y0, (x + square) * zoom - x0, (y + square) * zoom - y0))
                else:
                    p.drawPolygon(self._poly(it.cell, zoom))
                if it.text and px >= 12:
                    x, y = self.layout.center(it.cell)
                    self._halo_text(p, QPointF(x * zoom, y * zoom), it.text, int(min(18, max(8, px * 0.28))),
                                    style.qcolor(it.outline or "#111111"))
                    look = None  # the text set its own pen and brush
                continue
            look = None
            if isinstance(it, PathLine):
                if len(it.cells) < 2:
                    continue
                poly = QPolygonF([self._pt(self.layout.center(c), zoom) for c in it.cells])
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(QPen(QColor(255, 255, 255, 170), it.width + 2.5, Qt.PenStyle.SolidLine,
                              Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
                p.drawPolyline(poly)
                pen = QPen(style.qcolor(it.color), it.width, Qt.PenStyle.DashLine if it.dashed else Qt.PenStyle.SolidLine,
                           Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
                p.setPen(pen)
                p.drawPolyline(poly)
            elif isinstance(it, EdgeMark):
                try:
                    a, b = self.layout.edge_segment(it.edge)
                except ValueError:
                    a, b = self.layout.center(it.edge.a), self.layout.center(it.edge.b)
                p.setPen(QPen(style.qcolor(it.color), it.width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
                p.drawLine(self._pt(a, zoom), self._pt(b, zoom))
            elif isinstance(it, Marker):
                self._paint_marker(p, zoom, it)

    def _paint_marker(self, p: QPainter, zoom: float, it: Marker) -> None:
        x, y = self.layout.center(it.cell)
        c = QPointF(x * zoom, y * zoom)
        r = max(3.0, it.size * self.cell_px(zoom) / 2)
        colour = style.qcolor(it.color)
        outline = QPen(QColor(20, 20, 20, 220), max(1.0, r * 0.12), Qt.PenStyle.SolidLine,
                       Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
        p.setPen(outline)
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
            segs = [QLineF(c.x() - d, c.y() - d, c.x() + d, c.y() + d), QLineF(c.x() - d, c.y() + d, c.x() + d, c.y() - d)]
            p.setPen(QPen(QColor(20, 20, 20, 220), w + 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLines(segs)
            p.setPen(QPen(colour, w, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLines(segs)
        if it.text:
            self._halo_text(p, QPointF(c.x(), c.y() + r + 7), it.text, int(min(16, max(8, r * 0.9))), QColor("#111111"))

    def _halo_text(self, p: QPainter, at: QPointF, text: str, size: int, colour: QColor) -> None:
        # the glyph outlines of a text are laid out once per text and size
        # (a march writes the same "T/U" and "U" on hundreds of squares)
        shaped = _HALO_PATHS.get((text, size))
        if shaped is None:
            font = QFont()
            font.setPixelSize(size)
            font.setBold(True)
            shaped = QPainterPath()
            shaped.addText(0, 0, font, text)
            if len(_HALO_PATHS) >= 256:
                _HALO_PATHS.clear()
            _HALO_PATHS[(text, size)] = shaped
        br = shaped.boundingRect()
        path = shaped.translated(at.x() - br.center().x(), at.y() - br.center().y())
        p.strokePath(path, QPen(QColor(255, 255, 255, 220), 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                                Qt.PenJoinStyle.RoundJoin))
        p.fillPath(path, colour)


_HALO_PATHS: dict[tuple[str, int], QPainterPath] = {}
"""Text outlines by text and pixel size, for :meth:`TopPass._halo_text`."""


# ---------------------------------------------------------------------------
# counters

def _draw_counter(colour: str, unit: Unit, stack: int, size: int) -> QImage:
    """Draw one counter image (with stack shadows above/right of it)."""
    fill = style.qcolor(colour)
    ink = style.ink_on(fill)
    shadows = min(stack - 1, 2) if size >= 8 else 0
    off = max(2, size // 12)
    w = size + shadows * off + 1
    img = QImage(w, w, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    radius = max(1.0, size * 0.1)
    border = QPen(fill.darker(190), max(1.0, size / 28))
    base_y = w - size - 1  # counters are drawn bottom-left aligned, shadows go up and right
    for i in range(shadows, 0, -1):
        p.setPen(border)
        p.setBrush(fill.darker(125))
        p.drawRoundedRect(QRectF(i * off + 0.5, base_y - i * off + 0.5, size - 1, size - 1), radius, radius)
    body = QRectF(0.5, base_y + 0.5, size - 1, size - 1)
    p.setPen(border)
    p.setBrush(fill)
    p.drawRoundedRect(body, radius, radius)
    if size >= style.COUNTER_TEXT_MIN_PX:
        p.setPen(ink)
        small = QFont()
        small.setPixelSize(max(6, int(size * 0.19)))
        p.setFont(small)
        top = QRectF(body.x() + 2, body.y() + size * 0.03, size - 4, size * 0.24)
        p.drawText(top, Qt.AlignmentFlag.AlignCenter,
                   p.fontMetrics().elidedText(unit.id, Qt.TextElideMode.ElideRight, int(top.width())))
        _type_symbol(p, QRectF(body.x() + size * 0.24, body.y() + size * 0.3, size * 0.52, size * 0.3), unit.type, ink)
        big = QFont()
        big.setPixelSize(max(7, int(size * 0.3)))
        big.setBold(True)
        p.setFont(big)
        p.setPen(ink)
        p.drawText(QRectF(body.x(), body.y() + size * 0.6, size, size * 0.38), Qt.AlignmentFlag.AlignCenter,
                   str(unit.strength))
    if stack > 1 and size >= 10:
        r = max(5.0, size * 0.17)
        cx, cy = body.right() - r * 0.55, body.top() + r * 0.55
        p.setPen(QPen(QColor("#ffffff"), max(1.0, r * 0.15)))
        p.setBrush(QColor("#c0392b"))
        p.drawEllipse(QPointF(cx, cy), r, r)
        f = QFont()
        f.setPixelSize(max(6, int(r * 1.2)))
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor("#ffffff"))
        p.drawText(QRectF(cx - r, cy - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, str(stack))
    p.end()
    return img


def _type_symbol(p: QPainter, box: QRectF, unit_type: str, ink: QColor) -> None:
    """A NATO-style unit-type box: infantry X, cavalry slash, artillery dot;
    other types print a short abbreviation."""
    p.setPen(QPen(ink, max(1.0, box.height() / 10)))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(box)
    t = unit_type.casefold()
    if t.startswith("inf"):
        p.drawLine(box.topLeft(), box.bottomRight())
        p.drawLine(box.bottomLeft(), box.topRight())
    elif t.startswith("cav"):
        p.drawLine(box.bottomLeft(), box.topRight())
    elif t.startswith("art"):
        p.setBrush(ink)
        r = box.height() * 0.2
        p.drawEllipse(box.center(), r, r)
    else:
        f = QFont()
        f.setPixelSize(max(5, int(box.height() * 0.62)))
        f.setBold(True)
        p.setFont(f)
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, unit_type[:3].upper())
