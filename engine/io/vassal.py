"""A grid scenario as a VASSAL module (``.vmod``): the plan and the archive.

:func:`plan_module` works out, without drawing anything, everything a module
needs: the board image's size and where its cells go, the grid VASSAL lays
over it (``HexGrid`` or ``SquareGrid``: ``dx``, ``dy``, ``x0``, ``y0``,
``sideways``) so that every cell centre VASSAL computes is the centre the
renderer draws, the numbering that gives each cell Adjutant's own label
(``HexGridNumbering``, ``SquareGridNumbering``, ``ObliqueHexGridNumbering``
from VASSAL 3.8, or one ``Zone`` per block of cells where the label has
fixed letters, as CWOL's ``E6-Y4`` and board prefixes do), the piece
palette, a prototype per side, the units at their starting cells and the
player sides.  :func:`build_files` turns a plan and the images (drawn by the
app's renderer) into the archive's files; :func:`write_module` writes them
through the one safe writer, checked by :func:`engine.io.vassal_check.check_module`
before the rename.

VASSAL reads the grid in whole pixels: ``x0`` and ``y0`` are integers, so
the board is drawn shifted by less than a pixel (:attr:`ModulePlan.shift`)
to put the first cell's centre on one.  ``dx`` and ``dy`` are exact
doubles.  The formulas VASSAL names a location with are in
``vassal-app/src/main/java/VASSAL/build/module/map/boardPicker/board/HexGrid.java``
(``getRawColumn``, ``getRawRow``), ``SquareGrid.java`` and
``mapgrid/{RegularGrid,HexGrid,SquareGrid,ObliqueHexGrid}Numbering.java``;
:func:`location_name` follows them, and :func:`plan_module` counts the
cells whose label VASSAL would write differently (a warning).
"""

from __future__ import annotations

import io
import math
import time
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..grids import Cell, Layout
from ..grids.hexgrid import SQRT3, HexGrid, Orientation, Parity
from ..grids.square import SquareGrid
from ..labels import CcrrNumbering, CwolNumbering, Numbering, NumericNumbering
from ..model import Scenario
from ..numbering import AxesNumbering, Axis
from .atomic import write_atomic
from .vassal_codec import build_file_name, sequence_decode, sequence_encode

VERSIONS = {"3.7": "3.7.0", "3.8": "3.8.0"}
"""``--vassal`` choices and the ``VassalVersion`` each writes."""
OBLIQUE_SINCE = "3.8"
"""The first VASSAL with ``ObliqueHexGridNumbering``."""
DEFAULT_SCALE = 64
"""Board pixels per cell (a square's side, a hex's width across the flats)."""
MIN_SCALE, MAX_SCALE = 12, 512
MAX_BOARD_PIXELS = 64_000_000
"""Largest board image (pixels), as for an image export."""
MAX_BOARD_SIDE = 32_000
"""Largest board image side (Qt paints nothing beyond 32767)."""
MAX_PIECES = 20_000
"""Most units a module is made with."""
BOARD_IMAGE = "board.png"
PKG = "VASSAL.build."
NUMBERING_PKG = PKG + "module.map.boardPicker.board.mapgrid."


class VassalError(ValueError):
    """A scenario that cannot be exported as a module; ``str`` says why."""


def decorate(outer_type: str, inner_type: str) -> str:
    """A trait's type wrapped around its inner piece's type (``Decorator.getType``)."""
    return sequence_encode([outer_type, inner_type], "\t")


def piece_definition(piece_type: str, piece_state: str) -> str:
    """The text of a ``PieceSlot`` or ``PrototypeDefinition``: an ``AddPiece``
    command as ``BasicCommandEncoder.encode`` writes it (``+/id/type/state``)."""
    return "+/" + sequence_encode(["null", piece_type, piece_state], "/")


def basic_piece_type(image: str, name: str) -> str:
    """``BasicPiece.getType``: no clone or delete key, the image, the name."""
    return "piece;" + sequence_encode(["", "", image, name], ";")


def marker_type(keys: Iterable[str]) -> str:
    return "mark;" + sequence_encode(list(keys), ",")


def piece_text(text: str) -> str:
    """``text`` made safe inside a piece definition: VASSAL splits the
    innermost trait at every tab (``BasicCommandEncoder.createPiece``) and
    cannot tell a token ending in a backslash from an escaped delimiter, so
    control characters become spaces and backslashes slashes."""
    return "".join(" " if ord(ch) < 32 or ord(ch) == 127 else "/" if ch == "\\" else ch for ch in text)


BASIC_STATE = "null;0;0;;0"
"""A new piece's ``BasicPiece`` state: no map, at 0,0, no id, no properties."""


def piece_type_and_state(side: str, props: Mapping[str, str], image: str, name: str) -> tuple[str, str]:
    """A unit's piece: its side's prototype around a marker of ``props``
    around the basic piece; and its state (the marker's values)."""
    basic = basic_piece_type(image, name)
    mark = decorate(marker_type(props), basic)
    typ = decorate("prototype;" + sequence_encode([side], ";"), mark)
    mark_state = decorate(sequence_encode(list(props.values()), ","), BASIC_STATE)
    state = decorate("", mark_state)
    return typ, state


