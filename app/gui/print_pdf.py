"""Print a map to PDF at exact scale: behind
``adjutant print`` and File > Print / Export PDF (both windows).

The page plan (which window of the map each sheet prints, the joins, the
registration crosses) is :mod:`engine.printing`; this module draws it with
``QPdfWriter`` and the editor's own painters: the cells as filled polygons
with their outlines (:meth:`MapRenderer.paint_base_vector`), rivers, roads,
rail, bridges and control borders as strokes (:meth:`MapRenderer.paint_vectors`),
then places and unit counters (:meth:`MapRenderer.paint_top`; the counters
and place names are the editor's sprites, embedded as images drawn at the
print size).  Each page gets registration crosses on its joins, cut ticks in
its margins where a join runs, and a label naming the page, the scale and
"print at 100 %".  A territory map prints at a chosen width of the whole
map, drawn by the territory editor's renderer (:func:`territory_pdf_bytes`:
territories, borders, rail, names and counters as the territory editor
shows them).  The PDF is made in memory and written through the one
safe writer (:func:`engine.io.write_atomic`: checked, then renamed over the
old file).  Needs a ``QGuiApplication``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPointF, QRect, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen

from engine.grids import Cell
from engine.io import OutputError, write_atomic
from engine.model import Scenario
from engine.printing import MM_PER_INCH, Page, PrintError, PrintPlan, PrintSpec, check_budget, plan, plan_territory
from engine.territory import TerritoryScenario

from .render import DEFAULT_LAYERS, renderer_for, style
from .render.base import MapRenderer

DPI = 1200
"""The PDF's device resolution: 0.02 mm a device unit."""
PAINT_DPI = 150
"""The resolution the editor's painters draw a page at (the painter scales
it to :data:`DPI`): their text sizes and sprites are made for screen pixels,
so at 150 a inch a place name the editor draws 15 px high prints 2.5 mm
high, and a counter sprite is sharp at reading distance.  Vectors stay
vectors at any scale."""
GRID_MM = 0.15
"""Width of the printed grid lines."""
REGISTRATION = QColor(230, 0, 126)
"""The registration crosses' colour (a process magenta, found in no terrain
palette of the samples)."""
MARK_MM = 2.5
"""Half the span of a registration cross."""


def plan_for(scenario: Scenario | TerritoryScenario, spec: PrintSpec) -> PrintPlan:
    """The page plan of ``scenario`` printed by ``spec`` (PrintError)."""
    if isinstance(scenario, TerritoryScenario):
        return plan_territory(float(scenario.map.width), float(scenario.map.height), spec)
    r = renderer_for(scenario)
    return plan(r.map_width, r.map_height, r.extent, spec)


def print_pdf(scenario: Scenario | TerritoryScenario, path: str | Path, spec: PrintSpec,
              labels: bool = False) -> PrintPlan:
    """Write ``scenario``'s map to the PDF ``path`` at ``spec``'s scale;
    returns the plan.  Raises :class:`PrintError` for a bad request or a
    file that cannot be written."""
    pp = plan_for(scenario, spec)
    if not isinstance(scenario, TerritoryScenario):
        check_budget(scenario.map.width * scenario.map.height, pp)
    if isinstance(scenario, TerritoryScenario):
        if labels:
            raise PrintError("a territory map has no cells to label: its territories' names are printed anyway")
        data = territory_pdf_bytes(scenario, pp)
    else:
        data = pdf_bytes(scenario, renderer_for(scenario), pp, labels)

    def check(f: Path) -> None:
        head = f.read_bytes()[:8]
        if not head.startswith(b"%PDF-"):
            raise ValueError("the file is not a PDF")

    try:
        write_atomic(Path(path), data, verify=check)
    except OutputError as e:
        raise PrintError(str(e)) from None
    return pp


