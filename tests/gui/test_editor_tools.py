"""The editor window driven with real (simulated) mouse events on the canvas,
on square and hex maps: every tool changes the model, is one undo step, and
undoes and redoes exactly."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtTest import QTest

from app.gui.main_window import MainWindow
from engine.editing import brush_cells, cells_along, line_cells, new_scenario, rect_cells
from engine.grids import Cell, Edge
from engine.model import NO_SIDE, Place, Scenario, Unit

pytestmark = pytest.mark.gui

GRIDS = {
    "square": {"kind": "square", "width": 14, "height": 10, "neighbours": 8},
    "hex": {"kind": "hex", "width": 14, "height": 10, "orientation": "flat", "parity": "odd"},
    "pointy": {"kind": "hex", "width": 14, "height": 10, "orientation": "pointy", "parity": "even"},
}


def blank(kind: str) -> Scenario:
    return new_scenario("Test", GRIDS[kind], {"scheme": "ccrr"})


def open_window(qtbot, tmp_path: Path, scenario: Scenario, path: str | None = None, previews=None) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(scenario, path, settings, tmp_path / "state", previews=list(previews or []))
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1100, 760)
    w.show()
    qtbot.waitExposed(w)
    w.canvas.fit()
    return w


@pytest.fixture(params=["square", "hex", "pointy"])
def win(request, qtbot, tmp_path) -> MainWindow:
    return open_window(qtbot, tmp_path, blank(request.param))


# -- mouse ------------------------------------------------------------------

def point(w: MainWindow, cell: Cell, dx: float = 0.0, dy: float = 0.0) -> QPoint:
    x, y = w.canvas.layout().center(cell)
    return w.canvas.map_to_view(x + dx, y + dy).toPoint()


def edge_point(w: MainWindow, edge: Edge, t: float = 0.5) -> QPoint:
    (ax, ay), (bx, by) = w.canvas.layout().edge_segment(edge)
    return w.canvas.map_to_view(ax + (bx - ax) * t, ay + (by - ay) * t).toPoint()


BUTTONS = {"left": Qt.MouseButton.LeftButton, "right": Qt.MouseButton.RightButton}


def drag_points(w: MainWindow, points: list[QPoint], button: str = "left",
                mods=Qt.KeyboardModifier.NoModifier) -> None:
    vp = w.canvas.viewport()
    QTest.mouseMove(vp, points[0])
    QTest.mousePress(vp, BUTTONS[button], mods, points[0])
    for p in points[1:]:
        QTest.mouseMove(vp, p)
    QTest.mouseRelease(vp, BUTTONS[button], mods, points[-1])


def drag(w: MainWindow, cells: list[Cell], button: str = "left", mods=Qt.KeyboardModifier.NoModifier) -> None:
    drag_points(w, [point(w, c) for c in cells], button, mods)


def click(w: MainWindow, cell: Cell, button: str = "left", mods=Qt.KeyboardModifier.NoModifier) -> None:
    drag(w, [cell], button, mods)


def check_one_undo_step(w: MainWindow, before: str, act) -> str:
    """Run ``act``; it must push exactly one undo step that undoes to
    ``before`` and redoes to the same text."""
    doc = w.document
    n = doc.undo_stack.count()
    act()
    assert doc.undo_stack.count() == n + 1, [doc.undo_stack.text(i) for i in range(doc.undo_stack.count())]
    after = doc.text()
    assert after != before
    doc.undo_stack.undo()
    assert doc.text() == before
    doc.undo_stack.redo()
    assert doc.text() == after
    return after


def terrain(w: MainWindow, tid: str) -> int:
    return w.document.scenario.ruleset.terrain_index(tid)


# -- painting ---------------------------------------------------------------

def test_brush_stroke_paints_what_the_mouse_passed_over_as_one_step(win: MainWindow) -> None:
    w = win
    w.set_tool("brush")
    w.state.set_terrain(terrain(w, "forest"))
    w.state.set_brush_size(1)
    path = [Cell(1, 1), Cell(6, 2), Cell(9, 7)]
    before = w.document.text()
    check_one_undo_step(w, before, lambda: drag(w, path))
    m = w.document.scenario.map
    layout, grid = w.canvas.layout(), m.grid
    expected = set()
    for a, b in itertools.pairwise(path):
        expected.update(cells_along(layout, grid, layout.center(a), layout.center(b)))
    painted = {c for c in grid.cells() if m.terrain_at(c) == terrain(w, "forest")}
    assert expected <= painted
    assert len(painted) <= len(expected) + 2  # rounding of mouse pixels may add a neighbour
    assert w.document.undo_stack.text(0) == "Paint terrain"


def test_hex_brush_of_radius_two_paints_a_hex_not_a_block(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("hex"))
    w.set_tool("brush")
    w.state.set_terrain(terrain(w, "hills"))
    w.state.set_brush_size(5)
    click(w, Cell(6, 5))
    m = w.document.scenario.map
    painted = {c for c in m.grid.cells() if m.terrain_at(c) == terrain(w, "hills")}
    assert painted == set(m.grid.within(Cell(6, 5), 2))
    assert len(painted) == 19


def test_shift_click_paints_a_straight_line(win: MainWindow) -> None:
    w = win
    w.set_tool("brush")
    w.state.set_terrain(terrain(w, "rough"))
    click(w, Cell(1, 1))
    before = w.document.text()
    check_one_undo_step(w, before, lambda: click(w, Cell(10, 6), mods=Qt.KeyboardModifier.ShiftModifier))
    m = w.document.scenario.map
    for c in line_cells(m.grid, Cell(1, 1), Cell(10, 6)):
        assert m.terrain_at(c) == terrain(w, "rough")


def test_bucket_rect_eraser_eyedropper(win: MainWindow) -> None:
    w = win
    m = w.document.scenario.map
    w.set_tool("rect")
    w.state.set_terrain(terrain(w, "water"))
    before = w.document.text()
    before = check_one_undo_step(w, before, lambda: drag(w, [Cell(2, 2), Cell(5, 3), Cell(8, 6)]))
    block = set(rect_cells(m.grid, Cell(2, 2), Cell(8, 6)))
    assert {c for c in m.grid.cells() if m.terrain_at(c) == terrain(w, "water")} == block

    w.set_tool("bucket")
    w.state.set_terrain(terrain(w, "forest"))
    before = check_one_undo_step(w, before, lambda: click(w, Cell(0, 0)))
    assert all(m.terrain_at(c) == (terrain(w, "water") if c in block else terrain(w, "forest"))
               for c in m.grid.cells())
    click(w, Cell(0, 0))  # same terrain again: nothing to change, nothing pushed
    assert w.document.undo_stack.count() == 2

    w.set_tool("eraser")
    w.state.set_brush_size(3)
    before = check_one_undo_step(w, before, lambda: click(w, Cell(5, 4)))
    assert all(m.terrain_at(c) == 0 for c in brush_cells(m.grid, Cell(5, 4), 3))

    w.set_tool("eyedropper")
    click(w, Cell(0, 0))
    assert w.state.terrain == terrain(w, "forest")
    assert w.tool.id == "eraser"  # back to the previous tool
    assert w.document.text() == before


def test_control_tool_paints_and_clears(win: MainWindow) -> None:
    w = win
    s = w.document.scenario
    w.set_tool("control")
    w.state.set_side(1)
    w.state.set_brush_size(2)
    before = w.document.text()
    before = check_one_undo_step(w, before, lambda: drag(w, [Cell(3, 3), Cell(6, 3)]))
    assert s.controller(Cell(4, 3)).id == "red"
    check_one_undo_step(w, before, lambda: drag(w, [Cell(4, 3)], button="right"))
    assert s.map.control_at(Cell(4, 3)) == NO_SIDE


# -- links, rivers, bridges ------------------------------------------------------

@pytest.mark.parametrize("tool", ["rail", "road"])
def test_link_tool_lays_and_removes(win: MainWindow, tool: str) -> None:
    w = win
    m = w.document.scenario.map
    w.set_tool(tool)
    path = line_cells(m.grid, Cell(1, 2), Cell(9, 6))
    before = w.document.text()
    laid = check_one_undo_step(w, before, lambda: drag(w, path))
    for a, b in itertools.pairwise(path):
        assert m.has_link(tool, a, b), (a, b)
    assert all(m.grid.can_link(e.a, e.b) for e in m.links[tool])
    # a click on the middle of one link removes just that link
    a, b = path[3], path[4]
    (ax, ay), (bx, by) = w.canvas.layout().center(a), w.canvas.layout().center(b)
    mid = w.canvas.map_to_view((ax + bx) / 2, (ay + by) / 2).toPoint()
    check_one_undo_step(w, laid, lambda: drag_points(w, [mid]))
    assert not m.has_link(tool, a, b)
    assert m.has_link(tool, path[2], path[3])
    # right-drag lifts links along the path
    drag(w, path[:3], button="right")
    assert not m.has_link(tool, path[0], path[1])
    # shift-click: a straight line on from the last cell laid
    before = w.document.text()
    end = Cell(2, 9)
    check_one_undo_step(w, before, lambda: click(w, end, mods=Qt.KeyboardModifier.ShiftModifier))
    line = line_cells(m.grid, path[-1], end)
    assert all(m.has_link(tool, a, b) for a, b in itertools.pairwise(line))


def test_river_tool_draws_on_sides(win: MainWindow) -> None:
    w = win
    m = w.document.scenario.map
    grid = m.grid
    w.set_tool("river")
    # walk along the sides between column 4 and its east neighbours
    sides = [Edge.between(Cell(4, r), n) for r in (3, 4, 5) for n in grid.neighbours(Cell(4, r))
             if grid.shares_side(Cell(4, r), n) and n.col == 5]
    pts = [edge_point(w, e, t) for e in sides for t in (0.3, 0.7)]
    before = w.document.text()
    drawn = check_one_undo_step(w, before, lambda: drag_points(w, pts))
    assert set(sides) <= m.rivers
    assert all(grid.shares_side(e.a, e.b) for e in m.rivers)
    # click one river side: removed
    target = sides[1]
    check_one_undo_step(w, drawn, lambda: drag_points(w, [edge_point(w, target)]))
    assert target not in m.rivers and sides[0] in m.rivers


def test_bridge_tool(win: MainWindow) -> None:
    w = win
    m = w.document.scenario.map
    grid = m.grid
    a = Cell(6, 4)
    side = next(e for e in grid.edges_of(a) if e.other(a).col == 7)
    w.set_tool("river")
    drag_points(w, [edge_point(w, side)])
    assert side in m.rivers
    w.set_tool("bridge")
    w.state.set_bridge_kind("rail")
    before = w.document.text()
    bridged = check_one_undo_step(w, before, lambda: drag_points(w, [edge_point(w, side, 0.4)]))
    assert m.bridges == {side: "rail"}
    check_one_undo_step(w, bridged, lambda: drag_points(w, [edge_point(w, side, 0.6)], button="right"))
    assert not m.bridges
    # no river: nothing pushed, a message instead
    n = w.document.undo_stack.count()
    other = next(e for e in grid.edges_of(Cell(2, 2)))
    drag_points(w, [edge_point(w, other)])
    assert w.document.undo_stack.count() == n
    assert "river" in w.statusBar().currentMessage()


# -- places and units --------------------------------------------------------------

def test_place_tool(win: MainWindow) -> None:
    w = win
    m = w.document.scenario.map
    answers = iter([("Gettysburg", "G"), ("", "")])
    w.state.ask_place = lambda cell, place: next(answers)  # type: ignore[method-assign]
    w.set_tool("place")
    before = w.document.text()
    named = check_one_undo_step(w, before, lambda: click(w, Cell(3, 4)))
    assert m.places[Cell(3, 4)] == Place("Gettysburg", "G")
    assert m.parse_label("Gettysburg") == Cell(3, 4)
    check_one_undo_step(w, named, lambda: click(w, Cell(3, 4)))
    assert Cell(3, 4) not in m.places


def test_unit_tool_adds_moves_edits_deletes(win: MainWindow) -> None:
    w = win
    s = w.document.scenario

    def answer(unit: Unit, new: bool) -> Unit:
        if new:
            return Unit(unit.id, "red", "cavalry", unit.at, 6, "Stuart")
        return Unit(unit.id, unit.side, unit.type, unit.at, 9, unit.name)

    w.state.ask_unit = answer  # type: ignore[method-assign]
    w.set_tool("unit")
    before = w.document.text()
    added = check_one_undo_step(w, before, lambda: click(w, Cell(2, 3)))
    u = s.unit("u1")
    assert (u.side, u.type, u.strength, u.at, u.name) == ("red", "cavalry", 6, Cell(2, 3), "Stuart")
    assert w.state.selected_unit == "u1"
    assert w.units.tree.topLevelItemCount() == 1
    moved = check_one_undo_step(w, added, lambda: drag(w, [Cell(2, 3), Cell(4, 4), Cell(7, 5)]))
    assert s.unit("u1").at == Cell(7, 5)
    assert "u1" in w.cell_status(Cell(7, 5))
    edited = check_one_undo_step(w, moved, lambda: click(w, Cell(7, 5), button="right"))
    assert s.unit("u1").strength == 9
    assert "9" in w.inspector.text()
    check_one_undo_step(w, edited, lambda: w.act_delete_unit.trigger())
    assert not s.units and w.units.tree.topLevelItemCount() == 0


def test_a_click_that_changes_nothing_pushes_nothing(win: MainWindow) -> None:
    w = win
    w.set_tool("brush")
    w.state.set_terrain(0)
    click(w, Cell(3, 3))
    w.set_tool("rail")
    click(w, Cell(3, 3))  # a click with no rail nearby
    assert w.document.undo_stack.count() == 0
    assert not w.document.is_modified()


def test_status_bar_names_the_cell_under_the_cursor(qtbot, tmp_path) -> None:
    s = blank("hex")
    s.map.terrain[4, 5] = s.ruleset.terrain_index("forest")
    s.set_control(Cell(5, 4), "blue")
    s.units.append(Unit("a1", "blue", "infantry", Cell(5, 4), 3))
    w = open_window(qtbot, tmp_path, s)
    QTest.mouseMove(w.canvas.viewport(), point(w, Cell(5, 4)) + QPoint(3, 2))
    QTest.mouseMove(w.canvas.viewport(), point(w, Cell(5, 4)))
    text = w.cell_label.text()
    assert s.map.label(Cell(5, 4)) in text and "Forest" in text and "Blue" in text and "a1" in text


def test_inspector_and_units_dock(qtbot, tmp_path) -> None:
    s = blank("hex")
    s.map.places[Cell(4, 4)] = Place("Richmond", "R")
    s.map.links["rail"].add(Edge.between(Cell(4, 4), s.map.grid.neighbours(Cell(4, 4))[0]))
    w = open_window(qtbot, tmp_path, s)
    w.set_tool("eyedropper")
    click(w, Cell(4, 4))
    text = w.inspector.text()
    assert s.map.label(Cell(4, 4)) in text and "Richmond" in text and "Rail to" in text and "Clear" in text
    w.state.ask_unit = lambda unit, new: Unit("art1", "blue", "artillery", unit.at, 2)  # type: ignore[method-assign]
    w.units.add_button.click()  # adds at the selected cell
    assert s.unit("art1").at == Cell(4, 4)
    assert w.units.tree.topLevelItem(0).text(4) == s.map.label(Cell(4, 4))
    assert "art1" in w.inspector.text() and "Factors" in w.inspector.text()
    w.units.delete_button.click()
    assert not s.units and w.state.selected_unit is None
    w.document.undo_stack.undo()
    assert s.unit("art1").at == Cell(4, 4) and w.units.tree.topLevelItemCount() == 1
