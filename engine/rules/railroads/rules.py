"""Axis & Allies "Module I: Railroads": rail on territory maps.

Rules (``docs/rules/railroads.md`` has every decision and option):

* A unit rails from the territory it starts in to a territory controlled by
  its nation or a rail-sharing partner (option ``destination_own_only``),
  along a path of land territories every one of which — both ends included —
  the nation or a sharing partner has controlled since the start of the
  railing nation's turn.  Sharing groups are ruleset data
  (``railroads.sharing``); a nation in no group rails alone.
* Each territory on a unit's path, start and destination included, spends
  one unit of its rail capacity: its value, or its value divided by
  ``occupied_divisor`` (2) rounded down when occupied.  Every nation's units
  draw on the same capacity.
* Rail never enters a sea zone or an impassable territory, never crosses a
  ``closed`` or ``strait`` border; it crosses water only at ``rail_crossing``
  borders (Jordan–Egypt, Italy–Sicily, the Panama Canal).
* A unit that moved normally this turn (``props.moved``) cannot rail.

Two questions are answered about a set of orders:

:func:`plan` — *exact*.  An integer program with one commodity per (rail
network, destination) — nations whose usable networks are identical, as
sharing partners' usually are, share a commodity: integer flow on every
directed rail link, conservation at every territory, and one shared capacity
row per territory (units entering it plus units starting there).  It
maximises the number of units routed, then minimises the total number of
territories passed.  It is solved as follows (HiGHS through scipy): the LP
relaxation first — an integral LP optimum is an optimum of the integer
program; if the LP cannot route every unit, no integer routing can, so
infeasibility is proven and the best partial routing is sought by
``scipy.optimize.milp`` within a short time limit (the routes of the units
that fit are then the best found, ``details["proven_optimal"]`` says
whether proven); otherwise ``milp`` decides without a time limit.  So
``feasible`` is always exact: true exactly when every unit can be routed
within every capacity.  Routes are a path decomposition of the integral
flow; among routings of equal total length the solver's choice is kept.
When not every unit fits, the bottleneck is a minimum vertex cut
(node-splitting max-flow) whose capacity is below the units that must cross
it — all orders, then each rail network's, then each destination's — or,
when the orders only block one another on different routes, the territories
full in the best partial routing.  When every unit fits, the bottleneck is
the *contested* cut: the territories that are full, are no order's start or
destination, and carry units of at least two orders, reduced to a minimum
vertex cut (nearest the starts) between the starts and destinations of the
orders through them.

:func:`preview` — *fast, necessary conditions only*.  Node-splitting maximum
flow (``scipy.sparse.csgraph.maximum_flow``) of all orders together on the
shared capacities, plus one per rail network when orders use several, plus
(``thorough``) one per destination.  A multi-commodity integer routing is not
decided by max-flow: when the preview says "no", no routing exists (the cut
is the proof); when it says "yes", a routing usually exists, but only
:func:`plan` can promise it (units may be sent by the flow to the wrong
destination, or split fractionally between networks).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import breadth_first_order, maximum_flow

from ..model import ModelError
from .model import BorderKind, Territory, TerritoryScenario

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


# ---------------------------------------------------------------------------
# the rules


class RailRules:
    """The Module I rules over one scenario at its current turn.

    Options (``scenario.ruleset.option("railroads", key, default)``):
    ``sharing`` (list of lists of side ids, default: everyone alone),
    ``occupied_divisor`` (2), ``destination_own_only`` (false),
    ``same_round_before_turn`` (true: control taken earlier in the current
    round, during a side's turn that comes before the railing nation's, is
    usable)."""

    def __init__(self, scenario: TerritoryScenario) -> None:
        self.s = scenario
        opt = scenario.ruleset.option
        groups = opt(SYSTEM, "sharing", [])
        self.groups: dict[str, frozenset[str]] = {}
        for g in groups:
            members = frozenset(scenario.side(x).id for x in g)
            for x in members:
                self.groups[x] = members
        self.divisor = int(opt(SYSTEM, "occupied_divisor", 2))
        self.destination_own_only = bool(opt(SYSTEM, "destination_own_only", False))
        self.same_round_before_turn = bool(opt(SYSTEM, "same_round_before_turn", True))
        self._graphs: dict[str, nx.Graph] = {}
        self._nets: dict[tuple[str, ...], _Net] = {}
        self._net_ids: dict[str, int] = {}
        self._net_keys: list[tuple[frozenset[str], frozenset[frozenset[str]]]] = []
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

    def graph(self, nation: str) -> nx.Graph:
        """The rail network ``nation`` may use: usable territories joined by
        rail-passable borders (cached)."""
        n = self.s.side(nation).id
        g = self._graphs.get(n)
        if g is None:
            m = self.s.map
            usable = [tid for tid, t in m.territories.items() if self.why_unusable(t, n) is None]
            g = m.graph.subgraph(usable).copy()
            g.remove_edges_from([(a, b) for a, b, d in g.edges(data=True) if d["border"].kind not in RAIL_BORDERS])
            self._graphs[n] = g
        return g

    def network_id(self, nation: str) -> int:
        """A number shared by nations whose rail networks are identical."""
        n = self.s.side(nation).id
        nid = self._net_ids.get(n)
        if nid is None:
            g = self.graph(n)
            key = (frozenset(g.nodes), frozenset(frozenset(e) for e in g.edges))
            if key in self._net_keys:
                nid = self._net_keys.index(key)
            else:
                nid = len(self._net_keys)
                self._net_keys.append(key)
                self._arcs[nid] = self._arc_arrays(g)
            self._net_ids[n] = nid
        return nid

    def arcs(self, network: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Directed rail links (from, to: territory indexes into ``tids``)
        of a network, and each territory's connected-component label (-1:
        not in the network)."""
        return self._arcs[network]

    def _arc_arrays(self, g: nx.Graph) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        edges = np.asarray([(self.tix[a], self.tix[b]) for a, b in g.edges], np.int64).reshape(-1, 2)
        u = np.concatenate([edges[:, 0], edges[:, 1]])
        v = np.concatenate([edges[:, 1], edges[:, 0]])
        comp = np.full(len(self.tids), -1, np.int64)
        for c, nodes in enumerate(nx.connected_components(g)):
            comp[[self.tix[t] for t in nodes]] = c
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


