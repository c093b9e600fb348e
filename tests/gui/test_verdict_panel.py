"""Readable verdicts (issue 18, item 4): the CWOL rail example's three cases
(30 / 68 / 112 squares: ``maps/cwol_mobile_columbus.json``, CS1IN to E4-X4
with E3-X1 and E4-V4 set to Union control) in the real window at 1280x820
and 1366x768.

The verdict panel shows the whole verdict, wrapped and copyable, with its
reasons; the status bar shows a short form that is not cut off (it fits the
room the status bar gives it); the tooltip of the target says the verdict
once.  Screenshots of each case are saved under the test's temporary folder
(``verdict-<case>-<size>.png``) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.gui.main_window import MainWindow
from app.gui.overlay import SHORT_LIMIT, Overlay
from app.gui.systems.cwol_rail.previews import CwolRailPreview
from engine.io import load_any

pytestmark = pytest.mark.gui

CWOL = str(Path(__file__).resolve().parents[2] / "maps" / "cwol_mobile_columbus.json")
CASES = {  # squares: (Union-held squares, what the verdict says, the short form)
    30: ((), "is 30 squares, within the 40-square move, so CS1IN arrives.",
         "CS1IN arrives at E4-X4 after 30 squares"),
    68: (("E3-X1",), ("more than 40 but not more than 80, so CS1IN moves 40 squares and stops at Water Valley MS "
                      "(D8-W0), 28 short."), "CS1IN stops short at D8-W0 after 40 of 68 squares"),
    112: (("E3-X1", "E4-V4"), "is 112 squares, longer than 80, so CS1IN does not move.",
          "CS1IN: the shortest valid rail path to E4-X4 is 112 squares, over 80; stays at E6-Y4"),
}


def window(qtbot: Any, tmp_path: Path, size: tuple[int, int], union: tuple[str, ...]) -> MainWindow:
    s = load_any(CWOL)
    for label in union:
        s.set_control(s.map.parse_label(label), s.side("Union").id)
    settings = QSettings(str(tmp_path / f"{size}.ini"), QSettings.Format.IniFormat)
    w = MainWindow(s, CWOL, settings, tmp_path / "state", previews=[CwolRailPreview()])
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    w.set_tool("adjudicate")
    w.canvas.fit()
    QApplication.processEvents()
    return w


def hover(w: MainWindow, label: str, click: bool = False) -> None:
    s = w.document.scenario
    x, y = w.canvas.layout().center(s.map.parse_label(label))
    p = w.canvas.map_to_view(x, y).toPoint()
    vp = w.canvas.viewport()
    QTest.mouseMove(vp, p)
    if click:
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)


def status_room(w: MainWindow) -> int:
    """Pixels the status bar leaves its message: its width less the
    permanent labels on the right (and margins)."""
    sb = w.statusBar()
    return sb.width() - sum(x.width() for x in (w.cell_label, w.zoom_label)) - 24


@pytest.mark.parametrize("squares", sorted(CASES))
@pytest.mark.parametrize("size", [(1280, 820), (1366, 768)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_whole_verdict_is_readable(qtbot, tmp_path, squares: int, size: tuple[int, int]) -> None:
    union, words, short = CASES[squares]
    w = window(qtbot, tmp_path, size, union)
    hover(w, "E6-Y4", click=True)
    assert w.state.selected_unit == "CS1IN"
    hover(w, "E4-X4")
    ov = w.adjudicate.overlay
    assert ov is not None and words in ov.message
    # the status bar: the short form, whole, with room to show it
    msg = w.statusBar().currentMessage()
    assert msg == short and len(msg) <= SHORT_LIMIT
    assert w.statusBar().fontMetrics().horizontalAdvance(msg) <= status_room(w)
    # the panel: in front while adjudicating, the whole verdict wrapped, its reasons, copyable
    panel = w.verdict
    assert w.dock_verdict.isVisible() and panel.isVisible()
    text = panel.view.toPlainText()
    assert ov.message in text and short in text
    for r in ov.reasons:
        assert r in text
    assert panel.view.horizontalScrollBar().maximum() == 0, "wrapped: no sideways scrolling"
    panel.copy()
    assert ov.message in QGuiApplication.clipboard().text()
    # the tooltip says the verdict once
    tip = w.canvas.tooltip_text(w.document.scenario.map.parse_label("E4-X4")) or ""
    assert tip.count(ov.message) == 1
    for cell in ov.details.get("stop", "E4-X4"), "E6-Y4":
        whole = w.canvas.tooltip_text(w.document.scenario.map.parse_label(str(cell))) or ""
        assert whole.count(ov.message) <= 1
    w.grab().save(str(tmp_path / f"verdict-{squares}-{size[0]}x{size[1]}.png"))


def test_reasons_list_the_path_and_the_refused_squares(qtbot, tmp_path) -> None:
    w = window(qtbot, tmp_path, (1280, 820), CASES[112][0])
    hover(w, "E6-Y4", click=True)
    hover(w, "E4-X4")
    reasons = w.adjudicate.overlay.reasons
    assert any(r.startswith("refused rail squares next to the network searched: ") and "E3-X1" in r for r in reasons)
    w.open_file(CWOL)  # the same map afresh: the union squares are gone
    hover(w, "E6-Y4", click=True)
    hover(w, "E4-X4")
    assert w.adjudicate.overlay.reasons[0].startswith("path (30 squares): E6-Y4 E6-Y3")


def test_the_panel_follows_the_preview_and_says_when_there_is_none(qtbot, tmp_path) -> None:
    w = window(qtbot, tmp_path, (1280, 820), ())
    assert w.verdict.text() == "" and "Adjudicate" in w.verdict.view.toPlainText()
    hover(w, "E6-Y4", click=True)
    hover(w, "E4-X4")
    assert w.verdict.text().startswith("CS1IN arrives at E4-X4 after 30 squares\nThe shortest")
    w.set_tool("brush")
    assert w.verdict.text() == ""


@pytest.mark.parametrize(("message", "summary", "short"), [
    ("A; b", "", "A"),
    ("x" * 20, "S", "S"),
    ("word " * 40, "", ("word " * 19).rstrip() + "\u2026"),
])
def test_short_form(message: str, summary: str, short: str) -> None:
    assert Overlay(message=message, summary=summary).short() == short
    assert len(Overlay(message=message, summary=summary).short()) <= SHORT_LIMIT


def test_a_blocked_march_lists_each_block(qtbot, tmp_path) -> None:
    from app.gui.systems.gitm.previews import GitmMarchPreview

    path = str(Path(CWOL).parent / "gitm_graphic2.json")
    s = load_any(path)
    settings = QSettings(str(tmp_path / "gitm.ini"), QSettings.Format.IniFormat)
    w = MainWindow(s, path, settings, tmp_path / "state", previews=[GitmMarchPreview()])
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.set_tool("adjudicate")
    w.canvas.fit()
    QApplication.processEvents()
    hover(w, "1-6", click=True)
    hover(w, "5-2")
    ov = w.adjudicate.overlay
    assert ov.ok is False and w.statusBar().currentMessage() == "FR1IN's march 1-6 -> 5-2 is blocked"
    blocks = [r for r in ov.reasons if not r.startswith("rounded path: ")]
    assert blocks and all(b in ov.message for b in blocks) and any("AU2CA" in b for b in blocks)
    text = w.verdict.view.toPlainText()
    assert all(b in text for b in blocks) and "rounded path: 1-6" in text
    combo = w.tool_palette.preview  # the preview's name is not cut off in the Tools dock
    assert combo.fontMetrics().horizontalAdvance(combo.currentText()) <= combo.width() - 30
    w.grab().save(str(tmp_path / "verdict-gitm-blocked-1366x768.png"))
