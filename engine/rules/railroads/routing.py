"""Module I, the exact question: :func:`plan`, an integer program solved
with HiGHS through scipy, its path decomposition and the bottleneck it
names (see :mod:`engine.rules.railroads` for what it guarantees)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp

try:  # the HiGHS model behind linprog and milp, kept across re-solves
    from scipy.optimize._highspy import _core
except ImportError:  # a scipy without it: every re-solve through the public linprog
    _core = None
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import dijkstra

from ...territory.model import TerritoryScenario
from .flow import _check, _cut_text, _full_list, _names, _refusal_text, _union_net
from .rules import OrderRoute, RailOrder, RailPlan, RailRules, Usage


def plan(scenario: TerritoryScenario, orders: Sequence[RailOrder], rules: RailRules | None = None) -> RailPlan:
    """Exact routing (integer program); see the module docstring for what it
    guarantees.  Orders refused on their own are listed and left out; the
    rest are routed together."""
    r = rules or RailRules(scenario)
    m = scenario.map
    ok, refused = r.validate(orders)
    valid = [(i, orders[i]) for i in ok]
    if not valid:
        return RailPlan(not refused, "milp", tuple(orders), refused=tuple(refused),
                        reason=_refusal_text(r, orders, refused) or "no orders", label=m.label)

    # one commodity per (rail network, start, destination): nations whose usable networks are identical
    # (sharing partners, as a rule) share it
    demand: dict[tuple[int, str, str], int] = {}
    for _, o in valid:
        key = (r.network_id(o.nation), o.start, o.to)
        demand[key] = demand.get(key, 0) + o.count
    total = sum(demand.values())
    solved = _path_program(r, demand, total)
    if solved is None:  # only the arc program can decide (see _path_program)
        solved = _arc_program(r, demand, total)
    flows, proven, nvar = solved

    # units of each order along its commodity's paths (lexicographic order of paths)
    left_of = {key: sorted((path, n) for path, n in flows.get(key, {}).items() if n > 0) for key in demand}
    terr = sorted({t for paths in left_of.values() for path, _ in paths for t in path}, key=r.tix.__getitem__)
    routes: list[OrderRoute] = []
    used = {t: 0 for t in terr}
    through: dict[str, set[int]] = {}
    for i, o in valid:
        pool = left_of[(r.network_id(o.nation), o.start, o.to)]
        paths: dict[tuple[str, ...], int] = {}
        want = o.count
        while want and pool:
            path, n = pool[0]
            take = min(want, n)
            want -= take
            if take == n:
                pool.pop(0)
            else:
                pool[0] = (path, n - take)
            paths[path] = paths.get(path, 0) + take
            for t in path:
                used[t] += take
            for t in path[1:-1]:
                through.setdefault(t, set()).add(i)
        routes.append(OrderRoute(i, tuple(sorted(paths.items(), key=lambda p: (-p[1], p[0]))), want))
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
                        details={"variables": nvar, "proven_optimal": proven}, label=m.label)
    bottleneck, text = _infeasible_bottleneck(r, valid, routes, used)
    words = f"No routing fits all {total} units: {unrouted} cannot be railed. {text}"
    return RailPlan(False, "milp", tuple(orders), tuple(routes), usage, tuple(bottleneck), tuple(refused),
                    (base + " " if base else "") + words,
                    details={"variables": nvar, "proven_optimal": proven}, label=m.label)


Flows = dict[tuple[int, str, str], dict[tuple[str, ...], int]]
"""Units per path (territory ids, start to destination) of each commodity
(rail network, start, destination)."""


def _path_program(r: RailRules, demand: dict[tuple[int, str, str], int], total: int
                  ) -> tuple[Flows, bool, int] | None:
    """The routing as a path program solved by column generation, or None
    when only the arc program (:func:`_arc_program`) can decide.

    A variable per (commodity, path) counts units along the path; rows: each
    commodity routes at most its units, each territory carries at most its
    capacity (every territory of a path, both ends included, spends one).
    The cost of a path is its number of links less ``big`` per unit routed,
    so, as in the arc program, as many units as possible are routed, then
    the total length is the least.  The LP starts from every commodity's
    shortest path; the duals then price every other path at once (Dijkstra
    per start with territory weights 1 - capacity dual) and paths of
    negative reduced cost join, until none is left: the LP optimum over all
    paths, equal to the arc program's LP optimum (flows decompose into
    paths, and cycles only cost), so an integral optimum is optimal.  One
    LP model (:class:`_ColumnLP`) takes the new paths as columns and is
    re-solved from its last basis, so a round costs a few simplex steps.
    Otherwise the integer program over the generated paths is solved; its
    routing is proven optimal when it reaches the LP bound rounded up (all
    costs are whole).  When every unit fits fractionally but that integer
    program routes fewer, the arc program decides (None), so ``feasible``
    stays exact; when it routes every unit, its routing stands, proven
    shortest or not (the arc program took 55 s to shorten such a routing on
    1000 territories, ``bench/railroads.py``); when the LP already shows
    that not every unit fits, the best partial routing over the generated
    paths is sought within :data:`PARTIAL_TIME_LIMIT`."""
    keys = list(demand)
    n_t = len(r.tids)
    big = float(n_t * total + 1)
    key_start = np.asarray([r.tix[k[1]] for k in keys], np.int64)
    key_dest = np.asarray([r.tix[k[2]] for k in keys], np.int64)
    nets: dict[int, tuple[csr_matrix, np.ndarray, np.ndarray, np.ndarray]] = {}
    for net in sorted({k[0] for k in keys}):
        u, v, _ = r.arcs(net)
        ks = np.asarray([k for k, key in enumerate(keys) if key[0] == net], np.int64)
        starts, row = np.unique(key_start[ks], return_inverse=True)
        # the sparsity of the network's links, built once: a round only rewrites the weights
        g = csr_matrix((np.ones(len(u)), (u, v)), shape=(n_t, n_t))
        g.sort_indices()
        nets[net] = (g, ks, starts, row)
    model = (_ColumnLP if _core is not None else _LinprogLP)(np.asarray([demand[key] for key in keys], float),
                                                             r.cap_array.astype(float))
    paths: list[tuple[int, tuple[int, ...]]] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    weight = np.ones(n_t)
    alpha = np.zeros(len(keys))
    x = np.zeros(0)
    lower = 0.0
    for _ in range(MAX_PRICING_ROUNDS):
        new: list[tuple[int, tuple[int, ...]]] = []
        for g, ks, starts, row in nets.values():
            g.data = weight[g.indices]
            dist, pred = dijkstra(g, directed=True, indices=starts, return_predecessors=True)
            d = dist[row, key_dest[ks]]
            reduced = -big - alpha[ks] - 1.0 + weight[key_start[ks]] + d
            for j in np.flatnonzero(np.isfinite(d) & (reduced < -PRICING_TOLERANCE)).tolist():
                k, s, t = int(ks[j]), int(key_start[ks[j]]), int(key_dest[ks[j]])
                prow = pred[row[j]]
                path = [t]
                while t != s:
                    t = int(prow[t])
                    path.append(t)
                col = (k, tuple(reversed(path)))
                if col not in seen:
                    seen.add(col)
                    new.append(col)
        if not new:
            break
        model.add(new, big)
        paths += new
        solved = model.solve()
        if solved is None:
            return None
        x, lower, alpha, cap_dual = solved
        weight = 1.0 - cap_dual
    else:
        return None
    if not paths:
        return {}, True, 0
    routed = float(x.sum())
    if np.abs(x - np.rint(x)).max(initial=0.0) < 1e-7:
        xi = np.rint(x).astype(np.int64)
        proven = True
    else:
        all_fit = routed >= total - 1e-6
        cost, A, b = _path_matrix(r, keys, demand, paths, big)
        options: dict[str, Any] = {"disp": False}
        if not all_fit:
            options["time_limit"] = PARTIAL_TIME_LIMIT
        res = milp(cost, integrality=np.ones(len(paths)), bounds=Bounds(0, np.inf),
                   constraints=[LinearConstraint(A, -np.inf, b)], options=options)
        if res.x is None:
            return None if all_fit else ({}, False, len(paths))
        xi = np.rint(res.x).astype(np.int64)
        proven = bool(res.status == 0) and float(cost @ xi) <= math.ceil(lower - 1e-4) + 1e-9
        if all_fit and int(xi.sum()) < total:
            return None
    flows: Flows = {}
    for (k, via), n in zip(paths, xi.tolist(), strict=True):
        if n > 0:
            flows.setdefault(keys[k], {})[tuple(r.tids[t] for t in via)] = int(n)
    return flows, proven, len(paths)


class _ColumnLP:
    """The LP relaxation of the path program as one HiGHS model that grows
    by columns: rows are each commodity's units (``demand``) and then every
    territory's capacity (``caps``, all of them, so a new path never needs
    a new row); :meth:`add` appends paths as columns and :meth:`solve`
    re-solves from the last optimal basis (HiGHS keeps it across added
    columns).  HiGHS is the copy scipy ships (``scipy.optimize._highspy``,
    the solver behind ``linprog`` and ``milp``)."""

    def __init__(self, demand: np.ndarray, caps: np.ndarray) -> None:
        self.n_k = len(demand)
        self.h = _core._Highs()
        # primal simplex: a new column leaves the last basis primal feasible, so the re-solve starts from it
        for name, value in (("output_flag", False), ("presolve", "off"), ("solver", "simplex"),
                            ("simplex_strategy", 4)):
            self.h.setOptionValue(name, value)
        rhs = np.concatenate([demand, caps])
        n = len(rhs)
        self.h.addRows(n, np.full(n, -_core.kHighsInf), rhs, 0, np.zeros(n, np.int32), np.zeros(0, np.int32),
                       np.zeros(0))

    def add(self, paths: Sequence[tuple[int, tuple[int, ...]]], big: float) -> None:
        lengths = np.asarray([len(p) for _, p in paths], np.int64)
        # each column: its commodity's row, then the capacity row of every territory it passes
        index = np.fromiter((i for k, p in paths for i in (k, *(self.n_k + t for t in p))), np.int32,
                            count=int(lengths.sum()) + len(paths))
        starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int32)
        n = len(paths)
        self.h.addCols(n, (lengths - 1).astype(float) - big, np.zeros(n), np.full(n, _core.kHighsInf),
                       len(index), starts, index, np.ones(len(index)))

    def solve(self) -> tuple[np.ndarray, float, np.ndarray, np.ndarray] | None:
        """Column values, objective, commodity duals and capacity duals (None:
        no optimum)."""
        self.h.run()
        if self.h.getModelStatus() != _core.HighsModelStatus.kOptimal:
            return None
        sol = self.h.getSolution()
        duals = np.asarray(sol.row_dual)
        return (np.asarray(sol.col_value), float(self.h.getInfo().objective_function_value),
                duals[:self.n_k], duals[self.n_k:])


class _LinprogLP:
    """:class:`_ColumnLP`'s interface over scipy's public ``linprog``: the
    same rows and columns, each :meth:`solve` from scratch."""

    def __init__(self, demand: np.ndarray, caps: np.ndarray) -> None:
        self.n_k = len(demand)
        self.rhs = np.concatenate([demand, caps])
        self.cost: list[float] = []
        self.rows: list[int] = []
        self.cols: list[int] = []

    def add(self, paths: Sequence[tuple[int, tuple[int, ...]]], big: float) -> None:
        for k, p in paths:
            j = len(self.cost)
            self.cost.append(len(p) - 1 - big)
            for i in (k, *(self.n_k + t for t in p)):
                self.rows.append(i)
                self.cols.append(j)

    def solve(self) -> tuple[np.ndarray, float, np.ndarray, np.ndarray] | None:
        """Column values, objective, commodity duals and capacity duals (None:
        no optimum)."""
        a = coo_matrix((np.ones(len(self.rows)), (self.rows, self.cols)),
                       shape=(len(self.rhs), len(self.cost))).tocsr()
        res = linprog(np.asarray(self.cost), A_ub=a, b_ub=self.rhs, bounds=(0, None), method="highs")
        if res.status != 0:
            return None
        duals = np.asarray(res.ineqlin.marginals)
        return np.asarray(res.x), float(res.fun), duals[:self.n_k], duals[self.n_k:]


MAX_PRICING_ROUNDS = 500
"""Column generation rounds before :func:`_path_program` hands the question
to the arc program (it converges in a few dozen on 1000 territories)."""
PRICING_TOLERANCE = 1e-6
"""A path joins the LP when its reduced cost is below minus this."""


def _path_rows(paths: Sequence[tuple[int, tuple[int, ...]]], n_t: int) -> tuple[np.ndarray, np.ndarray]:
    """The territories some path passes (sorted indexes) and, per entry of
    every path in turn, its capacity row."""
    flat = np.fromiter((t for _, p in paths for t in p), np.int64)
    terr, rows = np.unique(flat, return_inverse=True)
    return terr, rows


def _path_matrix(r: RailRules, keys: Sequence[tuple[int, str, str]], demand: dict[tuple[int, str, str], int],
                 paths: Sequence[tuple[int, tuple[int, ...]]], big: float
                 ) -> tuple[np.ndarray, csr_matrix, np.ndarray]:
    """Cost, rows and right-hand sides of the path program: one row per
    commodity (its units), then one per territory some path passes (its
    capacity)."""
    n_k = len(keys)
    terr, cap_rows = _path_rows(paths, len(r.tids))
    lengths = np.asarray([len(p) for _, p in paths], np.int64)
    cols = np.arange(len(paths))
    rows = np.concatenate([np.asarray([k for k, _ in paths], np.int64), n_k + cap_rows])
    entries = np.concatenate([cols, np.repeat(cols, lengths)])
    A = coo_matrix((np.ones(len(rows)), (rows, entries)), shape=(n_k + len(terr), len(paths))).tocsr()
    b = np.concatenate([np.asarray([demand[key] for key in keys], float), r.cap_array[terr].astype(float)])
    cost = (lengths - 1).astype(float) - big
    return cost, A, b


def _arc_program(r: RailRules, demand: dict[tuple[int, str, str], int], total: int) -> tuple[Flows, bool, int]:
    """The routing as an arc program: one commodity per (rail network,
    destination), integer flow on every directed rail link of the
    destination's component, conservation at every territory, one shared
    capacity row per territory (units entering it plus units starting
    there); decomposed into paths per start by following, unit by unit, the
    first link (by territory id) that still carries flow."""
    comm: dict[tuple[int, str], dict[str, int]] = {}
    for (net, start, to), n in demand.items():
        c = comm.setdefault((net, to), {})
        c[start] = c.get(start, 0) + n
    keys = sorted(comm)
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
    big = float(n_t * total + 1)
    cost = np.concatenate([np.ones(na), np.full(ns, -big)])
    upper = np.concatenate([np.full(na, float(total)), np.asarray([comm[keys[k]][st] for k, st in var_src], float)])
    x, proven = _solve(cost, A_eq, A_cap, cap, upper, ns, total)
    arc_flow: dict[int, dict[str, dict[str, int]]] = {}
    for j, (k, u, v) in enumerate(zip(ak.tolist(), au.tolist(), av.tolist(), strict=True)):
        if x[j] > 0:
            arc_flow.setdefault(k, {}).setdefault(tids[u], {})[tids[v]] = int(x[j])
    flows: Flows = {}
    for j, (k, start) in enumerate(var_src):
        net, to = keys[k]
        out = flows.setdefault((net, start, to), {})
        for _ in range(int(x[na + j])):
            path = [start]
            arcs = arc_flow.get(k, {})
            while path[-1] != to:
                nxt = min(w for w, f in arcs[path[-1]].items() if f > 0)
                arcs[path[-1]][nxt] -= 1
                path.append(nxt)
            out[tuple(path)] = out.get(tuple(path), 0) + 1
    return flows, proven, nvar


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
