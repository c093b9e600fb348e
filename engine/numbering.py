"""Any numbering: the ``axes`` scheme, described by data, and
:func:`numbering_from_dict`, the reader of every scheme's file description.

The schemes real games use differ in a few choices, each one a field here:

* **per axis** (``col`` and ``row``, each an :class:`Axis`): numbers (``style
  "number"``, zero-padded to ``width``; width 0: no padding) or letters
  (``"letters"``: A…Z, then AA, BB…ZZ, then AAA… — the doubled letters of
  Squad Leader boards; ``"alpha"``: A…Z, AA, AB…AZ, BA… as spreadsheets
  count); the value of the first cell (``start``); **descending** (counted
  from the far edge: the axis's ``count`` cells, so the last one is
  ``start``);
* ``first``: which axis is written first (``"col"`` or ``"row"``), and the
  ``separator`` between them (``""``, ``"-"``, ``"."``…);
* **oblique** (Avalon Hill's numbering, e.g. *Afrika Korps*, *Third Reich*:
  the hexes numbered along the hex grid's own slanted axis rather than along
  its straight rows; VASSAL's ``ObliqueHexGridNumbering``): the slanted axis
  (``"row"`` on flat-topped hexes, whose columns are straight; ``"col"`` on
  pointy-topped ones) counts ``index ± shift(other)``, where ``shift(k)`` is
  ``k // 2`` when the grid shoves its odd lines (parity ``"odd"``) and
  ``(k + 1) // 2`` when it shoves the even ones: exactly the axial
  coordinate of the grid's offset layout, so a number names one line of
  hexes along a hex axis.  ``direction`` ``"minus"`` slants one way (the
  axial coordinate itself), ``"plus"`` the other;
* **boards** (``A1234``): a map made of boards of ``cols`` × ``rows`` cells,
  ``across`` boards a row, named by ``names`` (default A, B, C… row by
  row); a label is the board's name then the cell's label on its board.

``label(parse(x)) == x`` and ``parse(label(c)) == c`` for every cell a
scheme can label (tests: every cell of 100 × 100 maps of both grid kinds,
``tests/test_numbering.py``).  A scheme whose labels could be read two ways
(a number of no fixed width, or letters, followed by the same kind without a
separator) is refused when made, naming what to change.  CWOL's ``E6-Y4``,
GITM's ``3-1`` and CCRR keep their own classes in :mod:`engine.labels`; the
designer (File > Map Properties) writes them when a preset is chosen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .grids import Cell
from .labels import CcrrNumbering, CwolNumbering, LabelError, Numbering, NumericNumbering

STYLES = ("number", "letters", "alpha")
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Axis:
    """How one axis is written (see the module's docstring)."""

    style: str = "number"
    start: int = 1
    width: int = 0
    descending: bool = False
    count: int = 0

    def check(self, name: str) -> None:
        if self.style not in STYLES:
            raise LabelError(f"{name}: style must be one of {', '.join(STYLES)}, got {self.style!r}")
        if self.style == "number" and not 0 <= self.width <= 6:
            raise LabelError(f"{name}: width must be 0 (no padding) to 6 digits, got {self.width}")
        if self.style != "number" and self.start < 0:
            raise LabelError(f"{name}: letters start at 0 (A) or more, got {self.start}")
        if self.descending and self.count < 1:
            raise LabelError(f"{name}: a descending axis needs its count of cells (the map's size along it)")

    # -- one value <-> text ----------------------------------------------------
    def value(self, index: int) -> int:
        return self.start + (self.count - 1 - index if self.descending else index)

    def index(self, value: int) -> int:
        return self.count - 1 - (value - self.start) if self.descending else value - self.start

    def text(self, v: int, name: str) -> str:
        if v < 0:
            raise LabelError(f"{name} {v} is negative: start the {name}s higher")
        if self.style == "number":
            s = f"{v:0{self.width}d}" if self.width else str(v)
            if self.width and len(s) > self.width:
                raise LabelError(f"{name} {v} needs more than {self.width} digits")
            return s
        if self.style == "letters":
            return _LETTERS[v % 26] * (v // 26 + 1)
        out = ""
        n = v + 1
        while n:
            n, r = divmod(n - 1, 26)
            out = _LETTERS[r] + out
        return out

    def read(self, s: str) -> int:
        if self.style == "number":
            return int(s)
        s = s.upper()
        if self.style == "letters":
            return (len(s) - 1) * 26 + _LETTERS.index(s[0])
        n = 0
        for ch in s:
            n = n * 26 + _LETTERS.index(ch) + 1
        return n - 1

    def pattern(self, group: str) -> str:
        if self.style == "number":
            return rf"(?P<{group}>\d{{{self.width}}})" if self.width else rf"(?P<{group}>\d+)"
        if self.style == "letters":
            return rf"(?P<{group}>(?P<{group}_l>[A-Za-z])(?P={group}_l)*)"
        return rf"(?P<{group}>[A-Za-z]+)"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"style": self.style, "start": self.start}
        if self.style == "number" and self.width:
            d["width"] = self.width
        if self.descending:
            d.update(descending=True, count=self.count)
        return d

    @staticmethod
    def from_dict(data: Any, name: str) -> Axis:
        if not isinstance(data, dict):
            raise LabelError(f"{name} must be an object like {{\"style\": \"number\", \"start\": 1}}")
        unknown = set(data) - {"style", "start", "width", "descending", "count"}
        if unknown:
            raise LabelError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            a = Axis(str(data.get("style", "number")), int(data.get("start", 1)), int(data.get("width", 0)),
                     bool(data.get("descending", False)), int(data.get("count", 0)))
        except (TypeError, ValueError):
            raise LabelError(f"{name}: start, width and count must be whole numbers") from None
        a.check(name)
        return a


def _shift(k: int, parity: str) -> int:
    return k // 2 if parity == "odd" else (k + 1) // 2


@dataclass(frozen=True)
class Oblique:
    """The slanted axis of an Avalon Hill numbering (module docstring)."""

    axis: str = "row"
    direction: str = "minus"
    parity: str = "odd"

    def check(self) -> None:
        if self.axis not in ("col", "row") or self.direction not in ("plus", "minus") \
                or self.parity not in ("odd", "even"):
            raise LabelError("oblique: axis must be 'col' or 'row', direction 'plus' or 'minus', "
                             "parity 'odd' or 'even'")

    def slant(self, cell: Cell) -> Cell:
        """Storage cell -> the (col, row) indexes the labels count."""
        sign = 1 if self.direction == "plus" else -1
        if self.axis == "row":
            return Cell(cell.col, cell.row + sign * _shift(cell.col, self.parity))
        return Cell(cell.col + sign * _shift(cell.row, self.parity), cell.row)

    def unslant(self, cell: Cell) -> Cell:
        sign = 1 if self.direction == "plus" else -1
        if self.axis == "row":
            return Cell(cell.col, cell.row - sign * _shift(cell.col, self.parity))
        return Cell(cell.col - sign * _shift(cell.row, self.parity), cell.row)


@dataclass(frozen=True)
class Boards:
    """A map of ``across`` boards a row, each ``cols`` × ``rows`` cells."""

    cols: int
    rows: int
    across: int
    names: tuple[str, ...] = ()

    def check(self) -> None:
        if self.cols < 1 or self.rows < 1 or self.across < 1:
            raise LabelError("boards: cols, rows and across must be 1 or more")
        if any(not re.fullmatch(r"[A-Za-z]+", n) for n in self.names):
            raise LabelError("boards: each board name must be letters (A, B, ... or e.g. 'Ab')")
        if len({n.casefold() for n in self.names}) != len(self.names):
            raise LabelError("boards: two boards have the same name")

    def name(self, i: int) -> str:
        if self.names:
            if i >= len(self.names):
                raise LabelError(f"board {i + 1} has no name (only {len(self.names)} are given)")
            return self.names[i]
        return Axis("alpha").text(i, "board")

    def index(self, name: str) -> int:
        if self.names:
            for i, n in enumerate(self.names):
                if n.casefold() == name.casefold():
                    return i
            raise LabelError(f"no board is named '{name}' (boards: {', '.join(self.names)})")
        return Axis("alpha").read(name)


class AxesNumbering(Numbering):
    """The ``axes`` scheme (module docstring)."""

    scheme = "axes"

    def __init__(self, col: Axis, row: Axis, first: str = "col", separator: str = "",
                 oblique: Oblique | None = None, boards: Boards | None = None) -> None:
        if first not in ("col", "row"):
            raise LabelError(f"first must be 'col' or 'row', got {first!r}")
        if len(separator) > 3 or any(ch.isalnum() for ch in separator):
            raise LabelError(f"the separator must be up to 3 characters, neither letters nor digits; got "
                             f"{separator!r}")
        col.check("column")
        row.check("row")
        if oblique is not None:
            oblique.check()
        if boards is not None:
            boards.check()
        a, b = (col, row) if first == "col" else (row, col)
        if not separator and (a.style != "number") == (b.style != "number") and (a.style != "number" or not a.width):
            raise LabelError("the two parts could be read more than one way: give a separator, or a width to the "
                             "first part's numbers, or make one part letters and the other numbers")
        if boards is not None and a.style != "number":
            raise LabelError("a board name followed by letters could be read more than one way: write the first "
                             "part as numbers")
        self.col, self.row, self.first, self.separator = col, row, first, separator
        self.oblique, self.boards = oblique, boards
        names = ("a", "b")
        board = r"(?P<board>[A-Za-z]+?)" if boards is not None else ""
        self._re = re.compile(board + a.pattern(names[0]) + re.escape(separator) + b.pattern(names[1]))

    # -- labels ------------------------------------------------------------------
    def _local(self, cell: Cell) -> tuple[str, Cell]:
        if self.boards is None:
            return "", cell
        bd = self.boards
        i = (cell.row // bd.rows) * bd.across + cell.col // bd.cols
        if cell.col // bd.cols >= bd.across:
            raise LabelError(f"cannot label {cell!r}: the map is {bd.across} boards of {bd.cols} columns across")
        return bd.name(i), Cell(cell.col % bd.cols, cell.row % bd.rows)

    def label(self, cell: Cell) -> str:
        if cell.col < 0 or cell.row < 0:
            raise LabelError(f"cannot label {cell!r}: negative index")
        prefix, local = self._local(cell)
        if self.oblique is not None:
            local = self.oblique.slant(local)
        c = self.col.text(self.col.value(local.col), "column")
        r = self.row.text(self.row.value(local.row), "row")
        a, b = (c, r) if self.first == "col" else (r, c)
        return f"{prefix}{a}{self.separator}{b}"

    def parse(self, text: str) -> Cell:
        m = self._re.fullmatch(text.strip())
        if not m:
            raise LabelError(f"'{text}' is not a label like '{self.example()}' ({self.describe()})")
        a, b = m.group("a"), m.group("b")
        cs, rs = (a, b) if self.first == "col" else (b, a)
        local = Cell(self.col.index(self.col.read(cs)), self.row.index(self.row.read(rs)))
        if self.oblique is not None:
            local = self.oblique.unslant(local)
        if self.boards is None:
            cell = local
        else:
            bd = self.boards
            if not (0 <= local.col < bd.cols and 0 <= local.row < bd.rows):
                raise LabelError(f"'{text}': a board has {bd.cols} columns and {bd.rows} rows")
            i = bd.index(m.group("board"))
            cell = Cell((i % bd.across) * bd.cols + local.col, (i // bd.across) * bd.rows + local.row)
        if cell.col < 0 or cell.row < 0:
            raise LabelError(f"'{text}' lies before this map's first cell {self.example()}")
        if self.label(cell) != text.strip() and self.label(cell).casefold() != text.strip().casefold():
            raise LabelError(f"'{text}' is not written as this numbering writes it ('{self.label(cell)}')")
        return cell

    def check_fits(self, width: int, height: int) -> None:
        for name, axis, n in (("columns", self.col, width), ("rows", self.row, height)):
            if axis.descending and axis.count < n:
                raise LabelError(f"the {name} count down from {axis.count} cells, but the map has {n}")
        corners = [Cell(c, r) for c in {0, width - 1, max(0, width - 2)} for r in {0, height - 1, max(0, height - 2)}]
        if self.boards is not None:
            bd = self.boards
            if width > bd.across * bd.cols:
                raise LabelError(f"{width} columns do not fit {bd.across} boards of {bd.cols} columns")
            boards_down = -(-height // bd.rows)
            if bd.names and bd.across * boards_down > len(bd.names):
                raise LabelError(f"the map needs {bd.across * boards_down} boards but {len(bd.names)} are named")
            corners = [Cell(c, r) for c in range(min(width, bd.cols)) for r in (0, min(height, bd.rows) - 1)]
            corners += [Cell(width - 1, height - 1)]
        for cell in corners:
            self.label(cell)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"scheme": "axes", "col": self.col.to_dict(), "row": self.row.to_dict(),
                             "first": self.first, "separator": self.separator}
        if self.oblique is not None:
            d["oblique"] = {"axis": self.oblique.axis, "direction": self.oblique.direction,
                            "parity": self.oblique.parity}
        if self.boards is not None:
            b: dict[str, Any] = {"cols": self.boards.cols, "rows": self.boards.rows, "across": self.boards.across}
            if self.boards.names:
                b["names"] = list(self.boards.names)
            d["boards"] = b
        return d

    def describe(self) -> str:
        parts = [f"{self.first} first", f"columns as {self.col.style}", f"rows as {self.row.style}"]
        if self.oblique is not None:
            parts.append(f"oblique {self.oblique.axis}s")
        if self.boards is not None:
            parts.append(f"boards of {self.boards.cols}x{self.boards.rows}")
        return ", ".join(parts) + f", e.g. {self.example()}"


def axes_from_dict(data: dict[str, Any]) -> AxesNumbering:
    """The ``axes`` numbering of a file's ``numbering`` object (LabelError)."""
    unknown = set(data) - {"scheme", "col", "row", "first", "separator", "oblique", "boards"}
    if unknown:
        raise LabelError(f"numbering 'axes': unknown field(s) {', '.join(sorted(unknown))}")
    ob = data.get("oblique")
    bd = data.get("boards")
    try:
        oblique = None if ob is None else Oblique(**ob)
        boards = None if bd is None else Boards(int(bd["cols"]), int(bd["rows"]), int(bd["across"]),
                                                tuple(bd.get("names", ())))
    except (TypeError, KeyError, ValueError) as e:
        raise LabelError(f"numbering 'axes': bad oblique or boards ({e})") from None
    return AxesNumbering(Axis.from_dict(data.get("col", {}), "column"), Axis.from_dict(data.get("row", {}), "row"),
                         str(data.get("first", "col")), str(data.get("separator", "")), oblique, boards)


def numbering_from_dict(data: dict[str, Any]) -> Numbering:
    """Build a numbering of any scheme from its file description; raises
    :class:`LabelError` (a ``ValueError``) with the reason."""
    scheme = data.get("scheme")
    args = {k: v for k, v in data.items() if k != "scheme"}
    try:
        if scheme == "numeric":
            return NumericNumbering(**args)
        if scheme == "cwol":
            return CwolNumbering(**args)
        if scheme == "ccrr":
            return CcrrNumbering(**args)
    except TypeError as e:
        raise LabelError(f"bad option for numbering '{scheme}': {e}") from None
    if scheme == "axes":
        return axes_from_dict(data)
    raise LabelError(f"unknown numbering scheme {scheme!r}; expected 'numeric', 'cwol', 'ccrr' or 'axes'")
