"""The Designer and Game Master layouts (``app/gui/layouts.py``) at 1366x768
and 1280x820: an ACW game with a combat in play, a Rail Options territory
game and a designer's view, each measured in the real window -- the map
keeps at least 60 % of the window's area, every dock title and tab title
that shows reads whole, the Combat dock's buttons and the journal's rows
show without scrolling or cutting, the Verdict dock shows.  The layouts
follow the game, a chosen one stays chosen, and each layout's arrangement
is kept.  Screenshots go to the test's temporary folder (``layout-*.png``)
for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from layout_kit import SIZE_IDS, SIZES, check, cut_titles, in_view, pump, showing
from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtWidgets import QAbstractButton
from system_parts import combat, plan, rail
from test_combat_panel import choose, window, worked
from window_kit import open_map

from app.gui.layouts import COLUMN_WIDTH, DESIGNER, GAME_MASTER
from app.gui.main_window import MainWindow
from app.gui.plan_orders import start_plan
from engine.rules.rail_options import RailOptionsAdjudicator

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def grid_window(qtbot: Any, tmp_path: Path, scenario: Any, size: tuple[int, int]) -> MainWindow:
    return window(qtbot, tmp_path, scenario, None, size)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_an_acw_game_with_a_combat_in_play_in_the_game_masters_layout(qtbot: Any, tmp_path: Path,
                                                                       size: tuple[int, int]) -> None:
    w = grid_window(qtbot, tmp_path, worked(), size)
    assert w.layouts.current == DESIGNER  # not played yet: the map is being set up
    w.game.act_play.trigger()  # Game > Play as a Game
    w.set_tool("adjudicate")
    pump()
    assert w.layouts.current == GAME_MASTER
    p = combat(w)
    combat(w).dock.raise_()
    choose(p.attack_box, "0613 \u2192 0714")
    p.time_edit.setText("9:51:45")
    p.resolve_btn.click()  # the worked example: the attackers win, a retreat is owed
    assert len(w.turns.game().journal) == 1
    pump()
    tag = f"acw-gm-{size[0]}x{size[1]}"
    check(w, tag, tmp_path)
    shown = showing(w)
    assert combat(w).dock in shown and w.dock_verdict in shown
    p.tabs.setCurrentIndex(0)
    pump()
    assert in_view(p.resolve_btn, w), f"{tag}: Resolve is below the Combat dock's fold"
    p.tabs.setCurrentIndex(1)
    pump()
    for button in (p.reinforcements.post_btn, p.reinforcements.buy_btn):
        assert in_view(button, w), f"{tag}: {button.text()} is below the Combat dock's fold"
    check(w, tag + "-reinforcements", tmp_path)
    # the journal, a tab beside the Verdict: its row reads whole, wrapped to the dock's width, the whole
    # text in its tooltip too
    w.game.dock_journal.raise_()
    pump()
    assert w.game.dock_journal in showing(w) and not cut_titles(w)
    tree = w.game.journal_panel.tree
    item = w.game.journal_panel.entry_item(1)
    assert item is not None
    text = item.text(0)
    fm = tree.fontMetrics()
    for width in (COLUMN_WIDTH, 290):  # as laid out, and the column dragged narrower: the row wraps
        w.resizeDocks([w.game.dock_journal], [width], Qt.Orientation.Horizontal)
        pump()
        rect = tree.visualItemRect(item)
        need = fm.boundingRect(QRect(0, 0, rect.width() - 8, 10_000), int(Qt.TextFlag.TextWordWrap), text).height()
        assert rect.right() <= tree.viewport().width() and rect.height() >= need, \
            f"{tag}: journal row {rect.getRect()} for {need} px of {text!r}"
    assert fm.horizontalAdvance(text) > rect.width() - 8 and rect.height() >= 2 * fm.height(), "not wrapped"
    assert item.toolTip(0).startswith(text)
    # the odds plot: a tab of the same place, in front when Adjudicate is chosen again
    w.set_tool("brush")
    w.set_tool("adjudicate")
    pump()
    assert w.dock_preview in showing(w) and w.dock_preview.widget().chart.height() >= 160
    check(w, tag + "-odds", tmp_path)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("mode", ["railoptions", "railplan", "station", "paint"])
def test_a_rail_options_game_in_the_game_masters_layout(qtbot: Any, tmp_path: Path, size: tuple[int, int],
                                                        mode: str) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=size)
    w.game.act_play.trigger()
    pump()
    assert w.layouts.current == GAME_MASTER
    w.set_mode(mode)
    pump()
    if mode == "railoptions":
        w.select_unit("ger_inf")
        verdict = RailOptionsAdjudicator(w.scenario).judge("ger_inf", "russia")
        w.show_verdict(verdict.allowed, verdict.reason)
    check(w, f"rail-gm-{mode}-{size[0]}x{size[1]}", tmp_path)
    assert w.dock_verdict in showing(w)
    if mode == "railoptions":
        assert w.verdict.overlay is not None and w.verdict.overlay.message == verdict.reason
        nations = rail(w).options_panel.nations
        view = nations.viewport().rect()
        for i in range(nations.rowCount()):  # every nation's row whole, none cut by the table's edge
            row = nations.visualRect(nations.model().index(i, 0))
            assert view.contains(row), f"the nations' row {i} shows cut ({row.bottom()} > {view.bottom()})"
    mode_dock = {"railplan": plan(w).dock_plan, "station": rail(w).dock_rail_tools, "paint": w.dock_paint}.get(mode)
    assert mode_dock is None or mode_dock in showing(w), f"{mode}: its dock is behind another tab"
    if mode == "railplan":
        assert in_view(plan(w).plan_panel.clear, w) and in_view(plan(w).plan_panel.chart, w)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("sample, tool", [("gitm_allied.json", "brush"), ("acw_short_campaign.json", "brush"),
                                          ("acw_short_campaign.json", "adjudicate"),
                                          ("aa_rail_options.json", "paint"), ("aa_rail_options.json", "railplan")])
def test_a_designers_view(qtbot: Any, tmp_path: Path, size: tuple[int, int], sample: str, tool: str) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, size=size)
    assert w.layouts.current == DESIGNER
    (w.set_tool if isinstance(w, MainWindow) else w.set_mode)(tool)
    pump()
    check(w, f"design-{Path(sample).stem}-{tool}-{size[0]}x{size[1]}", tmp_path)
    if tool in ("paint", "railplan"):
        assert (w.dock_paint if tool == "paint" else plan(w).dock_plan) in showing(w)
    if isinstance(w, MainWindow):
        assert w.dock_palette in showing(w) or tool == "adjudicate"
        buttons = [b for b in w.tool_palette.findChildren(QAbstractButton) if b.text() == "Adjudicate"]
        assert buttons and (tool == "adjudicate" or in_view(buttons[0], w))
        if tool == "adjudicate":
            assert w.dock_preview in showing(w) and w.dock_verdict in showing(w)


def test_a_chosen_layout_stays_and_each_layout_keeps_its_arrangement(qtbot: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "acw_short_campaign.json", settings=settings)
    assert w.layouts.current == DESIGNER and w.layouts.follow
    w.turns.set_playing(True)  # an order that starts play: the layout stays, the map does not move
    pump()
    assert w.layouts.current == DESIGNER
    w.turns.set_playing(False)
    w.game.act_play.trigger()  # Game > Play as a Game
    pump()
    assert w.layouts.current == GAME_MASTER and w.layouts.actions[GAME_MASTER].isChecked()
    w.dock_legend.close()  # the person's own arrangement of the Game Master layout
    w.layouts.choose(DESIGNER)
    pump()
    assert w.layouts.current == DESIGNER and not w.layouts.follow and w.dock_palette.isVisible()
    assert w.dock_legend.isVisible()  # the Designer layout's own arrangement
    w.game.act_play.trigger()
    w.game.act_play.trigger()
    pump()
    assert w.layouts.current == DESIGNER  # chosen: the game does not change it
    w.layouts.choose(GAME_MASTER)
    pump()
    assert not w.dock_legend.isVisible() and not w.dock_palette.isVisible()
    w.close()
    again = open_map(qtbot, tmp_path, ROOT / "maps" / "acw_short_campaign.json", settings=settings)
    pump()
    assert again.layouts.current == GAME_MASTER and not again.layouts.follow
    assert not again.dock_legend.isVisible()  # kept across windows
    again.layouts.reset()
    pump()
    assert again.dock_legend.isVisible() or again.dock_legend in again.tabifiedDockWidgets(again.dock_journal)
    assert not again.dock_legend.isHidden()
    again.layouts.set_follow(True)
    pump()
    assert again.layouts.current == DESIGNER  # this file's game has not begun


def test_the_layout_menu_lists_the_layouts(qtbot: Any, tmp_path: Path) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=None)
    texts = [a.text().replace("&", "") for a in w.layouts.actions.values()]
    assert texts == ["Designer", "Game Master"]
    assert w.layouts.act_follow is not None and w.layouts.act_follow.isChecked()
    assert w.layouts.act_reset is not None
    with pytest.raises(ValueError, match="no layout 'cinema'"):
        w.layouts.choose("cinema")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_planning_orders_in_the_game_masters_layout(qtbot: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    w = grid_window(qtbot, tmp_path, worked(), size)
    w.layouts.choose(GAME_MASTER)
    pump()
    assert start_plan(w, "union") is not None
    pump()
    assert w.game.orders_plan.dock in showing(w)
    check(w, f"acw-plan-{size[0]}x{size[1]}", tmp_path)
    panel = w.game.orders_plan.panel
    for button in (panel.up, panel.down, panel.remove, panel.save, panel.stop):
        assert in_view(button, w), button.text()


@pytest.mark.parametrize("sample", ["gitm_allied.json", "aa_rail_options.json"])
@pytest.mark.parametrize("layout", [DESIGNER, GAME_MASTER])
def test_the_underlay_dock_scrolls_in_its_place(qtbot: Any, tmp_path: Path, sample: str, layout: str) -> None:
    """The Underlay dock (shown for a map with a scan) is taller than a
    group can be at 1366x768: its panel scrolls, the other group keeps
    its tabs' titles whole."""
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, size=(1366, 768))
    w.layouts.choose(layout)
    pump()
    w.dock_underlay.show()
    w.dock_underlay.raise_()
    pump()
    assert w.dock_underlay in showing(w)
    assert w.underlay_panel.parentWidget() is not None and w.dock_underlay.widget() is not w.underlay_panel
    check(w, f"underlay-{Path(sample).stem}-{layout}", tmp_path)
