"""Module I's path program (column generation, ``engine/rules/railroads/routing.py``)
against the arc program it replaced as the first solver: on random Voronoi
maps and random orders both decide ``feasible`` alike and, when both prove
their routing optimal, route as many units with the same total length;
every routing respects every capacity and goes where the orders say."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from bench.railroads import scenario
from engine.rules.railroads import RailOrder, RailRules, plan
from engine.rules.railroads.routing import _arc_program, _path_program


def _orders(rules: RailRules, rng: random.Random, n: int) -> list[RailOrder]:
    nodes = sorted(max(nx.connected_components(rules.graph("germany")), key=len))
    out = []
    for _ in range(n):
        a, b = rng.sample(nodes, 2)
        out.append(RailOrder(rng.choice(["germany", "italy"]), a, b, rng.randint(1, 3)))
    return out


def _objective(flows: dict, total: int) -> tuple[int, int]:  # type: ignore[type-arg]
    routed = sum(n for paths in flows.values() for n in paths.values())
    length = sum((len(p) - 1) * n for paths in flows.values() for p, n in paths.items())
    return routed, length


@pytest.mark.parametrize("seed", range(12))
def test_path_program_matches_arc_program(seed: int) -> None:
    s = scenario(60 + 10 * seed, seed=seed)
    rules = RailRules(s)
    orders = _orders(rules, random.Random(seed), 3 + seed)
    ok, _ = rules.validate(orders)
    demand: dict[tuple[int, str, str], int] = {}
    for i in ok:
        o = orders[i]
        key = (rules.network_id(o.nation), o.start, o.to)
        demand[key] = demand.get(key, 0) + o.count
    total = sum(demand.values())
    arc_flows, arc_proven, _ = _arc_program(rules, demand, total)
    solved = _path_program(rules, demand, total)
    if solved is None:  # the arc program decides: plan uses it
        return
    flows, proven, _ = solved
    routed, length = _objective(flows, total)
    arc_routed, arc_length = _objective(arc_flows, total)
    assert (routed == total) == (arc_routed == total)
    if proven and arc_proven:
        assert (routed, length) == (arc_routed, arc_length)
    # the routing plan builds from it is sound
    p = plan(s, orders, RailRules(s))
    assert p.feasible == (arc_routed == total and len(ok) == len(orders))
    used: dict[str, int] = {}
    for rt in p.routes:
        o = orders[rt.order]
        assert sum(n for _, n in rt.paths) + rt.unrouted == o.count
        for path, n in rt.paths:
            assert (path[0], path[-1]) == (o.start, o.to)
            assert all(rules.graph(o.nation).has_edge(a, b) for a, b in zip(path, path[1:]))
            for t in path:
                used[t] = used.get(t, 0) + n
    assert all(n <= rules.capacity(s.map.territories[t]) for t, n in used.items())
