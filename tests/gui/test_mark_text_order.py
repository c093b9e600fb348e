"""A mark's text is painted over every line and marker of its overlay
(issue 18, item 5: GITM's "T/U" labels were struck through by the march
line), whatever the order of the overlay's items."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from app.gui.overlay import CellMark, Marker, Overlay, PathLine
from app.gui.render import renderer_for
from app.gui.render.marks import OverlayPainter
from engine.editing import new_scenario
from engine.grids import Cell

pytestmark = pytest.mark.gui


def test_mark_texts_come_after_lines_and_markers(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    s = new_scenario("M", {"kind": "square", "width": 8, "height": 8, "neighbours": 8}, {"scheme": "ccrr"})
    r = renderer_for(s)
    calls: list[str] = []
    for name in ("_text", "_path", "_marker"):
        original = getattr(OverlayPainter, name)

        def spy(self: Any, *a: Any, _n: str = name, _o: Any = original, **k: Any) -> Any:
            calls.append(_n)
            return _o(self, *a, **k)
        monkeypatch.setattr(OverlayPainter, name, spy)
    cells = [Cell(1, 1), Cell(2, 2), Cell(3, 3)]
    ov = Overlay((CellMark(cells[0], fill="#eecc88", text="T/U"), PathLine(tuple(cells), "#227733"),
                  CellMark(cells[1], fill="#aaccdd", text="U"), Marker(cells[2], "circle", "#227733"),
                  CellMark(cells[2], fill="#aaccdd", text="U")))
    zoom = 48 / r.extent
    w, h = r.scene_size(zoom)
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    cols, rows = r.cell_ranges(zoom, QRectF(0, 0, w, h))
    OverlayPainter(r).paint_items(p, zoom, ov.items, cols, rows)
    p.end()
    assert calls.count("_text") == 3 and "_path" in calls and "_marker" in calls
    last_drawing = max(i for i, c in enumerate(calls) if c in ("_path", "_marker"))
    assert min(i for i, c in enumerate(calls) if c == "_text") > last_drawing, calls


def test_the_odds_plot_legend_sits_outside_the_bars(qtbot: Any) -> None:
    """Issue 18, item 5: the odds plot's legend covered the bars; it is now a
    line above the plot, and the plot holds no legend item."""
    from app.gui.systems.acw.plot import OddsPlot

    plot = OddsPlot()
    qtbot.addWidget(plot)
    plot.resize(900, 300)
    plot.show()
    qtbot.waitExposed(plot)
    assert plot.chart.getPlotItem().legend is None
    assert plot.legend.isVisible() and "attacker's casualties" in plot.legend.text()
    assert plot.legend.geometry().bottom() <= plot.chart.geometry().top()


def test_coordinate_labels_say_when_the_zoom_hides_them(qtbot: Any, tmp_path: Any) -> None:
    """Issue 18, item 5: "Coordinate labels" showed nothing at the default
    zoom and did not say why."""
    from test_editor_tools import blank, open_window

    w = open_window(qtbot, tmp_path, blank("hex"))
    row = next(w.layers.list.item(i) for i in range(w.layers.list.count())
               if w.layers.list.item(i).data(0x0100) == "labels")
    w.canvas.set_zoom(0.5)
    assert row.text().endswith("(zoom in to see them)") and "40 pixels" in row.toolTip()
    w.canvas.set_zoom(3.0)
    assert row.text() == "Coordinate labels"