def _pdf(title: str, pp: PrintPlan, dpi: int, draw: Callable[[QPainter, Page], None]) -> bytes:
    """A PDF of ``pp``'s pages at ``dpi`` device units an inch, each drawn
    by ``draw``."""
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    w = QPdfWriter(buf)
    w.setResolution(dpi)
    w.setTitle(title)
    w.setCreator("Adjutant")
    w.setPageLayout(QPageLayout(QPageSize(QSizeF(pp.paper_w, pp.paper_h), QPageSize.Unit.Millimeter),
                                QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    p = QPainter()
    if not p.begin(w):
        raise PrintError("could not start the PDF")
    for i, page in enumerate(pp.pages):
        if i:
            w.newPage()
        draw(p, page)
    p.end()
    buf.close()
    return bytes(buf.data().data())


def pdf_bytes(scenario: Scenario, r: MapRenderer, pp: PrintPlan, labels: bool = False) -> bytes:
    """The PDF of plan ``pp`` drawn with renderer ``r``."""
    layers = DEFAULT_LAYERS | {"labels"} if labels else DEFAULT_LAYERS - {"labels"}
    return _pdf(f"{scenario.name} at {pp.spec.cell_mm:g} mm a cell", pp, DPI,
                lambda p, page: draw_page(p, scenario, r, pp, page, layers))


def territory_pdf_bytes(scenario: TerritoryScenario, pp: PrintPlan) -> bytes:
    """The PDF of a territory map's plan ``pp``.  The territory renderer
    draws its outlines and borders with cosmetic pens (widths in device
    units, whatever the scale) and its names at pixel sizes, so the PDF's
    device unit is :data:`PAINT_DPI`'s pixel: an outline 0.8 px wide
    prints 0.14 mm, an 11 px name 1.9 mm high."""
    r = renderer_for(scenario)
    return _pdf(f"{scenario.name}, {pp.spec.width_mm:g} mm wide", pp, PAINT_DPI,
                lambda p, page: draw_territory_page(p, scenario, r, pp, page))


def draw_territory_page(p: QPainter, scenario: TerritoryScenario, r: Any, pp: PrintPlan, page: Page) -> None:
    """One sheet of a territory map: its window of the map inside the
    margins, the registration crosses, cut ticks and the page label."""
    dpmm = PAINT_DPI / MM_PER_INCH
    z = pp.mm_per_unit * dpmm  # device units per map unit
    k = pp.mm_per_unit
    region = QRectF(page.x / k, page.y / k, page.w / k, page.h / k)  # map units
    m = pp.spec.margin_mm
    area = QRectF(0, 0, page.w * dpmm, page.h * dpmm)
    p.save()
    p.translate(m * dpmm, m * dpmm)
    p.setClipRect(area)
    p.fillRect(area, style.EXPORT_BACKGROUND)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    r.paint_map(p, region, z)
    p.restore()
    _marks(p, pp, page, dpmm)
    _label(p, scenario.name, f"the map {pp.spec.width_mm:g} mm wide ({pp.mm_per_unit:.4g} mm a map unit)",
           pp, page, dpmm)


def draw_page(p: QPainter, scenario: Scenario, r: MapRenderer, pp: PrintPlan, page: Page,
              layers: frozenset[str]) -> None:
    """One sheet: its window of the map inside the margins, the
    registration crosses, cut ticks and the page label."""
    dpmm = DPI / MM_PER_INCH
    k = DPI / PAINT_DPI  # device units per painted pixel
    ppmm = dpmm / k  # painted pixels per mm
    zoom = pp.mm_per_unit * ppmm  # painted pixels per layout unit
    m = pp.spec.margin_mm
    area = QRect(0, 0, round(page.w * ppmm), round(page.h * ppmm))
    p.save()
    p.translate(m * dpmm, m * dpmm)
    p.scale(k, k)
    p.setClipRect(area)
    p.fillRect(area, style.EXPORT_BACKGROUND)
    ox, oy = -page.x * ppmm, -page.y * ppmm
    p.save()
    p.translate(ox, oy)
    scene = QRect(round(page.x * ppmm), round(page.y * ppmm), area.width(), area.height())
    r.paint_base_vector(p, zoom, scene, layers, GRID_MM * ppmm)
    p.restore()
    r.paint_top(p, zoom, round(ox), round(oy), QRectF(area), layers, None, [])
    p.restore()
    _marks(p, pp, page, dpmm)
    kind = "hex width across flats" if scenario.map.grid.kind.value == "hex" else "square side"
    _label(p, scenario.name, f"{pp.spec.cell_mm:g} mm {kind}", pp, page, dpmm)
    if pp.spec.coordinates:
        _coordinates(p, scenario, r, pp, page, dpmm)


def _edge_cells(scenario: Scenario, r: MapRenderer, pp: PrintPlan, page: Page
                ) -> tuple[list[tuple[float, Cell]], list[tuple[float, Cell]]]:
    """The cells whose centres print on ``page``: for each column the
    topmost (with its centre's x, map mm), for each row the leftmost (with
    its centre's y)."""
    k = pp.mm_per_unit
    cols, rows = r.cell_ranges(k, QRectF(page.x, page.y, page.w, page.h), pad=1)
    top: dict[int, tuple[float, float, Cell]] = {}
    left: dict[int, tuple[float, float, Cell]] = {}
    for row in rows:
        for col in cols:
            cell = Cell(col, row)
            x, y = (v * k for v in r.layout.center(cell))
            if not (page.x <= x <= page.x + page.w and page.y <= y <= page.y + page.h):
                continue
            if col not in top or y < top[col][1]:
                top[col] = (x, y, cell)
            if row not in left or x < left[row][0]:
                left[row] = (x, y, cell)
    return ([(x, c) for x, _, c in sorted(top.values(), key=lambda t: t[0])],
            [(y, c) for _, y, c in sorted(left.values(), key=lambda t: t[1])])


def _coordinates(p: QPainter, scenario: Scenario, r: MapRenderer, pp: PrintPlan, page: Page, dpmm: float) -> None:
    """The coordinate margin: the label of the topmost cell of each column
    above the map, of the leftmost cell of each row left of it (a label
    that would touch the one before it is left out)."""
    top, left = _edge_cells(scenario, r, pp, page)
    m = pp.spec.margin_mm
    p.save()
    f = QFont()
    f.setPixelSize(max(1, round(min(2.2, 0.3 * m) * dpmm)))
    p.setFont(f)
    p.setPen(QColor(40, 40, 40))
    fm = p.fontMetrics()
    h = fm.height()
    last = -1e9
    for x, cell in top:
        text = scenario.map.label(cell)
        tw = fm.horizontalAdvance(text)
        px = pp.paper_point(page, x, 0)[0] * dpmm - tw / 2
        if px < last + 0.5 * dpmm:
            continue
        p.drawText(QPointF(px, (m - 1.0) * dpmm - fm.descent()), text)
        last = px + tw
    last = -1e9
    for y, cell in left:
        text = scenario.map.label(cell)
        py = pp.paper_point(page, 0, y)[1] * dpmm
        if py - h / 2 < last + 0.3 * dpmm:
            continue
        tw = fm.horizontalAdvance(text)
        p.drawText(QPointF((m - 1.0) * dpmm - tw, py + (fm.ascent() - fm.descent()) / 2), text)
        last = py + h / 2
    p.restore()


def _marks(p: QPainter, pp: PrintPlan, page: Page, dpmm: float) -> None:
    """Registration crosses on the joins; cut ticks in the margins."""
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(REGISTRATION, 0.12 * dpmm))
    k = MARK_MM * dpmm
    for mx, my in page.marks():
        x, y = pp.paper_point(page, mx, my)
        c = QPointF(x * dpmm, y * dpmm)
        p.drawEllipse(c, 0.5 * k, 0.5 * k)
        p.drawLine(QPointF(c.x() - k, c.y()), QPointF(c.x() + k, c.y()))
        p.drawLine(QPointF(c.x(), c.y() - k), QPointF(c.x(), c.y() + k))
    p.setPen(QPen(QColor(0, 0, 0), 0.2 * dpmm))
    # ticks in the outer part of each margin, clear of the page label (bottom)
    # and the coordinates (top and left)
    m = pp.spec.margin_mm
    for jx in (page.join_left, page.join_right):
        if jx is not None:
            x = pp.paper_point(page, jx, 0)[0] * dpmm
            p.drawLine(QPointF(x, 0), QPointF(x, 0.55 * m * dpmm))
            p.drawLine(QPointF(x, (pp.paper_h - 0.45 * m) * dpmm), QPointF(x, pp.paper_h * dpmm))
    for jy in (page.join_top, page.join_bottom):
        if jy is not None:
            y = pp.paper_point(page, 0, jy)[1] * dpmm
            p.drawLine(QPointF(0, y), QPointF(0.2 * m * dpmm, y))
            p.drawLine(QPointF((pp.paper_w - 0.45 * m) * dpmm, y), QPointF(pp.paper_w * dpmm, y))
    p.restore()


def _label(p: QPainter, name: str, scale: str, pp: PrintPlan, page: Page, dpmm: float) -> None:
    """The page label in the bottom margin: the map's ``name``, the page,
    the ``scale`` and how to print and join."""
    text = (f"{name} — page {page.label} (row {page.row + 1} of {pp.rows}, column {page.col + 1} of "
            f"{pp.cols}) — {scale} — print at 100 %, cut on the ticks, match the crosses")
    p.save()
    f = QFont()
    f.setPixelSize(max(1, round(2.4 * dpmm)))
    p.setFont(f)
    p.setPen(QColor(60, 60, 60))
    m = pp.spec.margin_mm
    box = QRectF(m * dpmm, (pp.paper_h - m + 1.5) * dpmm, (pp.paper_w - 2 * m) * dpmm, (m - 2) * dpmm)
    p.drawText(box, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap), text)
    p.restore()


__all__ = ["DPI", "PAINT_DPI", "plan_for", "print_pdf"]
