"""Module I: orders, results and the rules over one scenario at its turn —
capacity, control, the rail networks each nation may use, and the checks of
one order on its own (see :mod:`engine.rules.railroads` and
``docs/rules/railroads.md``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import networkx as nx
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ...model import ModelError
from ...territory.model import BorderKind, Territory, TerritoryScenario
from ..base import AtLeast, read_options

if TYPE_CHECKING:
    from .flow import _Net

SYSTEM = "railroads"
RAIL_BORDERS = frozenset({BorderKind.ORDINARY, BorderKind.RAIL_CROSSING})


class RailOrderError(ModelError):
    """An order that cannot be read (unknown unit, territory or nation)."""


@dataclass(frozen=True)
class RailOrder:
    """Rail ``count`` units of ``nation`` from territory ``start`` to ``to``
    (ids).  ``unit`` is the unit's id when the order names a unit (count 1)."""

    nation: str
    start: str
    to: str
    count: int = 1
    unit: str | None = None
    unit_type: str | None = None


@dataclass(frozen=True)
class Refusal:
    """An order refused on its own, with the reason."""

    order: int
    reason: str


@dataclass(frozen=True)
class OrderRoute:
    """Where the units of one order go: ``paths`` is a tuple of (territory
    ids from start to destination, number of units); ``unrouted`` units found
    no room."""

    order: int
    paths: tuple[tuple[tuple[str, ...], int], ...]
    unrouted: int = 0


@dataclass(frozen=True)
class Usage:
    """Rail capacity of one territory: ``used`` of ``capacity``."""

    territory: str
    used: int
    capacity: int

    @property
    def full(self) -> bool:
        return self.capacity > 0 and self.used >= self.capacity


@dataclass(frozen=True)
class RailPlan:
    """The answer to a set of orders (from :func:`plan` or :func:`preview`).

    ``feasible``: every order is valid and (for ``method == "milp"``) every
    unit has a route within every capacity; for ``method == "maxflow"`` it
    means only that no cut rules the orders out.  ``routes`` (milp only) has
    one entry per valid order; ``usage`` lists every territory some route
    passes; ``bottleneck`` the territory ids of the cut that limits (when
    infeasible: that proves it); ``reason`` says it in words."""

    feasible: bool
    method: str
    orders: tuple[RailOrder, ...]
    routes: tuple[OrderRoute, ...] = ()
    usage: tuple[Usage, ...] = ()
    bottleneck: tuple[str, ...] = ()
    refused: tuple[Refusal, ...] = ()
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    label: Callable[[str], str] = field(default=str, compare=False, repr=False)
    """How the map names a territory id (for :meth:`to_data`)."""

    @property
    def ok(self) -> bool:
        """The verdict's answer (:class:`engine.rules.base.Verdict`): :attr:`feasible`."""
        return self.feasible

    @property
    def reasons(self) -> tuple[str, ...]:
        return (self.reason,) if self.reason else ()

    def to_data(self) -> dict[str, Any]:
        """JSON-ready form (the ``adjutant railplan --json`` output): one
        entry per order with its route or refusal, the capacity used, the
        bottleneck and the reason, territories named as the map names them."""
        lab = self.label
        refused = {f.order: f.reason for f in self.refused}
        by_order = {rt.order: rt for rt in self.routes}
        routes = []
        for i, o in enumerate(self.orders):
            d: dict[str, Any] = {"order": i + 1, "nation": o.nation, "from": lab(o.start), "to": lab(o.to),
                                 "count": o.count}
            if o.unit:
                d["unit"] = o.unit
            if i in refused:
                d["refused"] = refused[i]
            rt = by_order.get(i)
            if rt is not None:
                d["route"] = [lab(t) for t in rt.paths[0][0]] if rt.paths else []
                d["paths"] = [{"route": [lab(t) for t in path], "count": n} for path, n in rt.paths]
                if rt.unrouted:
                    d["unrouted"] = rt.unrouted
            routes.append(d)
        return {
            "feasible": self.feasible,
            "method": self.method,
            "routes": routes,
            "usage": {lab(u.territory): {"used": u.used, "capacity": u.capacity} for u in self.usage},
            "bottleneck": [lab(t) for t in self.bottleneck],
            "reason": self.reason,
        }


