"""The CWOL rail preview: as a pure object (no Qt) on the sample map, then
once in the editor window (pytest-qt, offscreen), with a screenshot."""

from __future__ import annotations

import os
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from app.gui.overlay import CellMark, Marker, PathLine
from app.gui.systems import previews_for
from app.gui.systems.cwol_rail.previews import BEYOND, REFUSED, THIS_TURN, TIE, CwolRailPreview
from engine.grids import Cell, Edge, SquareGrid
from engine.io import load_scenario
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit
from engine.rules.cwol_rail import rail_move, with_control

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLE = ROOT / "maps" / "cwol_mobile_columbus.json"


@pytest.fixture
def s() -> Scenario:
    return load_scenario(SAMPLE)


def at(s: Scenario, label: str) -> Cell:
    return s.map.parse_label(label)


def lines(ov: Any) -> list[PathLine]:
    return [i for i in ov.items if isinstance(i, PathLine)]


def markers(ov: Any) -> list[Marker]:
    return [i for i in ov.items if isinstance(i, Marker)]


def test_discovered_and_applies_to_the_cwol_sample(s: Scenario) -> None:
    assert any(isinstance(p, CwolRailPreview) for p in previews_for())
    p = CwolRailPreview()
    assert p.applies_to(s)
    assert p.selectable(s, s.unit("CS1IN"))  # Mobile is on the rail
    off = Unit("X", "Confederate", "infantry", at(s, "E0-Y0"))
    assert not p.selectable(s, off)
    assert p.select(s, off).ok is False


def test_arrives_in_30_one_solid_line_and_a_star_at_columbus(s: Scenario) -> None:
    p = CwolRailPreview()
    unit = s.unit("CS1IN")
    ov = p.hover(s, unit, at(s, "E4-X4"))
    assert ov.ok is True and ov.details["status"] == "arrived" and ov.details["path_length"] == 30
    (line,) = lines(ov)
    assert line.color == THIS_TURN["arrived"] and not line.dashed
    assert line.cells[0] == unit.at and line.cells[-1] == at(s, "E4-X4") and len(line.cells) == 31
    stop = [m for m in markers(ov) if m.shape == "star"]
    assert [m.cell for m in stop] == [at(s, "E4-X4")]
    assert "30 squares" in ov.message
    assert ov.tooltip_at(at(s, "E4-X4")) is not None and "30 squares" in (ov.tooltip_at(at(s, "E4-X4")) or "")
    order = p.apply(s, unit, at(s, "E4-X4"))
    assert order is not None and order.to == at(s, "E4-X4") and order.description == "CS1IN rails 30 squares to E4-X4"


def test_stops_short_at_d8w0_and_draws_the_rest_dashed(s: Scenario) -> None:
    s = with_control(s, {at(s, "E3-X1"): "Union"})
    p = CwolRailPreview()
    unit = s.unit("CS1IN")
    ov = p.hover(s, unit, at(s, "Columbus MS"))
    assert ov.ok is True and ov.details["stop"] == "D8-W0" and ov.details["ties"] == []
    this_turn, beyond = lines(ov)
    assert this_turn.color == THIS_TURN["stopped_short"] and len(this_turn.cells) == 41
    assert this_turn.cells[-1] == at(s, "D8-W0")
    assert beyond.dashed and beyond.color == BEYOND and beyond.cells[0] == at(s, "D8-W0") and len(beyond.cells) == 29
    (stop,) = [m for m in markers(ov) if m.shape == "diamond" and m.color != TIE]
    assert stop.cell == at(s, "D8-W0") and stop.text == "40"
    numbered = {i.text for i in ov.items if isinstance(i, CellMark) and i.text}
    assert numbered == {"10", "20", "30", "50", "60"}
    assert "68 squares" in ov.message and "D8-W0" in ov.message
    order = p.apply(s, unit, at(s, "Columbus MS"))
    assert order is not None and order.to == at(s, "D8-W0")


def test_no_valid_path_crosses_the_target_and_refuses_the_click(s: Scenario) -> None:
    s = with_control(s, {at(s, "E3-X1"): "Union", at(s, "Corinth MS"): "Union"})
    p = CwolRailPreview()
    unit = s.unit("CS1IN")
    ov = p.hover(s, unit, at(s, "E4-X4"))
    assert ov.ok is False and not lines(ov) and "112 squares" in ov.message
    assert any(m.shape == "cross" and m.cell == at(s, "E4-X4") for m in markers(ov))
    assert p.apply(s, unit, at(s, "E4-X4")) is None


def test_the_headline_names_why_there_is_no_path(s: Scenario) -> None:
    """Off the rail net, the short form says so (not "no valid rail path
    ... within 80 squares"), word for word the command line's first line."""
    ov = CwolRailPreview().hover(s, s.unit("CS1IN"), at(s, "E5-Y1"))
    assert ov.ok is False
    assert ov.short() == "CS1IN: E5-Y1 is not on a rail line; stays at E6-Y4"
    assert ov.short() == rail_move(s, "CS1IN", at(s, "E5-Y1")).headline


