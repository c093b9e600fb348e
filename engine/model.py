"""The scenario model: a map with its layers, sides, units, ruleset and turn.

Plain Python objects and numpy arrays, no Qt.  The editor wraps a
:class:`Scenario` in a document that turns edits into undo commands; the
rules read it.  Files are read and written by :mod:`engine.io`.

Naming: a *side* is a party to the game (Union, Confederacy, a neutral); the
side of a cell that a river lies on is an :class:`~engine.grids.Edge`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .grids import Cell, Edge, Grid, GridError, HexGrid, SquareGrid
from .labels import LabelError, Numbering

NO_SIDE = -1
"""Value of an uncontrolled cell in :attr:`GridMap.control`."""

NO_SIDE_SYMBOL = "."
"""Character of an uncontrolled cell in the file's ``control`` rows."""


class ModelError(ValueError):
    """A question or edit the model cannot answer: an unknown unit id, a label
    off the map, a side that does not exist.  The message names what is wrong
    in words a person can act on."""


@dataclass
class TerrainType:
    """A kind of terrain, with the properties the rules read.

    ``symbol`` is the one character that stands for it in the file's terrain
    rows.  ``move_cost`` is the cost to enter (hex/square movement);
    ``impassable`` terrain cannot be entered; ``linear`` terrain (rivers,
    mountain ridges drawn in cells) joins diagonally and blocks a diagonal
    step between two such cells; ``elevation`` is a level used by
    step-too-steep rules.  Anything else a ruleset needs lives in
    ``properties``.
    """

    id: str
    name: str
    symbol: str
    color: str
    move_cost: int = 1
    impassable: bool = False
    linear: bool = False
    elevation: int = 0
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass
class UnitType:
    """A kind of unit: ``movement`` is its allowance in the open;
    ``properties`` holds what a ruleset adds (e.g. whether it counts towards
    stacking)."""

    id: str
    name: str
    movement: int = 0
    properties: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ruleset:
    """Rules as data: terrain types, unit types and per-system options.

    ``options`` is keyed by rules system (``"cwol_rail"``, ``"gitm"``,
    ``"acw"``, …); each system documents its keys and defaults.
    """

    name: str
    terrain: list[TerrainType]
    unit_types: list[UnitType] = field(default_factory=list)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def terrain_index(self, terrain_id: str) -> int:
        for i, t in enumerate(self.terrain):
            if t.id == terrain_id:
                return i
        known = ", ".join(t.id for t in self.terrain)
        raise ModelError(f"unknown terrain '{terrain_id}' (the ruleset has: {known})")

    def unit_type(self, type_id: str) -> UnitType:
        for t in self.unit_types:
            if t.id == type_id:
                return t
        known = ", ".join(t.id for t in self.unit_types) or "none"
        raise ModelError(f"unknown unit type '{type_id}' (the ruleset has: {known})")

    def option(self, system: str, key: str, default: Any) -> Any:
        return self.options.get(system, {}).get(key, default)


@dataclass
class Faction:
    """A side in the game.  Sides with the same ``alliance`` are allies."""

    id: str
    name: str
    color: str
    symbol: str
    alliance: str = ""

    @property
    def alliance_key(self) -> str:
        return self.alliance or self.id


@dataclass
class Place:
    """A named cell: a town ("Mobile"), or a lettered city ("M")."""

    name: str
    code: str | None = None


@dataclass
class Unit:
    """A unit on the map.  ``strength`` is its factors (1 when the rules do
    not use factors); ``props`` holds rule state such as ``fortified``."""

    id: str
    side: str
    type: str
    at: Cell
    strength: int = 1
    name: str | None = None
    props: dict[str, Any] = field(default_factory=dict)