# ---------------------------------------------------------------------------
# max-flow on a node-split network


class _Net:
    """A node-split flow network over some territories: territory ``i`` has
    in-node ``2i`` and out-node ``2i+1`` joined by an arc of its capacity;
    rail links are out→in arcs of unlimited capacity; a super-source feeds
    every in-node and every out-node drains to a super-sink (capacity 0
    unless a query sets it).  The sparse structure is built once; a query
    only fills in capacities."""

    def __init__(self, ids: list[str], caps: list[int], links: Iterable[tuple[str, str]]) -> None:
        self.ids = ids
        self.index = {t: i for i, t in enumerate(ids)}
        self.caps = np.asarray(caps, dtype=np.int64)
        n = len(ids)
        self.src = 2 * n
        self.sink = 2 * n + 1
        self.size = 2 * n + 2
        idx = np.arange(n, dtype=np.int64)
        link = np.asarray([(self.index[a], self.index[b]) for a, b in links], np.int64).reshape(-1, 2)
        rows = np.concatenate([2 * idx, 2 * link[:, 0] + 1, 2 * link[:, 1] + 1, np.full(n, self.src), 2 * idx + 1])
        cols = np.concatenate([2 * idx + 1, 2 * link[:, 1], 2 * link[:, 0], 2 * idx, np.full(n, self.sink)])
        self.n_links = 2 * len(link)
        m = len(rows)
        order = coo_matrix((np.arange(1, m + 1, dtype=np.int64), (rows, cols)), shape=(self.size, self.size)).tocsr()
        order.sort_indices()
        self.perm = order.data.astype(np.int64) - 1  # CSR position -> entry
        self.indices = order.indices.astype(np.int32)
        self.indptr = order.indptr.astype(np.int32)

    def cut(self, supply: dict[str, int], demand: dict[str, int], caps: dict[str, int] | None = None,
            unlimited_ends: bool = False, want_cut: bool = True) -> tuple[int, list[str]]:
        """Maximum flow from the starts (``supply``) to the destinations
        (``demand``) and the territories of the minimum cut nearest the
        starts (computed when ``want_cut`` or the flow falls short).
        ``caps`` overrides territory capacities; ``unlimited_ends`` lifts
        the supply and demand limits so that the cut lies among territories
        only."""
        n = len(self.ids)
        inner = self.caps.copy()
        if caps is not None:
            for t, c in caps.items():
                i = self.index.get(t)
                if i is not None:
                    inner[i] = c
        need = int(sum(supply.values()))
        big = int(inner.sum() + 1) if unlimited_ends else need + 1
        entry = np.zeros(n + self.n_links + 2 * n, np.int64)
        entry[:n] = np.minimum(inner, big)
        entry[n:n + self.n_links] = big
        for t, k in supply.items():
            entry[n + self.n_links + self.index[t]] = big if unlimited_ends else k
        for t, k in demand.items():
            entry[2 * n + self.n_links + self.index[t]] = big if unlimited_ends else k
        data = entry[self.perm].astype(np.int32)
        cap = csr_matrix((data, self.indices, self.indptr), shape=(self.size, self.size))
        res = maximum_flow(cap, self.src, self.sink)
        flow = int(res.flow_value)
        if not want_cut and flow >= need:
            return flow, []
        residual = (cap - res.flow).tocsr()
        residual.data[residual.data < 0] = 0
        residual.eliminate_zeros()
        reach = np.zeros(self.size, bool)
        reach[breadth_first_order(residual, self.src, directed=True, return_predecessors=False)] = True
        cut = [self.ids[i] for i in np.flatnonzero(reach[0:2 * n:2] & ~reach[1:2 * n:2]).tolist()]
        return flow, cut


