"""The ACW odds plot's dock keeps no room for an empty plot: until an
attack is pointed at it is one line high (the map gets the room), and the
plot comes back, at least 160 pixels high, when an attack is pointed at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_acw_preview import at, load

from app.gui.main_window import MainWindow
from app.gui.previews._acw_plot import OddsPlot
from app.gui.previews.acw import AcwMovePreview

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("size", [(1366, 768), (1280, 820)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_odds_dock_folds_until_an_attack(qtbot: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    s = load()
    s.unit("CS-39").at = at(s, "1007")
    w = MainWindow(s, None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), tmp_path / "state",
                   previews=[AcwMovePreview()])
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    w.set_tool("adjudicate")
    QApplication.processEvents()
    dock = w.dock_preview
    assert dock is not None and isinstance(dock.widget(), OddsPlot)
    plot = dock.widget()
    assert plot.attack is None and not plot.chart.isVisible()
    assert dock.height() < 90, dock.height()
    empty_map = w.canvas.height()

    def point(label: str) -> Any:
        x, y = w.canvas.layout().center(at(s, label))
        return w.canvas.map_to_view(x, y).toPoint()

    w.canvas.fit()
    QTest.mouseClick(w.canvas.viewport(), Qt.MouseButton.LeftButton,
                     pos=point("0605"))
    assert w.state.selected_unit == "US-3C"
    QTest.mouseMove(w.canvas.viewport(), point("0907"))
    QApplication.processEvents()
    assert plot.attack is not None and plot.chart.isVisible() and plot.chart.height() >= 160
    qtbot.waitUntil(lambda: w.canvas.height() < empty_map, timeout=3000)  # the dock grew: the window laid out again
    assert dock.height() >= 160 + plot.title.height()
    w.grab().save(str(tmp_path / f"odds-{size[0]}x{size[1]}.png"))
    QTest.mouseClick(w.canvas.viewport(), Qt.MouseButton.RightButton,
                     pos=point("0605"))
    QApplication.processEvents()
    assert plot.attack is None
    qtbot.waitUntil(lambda: dock.height() < 90, timeout=3000)
