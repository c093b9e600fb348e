"""Territory maps: named land and sea territories with shapes, a border graph,
nations, units located in territories, and the scenario that holds them.

A territory map is the third kind of map beside square and hex grids.  It
lives beside :class:`engine.model.Scenario` (which keeps its grid map): a file
whose ``map.grid.kind`` is ``"territory"`` loads as a
:class:`TerritoryScenario` (see :mod:`engine.io.territory` and
``docs/file-format-territory.md``).

Nations (powers) are :class:`engine.model.Faction` objects; their
``alliance`` ("Axis", "Allies") makes them allies.  Turn order is the order of
``sides``.  Rules extend territories through :attr:`Territory.features`, a
mapping from feature name to JSON data (e.g. a rail station with damage
markers), so a new rules system needs no change here.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import networkx as nx
from shapely.geometry import Polygon

from ..model import Faction, ModelError, Ruleset
from .geometry import Shape, derive_adjacency, label_point


class BorderKind(str, Enum):
    """What a border between two territories is, for movement and rail.

    * ``ORDINARY`` — a shared land border, a coast (land–sea) or a sea lane;
    * ``CLOSED`` — land units cross it, rail never does (desert, mountain and
      tundra borders: Sahara, Siberia, Outback, Himalayas);
    * ``RAIL_CROSSING`` — a water crossing between two land territories that
      rail may use (Jordan–Egypt, Italy–Sicily, the Panama Canal);
    * ``STRAIT`` — a water crossing between two land territories that land
      units may make but rail may not.
    """

    ORDINARY = "ordinary"
    CLOSED = "closed"
    RAIL_CROSSING = "rail_crossing"
    STRAIT = "strait"


@dataclass(frozen=True)
class Border:
    """The border between territories ``a`` and ``b`` (ids, ``a < b``).

    ``name`` names it for people ("Sahara", "Panama Canal"); ``props`` holds
    what a ruleset adds.
    """

    a: str
    b: str
    kind: BorderKind = BorderKind.ORDINARY
    name: str | None = None
    props: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @staticmethod
    def between(a: str, b: str, kind: BorderKind = BorderKind.ORDINARY, name: str | None = None,
                props: dict[str, Any] | None = None) -> Border:
        if a == b:
            raise ModelError(f"a border needs two different territories, got '{a}' twice")
        lo, hi = (a, b) if a < b else (b, a)
        return Border(lo, hi, kind, name, dict(props or {}))

    def other(self, t: str) -> str:
        return self.b if t == self.a else self.a


@dataclass
class Territory:
    """One territory.

    * ``id``: stable key used in files and orders; ``name``: what people see;
    * ``sea``: a sea zone rather than land;
    * ``shape``: shapely ``Polygon``/``MultiPolygon`` in map units (y down),
      empty when not drawn;
    * ``value``: its income (IPC) value;
    * ``owner``: the side that held it at the start of the game (original
      owner), ``None`` for nobody;
    * ``controller``: the side holding it now (``None``: nobody);
    * ``control_since``: the turn in which the controller's control began (0:
      from before the game); ``control_since_side``: whose turn that was
      (``None``: unknown, treated as the latest turn of that round);
    * ``impassable``: no unit may enter (TripleA ``isImpassable``);
    * ``label_at``: an explicit label point, else :meth:`label_point`;
    * ``features``: per rules system data, keyed by feature name (see
      ``docs/file-format-territory.md`` for the names in use).
    """

    id: str
    name: str
    sea: bool = False
    shape: Shape = field(default_factory=Polygon)
    value: int = 0
    owner: str | None = None
    controller: str | None = None
    control_since: int = 0
    control_since_side: str | None = None
    impassable: bool = False
    label_at: tuple[float, float] | None = None
    features: dict[str, Any] = field(default_factory=dict)

    @property
    def land(self) -> bool:
        return not self.sea

    @property
    def occupied(self) -> bool:
        """Held by a side other than its original owner (derived)."""
        return self.controller is not None and self.owner is not None and self.controller != self.owner

    def label_point(self) -> tuple[float, float] | None:
        """Where its label goes: ``label_at`` if set, else a point well
        inside its shape (polylabel); ``None`` when it has no shape."""
        return self.label_at if self.label_at is not None else label_point(self.shape)


class TerritoryMap:
    """Territories and the border graph between them.

    ``graph`` is an undirected :class:`networkx.Graph` whose nodes are
    territory ids and whose edges carry a :class:`Border` under the key
    ``"border"``.  ``width``/``height`` give the drawing extent in map units;
    ``wrap_x`` says the map wraps horizontally (a world map);
    ``backdrop_cell`` is the size of the painting grid's cells (0: none).
    """

    def __init__(self, width: float, height: float, wrap_x: bool = False, backdrop_cell: float = 0.0) -> None:
        self.width = width
        self.height = height
        self.wrap_x = wrap_x
        self.backdrop_cell = backdrop_cell
        self.territories: dict[str, Territory] = {}
        self.graph: nx.Graph = nx.Graph()
        self.underlay: dict[str, Any] | None = None
        """A scan shown under the map (``docs/file-format-territory.md``:
        ``image`` relative to the file, ``opacity``, ``visible``, ``scale``
        pixels per map unit, ``offset`` the pixel of the map's origin)."""

    # -- territories -----------------------------------------------------
    def add(self, t: Territory) -> Territory:
        if t.id in self.territories:
            raise ModelError(f"territory id '{t.id}' is used twice")
        self.territories[t.id] = t
        self.graph.add_node(t.id)
        return t

    def remove(self, tid: str) -> Territory:
        t = self.territory(tid)
        del self.territories[t.id]
        self.graph.remove_node(t.id)
        return t

    def __contains__(self, tid: object) -> bool:
        return tid in self.territories

    def __len__(self) -> int:
        return len(self.territories)

    def territory(self, text: str) -> Territory:
        """The territory named by an id or a name (case-insensitive); raises
        :class:`ModelError` saying which names exist nearby."""
        t = self.territories.get(text)
        if t is not None:
            return t
        key = text.strip().casefold()
        for t in self.territories.values():
            if t.id.casefold() == key or t.name.casefold() == key:
                return t
        close = [t.name for t in self.territories.values() if key and key[:3] in t.name.casefold()][:5]
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        raise ModelError(f"no territory '{text}' on this map{hint}")

    def label(self, tid: str) -> str:
        """The name people see for territory id ``tid``."""
        t = self.territories.get(tid)
        return t.name if t is not None else tid

    # -- borders ---------------------------------------------------------
    def add_border(self, a: str, b: str, kind: BorderKind = BorderKind.ORDINARY, name: str | None = None,
                   props: dict[str, Any] | None = None) -> Border:
        """Add (or replace) the border between ``a`` and ``b``."""
        for x in (a, b):
            if x not in self.territories:
                raise ModelError(f"no territory '{x}' on this map, so no border can touch it")
        border = Border.between(a, b, kind, name, props)
        self.graph.add_edge(border.a, border.b, border=border)
        return border

    def remove_border(self, a: str, b: str) -> None:
        if not self.graph.has_edge(a, b):
            raise ModelError(f"'{self.label(a)}' and '{self.label(b)}' share no border")
        self.graph.remove_edge(a, b)

    def border(self, a: str, b: str) -> Border | None:
        data = self.graph.get_edge_data(a, b)
        if data is None:
            return None
        border: Border = data["border"]
        return border

    def borders(self) -> list[Border]:
        """Every border, sorted by (a, b)."""
        return sorted((d["border"] for _, _, d in self.graph.edges(data=True)), key=lambda e: (e.a, e.b))

    def neighbours(self, tid: str) -> list[str]:
        return sorted(self.graph.neighbors(tid))

    def derive_borders(self, min_length: float = 1e-9, keep: bool = True) -> list[Border]:
        """Add an ordinary border between every two territories whose shapes
        share a border longer than ``min_length`` (a single touching point is
        no border).  Existing borders (hand edits) are kept unless ``keep`` is
        false; returns the borders added."""
        if not keep:
            self.graph.remove_edges_from(list(self.graph.edges))
        added = []
        for a, b in derive_adjacency({k: t.shape for k, t in self.territories.items()}, min_length):
            if not self.graph.has_edge(a, b):
                added.append(self.add_border(a, b))
        return added

    def copy(self) -> TerritoryMap:
        m = TerritoryMap(self.width, self.height, self.wrap_x, self.backdrop_cell)
        for t in self.territories.values():
            m.add(copy.deepcopy(t))
        for e in self.borders():
            m.add_border(e.a, e.b, e.kind, e.name, copy.deepcopy(e.props))
        m.underlay = copy.deepcopy(self.underlay)
        return m


@dataclass
class TerritoryUnit:
    """A unit in a territory: like :class:`engine.model.Unit` but ``at`` is a
    territory id.  ``props`` holds rule state, e.g. ``"moved": true`` once it
    moved normally this turn."""

    id: str
    side: str
    type: str
    at: str
    strength: int = 1
    name: str | None = None
    props: dict[str, Any] = field(default_factory=dict)


@dataclass
class TerritoryScenario:
    """Everything a territory-map file holds.  ``sides`` are listed in turn
    order; ``turn`` is the current round."""

    name: str
    ruleset: Ruleset
    sides: list[Faction]
    map: TerritoryMap
    units: list[TerritoryUnit] = field(default_factory=list)
    turn: int = 1
    description: str = ""
    state: dict[str, Any] = field(default_factory=dict)

    # -- sides -----------------------------------------------------------
    def side(self, side_id: str) -> Faction:
        for s in self.sides:
            key = side_id.strip().casefold()
            if s.id == side_id or s.name.casefold() == key or s.id.casefold() == key:
                return s
        known = ", ".join(s.id for s in self.sides)
        raise ModelError(f"unknown side '{side_id}' (the scenario has: {known})")

    def allied(self, a: str, b: str) -> bool:
        return a == b or self.side(a).alliance_key == self.side(b).alliance_key

    def turn_position(self, side_id: str) -> int:
        """Index of the side in the turn order (the order of ``sides``)."""
        return self.sides.index(self.side(side_id))

    # -- territories -----------------------------------------------------
    def territory(self, text: str) -> Territory:
        return self.map.territory(text)

    def set_control(self, tid: str, side_id: str | None, since: int | None = None,
                    since_side: str | None = None) -> None:
        """Give ``tid`` to ``side_id`` (``None``: nobody) from turn ``since``
        (default: the current turn) during ``since_side``'s turn."""
        t = self.territory(tid)
        if side_id is not None:
            side_id = self.side(side_id).id
        t.controller = side_id
        t.control_since = self.turn if since is None else since
        t.control_since_side = None if since_side is None else self.side(since_side).id

    # -- units -----------------------------------------------------------
    def unit(self, unit_id: str) -> TerritoryUnit:
        for u in self.units:
            if u.id == unit_id:
                return u
        for u in self.units:
            if u.id.casefold() == unit_id.strip().casefold():
                return u
        raise ModelError(f"no unit '{unit_id}' in scenario '{self.name}'")

    def units_in(self, tid: str) -> list[TerritoryUnit]:
        return [u for u in self.units if u.at == tid]

    def copy(self) -> TerritoryScenario:
        return TerritoryScenario(self.name, copy.deepcopy(self.ruleset), copy.deepcopy(self.sides), self.map.copy(),
                                 copy.deepcopy(self.units), self.turn, self.description, copy.deepcopy(self.state))


__all__ = ["Border", "BorderKind", "Territory", "TerritoryMap", "TerritoryScenario", "TerritoryUnit"]
