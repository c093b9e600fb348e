"""The ACW odds plot's dock keeps one height: pointing at an attack fills
the plot (at least 160 pixels high) but lays nothing out again, so the map
never moves or rescales under the pointer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_acw_preview import at, load

from app.gui.main_window import MainWindow
from app.gui.systems.acw.plot import OddsPlot
from app.gui.systems.acw.previews import AcwMovePreview

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("size", [(1366, 768), (1280, 820)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_odds_dock_keeps_its_height_as_the_mouse_points_at_an_attack(qtbot: Any, tmp_path: Path,
                                                                          size: tuple[int, int]) -> None:
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
    assert plot.attack is None

    def point(label: str) -> Any:
        x, y = w.canvas.layout().center(at(s, label))
        return w.canvas.map_to_view(x, y).toPoint()

    w.canvas.fit()
    QApplication.processEvents()
    before = (w.canvas.geometry(), dock.height(), w.canvas.zoom())
    QTest.mouseClick(w.canvas.viewport(), Qt.MouseButton.LeftButton, pos=point("0605"))
    assert w.state.selected_unit == "US-3C"
    QTest.mouseMove(w.canvas.viewport(), point("0907"))
    QApplication.processEvents()
    assert plot.attack is not None and plot.chart.isVisible() and plot.chart.height() >= 160
    qtbot.wait(50)
    assert (w.canvas.geometry(), dock.height(), w.canvas.zoom()) == before  # nothing under the pointer moved
    w.grab().save(str(tmp_path / f"odds-{size[0]}x{size[1]}.png"))
