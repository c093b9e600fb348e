"""Grid topology and geometry: square and hex grids behind one interface."""

from __future__ import annotations

from .base import Cell, Grid, GridError, GridKind, Layout, Link, Point, Edge
from .hexgrid import HEX_DIRECTIONS, FractionalHex, Hex, HexGrid, HexLayout, Orientation, Parity
from .square import SquareGrid, SquareLayout

__all__ = [
    "Cell", "Grid", "GridError", "GridKind", "Layout", "Link", "Point", "Edge",
    "HEX_DIRECTIONS", "FractionalHex", "Hex", "HexGrid", "HexLayout", "Orientation", "Parity",
    "SquareGrid", "SquareLayout",
]