# -- grid, numbering, zones ----------------------------------------------------------

@dataclass(frozen=True)
class GridSpec:
    """A VASSAL ``HexGrid`` or ``SquareGrid`` (attributes as VASSAL names them)."""

    kind: str
    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool = False

    def raw(self, x: int, y: int) -> tuple[int, int]:
        """VASSAL's raw column and row of the board point ``x, y``
        (``HexGrid.getRawColumn``/``getRawRow``; for squares the column and
        row ``SquareGridNumbering`` counts before descending)."""
        if self.kind == "square":
            return math.floor((x - self.x0) / self.dx + 0.5), int((y - self.y0) / self.dy + 0.5)
        if self.sideways:
            x, y = y, x
        nx = math.floor((x - self.x0) / self.dx + 0.5)
        if nx % 2 == 0:
            ny = math.floor((y - self.y0) / self.dy + 0.5)
        else:
            ny = math.floor((y - self.y0 - self.dy / 2) / self.dy + 0.5)
        return nx, ny


@dataclass(frozen=True)
class NumberingSpec:
    """A VASSAL grid numbering's attributes."""

    cls: str
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    h_leading: int = 0
    h_off: int = 0
    h_desc: bool = False
    v_type: str = "N"
    v_leading: int = 0
    v_off: int = 0
    v_desc: bool = False
    stagger: bool = False


@dataclass(frozen=True)
class ZoneSpec:
    """A ``Zone`` with its own grid: the cells in ``cols`` x ``rows`` whose
    labels start with ``prefix`` (``locationFormat`` ``prefix$gridLocation$``)."""

    name: str
    prefix: str
    path: tuple[tuple[int, int], ...]
    numbering: NumberingSpec
    cols: range
    rows: range

    def contains(self, x: int, y: int) -> bool:
        """Java's ``Polygon.contains`` for the zone's rectangle (left and top
        sides inside, right and bottom outside)."""
        xs, ys = [p[0] for p in self.path], [p[1] for p in self.path]
        return min(xs) <= x < max(xs) and min(ys) <= y < max(ys)

    def size(self) -> tuple[int, int]:
        xs, ys = [p[0] for p in self.path], [p[1] for p in self.path]
        return max(xs) - min(xs), max(ys) - min(ys)


def _max_cols_rows(grid: GridSpec, size: tuple[int, int]) -> tuple[int, int]:
    """``getMaxColumns``/``getMaxRows`` of the grid numbering for a container
    of ``size`` (the board, or a zone's bounds)."""
    w, h = size
    if grid.kind == "square":
        return int(w / grid.dx + 0.5), int(h / grid.dy + 0.5)
    return math.floor(w / grid.dy + 0.5), math.floor(h / grid.dx + 0.5)


def vassal_indexes(grid: GridSpec, num: NumberingSpec, size: tuple[int, int], x: int, y: int) -> tuple[int, int]:
    """The column and row VASSAL's numbering gives the point ``x, y``
    (``getColumn``, ``getRow``), before ``hOff``/``vOff``."""
    raw_c, raw_r = grid.raw(x, y)
    max_c, max_r = _max_cols_rows(grid, size)
    if grid.kind == "square":
        return (max_c - raw_c if num.h_desc else raw_c), (max_r - raw_r if num.v_desc else raw_r)
    col = raw_c
    if num.v_desc and grid.sideways:
        col = max_r - col
    if num.h_desc and not grid.sideways:
        col = max_c - col
    row = raw_r
    if num.v_desc and not grid.sideways:
        row = max_r - row
    if num.h_desc and grid.sideways:
        row = max_c - row
    if num.stagger and raw_c % 2 != 0:
        down = num.h_desc if grid.sideways else num.v_desc
        row += -1 if down else 1
    if num.cls.endswith("ObliqueHexGridNumbering"):
        half = int(col / 2)  # Java's integer division
        row = half + row if num.stagger else row - half + 1
    return col, row