# ---------------------------------------------------------------------------
# options


@dataclass(frozen=True)
class RailroadOptions:
    """The ``railroads`` options of a ruleset (``docs/rules/railroads.md``).

    ``sharing``: groups of side ids that share their railroads (default:
    every nation alone).  ``occupied_divisor``: an occupied territory's rail
    capacity is its value divided by this, rounded down (2).
    ``destination_own_only``: a unit may rail only to a territory its own
    nation holds (false).  ``same_round_before_turn``: control taken earlier
    in the current round, during a side's turn that comes before the railing
    nation's, is usable (true)."""

    sharing: tuple[tuple[str, ...], ...] = ()
    occupied_divisor: Annotated[int, AtLeast(1)] = 2
    destination_own_only: bool = False
    same_round_before_turn: bool = True


# ---------------------------------------------------------------------------
# the rules


class RailRules:
    """The Module I rules over one scenario at its current turn.

    Options: :class:`RailroadOptions`, read from
    ``scenario.ruleset.options["railroads"]``; a bad or unknown key raises
    :class:`~engine.rules.base.OptionError` naming it."""

    def __init__(self, scenario: TerritoryScenario) -> None:
        self.s = scenario
        self.options = opts = read_options(RailroadOptions, scenario.ruleset.options.get(SYSTEM),
                                           f"ruleset.options.{SYSTEM}")
        self.groups: dict[str, frozenset[str]] = {}
        for g in opts.sharing:
            members = frozenset(scenario.side(x).id for x in g)
            for x in members:
                self.groups[x] = members
        self.divisor = opts.occupied_divisor
        self.destination_own_only = opts.destination_own_only
        self.same_round_before_turn = opts.same_round_before_turn
        self._graphs: dict[str, nx.Graph] = {}
        self._nets: dict[tuple[str, ...], _Net] = {}
        self._net_ids: dict[str, int] = {}
        self._net_keys: dict[bytes, int] = {}
        self._usable: dict[str, np.ndarray] = {}
        self._links: np.ndarray | None = None
        self._arcs: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.tids: list[str] = list(scenario.map.territories)
        self.tix: dict[str, int] = {t: i for i, t in enumerate(self.tids)}
        self.cap_array = np.asarray([self.capacity(t) for t in scenario.map.territories.values()], np.int64)

    # -- capacity and control -------------------------------------------
    def capacity(self, t: Territory) -> int:
        """Units that may rail through ``t`` this turn (0 for sea zones and
        impassable territories)."""
        if t.sea or t.impassable:
            return 0
        return t.value // self.divisor if t.occupied else t.value

    def partners(self, nation: str) -> frozenset[str]:
        """The nation and its rail-sharing partners."""
        n = self.s.side(nation).id
        return self.groups.get(n, frozenset({n}))

    def held_since_turn_start(self, t: Territory, nation: str) -> bool:
        """Whether ``t``'s controller's control began before the start of
        ``nation``'s turn in the current round."""
        if t.control_since < self.s.turn:
            return True
        if t.control_since > self.s.turn or not self.same_round_before_turn or t.control_since_side is None:
            return False
        return self.s.turn_position(t.control_since_side) < self.s.turn_position(nation)

    def why_unusable(self, t: Territory, nation: str) -> str | None:
        """Why ``nation`` may not rail through ``t`` (``None``: it may)."""
        name = self.s.side(nation).name
        if t.sea:
            return f"{t.name} is a sea zone"
        if t.impassable:
            return f"{t.name} is impassable"
        if t.controller is None or t.controller not in self.partners(nation):
            holder = "nobody" if t.controller is None else self.s.side(t.controller).name
            return f"{t.name} is held by {holder}, not by {name} or a power sharing its railroads"
        if not self.held_since_turn_start(t, nation):
            return (f"{t.name} has been held by {self.s.side(t.controller).name} only since turn "
                    f"{t.control_since}, not since the start of {name}'s turn")
        if self.capacity(t) <= 0:
            return f"{t.name} has no rail capacity (value {t.value})"
        return None

    def usable(self, nation: str) -> np.ndarray:
        """Which territories (by index into ``tids``) ``nation`` may rail
        through this turn (cached)."""
        n = self.s.side(nation).id
        mask = self._usable.get(n)
        if mask is None:
            mask = self._usable[n] = np.fromiter(
                (self.why_unusable(t, n) is None for t in self.s.map.territories.values()), bool, len(self.tids))
        return mask

    def rail_links(self) -> np.ndarray:
        """Every border rail may cross, as pairs of territory indexes (an
        ``(n, 2)`` array, each border once; cached)."""
        if self._links is None:
            tix = self.tix
            pairs = [(tix[a], tix[b]) for a, b, d in self.s.map.graph.edges(data=True)
                     if d["border"].kind in RAIL_BORDERS]
            self._links = np.asarray(pairs, np.int64).reshape(-1, 2)
        return self._links

    def network_links(self, nations: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
        """The territories any of ``nations`` may rail through (a mask) and
        the rail links of their networks (pairs of indexes: both ends usable
        by one of the nations)."""
        links = self.rail_links()
        nodes = np.zeros(len(self.tids), bool)
        keep = np.zeros(len(links), bool)
        for n in nations:
            mask = self.usable(n)
            nodes |= mask
            keep |= mask[links[:, 0]] & mask[links[:, 1]]
        return nodes, links[keep]

    def graph(self, nation: str) -> nx.Graph:
        """The rail network ``nation`` may use, as a networkx graph:
        usable territories joined by rail-passable borders (cached; the
        routing itself reads :meth:`arcs`)."""
        n = self.s.side(nation).id
        g = self._graphs.get(n)
        if g is None:
            nodes, links = self.network_links([n])
            g = nx.Graph()
            g.add_nodes_from(self.tids[i] for i in np.flatnonzero(nodes).tolist())
            g.add_edges_from((self.tids[a], self.tids[b]) for a, b in links.tolist())
            self._graphs[n] = g
        return g

    def network_id(self, nation: str) -> int:
        """A number shared by nations whose rail networks are identical
        (the same usable territories make the same network)."""
        n = self.s.side(nation).id
        nid = self._net_ids.get(n)
        if nid is None:
            mask = self.usable(n)
            key = mask.tobytes()
            nid = self._net_keys.get(key)
            if nid is None:
                nid = self._net_keys[key] = len(self._net_keys)
                self._arcs[nid] = self._arc_arrays(n)
            self._net_ids[n] = nid
        return nid

    def arcs(self, network: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Directed rail links (from, to: territory indexes into ``tids``)
        of a network, and each territory's connected-component label (-1:
        not in the network)."""
        return self._arcs[network]

    def _arc_arrays(self, nation: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        nodes, edges = self.network_links([nation])
        u = np.concatenate([edges[:, 0], edges[:, 1]])
        v = np.concatenate([edges[:, 1], edges[:, 0]])
        n_t = len(self.tids)
        adj = coo_matrix((np.ones(len(u)), (u, v)), shape=(n_t, n_t)).tocsr()
        _, comp = connected_components(adj, directed=False)
        comp = comp.astype(np.int64)
        comp[~nodes] = -1
        return u, v, comp

    # -- orders ------------------------------------------------------------
    def read_orders(self, raw: Iterable[dict[str, Any]]) -> list[RailOrder]:
        """Orders from JSON-like dicts: ``{"unit": ID, "to": T}`` or
        ``{"nation": N, "from": T, "to": T, "count": K}`` (territory ids or
        names).  Raises :class:`RailOrderError` naming the order."""
        out = []
        for i, d in enumerate(raw):
            where = f"order {i + 1}"
            if not isinstance(d, dict) or "to" not in d:
                raise RailOrderError(f"{where}: expected {{\"unit\": ID, \"to\": TERRITORY}} or "
                                     f"{{\"nation\": N, \"from\": T, \"to\": T, \"count\": K}}, got {d!r}")
            try:
                to = self.s.territory(str(d["to"])).id
                if "unit" in d:
                    u = self.s.unit(str(d["unit"]))
                    out.append(RailOrder(u.side, u.at, to, 1, u.id, u.type))
                else:
                    missing = [k for k in ("nation", "from") if k not in d]
                    if missing:
                        raise RailOrderError(f"missing {' and '.join(repr(k) for k in missing)}")
                    count = d.get("count", 1)
                    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                        raise RailOrderError(f"count must be a whole number of at least 1, got {count!r}")
                    out.append(RailOrder(self.s.side(str(d["nation"])).id, self.s.territory(str(d["from"])).id,
                                         to, count, None, d.get("type")))
            except ModelError as e:
                raise RailOrderError(f"{where}: {e}") from None
        return out

    def describe(self, o: RailOrder) -> str:
        """The order in words: "German infantry ger_inf_dk from Denmark to
        Belarus"."""
        m = self.s.map
        who = self.s.side(o.nation).name
        what = f"{o.unit_type or 'unit'} {o.unit}" if o.unit else f"{o.count} unit{'s' if o.count != 1 else ''}"
        return f"{who} {what} from {m.label(o.start)} to {m.label(o.to)}"

    def refusal(self, o: RailOrder, seen_units: set[str]) -> str | None:
        """Why the order cannot be railed on its own (``None``: it can, if
        capacity allows)."""
        s, m = self.s, self.s.map
        if o.unit is not None:
            if o.unit in seen_units:
                return f"{o.unit} already has a rail order this turn"
            seen_units.add(o.unit)
            if s.unit(o.unit).props.get("moved"):
                return f"{o.unit} moved normally this turn; a unit either rails or moves, never both"
        if o.start == o.to:
            return f"the units are already in {m.label(o.to)}"
        dest = m.territories[o.to]
        start = m.territories[o.start]
        for t, end in ((start, "start"), (dest, "destination")):
            why = self.why_unusable(t, o.nation)
            if why is not None:
                return f"cannot rail from {t.name}: {why}" if end == "start" else f"cannot rail to {t.name}: {why}"
        if self.destination_own_only and dest.controller != o.nation:
            return f"{dest.name} is not held by {s.side(o.nation).name} itself (option destination_own_only)"
        _, _, comp = self.arcs(self.network_id(o.nation))
        if comp[self.tix[o.start]] != comp[self.tix[o.to]]:
            return self._no_path_reason(o)
        return None

    def _no_path_reason(self, o: RailOrder) -> str:
        m = self.s.map
        g = self.graph(o.nation)
        reach = nx.node_connected_component(g, o.start)
        blockers: dict[str, str] = {}
        closed: list[str] = []
        for a in sorted(reach):
            for b in m.graph.neighbors(a):
                if b in reach:
                    continue
                tb = m.territories[b]
                border = m.border(a, b)
                assert border is not None
                if tb.sea:
                    continue
                if border.kind not in RAIL_BORDERS:
                    closed.append(f"{m.label(a)}–{tb.name}" + (f" ({border.name})" if border.name else ""))
                    continue
                why = self.why_unusable(tb, o.nation)
                if why is not None:
                    blockers[b] = why
        parts = [f"no rail path from {m.label(o.start)} to {m.label(o.to)}"]
        if blockers:
            parts.append("blocked by " + "; ".join(blockers[b] for b in sorted(blockers)))
        if closed:
            parts.append("borders closed to rail: " + ", ".join(closed))
        if not blockers and not closed:
            parts.append("rail does not cross the sea there")
        return ": ".join(parts[:2]) + ("; " + parts[2] if len(parts) > 2 else "")

    def validate(self, orders: Sequence[RailOrder]) -> tuple[list[int], list[Refusal]]:
        """Indexes of the orders that are valid on their own, and refusals."""
        ok: list[int] = []
        refused: list[Refusal] = []
        seen: set[str] = set()
        for i, o in enumerate(orders):
            why = self.refusal(o, seen)
            if why is None:
                ok.append(i)
            else:
                refused.append(Refusal(i, why))
        return ok, refused
