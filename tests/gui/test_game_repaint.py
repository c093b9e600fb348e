"""A game step and the Journal dock's replay repaint what changed: the
map's rendered tiles stay (units and places are painted fresh on top of
them every frame), so a step costs the same on any map and at any length of
the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_game_autosave import game_window, order

from engine.io import dumps_any

pytestmark = pytest.mark.gui


def painted(w: Any, qapp: Any) -> int:
    """How many tile renders the canvas had made once it painted what is pending."""
    for _ in range(3):
        qapp.processEvents()
    w.canvas.repaint()
    return int(w.canvas.tile_cache().renders)


def test_a_game_step_renders_no_tile(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    w = game_window(qtbot, tmp_path, 3)
    before = painted(w, qapp)
    assert len(w.canvas.tile_cache()) > 0
    for _ in range(3):
        ok, why = w.turns.give(order(w))
        assert ok, why
        assert painted(w, qapp) == before
    assert w.turns.end() is None
    assert painted(w, qapp) == before
    w.document.undo_stack.undo()
    assert painted(w, qapp) == before


def test_the_journal_replay_shows_each_position_on_the_same_tiles(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    w = game_window(qtbot, tmp_path, 3)
    game = w.turns.game()
    n = len(game.journal)
    before = painted(w, qapp)
    panel = w.game.journal_panel
    panel.go(n - 4)
    for k in range(3):
        assert painted(w, qapp) == before
        shown = w.canvas.scenario()
        assert shown is not w.document.scenario
        assert dumps_any(shown) == dumps_any(game.at(n - 4 - k))  # the units where they were then
        assert w.canvas.renderer().scenario is shown
        panel.step(-1)
    panel.go(None)
    assert painted(w, qapp) == before
    assert w.canvas.scenario() is w.document.scenario and w.canvas.renderer().scenario is w.document.scenario


def test_the_units_list_follows_a_game_step(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    """The units list writes again the rows of the units a step changed."""
    from PySide6.QtCore import Qt

    w = game_window(qtbot, tmp_path, 3)
    o = order(w)
    ok, why = w.turns.give(o)
    assert ok, why
    tree = w.units.tree
    rows = {tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole): tree.topLevelItem(i)
            for i in range(tree.topLevelItemCount())}
    assert rows[o["unit"]].text(4) == o["to"]
    w.document.undo_stack.undo()
    s = w.document.scenario
    assert rows[o["unit"]].text(4) == s.map.label(s.unit(o["unit"]).at) != o["to"]
    assert tree.topLevelItemCount() == len(s.units)


def test_an_order_given_in_the_editor_is_checked_by_the_rules_once(qapp: Any, qtbot: Any, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdict that lets the editor give an order (or refuse it without
    an undo step) is the one the game journals; undo and redo ask again."""
    w = game_window(qtbot, tmp_path, 3)
    game = w.turns.game()
    o = order(w)  # found by checking orders: before counting
    checks: list[Any] = []
    real = type(game.system).check
    monkeypatch.setattr(type(game.system), "check", lambda self, *a: (checks.append(a[1]), real(self, *a))[1])
    ok, why = w.turns.give(o)
    assert ok, why
    assert len(checks) == 1 and game.journal[-1].kind == "order"
    w.document.undo_stack.undo()
    w.document.undo_stack.redo()
    assert len(checks) == 2 and game.journal[-1].kind == "order"


def test_the_journal_dock_lists_the_turns_before_the_last_collapsed(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    """A long journal's dock lays out one row per earlier turn, not one per
    entry: only the last turn is expanded; an entry chosen in an earlier
    turn (a replay step) is shown, its turn expanded."""
    w = game_window(qtbot, tmp_path, 3)
    panel = w.game.journal_panel
    tree = panel.tree
    turns = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert len(turns) >= 3
    assert [t.isExpanded() for t in turns] == [False] * (len(turns) - 1) + [True]
    assert w.turns.end() is None
    qapp.processEvents()
    turns = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert [t.isExpanded() for t in turns] == [False] * (len(turns) - 1) + [True]
    w.document.undo_stack.undo()  # the End Turn taken back: the turn before is the last, open again
    qapp.processEvents()
    turns = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert [t.isExpanded() for t in turns] == [False] * (len(turns) - 1) + [True]
    panel.go(2)
    item = panel.entry_item(2)
    assert tree.currentItem() is item and item.parent().isExpanded()
    panel.go(None)
