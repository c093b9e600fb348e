"""Printing a grid map at exact scale: the page plan.

A designer playtesting prints the map at the game's hex size: "16 mm hexes"
means the width of a hex **across its flats** (the distance between the
centres of two hexes that share a side), and a square map's size is the side
of a square; both are the renderer's ``extent``, one cell across.  So a map
drawn with cells ``extent`` layout units across prints at
``cell_mm / extent`` millimetres per layout unit, whatever its orientation.

The map is tiled over pages of one paper size (portrait or landscape).  Each
page prints a window of the map inside its margins; neighbouring windows
overlap by ``overlap_mm``, and the **join** of two neighbours is the line in
the middle of their overlap: both pages draw registration crosses on it at
the same map positions, and cut ticks in the margins where it runs, so a
page cut along its join lies on its neighbour with the crosses on each
other.  Windows step by ``area - overlap``; the last window of a row or
column is cut short where the map ends.

A territory map has no cells: it prints at a chosen width of the whole
map (``PrintSpec.width_mm``, :func:`plan_territory`), so many millimetres a
map unit, tiled the same way.

Everything here is in millimetres, map millimetres (the map at print
scale, its top-left corner at 0, 0) or paper millimetres; the drawing is
``app/gui/print_pdf.py``.  See ``docs/cli.md`` (``adjutant print``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

MM_PER_INCH = 25.4
PAPERS: dict[str, tuple[float, float]] = {
    "a5": (148.0, 210.0),
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "a2": (420.0, 594.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
}
"""Paper sizes (portrait width, height in mm) by name."""
MAX_PAGES = 500
"""A plan of more pages is refused (a wrong unit, not a print job)."""
MIN_CELL_MM = 2.0
"""Cells smaller than this cannot be read or played on."""
MIN_WIDTH_MM = 20.0
"""A territory map printed narrower than this is a wrong unit, not a map."""


MAX_PRINT_CELLS = 1_000_000
"""Most cells one print draws (a 1000 x 1000 map): the work and the PDF
grow with the cells, about :data:`SECONDS_PER_CELL` and
:data:`PDF_BYTES_PER_CELL` each."""
SECONDS_PER_CELL = 35e-6
"""CPU time a printed cell costs (measured: a 4000 x 4000 map, 566 s)."""
PDF_BYTES_PER_CELL = 27
"""PDF bytes a printed cell costs (measured: a 4000 x 4000 map, 423 MB),
held in memory before the file is written."""


class PrintError(ValueError):
    """A print request that cannot be carried out, saying what is wrong."""


def paper_size(name: str) -> tuple[float, float]:
    """Portrait (width, height) in mm of a paper name (``a4``, ``letter``…,
    any case) or a custom ``WIDTHxHEIGHT`` in mm (``300x450``)."""
    key = name.strip().casefold()
    if key in PAPERS:
        return PAPERS[key]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)(?:\s*mm)?", key)
    if m:
        w, h = float(m.group(1)), float(m.group(2))
        if w < 50 or h < 50 or w > 5000 or h > 5000:
            raise PrintError(f"paper {name!r}: each side must be 50 to 5000 mm")
        return (min(w, h), max(w, h))
    raise PrintError(f"unknown paper {name!r}: use one of {', '.join(PAPERS)} or WIDTHxHEIGHT in mm (e.g. 300x450)")


@dataclass(frozen=True)
class PrintSpec:
    """What the user asks for: ``cell_mm`` (hex width across flats, or a
    square's side; a territory map gives ``width_mm`` instead), the paper,
    its orientation, the margin round each page and the overlap of
    neighbouring pages (mm), and whether the margins carry coordinates."""

    cell_mm: float
    paper: str = "a4"
    landscape: bool = False
    margin_mm: float = 10.0
    overlap_mm: float = 10.0
    coordinates: bool = False
    """Print the labels of the cells along each page's top and left edges
    in its margins (a coordinate margin)."""
    width_mm: float | None = None
    """A territory map's printed width, the whole map's (mm); ``None`` for
    a grid map, which prints at ``cell_mm``."""

    def check(self) -> None:
        if self.width_mm is not None:
            if not math.isfinite(self.width_mm) or self.width_mm < MIN_WIDTH_MM:
                raise PrintError(f"the map's printed width must be at least {MIN_WIDTH_MM:g} mm, "
                                 f"got {self.width_mm:g} mm")
            if self.coordinates:
                raise PrintError("a territory map has no cells, so no coordinates to print in the margins")
        elif not math.isfinite(self.cell_mm) or self.cell_mm < MIN_CELL_MM:
            raise PrintError(f"the cell size must be at least {MIN_CELL_MM:g} mm, got {self.cell_mm:g} mm")
        if not math.isfinite(self.margin_mm) or not 3.0 <= self.margin_mm <= 50.0:
            raise PrintError(f"the margin must be 3 to 50 mm (room for the cut marks and page label), "
                             f"got {self.margin_mm:g} mm")
        if not math.isfinite(self.overlap_mm) or self.overlap_mm < 0:
            raise PrintError(f"the overlap cannot be negative, got {self.overlap_mm:g} mm")


@dataclass(frozen=True)
class Page:
    """One sheet: its place in the grid of pages (``row``, ``col`` from 0),
    the window of the map it prints (map mm: ``x``, ``y``, ``w``, ``h``), the
    joins it shares with its neighbours (map mm, ``None`` at the map's
    edge) and its label."""

    row: int
    col: int
    x: float
    y: float
    w: float
    h: float
    join_left: float | None
    join_right: float | None
    join_top: float | None
    join_bottom: float | None
    label: str

    def marks(self) -> list[tuple[float, float]]:
        """The registration crosses this page draws (map mm): on each join,
        at a quarter, half and three quarters of the window's side along it
        (so the crosses of two joins never crowd a corner; a short side has
        one, in its middle); a neighbour
        draws the same crosses on the same join."""
        out: list[tuple[float, float]] = []
        for jx in (self.join_left, self.join_right):
            if jx is not None:
                out += [(jx, y) for y in _along(self.y, self.h)]
        for jy in (self.join_top, self.join_bottom):
            if jy is not None:
                out += [(x, jy) for x in _along(self.x, self.w)]
        return out


def _along(start: float, length: float) -> tuple[float, ...]:
    """Positions along a side: its quarters, or only its middle on a side
    shorter than 40 mm (crosses closer than 10 mm read as one)."""
    if length < 40.0:
        return (start + length / 2,)
    return (start + length / 4, start + length / 2, start + 3 * length / 4)


def _row_name(i: int) -> str:
    """Rows lettered A-Z, then AA, AB, ..."""
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(ord("A") + r) + name
    return name


@dataclass(frozen=True)
class PrintPlan:
    """The pages of a map printed by a :class:`PrintSpec`."""

    spec: PrintSpec
    paper_w: float
    paper_h: float
    area_w: float
    area_h: float
    mm_per_unit: float
    map_w: float
    map_h: float
    cols: int
    rows: int
    pages: tuple[Page, ...]

    def paper_point(self, page: Page, x: float, y: float) -> tuple[float, float]:
        """Where map point (``x``, ``y``) (map mm) lands on ``page``'s paper (mm)."""
        m = self.spec.margin_mm
        return (m + x - page.x, m + y - page.y)


def _spans(total: float, area: float, overlap: float) -> list[tuple[float, float]]:
    """(start, length) of each window along one side."""
    if total <= area:
        return [(0.0, total)]
    step = area - overlap
    n = math.ceil((total - overlap) / step - 1e-9)
    return [(i * step, min(area, total - i * step)) for i in range(n)]


def plan(map_w_units: float, map_h_units: float, extent_units: float, spec: PrintSpec) -> PrintPlan:
    """The pages for a grid map ``map_w_units`` × ``map_h_units`` layout
    units whose cells are ``extent_units`` across.  Raises
    :class:`PrintError` for a bad request or more than :data:`MAX_PAGES`
    pages."""
    if spec.width_mm is not None:
        raise PrintError("a grid map prints at a cell size (a hex's width across its flats or a square's side), "
                         "not at a width of the whole map")
    spec.check()
    pw, ph, area_w, area_h = _paper(spec)
    if spec.cell_mm > min(area_w, area_h):
        raise PrintError(f"a {spec.cell_mm:g} mm cell does not fit the printable area ({area_w:g} x {area_h:g} mm)")
    return _tile(map_w_units, map_h_units, spec.cell_mm / extent_units, spec, f"{spec.cell_mm:g} mm a cell")


def plan_territory(map_w_units: float, map_h_units: float, spec: PrintSpec) -> PrintPlan:
    """The pages for a territory map ``map_w_units`` × ``map_h_units`` map
    units printed ``spec.width_mm`` wide.  Raises :class:`PrintError`."""
    if spec.width_mm is None:
        raise PrintError("a territory map has no cells: give the whole map's printed width")
    spec.check()
    if not (math.isfinite(map_w_units) and math.isfinite(map_h_units) and map_w_units > 0 and map_h_units > 0):
        raise PrintError("the territory map has no extent to print")
    _paper(spec)
    return _tile(map_w_units, map_h_units, spec.width_mm / map_w_units, spec, f"{spec.width_mm:g} mm wide")


def _paper(spec: PrintSpec) -> tuple[float, float, float, float]:
    """The paper (width, height) as it lies and the printable area inside
    the margins (mm), the overlap checked against it."""
    pw, ph = paper_size(spec.paper)
    if spec.landscape:
        pw, ph = ph, pw
    area_w, area_h = pw - 2 * spec.margin_mm, ph - 2 * spec.margin_mm
    if spec.overlap_mm >= min(area_w, area_h) / 2:
        raise PrintError(f"the overlap ({spec.overlap_mm:g} mm) must be less than half the printable area "
                         f"({area_w:g} x {area_h:g} mm)")
    return pw, ph, area_w, area_h


def _tile(map_w_units: float, map_h_units: float, scale: float, spec: PrintSpec, at: str) -> PrintPlan:
    """The map at ``scale`` mm a unit tiled over the pages (``at`` says the
    scale in a refusal)."""
    pw, ph, area_w, area_h = _paper(spec)
    map_w, map_h = map_w_units * scale, map_h_units * scale
    xs = _spans(map_w, area_w, spec.overlap_mm)
    ys = _spans(map_h, area_h, spec.overlap_mm)
    if len(xs) * len(ys) > MAX_PAGES:
        raise PrintError(f"the map would print on {len(xs)} x {len(ys)} = {len(xs) * len(ys)} pages at "
                         f"{at} ({map_w:.0f} x {map_h:.0f} mm); at most {MAX_PAGES}")
    half = spec.overlap_mm / 2
    pages = []
    for r, (y, h) in enumerate(ys):
        for c, (x, w) in enumerate(xs):
            pages.append(Page(
                r, c, x, y, w, h,
                join_left=x + half if c > 0 else None,
                join_right=xs[c + 1][0] + half if c + 1 < len(xs) else None,
                join_top=y + half if r > 0 else None,
                join_bottom=ys[r + 1][0] + half if r + 1 < len(ys) else None,
                label=f"{_row_name(r)}{c + 1}"))
    return PrintPlan(spec, pw, ph, area_w, area_h, scale, map_w, map_h, len(xs), len(ys), tuple(pages))


def check_budget(cells: int, pp: PrintPlan) -> None:
    """:class:`PrintError` when printing ``cells`` cells on plan ``pp`` is
    past :data:`MAX_PRINT_CELLS`, before any is drawn, with the estimate
    of pages, memory and time that refused it."""
    if cells <= MAX_PRINT_CELLS:
        return
    mb = cells * PDF_BYTES_PER_CELL / 1e6
    minutes = cells * SECONDS_PER_CELL / 60
    raise PrintError(f"the map has {cells} cells to print on {len(pp.pages)} page{'s' if len(pp.pages) != 1 else ''}: "
                     f"an estimated {mb:.0f} MB of PDF built in memory and {minutes:.0f} minutes of work; the "
                     f"limit is {MAX_PRINT_CELLS} cells (a 1000 x 1000 map): print a smaller map, or split it")


def cell_mm_from(value: float, unit: str) -> float:
    """A length (a cell size, a map's width) given in ``mm`` or ``in`` as
    millimetres."""
    if unit == "mm":
        return value
    if unit in ("in", "inch", "inches"):
        return value * MM_PER_INCH
    raise PrintError(f"unknown unit {unit!r}: mm or in")
