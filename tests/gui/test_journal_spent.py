"""A unit that has acted this turn is drawn spent (issue 15, item 8): its
counter dimmed on the grid map, read from the game's turn state
(:func:`app.gui.render.spent.spent_units`), and fresh again when the next
side's move begins."""

from __future__ import annotations

import pytest
from test_journal_editor import game_window, order_by_mouse

from app.gui.render.spent import spent_units

pytestmark = pytest.mark.gui


def test_a_unit_that_acted_is_drawn_spent(qtbot, tmp_path) -> None:
    w, _path = game_window(qtbot, tmp_path)
    s = w.document.scenario
    assert spent_units(s) == frozenset()
    order_by_mouse(w, "US-14", "0410")
    w.set_tool("brush")  # no preview overlay: only the counters are drawn over the map
    w.state.select_unit(None)
    assert spent_units(s) == {"US-14"}
    top = next(u for u in s.units_at(s.unit("US-14").at))
    assert top.id == "US-14"  # the counter drawn for the stack is US-14's

    def counter_pixel():
        x, y = w.canvas.layout().center(s.unit("US-14").at)
        return w.canvas.grab().toImage().pixelColor(w.canvas.map_to_view(x, y).toPoint())

    w.resize(1280, 820)
    w.grab().save(str(tmp_path / "spent.png"))
    w.resize(1100, 760)  # the window's size (and so the zoom) stays put from here on
    spent = counter_pixel()
    w.game.act_end_turn.trigger()  # a new side's move: nobody has acted
    assert spent_units(s) == frozenset()
    fresh = counter_pixel()
    assert spent != fresh  # the same counter in the same place, dimmed while spent
    w.document.undo_stack.undo()
    assert counter_pixel() == spent