class GridMap:
    """A square or hex map: grid, numbering and layers.

    * ``terrain``: ``uint8`` array ``[row, col]`` of indexes into the
      ruleset's terrain list;
    * ``control``: ``int16`` array ``[row, col]`` of indexes into the
      scenario's sides, :data:`NO_SIDE` where nobody controls the cell;
    * ``rivers``: edges a river runs along; ``bridges``: river edges crossed
      by a bridge, with its kind (``"rail"`` or ``"road"``);
    * ``links``: per kind (``"rail"``, ``"road"``) the set of links, each an
      :class:`~engine.grids.Edge` between two link-adjacent cells;
    * ``places``: named cells;
    * ``underlay``: the scanned image shown under the map and its grid
      calibration, as the file's ``map.underlay`` record (see
      :class:`engine.calibration.Underlay` and ``docs/file-format.md``), or None.
    """

    def __init__(self, grid: Grid, numbering: Numbering,
                 terrain: np.ndarray | None = None, control: np.ndarray | None = None) -> None:
        self.grid = grid
        self.numbering = numbering
        shape = (grid.height, grid.width)
        self.terrain: np.ndarray = np.zeros(shape, np.uint8) if terrain is None else terrain
        self.control: np.ndarray = np.full(shape, NO_SIDE, np.int16) if control is None else control
        if self.terrain.shape != shape or self.control.shape != shape:
            raise ModelError(f"layer shapes {self.terrain.shape}, {self.control.shape} do not match the grid {shape}")
        self.rivers: set[Edge] = set()
        self.bridges: dict[Edge, str] = {}
        self.links: dict[str, set[Edge]] = {"rail": set(), "road": set()}
        self.places: dict[Cell, Place] = {}
        self.underlay: dict[str, Any] | None = None
        self._revisions: dict[str, int] = {}

    def touch(self, layer: str) -> None:
        """Record that ``layer`` (``terrain``, ``control``, ``rivers``, a link
        kind …) changed, so caches keyed on :meth:`revision` rebuild.  Every
        edit in :mod:`engine.editing` calls it; code that mutates layers
        directly should too."""
        self._revisions[layer] = self._revisions.get(layer, 0) + 1

    def revision(self, layer: str) -> int:
        """A number that changes whenever :meth:`touch` is called for ``layer``."""
        return self._revisions.get(layer, 0)

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    # -- labels ----------------------------------------------------------
    def label(self, cell: Cell) -> str:
        return self.numbering.label(cell)

    def parse_label(self, text: str) -> Cell:
        """The on-map cell a label (or a place name) names; raises
        :class:`ModelError` saying why not."""
        try:
            cell = self.numbering.parse(text)
        except LabelError as e:
            place = self.find_place(text)
            if place is not None:
                return place
            raise ModelError(str(e)) from None
        if not self.grid.contains(cell):
            first = self.label(Cell(0, 0))
            last = self.label(Cell(self.width - 1, self.height - 1))
            raise ModelError(f"'{text}' is off the map (it runs from {first} to {last})")
        return cell

    def find_place(self, name: str) -> Cell | None:
        key = name.strip().casefold()
        for cell, place in self.places.items():
            if place.name.casefold() == key or (place.code is not None and place.code.casefold() == key):
                return cell
        return None

    def edge_label(self, edge: Edge) -> str:
        return f"{self.label(edge.a)}|{self.label(edge.b)}"

    # -- layers ----------------------------------------------------------
    def terrain_at(self, cell: Cell) -> int:
        return int(self.terrain[cell.row, cell.col])

    def control_at(self, cell: Cell) -> int:
        return int(self.control[cell.row, cell.col])

    def has_link(self, kind: str, a: Cell, b: Cell) -> bool:
        return Edge.between(a, b) in self.links.get(kind, ())

    def linked_neighbours(self, kind: str, cell: Cell) -> list[Cell]:
        """Cells joined to ``cell`` by a link of ``kind``, in the grid's
        link-neighbour order (deterministic)."""
        links = self.links.get(kind)
        if not links:
            return []
        return [n for n in self.grid.link_neighbours(cell) if Edge.between(cell, n) in links]

    def river_between(self, a: Cell, b: Cell) -> bool:
        return a != b and Edge.between(a, b) in self.rivers

    def bridge_between(self, a: Cell, b: Cell) -> str | None:
        return self.bridges.get(Edge.between(a, b)) if a != b else None

    def copy(self) -> GridMap:
        m = GridMap(self.grid, self.numbering, self.terrain.copy(), self.control.copy())
        m.rivers = set(self.rivers)
        m.bridges = dict(self.bridges)
        m.links = {k: set(v) for k, v in self.links.items()}
        m.places = {c: Place(p.name, p.code) for c, p in self.places.items()}
        m.underlay = copy.deepcopy(self.underlay)
        return m


