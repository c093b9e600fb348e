"""Small scenarios built in code for the canvas and render tests (square and
every hex orientation/parity), and checks that they are what the tests assume.

Other test modules import :func:`make_scenario` from here (pytest puts this
folder on ``sys.path``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.model import Faction, GridMap, Place, Ruleset, Scenario, TerrainType, Unit, UnitType
from engine.numbering import numbering_from_dict

TERRAIN = [
    TerrainType("clear", "Clear", ".", "#d9dfa8"),
    TerrainType("forest", "Forest", "f", "#7fa86a", move_cost=2),
    TerrainType("hills", "Hills", "h", "#c9a877", move_cost=2),
    TerrainType("mountain", "Mountain", "m", "#9c8f80", move_cost=3),
    TerrainType("swamp", "Swamp", "s", "#9fb8a0", move_cost=3),
    TerrainType("water", "Water", "~", "#8fb8de", impassable=True),
]
SIDES = [Faction("blue", "Union", "#3a5fa8", "U"), Faction("grey", "Confederacy", "#8c8c8c", "C")]


def make_scenario(kind: str = "square", width: int = 12, height: int = 9, orientation: str = "flat",
                  parity: str = "odd") -> Scenario:
    """A small but complete map: bands of terrain, a lake, control on the
    east and west, a river, a road, a rail line with a bridge, two places
    and a few units (one stack)."""
    grid = SquareGrid(width, height) if kind == "square" else HexGrid(width, height, orientation, parity)
    numbering = numbering_from_dict({"scheme": "ccrr", "first": 1, "digits": 2})
    terrain = np.zeros((height, width), np.uint8)
    rows, cols = np.mgrid[0:height, 0:width]
    terrain[(cols + rows) % 7 == 0] = 1
    terrain[rows == height - 2] = 2
    terrain[(rows == height - 1) & (cols < width // 2)] = 3
    terrain[(rows < 2) & (cols > width - 4)] = 5
    terrain[(rows == 3) & (cols == 2)] = 4
    control = np.full((height, width), -1, np.int16)
    control[:, : width // 3] = 0
    control[:, width - width // 3:] = 1
    gm = GridMap(grid, numbering, terrain, control)
    mid = width // 2
    for r in range(height - 1):
        a, b = Cell(mid, r), Cell(mid + 1, r)
        if grid.shares_side(a, b):
            gm.rivers.add(Edge.between(a, b))
    road_cells = [Cell(c, 2) for c in range(width)]
    gm.links["road"] = {Edge.between(a, b) for a, b in itertools.pairwise(road_cells) if grid.can_link(a, b)}
    rail_cells = [Cell(c, height // 2) for c in range(1, width - 1)]
    gm.links["rail"] = {Edge.between(a, b) for a, b in itertools.pairwise(rail_cells) if grid.can_link(a, b)}
    for e in gm.links["rail"] | gm.links["road"]:
        if e in gm.rivers:
            gm.bridges[e] = "rail" if e in gm.links["rail"] else "road"
    gm.places[Cell(2, 2)] = Place("Harrisburg")
    gm.places[Cell(width - 3, height // 2)] = Place("Mobile", "M")
    ruleset = Ruleset("test", list(TERRAIN), [UnitType("inf", "Infantry", 4), UnitType("cav", "Cavalry", 8),
                                             UnitType("art", "Artillery", 3), UnitType("hq", "Headquarters", 6)])
    units = [
        Unit("1st", "blue", "inf", Cell(1, 1), 6),
        Unit("2nd", "blue", "cav", Cell(1, 1), 3),
        Unit("3rd", "blue", "art", Cell(3, 4), 2),
        Unit("Lee", "grey", "hq", Cell(width - 2, height - 3), 1),
        Unit("A", "grey", "inf", Cell(width - 3, 3), 8),
    ]
    return Scenario("canvas test", ruleset, list(SIDES), gm, units)


ALL_GRIDS = [("square", "flat", "odd"), ("hex", "flat", "odd"), ("hex", "flat", "even"),
             ("hex", "pointy", "odd"), ("hex", "pointy", "even")]


@pytest.mark.parametrize("kind,orientation,parity", ALL_GRIDS)
def test_sample_scenario_is_consistent(kind: str, orientation: str, parity: str) -> None:
    s = make_scenario(kind, orientation=orientation, parity=parity)
    g = s.map.grid
    assert s.map.terrain.shape == (g.height, g.width)
    assert s.map.rivers and s.map.links["road"] and s.map.links["rail"]
    for e in s.map.rivers:
        assert g.shares_side(e.a, e.b)
    assert len(s.units_at(Cell(1, 1))) == 2
