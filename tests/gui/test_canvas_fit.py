"""Fit to window shows the whole map, for tall and small maps, square and
hex, also when fit runs right after the window is shown (as the main window
does with ``QTimer.singleShot(0, canvas.fit)``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QSettings, QTimer
from test_canvas_scenarios import make_scenario

from app.gui.main_window import MainWindow
from engine.io import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def _assert_whole_map_visible(canvas) -> None:
    r = canvas.renderer()
    vw, vh = canvas.viewport().width(), canvas.viewport().height()
    tl = canvas.map_to_view(0, 0)
    br = canvas.map_to_view(r.map_width, r.map_height)
    assert tl.x() >= 0 and tl.y() >= 0, f"map's top-left corner at {tl} is outside the {vw}x{vh} view"
    assert br.x() <= vw and br.y() <= vh, f"map's bottom-right corner at {br} is outside the {vw}x{vh} view"
    # the map fills the view, less its margins, in one direction (not a tiny fit)
    m2 = 2 * canvas.MARGIN + 3
    assert (br.x() - tl.x()) >= vw - m2 or (br.y() - tl.y()) >= vh - m2
    # every corner cell is on screen and picked back
    m = canvas.scenario().map
    for c in ((0, 0), (m.width - 1, 0), (0, m.height - 1), (m.width - 1, m.height - 1)):
        from engine.grids import Cell
        cell = Cell(*c)
        x, y = r.layout.center(cell)
        p = canvas.map_to_view(x, y)
        assert 0 <= p.x() < vw and 0 <= p.y() < vh
        assert canvas.cell_at(QPointF(p)) == cell


def _window(qtbot, tmp_path, scenario) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(scenario, None, settings, tmp_path / "state", previews=[])
    qtbot.addWidget(w)
    w.resize(1400, 900)
    return w


@pytest.mark.parametrize("scenario", [
    pytest.param(lambda: load_scenario(ROOT / "maps" / "cwol_mobile_columbus.json"), id="tall-30x55"),
    pytest.param(lambda: make_scenario("square", 12, 9), id="small-square"),
    pytest.param(lambda: make_scenario("hex", 12, 9, "flat", "odd"), id="small-hex-flat"),
    pytest.param(lambda: make_scenario("hex", 9, 30, "pointy", "even"), id="tall-hex-pointy"),
    pytest.param(lambda: make_scenario("square", 60, 6), id="wide-square"),
])
def test_fit_shows_whole_map(qtbot, tmp_path, scenario) -> None:
    w = _window(qtbot, tmp_path, scenario())
    w.show()
    QTimer.singleShot(0, w.canvas.fit)  # what the main window does after opening
    qtbot.waitExposed(w)
    qtbot.wait(50)
    _assert_whole_map_visible(w.canvas)
    # zoom in, then Fit again: still the whole map
    w.canvas.zoom_in()
    w.canvas.zoom_in()
    w.canvas.fit()
    qtbot.wait(20)
    _assert_whole_map_visible(w.canvas)
    # and after the window is resized
    w.resize(1000, 1200)
    qtbot.wait(50)
    w.canvas.fit()
    qtbot.wait(20)
    _assert_whole_map_visible(w.canvas)


@pytest.mark.parametrize("kind", ["square", "hex"])
@pytest.mark.parametrize("layer", ["terrain", "control", None])
def test_partial_invalidation_matches_a_full_redraw(qtbot, kind, layer) -> None:
    """invalidate_cells(cells, layer) re-renders less for some layers; the
    picture must still equal a redraw from scratch."""
    from app.gui.canvas import MapCanvas
    from engine.grids import Cell

    c = MapCanvas()
    qtbot.addWidget(c)
    c.resize(700, 560)
    c.show()
    qtbot.waitExposed(c)
    s = make_scenario(kind, 12, 9)
    c.set_scenario(s)
    c.fit()
    c.viewport().grab()  # tiles warm
    cells = [Cell(col, row) for col in range(3, 6) for row in range(3, 6)]
    for cell in cells:
        if layer == "control":
            s.map.control[cell.row, cell.col] = 1
        else:
            s.map.terrain[cell.row, cell.col] = 3
    c.invalidate_cells(cells, layer)
    partial = c.viewport().grab().toImage()
    c.invalidate_all()
    full = c.viewport().grab().toImage()
    a, b = _rgb(partial), _rgb(full)
    diff = np.abs(a - b)
    # the same pixels up to anti-aliasing where strokes cross a re-rendered rectangle's edge
    assert (diff.max(axis=2) > 24).sum() <= 40, f"{(diff.max(axis=2) > 24).sum()} pixels differ, max {diff.max()}"
    assert diff.mean() < 0.05


def _rgb(img):
    from PySide6.QtGui import QImage

    img = img.convertToFormat(QImage.Format.Format_RGB32)
    a = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    return a[:, : img.width() * 4].reshape(img.height(), img.width(), 4)[..., :3].astype(np.int16)
