"""CWOL rail search against a plain answer on random maps (issue 19): on
random rail links (diagonals included) with random control and enemy units,
:func:`engine.rules.cwol_rail.rail_move` finds the networkx shortest-path
length over the squares the side may use, its path is valid and takes at
every square the first step in link order that stays on a shortest path,
its ties are exactly the other squares where a shortest path is after
``max_move`` steps, and its blocked squares are the refused rail squares
next to the squares it reached."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import Cell, SquareGrid
from engine.labels import NumericNumbering
from engine.model import NO_SIDE, Faction, GridMap, Ruleset, Scenario, TerrainType, Unit
from engine.rules.cwol_rail import ARRIVED, NO_VALID_PATH, STOPPED_SHORT, rail_move, rail_network

W, H = 9, 8


@st.composite
def maps(draw: st.DrawFn) -> tuple[Scenario, Cell, Cell]:
    g = SquareGrid(W, H, 8)
    gm = GridMap(g, NumericNumbering(first=0))
    cells = [Cell(c, r) for r in range(H) for c in range(W)]
    gm.control[:] = 0
    for c in cells:
        gm.control[c.row, c.col] = draw(st.sampled_from((0, 0, 0, 0, 0, 1, NO_SIDE)))
    links = set()
    for c in cells:
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = Cell(c.col + dc, c.row + dr)
            if g.contains(n) and draw(st.integers(0, 9)) < 4:
                links.add(g.link(c, n))
    gm.links["rail"] = links
    start = draw(st.sampled_from(cells))
    dest = draw(st.sampled_from(cells))
    units = [Unit("CS1IN", "CS", "infantry", start)]
    for k in range(draw(st.integers(0, 3))):
        units.append(Unit(f"US{k}", "US", "infantry", draw(st.sampled_from(cells))))
    options = {"max_move": draw(st.integers(1, 4)), "enemy_units_block": draw(st.booleans())}
    options["max_path"] = options["max_move"] + draw(st.integers(0, 8))
    s = Scenario("prop", Ruleset("prop", [TerrainType("clear", "Clear", "c", "#cccccc")],
                                 options={"cwol_rail": options}),
                 [Faction("CS", "Confederate", "#888888", "C"), Faction("US", "Union", "#2244aa", "U")], gm, units)
    return s, start, dest


@settings(max_examples=300, deadline=None)
@given(maps())
def test_rail_move_equals_a_plain_shortest_path(case: tuple[Scenario, Cell, Cell]) -> None:
    s, start, dest = case
    opts = s.ruleset.options["cwol_rail"]
    net = rail_network(s.map)
    enemy = {u.at for u in s.units if u.side == "US"} if opts["enemy_units_block"] else set()

    def ok(c: Cell) -> bool:
        return int(s.map.control[c.row, c.col]) == 0 and c not in enemy

    g = nx.Graph()
    g.add_nodes_from(net.cell(i) for i in net.adj)
    g.add_edges_from((e.a, e.b) for e in s.map.links["rail"])
    valid = g.subgraph([c for c in g if ok(c)])
    r = rail_move(s, "CS1IN", dest, measure_long_paths=False)
    try:
        d = nx.shortest_path_length(valid, start, dest) if start in valid and dest in valid else None
    except nx.NetworkXNoPath:
        d = None
    if d is None or d > opts["max_path"]:
        assert r.status == NO_VALID_PATH and r.path is None and r.stop == start
        return
    assert r.path is not None and r.path_length == d
    assert r.status == (ARRIVED if d <= opts["max_move"] else STOPPED_SHORT)
    from_start = nx.single_source_shortest_path_length(valid, start)
    to_dest = nx.single_source_shortest_path_length(valid, dest)

    def on_shortest(c: Cell, k: int) -> bool:
        return from_start.get(c) == k and from_start[c] + to_dest.get(c, d + 1) == d

    for k, (a, b) in enumerate(zip(r.path, r.path[1:]), start=1):
        assert valid.has_edge(a, b)
        first = next(n for n in net.neighbours(a) if n in valid and on_shortest(n, k))
        assert b == first
    if r.status == STOPPED_SHORT:
        m = opts["max_move"]
        assert r.stop == r.path[m]
        assert set(r.ties) == {c for c in valid if on_shortest(c, m)} - {r.stop}
    reached = {c for c in from_start if from_start[c] <= d}
    assert all(not ok(c) for c in r.blocked)
    assert set(r.blocked) <= {n for c in reached for n in net.neighbours(c)}
