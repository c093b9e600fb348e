"""Turns and the journal in the editor (issue 15, items 4 and 8): the
adjudicate tool's clicks are orders of the game, End Turn, one undo step per
journal step, spent counters, the Journal dock's replay and branches.

The ACW sample (``maps/acw_short_campaign.json``) is played through the real
window (mouse events on the canvas, offscreen) and through ``adjutant
orders`` / ``adjutant end-turn`` on a copy of the same file: the journals and
the files must be the same."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtTest import QTest
from test_acw_campaign_editor import comparable
from test_editor_tools import click, open_window

from app.cli import main as cli
from app.gui.systems import previews_for
from engine.io import dumps_scenario, load_scenario
from engine.turns.journal import Journal

pytestmark = pytest.mark.gui

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json"
ORDERS = [{"unit": "US-14", "to": "0410"}, {"unit": "US-13", "to": "0411"}]


def game_window(qtbot, tmp_path: Path, name: str = "editor.json"):
    path = tmp_path / name
    shutil.copy(SAMPLE, path)
    w = open_window(qtbot, tmp_path, load_scenario(path), str(path), previews=previews_for())
    w.set_tool("adjudicate")
    assert not w.turns.playing() and w.game.turn_label.text() == ""  # a scenario being set up: moves are edits
    w.game.act_play.trigger()
    assert w.turns.playing()
    assert w.adjudicate.preview is not None and "ACW" in w.adjudicate.preview.name
    return w, path


def select(w, unit_id: str) -> None:
    """Click the unit's cell until it is the selected one of its stack."""
    cell = w.document.scenario.unit(unit_id).at
    for _ in range(5):
        if w.state.selected_unit == unit_id:
            return
        click(w, cell)
    assert w.state.selected_unit == unit_id


def order_by_mouse(w, unit_id: str, to: str) -> None:
    select(w, unit_id)
    target = w.document.scenario.map.parse_label(to)
    QTest.mouseMove(w.canvas.viewport())
    click(w, target)


def test_the_editor_and_the_cli_make_the_same_journal_and_file(qtbot, tmp_path) -> None:
    w, editor_file = game_window(qtbot, tmp_path)
    assert "Turn 1 · Union to move · movement phase" in w.windowTitle()
    assert w.game.turn_label.text() == "Turn 1 · Union to move · movement phase"
    for o in ORDERS:
        order_by_mouse(w, o["unit"], o["to"])
    assert w.document.undo_stack.count() == 2
    w.game.act_end_turn.trigger()
    assert w.game.turn_label.text() == "Turn 1 · Rebels to move · movement phase"
    assert "Rebels to move" in w.windowTitle()
    w.save()

    cli_file = tmp_path / "cli.json"
    shutil.copy(SAMPLE, cli_file)
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps(ORDERS), encoding="utf-8")
    assert cli(["orders", str(cli_file), "--orders", str(orders)]) == 0
    assert cli(["end-turn", str(cli_file)]) == 0

    editor = json.loads(editor_file.read_text(encoding="utf-8"))["state"]["game"]
    by_cli = json.loads(cli_file.read_text(encoding="utf-8"))["state"]["game"]
    # the same entries but for the orders file each CLI order names (its hash
    # and sender, so the hashes differ), and the same turn state
    assert [comparable(e) for e in editor["journal"]["entries"]] == \
        [comparable(e) for e in by_cli["journal"]["entries"]]
    assert editor["turn"] == by_cli["turn"] and editor["system"] == by_cli["system"]
    assert all(e["verdict"]["source"]["file"] for e in by_cli["journal"]["entries"] if e["kind"] == "order")
    journal = Journal.from_data(editor["journal"])
    assert [e.kind for e in journal] == ["order", "order", "effect", "end_turn"]
    assert load_scenario(editor_file).units == load_scenario(cli_file).units


