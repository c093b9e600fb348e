"""The pure half of the editor: which cells a tool touches and the edits it
makes, on square and hex grids, without Qt."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engine.editing import (
    BridgeChange,
    apply_edits,
    brush_cells,
    bucket_cells,
    cells_along,
    edges_along,
    line_cells,
    nearest_edge,
    nearest_link,
    new_scenario,
    next_unit_id,
    plan_add_unit,
    plan_bridge,
    plan_delete_unit,
    plan_links,
    plan_move_unit,
    plan_paint,
    plan_place,
    plan_rivers,
    plan_update_unit,
    rect_cells,
    revert_edits,
)
from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.io import dumps_scenario, loads_scenario
from engine.model import NO_SIDE, ModelError, Place, Unit


def picture(grid_w: int, grid_h: int, cells: list[Cell]) -> str:
    """Cells as an ASCII picture, so a failing test shows the shape."""
    s = set(cells)
    return "\n".join("".join("#" if Cell(c, r) in s else "." for c in range(grid_w)) for r in range(grid_h))


def square(w: int = 10, h: int = 8, neighbours: int = 8):
    return new_scenario("t", {"kind": "square", "width": w, "height": h, "neighbours": neighbours},
                        {"scheme": "numeric"})


def hexmap(w: int = 10, h: int = 8, orientation: str = "flat", parity: str = "odd"):
    return new_scenario("t", {"kind": "hex", "width": w, "height": h, "orientation": orientation, "parity": parity},
                        {"scheme": "ccrr"})


# -- brush -------------------------------------------------------------------

@pytest.mark.parametrize("size, expected", [(1, 1), (2, 4), (3, 9), (5, 25), (9, 81)])
def test_square_brush_is_a_block_of_its_size(size: int, expected: int) -> None:
    cells = brush_cells(SquareGrid(20, 20), Cell(10, 10), size)
    assert len(cells) == expected
    cols = {c.col for c in cells}
    rows = {c.row for c in cells}
    assert len(cols) == len(rows) == size
    assert Cell(10, 10) in cells


def test_square_brush_clips_at_the_edge() -> None:
    assert picture(4, 3, brush_cells(SquareGrid(4, 3), Cell(0, 0), 3)) == "##..\n##..\n...."


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("parity", ["odd", "even"])
@pytest.mark.parametrize("size, count", [(1, 1), (3, 7), (5, 19), (7, 37), (9, 61)])
def test_odd_hex_brush_is_the_hexes_within_its_radius(orientation: str, parity: str, size: int, count: int) -> None:
    grid = HexGrid(30, 30, orientation, parity)
    centre = Cell(15, 14)
    cells = brush_cells(grid, centre, size)
    radius = (size - 1) // 2
    assert len(cells) == count
    assert all(grid.distance(centre, c) <= radius for c in cells)
    assert sorted(cells) == sorted(grid.within(centre, radius))


def test_hex_brush_of_radius_two_is_not_a_square_block() -> None:
    grid = HexGrid(9, 9, "flat", "odd")
    cells = brush_cells(grid, Cell(4, 4), 5)
    # a square block would hold the corners (2, 2) and (6, 6)
    assert Cell(2, 2) not in cells and Cell(6, 6) not in cells
    assert picture(9, 9, cells) == (
        ".........\n"
        ".........\n"
        "...###...\n"
        "..#####..\n"
        "..#####..\n"
        "..#####..\n"
        "....#....\n"
        ".........\n"
        "........."
    )


@pytest.mark.parametrize("size, count", [(2, 2), (4, 10), (6, 24)])
def test_even_hex_brush_is_as_wide_as_its_size(size: int, count: int) -> None:
    grid = HexGrid(30, 30, "pointy", "odd")
    cells = brush_cells(grid, Cell(15, 15), size)
    assert len(cells) == count
    assert max(grid.distance(a, b) for a in cells for b in cells) == size - 1


def test_brush_size_is_checked() -> None:
    with pytest.raises(ModelError, match="1 to 9"):
        brush_cells(SquareGrid(5, 5), Cell(0, 0), 10)


# -- line, rectangle, bucket ---------------------------------------------------

def test_square_line_is_link_adjacent() -> None:
    grid = SquareGrid(10, 10)
    cells = line_cells(grid, Cell(0, 0), Cell(6, 3))
    assert cells[0] == Cell(0, 0) and cells[-1] == Cell(6, 3)
    assert len(cells) == 7
    assert all(grid.can_link(a, b) for a, b in itertools.pairwise(cells))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_hex_line_has_distance_plus_one_adjacent_hexes(orientation: str) -> None:
    grid = HexGrid(12, 12, orientation, "even")
    a, b = Cell(1, 2), Cell(9, 7)
    cells = line_cells(grid, a, b)
    assert cells[0] == a and cells[-1] == b
    assert len(cells) == grid.distance(a, b) + 1
    assert all(grid.are_adjacent(x, y) for x, y in itertools.pairwise(cells))


def test_rect_cells_in_either_corner_order() -> None:
    grid = SquareGrid(6, 5)
    assert rect_cells(grid, Cell(4, 3), Cell(1, 1)) == rect_cells(grid, Cell(1, 1), Cell(4, 3))
    assert picture(6, 5, rect_cells(grid, Cell(4, 3), Cell(1, 1))) == "......\n.####.\n.####.\n.####.\n......"


def test_square_bucket_fill_steps_across_sides_only() -> None:
    s = square(6, 4)
    forest = s.ruleset.terrain_index("forest")
    s.map.terrain[:, :] = forest
    s.map.terrain[1, :] = 0  # a wall of clear splits the map
    s.map.terrain[0, 2] = 0
    cells = bucket_cells(s.map, Cell(0, 0))
    assert picture(6, 4, cells) == "##....\n......\n......\n......"
    # corner-touching only: (3, 0) is not joined to (0, 0)..(1, 0)
    assert Cell(3, 0) not in cells
    assert len(bucket_cells(s.map, Cell(0, 3))) == 12


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("parity", ["odd", "even"])
def test_hex_bucket_fill_matches_a_breadth_first_search(orientation: str, parity: str) -> None:
    s = hexmap(13, 11, orientation, parity)
    rng = np.random.default_rng(7)
    s.map.terrain[:, :] = (rng.random((11, 13)) < 0.45).astype(np.uint8)
    grid = s.map.grid
    for start in (Cell(0, 0), Cell(6, 5), Cell(12, 10), Cell(3, 8)):
        value = s.map.terrain_at(start)
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            for n in grid.neighbours(c):
                if n not in seen and s.map.terrain_at(n) == value:
                    seen.add(n)
                    todo.append(n)
        assert set(bucket_cells(s.map, start)) == seen


def test_bucket_on_control_layer() -> None:
    s = square(4, 4)
    s.map.control[:2, :] = 0
    assert len(bucket_cells(s.map, Cell(3, 3), "control")) == 8


# -- picking along a drag ---------------------------------------------------------

def test_cells_along_a_fast_drag_touch_each_other() -> None:
    grid = HexGrid(20, 20, "flat", "odd")
    layout = grid.make_layout(10)
    p0, p1 = layout.center(Cell(1, 1)), layout.center(Cell(15, 12))
    cells = cells_along(layout, grid, p0, p1)
    assert cells[0] == Cell(1, 1) and cells[-1] == Cell(15, 12)
    assert all(grid.are_adjacent(a, b) for a, b in itertools.pairwise(cells))


def test_nearest_edge_on_squares_and_hexes() -> None:
    grid = SquareGrid(5, 5)
    layout = grid.make_layout(10)
    assert nearest_edge(layout, grid, 19.5, 15) == Edge.between(Cell(1, 1), Cell(2, 1))
    assert nearest_edge(layout, grid, 15, 15) is None  # the centre is near no side
    hgrid = HexGrid(5, 5, "pointy", "odd")
    hl = hgrid.make_layout(10)
    a, b = Cell(2, 2), Cell(3, 2)
    (x0, y0), (x1, y1) = hl.edge_segment(Edge.between(a, b))
    assert nearest_edge(hl, hgrid, (x0 + x1) / 2 - 1, (y0 + y1) / 2) == Edge.between(a, b)


def test_edges_along_a_side_path() -> None:
    grid = SquareGrid(6, 6)
    layout = grid.make_layout(10)
    edges = edges_along(layout, grid, (20, 11), (20, 39))  # down the line x = 20
    assert edges == [Edge.between(Cell(1, r), Cell(2, r)) for r in (1, 2, 3)]


def test_nearest_link() -> None:
    s = square(6, 6)
    layout = s.map.grid.make_layout(10)
    s.map.links["rail"].add(Edge.between(Cell(1, 1), Cell(2, 2)))
    assert nearest_link(s.map, layout, "rail", 20, 20) == Edge.between(Cell(1, 1), Cell(2, 2))
    assert nearest_link(s.map, layout, "rail", 35, 15) is None
    assert nearest_link(s.map, layout, "road", 20, 20) is None


# -- edits ----------------------------------------------------------------------

def roundtrip(s) -> str:
    return dumps_scenario(s)


def test_paint_changes_only_what_differs_and_reverts() -> None:
    s = square()
    before = roundtrip(s)
    forest = s.ruleset.terrain_index("forest")
    assert plan_paint(s, "terrain", [Cell(0, 0)], 0) is None  # already clear
    edit = plan_paint(s, "terrain", brush_cells(s.map.grid, Cell(1, 1), 3), forest)
    assert edit is not None and len(edit) == 9
    touched = apply_edits(s, [edit])
    assert touched.cells["terrain"] == frozenset(brush_cells(s.map.grid, Cell(1, 1), 3))
    assert s.map.terrain_at(Cell(2, 2)) == forest
    again = plan_paint(s, "terrain", brush_cells(s.map.grid, Cell(2, 2), 3), forest)
    assert again is not None and len(again) == 5
    apply_edits(s, [again])
    revert_edits(s, [edit, again])
    assert roundtrip(s) == before


def test_paint_checks_values() -> None:
    s = square()
    with pytest.raises(ModelError, match="no terrain number 99"):
        plan_paint(s, "terrain", [Cell(0, 0)], 99)
    with pytest.raises(ModelError, match="no side number 5"):
        plan_paint(s, "control", [Cell(0, 0)], 5)
    e = plan_paint(s, "control", [Cell(0, 0), Cell(40, 40)], 1)
    assert e is not None and len(e) == 1
    apply_edits(s, [e])
    assert s.controller(Cell(0, 0)).id == "red"
    assert plan_paint(s, "control", [Cell(1, 0)], NO_SIDE) is None


def test_links_between_successive_cells() -> None:
    s = hexmap()
    path = line_cells(s.map.grid, Cell(0, 0), Cell(5, 3))
    e = plan_links(s, "rail", path)
    assert e is not None and len(e.added) == len(path) - 1
    apply_edits(s, [e])
    assert plan_links(s, "rail", path) is None  # nothing new
    with pytest.raises(ModelError, match="not adjacent"):
        plan_links(s, "road", [Cell(0, 0), Cell(3, 0)])
    lift = plan_links(s, "rail", path[:2], present=False)
    assert lift is not None and lift.removed == {Edge.between(path[0], path[1])}
    apply_edits(s, [lift])
    assert not s.map.has_link("rail", path[0], path[1])
    revert_edits(s, [lift])
    assert s.map.has_link("rail", path[0], path[1])


def test_rivers_lie_on_sides_and_take_their_bridges_along() -> None:
    s = square(neighbours=8)
    side = Edge.between(Cell(1, 1), Cell(2, 1))
    with pytest.raises(ModelError, match="share no side"):
        plan_rivers(s, [Edge.between(Cell(1, 1), Cell(2, 2))])
    with pytest.raises(ModelError, match="crosses nothing"):
        plan_bridge(s, side, "road")
    apply_edits(s, plan_rivers(s, [side]))
    assert s.map.river_between(Cell(1, 1), Cell(2, 1))
    assert plan_rivers(s, [side]) == []
    apply_edits(s, [plan_bridge(s, side, "rail")])
    assert s.map.bridge_between(Cell(2, 1), Cell(1, 1)) == "rail"
    assert plan_bridge(s, side, "rail") is None
    removal = plan_rivers(s, [side], present=False)
    assert isinstance(removal[0], BridgeChange)
    apply_edits(s, removal)
    assert not s.map.rivers and not s.map.bridges
    revert_edits(s, removal)
    assert s.map.bridges == {side: "rail"}
    loads_scenario(dumps_scenario(s))  # still a valid file


def test_places() -> None:
    s = square()
    e = plan_place(s, Cell(2, 3), "Mobile", "M")
    apply_edits(s, [e])
    assert s.map.parse_label("Mobile") == Cell(2, 3)
    with pytest.raises(ModelError, match="already names"):
        plan_place(s, Cell(4, 4), "mobile")
    assert plan_place(s, Cell(2, 3), "Mobile", "M") is None
    rename = plan_place(s, Cell(2, 3), "Mobile Bay")
    apply_edits(s, [rename])
    assert s.map.places[Cell(2, 3)] == Place("Mobile Bay", None)
    gone = plan_place(s, Cell(2, 3), "")
    apply_edits(s, [gone])
    assert Cell(2, 3) not in s.map.places
    revert_edits(s, [e, rename, gone])
    assert not s.map.places


def test_units_add_edit_move_delete_and_back() -> None:
    s = square()
    before = roundtrip(s)
    uid = next_unit_id(s)
    add = plan_add_unit(s, Unit(uid, "blue", "infantry", Cell(1, 1), 3))
    apply_edits(s, [add])
    with pytest.raises(ModelError, match="already used"):
        plan_add_unit(s, Unit(uid, "blue", "infantry", Cell(1, 1)))
    with pytest.raises(ModelError, match="unknown side"):
        plan_add_unit(s, Unit("x", "green", "infantry", Cell(1, 1)))
    with pytest.raises(ModelError, match="unknown unit type"):
        plan_add_unit(s, Unit("x", "blue", "tank", Cell(1, 1)))
    with pytest.raises(ModelError, match="off the map"):
        plan_add_unit(s, Unit("x", "blue", "infantry", Cell(99, 1)))
    assert plan_update_unit(s, uid, strength=3) is None
    edit = plan_update_unit(s, uid, strength=5, name="1st Brigade")
    t = apply_edits(s, [edit])
    assert t.units == {uid}
    move = plan_move_unit(s, uid, Cell(4, 4), {"fortified": False})
    t = apply_edits(s, [move])
    assert t.cells["units"] == {Cell(1, 1), Cell(4, 4)}
    assert s.unit(uid).at == Cell(4, 4) and s.unit(uid).props == {"fortified": False}
    add2 = plan_add_unit(s, Unit("u2", "red", "cavalry", Cell(0, 0)))
    apply_edits(s, [add2])
    delete = plan_delete_unit(s, uid)
    apply_edits(s, [delete])
    assert [u.id for u in s.units] == ["u2"]
    revert_edits(s, [delete])
    assert [u.id for u in s.units] == [uid, "u2"]  # back in its old place
    revert_edits(s, [add, edit, move, add2])
    assert roundtrip(s) == before


def test_unit_records_are_private_copies() -> None:
    s = square()
    unit = Unit("a", "blue", "infantry", Cell(0, 0), props={"x": 1})
    add = plan_add_unit(s, unit)
    apply_edits(s, [add])
    unit.props["x"] = 2
    s.unit("a").props["x"] = 3
    assert add.after is not None and add.after.props == {"x": 1}


@pytest.mark.parametrize("grid", [
    {"kind": "square", "width": 12, "height": 9, "neighbours": 4},
    {"kind": "hex", "width": 7, "height": 5, "orientation": "pointy", "parity": "even"},
])
def test_new_scenario_round_trips(grid: dict) -> None:
    s = new_scenario("Blank", grid, {"scheme": "cwol"})
    again = loads_scenario(dumps_scenario(s))
    assert again.map.grid.to_dict() == s.map.grid.to_dict()
    assert again.map.label(Cell(0, 0)) == "A0-A0"


def test_new_scenario_errors_are_readable() -> None:
    with pytest.raises(ValueError, match="hex orientation"):
        new_scenario("x", {"kind": "hex", "width": 5, "height": 5, "orientation": "sideways", "parity": "odd"},
                     {"scheme": "numeric"})
    with pytest.raises(ValueError, match="cannot label"):
        new_scenario("x", {"kind": "square", "width": 150, "height": 5}, {"scheme": "ccrr", "digits": 2})
    with pytest.raises(ValueError, match="needs a name"):
        new_scenario(" ", {"kind": "square", "width": 5, "height": 5}, {"scheme": "numeric"})


def test_mask_fills_match_the_cell_lists_and_report_bulk_changes() -> None:
    from engine.editing import BULK_CELLS, bucket_mask, plan_paint_mask, rect_mask

    s = hexmap(13, 11, "pointy", "odd")
    s.map.terrain[3, :] = 2
    a, b = Cell(2, 1), Cell(9, 7)
    mask = rect_mask(s.map.grid, a, b)
    assert set(zip(*np.nonzero(mask))) == {(c.row, c.col) for c in rect_cells(s.map.grid, a, b)}
    mask = bucket_mask(s.map, Cell(0, 0))
    assert set(zip(*np.nonzero(mask))) == {(c.row, c.col) for c in bucket_cells(s.map, Cell(0, 0))}
    edit = plan_paint_mask(s, "terrain", mask, 1)
    assert edit is not None and len(edit) == int(mask.sum())
    assert apply_edits(s, [edit]).cells["terrain"] == edit.cells()
    assert plan_paint_mask(s, "terrain", mask, 1) is None
    big = new_scenario("big", {"kind": "square", "width": 200, "height": 200}, {"scheme": "numeric"})
    fill = plan_paint_mask(big, "terrain", bucket_mask(big.map, Cell(0, 0)), 3)
    assert len(fill) == 40_000 > BULK_CELLS
    touched = apply_edits(big, [fill])
    assert touched.whole == {"terrain"} and "terrain" not in touched.cells
    assert (big.map.terrain == 3).all()
    revert_edits(big, [fill])
    assert (big.map.terrain == 0).all()


def test_the_package_re_exports_every_public_name_of_its_modules() -> None:
    """``from engine.editing import X`` works for whatever the submodules
    define publicly, so callers never need to know which module holds X."""
    import ast
    import importlib
    from pathlib import Path

    import engine.editing as package

    for name in ("shapes", "edits", "plans", "scenarios"):
        module = importlib.import_module(f"engine.editing.{name}")
        tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
        own = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        own += [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]
        own = [k for k in own if not k.startswith("_")]
        assert own, name
        for k in own:
            assert k in package.__all__ and getattr(package, k) is getattr(module, k), f"{name}.{k}"


def test_editing_never_asks_the_grid_its_class() -> None:
    """Kind-specific math is the grid's (engine/grids): the editing package
    calls grid methods instead of branching on HexGrid/SquareGrid."""
    from pathlib import Path

    import engine.editing

    for path in Path(engine.editing.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "HexGrid" not in text and "SquareGrid" not in text and "Orientation" not in text, path.name
