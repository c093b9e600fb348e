"""The scripted ACW campaign (``scripts/acw_campaign.py``: 12 turns with
combats, the cavalry's withdrawals, retreats, reinforcements on both sides
and a Rebel victory) played again through the editor's own controls -- the
adjudicate tool's clicks for the moves, the Combat dock for attacks,
withdrawals, retreats (a click on the map), the Rebel post and purchases,
Game > End Turn -- gives the same journal, entry for entry, as the
command-line run (whose verdicts also name the orders file each order came
from), and the window shows the victory.

The orders are read from the CLI run's journal; each is given by the
control a person would use, never by calling the engine."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from system_parts import combat
from test_combat_panel import window
from test_editor_tools import click

from engine.io import load_any

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"


def cli_campaign(played: tuple[str, Path]) -> dict[str, Any]:
    """The game data of the scripted game run through ``adjutant`` (as the
    script does: the ``acw_cli_campaign`` fixture)."""
    game: dict[str, Any] = json.loads(played[1].read_text(encoding="utf-8"))["state"]["game"]
    return game


def move_by_mouse(w: Any, unit_id: str, to: str) -> None:
    """Right-click to drop any selection, click the unit's hex until it is
    the one selected, then click the hex it goes to."""
    s = w.document.scenario
    cell = s.unit(unit_id).at
    click(w, cell, "right")
    for _ in range(6):
        if w.state.selected_unit == unit_id:
            break
        click(w, cell)
    assert w.state.selected_unit == unit_id
    n = len(w.turns.game().journal)
    click(w, s.map.parse_label(to))
    assert len(w.turns.game().journal) == n + 1, w.statusBar().currentMessage()


def choose_attack(p: Any, attack: str, defend: str) -> None:
    for i in range(p.attack_box.count()):
        c = p.attack_box.itemData(i)
        if (c.attack, c.defend) == (attack, defend):
            p.attack_box.setCurrentIndex(i)
            return
    raise AssertionError(f"no attack {attack} -> {defend} in the panel: "
                         f"{[p.attack_box.itemText(i) for i in range(p.attack_box.count())]}")


def give_in_editor(w: Any, entries: list[dict[str, Any]], k: int) -> None:
    """Give entry ``k``'s order with the control a person would use."""
    p = combat(w)
    o = entries[k]["order"]
    if "attack" in o:
        choose_attack(p, o["attack"], o["defend"])
        p.time_edit.setText(o["time"])
        p.resolve_btn.click()
    elif "withdraw" in o or "stand" in o:
        s = w.document.scenario
        cav = s.unit(o.get("withdraw") or o["stand"])
        # the attack on the cavalry's hex shows its choice
        on = [p.attack_box.itemData(i) for i in range(p.attack_box.count())
              if p.attack_box.itemData(i).defend == s.map.label(cav.at)]
        assert on, f"no attack on {cav.id}'s hex in the panel"
        choose_attack(p, on[0].attack, on[0].defend)
        assert p.cavalry_group.isVisible()
        if "withdraw" in o:
            p.withdraw_to.setCurrentIndex(p.withdraw_to.findText(o["to"]))
            p.withdraw_btn.click()
        else:
            p.stand_btn.click()
    elif "retreat" in o:
        assert p.retreat_group.isVisible()
        click(w, w.document.scenario.map.parse_label(o["to"]))
    elif "reinforcement_post" in o:
        p.reinforcements.post_time.setText(o["reinforcement_post"])
        p.reinforcements.post_btn.click()
    elif "new_unit" in o:
        p.reinforcements.new_id.setText(o["new_unit"])
        p.reinforcements.new_type.setCurrentText(o["type"])
        p.reinforcements.new_at.setText(o["at"])
        p.reinforcements.new_btn.click()
    elif "factors" in o:
        p.reinforcements.buy_unit.setCurrentIndex(p.reinforcements.buy_unit.findData(o["unit"]))
        p.reinforcements.buy_factors.setValue(int(o["factors"]))
        p.reinforcements.buy_btn.click()
    else:
        move_by_mouse(w, o["unit"], o["to"])


def comparable(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as the two runs must agree on it: the CLI's orders came from
    orders files, whose hash and sender its verdicts record (``source``), so
    its hashes differ from the editor's, whose orders a person gave (and
    each entry's salt is its own)."""
    out = {k: v for k, v in entry.items() if k not in ("hash", "prev", "salt")}
    if isinstance(out.get("verdict"), dict):
        out["verdict"] = {k: v for k, v in out["verdict"].items() if k != "source"}
    return out


def play_in_editor(qtbot: Any, tmp_path: Path, entries: list[dict[str, Any]], last_turn: int) -> Any:
    """The CLI run's entries up to the end of turn ``last_turn`` given in a
    window by its controls, each compared with the CLI's entry as it comes;
    the window."""
    path = tmp_path / "editor-game.json"
    shutil.copyfile(SAMPLE, path)
    w = window(qtbot, tmp_path, load_any(str(path)), str(path))
    w.set_tool("adjudicate")
    w.game.act_play.trigger()
    for k, e in enumerate(entries):
        if e["turn"] > last_turn:
            break
        n = len(w.turns.game().journal)
        if e["kind"] == "order":
            give_in_editor(w, entries, k)
        elif e["kind"] == "end_turn":
            w.game.act_end_turn.trigger()
        else:
            continue  # an effect: written by End Turn with the end_turn entry after it
        journal = w.turns.game().journal
        assert len(journal) > n, f"entry {k + 1} ({e['summary']}) not given: {w.statusBar().currentMessage()}"
        for i in range(n, len(journal)):
            assert comparable(journal[i].to_data()) == comparable(entries[i]), f"entry {i + 1}: {entries[i]['summary']}"
    return w


def test_the_campaigns_first_turns_played_in_the_editor_give_the_cli_journal(qtbot, tmp_path, acw_cli_campaign) -> None:
    entries = cli_campaign(acw_cli_campaign)["journal"]["entries"]
    w = play_in_editor(qtbot, tmp_path, entries, 3)
    given = len(w.turns.game().journal)
    assert given == sum(1 for e in entries if e["turn"] <= 3)
    assert {e["kind"] for e in entries[:given]} >= {"order", "effect", "end_turn"}


@pytest.mark.slow
def test_the_campaign_played_in_the_editor_gives_the_cli_journal(qtbot, tmp_path, acw_cli_campaign) -> None:
    by_cli = cli_campaign(acw_cli_campaign)
    entries = by_cli["journal"]["entries"]
    kinds = {next((k for k in ("attack", "withdraw", "stand", "retreat", "reinforcement_post", "factors")
                   if k in e["order"]), "move") for e in entries if e["kind"] == "order"}
    assert kinds >= {"attack", "withdraw", "retreat", "reinforcement_post", "factors", "move"}
    assert {e["side"] for e in entries if "factors" in e["order"]} == {"union", "rebel"}
    assert max(e["turn"] for e in entries) >= 12

    w = play_in_editor(qtbot, tmp_path, entries, max(e["turn"] for e in entries))
    assert w.save()
    editor = json.loads((tmp_path / "editor-game.json").read_text(encoding="utf-8"))["state"]["game"]
    assert [comparable(e) for e in editor["journal"]["entries"]] == [comparable(e) for e in entries]
    assert editor["turn"] == by_cli["turn"]
    over = w.turns.outcome()
    assert over is not None and "minor Rebel victory" in over
    assert "game over" in w.windowTitle() and "minor Rebel victory" in w.game.turn_label.text()
    assert any("VICTORY" in e["summary"] for e in entries if e["kind"] == "effect")
    assert not combat(w).resolve_btn.isEnabled()