def test_undo_of_every_journal_step_restores_the_state_and_the_file(qtbot, tmp_path) -> None:
    w, path = game_window(qtbot, tmp_path)
    doc = w.document
    texts = [doc.text()]
    assert texts[0] == dumps_scenario(load_scenario(path))
    for o in ORDERS:
        order_by_mouse(w, o["unit"], o["to"])
        texts.append(doc.text())
    w.game.act_end_turn.trigger()
    texts.append(doc.text())
    assert len(set(texts)) == len(texts)
    for k in range(len(texts) - 1, 0, -1):
        doc.undo_stack.undo()
        assert doc.text() == texts[k - 1], f"undo of step {k}"
        assert panel_entries(w) == k - 1 if k < len(texts) - 1 else panel_entries(w) == 2
    assert "game" not in doc.scenario.state
    assert w.game.turn_label.text() == "Turn 1 · Union to move · movement phase"
    for k in range(1, len(texts)):  # redo gives the same steps again
        doc.undo_stack.redo()
        assert doc.text() == texts[k], f"redo of step {k}"


def panel_entries(w) -> int:
    """How many journal entries the Journal dock lists."""
    tree = w.game.journal_panel.tree
    return sum(tree.topLevelItem(i).childCount() for i in range(tree.topLevelItemCount()))


def test_a_refused_order_changes_nothing_and_says_why(qtbot, tmp_path) -> None:
    w, _path = game_window(qtbot, tmp_path)
    order_by_mouse(w, "US-14", "0410")
    text = w.document.text()
    ok, why = w.turns.give({"unit": "US-14", "to": "0510"})
    assert not ok and "already moved this turn" in why
    rebel = next(u.id for u in w.document.scenario.units if u.side == "rebel")
    ok, why = w.turns.give({"unit": rebel, "to": "0101"})
    assert not ok and "Union's move" in why
    ok, why = w.turns.give({"unit": "nobody", "to": "0101"})
    assert not ok and "nobody" in why
    assert w.document.text() == text and w.document.undo_stack.count() == 1


def test_journal_dock_replays_read_only_and_branches(qtbot, tmp_path) -> None:
    w, path = game_window(qtbot, tmp_path)
    for o in ORDERS:
        order_by_mouse(w, o["unit"], o["to"])
    w.game.act_end_turn.trigger()
    panel = w.game.journal_panel
    doc = w.document
    assert panel.tree.topLevelItem(0).text(0) == "Turn 1"
    assert panel.tree.topLevelItem(0).child(0).text(0).startswith("1. US-14 to 0410: carried out")
    live = doc.text()
    panel.tree.setCurrentItem(panel.entry_item(1))
    assert panel.replaying == 1
    shown = w.canvas.scenario()
    assert shown is not doc.scenario
    assert shown.map.label(shown.unit("US-14").at) == "0410"
    assert shown.map.label(shown.unit("US-13").at) == doc.scenario.map.label(load_scenario(path).unit("US-13").at)
    assert "replay after entry 1 (read-only)" in w.game.turn_label.text()
    n = doc.undo_stack.count()
    click(w, shown.unit("US-13").at)  # read-only: a click edits nothing
    assert doc.undo_stack.count() == n and doc.text() == live
    w.game.act_journal_back.trigger()
    assert panel.replaying == 0
    assert w.canvas.scenario().map.label(w.canvas.scenario().unit("US-14").at) == "0310"
    w.game.act_journal_forward.trigger()
    w.game.act_journal_forward.trigger()
    assert panel.replaying == 2
    w.resize(1280, 820)
    w.game.dock_journal.raise_()
    w.grab().save(str(Path("/tmp") / "h14_journal.png"))
    panel.branch_here()
    branch = w.branch_windows[-1]
    qtbot.addWidget(branch)
    branch.ask_unsaved = lambda: "discard"
    game = branch.turns.game()
    assert game is not None and len(game.journal) == 2
    assert game.branch_of is not None and game.branch_of.entries == 2
    assert game.branch_of.source == str(path)
    assert branch.document.path is None and branch.document.is_modified()
    assert branch.game.journal_panel.tree.topLevelItem(0).text(0).startswith("Branch of ")
    panel.latest.click()
    assert panel.replaying is None and w.canvas.scenario() is doc.scenario and doc.text() == live
    panel.go(1)
    assert panel.replaying == 1
    w.open_file(str(SAMPLE), ask=False)  # another file: shown live and editable
    assert panel.replaying is None and w.canvas.scenario() is doc.scenario
    assert not w.turns.playing() and w.game.turn_label.text() == ""
