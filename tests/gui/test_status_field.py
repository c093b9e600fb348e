"""The status bar's hover field (``app.gui.status_field``, issue 19): a
mouse move over the map changes its text without laying out the main window
again; it grows for a longer text, shrinks back only once the texts rest,
stops short of the window's width and then cuts the text, whole in its
tooltip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QSettings
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMainWindow

from app.gui.main_window import MainWindow
from app.gui.status_field import RESERVE, SHRINK_AFTER_MS, StatusField
from engine.io import load_any

pytestmark = pytest.mark.gui

CWOL = str(Path(__file__).resolve().parents[2] / "maps" / "cwol_mobile_columbus.json")


class LayoutRequests(QObject):
    """Counts the layout requests one widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def test_hovering_the_map_lays_out_nothing(qtbot: Any, tmp_path: Path) -> None:
    s = load_any(CWOL)
    w = MainWindow(s, CWOL, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), tmp_path / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    qtbot.waitExposed(w)
    vp = w.canvas.viewport()
    points = [vp.rect().center() + QPoint(dx, dx // 3) for dx in range(-200, 201, 40)]
    for q in points:  # a first sweep: the field grows to its widest text once
        QTest.mouseMove(vp, q)
        QApplication.processEvents()
    spy = LayoutRequests()
    w.installEventFilter(spy)
    texts = set()
    for q in reversed(points):
        QTest.mouseMove(vp, q)
        QApplication.processEvents()
        texts.add(w.cell_label.full_text())
    w.removeEventFilter(spy)
    assert len(texts) > 5, "the hovers should show different cells"
    assert spy.count == 0, f"{spy.count} layouts of the main window for {len(texts)} hovers"


def test_the_field_grows_shrinks_once_texts_rest_and_cuts_before_the_window_edge(qtbot: Any) -> None:
    win = QMainWindow()
    qtbot.addWidget(win)
    win.resize(900, 300)
    field = StatusField("", margins=(16, 0, 8, 0))
    win.statusBar().addPermanentWidget(field)
    win.show()
    QApplication.processEvents()
    h, w0 = field.height(), field.width()
    assert field.minimumSize() == field.maximumSize(), "a fixed size asks no layout of its parent"
    field.setText("B3 clear")
    assert field.width() == w0 and field.text() == "B3 clear" and field.toolTip() == ""
    longer = "B3 · Forest · held by the Union · 2 units: a1, a2"
    field.setText(longer)
    w1 = field.width()
    assert w1 > w0 and field.text() == longer
    field.setText("B4")
    assert field.width() == w1 and field.height() == h, "no shrinking while texts keep coming"
    qtbot.wait(SHRINK_AFTER_MS + 300)
    assert field.width() == w0 and field.text() == "B4", "it fits its text once the texts rest"
    huge = "C7 · " + ", ".join(f"unit {i}" for i in range(200))
    field.setText(huge)
    assert field.width() <= win.width() - RESERVE
    assert field.text() != huge and field.text().endswith("\u2026")
    assert field.full_text() == huge and field.toolTip() == huge
    field.setText("C8")
    assert field.text() == "C8" and field.toolTip() == ""
