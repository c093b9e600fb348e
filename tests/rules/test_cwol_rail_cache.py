"""The CWOL rail search reused between hovers (issue 19): a sequence of
rail moves on one random map, with the control of random squares, the enemy
units and the rail links changed between queries, gives every time exactly
what a search from scratch gives (path, ties, blocked, searched, reason),
and the networkx shortest-path length over the squares the side may use."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import Cell
from engine.model import NO_SIDE, Scenario
from engine.rules.cwol_rail import NO_VALID_PATH, rail_move, rail_network
from tests.rules.test_cwol_rail_property import H, W, maps

CELLS = [Cell(c, r) for r in range(H) for c in range(W)]
change = st.one_of(
    st.tuples(st.just("control"), st.sampled_from(CELLS), st.sampled_from((0, 0, 1, NO_SIDE))),
    st.tuples(st.just("enemy"), st.sampled_from(CELLS), st.just(0)),
    st.tuples(st.just("rail"), st.sampled_from(CELLS), st.integers(0, 3)),
    st.tuples(st.just("none"), st.just(CELLS[0]), st.just(0)),
)


def fresh(s: Scenario, dest: Cell) -> tuple[object, ...]:
    rail_network(s.map)._searches.clear()
    r = rail_move(s, "CS1IN", dest, measure_long_paths=False)
    return r.status, r.path, r.ties, r.blocked, r.searched, r.reason


def nx_length(s: Scenario, start: Cell, dest: Cell) -> int | None:
    enemy = ({u.at for u in s.units if u.side == "US"}
             if s.ruleset.options["cwol_rail"]["enemy_units_block"] else set())
    g = nx.Graph()
    g.add_edges_from((e.a, e.b) for e in s.map.links["rail"])
    view = nx.subgraph_view(g, filter_node=lambda c: int(s.map.control[c.row, c.col]) == 0 and c not in enemy)
    try:
        return nx.shortest_path_length(view, start, dest)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


@settings(max_examples=200, deadline=None)
@given(maps(), st.lists(st.tuples(change, st.sampled_from(CELLS)), min_size=1, max_size=8))
def test_reused_search_equals_a_fresh_one(case: tuple[Scenario, Cell, Cell],
                                          steps: list[tuple[tuple[str, Cell, int], Cell]]) -> None:
    s, start, _ = case
    max_path = s.ruleset.options["cwol_rail"]["max_path"]
    for (what, cell, value), dest in steps:
        if what == "control":
            s.map.control[cell.row, cell.col] = value
        elif what == "enemy" and len(s.units) > 1:
            s.units[1].at = cell
        elif what == "rail":
            dc, dr = ((1, 0), (0, 1), (1, 1), (1, -1))[value]
            n = Cell(cell.col + dc, cell.row + dr)
            if s.map.grid.contains(n):
                link = s.map.grid.link(cell, n)
                s.map.links["rail"] = set(s.map.links["rail"]) ^ {link}
        r = rail_move(s, "CS1IN", dest, measure_long_paths=False)
        got = (r.status, r.path, r.ties, r.blocked, r.searched, r.reason)
        assert got == fresh(s, dest)
        d = nx_length(s, start, dest) if start != dest or r.status != NO_VALID_PATH else None
        if r.path is not None:
            assert r.path_length == d
        else:
            assert d is None or d > max_path or start == dest


def test_a_verdict_asked_again_is_reused_until_what_it_says_changes() -> None:
    import dataclasses
    from pathlib import Path

    from engine.io import load_scenario
    from engine.model import Place

    s = load_scenario(Path(__file__).resolve().parents[2] / "maps" / "cwol_mobile_columbus.json")
    dest = s.map.parse_label("E4-X4")
    first = rail_move(s, "CS1IN", dest, measure_long_paths=False)
    assert first.path is not None
    assert rail_move(s, "CS1IN", dest, measure_long_paths=False) is first
    s.map.places[dest] = Place("Nowhere Junction")  # a place named at the destination: the reason names it
    named = rail_move(s, "CS1IN", dest, measure_long_paths=False)
    assert "Nowhere Junction" in named.reason and named.path == first.path
    i = s.sides.index(s.side(s.unit("CS1IN").side))
    s.sides[i] = dataclasses.replace(s.sides[i], name="Rebel")
    renamed = rail_move(s, "CS1IN", dest, measure_long_paths=False)
    assert "Rebel-held" in renamed.reason
    fresh_reason = fresh(s, dest)[5]
    assert renamed.reason == fresh_reason