# ---------------------------------------------------------------------------
# the two questions


def preview(scenario: TerritoryScenario, orders: Sequence[RailOrder], rules: RailRules | None = None,
            thorough: bool = False) -> RailPlan:
    """Fast feasibility check (necessary conditions only, see the module
    docstring): per-order validity, then one node-split max-flow of all
    orders together on the shared capacities, plus one per rail network when
    the orders use several (nations that do not share rail).  ``thorough``
    adds one max-flow per destination (slower, sharper).  Pass the same
    ``rules`` on every call while the scenario is unchanged: its networks
    are built once."""
    r = rules or RailRules(scenario)
    ok, refused = r.validate(orders)
    valid = [orders[i] for i in ok]
    if not valid:
        return RailPlan(not refused, "maxflow", tuple(orders), refused=tuple(refused),
                        reason=_refusal_text(r, orders, refused) or "no orders")
    groups: list[tuple[str, list[RailOrder]]] = [("all orders", valid)]
    networks: dict[int, list[RailOrder]] = {}
    for o in valid:
        networks.setdefault(r.network_id(o.nation), []).append(o)
    if len(networks) > 1:
        for _, group in sorted(networks.items()):
            names = sorted({scenario.side(o.nation).name for o in group})
            groups.append((" and ".join(names) + "'s orders", group))
    if thorough:
        dests = sorted({(r.network_id(o.nation), o.to) for o in valid})
        if len(dests) > 1:
            groups += [(f"the orders to {scenario.map.label(d)}",
                        [o for o in valid if (r.network_id(o.nation), o.to) == (n, d)]) for n, d in dests]
    for label, group in groups:
        flow, cut, need = _check(_union_net(r, sorted({o.nation for o in group})), group)
        if flow < need:
            return RailPlan(False, "maxflow", tuple(orders), refused=tuple(refused), bottleneck=tuple(cut),
                            reason=_cut_text(r, cut, need, label), details={"flow": flow, "demand": need})
    text = _refusal_text(r, orders, refused)
    return RailPlan(not refused, "maxflow", tuple(orders), refused=tuple(refused),
                    reason=(text + " " if text else "")
                    + f"No capacity limit rules {'the other' if refused else 'the'} orders out "
                    "(a quick check; the exact routing decides).")


def _union_net(r: RailRules, nations: Sequence[str]) -> _Net:
    """The node-split network of the territories any of ``nations`` may rail
    through (cached on the rules object)."""
    key = tuple(nations)
    net = r._nets.get(key)
    if net is None:
        net = r._nets[key] = _build_net(r, nations)
    return net


