"""Every dock tab title reads whole at 1280x820 and 1366x768 (issue 18: the
territory window's tabbed docks cut their titles short at 1366 pixels).
Tabbed docks on the right run their tabs down the window's edge, so a
title's room is the window's height, not a share of the dock's width."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from layout_kit import cut_tabs, tab_bars
from window_kit import open_map

from app.gui.main_window import MainWindow
from app.gui.territory import TerritoryWindow

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", [(1280, 820), (1366, 768)])
@pytest.mark.parametrize("cls, sample", [(TerritoryWindow, "aa_rail_options.json"),
                                         (TerritoryWindow, "railroad_module_europe.json"),
                                         (MainWindow, "acw_short_campaign.json"),
                                         (MainWindow, "cwol_mobile_columbus.json")])
def test_no_dock_tab_title_is_cut_short(qtbot: Any, tmp_path: Path, cls: Any, sample: str,
                                        size: tuple[int, int]) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, size=size)
    assert isinstance(w, cls)
    # the mode that opens a bottom dock too (rail plan; a rules preview)
    if isinstance(w, TerritoryWindow):
        w.set_mode("railplan")
    else:
        w.set_tool("adjudicate")
    qtbot.wait(10)
    bars = tab_bars(w, docks_only=False)
    assert bars, "no tabbed docks"
    assert not cut_tabs(bars), f"{cls.__name__} {size}: {cut_tabs(bars)}"
