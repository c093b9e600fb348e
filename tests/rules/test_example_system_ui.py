"""The example system in the editor: a live preview and a dock on a grid map
and on a territory map, brought by its UI package
(``tests/rules/example_system/ui/``) through :mod:`app.gui.systems`, with no
file outside the example's folder naming it.

The rules systems (``example_hop`` on squares, ``example_hop_territory`` on
territories) register themselves when imported; the UIs are given to the
editor with :func:`app.gui.systems.register_ui`, as a plugin would."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import example_system  # registers "example_hop" on import
import example_system.territory as territory_hop  # registers "example_hop_territory" on import
import example_system.ui as hop_ui
import pytest
import shapely
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget, QMenu

from app.gui import systems
from app.gui.main_window import MainWindow
from app.gui.territory.window import TerritoryWindow
from engine.grids import Cell, SquareGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit
from engine.rules import registry
from engine.territory import Territory, TerritoryMap, TerritoryScenario, TerritoryUnit

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = Path(example_system.__file__).resolve().parent
SIDES = [Faction("N", "North", "#0000ff", "N"), Faction("S", "South", "#ff0000", "S")]


@pytest.fixture(autouse=True)
def hop() -> Iterator[None]:
    """Both systems registered (again, if an earlier test removed them) and
    both UIs given to the editor; all removed after the test."""
    registry.register(example_system.HopSystem)
    registry.register(territory_hop.TerritoryHopSystem)
    hop_ui.register()
    yield
    hop_ui.unregister()
    registry.unregister(example_system.NAME)
    registry.unregister(territory_hop.NAME)


def _window(qtbot: Any, tmp_path: Path, cls: Any, scenario: Any) -> Any:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = cls(scenario, None, settings, tmp_path / "state")
    w.ask_unsaved = lambda: "discard"
    qtbot.addWidget(w)
    w.resize(1100, 760)
    w.show()
    qtbot.waitExposed(w)
    w.canvas.fit()
    return w


def grid_scenario() -> Scenario:
    """Five by five squares of land, water at 3-2; N1 at 1-1, S1 at 5-1."""
    terrain = [TerrainType("land", "Land", ".", "#ffffff"), TerrainType("water", "Water", "~", "#3060c0")]
    m = GridMap(SquareGrid(5, 5), NumericNumbering())
    m.terrain[1, 2] = 1
    rs = Ruleset("hop", terrain, options={example_system.NAME: {}})
    units = [Unit("N1", "N", "IN", m.parse_label("1-1")), Unit("S1", "S", "IN", m.parse_label("5-1"))]
    return Scenario("hop", rs, list(SIDES), m, units)


def territory_scenario() -> TerritoryScenario:
    """Four land territories in a row, a to d, and a sea below a; N1 in a."""
    m = TerritoryMap(400, 200)
    for i, tid in enumerate("abcd"):
        m.add(Territory(tid, tid.upper(), controller="N", shape=shapely.box(i * 100, 0, i * 100 + 100, 100)))
    m.add(Territory("sea", "Sea", sea=True, shape=shapely.box(0, 100, 100, 200)))
    m.derive_borders()
    rs = Ruleset("hop", [], options={territory_hop.NAME: {}})
    return TerritoryScenario("hop", rs, list(SIDES), m, [TerritoryUnit("N1", "N", "IN", "a")], 1)


def test_the_editor_finds_the_example_uis_by_the_systems_names() -> None:
    assert systems.ui_for(example_system.NAME) is hop_ui.UI
    assert systems.ui_for(territory_hop.NAME) is hop_ui.TERRITORY_UI
    assert any(isinstance(p, hop_ui.HopPreview) for p in systems.previews_for())
    assert any(isinstance(p, hop_ui.TerritoryHopPreview) for p in systems.territory_previews_for())
    pages = dict((page, title) for title, page in systems.help_pages())
    assert pages["tests/rules/example_system/__init__.py"] == "Rules: Hop (example)"
    assert pages["tests/rules/example_system/territory.py"] == "Rules: Hop on Territories (example)"
    hop_ui.unregister()
    assert systems.ui_for(example_system.NAME) is None  # no built-in UI, no entry point: none


def test_a_plugin_brings_its_ui_through_an_adjutant_ui_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system with no built-in UI and none registered: its UI is the
    ``adjutant.ui`` entry point named after it, loaded when first asked."""
    from importlib.metadata import EntryPoint

    hop_ui.unregister()
    asked: list[tuple[str, str]] = []

    def entry_points(group: str, name: str) -> list[EntryPoint]:
        asked.append((group, name))
        if name != example_system.NAME:
            return []
        return [EntryPoint(name=name, value="example_system.ui:UI", group=group)]

    monkeypatch.setattr(systems, "entry_points", entry_points)
    assert systems.ui_for(example_system.NAME) is hop_ui.UI
    assert systems.ui_for(territory_hop.NAME) is None
    assert asked == [("adjutant.ui", example_system.NAME), ("adjutant.ui", territory_hop.NAME)]
    assert systems.ui_for(example_system.NAME) is hop_ui.UI and len(asked) == 2  # looked up once
    systems.unregister_ui(example_system.NAME)


