"""The territory window's tools (app/gui/territory/tools/): one tool a mode
with the grid tools' lifecycle, the window forwarding the canvas's mouse
events to the current one; and the territory renderer painting without a
widget (app/gui/render/territory.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import shapely
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from system_parts import plan, rail
from test_territory_editor import EUROPE, RAIL_OPTIONS, open_window, view_point

from app.gui.render.counters import COUNTER_COMPACT_W, COUNTER_DOT, COUNTER_H, COUNTER_PAD, COUNTER_W, layout_counters
from app.gui.render.territory import TerritoryRenderer
from app.gui.territory.overlay import TerritoryOverlay
from app.gui.territory.tools import TerritoryTool, modes, tool_classes
from app.gui.tools.base import Tool
from engine.model import Faction, ModelError, Ruleset
from engine.territory import Territory, TerritoryMap, TerritoryScenario, TerritoryUnit
from engine.territory.geometry import box_at

pytestmark = pytest.mark.gui

LEFT, RIGHT = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
NONE = Qt.KeyboardModifier.NoModifier


def test_every_mode_is_a_tool_with_the_grid_tools_lifecycle(qtbot, tmp_path: Path) -> None:
    w = open_window(qtbot, tmp_path, RAIL_OPTIONS)
    MODES = modes()
    assert MODES == ("select", "paint", "railplan", "railoptions", "station", "railroad")
    assert list(w.tools) == list(MODES)  # the editor's tools, then Module I's, then Rail Options'
    for cls in tool_classes():
        assert issubclass(cls, TerritoryTool) and issubclass(cls, Tool)
        assert cls.name and cls.shortcut and cls.tip
    for mode in (*MODES, "select", "railplan", "railplan"):
        before = w.tool
        w.set_mode(mode)
        assert w.mode == mode and w.tool is w.tools[mode]
        assert [t.id for t in w.tools.values() if t.active] == [mode]
        assert before.active == (before is w.tool)
        assert w.mode_actions[mode].isChecked()
        assert rail(w).dock_rail_tools.isVisibleTo(w) == (mode in ("station", "railroad"))
        assert w.canvas.overlay() == (w.tool.overlay() or TerritoryOverlay())
    with pytest.raises(ModelError, match="no mode 'lasso'"):
        w.set_mode("lasso")
    assert w.mode == "railplan"


def test_mouse_events_go_to_the_current_tool_only(qtbot, tmp_path: Path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    seen: list[tuple[str, str]] = []
    for tool in w.tools.values():
        for what in ("press", "move", "release"):
            setattr(tool, what, lambda ev, t=tool.id, k=what: seen.append((t, k)))
    vp = w.canvas.viewport()
    for mode in ("paint", "station"):
        w.set_mode(mode)
        seen.clear()
        qtbot.mouseClick(vp, LEFT, NONE, view_point(w, "germany"))
        assert ("paint" if mode == "paint" else "station", "press") in seen
        assert {t for t, _ in seen} == {mode}


def test_leaving_a_tool_drops_its_drag(qtbot, tmp_path: Path) -> None:
    """A rail-plan drag or a paint stroke under way ends with its tool: the
    next tool's release does not finish it."""
    w = open_window(qtbot, tmp_path, EUROPE)
    vp = w.canvas.viewport()
    w.set_mode("railplan")
    unit = next(u for u in w.scenario.units)
    qtbot.mousePress(vp, LEFT, NONE, view_point(w, unit.at))
    w.set_mode("select")
    w.set_mode("railplan")
    target = next(t for t in w.scenario.map.territories if t != unit.at and not w.scenario.map.territories[t].sea)
    qtbot.mouseRelease(vp, LEFT, NONE, view_point(w, target))
    assert plan(w).planner.orders == []
    w.set_mode("paint")
    p = view_point(w, "germany")
    qtbot.mousePress(vp, LEFT, NONE, p)
    painted = set(w.paint_cells)
    assert painted
    w.set_mode("select")
    w.set_mode("paint")
    qtbot.mouseMove(vp, p + QPoint(40, 0))
    assert w.paint_cells == painted  # no button is held for the paint tool any more


