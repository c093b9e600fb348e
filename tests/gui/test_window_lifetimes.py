"""Windows and docks outlive map switches (issue 18, items 1, 2 and 6).

Each test drives the real windows (pytest-qt, offscreen) and lets Qt delete
what it deletes (``DeferredDelete`` events are sent, as the event loop
would) before looking again: open A -> B -> A; close and reopen each kind of
window; every dock after every switch.  pytest-qt fails a test on any
exception raised in a Qt slot, and stderr is checked for Qt object errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget
from system_parts import plan

from app.gui.main_window import MainWindow
from app.gui.systems import previews_for
from app.gui.systems.acw.plot import OddsPlot
from app.gui.territory import TerritoryWindow
from engine.grids import Cell

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
ACW = str(MAPS / "acw_short_campaign.json")
CWOL = str(MAPS / "cwol_mobile_columbus.json")
GITM = str(MAPS / "gitm_graphic1.json")
EUROPE = str(MAPS / "railroad_module_europe.json")
RAIL_OPTIONS = str(MAPS / "aa_rail_options.json")
QT_OBJECT_ERRORS = ("already deleted", "Internal C++ object", "Traceback")


@pytest.fixture(autouse=True)
def _close_territory_windows() -> Any:
    """Territory windows a test opened from a grid window are closed after
    it (pytest-qt closes only the windows it was given)."""
    yield
    for w in QApplication.topLevelWidgets():
        if isinstance(w, TerritoryWindow) and shiboken6.isValid(w) and w.isVisible():
            w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
            w.close()
    pump()


def pump() -> None:
    """Run what the event loop would: posted events and deferred deletes."""
    for _ in range(3):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def grid_window(qtbot: Any, tmp_path: Path, path: str = ACW) -> MainWindow:
    from engine.io import load_any

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(load_any(path), path, settings, tmp_path / "state", previews=previews_for())
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    qtbot.waitExposed(w)
    return w


def docks_alive(w: Any) -> list[str]:
    """Object names of the window's docks; fails on any deleted one."""
    names = []
    for d in w.findChildren(QDockWidget):
        assert shiboken6.isValid(d) and d.widget() is not None and shiboken6.isValid(d.widget()), d.objectName()
        names.append(d.objectName())
    return names


def point(w: MainWindow, label: str) -> Any:
    s = w.document.scenario
    x, y = w.canvas.layout().center(s.map.parse_label(label))
    return w.canvas.map_to_view(x, y).toPoint()


def click(w: MainWindow, label: str) -> None:
    vp, p = w.canvas.viewport(), point(w, label)
    QTest.mouseMove(vp, p)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)


def test_switching_maps_keeps_the_odds_dock(qtbot, tmp_path, capfd) -> None:
    w = grid_window(qtbot, tmp_path)
    w.set_tool("adjudicate")
    first = w.dock_preview
    assert first is not None and isinstance(first.widget(), OddsPlot)
    expected = set(docks_alive(w))
    for path in (CWOL, ACW, GITM, ACW, CWOL, ACW):
        assert w.open_file(path)
        pump()
        assert set(docks_alive(w)) == expected
        if path == ACW:
            assert w.dock_preview is first and first.isVisible()
        else:
            assert w.dock_preview is None and not first.isVisible()
    # the ACW preview works in the status bar and its plot after the switches
    w.canvas.fit()
    pump()
    click(w, "0605")
    QTest.mouseMove(w.canvas.viewport(), point(w, "0706"))
    assert "moves to 0706" in w.statusBar().currentMessage()
    err = capfd.readouterr().err
    assert not any(e in err for e in QT_OBJECT_ERRORS), err


def test_the_odds_dock_forgets_the_attack_of_another_unit(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path)
    s = w.document.scenario
    s.unit("CS-39").at = s.map.parse_label("1007")
    w.set_tool("adjudicate")
    w.canvas.fit()
    pump()
    plot = w.dock_preview.widget()
    click(w, "0605")
    QTest.mouseMove(w.canvas.viewport(), point(w, "0907"))
    assert plot.attack is not None
    other = s.unit("US-6")  # alone at 0505 with US-27; the first there is selected
    click(w, s.map.label(other.at))
    assert w.state.selected_unit in {u.id for u in s.units_at(other.at)}
    assert plot.attack is None and "Point at a hex" in plot.title.text()
    # right-click drops the selection: nothing is pending either
    QTest.mouseMove(w.canvas.viewport(), point(w, "0907"))
    vp, p = w.canvas.viewport(), point(w, "0907")
    QTest.mousePress(vp, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, p)
    assert w.state.selected_unit is None and plot.attack is None