def _build_net(r: RailRules, nations: Sequence[str]) -> _Net:
    g = nx.Graph()
    for n in nations:
        g.add_edges_from(r.graph(n).edges)
        g.add_nodes_from(r.graph(n).nodes)
    ids = sorted(g.nodes)
    caps = [r.capacity(r.s.map.territories[t]) for t in ids]
    return _Net(ids, caps, g.edges)


def _check(net: _Net, group: Sequence[RailOrder]) -> tuple[int, list[str], int]:
    """Max flow of the group's units, the cut's territories and how many
    units must pass through them (all units, less those the cut's other arcs
    account for: units starting beyond it or ending before it)."""
    supply: dict[str, int] = {}
    demand: dict[str, int] = {}
    for o in group:
        supply[o.start] = supply.get(o.start, 0) + o.count
        demand[o.to] = demand.get(o.to, 0) + o.count
    flow, cut = net.cut(supply, demand, want_cut=False)
    need = sum(supply.values())
    if flow >= need:
        return flow, cut, need
    through = sum(int(net.caps[net.index[t]]) for t in cut)
    return through, cut, need - flow + through


def plan(scenario: TerritoryScenario, orders: Sequence[RailOrder], rules: RailRules | None = None) -> RailPlan:
    """Exact routing (integer program); see the module docstring for what it
    guarantees.  Orders refused on their own are listed and left out; the
    rest are routed together."""
    r = rules or RailRules(scenario)
    m = scenario.map
    ok, refused = r.validate(orders)
    valid = [(i, orders[i]) for i in ok]
    if not valid:
        return RailPlan(False if refused else True, "milp", tuple(orders), refused=tuple(refused),
                        reason=_refusal_text(r, orders, refused) or "no orders")

    # commodities: (rail network, destination) -> {start: units}; nations whose usable
    # networks are identical (sharing partners, as a rule) share one commodity per destination
    comm: dict[tuple[int, str], dict[str, int]] = {}
    for _, o in valid:
        c = comm.setdefault((r.network_id(o.nation), o.to), {})
        c[o.start] = c.get(o.start, 0) + o.count
    keys = sorted(comm)
    kindex = {key: k for k, key in enumerate(keys)}
    tids = r.tids
    tix = r.tix
    n_t = len(tids)
    arc_k: list[np.ndarray] = []
    arc_u: list[np.ndarray] = []
    arc_v: list[np.ndarray] = []
    for k, (net_id, dest) in enumerate(keys):
        u_all, v_all, comp = r.arcs(net_id)
        d = tix[dest]
        mask = (comp[u_all] == comp[d]) & (u_all != d)
        arc_u.append(u_all[mask])
        arc_v.append(v_all[mask])
        arc_k.append(np.full(int(mask.sum()), k, np.int64))
    au = np.concatenate(arc_u) if arc_u else np.zeros(0, np.int64)
    av = np.concatenate(arc_v) if arc_v else np.zeros(0, np.int64)
    ak = np.concatenate(arc_k) if arc_k else np.zeros(0, np.int64)
    var_src: list[tuple[int, str]] = [(k, st) for k, key in enumerate(keys) for st in sorted(comm[key])]
    na, ns = len(au), len(var_src)
    nvar = na + ns
    sk = np.asarray([k for k, _ in var_src], np.int64)
    ss = np.asarray([tix[st] for _, st in var_src], np.int64)
    sd = np.asarray([tix[keys[k][1]] for k, _ in var_src], np.int64)
    # conservation: for each (commodity, territory): inflow - outflow + units starting - units arriving == 0
    eq_rows = np.concatenate([ak * n_t + av, ak * n_t + au, sk * n_t + ss, sk * n_t + sd])
    eq_cols = np.concatenate([np.arange(na), np.arange(na), na + np.arange(ns), na + np.arange(ns)])
    eq_vals = np.concatenate([np.ones(na), -np.ones(na), np.ones(ns), -np.ones(ns)])
    used_rows, eq_rows = np.unique(eq_rows, return_inverse=True)
    A_eq = coo_matrix((eq_vals, (eq_rows, eq_cols)), shape=(len(used_rows), nvar)).tocsr()
    # capacity: for each territory, the units entering it plus the units starting there <= its capacity
    cap_t = np.concatenate([av, ss])
    terr_idx, cap_rows = np.unique(cap_t, return_inverse=True)
    A_cap = coo_matrix((np.ones(nvar), (cap_rows, np.arange(nvar))), shape=(len(terr_idx), nvar)).tocsr()
    cap = r.cap_array[terr_idx].astype(float)
    terr = [tids[i] for i in terr_idx.tolist()]
    total = sum(sum(c.values()) for c in comm.values())
    big = float(n_t * total + 1)
    cost = np.concatenate([np.ones(na), np.full(ns, -big)])
    upper = np.concatenate([np.full(na, float(total)), np.asarray([comm[keys[k]][st] for k, st in var_src], float)])
    x, proven = _solve(cost, A_eq, A_cap, cap, upper, ns, total)
    var_arcs = [(int(k), tids[u], tids[v]) for k, u, v in zip(ak.tolist(), au.tolist(), av.tolist(), strict=True)]

    # path decomposition per commodity
    arc_flow: dict[int, dict[str, dict[str, int]]] = {}
    for j, (k, u, v) in enumerate(var_arcs):
        if x[j] > 0:
            arc_flow.setdefault(k, {}).setdefault(u, {})[v] = int(x[j])
    routed_src = {(k, s): int(x[na + j]) for j, (k, s) in enumerate(var_src)}
    routes: list[OrderRoute] = []
    used = {t: 0 for t in terr}
    through: dict[str, set[int]] = {}
    for i, o in valid:
        k = kindex[(r.network_id(o.nation), o.to)]
        left = min(o.count, routed_src.get((k, o.start), 0))
        routed_src[(k, o.start)] = routed_src.get((k, o.start), 0) - left
        paths: dict[tuple[str, ...], int] = {}
        for _ in range(left):
            path = [o.start]
            flows = arc_flow.get(k, {})
            while path[-1] != o.to:
                nxt = min(v for v, f in flows[path[-1]].items() if f > 0)
                flows[path[-1]][nxt] -= 1
                path.append(nxt)
            paths[tuple(path)] = paths.get(tuple(path), 0) + 1
            for t in path:
                used[t] += 1
            for t in path[1:-1]:
                through.setdefault(t, set()).add(i)
        routes.append(OrderRoute(i, tuple(sorted(paths.items(), key=lambda p: (-p[1], p[0]))), o.count - left))
    unrouted = sum(rt.unrouted for rt in routes)
    usage = tuple(Usage(t, used[t], r.capacity(m.territories[t])) for t in terr if used[t] > 0)
    base = _refusal_text(r, orders, refused)
    if unrouted == 0:
        bottleneck = _feasible_bottleneck(r, valid, used, through)
        words = f"All {len(valid)} order{'s' if len(valid) != 1 else ''} fit ({total} unit{'s' if total != 1 else ''})."
        if bottleneck:
            n_used = sum(used[t] for t in bottleneck)
            words += (f" Bottleneck: {_names(r, bottleneck)} {'are' if len(bottleneck) > 1 else 'is'} full "
                      f"({n_used} of {n_used}{' between them' if len(bottleneck) > 1 else ''}); the orders "
                      f"through {'them' if len(bottleneck) > 1 else 'it'} have no room to spare.")
        return RailPlan(not refused, "milp", tuple(orders), tuple(routes), usage, tuple(bottleneck),
                        tuple(refused), (base + " " if base else "") + words,
                        details={"variables": nvar, "proven_optimal": proven})
    bottleneck, text = _infeasible_bottleneck(r, valid, routes, used)
    words = f"No routing fits all {total} units: {unrouted} cannot be railed. {text}"
    return RailPlan(False, "milp", tuple(orders), tuple(routes), usage, tuple(bottleneck), tuple(refused),
                    (base + " " if base else "") + words,
                    details={"variables": nvar, "proven_optimal": proven})


