"""Module I's rail networks as arrays (``RailRules.usable``, ``network_links``,
``arcs``): the same territories, links and components as the map's networkx
graph restricted to what a nation may use, and a routing that builds no
networkx graph at all."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from bench.railroads import scenario
from engine.rules.railroads import RAIL_BORDERS, RailOrder, RailRules, plan


@pytest.mark.parametrize("seed", range(4))
def test_the_arrays_are_the_networkx_subgraph(seed: int) -> None:
    s = scenario(80 + 20 * seed, seed=seed)
    rules = RailRules(s)
    for nation in ("germany", "italy", "ussr"):
        usable = [t for t, x in s.map.territories.items() if rules.why_unusable(x, nation) is None]
        sub = s.map.graph.subgraph(usable)
        want = {frozenset((a, b)) for a, b, d in sub.edges(data=True) if d["border"].kind in RAIL_BORDERS}
        nodes, links = rules.network_links([nation])
        assert sorted(rules.tids[i] for i in nodes.nonzero()[0]) == sorted(usable)
        assert {frozenset((rules.tids[a], rules.tids[b])) for a, b in links.tolist()} == want
        _, _, comp = rules.arcs(rules.network_id(nation))
        g = nx.Graph(list(want))
        g.add_nodes_from(usable)
        for part in nx.connected_components(g):
            labels = {int(comp[rules.tix[t]]) for t in part}
            assert len(labels) == 1 and labels != {-1}
        assert all(comp[i] == -1 for i in (~nodes).nonzero()[0])


def test_a_routing_builds_no_networkx_graph() -> None:
    s = scenario(200, seed=7)
    rules = RailRules(s)
    nodes = sorted(t for t, x in s.map.territories.items() if rules.why_unusable(x, "germany") is None)
    _, _, comp = rules.arcs(rules.network_id("germany"))
    big = max(set(comp.tolist()) - {-1}, key=comp.tolist().count)
    nodes = [t for t in nodes if comp[rules.tix[t]] == big]
    rng = random.Random(3)
    orders = [RailOrder("germany", *rng.sample(nodes, 2)) for _ in range(8)]
    p = plan(s, orders, rules)
    assert not p.refused and p.routes
    assert rules._graphs == {}  # the routing reads the arrays; a networkx graph only words a refusal


@pytest.mark.parametrize("seed", range(3))
def test_the_public_linprog_route_gives_the_kept_models_plans(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without scipy's HiGHS model (a scipy that does not ship it), routing
    re-solves through the public ``linprog`` and reaches the same verdicts,
    units routed and rail used."""
    from engine.rules.railroads import routing

    s = scenario(120, seed=seed)
    rules = RailRules(s)
    nodes = sorted(t for t, x in s.map.territories.items() if rules.why_unusable(x, "germany") is None)
    rng = random.Random(seed)
    orders = [RailOrder("germany", *rng.sample(nodes, 2), rng.randint(1, 3)) for _ in range(12)]
    kept = plan(s, orders, RailRules(s))
    monkeypatch.setattr(routing, "_core", None)
    public = plan(s, orders, RailRules(s))
    assert public.feasible == kept.feasible
    assert [r.order for r in public.routes] == [r.order for r in kept.routes]
    assert sum(k for r in public.routes for _, k in r.paths) == sum(k for r in kept.routes for _, k in r.paths)
    assert sorted(public.refused) == sorted(kept.refused)
