"""A fortified unit is drawn so (issue 16, "Fortification: a unit that does
not move during its side's turn is fortified at the end of that turn and
drawn so; moving removes it")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor
from window_kit import open_map

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def _dark_on_top_edge(img: Any, size: int) -> int:
    y = img.height() - size + 1  # counters sit bottom-left in their image
    return sum(1 for x in range(size) if QColor(img.pixel(x, y)).lightness() < 60)


def test_end_of_turn_fortifies_the_units_that_stayed_and_the_counter_shows_it(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "acw.json"
    path.write_bytes((ROOT / "maps" / "acw_short_campaign.json").read_bytes())
    w = open_map(qtbot, tmp_path, path, size=None)
    s = w.document.scenario
    union = [u for u in s.units if u.side == s.sides[0].id]
    assert not any(u.props.get("fortified") for u in union)
    assert w.turns.end() is None  # the Union ends its move without moving
    fortified = [u for u in union if u.props.get("fortified")]
    assert fortified, "no unit was fortified"
    r = w.canvas.renderer()
    size = 40
    u = fortified[0]
    drawn = r.counter_sprite(u, 1, size)
    u.props["fortified"] = False
    plain = r.counter_sprite(u, 1, size)
    u.props["fortified"] = True
    assert _dark_on_top_edge(drawn, size) >= size // 2 > _dark_on_top_edge(plain, size)
