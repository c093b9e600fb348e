"""The Combat dock opens with its orders above the fold: at 1366x768 and
1280x820 the Resolve button (Battle) and the Buy button (Reinforcements)
lie inside the part of the dock that shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from system_parts import combat
from window_kit import open_map

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", [(1366, 768), (1280, 820)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_combat_docks_buttons_are_above_its_fold(qtbot: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "acw_short_campaign.json", size=size)
    combat(w).dock.raise_()
    p = combat(w)
    for tab, button in ((0, p.resolve_btn), (1, p.reinforcements.buy_btn)):
        p.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(lambda b=button: b.isVisible() and p.minimumHeight() > 0, timeout=3000)
        QApplication.processEvents()
        qtbot.wait(20)
        bottom = button.mapTo(p, button.rect().bottomLeft()).y()
        assert 0 < bottom <= p.height(), f"{button.text()} at {bottom} in a dock showing {p.height()} px"
    w.grab().save(str(tmp_path / f"combat-{size[0]}x{size[1]}.png"))