def _name(v: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName``."""
    sign = "-" if v < 0 else ""
    v = abs(v)
    if kind == "A":
        return sign + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 26] * (v // 26 + 1)
    width = leading + 1 if leading > 0 else 0
    return sign + (f"{v:0{width}d}" if width and v < 10 ** leading else str(v))


def numbering_name(grid: GridSpec, num: NumberingSpec, size: tuple[int, int], x: int, y: int) -> str:
    """The grid location VASSAL names the point ``x, y``."""
    col, row = vassal_indexes(grid, num, size, x, y)
    c = _name(col + num.h_off, num.h_type, num.h_leading)
    r = _name(row + num.v_off, num.v_type, num.v_leading)
    return c + num.sep + r if num.first == "H" else r + num.sep + c


# -- what Adjutant's numbering asks for --------------------------------------------

@dataclass(frozen=True)
class _Axis:
    kind: str  # "N" or "A"
    leading: int
    base: int  # value = base + slope * index
    slope: int = 1


@dataclass(frozen=True)
class _Block:
    """Cells labelled ``prefix`` + a plain numbering of ``col``/``row``."""

    prefix: str
    sep: str
    first: str  # "col" or "row"
    col: _Axis
    row: _Axis
    cols: range
    rows: range
    oblique: tuple[str, str, str] | None = None  # axis, direction, parity


def _targets(numbering: Numbering, width: int, height: int, warnings: list[str]) -> list[_Block]:
    """The blocks of cells and the plain numbering each needs; what cannot
    be said in VASSAL's terms is replaced by the nearest thing it can say,
    with a warning."""
    cols, rows = range(width), range(height)
    if isinstance(numbering, NumericNumbering):
        ax = _Axis("N", 0, numbering.first)
        return [_Block("", numbering.separator, numbering.order.split("-")[0], ax, ax, cols, rows)]
    if isinstance(numbering, CcrrNumbering):
        ax = _Axis("N", numbering.digits - 1, numbering.first)
        return [_Block("", numbering.separator, numbering.order.split("-")[0], ax, ax, cols, rows)]
    if isinstance(numbering, CwolNumbering):
        out = []
        fc, fr = numbering.first_col, numbering.first_row
        for a in range(fc // 10, (fc + width - 1) // 10 + 1):
            for b in range(fr // 10, (fr + height - 1) // 10 + 1):
                bc = range(max(0, 10 * a - fc), min(width, 10 * a + 10 - fc))
                br = range(max(0, 10 * b - fr), min(height, 10 * b + 10 - fr))
                letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                out.append(_Block(letters[a], "-" + letters[b], "col", _Axis("N", 0, fc - 10 * a),
                                  _Axis("N", 0, fr - 10 * b), bc, br))
        return out
    if isinstance(numbering, AxesNumbering):
        def axis(a: Axis, name: str) -> _Axis:
            kind = "N" if a.style == "number" else "A"
            if a.style == "alpha":
                warnings.append(f"VASSAL has no spreadsheet letters (A..Z, AA, AB..); the {name}s are lettered "
                                "A..Z, AA, BB.. instead")
            lead = max(0, a.width - 1) if kind == "N" else 0
            if a.descending:
                return _Axis(kind, lead, a.start + a.count - 1, -1)
            return _Axis(kind, lead, a.start)

        col, row = axis(numbering.col, "column"), axis(numbering.row, "row")
        ob = numbering.oblique
        oblique = (ob.axis, ob.direction, ob.parity) if ob is not None else None
        bd = numbering.boards
        if bd is None:
            return [_Block("", numbering.separator, numbering.first, col, row, cols, rows, oblique)]
        out = []
        for i in range((-(-height // bd.rows)) * bd.across):
            bx, by = i % bd.across, i // bd.across
            bc = range(bx * bd.cols, min(width, (bx + 1) * bd.cols))
            br = range(by * bd.rows, min(height, (by + 1) * bd.rows))
            if not bc or not br:
                continue
            # local index = index - start of the board
            lc = replace(col, base=col.base - col.slope * bc.start)
            lr = replace(row, base=row.base - row.slope * br.start)
            out.append(_Block(bd.name(i), numbering.separator, numbering.first, lc, lr, bc, br, oblique))
        return out
    raise VassalError(f"the numbering '{numbering.scheme}' has no VASSAL equivalent in this export")


# -- the plan ------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """A unit placed on the board at the start."""

    unit_id: str
    name: str
    side: str
    type: str
    strength: int
    cell: Cell
    label: str
    x: int
    y: int
    image: str


@dataclass(frozen=True)
class PaletteEntry:
    """One palette entry: a side's unit type."""

    side: str
    type: str
    name: str
    image: str
    strength: int


@dataclass(frozen=True)
class ModulePlan:
    name: str
    version: str  # "3.7" or "3.8"
    vassal_version: str
    scale: int
    width: int
    height: int
    shift: tuple[float, float]
    """Board pixels = the layout's pixels (at ``scale``) + ``shift``."""
    grid: GridSpec
    numbering: NumberingSpec | None
    zones: tuple[ZoneSpec, ...]
    sides: tuple[str, ...]
    pieces: tuple[Piece, ...]
    palette: tuple[PaletteEntry, ...]
    warnings: tuple[str, ...]
    """What VASSAL will show otherwise than Adjutant (labels, letters)."""
    mismatches: int
    centres: Callable[[Cell], tuple[float, float]] = field(repr=False, compare=False)

    def centre(self, cell: Cell) -> tuple[float, float]:
        """The cell's centre in board pixels (exactly where VASSAL's grid puts it)."""
        return self.centres(cell)

    def location_name(self, x: int, y: int) -> str | None:
        """The location VASSAL names board point ``x, y``."""
        return location_name(self, x, y)

    def to_dict(self) -> dict[str, object]:
        g = self.grid
        return {"name": self.name, "vassal": self.version, "vassal_version": self.vassal_version,
                "board": {"width": self.width, "height": self.height, "scale": self.scale},
                "grid": {"kind": g.kind, "dx": g.dx, "dy": g.dy, "x0": g.x0, "y0": g.y0, "sideways": g.sideways},
                "numbering": (self.numbering.cls.rsplit(".", 1)[-1] if self.numbering is not None
                              else f"{len(self.zones)} zones"),
                "sides": list(self.sides), "pieces": len(self.pieces), "palette": len(self.palette),
                "mismatched_labels": self.mismatches, "warnings": list(self.warnings), "notes": self.notes()}

    def notes(self) -> list[str]:
        """What the module needs of the VASSAL that opens it."""
        oblique = [z.numbering for z in self.zones] + ([self.numbering] if self.numbering is not None else [])
        if any(n.cls.endswith("ObliqueHexGridNumbering") for n in oblique):
            return ["the oblique hex numbering (ObliqueHexGridNumbering) needs VASSAL 3.8.0 or later to open the "
                    "module"]
        return []


def location_name(plan: ModulePlan, x: int, y: int) -> str | None:
    """The location VASSAL names board point ``x, y``: the zone's prefix and
    grid location (``Zone.locationName``), or the board grid's."""
    size = (plan.width, plan.height)
    if plan.numbering is not None:
        return numbering_name(plan.grid, plan.numbering, size, x, y)
    for z in plan.zones:
        if z.contains(x, y):
            return z.prefix + numbering_name(plan.grid, z.numbering, z.size(), x, y)
    return None


def _layout_centre(grid: HexGrid | SquareGrid, scale: int) -> tuple[Callable[[Cell], tuple[float, float]],
                                                                     tuple[float, float]]:
    """The cell centres of the renderer's layout at ``scale`` pixels a cell,
    and the layout's size in pixels."""
    lay: Layout = grid.make_layout(scale / SQRT3) if isinstance(grid, HexGrid) else grid.make_layout(float(scale))
    return lay.center, lay.bounds()


def _grid_spec(grid: HexGrid | SquareGrid, scale: int, c0: tuple[float, float]) -> GridSpec:
    """The VASSAL grid through the (integer) centre ``c0`` of cell 0,0."""
    x0, y0 = round(c0[0]), round(c0[1])
    if isinstance(grid, SquareGrid):
        return GridSpec("square", float(scale), float(scale), x0, y0)
    across = float(scale)  # centre to centre along a line of hexes
    between = scale * SQRT3 / 2  # from one line of hexes to the next
    even = grid.parity is Parity.EVEN
    if grid.orientation is Orientation.FLAT:
        # VASSAL shoves odd columns down; an even-parity map's column 0 is
        # shoved, so VASSAL's row 0 starts one hex higher.
        return GridSpec("hex", between, across, x0, y0 - (scale if even else 0))
    return GridSpec("hex", between, across, y0, x0 - (scale if even else 0), sideways=True)


def _numbering_for(block: _Block, grid: GridSpec, size: tuple[int, int], cls: str,
                   probe: tuple[int, int], target: tuple[int, int], stagger: bool) -> NumberingSpec:
    """The VASSAL numbering giving ``block``'s labels: Adjutant's columns
    and rows are VASSAL's columns and rows, swapped on a sideways grid."""
    col_ax, row_ax = block.col, block.row
    if grid.sideways:
        h_ax, v_ax, first = row_ax, col_ax, ("V" if block.first == "col" else "H")
        h_desc, v_desc = v_ax.slope < 0, h_ax.slope < 0
    else:
        h_ax, v_ax, first = col_ax, row_ax, ("H" if block.first == "col" else "V")
        h_desc, v_desc = h_ax.slope < 0, v_ax.slope < 0
    spec = NumberingSpec(cls, first, block.sep, h_ax.kind, h_ax.leading, 0, h_desc, v_ax.kind, v_ax.leading, 0,
                         v_desc, stagger)
    vc, vr = vassal_indexes(grid, spec, size, *probe)
    tc, tr = target
    h_target, v_target = (tr, tc) if grid.sideways else (tc, tr)
    return replace(spec, h_off=h_target - vc, v_off=v_target - vr)


def _axis_value(ax: _Axis, index: int) -> int:
    return ax.base + ax.slope * index


def _oblique_ok(block: _Block, grid: HexGrid) -> str | None:
    """Why VASSAL's oblique numbering cannot say ``block``'s, or None."""
    assert block.oblique is not None
    axis, direction, parity = block.oblique
    straight = "row" if grid.orientation is Orientation.FLAT else "col"
    if axis != straight:
        return (f"its slanted axis is the {'columns' if axis == 'col' else 'rows'}, and VASSAL slants only the "
                f"{'rows' if straight == 'row' else 'columns'} of {grid.orientation.value}-topped hexes")
    if block.col.slope < 0 or block.row.slope < 0:
        return "it counts an axis downwards, which VASSAL's oblique numbering does not"
    same = parity == grid.parity.value
    if (direction == "minus") != same:
        return (f"'{direction}' slanted rows shoved as '{parity}' on a map shoving its {grid.parity.value} lines "
                "do not run along the hexes, and VASSAL's oblique numbering only counts along them")
    return None


def plan_module(scenario: Scenario, scale: int = DEFAULT_SCALE, version: str = "3.7") -> ModulePlan:
    """Everything the module holds, worked out; raises :class:`VassalError`
    naming what cannot be exported."""
    if version not in VERSIONS:
        raise VassalError(f"--vassal {version}: expected one of {', '.join(VERSIONS)}")
    if not isinstance(scenario, Scenario):
        raise VassalError("a territory map has no regular grid; VASSAL's regions would have to be drawn as polygons "
                          "that match the territories' shapes exactly, which this export does not do")
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise VassalError(f"scale {scale}: expected {MIN_SCALE} to {MAX_SCALE} pixels per cell")
    grid = scenario.map.grid
    assert isinstance(grid, (HexGrid, SquareGrid))
    warnings: list[str] = []
    layout_centre, (lw, lh) = _layout_centre(grid, scale)
    c0 = layout_centre(Cell(0, 0))
    shift = (math.ceil(c0[0]) - c0[0], math.ceil(c0[1]) - c0[1])
    width, height = math.ceil(lw + shift[0]), math.ceil(lh + shift[1])
    if width * height > MAX_BOARD_PIXELS or max(width, height) > MAX_BOARD_SIDE:
        k = min(math.sqrt(MAX_BOARD_PIXELS / (width * height)), MAX_BOARD_SIDE / max(width, height))
        fit = math.floor(scale * k)
        raise VassalError(f"the board image would be {width} x {height} pixels, over the limit of "
                          f"{MAX_BOARD_PIXELS / 1e6:.0f} Mpx and {MAX_BOARD_SIDE} pixels a side"
                          + (f"; use --scale {fit} or less" if fit >= MIN_SCALE else
                             "; the map has too many cells for one board image"))
    if len(scenario.units) > MAX_PIECES:
        raise VassalError(f"{len(scenario.units)} units: a module is made with at most {MAX_PIECES}")

    def centre(cell: Cell) -> tuple[float, float]:
        x, y = layout_centre(cell)
        return x + shift[0], y + shift[1]

    gspec = _grid_spec(grid, scale, centre(Cell(0, 0)))
    size = (width, height)
    numbering = scenario.map.numbering
    blocks = _targets(numbering, grid.width, grid.height, warnings)
    hexes = isinstance(grid, HexGrid)
    kind_cls = NUMBERING_PKG + ("HexGridNumbering" if hexes else "SquareGridNumbering")
    even = hexes and isinstance(grid, HexGrid) and grid.parity is Parity.EVEN

    def pixel(cell: Cell) -> tuple[int, int]:
        x, y = centre(cell)
        return round(x), round(y)

    specs: list[tuple[_Block, NumberingSpec]] = []
    for b in blocks:
        cls, stagger = kind_cls, even
        if b.oblique is not None:
            why = _oblique_ok(b, grid) if isinstance(grid, HexGrid) else "the map is not a hex map"
            if why is None and version < OBLIQUE_SINCE:
                why = f"VASSAL {version} has no oblique hex numbering (ObliqueHexGridNumbering is new in 3.8.0)"
            if why is None:
                cls, stagger = NUMBERING_PKG + "ObliqueHexGridNumbering", b.oblique[1] == "plus"
            else:
                if not any(w.startswith("the oblique") for w in warnings):
                    warnings.append(f"the oblique numbering is written with straight rows: {why}")
                b = replace(b, oblique=None)
        probe = Cell(b.cols.start, b.rows.start)
        tc = _axis_value(b.col, probe.col)
        tr = _axis_value(b.row, probe.row)
        if b.oblique is not None:
            axis, direction, parity = b.oblique
            sign = 1 if direction == "plus" else -1
            k = probe.col - b.cols.start if axis == "row" else probe.row - b.rows.start  # on its board
            shove = k // 2 if parity == "odd" else (k + 1) // 2
            if axis == "row":
                tr = _axis_value(b.row, probe.row + sign * shove)
            else:
                tc = _axis_value(b.col, probe.col + sign * shove)
        zsize = size if len(blocks) == 1 and not b.prefix else _zone_rect_size(grid, gspec, centre, b)
        specs.append((b, _numbering_for(b, gspec, zsize, cls, pixel(probe), (tc, tr), stagger)))
    if len(specs) == 1 and not specs[0][0].prefix:
        num: NumberingSpec | None = specs[0][1]
        zones: tuple[ZoneSpec, ...] = ()
    else:
        num = None
        zones = tuple(ZoneSpec(f"{b.prefix}{b.sep}" or f"zone {i + 1}", b.prefix,
                               _zone_path(grid, gspec, centre, b), ns, b.cols, b.rows)
                      for i, (b, ns) in enumerate(specs))
    sides = tuple(piece_text(f.name) for f in scenario.sides)
    side_name = {f.id: piece_text(f.name) for f in scenario.sides}
    pieces = tuple(Piece(piece_text(u.id), piece_text(u.name or u.id), side_name.get(u.side, piece_text(u.side)),
                         piece_text(u.type), u.strength, u.at, scenario.map.label(u.at), *pixel(u.at),
                         f"unit{i:05d}.png")
                   for i, u in enumerate(scenario.units))
    palette: list[PaletteEntry] = []
    type_names = {t.id: t.name for t in scenario.ruleset.unit_types}
    seen: set[tuple[str, str]] = set()
    kinds = [(f.id, t.id) for f in scenario.sides for t in scenario.ruleset.unit_types]
    kinds += [(u.side, u.type) for u in scenario.units]
    for side_id, type_id in kinds:
        if (side_id, type_id) in seen:
            continue
        seen.add((side_id, type_id))
        strength = next((u.strength for u in scenario.units if u.side == side_id and u.type == type_id), 1)
        palette.append(PaletteEntry(side_name.get(side_id, piece_text(side_id)), piece_text(type_id),
                                    piece_text(type_names.get(type_id, type_id)), f"palette{len(palette):04d}.png",
                                    strength))
    plan = ModulePlan(piece_text(scenario.name) or "Adjutant scenario", version, VERSIONS[version], scale, width, height, shift,
                      gspec, num, zones, sides, pieces, tuple(palette), (), 0, centre)
    bad = _misnamed(plan, scenario, pixel)
    if bad:
        c, got = bad[0]
        warnings.append(f"{len(bad)} of {grid.size} cells are named differently in VASSAL, e.g. "
                        f"{scenario.map.label(c)} is {got!r}")
    return replace(plan, warnings=tuple(warnings), mismatches=len(bad))


def _misnamed(plan: ModulePlan, scenario: Scenario, pixel: Callable[[Cell], tuple[int, int]]
              ) -> list[tuple[Cell, str | None]]:
    """The cells VASSAL names otherwise than Adjutant, with VASSAL's name.
    Zones: VASSAL takes the first zone holding a point; the zones are
    rectangles no two of which overlap, so a cell's name is its own block's
    zone's when that zone holds the cell's pixel."""
    label = scenario.map.label
    if plan.numbering is not None:
        size = (plan.width, plan.height)
        named = ((c, numbering_name(plan.grid, plan.numbering, size, *pixel(c))) for c in scenario.map.grid.cells())
        return [(c, got) for c, got in named if got != label(c)]
    boxes = [(min(p[0] for p in z.path), min(p[1] for p in z.path), max(p[0] for p in z.path),
              max(p[1] for p in z.path)) for z in plan.zones]
    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    for k, i in enumerate(order):  # a sweep along x: only zones starting before this one ends can meet it
        for j in order[k + 1:]:
            if boxes[j][0] >= boxes[i][2]:
                break
            if boxes[j][1] < boxes[i][3] and boxes[i][1] < boxes[j][3]:
                raise VassalError(f"zones {plan.zones[i].name!r} and {plan.zones[j].name!r} overlap; "
                                  "use a larger --scale")
    bad: list[tuple[Cell, str | None]] = []
    for z in plan.zones:
        zsize = z.size()
        for col in z.cols:
            for row in z.rows:
                c = Cell(col, row)
                x, y = pixel(c)
                got = z.prefix + numbering_name(plan.grid, z.numbering, zsize, x, y) if z.contains(x, y) else None
                if got != label(c):
                    bad.append((c, got))
    return bad


def _zone_bounds(grid: HexGrid | SquareGrid, gspec: GridSpec, centre: Callable[[Cell], tuple[float, float]],
                 b: _Block) -> tuple[int, int, int, int]:
    """A rectangle holding the centres of ``b``'s cells and none of any
    other cell's, its sides halfway between the two blocks' centres."""
    pts = [centre(Cell(c, r)) for c in (b.cols.start, b.cols.stop - 1) for r in (b.rows.start, b.rows.stop - 1)]
    if isinstance(grid, HexGrid):
        pts += [centre(Cell(c, r)) for c in b.cols[:2] for r in (b.rows.start, b.rows.stop - 1)]
        pts += [centre(Cell(c, r)) for c in (b.cols.start, b.cols.stop - 1) for r in b.rows[:2]]
        pts += [centre(Cell(c, r)) for c in b.cols[-2:] for r in (b.rows.start, b.rows.stop - 1)]
        pts += [centre(Cell(c, r)) for c in (b.cols.start, b.cols.stop - 1) for r in b.rows[-2:]]
        along, across = gspec.dx / 2, gspec.dy / 4
        gx, gy = (across, along) if gspec.sideways else (along, across)
    else:
        gx = gy = gspec.dx / 2
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (round(min(xs) - gx), round(min(ys) - gy), round(max(xs) + gx), round(max(ys) + gy))


def _zone_path(grid: HexGrid | SquareGrid, gspec: GridSpec, centre: Callable[[Cell], tuple[float, float]],
               b: _Block) -> tuple[tuple[int, int], ...]:
    x0, y0, x1, y1 = _zone_bounds(grid, gspec, centre, b)
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _zone_rect_size(grid: HexGrid | SquareGrid, gspec: GridSpec, centre: Callable[[Cell], tuple[float, float]],
                    b: _Block) -> tuple[int, int]:
    x0, y0, x1, y1 = _zone_bounds(grid, gspec, centre, b)
    return x1 - x0, y1 - y0


# -- the build file ------------------------------------------------------------------

def _el(parent: ET.Element | None, cls: str, **attrs: str) -> ET.Element:
    tag = cls if cls.startswith("VASSAL.") else PKG + cls
    e = ET.Element(tag, attrs) if parent is None else ET.SubElement(parent, tag, attrs)
    return e


def _numbering_el(parent: ET.Element, n: NumberingSpec) -> None:
    attrs = {"first": n.first, "sep": n.sep, "hType": n.h_type, "hLeading": str(n.h_leading),
             "hOff": str(n.h_off), "hDescend": _b(n.h_desc), "vType": n.v_type, "vLeading": str(n.v_leading),
             "vOff": str(n.v_off), "vDescend": _b(n.v_desc), "locationFormat": "$gridLocation$",
             "visible": "false", "fontSize": "9", "color": "0,0,0", "rotateText": "0", "hDrawOff": "0",
             "vDrawOff": "0"}
    if not n.cls.endswith("SquareGridNumbering"):
        attrs["stagger"] = _b(n.stagger)
    _el(parent, n.cls, **attrs)


def _b(v: bool) -> str:
    return "true" if v else "false"


def _grid_el(parent: ET.Element, g: GridSpec) -> ET.Element:
    common = {"dx": repr(g.dx), "dy": repr(g.dy), "x0": str(g.x0), "y0": str(g.y0), "visible": "false",
              "dotsVisible": "false", "edgesLegal": "false", "cornersLegal": "false", "snapTo": "true",
              "color": "0,0,0"}
    if g.kind == "hex":
        return _el(parent, "module.map.boardPicker.board.HexGrid", sideways=_b(g.sideways), **common)
    return _el(parent, "module.map.boardPicker.board.SquareGrid", range="Metric", **common)


MAP_CHILDREN = ("StackMetrics", "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer",
                "MapCenterer", "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer",
                "Flare", "Zoomer", "SelectionHighlighters", "HighlightLastMoved")
"""The map components VASSAL's editor adds to a new map (``Map.build(null)``
in ``VASSAL/build/module/Map.java``), without which pieces cannot be
dragged, selected or stacked; a map built from a file gets only what the
file names."""

MODULE_CHILDREN = ("module.BasicCommandEncoder", "module.Documentation", "module.GlobalOptions",
                   "module.Chatter", "module.KeyNamer", "module.properties.GlobalProperties",
                   "module.properties.GlobalTranslatableMessages")


def _piece_slot(parent: ET.Element, name: str, gpid: int, definition: str) -> None:
    e = _el(parent, "widget.PieceSlot", entryName=name, gpid=str(gpid), height="0", width="0")
    e.text = definition


def build_xml(plan: ModulePlan) -> str:
    """The module's build file."""
    gpid = 1
    root = _el(None, "GameModule", name=plan.name, version="1.0", VassalVersion=plan.vassal_version,
               description=f"Exported by Adjutant ({len(plan.pieces)} units)", nextPieceSlotId="0")
    for cls in MODULE_CHILDREN:
        _el(root, cls)
    roster = _el(root, "module.PlayerRoster", buttonText="Retire", buttonToolTip="Switch sides, become observer")
    for s in plan.sides:
        ET.SubElement(roster, "entry").text = s
    protos = _el(root, "module.PrototypesContainer")
    for s in sorted(set(plan.sides) | {p.side for p in plan.pieces} | {e.side for e in plan.palette}):
        pd = _el(protos, "module.PrototypeDefinition", name=s, description=f"side {s}")
        typ = decorate(marker_type(["Side"]), basic_piece_type("", ""))
        pd.text = piece_definition(typ, decorate(sequence_encode([s], ","), BASIC_STATE))
    win = _el(root, "module.PieceWindow", name="Units", text="Units", tooltip="Unit palette", scale="1.0",
              hidden="false", defaultWidth="0")
    tabs = _el(win, "widget.TabWidget", entryName="Sides")
    by_side: dict[str, list[PaletteEntry]] = {}
    for entry in plan.palette:
        by_side.setdefault(entry.side, []).append(entry)
    for side, entries in by_side.items():
        lst = _el(tabs, "widget.ListWidget", entryName=side, divider="150", height="0", width="0", scale="1.0")
        for entry in entries:
            typ, state = piece_type_and_state(side, {"Type": entry.type, "Strength": str(entry.strength),
                                                     "Unit": ""}, entry.image, entry.name)
            _piece_slot(lst, entry.name, gpid, piece_definition(typ, state))
            gpid += 1
    m = _el(root, "module.Map", mapName="Main Map", markMoved="Never", edgeWidth="0", edgeHeight="0",
            allowMultiple="false", backgroundcolor="255,255,255", launch="false", buttonName="",
            moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
            moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
            createFormat="$pieceName$ created in $location$ *", changeFormat="$message$")
    picker = _el(m, "module.map.BoardPicker", title="Choose Boards", addColumnText="Add column",
                 addRowText="Add row", boardPrompt="Select board", slotHeight="125", slotWidth="350",
                 slotScale="0.2")  # one board, not reversible: VASSAL sets it up without asking
    # an image board's size is its image's (VASSAL writes no width, height or colour for one)
    board = _el(picker, "module.map.boardPicker.Board", name="Board", image=BOARD_IMAGE, reversible="false")
    if plan.numbering is not None:
        _numbering_el(_grid_el(board, plan.grid), plan.numbering)
    else:
        zoned = _el(board, "module.map.boardPicker.board.ZonedGrid")
        for z in plan.zones:
            ze = _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", name=z.name,
                     path=";".join(f"{x},{y}" for x, y in z.path), useParentGrid="false",
                     locationFormat=z.prefix.replace("$", "") + "$gridLocation$", useHighlight="false",
                     highlightProperty="")
            _numbering_el(_grid_el(ze, plan.grid), z.numbering)
    for cls in MAP_CHILDREN:
        _el(m, "module.map." + cls)
    cells: dict[Cell, list[Piece]] = {}
    for p in plan.pieces:
        cells.setdefault(p.cell, []).append(p)
    for here in cells.values():  # one at-start stack a cell, its units in the scenario's order
        first = here[0]
        stack = _el(m, "module.map.SetupStack", name=f"{first.label}: {', '.join(p.name for p in here)}"[:200],
                    owningBoard="Board", useGridLocation="false", location=first.label, x=str(first.x),
                    y=str(first.y))
        for p in here:
            typ, state = piece_type_and_state(p.side, {"Type": p.type, "Strength": str(p.strength),
                                                       "Unit": p.unit_id}, p.image, p.name)
            _piece_slot(stack, p.name, gpid, piece_definition(typ, state))
            gpid += 1
    root.set("nextPieceSlotId", str(gpid))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="unicode")