@pytest.mark.parametrize("path", [RAIL_OPTIONS, EUROPE], ids=lambda p: p.name)
def test_the_renderer_paints_the_static_layer_without_a_widget(qtbot, tmp_path: Path, path: Path) -> None:
    """The renderer alone draws what the canvas caches, pixel for pixel."""
    w = open_window(qtbot, tmp_path, path)
    s = w.scenario
    z = w.canvas.zoom()
    region = QRectF(0, 0, s.map.width, s.map.height)
    size = (int(s.map.width * z), int(s.map.height * z))

    def draw(paint) -> QImage:
        img = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(0)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        paint(p)
        p.end()
        return img

    alone = draw(lambda p: TerritoryRenderer(s, w.canvas.font()).render_static(p, region, z))
    canvas = draw(lambda p: w.canvas.render_static(p, region, z))
    assert alone == canvas
    assert len({alone.pixel(x, y) for x in range(0, size[0], 7) for y in range(0, size[1], 7)}) > 5


def counter_scenario(width: float) -> TerritoryScenario:
    """One territory ``width`` map units wide holding three German infantry,
    a German armor and a Soviet infantry, its label point at (50, 50)."""
    m = TerritoryMap(200, 100)
    m.add(Territory("t", "T", shape=shapely.box(50 - width / 2, 0, 50 + width / 2, 100), label_at=(50.0, 50.0)))
    sides = [Faction("ger", "Germany", "#666666", "G"), Faction("sov", "Soviet Union", "#a52a2a", "R")]
    units = [TerritoryUnit(f"g{i}", "ger", "infantry", "t") for i in range(3)]
    units += [TerritoryUnit("ga", "ger", "armor", "t"), TerritoryUnit("si", "sov", "infantry", "t")]
    return TerritoryScenario("c", Ruleset("r", []), sides, m, units)


@pytest.mark.parametrize(("width", "z", "labels", "w", "h", "dy"), [
    # room for a row of 3 counters of 30 px and 2 gaps of 3 px (96 px) under 1.5x the on-screen width
    (64, 1.0, ["ARM", "INF×3", "INF"], COUNTER_W, COUNTER_H, 22.0),
    (32, 2.0, ["ARM", "INF×3", "INF"], COUNTER_W, COUNTER_H, 22.0),  # zoom makes room as width does
    (63, 1.0, ["4", "1"], COUNTER_COMPACT_W, COUNTER_H, 22.0),  # one counter a side, its unit count
    (29, 1.0, ["4", "1"], COUNTER_COMPACT_W, COUNTER_H, 22.0),
    (28, 1.0, ["", ""], COUNTER_DOT, COUNTER_DOT, 4.0),  # a dot a side
])
def test_counter_layout_by_room(width, z, labels, w, h, dy) -> None:
    s = counter_scenario(width)
    got = layout_counters(s, {"t": (50.0, 50.0)}, z, (10.0, 20.0))
    assert [c.label for c in got] == labels
    gap = 3.0 if w != COUNTER_DOT else COUNTER_DOT
    row = len(labels) * (w + gap) - gap
    for i, c in enumerate(got):
        assert c.territory == "t"
        assert (c.rect.x(), c.rect.y(), c.rect.width(), c.rect.height()) == pytest.approx(
            (10 + 50 * z - row / 2 + i * (w + gap), 20 + 50 * z + dy, w, h))
    assert sorted(u for c in got for u in c.ids) == sorted(u.id for u in s.units)
    # a click hits the counter drawn there, 2 px around it too
    for i, c in enumerate(got):
        assert box_at([k.box() for k in got], c.rect.center().x(), c.rect.bottom() + 1.5, COUNTER_PAD) == i
