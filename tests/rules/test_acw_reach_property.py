"""ACW reachability against a plain Dijkstra (issue 19): on random hex maps
(terrain with impassable water, rivers, bridges, enemy units, both
``step_cost`` options) :func:`engine.rules.acw.movement.reach` gives every
hex exactly networkx's ``single_source_dijkstra_path_length`` with cutoff
over the steps :meth:`Board.step_cost` allows (no step out of a hex next to
the enemy but the start), and each parent chain is a route of that cost.
Asked twice on the same Board (its step cache warm), it answers the same,
and the same as a search that expands every hex (the search skips the hexes
from which no step fits the allowance left: ``Board.min_step``)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import Cell, Edge, HexGrid, Orientation
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit, UnitType
from engine.rules.acw.movement import Board, reach

W, H = 8, 7


@st.composite
def boards(draw: st.DrawFn) -> tuple[Scenario, Unit]:
    orientation = draw(st.sampled_from((Orientation.FLAT, Orientation.POINTY)))
    grid = HexGrid(W, H, orientation, draw(st.sampled_from(("odd", "even"))))
    gm = GridMap(grid, NumericNumbering())
    cells = [Cell(c, r) for r in range(H) for c in range(W)]
    kinds = draw(st.lists(st.sampled_from((0, 0, 0, 1, 1, 2)), min_size=len(cells), max_size=len(cells)))
    for c, k in zip(cells, kinds, strict=True):
        gm.terrain[c.row, c.col] = k
    sides_drawn = draw(st.lists(st.integers(0, 29), min_size=6 * len(cells), max_size=6 * len(cells)))
    for j, c in enumerate(cells):
        for k, n in enumerate(sorted(grid.neighbours(c))):
            flag = sides_drawn[6 * j + k]
            if flag < 3:
                e = Edge.between(c, n)
                gm.rivers.add(e)
                if flag:
                    gm.bridges[e] = "road" if flag == 1 else "rail"
    terrain = [TerrainType("open", "Open", "o", "#dddd99", move_cost=1),
               TerrainType("woods", "Woods", "w", "#338833", move_cost=draw(st.integers(2, 3))),
               TerrainType("water", "Water", "~", "#3366cc", impassable=True)]
    types = [UnitType("infantry", "Infantry", 3, {"arm": "infantry"}),
             UnitType("cavalry", "Cavalry", draw(st.integers(4, 6)), {"arm": "cavalry"})]
    options = {"step_cost": draw(st.sampled_from(("sum", "highest")))}
    rs = Ruleset("prop", terrain, types, options={"acw": options})
    sides = [Faction("US", "Union", "#2244aa", "U"), Faction("CS", "Confederate", "#888888", "C")]
    start = draw(st.sampled_from(cells))
    units = [Unit("US0", "US", draw(st.sampled_from(("infantry", "cavalry"))), start, 5)]
    for k in range(draw(st.integers(0, 4))):
        at = draw(st.sampled_from(cells))
        if at != start:
            units.append(Unit(f"CS{k}", "CS", "infantry", at, 5))
    return Scenario("prop", rs, sides, gm, units), units[0]


@settings(max_examples=150, deadline=None)
@given(boards())
def test_reach_equals_dijkstra_with_cutoff(case: tuple[Scenario, Unit]) -> None:
    s, u = case
    board = Board(s, u.side)
    start = board.index(u.at)
    r = reach(s, u, board)
    g = nx.DiGraph()
    g.add_node(start)
    for a in range(W * H):
        if a != start and a in board.near_enemy:
            continue
        for b in board.neighbours(a):
            cost = board.step_cost(a, b)
            if cost is not None:
                g.add_edge(a, b, weight=cost)
    expected = nx.single_source_dijkstra_path_length(g, start, cutoff=r.allowance)
    assert r.costs == expected
    for i, cost in r.costs.items():
        total, j = 0, i
        while j in r.parents:
            step = board.step_cost(r.parents[j], j)
            assert step is not None
            total, j = total + step, r.parents[j]
        assert (j, total) == (start, cost)
    again = reach(s, u, board)
    assert (again.costs, again.parents) == (r.costs, r.parents)
    # the search leaves unexpanded the hexes from which no step fits
    # (Board.min_step): a search expanding every hex gives the same costs
    # and the same parents
    full = Board(s, u.side)
    assert board.min_step == 1
    full.min_step = 0
    whole = reach(s, u, full)
    assert (whole.costs, whole.parents) == (r.costs, r.parents)