@dataclass
class Scenario:
    """Everything one file holds.  ``state`` keeps rule bookkeeping that is
    not a unit's or a cell's (e.g. stored reinforcement points)."""

    name: str
    ruleset: Ruleset
    sides: list[Faction]
    map: GridMap
    units: list[Unit] = field(default_factory=list)
    turn: int = 1
    description: str = ""
    state: dict[str, Any] = field(default_factory=dict)

    # -- sides -----------------------------------------------------------
    def side(self, side_id: str) -> Faction:
        for s in self.sides:
            if s.id == side_id or s.name.casefold() == side_id.casefold():
                return s
        known = ", ".join(s.id for s in self.sides)
        raise ModelError(f"unknown side '{side_id}' (the scenario has: {known})")

    def side_index(self, side_id: str) -> int:
        return self.sides.index(self.side(side_id))

    def allied(self, a: str, b: str) -> bool:
        """Whether sides ``a`` and ``b`` are the same side or allies."""
        return a == b or self.side(a).alliance_key == self.side(b).alliance_key

    # -- units -----------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        for u in self.units:
            if u.id.casefold() == unit_id.casefold():
                return u
        raise ModelError(f"no unit '{unit_id}' in scenario '{self.name}'")

    def units_at(self, cell: Cell) -> list[Unit]:
        # plain int comparisons: Cell's generated __eq__ is a Python call per
        # unit, and a hover asks this of maps with hundreds of units
        c, r = cell.col, cell.row
        return [u for u in self.units if u.at.col == c and u.at.row == r]

    def unit_cells(self) -> dict[Cell, list[Unit]]:
        out: dict[Cell, list[Unit]] = {}
        for u in self.units:
            out.setdefault(u.at, []).append(u)
        return out

    def set_control(self, cell: Cell, side_id: str | None) -> None:
        self.map.control[cell.row, cell.col] = NO_SIDE if side_id is None else self.side_index(side_id)

    def controller(self, cell: Cell) -> Faction | None:
        i = self.map.control_at(cell)
        return None if i == NO_SIDE else self.sides[i]

    def copy(self) -> Scenario:
        """A deep copy that shares nothing mutable with this one (for
        what-if questions)."""
        return Scenario(self.name, copy.deepcopy(self.ruleset), copy.deepcopy(self.sides), self.map.copy(),
                        copy.deepcopy(self.units), self.turn, self.description, copy.deepcopy(self.state))


def make_grid(kind: str, width: int, height: int, **options: Any) -> Grid:
    """A grid from its file description; raises :class:`GridError`."""
    if kind == "square":
        return SquareGrid(width, height, options.get("neighbours", 8))
    if kind == "hex":
        return HexGrid(width, height, options.get("orientation", "flat"), options.get("parity", "odd"))
    raise GridError(f"unknown grid kind {kind!r}; expected 'square' or 'hex'")


def iter_chains(edges: Iterable[Edge]) -> Iterator[list[Cell]]:
    """Decompose a set of links into chains of cells (each consecutive pair a
    link), deterministically: the form in which files store them."""
    remaining = set(edges)
    adj: dict[Cell, set[Cell]] = {}
    for e in remaining:
        adj.setdefault(e.a, set()).add(e.b)
        adj.setdefault(e.b, set()).add(e.a)
    # start at chain ends (odd degree / degree 1) first, in canonical order
    starts = sorted(adj, key=lambda c: (len(adj[c]) % 2 == 0, len(adj[c]) != 1, c))
    for start in starts:
        while adj.get(start):
            chain = [start]
            cur = start
            while adj.get(cur):
                nxt = min(adj[cur])
                adj[cur].discard(nxt)
                adj[nxt].discard(cur)
                remaining.discard(Edge.between(cur, nxt))
                chain.append(nxt)
                cur = nxt
            yield chain


__all__ = [
    "NO_SIDE", "NO_SIDE_SYMBOL", "Cell", "Edge", "Faction", "GridError", "GridMap", "ModelError", "Place",
    "Ruleset", "Scenario", "TerrainType", "Unit", "UnitType", "iter_chains", "make_grid",
]
