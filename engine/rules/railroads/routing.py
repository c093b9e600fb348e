"""Module I, the exact question: :func:`plan`, an integer program solved
with HiGHS through scipy, its path decomposition and the bottleneck it
names (see :mod:`engine.rules.railroads` for what it guarantees)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import coo_matrix, csr_matrix

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
                        details={"variables": nvar, "proven_optimal": proven}, label=m.label)
    bottleneck, text = _infeasible_bottleneck(r, valid, routes, used)
    words = f"No routing fits all {total} units: {unrouted} cannot be railed. {text}"
    return RailPlan(False, "milp", tuple(orders), tuple(routes), usage, tuple(bottleneck), tuple(refused),
                    (base + " " if base else "") + words,
                    details={"variables": nvar, "proven_optimal": proven}, label=m.label)


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