PARTIAL_TIME_LIMIT = 0.1
"""Seconds the integer program may spend on the best *partial* routing once
the LP relaxation has proved that not every unit fits."""


def _solve(cost: np.ndarray, A_eq: csr_matrix, A_cap: csr_matrix, cap: np.ndarray, upper: np.ndarray,
           n_routed: int, total: int) -> tuple[np.ndarray, bool]:
    """An integer solution and whether it is proven optimal.

    1. The LP relaxation (HiGHS dual simplex).  An integral optimum is also
       an optimum of the integer program: done.
    2. If the LP cannot route every unit, no integer routing can (the LP is
       a relaxation): infeasibility is proven.  The best partial routing is
       then sought by the integer program within :data:`PARTIAL_TIME_LIMIT`
       (the incumbent is used if time runs out).
    3. Otherwise (every unit routed, fractionally) the integer program
       decides, without a time limit.
    The last ``n_routed`` variables count routed units."""
    n = len(cost)
    lp = linprog(cost, A_ub=A_cap, b_ub=cap, A_eq=A_eq, b_eq=np.zeros(A_eq.shape[0]),
                 bounds=np.column_stack([np.zeros(n), upper]), method="highs-ds", options={"presolve": False})
    limit: float | None = None
    if lp.status == 0 and lp.x is not None:
        if np.abs(lp.x - np.rint(lp.x)).max(initial=0.0) < 1e-7:
            return np.rint(lp.x).astype(np.int64), True
        if float(lp.x[n - n_routed:].sum()) < total - 1e-6:
            limit = PARTIAL_TIME_LIMIT
    options: dict[str, Any] = {"disp": False}
    if limit is not None:
        options["time_limit"] = limit
    res = milp(cost, integrality=np.ones(n), bounds=Bounds(np.zeros(n), upper),
               constraints=[LinearConstraint(A_eq, 0.0, 0.0), LinearConstraint(A_cap, -np.inf, cap)],
               options=options)
    if res.x is None:  # routing nobody is always feasible, so only a time limit gets here
        return np.zeros(n, np.int64), False
    x: np.ndarray = np.rint(res.x).astype(np.int64)
    return x, res.status == 0


