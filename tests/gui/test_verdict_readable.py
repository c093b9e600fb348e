"""Every verdict is readable in every window: the Rail Options sample's
refused rail move (INF in Germany pointed at Russia) in the territory
window and the CWOL rail preview in the grid window, at 1366x768 and
1280x820.  The status bar's message is the engine's verdict whole (the
permanent fields -- the hovered place, the turn, the zoom -- yield their
room before it is cut), and each window's Verdict dock holds it in full.
Screenshots go to the test's temporary folder (``verdict-*.png``) for a
person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QStatusBar, QWidget
from test_verdict_panel import hover as grid_hover
from test_verdict_panel import window as grid_window
from window_kit import open_map

from app.gui.territory import TerritoryWindow
from engine.rules.rail_options import RailOptionsAdjudicator

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1366, 768), (1280, 820)]


def message_room(bar: QStatusBar) -> int:
    """Pixels the status bar draws its message in: from its left margin to
    the first permanent field that shows anything."""
    right = bar.width() - 12
    fields = [w for w in bar.findChildren(QWidget) if w.parent() is not None and w.isVisible()
              and w.width() > 0 and w.y() >= 0 and w.x() > 0]
    if fields:
        right = min(right, min(w.x() for w in fields))
    return right - 6


def assert_shown_whole(bar: QStatusBar, text: str) -> None:
    QApplication.processEvents()
    assert bar.currentMessage() == text
    need = bar.fontMetrics().horizontalAdvance(text)
    assert need <= message_room(bar), f"the status bar has {message_room(bar)} px for {need}: {text!r}"


def point_at(w: TerritoryWindow, tid: str) -> None:
    lp = w.canvas.label_point(tid)
    assert lp is not None
    QTest.mouseMove(w.canvas.viewport(), w.canvas.map_to_view(*lp).toPoint())
    QApplication.processEvents()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_territory_verdict_reads_whole(qtbot: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=size)
    w.turns.set_playing(True)  # a game: the turn label takes its place in the status bar too
    w.set_mode("railoptions")
    w.select_unit("ger_inf")
    point_at(w, "germany")  # the hovered place's line grows to its widest
    point_at(w, "russia")
    verdict = RailOptionsAdjudicator(w.scenario).judge("ger_inf", "russia")
    assert not verdict.allowed and "Russia" in verdict.reason
    assert_shown_whole(w.statusBar(), "✘ " + verdict.reason)
    assert w.dock_verdict.isVisible() and w.verdict.isVisible()
    text = w.verdict.view.toPlainText()
    assert verdict.reason in text
    assert w.verdict.text().splitlines()[1:2] in ([verdict.reason], [])  # the whole reason, not a prefix
    assert w.verdict.overlay is not None and w.verdict.overlay.message == verdict.reason
    w.grab().save(str(tmp_path / f"verdict-territory-{size[0]}x{size[1]}.png"))
    # the message gone, the fields have their room back
    w.statusBar().clearMessage()
    QApplication.processEvents()
    assert w.hover_label.width() >= w.hover_label.least_width() and w.game.turn_label.maximumWidth() > 1000
    # a right click drops the unit: the verdict goes with it
    QTest.mouseClick(w.canvas.viewport(), Qt.MouseButton.RightButton)
    assert w.verdict.overlay is None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_grid_verdict_reads_whole(qtbot: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    w = grid_window(qtbot, tmp_path, size, ("E3-X1", "E4-V4"))
    w.turns.set_playing(True)
    grid_hover(w, "E6-Y4", click=True)
    grid_hover(w, "E4-X4")
    ov = w.adjudicate.overlay
    assert ov is not None and ov.ok is False
    assert_shown_whole(w.statusBar(), ov.short())
    assert ov.message in w.verdict.view.toPlainText()
    w.grab().save(str(tmp_path / f"verdict-grid-{size[0]}x{size[1]}.png"))


class LayoutRequests(QObject):
    """Counts the layout requests one widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def test_verdicts_on_every_hover_lay_out_nothing_once_the_fields_have_yielded(qtbot: Any, tmp_path: Path) -> None:
    """A new verdict per hovered territory narrows the permanent fields at
    most as far as the longest needs; they never widen while a message
    shows, so hovering on lays the window out no more."""
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=(1366, 768))
    w.set_mode("railoptions")
    w.select_unit("ger_inf")
    tids = [t for t in w.scenario.map.territories if w.canvas.label_point(t) is not None]
    for t in tids:  # a first sweep: the fields give up what the longest verdict needs
        point_at(w, t)
    spy = LayoutRequests()
    w.installEventFilter(spy)
    messages = set()
    for t in tids:
        point_at(w, t)
        messages.add(w.statusBar().currentMessage())
    w.removeEventFilter(spy)
    assert len(messages) > 5
    assert spy.count == 0
