"""The game in the territory editor (issue 15, item 8): on the Rail Options
sample, End Phase walks the phases, the Rail Options tool's rail move is an
order of the game (journalled, one undo step, refused in the wrong phase
without changing anything), and the Journal dock lists it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from system_parts import plan
from test_territory_editor import open_window as open_territory_window

pytestmark = pytest.mark.gui

RAIL_OPTIONS = Path(__file__).resolve().parents[2] / "maps" / "aa_rail_options.json"


def test_rail_move_is_a_journalled_order_and_undo_restores_the_file(qtbot, tmp_path) -> None:
    path = tmp_path / "game.json"
    shutil.copy(RAIL_OPTIONS, path)
    w = open_territory_window(qtbot, tmp_path, path)
    w.mode_actions["railoptions"].trigger()
    w.game.act_play.trigger()
    assert w.game.turn_label.text() == "Turn 5 · Germany to move · purchase phase"
    doc = w.document
    original = doc.text()
    w.select_unit("ger_inf")
    assert not w.tools["railoptions"].rail_to("italy")  # a rail move belongs to the noncombat phase
    assert "noncombat phase" in w.statusBar().currentMessage()
    assert doc.text() == original and doc.undo_stack.count() == 0
    w.game.act_end_phase.trigger()
    w.game.act_end_phase.trigger()
    assert w.game.turn_label.text() == "Turn 5 · Germany to move · noncombat phase"
    before = doc.text()
    w.select_unit("ger_inf")
    assert w.tools["railoptions"].rail_to("italy")
    assert doc.scenario.unit("ger_inf").at == "italy"
    game = w.turns.game()
    assert game is not None and game.journal[-1].kind == "order"
    assert game.journal[-1].order == {"unit": "ger_inf", "to": "italy"}
    assert w.game.journal_panel.entry_item(len(game.journal)) is not None
    assert doc.undo_stack.count() == 3
    doc.undo_stack.undo()
    assert doc.text() == before
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.text() == original


MODULE_I = Path(__file__).resolve().parents[2] / "maps" / "railroad_module_europe.json"


def test_the_rail_plans_orders_are_given_to_the_game(qtbot, tmp_path) -> None:
    path = tmp_path / "europe.json"
    shutil.copy(MODULE_I, path)
    w = open_territory_window(qtbot, tmp_path, path)
    doc = w.document
    original = doc.text()
    plan(w).planner.add_orders([{"unit": "ger_inf_dk", "to": "france"}, {"unit": "ger_inf_bh", "to": "france"}])
    assert len(plan(w).planner.orders) == 2
    plan(w).act_give_plan.trigger()  # Module I rail moves belong to the non-combat phase: the first is refused
    assert len(plan(w).planner.orders) == 2 and doc.undo_stack.count() == 0 and doc.text() == original
    assert w.error_dialog is not None
    w.error_dialog.close()
    w.game.act_end_phase.trigger()
    assert w.game.turn_label.text().endswith("noncombat phase")
    plan(w).act_give_plan.trigger()
    assert plan(w).planner.orders == []
    assert doc.scenario.unit("ger_inf_dk").at == "france" and doc.scenario.unit("ger_inf_bh").at == "france"
    game = w.turns.game()
    assert game is not None
    assert [e.order for e in game.journal.entries[-2:]] == [{"unit": "ger_inf_dk", "to": "france"},
                                                          {"unit": "ger_inf_bh", "to": "france"}]
    assert doc.undo_stack.count() == 3  # End Phase and one step per order
    for _ in range(3):
        doc.undo_stack.undo()
    assert doc.text() == original


def test_the_documents_six_orders_given_from_the_rail_plan_and_a_refused_order_stays(qtbot, tmp_path) -> None:
    path = tmp_path / "europe.json"
    shutil.copy(MODULE_I, path)
    w = open_territory_window(qtbot, tmp_path, path)
    doc = w.document
    w.game.act_end_phase.trigger()
    assert w.game.turn_label.text().endswith("noncombat phase")
    six = [("ger_inf_dk", "belarus"), ("ger_inf_bh", "belarus"), ("ger_art_fr", "belarus"),
           ("ger_inf_fr", "ukraine"), ("ger_arm_fr", "ukraine"), ("ger_inf_at", "ukraine")]
    plan(w).planner.add_orders([{"unit": u, "to": to} for u, to in six] + [{"unit": "ita_art_it", "to": "ukraine"}])
    plan(w).act_give_plan.trigger()  # the six are carried out; the seventh (Italy's unit in Germany's move) is refused
    assert w.error_dialog is not None
    w.error_dialog.close()
    assert [o.unit for o in plan(w).planner.orders] == ["ita_art_it"]  # the refused order stays in the plan
    assert [doc.scenario.unit(u).at for u, _ in six] == [to for _, to in six]
    assert doc.scenario.unit("ita_art_it").at == "italy"
    game = w.turns.game()
    assert game is not None and [e.kind for e in game.journal.entries[-6:]] == ["order"] * 6
    routes = game.journal.entries[-1].verdict["verdict"]["routes"]
    assert next(r["route"] for r in routes if r["from"] == "Denmark") == ["Denmark", "Prussia", "Belarus"]
