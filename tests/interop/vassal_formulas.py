"""VASSAL's location names, computed from a module's build file as VASSAL
computes them, for the tests: written from VASSAL's public source
(github.com/vassalengine/vassal), not from Adjutant's exporter.

Java sources followed (under ``vassal-app/src/main/java/VASSAL/build/module/map/boardPicker/board/``):

* ``HexGrid.java``: ``getRawColumn``, ``getRawRow``, ``rotateIfSideways``
  (a sideways grid swaps x and y), attributes ``dx`` (hexWidth), ``dy``
  (hexSize), ``x0``/``y0`` (Integer origin), ``sideways``;
* ``SquareGrid.java``: attributes ``dx``, ``dy``, ``x0``, ``y0``;
* ``ZonedGrid.java`` (``locationName``: the first zone containing the point)
  and ``mapgrid/Zone.java`` (``locationName``: ``locationFormat`` with
  ``$name$`` and ``$gridLocation$``; ``getSize``: the polygon's bounds);
* ``mapgrid/RegularGridNumbering.java``: ``getName(row, column)``,
  ``getName(int, char, int)``, ``locationName``;
* ``mapgrid/HexGridNumbering.java``: ``getColumn``, ``getRow`` (stagger,
  descending), ``getMaxRows``, ``getMaxColumns``;
* ``mapgrid/SquareGridNumbering.java``: ``getColumn``, ``getRow``,
  ``getMaxRows``, ``getMaxColumns``;
* ``mapgrid/ObliqueHexGridNumbering.java``: ``getRow`` = ``slantRow``.

Java arithmetic kept: ``Math.round`` is ``floor(x + 0.5)``, ``(int)`` casts
truncate toward zero, ``/`` on ints truncates, ``%`` keeps the sign.
"""

from __future__ import annotations

import io
import math
import zipfile
from dataclasses import dataclass
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeET

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PKG = "VASSAL.build.module.map.boardPicker.board."


def java_round(x: float) -> int:
    return math.floor(x + 0.5)


def java_int(x: float) -> int:
    return int(x)  # truncation toward zero, as a Java (int) cast


def java_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def java_rem(a: int, b: int) -> int:
    return a - java_div(a, b) * b