# ---------------------------------------------------------------------------
# bottlenecks and words


def _feasible_bottleneck(r: RailRules, valid: Sequence[tuple[int, RailOrder]], used: dict[str, int],
                         through: dict[str, set[int]]) -> list[str]:
    """The contested bottleneck of a routing that fits: among territories
    that are full, are no order's start or destination, and carry units of
    at least two orders, a minimum vertex cut (nearest the starts) between
    the starts and destinations of the orders through them; other full
    territories count as blocked."""
    m = r.s.map
    terminals = {o.start for _, o in valid} | {o.to for _, o in valid}
    full = {t for t, n in used.items() if n >= r.capacity(m.territories[t]) > 0 and t not in terminals}
    contested = {t for t in full if len(through.get(t, ())) >= 2}
    if not contested:
        return []
    involved = [o for i, o in valid if any(i in through.get(t, ()) for t in contested)]
    net = _union_net(r, sorted({o.nation for o in involved}))
    big = sum(o.count for o in involved) + 1
    caps = {t: (r.capacity(m.territories[t]) if t in contested else 0 if t in full else big) for t in net.ids}
    supply: dict[str, int] = {}
    demand: dict[str, int] = {}
    for o in involved:
        supply[o.start] = supply.get(o.start, 0) + o.count
        demand[o.to] = demand.get(o.to, 0) + o.count
    _, cut = net.cut(supply, demand, caps, unlimited_ends=True)
    return [t for t in cut if t in contested]


