"""Coordinate labels: how a person names a cell.

A numbering is a per-map strategy (like VASSAL's ``GridNumbering``) that turns
a storage :class:`~engine.grids.Cell` into the label a person reads or types
and back; ``parse(label(c)) == c`` for every cell it can label.  Every place
a cell meets a person (CLI, status bar, files, messages) goes through one.

Schemes:

``numeric``
    ``column<sep>row`` as GITM writes it: ``3-1`` is column 3, row 1.  The
    first index is configurable (default 1).
``cwol``
    Civil War OnLine's two-part labels, e.g. ``E6-Y4``: each part is a letter
    A-Z and a digit 0-9 standing for the index 10*letter + digit (A0 = 0 ...
    Z9 = 259); the first part is the column (west to east), the second the row
    (north to south).  ``first_col``/``first_row`` give the index of the map's
    first column/row, so a map cut from the big CWOL map keeps its labels.
``axes``
    Any other scheme, described by data: letters or numbers per axis,
    start, descending, width, order, separator, Avalon Hill oblique
    numbering, board prefixes (:mod:`engine.numbering`).
``ccrr``
    The hex-wargame convention ``CCRR`` (``0101``, ``1215``): column then row
    (or row then column), each zero-padded to ``digits``, counting from
    ``first`` (default 1), with an optional separator.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from .grids import Cell


class LabelError(ValueError):
    """A label that does not parse, or a cell a numbering cannot label."""


class Numbering(ABC):
    scheme: str

    @abstractmethod
    def label(self, cell: Cell) -> str:
        """The label of ``cell``.  Raises :class:`LabelError` when the scheme
        cannot express it."""

    @abstractmethod
    def parse(self, text: str) -> Cell:
        """The cell a label names.  Raises :class:`LabelError` with the reason
        when ``text`` is not a label of this scheme.  Bounds are the map's
        business (:meth:`engine.model.GridMap.parse_label`)."""

    def parse_plain(self, labels: Sequence[str]) -> np.ndarray | None:
        """The cells of many labels at once, for a file's thousands: an
        ``(n, 2)`` ``int64`` array of their columns and rows, the same as
        :meth:`parse` gives one by one, when every label is in the scheme's
        plain form; ``None`` when any is not (or the scheme has no bulk
        form, as here): then each label goes through :meth:`parse`, which
        says what is wrong with a bad one."""
        return None

    @abstractmethod
    def to_dict(self) -> dict[str, Any]: ...

    @abstractmethod
    def describe(self) -> str:
        """A short human description, e.g. ``"CWOL letter-digit pairs"``."""

    def check_fits(self, width: int, height: int) -> None:
        """Raise :class:`LabelError` if some cell of a ``width`` x ``height``
        map cannot be labelled."""
        for cell in (Cell(0, 0), Cell(width - 1, height - 1)):
            self.label(cell)

    def example(self) -> str:
        return self.label(Cell(0, 0))


class NumericNumbering(Numbering):
    scheme = "numeric"

    def __init__(self, first: int = 1, separator: str = "-",
                 order: Literal["col-row", "row-col"] = "col-row") -> None:
        if not separator or any(ch.isdigit() for ch in separator):
            raise LabelError(f"numeric labels need a non-digit separator, got {separator!r}")
        if order not in ("col-row", "row-col"):
            raise LabelError(f"order must be 'col-row' or 'row-col', got {order!r}")
        if first < 0:
            raise LabelError(f"first index must be 0 or more, got {first}")
        self.first, self.separator, self.order = first, separator, order
        self._re = re.compile(r"(\d+)" + re.escape(separator) + r"(\d+)")

    def label(self, cell: Cell) -> str:
        if cell.col < 0 or cell.row < 0:
            raise LabelError(f"cannot label {cell!r}: negative index")
        a, b = cell.col + self.first, cell.row + self.first
        if self.order == "row-col":
            a, b = b, a
        return f"{a}{self.separator}{b}"

    def parse(self, text: str) -> Cell:
        m = self._re.fullmatch(text.strip())
        if not m:
            raise LabelError(f"'{text}' is not a label like '{self.example()}' (column{self.separator}row)")
        a, b = int(m.group(1)) - self.first, int(m.group(2)) - self.first
        if self.order == "row-col":
            a, b = b, a
        if a < 0 or b < 0:
            raise LabelError(f"'{text}': numbering starts at {self.first}")
        return Cell(a, b)

    def parse_plain(self, labels: Sequence[str]) -> np.ndarray | None:
        """Plain form: ASCII digits (at most 18), the separator, ASCII
        digits, nothing around them, each number at least :attr:`first`."""
        nums = _plain_pairs(labels, self.separator)
        if nums is None:
            return None
        nums -= self.first
        if self.order == "row-col":
            nums = nums[:, ::-1].copy()
        if (nums < 0).any():
            return None
        return nums

    def to_dict(self) -> dict[str, Any]:
        return {"scheme": "numeric", "first": self.first, "separator": self.separator, "order": self.order}

    def describe(self) -> str:
        return f"numeric {self.order} from {self.first}, e.g. {self.example()}"


def _plain_pairs(labels: Sequence[str], separator: str) -> np.ndarray | None:
    """The two numbers of each label of the form ``<digits><separator><digits>``
    (ASCII digits, 1 to 18 of them, nothing else) as an ``(n, 2)`` ``int64``
    array, read all at once; ``None`` when any label is not of that form."""
    if not labels or not separator or "\n" in separator or "\0" in separator:
        return None
    try:
        text = "\n".join(labels)
    except TypeError:
        return None
    if "\0" in text:
        return None
    try:
        raw = text.replace(separator, "\0").encode("ascii")
    except UnicodeEncodeError:
        return None
    b = np.frombuffer(raw, np.uint8)
    digit = (b >= 48) & (b <= 57)
    stops = np.flatnonzero(~digit)  # the separators and newlines, in order
    n = len(labels)
    if len(stops) != 2 * n - 1 or (b[stops[0::2]] != 0).any() or (b[stops[1::2]] != 10).any():
        return None
    starts = np.concatenate(([0], stops + 1))
    ends = np.concatenate((stops, [len(b)]))
    width = ends - starts
    if width.min() < 1 or width.max() > 18:
        return None
    run = np.cumsum(~digit)  # which number each byte belongs to (a stop counts with the next)
    place = ends[run] - np.arange(len(b)) - 1  # digits after this one in its number
    powers = 10 ** np.arange(18, dtype=np.int64)
    values = (b.astype(np.int64) - 48) * powers[np.where(digit, place, 0)]
    values[~digit] = 0
    return np.add.reduceat(values, starts).reshape(n, 2)


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CWOL_RE = re.compile(r"([A-Za-z])(\d)-([A-Za-z])(\d)")


class CwolNumbering(Numbering):
    scheme = "cwol"
    MAX_INDEX = 259

    def __init__(self, first_col: int = 0, first_row: int = 0) -> None:
        for name, v in (("first_col", first_col), ("first_row", first_row)):
            if not 0 <= v <= self.MAX_INDEX:
                raise LabelError(f"{name} must be 0..{self.MAX_INDEX} (A0..Z9), got {v}")
        self.first_col, self.first_row = first_col, first_row

    @staticmethod
    def part(index: int) -> str:
        """``44`` -> ``"E4"``."""
        if not 0 <= index <= CwolNumbering.MAX_INDEX:
            raise LabelError(f"index {index} is outside A0..Z9 (0..259)")
        return f"{_LETTERS[index // 10]}{index % 10}"

    def label(self, cell: Cell) -> str:
        return f"{self.part(cell.col + self.first_col)}-{self.part(cell.row + self.first_row)}"

    def parse(self, text: str) -> Cell:
        m = _CWOL_RE.fullmatch(text.strip())
        if not m:
            raise LabelError(f"'{text}' is not a CWOL label like 'E6-Y4' (letter+digit, dash, letter+digit)")
        col = _LETTERS.index(m.group(1).upper()) * 10 + int(m.group(2)) - self.first_col
        row = _LETTERS.index(m.group(3).upper()) * 10 + int(m.group(4)) - self.first_row
        if col < 0 or row < 0:
            raise LabelError(f"'{text}' lies before this map's first square "
                             f"{self.part(self.first_col)}-{self.part(self.first_row)}")
        return Cell(col, row)

    def to_dict(self) -> dict[str, Any]:
        return {"scheme": "cwol", "first_col": self.first_col, "first_row": self.first_row}

    def check_fits(self, width: int, height: int) -> None:
        for what, first, n in (("columns", self.first_col, width), ("rows", self.first_row, height)):
            if first + n - 1 > self.MAX_INDEX:
                raise LabelError(f"CWOL labels stop at Z9: {n} {what} starting at {self.part(first)} "
                                 f"would need index {first + n - 1}")

    def describe(self) -> str:
        return f"CWOL letter-digit pairs, first square {self.example()}"


class CcrrNumbering(Numbering):
    scheme = "ccrr"

    def __init__(self, first: int = 1, digits: int = 2, order: Literal["col-row", "row-col"] = "col-row",
                 separator: str = "") -> None:
        if not 1 <= digits <= 6:
            raise LabelError(f"digits must be 1..6, got {digits}")
        if order not in ("col-row", "row-col"):
            raise LabelError(f"order must be 'col-row' or 'row-col', got {order!r}")
        if any(ch.isdigit() for ch in separator):
            raise LabelError(f"separator may not contain digits, got {separator!r}")
        if first < 0:
            raise LabelError(f"first index must be 0 or more, got {first}")
        self.first, self.digits, self.order, self.separator = first, digits, order, separator
        self._re = re.compile(rf"(\d{{{digits}}}){re.escape(separator)}(\d{{{digits}}})")

    def label(self, cell: Cell) -> str:
        a, b = cell.col + self.first, cell.row + self.first
        limit = 10 ** self.digits - 1
        if not (0 <= a <= limit and 0 <= b <= limit):
            raise LabelError(f"cannot label {cell!r} with {self.digits} digits per part")
        if self.order == "row-col":
            a, b = b, a
        return f"{a:0{self.digits}d}{self.separator}{b:0{self.digits}d}"

    def parse(self, text: str) -> Cell:
        m = self._re.fullmatch(text.strip())
        if not m:
            raise LabelError(f"'{text}' is not a hex number like '{self.example()}' "
                             f"({self.digits} digits for the {self.order.replace('-', ', then ')})")
        a, b = int(m.group(1)) - self.first, int(m.group(2)) - self.first
        if self.order == "row-col":
            a, b = b, a
        if a < 0 or b < 0:
            raise LabelError(f"'{text}': numbering starts at {self.first:0{self.digits}d}")
        return Cell(a, b)

    def to_dict(self) -> dict[str, Any]:
        return {"scheme": "ccrr", "first": self.first, "digits": self.digits, "order": self.order,
                "separator": self.separator}

    def describe(self) -> str:
        return f"CCRR {self.order}, {self.digits} digits from {self.first}, e.g. {self.example()}"
