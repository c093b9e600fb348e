"""Checked line of sight (``engine/grids/sight.py``, ``engine/sight.py``):
exact ties, the same verdict from either end, invariance under the grid's
symmetries, and the tie rules."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.grids.sight import Lattice, crossing, to_cell
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType
from engine.sight import SightRules, line_of_sight

Sym = Callable[[Lattice], Lattice]


def _hex_symmetries() -> list[Sym]:
    """The 12 symmetries of the hex lattice fixing the origin, on axial (q, r)."""
    def rot(p: Lattice) -> Lattice:  # cube (x, y, z) -> (-z, -x, -y)
        q, r = p
        return (q + r, -q)

    def refl(p: Lattice) -> Lattice:  # cube (x, y, z) -> (x, z, y)
        q, r = p
        return (q, -q - r)

    out: list[Sym] = []
    for k in range(6):
        for m in (False, True):
            def f(p: Lattice, k: int = k, m: bool = m) -> Lattice:
                if m:
                    p = refl(p)
                for _ in range(k):
                    p = rot(p)
                return p
            out.append(f)
    return out


def _square_symmetries() -> list[Sym]:
    out: list[Sym] = []
    for sx in (1, -1):
        for sy in (1, -1):
            for swap in (False, True):
                def f(p: Lattice, sx: int = sx, sy: int = sy, swap: bool = swap) -> Lattice:
                    x, y = (p[1], p[0]) if swap else p
                    return (sx * x, sy * y)
                out.append(f)
    return out


HEX = HexGrid(400, 400)
SQUARE = SquareGrid(400, 400, 4)
MID = Cell(200, 200)


def _ways(grid: HexGrid | SquareGrid, a: Lattice, b: Lattice) -> set[frozenset[Lattice]]:
    c = crossing(grid, to_cell(grid, a), to_cell(grid, b))
    return {frozenset(c.left.cells), frozenset(c.right.cells)}


offsets = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


@settings(max_examples=200, deadline=None)
@given(offsets, offsets, st.integers(0, 11), st.booleans())
def test_walks_are_invariant_under_the_grids_symmetries(da: Lattice, db: Lattice, k: int, hexes: bool) -> None:
    grid = HEX if hexes else SQUARE
    syms = _hex_symmetries() if hexes else _square_symmetries()
    g = syms[k % len(syms)]
    o = grid.to_axial(MID)
    a, b = (o[0] + da[0], o[1] + da[1]), (o[0] + db[0], o[1] + db[1])
    ga, gb = g(da), g(db)
    image = _ways(grid, (o[0] + ga[0], o[1] + ga[1]), (o[0] + gb[0], o[1] + gb[1]))
    mapped = set()
    for way in _ways(grid, a, b):
        mapped.add(frozenset((o[0] + g((p[0] - o[0], p[1] - o[1]))[0], o[1] + g((p[0] - o[0], p[1] - o[1]))[1])
                             for p in way))
    assert image == mapped


@settings(max_examples=200, deadline=None)
@given(offsets, offsets, st.booleans())
def test_walks_are_the_same_from_either_end(da: Lattice, db: Lattice, hexes: bool) -> None:
    grid = HEX if hexes else SQUARE
    o = grid.to_axial(MID)
    a, b = (o[0] + da[0], o[1] + da[1]), (o[0] + db[0], o[1] + db[1])
    ab = crossing(grid, to_cell(grid, a), to_cell(grid, b))
    ba = crossing(grid, to_cell(grid, b), to_cell(grid, a))
    assert ab.left.cells == tuple(reversed(ba.right.cells))
    assert ab.right.cells == tuple(reversed(ba.left.cells))


def test_tie_kinds_exactly() -> None:
    """Square: a diagonal goes through corners; hex: two hexes along a
    direction between neighbours run along the side between them; a plain
    line has no tie."""
    c = crossing(SQUARE, Cell(0, 0), Cell(3, 3))
    assert c.tied and c.left.cells[1] != c.right.cells[1]
    assert all(c.left.t_in(i) == c.left.t_out(i) for i in (1, 3, 5))  # corner cells are touched at a point
    o = HEX.to_axial(MID)
    c = crossing(HEX, MID, HEX.from_axial(o[0] + 2, o[1] - 1))
    assert c.tied and len(c.left.cells) == 3
    assert c.left.t_in(1) < c.left.t_out(1)  # a stretch of positive length along the side
    c = crossing(HEX, MID, HEX.from_axial(o[0] + 3, o[1] - 1))
    assert not c.tied


def _scenario(grid: HexGrid | SquareGrid, terrain: np.ndarray, walls: list[Edge]) -> Scenario:
    gm = GridMap(grid, NumericNumbering())
    gm.terrain[:, :] = terrain
    gm.rivers.update(walls)
    ts = [TerrainType("clear", "Clear", ".", "#ffffff"), TerrainType("woods", "Woods", "w", "#00aa00"),
          TerrainType("hill", "Hill", "h", "#aa8800", elevation=1), TerrainType("peak", "Peak", "H", "#885500",
                                                                               elevation=2)]
    return Scenario("los", Ruleset("los", ts), [Faction("A", "A", "#000000", "A")], gm, [])


@st.composite
def maps(draw: st.DrawFn) -> tuple[Scenario, Cell, Cell, SightRules]:
    hexes = draw(st.booleans())
    w, h = 9, 8
    grid: HexGrid | SquareGrid = HexGrid(w, h, draw(st.sampled_from(("flat", "pointy"))),
                                         draw(st.sampled_from(("odd", "even")))) if hexes else SquareGrid(w, h)
    terrain = np.array(draw(st.lists(st.sampled_from((0, 0, 0, 1, 2, 3)), min_size=w * h, max_size=w * h)),
                       np.uint8).reshape(h, w)
    walls = []
    for cell in grid.cells():
        for n in grid.neighbours(cell):
            if grid.shares_side(cell, n) and cell < n and draw(st.integers(0, 9)) == 0:
                walls.append(Edge.between(cell, n))
    cells = st.builds(Cell, st.integers(0, w - 1), st.integers(0, h - 1))
    rules = SightRules(("woods",), ("river",), draw(st.sampled_from(({}, {"woods": 1}))), draw(st.booleans()),
                       draw(st.sampled_from(("either", "both"))))
    return _scenario(grid, terrain, walls), draw(cells), draw(cells), rules


@settings(max_examples=100, deadline=None)
@given(maps())
def test_the_verdict_is_the_same_from_either_end(case: tuple[Scenario, Cell, Cell, SightRules]) -> None:
    s, a, b, rules = case
    ab, ba = line_of_sight(s, a, b, rules), line_of_sight(s, b, a, rules)
    assert ab.clear == ba.clear
    def key(v: object) -> set[tuple[str, str, str, bool]]:
        out = set()
        for e in v.elements:  # type: ignore[attr-defined]
            label = "|".join(sorted(e.label.split("|")))
            out.add((e.kind, label, e.how, e.blocks is not None))
        return out
    assert key(ab) == key(ba)
    if rules.tie == "either" and not ab.clear:
        assert any(e.blocks for e in ab.elements)


def test_under_both_a_one_sided_tie_is_clear_and_under_either_blocked() -> None:
    grid = SquareGrid(5, 5)
    terrain = np.zeros((5, 5), np.uint8)
    terrain[0, 1] = 1  # woods at (1, 0): touched at a corner by the diagonal
    s = _scenario(grid, terrain, [])
    either = line_of_sight(s, Cell(0, 0), Cell(2, 2), SightRules(("woods",)))
    both = line_of_sight(s, Cell(0, 0), Cell(2, 2), SightRules(("woods",), tie="both"))
    assert not either.clear and either.blocker is not None and either.blocker.how == "vertex"
    assert both.clear
    terrain[1, 0] = 1  # and woods on the other side of the same corner
    s = _scenario(grid, terrain, [])
    assert not line_of_sight(s, Cell(0, 0), Cell(2, 2), SightRules(("woods",), tie="both")).clear


def test_heights_see_over_lower_obstacles() -> None:
    grid = SquareGrid(5, 1)
    terrain = np.array([[3, 0, 1, 0, 3]], np.uint8)  # peak, clear, woods, clear, peak
    s = _scenario(grid, terrain, [])
    rules = SightRules(("woods",), heights={"woods": 1}, elevation=True)
    assert line_of_sight(s, Cell(0, 0), Cell(4, 0), rules).clear  # line at 2 over woods 1 high
    v = line_of_sight(s, Cell(1, 0), Cell(3, 0), rules)
    assert not v.clear and v.blocker is not None and v.blocker.label == "3-1"
    assert line_of_sight(s, Cell(0, 0), Cell(4, 0), SightRules(("woods",))).clear is False  # flat: woods blocks


def test_bad_rules_name_the_terrain() -> None:
    s = _scenario(SquareGrid(3, 3), np.zeros((3, 3), np.uint8), [])
    with pytest.raises(ModelError, match="no terrain 'forest'"):
        line_of_sight(s, Cell(0, 0), Cell(2, 2), SightRules(("forest",)))


@settings(max_examples=100, deadline=None)
@given(maps())
def test_the_verdict_agrees_with_the_whole_list(case: tuple[Scenario, Cell, Cell, SightRules]) -> None:
    """The verdict walks only as far as the first blocker; the full list of
    cells and sides (made when asked) names the same verdict and blocker."""
    s, a, b, rules = case
    v = line_of_sight(s, a, b, rules)
    firsts = {}
    for way in ("left", "right"):
        hit = [e for e in v.elements if e.blocks is not None and e.ways in ("both", way)]
        firsts[way] = min(hit, key=lambda e: (e.t_in, e.t_out)) if hit else None
    found = [e for e in firsts.values() if e is not None]
    if rules.tie == "either":
        assert v.clear == (not found)
    else:
        assert v.clear == (len(found) < 2)
    if not v.clear:
        assert v.blocker is not None
        assert any((e.label, e.t_in) == (v.blocker.label, v.blocker.t_in) for e in found)
