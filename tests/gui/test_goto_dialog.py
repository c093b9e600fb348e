"""Edit > Go To (Ctrl+G) in both editors (issue 18): the dialog completes
names, centres the map on what a name points at and flashes or selects it;
an unknown name is said in the dialog, which stays open, and no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QSettings, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from test_window_lifetimes import grid_window as open_grid_window

from app.gui.dialogs.goto import GotoDialog
from app.gui.main_window import MainWindow
from app.gui.territory import TerritoryWindow
from engine.io import load_any

pytestmark = pytest.mark.gui

MAPS = Path(__file__).resolve().parents[2] / "maps"


def grid_window(qtbot: Any, tmp_path: Path, name: str) -> MainWindow:
    return open_grid_window(qtbot, tmp_path, str(MAPS / name))


def territory_window(qtbot: Any, tmp_path: Path, name: str) -> TerritoryWindow:
    path = str(MAPS / name)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = TerritoryWindow(load_any(path), path, settings, tmp_path / "state")  # type: ignore[arg-type]
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    qtbot.waitExposed(w)
    return w


def view_centre(w: Any) -> tuple[float, float]:
    vp = w.canvas.viewport()
    return w.canvas.view_to_map(QPointF(vp.width() / 2, vp.height() / 2))


def edit_menu_actions(w: Any) -> list[Any]:
    edit = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Edit")
    return edit.actions()


@pytest.mark.parametrize("make", [grid_window, territory_window])
def test_go_to_is_in_the_edit_menu_with_ctrl_g(qtbot, tmp_path, make) -> None:
    w = make(qtbot, tmp_path, "acw_short_campaign.json" if make is grid_window else "railroad_module_europe.json")
    assert w.act_goto in edit_menu_actions(w)
    assert w.act_goto.shortcut() == QKeySequence("Ctrl+G")


def test_grid_go_to_centres_and_flashes(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path, "acw_short_campaign.json")
    w.canvas.zoom_in()
    w.canvas.zoom_in()
    s = w.document.scenario
    dlg = GotoDialog(w, w.goto_names(), w._go_and_say, w.goto_hint)
    assert "Elkwood" in w.goto_names()
    # completion: a few letters, any case, anywhere in the name
    dlg.completer.setCompletionPrefix("elk")
    assert dlg.completer.currentCompletion() == "Elkwood"
    assert dlg.go("Elkwood")
    cell = s.map.find_place("Elkwood")
    assert cell is not None
    cx, cy = view_centre(w)
    ex, ey = w.canvas.layout().center(cell)
    size = w.canvas.layout().size
    # centred across; up and down as far as the scroll bars go (Elkwood is near the top)
    assert abs(cx - ex) < size
    assert w.canvas.viewport().rect().contains(w.canvas.map_to_view(ex, ey).toPoint())
    flash = [o for o in w.canvas.overlays() if any(getattr(i, "cell", None) == cell for i in o.items)]
    assert flash, "the cell flashes"
    assert "Elkwood" in w.statusBar().currentMessage()
    qtbot.waitUntil(lambda: flash[0] not in w.canvas.overlays(), timeout=3000)
    # an unknown name: said in the dialog, nothing moves
    before = view_centre(w)
    assert not dlg.go("Atlantis")
    assert "Atlantis" in dlg.message.text()
    assert view_centre(w) == before


def test_territory_go_to_selects_and_centres(qtbot, tmp_path) -> None:
    w = territory_window(qtbot, tmp_path, "railroad_module_europe.json")
    dlg = GotoDialog(w, w.goto_names(), w._go_and_say, w.goto_hint)
    assert dlg.go("ger_inf_dk")
    assert w.selection == ["denmark"]
    assert "Denmark" in w.statusBar().currentMessage()
    assert not dlg.go("germ")
    assert "did you mean 'Germany'" in dlg.message.text()


def test_the_dialog_stays_open_on_a_bad_name_and_closes_on_a_good_one(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path, "cwol_mobile_columbus.json")
    seen: list[str] = []

    def drive() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, GotoDialog)
        dlg.field.setText("Atlantis")
        dlg.accept()
        seen.append(dlg.message.text())
        assert dlg.isVisible()
        dlg.field.setText("mobile")
        dlg.accept()

    QTimer.singleShot(0, drive)
    w.act_goto.trigger()
    assert seen and "no unit, place or cell 'Atlantis'" in seen[0]
    assert "Mobile" in w.statusBar().currentMessage()