def moduledata_xml(plan: ModulePlan, saved_ms: int | None = None) -> str:
    """``moduledata`` (``AbstractMetaData``/``ModuleMetaData``): name,
    version and the ``VassalVersion`` that picks the build file's name."""
    root = ET.Element("data", {"version": "1"})
    ET.SubElement(root, "version").text = "1.0"
    ET.SubElement(root, "extra1").text = ""
    ET.SubElement(root, "extra2").text = ""
    ET.SubElement(root, "VassalVersion").text = plan.vassal_version
    ET.SubElement(root, "dateSaved").text = str(saved_ms if saved_ms is not None else int(time.time() * 1000))
    ET.SubElement(root, "description").text = "Exported by Adjutant"
    ET.SubElement(root, "name").text = plan.name
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + ET.tostring(root, encoding="unicode")


def build_files(plan: ModulePlan, images: Mapping[str, bytes]) -> dict[str, bytes]:
    """The archive's files: ``moduledata``, the build file, and ``images/``."""
    files = {"moduledata": moduledata_xml(plan).encode(), build_file_name(plan.vassal_version):
             build_xml(plan).encode()}
    for name, data in images.items():
        files["images/" + name] = data
    return files


def zip_bytes(files: Mapping[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            method = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            z.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data, compress_type=method)
    return buf.getvalue()


def needed_images(plan: ModulePlan) -> list[str]:
    """Every image name the build file refers to."""
    return [BOARD_IMAGE] + [p.image for p in plan.pieces] + [e.image for e in plan.palette]


def write_module(path: str | Path, plan: ModulePlan, images: Mapping[str, bytes]) -> Path:
    """Write the module through the one safe writer; the temporary file is
    checked by :func:`engine.io.vassal_check.check_module` before it
    replaces ``path``.  Raises :class:`VassalError` for a missing image,
    :class:`~engine.io.atomic.OutputError` for a file that cannot be written."""
    from .vassal_check import check_module_file

    missing = [n for n in needed_images(plan) if n not in images]
    if missing:
        raise VassalError(f"images missing: {', '.join(missing[:5])}")
    data = zip_bytes(build_files(plan, images))
    return write_atomic(path, data, verify=check_module_file)


__all__ = ["BOARD_IMAGE", "DEFAULT_SCALE", "VERSIONS", "GridSpec", "ModulePlan", "NumberingSpec", "PaletteEntry",
           "Piece", "VassalError", "ZoneSpec", "build_file_name", "build_files", "build_xml", "location_name",
           "moduledata_xml", "needed_images", "numbering_name", "plan_module", "sequence_decode",
           "sequence_encode", "write_module", "zip_bytes"]