def _infeasible_bottleneck(r: RailRules, valid: Sequence[tuple[int, RailOrder]], routes: Sequence[OrderRoute],
                           used: dict[str, int]) -> tuple[list[str], str]:
    """A cut that proves the unrouted units cannot fit: first the minimum cut
    of all orders together, then per nation, then per destination, then the
    full territories that cut the unrouted orders off in the best partial
    routing."""
    m = r.s.map
    orders = [o for _, o in valid]
    nations = sorted({o.nation for o in orders})
    candidates: list[tuple[str, list[RailOrder]]] = [("", orders)]
    candidates += [(f" ({r.s.side(n).name}'s orders)", [o for o in orders if o.nation == n]) for n in nations]
    for key in sorted({(o.nation, o.to) for o in orders}):
        candidates.append((f" (the orders to {m.label(key[1])})", [o for o in orders if (o.nation, o.to) == key]))
    for label, group in candidates:
        net = _union_net(r, sorted({o.nation for o in group}))
        flow, cut, need = _check(net, group)
        if flow < need:
            return cut, _cut_text(r, cut, need, label.strip(" ()") or "the orders")
    # partial routing: residual capacities after the routed units
    unrouted = [(valid[j][1], rt.unrouted) for j, rt in enumerate(routes) if rt.unrouted]
    net = _union_net(r, sorted({o.nation for o, _ in unrouted}))
    caps = {t: max(r.capacity(m.territories[t]) - used.get(t, 0), 0) for t in net.ids}
    supply: dict[str, int] = {}
    demand: dict[str, int] = {}
    for o, n in unrouted:
        supply[o.start] = supply.get(o.start, 0) + n
        demand[o.to] = demand.get(o.to, 0) + n
    flow, cut = net.cut(supply, demand, caps)
    if flow < sum(supply.values()) and cut:
        return cut, ("The capacity is shared out as well as it can be; then " + _full_list(r, cut, used)
                     + " are full and cut the rest off.")
    full = sorted(t for t, n in used.items() if n >= r.capacity(m.territories[t]) > 0)
    text = "No single cut explains it: the orders compete for the same territories on different routes"
    if full:
        text += "; full in the best routing found: " + _full_list(r, full, used)
    return full, text + "."


def _names(r: RailRules, ids: Sequence[str]) -> str:
    names = [r.s.map.label(t) for t in ids]
    if not names:
        return "no territory"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _full_list(r: RailRules, ids: Sequence[str], used: dict[str, int]) -> str:
    m = r.s.map
    return _names(r, ids) + " (" + ", ".join(
        f"{used.get(t, 0)} of {r.capacity(m.territories[t])}" for t in ids) + ")"


def _cut_text(r: RailRules, cut: Sequence[str], need: int, label: str) -> str:
    m = r.s.map
    caps = [r.capacity(m.territories[t]) for t in cut]
    if not cut:
        return f"{label}: no rail route has room"
    can = sum(caps)
    carry = f"can carry {can} unit{'s' if can != 1 else ''}" + (" between them" if len(cut) > 1 else "")
    detail = " (" + " + ".join(str(c) for c in caps) + ")" if len(cut) > 1 else ""
    return (f"Bottleneck{'' if label in ('', 'all orders', 'the orders') else ' for ' + label}: "
            f"{_names(r, cut)} {carry}{detail}, but {need} unit{'s' if need != 1 else ''} must pass through "
            f"{'them' if len(cut) > 1 else 'it'}.")


def _refusal_text(r: RailRules, orders: Sequence[RailOrder], refused: Sequence[Refusal]) -> str:
    return " ".join(f"Refused: {r.describe(orders[f.order])}: {f.reason}." for f in refused)


def plan_to_data(scenario: TerritoryScenario, p: RailPlan) -> dict[str, Any]:
    """JSON-ready form of a plan (the ``adjutant railplan --json`` output)."""
    m = scenario.map
    refused = {f.order: f.reason for f in p.refused}
    by_order = {rt.order: rt for rt in p.routes}
    routes = []
    for i, o in enumerate(p.orders):
        d: dict[str, Any] = {"order": i + 1, "nation": o.nation, "from": m.label(o.start), "to": m.label(o.to),
                             "count": o.count}
        if o.unit:
            d["unit"] = o.unit
        if i in refused:
            d["refused"] = refused[i]
        rt = by_order.get(i)
        if rt is not None:
            d["route"] = [m.label(t) for t in rt.paths[0][0]] if rt.paths else []
            d["paths"] = [{"route": [m.label(t) for t in path], "count": n} for path, n in rt.paths]
            if rt.unrouted:
                d["unrouted"] = rt.unrouted
        routes.append(d)
    return {
        "feasible": p.feasible,
        "method": p.method,
        "routes": routes,
        "usage": {m.label(u.territory): {"used": u.used, "capacity": u.capacity} for u in p.usage},
        "bottleneck": [m.label(t) for t in p.bottleneck],
        "reason": p.reason,
    }


__all__ = ["OrderRoute", "RailOrder", "RailOrderError", "RailPlan", "RailRules", "Refusal", "Usage", "plan",
           "plan_to_data", "preview"]
