"""One scripted Rail Options game per option on the imported TripleA Global
1940 map (issue 17): Germany buys and places rail, captures Eastern Poland,
Britain raids, and Germany rails over the new piece the next turn; the
journal replays from the saved file and undoing every entry gives the file
back.  The map is found by tests/conftest.py (``triplea_g40``; skipped,
saying how to provide it, when absent).  Expected values from the rule
document as quoted in docs/rules/rail-options.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.io import load_any, save_any
from engine.io.triplea import parse_game_xml, to_scenario
from engine.territory import TerritoryScenario, TerritoryUnit
from engine.turns.game import Game


@pytest.fixture(scope="module")
def g40(triplea_g40: Path) -> TerritoryScenario:
    return to_scenario(parse_game_xml(triplea_g40.read_bytes(), str(triplea_g40))).scenario


STATIONS = {1: ["germany", "western_germany"], 2: ["germany", "western_germany"], 3: ["germany", "western_germany"],
            4: []}
PIECE = {1: "station", 2: "station", 3: "station", 4: "railroad"}
PLACE_AT = {1: "poland", 2: "poland", 3: "poland", 4: "slovakia_hungary"}
PRICE = {1: 15, 2: 10, 3: 8, 4: 3}  # "Cost: 15 (Rail Station)", "Cost: 10", "Cost: 8", "Cost: 3"
RAID = {  # target, dice, what the document makes of them
    1: ("germany", {"aa": [6], "dice": [1]}, {"damage_before": 0, "damage": 1, "inoperable": False}),
    2: ("western_germany", {"aa": [6], "dice": [2]}, {"destroyed": True}),
    3: ("germany", {"aa": [6, 1], "dice": [2]}, {"shot_down": 1, "damage": 2, "inoperable": False}),
    4: ("western_germany", {"dice": [4]}, {"destroyed": True}),
}


def setup(base: TerritoryScenario, option: int) -> TerritoryScenario:
    s = base.copy()
    s.turn = 3
    s.ruleset.options["rail_options"] = {"option": option}
    for tid in ("germany", "western_germany", "poland", "eastern_poland"):
        t = s.map.territories[tid]
        if option != 3:
            t.features["railroad"] = {}
        if tid in STATIONS[option] or (tid == "eastern_poland" and option != 4):
            t.features["rail_station"] = {}
    s.units = [TerritoryUnit("g1", "germans", "infantry", "germany")]
    s.state["rail_options"] = {"income": {"germans": 70}, "ipcs": {"germans": 40, "british": 30}}
    return s


def give(g: Game, order: dict[str, Any]) -> dict[str, Any]:
    e = g.give(order)
    assert e.kind == "order", e.reasons
    return dict(e.effect["record"])


def to_phase(g: Game, side: str, phase: str) -> None:
    while not (g.turn.side == side and g.turn.phase == phase):
        g.end_phase()


@pytest.mark.parametrize("option", [1, 2, 3, 4])
def test_a_scripted_game_on_global_1940(g40: TerritoryScenario, option: int, tmp_path: Path) -> None:
    path = tmp_path / "g40.json"
    save_any(setup(g40, option), str(path))
    original = json.loads(path.read_text(encoding="utf-8"))
    g = Game(load_any(str(path)), "rail_options")
    piece = PIECE[option]
    assert give(g, {"action": "buy", "nation": "germans", "piece": piece})["ipcs"] == 40 - PRICE[option]
    to_phase(g, "germans", "combat")
    rec = give(g, {"action": "capture", "nation": "germans", "territory": "eastern_poland"})
    # Option 1: "railroad markers are removed from play rather than captured"; the others keep them
    assert rec.get("railroad_removed", False) is (option == 1)
    to_phase(g, "germans", "place")
    give(g, {"action": "place", "nation": "germans", "piece": piece, "territory": PLACE_AT[option]})
    to_phase(g, "british", "combat")
    target, dice, expect = RAID[option]
    rec = give(g, {"action": "bomb", "nation": "british", "territory": target, "bombers": len(dice.get("aa", [1])),
                   **dice})
    assert {k: rec[k] for k in expect} == expect
    to_phase(g, "germans", "noncombat")  # turn 4: the piece placed on turn 3 carries the unit
    assert g.turn.turn == 4
    give(g, {"unit": "g1", "to": PLACE_AT[option]})
    save_any(g.scenario, str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    terr = {t["id"]: t for t in data["map"]["territories"]}
    assert terr[PLACE_AT[option]]["features"][{"station": "rail_station", "railroad": "railroad"}[piece]] == \
        {"purchased": 3}
    assert terr["eastern_poland"]["controller"] == "germans" and terr["eastern_poland"]["control_since"] == 3
    assert ("railroad" in terr["eastern_poland"]["features"]) is (option in (2, 4))
    assert data["state"]["rail_options"]["ipcs"] == {"germans": 40 - PRICE[option], "british": 30}
    assert next(u for u in data["units"] if u["id"] == "g1")["at"] == PLACE_AT[option]
    again = Game(load_any(str(path)), "rail_options")  # the journal replays against the saved file
    while len(again.journal):
        again.undo()
    again.scenario.state.pop("game")
    save_any(again.scenario, str(path))
    assert json.loads(path.read_text(encoding="utf-8")) == original
