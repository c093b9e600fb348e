"""The renderer's top pass: places, unit counters, the selected unit and
overlays, painted fresh every frame over the cached base pass (the overlays
through :class:`~app.gui.render.marks.OverlayPainter`, which batches their
marks and caches the part that does not follow the mouse).

:class:`TopPass` is a mixin of :class:`~app.gui.render.base.MapRenderer`
(which sets the attributes annotated below); it is kept apart so each file
stays readable: the base pass (raster and static vectors) lives in
:mod:`app.gui.render.base`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

from app.gui.overlay import Overlay
from engine.grids import Cell, Layout
from engine.model import Scenario, Unit

from . import style
from .marks import OverlayPainter, halo_sprite
from .spent import SPENT_OPACITY, spent_units


class RectBuckets:
    """Rectangles filed in square buckets of ``size`` pixels, so that how
    many of them meet a rectangle costs the few in its neighbourhood, not
    every one filed (placing the names of a big map meets each against the
    names placed before it: quadratic with a plain list)."""

    def __init__(self, size: float, rects: Iterable[QRectF] = ()) -> None:
        self.size = size
        self._buckets: dict[tuple[int, int], list[QRectF]] = {}
        for r in rects:
            self.add(r)

    def _keys(self, r: QRectF) -> Iterator[tuple[int, int]]:
        s = self.size
        for bx in range(int(r.left() // s), int(r.right() // s) + 1):
            for by in range(int(r.top() // s), int(r.bottom() // s) + 1):
                yield bx, by

    def add(self, r: QRectF) -> None:
        for k in self._keys(r):
            self._buckets.setdefault(k, []).append(r)

    def meeting(self, r: QRectF) -> int:
        """How many of the filed rectangles meet ``r``."""
        seen: set[int] = set()
        for k in self._keys(r):
            for b in self._buckets.get(k, ()):
                if id(b) not in seen and b.intersects(r):
                    seen.add(id(b))
        return len(seen)


class TopPass:
    """Places, counters, selection and overlays; see the module docstring.

    Besides the attributes annotated here it uses two methods of
    :class:`~app.gui.render.base.MapRenderer`: ``cell_px(zoom)`` and
    ``cell_ranges(zoom, rect, pad)``.
    """

    scenario: Scenario
    layout: Layout
    extent: float
    _sprites: OrderedDict[tuple[Any, ...], QImage]

    if TYPE_CHECKING:  # provided by MapRenderer, which mixes this class in
        def cell_px(self, zoom: float) -> float: ...
        def cell_ranges(self, zoom: float, rect: QRect | QRectF, pad: int = 1) -> tuple[range, range]: ...
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
        if "units" in layers and px >= style.COUNTER_MIN_PX:
            self._paint_units(p, zoom, cols, rows, selected)
        # names after the counters, each placed where no counter is
        # (place_name_rects): a counter never hides a name, a name never
        # hides a counter where there is room for it
        if "places" in layers and self.scenario.map.places and px >= style.PLACE_NAME_MIN_PX:
            self._paint_place_names(p, zoom, cols, rows, "units" in layers and px >= style.COUNTER_MIN_PX)
        if overlays:
            op = self.overlay_painter()
            for ov in overlays:
                op.paint(p, zoom, ov, scene, cols, rows, "units" in layers)
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

    def _paint_place_names(self, p: QPainter, zoom: float, cols: range, rows: range, units: bool) -> None:
        for rect, img in self.place_name_rects(zoom, cols, rows, units).values():
            p.drawImage(rect.topLeft(), img)

    def counter_rects(self, zoom: float, cols: range, rows: range) -> dict[Cell, QRectF]:
        """Scene rectangle of the counter (stack) on each cell in view."""
        isize = max(3, round(self.counter_size(zoom)))
        c0, c1, r0, r1 = cols.start, cols.stop, rows.start, rows.stop
        out: dict[Cell, QRectF] = {}
        for u in self.scenario.units:
            at = u.at
            if c0 <= at.col < c1 and r0 <= at.row < r1 and at not in out:
                x, y = self.layout.center(at)
                out[at] = QRectF(round(x * zoom - isize / 2), round(y * zoom - isize / 2), isize, isize)
        return out

    def place_name_rects(self, zoom: float, cols: range, rows: range,
                         units: bool = True) -> dict[Cell, tuple[QRectF, QImage]]:
        """Where each place name in view is drawn (scene rectangle) and its
        image.  The name goes below its place's symbol; when a counter
        (``units``: counters are drawn) would meet it there, it tries below
        the counter on its own cell, then above the cell, then to either
        side, and takes the first place that meets no counter and no name
        placed before it (lettered cities first).  Where every place meets a
        counter it takes the one meeting the fewest (the name is drawn over
        them); a name that would meet another name wherever it goes is left
        out at this zoom (zooming in makes room: text run together reads as
        nothing)."""
        px = self.cell_px(zoom)
        size = int(min(15, max(9, px * 0.2)))
        counters = self.counter_rects(zoom, range(cols.start - 2, cols.stop + 2),
                                      range(rows.start - 2, rows.stop + 2)) if units else {}
        bucket = max(32.0, 2 * px)
        boxes = RectBuckets(bucket, counters.values())
        out: dict[Cell, tuple[QRectF, QImage]] = {}
        half = 0.5 * self.extent * zoom
        placed = RectBuckets(bucket)
        for cell, place in sorted(self._places_in(cols, rows), key=lambda cp: (not cp[1].code, cp[0].row, cp[0].col)):
            img = self._text_sprite(place.name, size)
            w, h = img.width(), img.height()
            x, y = self.layout.center(cell)
            cx, cy = x * zoom, y * zoom
            own = counters.get(cell)
            tops = [cy + half - h * 0.85]
            if own is not None:
                tops.append(own.bottom() + 1)
            tops.append(cy - half - h * 0.15)  # above the cell
            # centred first, then leaning right or left of the symbol
            candidates = [QRectF(round(left), round(t), w, h) for t in tops
                          for left in (cx - w / 2, cx - 0.2 * w, cx - 0.8 * w)]
            candidates.append(QRectF(round(cx + 0.35 * half), round(cy - h / 2), w, h))
            candidates.append(QRectF(round(cx - 0.35 * half - w), round(cy - h / 2), w, h))
            costs = []
            for i, r in enumerate(candidates):  # the first that meets nothing wins: the rest are not looked at
                cost = (placed.meeting(r), 0, i)
                if not cost[0]:
                    cost = (0, boxes.meeting(r), i)
                    if not cost[1]:
                        costs = [cost]
                        break
                costs.append(cost)
            named, _, i = min(costs)
            if named:
                continue
            best = candidates[i]
            placed.add(best)
            out[cell] = (best, img)
        return out

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
        """A place name: bold text over its halo (``marks.halo_sprite``)."""
        return halo_sprite(text, size, style.PLACE_TEXT, style.PLACE_HALO)[0]

    def counter_size(self, zoom: float) -> float:
        """A counter's side: two thirds of a cell, but never less than
        :data:`~app.gui.render.style.COUNTER_LEGIBLE_PX` once cells are
        :data:`~app.gui.render.style.COUNTER_GROW_MIN_PX` or more (a counter
        that holds its strength reads at a big map's whole-map zoom; it may
        then overlap the next cell, as a counter on a paper map does)."""
        px = self.cell_px(zoom)
        if px >= style.COUNTER_GROW_MIN_PX:
            return max(0.66 * px, style.COUNTER_LEGIBLE_PX)
        return 0.66 * px

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
        many units share the cell.  Cached per look and size (units that
        look alike at ``size`` share it)."""
        try:
            side = self.scenario.side(unit.side)
            colour = style.side_color(self.scenario.sides, self.scenario.sides.index(side)).name()
        except ValueError:
            colour = "#9a9a9a"
        fortified = bool(unit.props.get("fortified"))
        # what the counter shows at this size, no more: below the text sizes
        # units of a side look alike and share one image
        named = size >= style.COUNTER_TEXT_MIN_PX
        key = ("unit", colour, unit.id if named else None, unit.type if named else None,
               unit.strength if size >= style.COUNTER_SMALL_TEXT_MIN_PX else None, min(stack, 99), size, fortified)

        def make() -> QImage:
            return _draw_counter(colour, unit, stack, size, fortified)
        return self._cache(key, make)

    # -- overlays --------------------------------------------------------

    def overlay_painter(self) -> OverlayPainter:
        """The overlay painter of this renderer (with its cached layer)."""
        op: OverlayPainter | None = self.__dict__.get("_overlay_painter")
        if op is None:
            op = self._overlay_painter = OverlayPainter(self)  # type: ignore[arg-type]
        return op


# ---------------------------------------------------------------------------
# counters

def _draw_counter(colour: str, unit: Unit, stack: int, size: int, fortified: bool = False) -> QImage:
    """Draw one counter image (with stack shadows above/right of it); a
    fortified unit (ACW: it did not move during its side's turn,
    ``docs/rules/acw.md``) has a thick dark frame with battlements on top."""
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
    elif size >= style.COUNTER_SMALL_TEXT_MIN_PX:
        # too small for the id and symbol: the strength alone, as large as fits
        # (a blank square tells nothing at the samples' whole-map zoom)
        big = QFont()
        big.setPixelSize(max(7, int(size * 0.62)))
        big.setBold(True)
        p.setFont(big)
        p.setPen(ink)
        p.drawText(body, Qt.AlignmentFlag.AlignCenter, str(unit.strength))
    if fortified:
        frame = QPen(QColor("#1b1b1b"), max(1.5, size * 0.09))
        p.setPen(frame)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(body.adjusted(1, 1, -1, -1), radius, radius)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#1b1b1b"))
        step = body.width() / 5
        for i in (0, 2, 4):  # battlements along the top edge
            p.drawRect(QRectF(body.x() + i * step, body.y(), step, max(2.0, size * 0.12)))
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
