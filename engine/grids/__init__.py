"""Grid topology and geometry: square and hex grids behind one interface."""

from __future__ import annotations

from .base import Cell, Edge, Grid, GridError, GridKind, Layout, Link, Point, Step, StepTable, cells_of, step_class
from .hexgrid import (
    HEX_DIRECTIONS,
    FractionalHex,
    Hex,
    HexGrid,
    HexLayout,
    Orientation,
    Parity,
    cube_round,
    cube_round_arrays,
)
from .square import SquareGrid, SquareLayout

__all__ = [
    "HEX_DIRECTIONS",
    "Cell",
    "cells_of",
    "Edge",
    "FractionalHex",
    "Grid",
    "GridError",
    "GridKind",
    "Hex",
    "HexGrid",
    "HexLayout",
    "Layout",
    "Link",
    "Orientation",
    "Parity",
    "Point",
    "SquareGrid",
    "SquareLayout",
    "Step",
    "StepTable",
    "cube_round",
    "cube_round_arrays",
    "step_class",
]
