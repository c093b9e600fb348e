"""Module I rail given order by order in a game: a side's rail orders of the
round are routed together (as ``adjutant railplan`` routes a plan), and a
sharing group's capacity is one pool for the round, spent across its
members' turns (docs/rules/railroads.md, decision 4; docs/turns.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import load_any, save_any
from engine.territory import TerritoryUnit
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]
EUROPE = ROOT / "maps" / "railroad_module_europe.json"
SIX = [("ger_inf_dk", "Belarus"), ("ger_inf_bh", "Belarus"), ("ger_art_fr", "Belarus"),
       ("ger_inf_fr", "Ukraine"), ("ger_arm_fr", "Ukraine"), ("ger_inf_at", "Ukraine")]
"""The document's six German orders ("Germany Sends Reinforcements to the
Russian Front"), in the order the text names them."""


def noncombat_game(extra: list[TerritoryUnit] | None = None) -> Game:
    s = load_any(EUROPE)
    s.units.extend(extra or [])
    g = Game(s)
    g.end_phase()
    assert g.turn.side == "germany" and g.turn.phase == "noncombat"
    return g


def route_from(entry: Any, start: str) -> list[str]:
    (found,) = [r for r in entry.verdict["verdict"]["routes"] if r["from"] == start]
    return list(found["route"])


def test_the_documents_six_orders_given_one_by_one_are_all_carried_out() -> None:
    g = noncombat_game()
    entries = [g.give({"unit": u, "to": to}) for u, to in SIX]
    assert [e.kind for e in entries] == ["order"] * 6, entries[-1].reasons
    assert entries[-1].reasons[0].startswith("Routed with the 5 units Germany railed earlier this round: "
                                             "All 5 orders fit (6 units).")
    assert route_from(entries[-1], "Denmark") == ["Denmark", "Prussia", "Belarus"]
    s = g.scenario
    assert [s.unit(u).at for u, _ in SIX] == ["belarus"] * 3 + ["ukraine"] * 3
    # the turn state holds the routing of all six, not six routings made each alone
    used = {k: v for k, v in g.turn.used.items() if k.startswith("rail:")}
    assert used['rail:["germany","belarus"]'] == 3 and used['rail:["germany","eastern_poland"]'] == 2
    assert used['rail:["germany","prussia"]'] == 1 and used['rail:["germany","ukraine"]'] == 3
    assert g.turn.used['rail-order:["germany","france","ukraine"]'] == 2
    # a 7th unit to Belarus finds no room
    e = g.give({"nation": "germany", "from": "germany", "to": "Belarus", "count": 1})
    assert e.kind == "refused"


def test_undo_gives_back_the_rounds_rail() -> None:
    g = noncombat_game()
    before = dict(g.turn.used)
    for u, to in SIX:
        g.give({"unit": u, "to": to})
    after_five = None
    for i in range(6):
        if i == 1:
            after_five = dict(g.turn.used)
        g.undo()
    assert g.turn.used == before == {}
    for u, to in SIX[:5]:
        g.give({"unit": u, "to": to})
    assert g.turn.used == after_five


def test_a_sharing_group_spends_one_pool_across_its_turns() -> None:
    extra = TerritoryUnit("ita_inf_it", "italy", "infantry", "italy")
    g = noncombat_game([extra])
    for u, to in SIX:
        assert g.give({"unit": u, "to": to}).kind == "order"
    while g.turn.side != "italy":
        g.end_turn()
    g.end_phase()
    assert g.turn.used['rail:["germany","ukraine"]'] == 3  # Germany's use lasts the round
    e = g.give({"unit": "ita_art_it", "to": "Ukraine"})
    assert e.kind == "order", e.reasons  # Ukraine: 4 of 4, as in the document
    kept = dict(g.turn.used)
    e = g.give({"unit": "ita_inf_it", "to": "Ukraine"})
    assert e.kind == "refused" and g.turn.used == kept  # a refusal spends nothing
    assert e.reasons[0].startswith("Refused: Italy infantry ita_inf_it from Italy to Ukraine: it cannot be routed "
                                   "together with the 1 unit Italy railed earlier this round: No routing fits all "
                                   "2 units")
    e = g.give({"unit": "ita_inf_it", "to": "Belarus"})
    assert e.kind == "refused"
    assert "Belarus's rail capacity is spent this round (3 of 3, by Germany)" in e.reasons[0]
    assert g.give({"unit": "ita_inf_gr", "to": "Romania"}).kind == "order"
    while g.turn.side != "germany":
        g.end_turn()
    assert g.turn.turn == 4 and g.turn.used == {}  # a new round, a new pool


def test_a_nation_outside_the_group_has_its_own_pool() -> None:
    g = noncombat_game()
    for u, to in SIX:
        g.give({"unit": u, "to": to})
    g.end_turn()
    assert g.turn.side == "ussr"
    kept = dict(g.turn.used)
    g.end_phase()
    e = g.give({"unit": "sov_inf_ru", "to": "Belarus"})
    assert e.kind == "refused" and "held by Germany" in e.reasons[0]  # not "spent": the Soviets never share it
    assert g.turn.used == kept


def test_a_count_order_does_not_rail_a_unit_twice() -> None:
    g = noncombat_game()
    assert g.give({"unit": "ger_inf_dk", "to": "Prussia"}).kind == "order"
    e = g.give({"nation": "germany", "from": "prussia", "to": "Belarus", "count": 1})
    assert e.kind == "refused" and "only 0 units of Germany that have not moved stand in Prussia" in e.reasons[0]


def test_the_six_orders_one_by_one_through_adjutant_orders(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "europe.json"
    save_any(load_any(EUROPE), str(f))
    assert main(["end-turn", str(f), "--phase"]) == 0
    for u, to in SIX:
        o = tmp_path / "order.json"
        o.write_text(json.dumps([{"unit": u, "to": to}]), encoding="utf-8")
        capsys.readouterr()
        code = main(["orders", str(f), "--orders", str(o), "--json"])
        assert code == 0, capsys.readouterr().out
    out = json.loads(capsys.readouterr().out)
    routes = out["entries"][0]["verdict"]["verdict"]["routes"]
    assert next(r["route"] for r in routes if r["from"] == "Denmark") == ["Denmark", "Prussia", "Belarus"]
    s = load_any(str(f))
    assert [s.unit(u).at for u, _ in SIX] == ["belarus"] * 3 + ["ukraine"] * 3
