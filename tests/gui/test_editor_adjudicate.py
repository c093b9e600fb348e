"""Adjudicate mode wired to a rules preview: a small preview defined here
(straight march, refused into forest or through enemy control) stands in for
the rules systems' own."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel
from test_editor_tools import blank, click, open_window, point

from app.gui.overlay import CellMark, Marker, Overlay, PathLine
from app.gui.preview import MoveOrder, Preview
from engine.editing import line_cells, plan_paint
from engine.grids import Cell
from engine.model import Scenario, Unit

pytestmark = pytest.mark.gui


class MarchPreview(Preview):
    name = "Test march"

    def __init__(self) -> None:
        self.calls: list[tuple[str, Cell, Cell | None]] = []
        self.widget: QLabel | None = None

    def applies_to(self, scenario: Scenario) -> bool:
        return scenario.ruleset.name == "basic"

    def selectable(self, scenario: Scenario, unit: Unit) -> bool:
        return unit.side == "blue"

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        if unit is None:
            return Overlay()
        return Overlay((CellMark(unit.at, outline="#00ff00"),), message=f"{unit.id} selected")

    def _path(self, s: Scenario, unit: Unit, target: Cell, waypoint: Cell | None) -> list[Cell]:
        if waypoint is None:
            return line_cells(s.map.grid, unit.at, target)
        return line_cells(s.map.grid, unit.at, waypoint) + line_cells(s.map.grid, waypoint, target)[1:]

    def _blocked(self, s: Scenario, unit: Unit, path: list[Cell]) -> Cell | None:
        forest = s.ruleset.terrain_index("forest")
        for c in path[1:]:
            ctrl = s.controller(c)
            if s.map.terrain_at(c) == forest or (ctrl is not None and ctrl.id != unit.side):
                return c
        return None

    def hover(self, s: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        self.calls.append((unit.id, target, waypoint))
        path = self._path(s, unit, target, waypoint)
        block = self._blocked(s, unit, path)
        if block is not None:
            return Overlay((Marker(block, "cross", "#ff0000", tooltip="blocked"),),
                           message=f"{unit.id} cannot march: {s.map.label(block)} is in the way", ok=False)
        return Overlay((PathLine(tuple(path), "#ffffff"),),
                       message=f"{unit.id} marches to {s.map.label(target)} ({len(path) - 1} steps)", ok=True)

    def apply(self, s: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        path = self._path(s, unit, target, waypoint)
        if self._blocked(s, unit, path) is not None:
            return None
        return MoveOrder(unit.id, target, f"{unit.id} marches to {s.map.label(target)}", {"marched": len(path) - 1})

    def dock(self) -> QLabel:
        if self.widget is None:
            self.widget = QLabel("march analysis")
        return self.widget


class OtherRulesPreview(Preview):
    name = "Not for this map"

    def applies_to(self, scenario: Scenario) -> bool:
        return False

    def hover(self, s: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        raise AssertionError("never asked")


@pytest.fixture(params=["square", "hex"])
def setup(request, qtbot, tmp_path):
    s = blank(request.param)
    s.units += [Unit("b1", "blue", "infantry", Cell(2, 2), 3), Unit("r1", "red", "infantry", Cell(11, 2), 3)]
    preview = MarchPreview()
    w = open_window(qtbot, tmp_path, s, previews=[OtherRulesPreview(), preview])
    w.set_tool("adjudicate")
    return w, preview


def shown(w) -> Overlay:
    """The preview overlay, checked to be on the canvas."""
    ov = w.adjudicate.overlay
    assert ov is not None and any(o is ov for o in w.canvas.overlays())
    return ov


def hover(w, cell: Cell) -> None:
    from PySide6.QtTest import QTest

    # two moves: Qt sends no event for a move to where the cursor already is
    # (an earlier test's window may have left it there)
    p = point(w, cell)
    QTest.mouseMove(w.canvas.viewport(), p + QPoint(3, 2))
    QTest.mouseMove(w.canvas.viewport(), p)


def test_chooser_lists_only_previews_that_apply_and_shows_their_dock(setup) -> None:
    w, preview = setup
    names = [w.tool_palette.preview.itemText(i) for i in range(w.tool_palette.preview.count())]
    assert names == ["Test march"]
    assert w.adjudicate.preview is preview
    assert w.dock_preview is not None and w.dock_preview.widget() is preview.widget


def test_select_hover_waypoint_and_apply_one_undoable_move(setup) -> None:
    w, preview = setup
    s = w.document.scenario
    click(w, Cell(11, 2))  # a red unit: not selectable by this preview
    assert w.state.selected_unit is None
    click(w, Cell(2, 2))
    assert w.state.selected_unit == "b1" and w.canvas.selected_unit() == "b1"
    assert shown(w).message == "b1 selected"

    hover(w, Cell(6, 5))
    assert preview.calls[-1] == ("b1", Cell(6, 5), None)
    ov = shown(w)
    assert ov.ok is True and any(isinstance(i, PathLine) for i in ov.items)
    assert "marches to" in w.statusBar().currentMessage()
    assert "marches to" in (w.canvas.tooltip_text(Cell(6, 5)) or "")

    click(w, Cell(4, 6), mods=Qt.KeyboardModifier.ShiftModifier)  # waypoint
    assert w.adjudicate.waypoint == Cell(4, 6)
    hover(w, Cell(7, 7))
    assert preview.calls[-1] == ("b1", Cell(7, 7), Cell(4, 6))
    assert any(isinstance(i, Marker) and i.cell == Cell(4, 6) for i in shown(w).items)

    before = w.document.text()
    click(w, Cell(7, 7))
    assert s.unit("b1").at == Cell(7, 7)
    assert s.unit("b1").props["marched"] > 0
    assert w.document.undo_stack.count() == 1
    assert w.document.undo_stack.text(0).startswith("b1 marches to")
    assert w.adjudicate.waypoint is None
    w.document.undo_stack.undo()
    assert w.document.text() == before and s.unit("b1").at == Cell(2, 2)


def test_a_refused_move_changes_nothing_and_says_why(setup) -> None:
    w, _preview = setup
    s = w.document.scenario
    forest = s.ruleset.terrain_index("forest")
    s.map.terrain[2, 5] = forest  # not through the document: set up before the test acts
    w.canvas.invalidate_all()
    click(w, Cell(2, 2))
    hover(w, Cell(8, 2))
    assert shown(w).ok is False
    click(w, Cell(8, 2))
    assert s.unit("b1").at == Cell(2, 2)
    assert w.document.undo_stack.count() == 0
    assert "cannot march" in w.statusBar().currentMessage()


def test_editing_the_map_while_previewing_reruns_the_preview(setup) -> None:
    w, preview = setup
    s = w.document.scenario
    click(w, Cell(2, 2))
    hover(w, Cell(8, 2))
    assert shown(w).ok is True
    n = len(preview.calls)
    # paint enemy control across the path (as the control tool would, through the document)
    w.document.push("Paint control", plan_paint(s, "control", [Cell(5, 2)], s.side_index("red")))
    assert len(preview.calls) == n + 1
    assert shown(w).ok is False
    w.document.undo_stack.undo()
    assert shown(w).ok is True


def test_right_click_deselects_and_leaving_the_mode_clears_the_overlay(setup) -> None:
    w, _preview = setup
    click(w, Cell(2, 2))
    hover(w, Cell(5, 5))
    assert shown(w) is not None
    click(w, Cell(5, 5), button="right")
    assert w.state.selected_unit is None and w.adjudicate.overlay is None and not w.canvas.overlays()
    click(w, Cell(2, 2))
    w.set_tool("brush")
    assert w.adjudicate.overlay is None and not w.canvas.overlays()


class BrokenPreview(MarchPreview):
    name = "Broken"

    def hover(self, s: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        raise RuntimeError("bug in a rules module")


def test_a_failing_preview_is_reported_not_raised(qtbot, tmp_path) -> None:
    s = blank("hex")
    s.units.append(Unit("b1", "blue", "infantry", Cell(2, 2)))
    w = open_window(qtbot, tmp_path, s, previews=[BrokenPreview()])
    w.set_tool("adjudicate")
    click(w, Cell(2, 2))
    hover(w, Cell(6, 6))
    assert "The Broken preview failed (RuntimeError: bug in a rules module)" in w.statusBar().currentMessage()
    assert shown(w).ok is False