def test_the_brush_outline_goes_with_the_old_map(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path, GITM)
    w.set_tool("brush")
    w.canvas.fit()
    pump()
    QTest.mouseMove(w.canvas.viewport(), point(w, w.document.scenario.map.label(Cell(2, 2))))
    assert w.canvas.overlays(), "the brush shows its outline"
    assert w.open_file(CWOL)
    pump()
    assert w.canvas.overlays() == []


def test_a_closed_territory_window_comes_back(qtbot, tmp_path, capfd) -> None:
    w = grid_window(qtbot, tmp_path)
    for path in (EUROPE, RAIL_OPTIONS, EUROPE):
        assert w.open_file(path)
        pump()
        tw = w._other_windows[-1]
        assert isinstance(tw, TerritoryWindow) and tw.isVisible()
        assert tw.document.path == path
        docks_alive(tw)
        tw.act_close.trigger()  # Ctrl+W
        pump()
        assert w._other_windows == []
    err = capfd.readouterr().err
    assert not any(e in err for e in QT_OBJECT_ERRORS), err


def test_two_territory_windows_close_in_any_order(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path)
    w.open_file(EUROPE)
    w.open_file(RAIL_OPTIONS)
    pump()
    a, b = w._other_windows
    a.close()
    pump()
    assert w._other_windows == [b] and b.isVisible()
    w.open_file(EUROPE)
    pump()
    assert len(w._other_windows) == 2 and all(x.isVisible() for x in w._other_windows)


def test_one_window_manager_keeps_every_opened_window_until_it_closes(qtbot, tmp_path) -> None:
    """A territory map, recovered work and game branches are all opened and
    kept by app.gui.windows.MANAGER, each under the window that opened it,
    and forgotten once closed (branches included)."""
    from app.gui.windows import MANAGER
    from engine.io import load_any

    w = grid_window(qtbot, tmp_path)
    w.open_file(EUROPE)
    pump()
    (tw,) = w._other_windows
    assert MANAGER.windows(opener=w, role="other kind") == [tw] and tw in MANAGER.windows()
    w.game.journal_panel._branch(load_any(ACW))  # "Branch from here", twice
    w.game.journal_panel._branch(load_any(ACW))
    pump()
    branches = w.branch_windows
    assert len(branches) == 2 and all(isinstance(b, MainWindow) and b.isVisible() for b in branches)
    assert w._other_windows == [tw, *branches]
    for b in branches:
        b.ask_unsaved = lambda: "discard"
    branches[0].close()
    pump()
    assert w.branch_windows == [branches[1]] and w._other_windows == [tw, branches[1]]
    branches[1].close()
    tw.act_close.trigger()
    pump()
    assert w.branch_windows == [] and w._other_windows == [] and not MANAGER.windows(opener=w)


def test_close_and_reopen_each_kind_of_window(qtbot, tmp_path, capfd) -> None:
    for _round in range(2):
        w = grid_window(qtbot, tmp_path, CWOL)
        w.set_tool("adjudicate")
        assert set(docks_alive(w)) >= {"toolsDock", "verdictDock", "historyDock"}
        w.close()
        pump()
    from engine.io import load_any

    for _round in range(2):
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        tw = TerritoryWindow(load_any(EUROPE), EUROPE, settings, tmp_path / "state")
        tw.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
        tw.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        tw.show()
        pump()
        docks_alive(tw)
        tw.close()
        pump()
    err = capfd.readouterr().err
    assert not any(e in err for e in QT_OBJECT_ERRORS), err


