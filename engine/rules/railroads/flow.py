"""Module I, the fast question: node-split maximum flow and
:func:`preview` (necessary conditions only; see :mod:`engine.rules.railroads`),
and the words both questions use for refusals and bottlenecks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import breadth_first_order, maximum_flow

from ...territory.model import TerritoryScenario
from .rules import RailOrder, RailPlan, RailRules, Refusal

# ---------------------------------------------------------------------------
# max-flow on a node-split network


class _Net:
    """A node-split flow network over some territories: territory ``i`` has
    in-node ``2i`` and out-node ``2i+1`` joined by an arc of its capacity;
    rail links are out→in arcs of unlimited capacity; a super-source feeds
    every in-node and every out-node drains to a super-sink (capacity 0
    unless a query sets it).  The sparse structure is built once; a query
    only fills in capacities."""

    def __init__(self, ids: list[str], caps: list[int], links: Iterable[tuple[str, str]] | np.ndarray) -> None:
        """``links``: pairs of territory ids, or an ``(n, 2)`` array of
        positions in ``ids``."""
        self.ids = ids
        self.index = {t: i for i, t in enumerate(ids)}
        self.caps = np.asarray(caps, dtype=np.int64)
        n = len(ids)
        self.src = 2 * n
        self.sink = 2 * n + 1
        self.size = 2 * n + 2
        idx = np.arange(n, dtype=np.int64)
        link = (links.astype(np.int64) if isinstance(links, np.ndarray)
                else np.asarray([(self.index[a], self.index[b]) for a, b in links], np.int64)).reshape(-1, 2)
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
                        reason=_refusal_text(r, orders, refused) or "no orders", label=scenario.map.label)
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
                            reason=_cut_text(r, cut, need, label), details={"flow": flow, "demand": need}, label=scenario.map.label)
    text = _refusal_text(r, orders, refused)
    return RailPlan(not refused, "maxflow", tuple(orders), refused=tuple(refused),
                    reason=(text + " " if text else "")
                    + f"No capacity limit rules {'the other' if refused else 'the'} orders out "
                    "(a quick check; the exact routing decides).", label=scenario.map.label)


def _union_net(r: RailRules, nations: Sequence[str]) -> _Net:
    """The node-split network of the territories any of ``nations`` may rail
    through (cached on the rules object)."""
    key = tuple(nations)
    net = r._nets.get(key)
    if net is None:
        net = r._nets[key] = _build_net(r, nations)
    return net


def _build_net(r: RailRules, nations: Sequence[str]) -> _Net:
    nodes, links = r.network_links(nations)
    idx = sorted(np.flatnonzero(nodes).tolist(), key=r.tids.__getitem__)
    ids = [r.tids[i] for i in idx]
    pos = np.full(len(r.tids), -1, np.int64)
    pos[idx] = np.arange(len(idx))
    return _Net(ids, r.cap_array[idx].tolist(), pos[links])


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




# ---------------------------------------------------------------------------
# words


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