def test_on_a_grid_map_a_live_preview_and_a_dock(qtbot: Any, tmp_path: Path) -> None:
    s = grid_scenario()
    w = _window(qtbot, tmp_path, MainWindow, s)
    rules = w.findChild(QDockWidget, "exampleHopRulesDock")  # the system's own dock (SystemUI.installs)
    assert rules is not None and rules in w.system_parts and "reach=2" in rules.widget().text()
    view = next(m for m in w.menuBar().findChildren(QMenu) if m.title() == "&View")
    assert rules.toggleViewAction() in view.actions()
    w.set_tool("adjudicate")
    assert isinstance(w.adjudicate.preview, hop_ui.HopPreview)
    dock = w.dock_preview
    assert dock is not None and dock.isVisible() and dock.widget().objectName() == "exampleHopDock"

    def point(cell: Cell) -> QPoint:
        x, y = w.canvas.layout().center(cell)
        return w.canvas.map_to_view(x, y).toPoint()

    def click(cell: Cell) -> None:
        vp = w.canvas.viewport()
        QTest.mouseMove(vp, point(cell))
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))

    at = s.map.parse_label
    click(at("1-1"))
    assert w.state.selected_unit == "N1"
    QTest.mouseMove(w.canvas.viewport(), point(at("4-1")) + QPoint(2, 2))
    QTest.mouseMove(w.canvas.viewport(), point(at("4-1")))
    ov = w.adjudicate.overlay
    assert ov is not None and ov.ok is False and "hops at most 2" in ov.message
    assert "hops at most 2" in dock.widget().text()
    QTest.mouseMove(w.canvas.viewport(), point(at("1-3")))  # down the column, over land
    ov = w.adjudicate.overlay
    assert ov is not None and ov.ok is True and "N1 hops 2 squares to 1-3." in dock.widget().text()
    click(at("1-3"))
    assert s.unit("N1").at == at("1-3") and w.document.undo_stack.count() == 1
    w.document.undo_stack.undo()
    assert s.unit("N1").at == at("1-1")


def test_on_a_territory_map_a_live_preview_and_a_dock(qtbot: Any, tmp_path: Path) -> None:
    s = territory_scenario()
    w = _window(qtbot, tmp_path, TerritoryWindow, s)
    rules = w.findChild(QDockWidget, "exampleHopRulesDock")  # the system's own dock (SystemUI.installs)
    assert rules is not None and rules in w.system_parts and "reach=2" in rules.widget().text()
    assert list(w.tools)[-1] == "preview"  # after the editor's and the built-in systems' modes
    w.set_mode("preview")
    tool = w.tools["preview"]
    assert isinstance(tool.preview, hop_ui.TerritoryHopPreview)
    dock = w.findChild(QDockWidget, "territoryPreviewDock")
    assert dock is not None and dock.isVisible() and dock.widget().objectName() == "exampleHopDock"

    counter = next(c for c in w.canvas.counters(w.canvas.origin()) if "N1" in c.ids)
    x, y, cw, ch = counter.box()
    vp = w.canvas.viewport()
    press_at = QPointF(x + cw / 2, y + ch / 2).toPoint()
    QTest.mouseMove(vp, press_at)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, press_at)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, press_at)
    assert w.selected_unit == "N1"

    def hover(tid: str) -> Any:
        lp = w.canvas.label_point(tid)
        assert lp is not None
        QTest.mouseMove(vp, w.canvas.map_to_view(*lp).toPoint())
        return w.canvas.overlay()

    ov = hover("d")
    assert ov.message == "D is 3 borders from A; a unit hops at most 2."
    assert dock.widget().text() == ov.message
    ov = hover("c")
    assert ov.message == "N1 hops 2 borders to C." and [r.territories for r in ov.routes] == [("a", "b", "c")]
    ov = hover("sea")
    assert "sea; a unit hops onto land only" in ov.message

    def click(tid: str) -> None:
        lp = w.canvas.label_point(tid)
        assert lp is not None
        at = w.canvas.map_to_view(*lp).toPoint()
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)

    click("d")  # refused: nothing moves
    assert s.unit("N1").at == "a" and w.document.undo_stack.count() == 0
    assert "hops at most 2" in w.statusBar().currentMessage()
    click("c")  # carried out through the system: one undo step
    assert s.unit("N1").at == "c" and w.document.undo_stack.count() == 1
    w.document.undo_stack.undo()
    assert s.unit("N1").at == "a"
    w.document.undo_stack.redo()
    assert s.unit("N1").at == "c"
    w.set_mode("select")
    assert not dock.isVisible()


def test_no_file_outside_the_example_folder_names_it() -> None:
    """The files the example's UI touches: its own package and the
    systems' modules, all under ``tests/rules/example_system/``; no module of
    the app or the engine names the example."""
    touched = {Path(inspect.getfile(obj)).resolve() for obj in (
        hop_ui, hop_ui.HopPreview, hop_ui.TerritoryHopPreview, example_system.HopSystem,
        territory_hop.TerritoryHopSystem)}
    assert touched == {EXAMPLE / "ui" / "__init__.py", EXAMPLE / "__init__.py", EXAMPLE / "territory.py"}
    names = (example_system.NAME, territory_hop.NAME, "example_system")
    for path in [*sorted((ROOT / "app").rglob("*.py")), *sorted((ROOT / "engine").rglob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        assert not any(n in text for n in names), path