def get_name(value: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName(int rowOrColumn, char type, int leading)``."""
    val = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            val += ALPHABET[value % 26]
            value -= 26
            if value < 0:
                return val
    while leading > 0 and value < 10.0 ** leading:
        leading -= 1
        val += "0"
    return val + str(value)


@dataclass
class Grid:
    kind: str  # HexGrid or SquareGrid
    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool

    def rotate(self, x: int, y: int) -> tuple[int, int]:
        return (y, x) if self.kind == "HexGrid" and self.sideways else (x, y)

    def raw_column(self, x: int, y: int) -> int:
        x, y = self.rotate(x, y)
        return math.floor((x - self.x0) / self.dx + 0.5)

    def raw_row(self, x: int, y: int) -> int:
        x, y = self.rotate(x, y)
        nx = java_round((x - self.x0) / self.dx)
        if java_rem(nx, 2) == 0:
            return java_round((y - self.y0) / self.dy)
        return java_round((y - self.y0 - self.dy / 2) / self.dy)


@dataclass
class Numbering:
    cls: str
    attrs: dict[str, str]
    grid: Grid
    size: tuple[int, int]  # the grid's container: the board image, or the zone's bounds

    def a(self, key: str) -> str:
        return self.attrs[key]

    def flag(self, key: str) -> bool:
        return self.attrs.get(key, "false") == "true"

    def max_rows(self) -> int:
        g = self.grid
        if self.cls == "SquareGridNumbering":
            return java_int(self.size[1] / g.dy + 0.5)
        return math.floor(self.size[1] / g.dx + 0.5)

    def max_columns(self) -> int:
        g = self.grid
        if self.cls == "SquareGridNumbering":
            return java_int(self.size[0] / g.dx + 0.5)
        return math.floor(self.size[0] / g.dy + 0.5)

    def column(self, x: int, y: int) -> int:
        g = self.grid
        h_desc, v_desc = self.flag("hDescend"), self.flag("vDescend")
        if self.cls == "SquareGridNumbering":
            col = math.floor((x - g.x0) / g.dx + 0.5)
            return self.max_columns() - col if h_desc else col
        col = g.raw_column(x, y)
        if v_desc and g.sideways:
            col = self.max_rows() - col
        if h_desc and not g.sideways:
            col = self.max_columns() - col
        return col

    def row(self, x: int, y: int) -> int:
        g = self.grid
        h_desc, v_desc = self.flag("hDescend"), self.flag("vDescend")
        if self.cls == "SquareGridNumbering":
            r = java_int((y - g.y0) / g.dy + 0.5)
            return self.max_rows() - r if v_desc else r
        ny = g.raw_row(x, y)
        if v_desc and not g.sideways:
            ny = self.max_rows() - ny
        if h_desc and g.sideways:
            ny = self.max_columns() - ny
        stagger = self.flag("stagger")
        if stagger and java_rem(g.raw_column(x, y), 2) != 0:
            if g.sideways:
                ny += -1 if h_desc else 1
            else:
                ny += -1 if v_desc else 1
        if self.cls == "ObliqueHexGridNumbering":
            column = self.column(x, y)
            ny = java_div(column, 2) + ny if stagger else ny - java_div(column, 2) + 1
        return ny

    def location_name(self, x: int, y: int) -> str:
        row, col = self.row(x, y), self.column(x, y)
        row_name = get_name(row + int(self.a("vOff")), self.a("vType"), int(self.a("vLeading")))
        col_name = get_name(col + int(self.a("hOff")), self.a("hType"), int(self.a("hLeading")))
        name = col_name + self.a("sep") + row_name if self.a("first") == "H" else \
            row_name + self.a("sep") + col_name
        return self.a("locationFormat").replace("$gridLocation$", name)


def _polygon_contains(points: list[tuple[int, int]], x: float, y: float) -> bool:
    inside = False
    n = len(points)
    for i in range(n):
        (x1, y1), (x2, y2) = points[i], points[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xi:
                inside = not inside
    return inside


@dataclass
class Zone:
    name: str
    fmt: str
    points: list[tuple[int, int]]
    numbering: Numbering

    def location_name(self, x: int, y: int) -> str:
        return self.fmt.replace("$name$", self.name).replace("$gridLocation$", self.numbering.location_name(x, y))


def _grid(e: Element) -> Grid:
    return Grid(e.tag.rsplit(".", 1)[-1], float(e.get("dx", "")), float(e.get("dy", "")), int(e.get("x0", "")),
                int(e.get("y0", "")), e.get("sideways") == "true")


def _numbering(grid_el: Element, size: tuple[int, int]) -> Numbering:
    (n,) = list(grid_el)
    attrs = dict(n.attrib)
    attrs.setdefault("locationFormat", "$gridLocation$")
    return Numbering(n.tag.rsplit(".", 1)[-1], attrs, _grid(grid_el), size)


class Board:
    """The board of a module's (only) map, naming points as VASSAL does."""

    def __init__(self, build_xml: bytes | str, size: tuple[int, int]) -> None:
        root = SafeET.fromstring(build_xml)
        (board,) = root.iter(PKG[:-len("board.")] + "Board")
        self.size = size
        self.numbering: Numbering | None = None
        self.zones: list[Zone] = []
        self.grid_el = None
        for g in board:
            kind = g.tag.rsplit(".", 1)[-1]
            if kind in ("HexGrid", "SquareGrid"):
                self.numbering = _numbering(g, size)
            elif kind == "ZonedGrid":
                for z in g:
                    pts = [tuple(int(v) for v in p.split(",")) for p in z.get("path", "").split(";")]
                    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                    (zg,) = list(z)
                    self.zones.append(Zone(z.get("name", ""), z.get("locationFormat", "$name$"),
                                           [(p[0], p[1]) for p in pts],
                                           _numbering(zg, (max(xs) - min(xs), max(ys) - min(ys)))))

    def location_name(self, x: int, y: int) -> str | None:
        if self.numbering is not None:
            return self.numbering.location_name(x, y)
        for z in self.zones:
            if _polygon_contains(z.points, x, y):
                return z.location_name(x, y)
        return None

    def grids(self) -> list[Grid]:
        if self.numbering is not None:
            return [self.numbering.grid]
        return [z.numbering.grid for z in self.zones]


def centre_of_raw(g: Grid, col: int, row: int) -> tuple[float, float]:
    """Where VASSAL's grid puts the centre of raw column ``col``, row
    ``row`` (before rounding to a pixel): ``HexGridNumbering.getCenterPoint``
    without its int casts, ``x0 + col * dx`` for squares."""
    if g.kind == "SquareGrid":
        return g.x0 + col * g.dx, g.y0 + row * g.dy
    x = g.x0 + col * g.dx
    y = g.y0 + row * g.dy + (g.dy / 2 if java_rem(col, 2) != 0 else 0)
    return (y, x) if g.sideways else (x, y)


def board_from_module(data: bytes) -> Board:
    """The :class:`Board` of a written ``.vmod`` (size read from its image)."""
    import struct

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        xml = z.read("buildFile.xml") if "buildFile.xml" in z.namelist() else z.read("buildFile")
        png = z.read("images/board.png")
    w, h = struct.unpack(">II", png[16:24])
    return Board(xml, (w, h))