def test_the_rail_plan_chart_forgets_the_previous_map(qtbot, tmp_path) -> None:
    import json

    from engine.io import load_any

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    tw = TerritoryWindow(load_any(EUROPE), EUROPE, settings, tmp_path / "state")
    tw.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(tw)
    tw.show()
    tw.set_mode("railplan")
    raw = json.loads((ROOT / "tests" / "territory" / "europe_orders.json").read_text())["orders"]
    plan(tw).planner.add_orders(raw)
    qtbot.waitUntil(lambda: plan(tw).planner.exact is not None, timeout=20000)
    axis = plan(tw).plan_panel.chart.getAxis("bottom")
    names = {name for level in axis._tickLevels for _x, name in level}
    assert "Prussia" in names
    assert tw.open_file(RAIL_OPTIONS)
    pump()
    assert plan(tw).planner.orders == [] and plan(tw).plan_panel.bars_used is None
    assert axis._tickLevels is None, "no territory of the previous map is left on the chart's axis"
    assert plan(tw).plan_panel.orders.count() == 0


# -- other friction (issue 18, item 8) ---------------------------------------------

def test_help_lists_every_shortcut_from_the_actions(qtbot, tmp_path) -> None:
    from PySide6.QtGui import QAction

    from app.gui.editor_window import shortcut_text

    w = grid_window(qtbot, tmp_path)
    rows = w.shortcut_rows()
    keys = {k for _m, _c, k in rows}
    # every action of the menus with a shortcut is listed with its keys
    for act in w.findChildren(QAction):
        if shortcut_text(act) and any(act in m.actions() for m in w.menuBar().findChildren(type(w.recent_menu))):
            assert shortcut_text(act) in keys, act.text()
    assert ("File", "Save", "Ctrl+S") in rows and ("Tools", "Adjudicate", "A") in rows
    assert ("File", "Quit", shortcut_text(w.act_quit)) in rows and shortcut_text(w.act_quit)
    # tooltips name the keys
    assert w.act_save.toolTip().endswith("(Ctrl+S)") and w.tool_actions["brush"].toolTip().endswith("(B)")
    assert w.act_zoom_in.toolTip().startswith("Zoom In (+")
    # the undo tooltip names the step and the keys, and follows the stack
    from engine.editing import plan_move_unit

    s = w.document.scenario
    w.document.push("Move US-3C", plan_move_unit(s, "US-3C", s.map.parse_label("0706"), {}))
    assert w.act_undo.toolTip() == f"Undo Move US-3C ({shortcut_text(w.act_undo)})"
    dlg = w.show_shortcuts()
    assert dlg.table.rowCount() == len(rows) + 2 and "Space + drag" in dlg.text()
    dlg.close()
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Help")
    # the documentation pages (tests/gui/test_help_and_palette.py), a separator, then these two
    assert [a.text() for a in help_menu.actions()][-2:] == ["&Keyboard Shortcuts", "&About Adjutant"]


def test_the_territory_window_has_quit_and_help(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path)
    w.open_file(EUROPE)
    pump()
    tw = w._other_windows[-1]
    file_menu = next(a.menu() for a in tw.menuBar().actions() if a.text() == "&File")
    assert tw.act_quit in file_menu.actions() and tw.act_close in file_menu.actions()
    assert any(r[1] == "Keyboard Shortcuts" for r in tw.shortcut_rows())
    from app.gui.editor_window import shortcut_text

    assert tw.act_close.toolTip().endswith(f"({shortcut_text(tw.act_close)})")


def test_a_first_window_fits_the_screen(qtbot, tmp_path) -> None:
    from PySide6.QtGui import QGuiApplication

    from app.gui.editor_window import fitting_size

    room = QGuiApplication.primaryScreen().availableGeometry()
    w_, h_ = fitting_size((1280, 820))
    assert w_ <= room.width() and h_ <= room.height()
    assert fitting_size((10, 10)) == (10, 10)
    from engine.io import load_any

    settings = QSettings(str(tmp_path / "fresh.ini"), QSettings.Format.IniFormat)
    w = MainWindow(load_any(CWOL), CWOL, settings, tmp_path / "state", previews=[])
    qtbot.addWidget(w)
    assert w.height() <= room.height() and w.width() <= room.width()