def test_a_broken_line_outlines_the_refused_square(s: Scenario) -> None:
    s = with_control(s, {at(s, "E3-X1"): "Union", at(s, "E2-X2"): "Union"})  # north and west of Meridian
    ov = CwolRailPreview().hover(s, s.unit("CS1IN"), at(s, "E4-X4"))
    assert ov.ok is False
    refused = {i.cell for i in ov.items if isinstance(i, CellMark) and i.outline == REFUSED}
    assert refused == {at(s, "E3-X1"), at(s, "E2-X2")}
    assert "held by Union" in (ov.tooltip_at(at(s, "E3-X1")) or "")


def test_a_tie_is_marked() -> None:
    grid = SquareGrid(51, 3, 8)
    gm = GridMap(grid, NumericNumbering(first=0))
    gm.control[:] = 0
    north = [Cell(0, 1)] + [Cell(c, 0) for c in range(1, 50)] + [Cell(50, 1)]
    south = [Cell(0, 1)] + [Cell(c, 2) for c in range(1, 50)] + [Cell(50, 1)]
    gm.links["rail"] = {Edge.between(a, b) for ch in (north, south) for a, b in pairwise(ch)}
    s = Scenario("tie", Ruleset("t", [TerrainType("c", "c", "c", "#cccccc")], options={"cwol_rail": {}}),
                 [Faction("CS", "Confederate", "#888888", "C")], gm, [Unit("CS1IN", "CS", "infantry", Cell(0, 1))])
    ov = CwolRailPreview().hover(s, s.unit("CS1IN"), Cell(50, 1))
    ties = [m for m in markers(ov) if m.color == TIE]
    assert [m.cell for m in ties] == [Cell(40, 2)]
    assert "40-2" in ov.message and ov.details["ties"] == ["40-2"]


def test_cutting_a_link_and_repainting_control_change_the_next_hover(s: Scenario) -> None:
    p = CwolRailPreview()
    unit = s.unit("CS1IN")
    assert p.hover(s, unit, at(s, "E4-X4")).details["path_length"] == 30
    s.map.control[at(s, "E3-X1").row, at(s, "E3-X1").col] = s.side_index("Union")
    assert p.hover(s, unit, at(s, "E4-X4")).details["path_length"] == 68
    s.map.links["rail"].discard(Edge.between(at(s, "D8-W1"), at(s, "D8-W0")))
    assert p.hover(s, unit, at(s, "E4-X4")).details["status"] == "no_valid_path"


@pytest.mark.gui
def test_in_the_editor_window(qtbot: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest

    from app.gui.main_window import MainWindow
    from engine.editing import plan_links, plan_paint

    s = load_scenario(SAMPLE)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(s, None, settings, tmp_path / "state", previews=[CwolRailPreview()])
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1000, 1100)
    w.show()
    qtbot.waitExposed(w)
    w.canvas.fit()
    w.set_tool("adjudicate")
    assert isinstance(w.adjudicate.preview, CwolRailPreview)

    def point(cell: Cell) -> Any:
        layout = w.canvas.layout()
        assert layout is not None
        x, y = layout.center(cell)
        return w.canvas.map_to_view(x, y).toPoint()

    def click(cell: Cell) -> None:
        vp = w.canvas.viewport()
        QTest.mouseMove(vp, point(cell))
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))

    mobile, columbus, d8w0 = at(s, "E6-Y4"), at(s, "E4-X4"), at(s, "D8-W0")
    click(mobile)
    assert w.state.selected_unit == "CS1IN"
    QTest.mouseMove(w.canvas.viewport(), point(columbus))
    ov = w.adjudicate.overlay
    assert ov is not None and ov.ok is True and ov.details["path_length"] == 30
    assert "30 squares" in w.statusBar().currentMessage()

    # the what-if of the document, painted on the map: the Union takes E3-X1;
    # the preview follows the edit at once
    assert w.document.push("Paint control", plan_paint(s, "control", [at(s, "E3-X1")], s.side_index("Union")))
    ov = w.adjudicate.overlay
    assert ov is not None and ov.details["stop"] == "D8-W0"
    assert "68 squares" in (w.canvas.tooltip_text(columbus) or "")
    # cutting the rail at Water Valley leaves no valid path; undo restores it
    assert w.document.push("Cut rail", plan_links(s, "rail", [at(s, "D8-W1"), d8w0], present=False))
    assert w.adjudicate.overlay is not None and w.adjudicate.overlay.ok is False
    w.document.undo_stack.undo()
    assert w.adjudicate.overlay is not None and w.adjudicate.overlay.details["stop"] == "D8-W0"
    shot = w.canvas.viewport().grab()
    assert not shot.isNull()
    out = Path(os.environ.get("ADJUTANT_SHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    shot.save(str(out / "cwol_rail_preview.png"))

    click(columbus)  # moves 40 squares: to D8-W0, one undo step
    assert s.unit("CS1IN").at == d8w0 and w.document.undo_stack.count() == 2
    w.document.undo_stack.undo()
    assert s.unit("CS1IN").at == mobile
