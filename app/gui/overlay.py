"""What a live preview asks the canvas to draw: small Qt-free value types.

A rules preview (:class:`app.gui.preview.Preview`) turns an engine result
into an :class:`Overlay`; the canvas draws it on top of the map (the items
that stay the same while the mouse moves once, see ``Overlay.layer_key``;
:mod:`app.gui.render.marks`), repaints only the area an overlay changes, and
shows ``message`` in the status bar and the item tooltips when the
mouse rests on them.  Colours are ``"#rrggbb"`` or ``"#rrggbbaa"`` strings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import numpy as np

from engine.grids import Cell, Edge


class CellSeq(Sequence[Cell]):
    """Cells held as arrays of columns and rows (a march's hundreds of
    checked squares): a :class:`Cell` is made only when one is asked for;
    the painter reads the arrays as they are (``render.marks.cell_arrays``)."""

    __slots__ = ("cols", "rows", "_keys")

    def __init__(self, cols: np.ndarray[Any, Any], rows: np.ndarray[Any, Any]) -> None:
        if len(cols) != len(rows):
            raise ValueError(f"{len(cols)} columns for {len(rows)} rows")
        self.cols = np.asarray(cols, np.int64)
        self.rows = np.asarray(rows, np.int64)
        self._keys: frozenset[tuple[int, int]] | None = None

    def __len__(self) -> int:
        return len(self.cols)

    @overload
    def __getitem__(self, i: int) -> Cell: ...
    @overload
    def __getitem__(self, i: slice) -> CellSeq: ...
    def __getitem__(self, i: int | slice) -> Cell | CellSeq:
        if isinstance(i, slice):
            return CellSeq(self.cols[i], self.rows[i])
        return Cell(int(self.cols[i]), int(self.rows[i]))

    def __iter__(self) -> Iterator[Cell]:
        return (Cell(c, r) for c, r in zip(self.cols.tolist(), self.rows.tolist(), strict=True))

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, Cell):
            return False
        if self._keys is None:
            self._keys = frozenset(zip(self.cols.tolist(), self.rows.tolist(), strict=True))
        return (cell.col, cell.row) in self._keys

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CellSeq):
            return bool(np.array_equal(self.cols, other.cols) and np.array_equal(self.rows, other.rows))
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.cols.tobytes(), self.rows.tobytes()))

    def __repr__(self) -> str:
        return f"CellSeq({len(self)} cells)"


@dataclass(frozen=True)
class CellMark:
    """Fill and/or outline one cell, optionally with a short text (e.g.
    "T/U", a cost) drawn in it."""

    cell: Cell
    fill: str | None = None
    outline: str | None = None
    text: str | None = None
    tooltip: str | None = None
    width: float = 2.0


@dataclass(frozen=True)
class CellMarks:
    """Many cells marked alike (a march's checked squares), painted as one
    batch: what a :class:`CellMark` per cell would show, without an object
    per cell.  ``tooltip`` is shared; with ``label`` (the map's labelling)
    each cell's tooltip starts with the cell's label (:meth:`tooltip_for`).
    ``cells``: a tuple, or a :class:`CellSeq`."""

    cells: Sequence[Cell]
    fill: str | None = None
    outline: str | None = None
    text: str | None = None
    tooltip: str | None = None
    width: float = 2.0
    label: Callable[[Cell], str] | None = None

    def tooltip_for(self, cell: Cell) -> str | None:
        """The tooltip of ``cell`` (one of ``cells``)."""
        if self.tooltip is None or self.label is None:
            return self.tooltip
        return f"{self.label(cell)}: {self.tooltip}"

    def mark(self, cell: Cell) -> CellMark:
        """The :class:`CellMark` showing the same on ``cell``."""
        return CellMark(cell, self.fill, self.outline, self.text, self.tooltip_for(cell), self.width)


@dataclass(frozen=True)
class PathLine:
    """A polyline through cell centres (a rail path, a march line);
    ``cells``: a tuple, or a :class:`CellSeq`."""

    cells: Sequence[Cell]
    color: str
    width: float = 3.0
    dashed: bool = False
    tooltip: str | None = None


@dataclass(frozen=True)
class EdgeMark:
    """Highlight the side two cells share (a river crossing, a bridge)."""

    edge: Edge
    color: str
    width: float = 4.0
    tooltip: str | None = None


@dataclass(frozen=True)
class Marker:
    """A symbol at a cell centre: the stop point, a waypoint, a blocker."""

    cell: Cell
    shape: Literal["circle", "cross", "star", "square", "diamond"]
    color: str
    text: str | None = None
    tooltip: str | None = None
    size: float = 0.5  # fraction of the cell size


Item = CellMark | CellMarks | PathLine | EdgeMark | Marker


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the right number: "1 unit", "2 units", "0 squares"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


SHORT_LIMIT = 100
"""Longest short form of a verdict (:meth:`Overlay.short`), in characters:
what fits the status bar beside the hovered cell's description."""


@dataclass(frozen=True)
class Overlay:
    """Everything one preview draws, plus its verdict in words.

    ``message`` is the whole verdict (the verdict panel shows it wrapped,
    the tooltip of the target says it once); ``summary`` an optional short
    form for the status bar (:meth:`short` makes one when it is empty);
    ``reasons`` further lines the verdict panel lists under the verdict
    (refused squares, ties, the path).

    ``layer_key`` and ``layer_count``: the first ``layer_count`` items do not
    change while the mouse moves (a unit's reach); a preview hands the same
    ``layer_key`` object with them for as long as they stay the same, and
    the canvas paints them once per key and zoom into a cached layer.  A
    new key (another object) means they changed."""

    items: tuple[Item, ...] = ()
    message: str = ""
    ok: bool | None = None  # True: a legal move; False: refused; None: informational
    details: dict[str, object] = field(default_factory=dict)
    summary: str = ""
    reasons: tuple[str, ...] = ()
    layer_key: object = None
    layer_count: int = 0

    def short(self, limit: int = SHORT_LIMIT) -> str:
        """The verdict in at most ``limit`` characters: ``summary``, or the
        message's first clause (up to the first "; "), cut at a word and
        ended with "…" when still too long."""
        text = self.summary or self.message.split("; ", 1)[0]
        if len(text) <= limit:
            return text
        cut = text[:limit - 1]
        if " " in cut:
            cut = cut[:cut.rindex(" ")]
        return cut.rstrip(" ,;:") + "\u2026"

    def tooltip_at(self, cell: Cell) -> str | None:
        """Tooltips of the items on ``cell``, joined; ``None`` if none."""
        tips = []
        for it in self.items:
            if isinstance(it, (CellMark, Marker)) and it.cell == cell and it.tooltip:
                tips.append(it.tooltip)
            elif isinstance(it, EdgeMark) and cell in (it.edge.a, it.edge.b) and it.tooltip:
                tips.append(it.tooltip)
            elif isinstance(it, PathLine) and cell in it.cells and it.tooltip:
                tips.append(it.tooltip)
            elif isinstance(it, CellMarks) and it.tooltip and cell in it.cells:
                tips.append(it.tooltip_for(cell) or "")
        return "\n".join(dict.fromkeys(tips)) or None


EMPTY = Overlay()