def test_the_square_map_numbering_is_not_called_hex(qtbot) -> None:
    from app.gui.dialogs.new_map import NewMapDialog

    dlg = NewMapDialog(None, None)
    qtbot.addWidget(dlg)
    dlg.set_kind("square")
    assert dlg.scheme.itemText(dlg.scheme.findData("ccrr")) == "CCRR square numbers (0101)"
    dlg.set_kind("hex")
    assert dlg.scheme.itemText(dlg.scheme.findData("ccrr")) == "CCRR hex numbers (0101)"


def test_error_dialogs_wrap(qtbot) -> None:
    from PySide6.QtWidgets import QPlainTextEdit

    from app.gui.dialogs.error import ErrorDialog

    dlg = ErrorDialog(None, "Cannot open", "x.json cannot be opened:", ["word " * 80])
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.text.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert dlg.text.horizontalScrollBar().maximum() == 0


def test_one_unit_is_not_units(qtbot, tmp_path) -> None:
    from app.gui.overlay import counted

    assert counted(1, "unit") == "1 unit" and counted(2, "unit") == "2 units" and counted(0, "hex", "hexes") == "0 hexes"
    from engine.editing import new_scenario
    from engine.model import Unit

    s = new_scenario("One", {"kind": "square", "width": 5, "height": 5, "neighbours": 8}, {"scheme": "ccrr"})
    s.units.append(Unit("U1", s.sides[0].id, s.ruleset.unit_types[0].id, Cell(1, 1)))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = MainWindow(s, None, settings, tmp_path / "state", previews=[])
    qtbot.addWidget(w)
    w.inspector.refresh()
    assert "1 unit<" in w.inspector.label.text()


def test_space_drag_pans_even_when_the_canvas_lacks_focus(qtbot, tmp_path) -> None:
    from PySide6.QtGui import QKeyEvent

    w = grid_window(qtbot, tmp_path, CWOL)
    w.set_tool("brush")
    w.canvas.set_zoom(w.canvas.zoom() * 4)
    pump()
    focus = w.layers  # a panel, not the map, has the keyboard focus
    focus.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    focus.setFocus()
    pump()
    assert not w.canvas.hasFocus()
    vp = w.canvas.viewport()
    start = vp.rect().center()
    QTest.mouseMove(vp, start)
    vp.setAttribute(Qt.WidgetAttribute.WA_UnderMouse, True)  # offscreen: no window system sets it
    before = w.document.scenario.map.terrain.copy()
    h0, v0 = w.canvas.horizontalScrollBar().value(), w.canvas.verticalScrollBar().value()
    QApplication.sendEvent(focus, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier, " "))
    assert w.canvas._space
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(vp, start + QPoint(-60, -40))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(-60, -40))
    QApplication.sendEvent(QApplication.focusWidget() or focus,
                           QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier, " "))
    assert not w.canvas._space
    assert (w.document.scenario.map.terrain == before).all(), "Space + drag painted"
    assert w.document.undo_stack.count() == 0
    assert (w.canvas.horizontalScrollBar().value(), w.canvas.verticalScrollBar().value()) != (h0, v0)


def test_space_is_watched_on_the_focus_widget_not_on_every_widget(qtbot, tmp_path) -> None:
    """Watching Space while the mouse is over the map filters the events of
    the focus widget only (where key events arrive), following the focus,
    and nothing once the mouse has left: an application-wide filter in
    Python was called for every paint of every widget on every hover
    (issue 19).  That Space still pans from any focus:
    :func:`test_space_drag_pans_even_when_the_canvas_lacks_focus`."""
    from PySide6.QtCore import QEvent

    w = grid_window(qtbot, tmp_path, CWOL)
    c = w.canvas
    focus = w.layers
    focus.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    focus.setFocus()
    pump()
    assert c._key_target is None  # noqa: SLF001 - nothing watched before the mouse comes
    QTest.mouseMove(c.viewport(), c.viewport().rect().center())
    pump()
    assert c._key_target is focus  # noqa: SLF001
    c.setFocus()  # the filter follows the focus
    pump()
    assert c._key_target is c  # noqa: SLF001
    c.leaveEvent(QEvent(QEvent.Type.Leave))
    assert c._key_target is None  # noqa: SLF001
