"""Value types and the grid interface shared by every kind of grid.

A :class:`Cell` is the *storage* coordinate of a cell: its column and row in
the map's rectangle of cells (``0 <= col < width``, ``0 <= row < height``).
Layers are arrays indexed ``[row, col]``; labels, files and messages name
cells through the map's numbering (:mod:`engine.labels`).

The mathematics of each kind happens in its own coordinates: col/row for
squares, cube coordinates (:class:`engine.grids.hexgrid.Hex`) for hexes.  A
:class:`Grid` hides that behind one interface, so rules code never asks which
kind of grid it runs on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

Point = tuple[float, float]
Step = tuple[int, int]
"""A step ``(dcol, drow)`` in storage coordinates from a cell to another."""
StepTable = tuple[tuple[Step, ...], tuple[Step, ...], tuple[Step, ...], tuple[Step, ...]]
"""Steps to the neighbours of a cell for each :func:`step_class`."""


def step_class(col: int, row: int) -> int:
    """Which row of a :data:`StepTable` holds the steps of the cell at
    ``col``, ``row``: ``(col & 1) | (row & 1) << 1``.  The steps to a cell's
    neighbours depend only on the parity of its column and row (hex offset
    storage shoves every other column or row), so four rows cover every
    cell of every kind of grid."""
    return (col & 1) | (row & 1) << 1


class GridKind(str, Enum):
    """The closed set of grid kinds a map can have."""

    SQUARE = "square"
    HEX = "hex"


class GridError(ValueError):
    """A grid was asked something that makes no sense (e.g. the side of two
    cells that are not adjacent)."""


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """Column and row of a cell in its map's storage rectangle.

    Ordering is by column, then row; it is the canonical order used wherever
    the engine needs a deterministic choice between cells.
    """

    col: int
    row: int

    def __repr__(self) -> str:
        return f"Cell({self.col}, {self.row})"


_new_cell = object.__new__
_set_col = Cell.__dict__["col"].__set__
_set_row = Cell.__dict__["row"].__set__


def cells_of(cols: Iterable[int], rows: Iterable[int]) -> list[Cell]:
    """``[Cell(c, r) for c, r in zip(cols, rows)]``, made without the frozen
    ``__init__``'s attribute calls (a third of the time, for a file's tens
    of thousands of cells); the cells are equal and as frozen."""
    out: list[Cell] = []
    add = out.append
    for c, r in zip(cols, rows):
        cell = _new_cell(Cell)
        _set_col(cell, c)
        _set_row(cell, r)
        add(cell)
    return out


@dataclass(frozen=True, slots=True, order=True)
class Edge:
    """An edge: the side two adjacent cells share, named the same from either cell.

    Always build one with :meth:`between` (or :meth:`Grid.edge`), which puts
    the two cells in canonical order, so ``Edge.between(a, b) ==
    Edge.between(b, a)``.
    """

    a: Cell
    b: Cell
    _hash: int = field(init=False, repr=False, compare=False)
    """``hash((a, b))``, the hash a frozen dataclass of ``a`` and ``b`` has,
    kept: edges live in sets and dicts and are hashed many times each."""

    def __post_init__(self) -> None:
        # Plain int comparisons: this runs for every edge a map loads, and the
        # dataclass-generated Cell.__lt__ costs a Python call per comparison.
        a, b = self.a, self.b
        if not (a.col < b.col or (a.col == b.col and a.row < b.row)):
            raise GridError(f"Edge cells must be distinct and ordered, got {a!r}, {b!r}")
        object.__setattr__(self, "_hash", hash((a, b)))

    def __hash__(self) -> int:
        return self._hash

    @staticmethod
    def between(a: Cell, b: Cell) -> Edge:
        return Edge(a, b) if (a.col, a.row) < (b.col, b.row) else Edge(b, a)

    def other(self, cell: Cell) -> Cell:
        """The cell across this side from ``cell``."""
        if cell == self.a:
            return self.b
        if cell == self.b:
            return self.a
        raise GridError(f"{cell!r} is not on side {self!r}")


# A link (rail, road) joins two adjacent cells; it is identified the same way
# as the side between them, canonical whichever end is named first.
Link = Edge


class Grid(ABC):
    """Topology of a rectangle of cells: which cells exist, which touch, how
    far apart they are, and the sides between them.

    Geometry (where a cell is drawn) lives in :class:`Layout`, not here.
    """

    kind: GridKind

    def __init__(self, width: int, height: int) -> None:
        if width < 1 or height < 1:
            raise GridError(f"a grid needs at least one column and one row, got {width}x{height}")
        self.width = width
        self.height = height

    # -- cells -----------------------------------------------------------
    def contains(self, cell: Cell) -> bool:
        return 0 <= cell.col < self.width and 0 <= cell.row < self.height

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row (north to south), west to east in a row."""
        for row in range(self.height):
            for col in range(self.width):
                yield Cell(col, row)

    @property
    def size(self) -> int:
        return self.width * self.height

    def corner_cells(self) -> dict[str, Cell]:
        """The four corner cells, keyed ``nw``, ``ne``, ``sw``, ``se``."""
        w, h = self.width - 1, self.height - 1
        return {"nw": Cell(0, 0), "ne": Cell(w, 0), "sw": Cell(0, h), "se": Cell(w, h)}

    # -- topology --------------------------------------------------------
    @abstractmethod
    def neighbours(self, cell: Cell) -> list[Cell]:
        """Cells adjacent to ``cell`` that lie on the map, in a fixed order
        documented by each grid kind."""

    @abstractmethod
    def distance(self, a: Cell, b: Cell) -> int:
        """Number of steps between two cells; each kind documents its metric."""

    def are_adjacent(self, a: Cell, b: Cell) -> bool:
        return a != b and self.distance(a, b) == 1

    def link_neighbours(self, cell: Cell) -> list[Cell]:
        """Cells a link (rail, road) from ``cell`` may join.  By default the
        ordinary neighbours; square grids also allow diagonal links."""
        return self.neighbours(cell)

    def can_link(self, a: Cell, b: Cell) -> bool:
        return b in self.link_neighbours(a)

    def edge(self, a: Cell, b: Cell) -> Edge:
        """The side ``a`` and ``b`` share.  Raises :class:`GridError` when
        they share none (not adjacent, or only a corner)."""
        if not self.shares_side(a, b):
            raise GridError(f"{a!r} and {b!r} share no side")
        return Edge.between(a, b)

    def shares_side(self, a: Cell, b: Cell) -> bool:
        """Whether ``a`` and ``b`` share a whole side (not just a corner)."""
        return self.are_adjacent(a, b)

    def edges_of(self, cell: Cell) -> list[Edge]:
        """The sides of ``cell`` towards on-map cells."""
        return [Edge.between(cell, n) for n in self.neighbours(cell) if self.shares_side(cell, n)]

    def link(self, a: Cell, b: Cell) -> Edge:
        if not (self.contains(a) and self.contains(b) and self.can_link(a, b)):
            raise GridError(f"{a!r} and {b!r} cannot be joined by a link")
        return Edge.between(a, b)

    # -- kind-specific math, behind one interface -------------------------
    # Callers ask the grid, never its class: each kind implements these in
    # its own coordinates (col/row for squares, cube/axial for hexes).

    @abstractmethod
    def neighbour_steps(self, cell: Cell) -> tuple[Step, ...]:
        """Steps from ``cell`` to each of its neighbours, on the map or not,
        in :meth:`neighbours` order."""

    def link_steps(self, cell: Cell) -> tuple[Step, ...]:
        """Steps from ``cell`` to each cell a link may join, on the map or
        not, in :meth:`link_neighbours` order."""
        return self.neighbour_steps(cell)

    def neighbour_step_table(self) -> StepTable:
        """:meth:`neighbour_steps` for each :func:`step_class`: search code
        that numbers cells ``row * width + col`` steps with
        ``table[step_class(col, row)]`` and no :class:`Cell` per step."""
        return (self.neighbour_steps(Cell(0, 0)), self.neighbour_steps(Cell(1, 0)),
                self.neighbour_steps(Cell(0, 1)), self.neighbour_steps(Cell(1, 1)))

    def link_step_table(self) -> StepTable:
        """:meth:`link_steps` for each :func:`step_class`."""
        return (self.link_steps(Cell(0, 0)), self.link_steps(Cell(1, 0)),
                self.link_steps(Cell(0, 1)), self.link_steps(Cell(1, 1)))

    @abstractmethod
    def to_axial(self, cell: Cell) -> tuple[int, int]:
        """The cell's axial coordinates ``(q, r)``: those in which adjacency
        is the same fixed pattern of steps everywhere (:meth:`side_structure`).
        Squares: ``(col, row)``; hexes: Red Blob's axial ``(q, r)``."""

    @abstractmethod
    def from_axial(self, q: int, r: int) -> Cell:
        """The cell (on the map or not) at axial ``(q, r)``; inverse of
        :meth:`to_axial`."""

    @abstractmethod
    def offset_to_axial_arrays(self, cols: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`to_axial` for whole integer arrays of columns and rows at
        once (any shape, dtype kept)."""

    @abstractmethod
    def axial_to_offset_arrays(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`from_axial` for whole integer arrays: ``(cols, rows)``."""

    @abstractmethod
    def side_structure(self) -> np.ndarray:
        """A 3x3 boolean array indexed ``[dq + 1, dr + 1]``: which axial
        steps lead to a cell sharing a side (the centre is ``True``).  With
        :meth:`offset_to_axial_arrays` it turns region questions (a bucket
        fill) into array labelling with one structure on every kind."""

    def label_sides(self, mask: np.ndarray) -> np.ndarray:
        """Regions of a boolean ``[row, col]`` mask (``height`` x ``width``):
        an integer array of the same shape, 0 off the mask, and one number
        per region of mask cells joined across shared sides.  Labels in the
        axial frame, where :meth:`side_structure` holds everywhere, in C
        (:func:`scipy.ndimage.label`)."""
        from scipy import ndimage

        h, w = mask.shape
        rr, cc = np.mgrid[0:h, 0:w]
        aq, ar = self.offset_to_axial_arrays(cc, rr)
        aq0, ar0 = aq - aq.min(), ar - ar.min()
        axial = np.zeros((int(aq0.max()) + 1, int(ar0.max()) + 1), bool)
        axial[aq0, ar0] = mask
        labels, _ = ndimage.label(axial, structure=self.side_structure())
        out: np.ndarray = labels[aq0, ar0]
        return out

    @abstractmethod
    def disc(self, center: Cell, radius: int) -> list[Cell]:
        """On-map cells at :meth:`distance` ``<= radius`` from ``center``
        (which may lie off the map), in the order each kind documents."""

    @abstractmethod
    def brush(self, center: Cell, size: int) -> list[Cell]:
        """The on-map cells a brush ``size`` cells wide centred on
        ``center`` covers; each kind documents its shape and order."""

    @abstractmethod
    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """The cells of a straight line from ``a`` to ``b``, both included,
        each link-adjacent to the next (so a line is also a valid rail or
        road); each kind documents its interpolation."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The grid's description as stored in scenario files."""

    @abstractmethod
    def make_layout(self, size: float) -> Layout:
        """A geometry layout for this grid with cells of the given size
        (square side, or hex circumradius), map's top-left corner at 0, 0."""


class Layout(ABC):
    """Geometry of a grid: cell to point, point to cell, cell outline.

    Returns plain numbers; only the app turns them into Qt types.  The map's
    bounding box starts at (0, 0), y grows downwards (screen convention).
    """

    @abstractmethod
    def center(self, cell: Cell) -> Point: ...

    @abstractmethod
    def corners(self, cell: Cell) -> list[Point]:
        """Outline of the cell, clockwise on screen."""

    @abstractmethod
    def pick(self, x: float, y: float) -> Cell:
        """The cell whose outline contains the point (it may lie off the
        map: check with :meth:`Grid.contains`)."""

    @abstractmethod
    def edge_segment(self, edge: Edge) -> tuple[Point, Point]:
        """The two end points of the side two cells share."""

    def edge_segments(self, ac: np.ndarray, ar: np.ndarray, bc: np.ndarray, br: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`edge_segment` for whole arrays of edges (cell ``a`` at
        columns ``ac``, rows ``ar``; cell ``b`` at ``bc``, ``br``): the end
        points' ``x0, y0, x1, y1`` as float arrays, NaN where the two cells
        share no side.  Each kind computes it as arrays (a tile of a big map
        draws hundreds of river sides); this form asks :meth:`edge_segment`
        edge by edge."""
        out = np.full((4, len(ac)), np.nan)
        for k, (a0, a1, b0, b1) in enumerate(zip(np.asarray(ac).tolist(), np.asarray(ar).tolist(),
                                                  np.asarray(bc).tolist(), np.asarray(br).tolist(), strict=True)):
            try:
                (x0, y0), (x1, y1) = self.edge_segment(Edge(Cell(a0, a1), Cell(b0, b1)))
            except (GridError, ValueError):
                continue
            out[:, k] = (x0, y0, x1, y1)
        return out[0], out[1], out[2], out[3]

    @abstractmethod
    def bounds(self) -> tuple[float, float]:
        """Width and height of the whole map's bounding box."""

    @abstractmethod
    def cells_in_rect(self, x0: float, y0: float, x1: float, y1: float) -> tuple[range, range]:
        """Column and row ranges (clipped to the map) of the cells that may
        overlap the rectangle; a small superset is allowed."""

