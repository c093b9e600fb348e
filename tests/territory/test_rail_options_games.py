"""One scripted Rail Options game per option on maps/aa_rail_options.json
(issue 17): buy, place, rail next turn, bomb or destroy, capture.  The
expected values are written from the rule document
(../shared/seeds/001 as quoted in docs/rules/rail-options.md); the game is
saved, loaded again (the journal replays) and every move undone gives back
the file as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.io import load_any, save_any
from engine.rules.rail_options import config_of
from engine.rules.rail_options.economy import nation_report
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]
SIDES = 5  # germany, ussr, uk, italy, france


def start(option: int, tmp_path: Path) -> tuple[Game, Path]:
    s = load_any(str(ROOT / "maps" / "aa_rail_options.json"))
    s.ruleset.options["rail_options"] = {"option": option}
    s.state["rail_options"]["ipcs"] = {"germany": 40, "ussr": 30, "uk": 30}
    path = tmp_path / f"option{option}.json"
    save_any(s, str(path))
    return Game(load_any(str(path)), "rail_options"), path


def to_phase(g: Game, side: str, phase: str) -> None:
    while not (g.turn.side == side and g.turn.phase == phase):
        g.end_phase()


def ok(g: Game, order: dict[str, Any]) -> dict[str, Any]:
    e = g.give(order)
    assert e.kind == "order", e.reasons
    return dict(e.effect["record"])


def refused(g: Game, order: dict[str, Any]) -> str:
    e = g.give(order)
    assert e.kind == "refused"
    return " ".join(e.reasons)


def finish(g: Game, path: Path, original: str) -> dict[str, Any]:
    """Save, load (the journal replays), then undo everything: the file
    comes back as it was saved at the start."""
    save_any(g.scenario, str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    again = Game(load_any(str(path)), "rail_options")
    while len(again.journal):
        again.undo()
    again.scenario.state.pop("game")
    back = tmp = path.with_suffix(".back.json")
    save_any(again.scenario, str(tmp))
    assert json.loads(back.read_text(encoding="utf-8")) == json.loads(original)
    return data


def territory(data: dict[str, Any], tid: str) -> dict[str, Any]:
    """A territory of the saved file as the model reads it (the file leaves
    out a controller equal to the owner and empty features)."""
    t = next(t for t in data["map"]["territories"] if t["id"] == tid)
    return {"controller": t.get("controller", t.get("owner")), "control_since": t.get("control_since", 0),
            "features": t.get("features", {})}


def test_option_1_buy_place_rail_bomb_capture(tmp_path: Path) -> None:
    g, path = start(1, tmp_path)
    original = path.read_text(encoding="utf-8")
    # "Cost: 15 (Rail Station) 1 (Railroad)"
    assert ok(g, {"action": "buy", "nation": "germany", "piece": "station"})["ipcs"] == 40 - 15
    assert "cost 26 IPCs" in refused(g, {"action": "buy", "nation": "germany", "piece": "railroad", "count": 26})
    assert ok(g, {"action": "buy", "nation": "germany", "piece": "railroad"})["ipcs"] == 24
    # "newly purchased rail stations ... may not be used the same turn they were purchased": placed after rail
    to_phase(g, "germany", "noncombat")
    assert "no rail station" in refused(g, {"unit": "ger_inf", "to": "balkans"})
    to_phase(g, "germany", "place")
    # "built in any territory controlled for 1(+) round": Austria is Italy's
    assert "held by Italy" in refused(g, {"action": "place", "nation": "germany", "piece": "station",
                                          "territory": "austria"})
    assert ok(g, {"action": "place", "nation": "germany", "piece": "station", "territory": "balkans"})
    assert "already has a railroad marker" in refused(g, {"action": "place", "nation": "germany",
                                                          "piece": "railroad", "territory": "balkans"})
    # turn 5: the USSR captures Bryansk: "railroad markers are removed from play rather than captured"
    to_phase(g, "ussr", "combat")
    rec = ok(g, {"action": "capture", "nation": "ussr", "territory": "bryansk"})
    assert rec["railroad_removed"] is True
    # the UK raids Germany's station: built-in anti-aircraft fires first (one die a bomber, a 1 hits)
    to_phase(g, "uk", "combat")
    rec = ok(g, {"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 2, "aa": [1, 5], "dice": [1]})
    assert (rec["shot_down"], rec["damage_before"], rec["damage"], rec["inoperable"]) == (1, 1, 2, False)
    # turn 6: the new station in the Balkans is usable; Germany's range is 4 less 2 damage markers
    to_phase(g, "germany", "noncombat")
    assert ok(g, {"unit": "ger_art", "to": "balkans"})
    to_phase(g, "uk", "combat")
    rec = ok(g, {"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 1, "aa": [2], "dice": [6]})
    assert (rec["damage"], rec["inoperable"]) == (6, True)  # "to a maximum of 6 damage markers"
    to_phase(g, "germany", "noncombat")  # turn 7: "3 damage markers would render the station inoperable"
    assert "inoperable" in refused(g, {"unit": "ger_arm", "to": "balkans"})
    rep = nation_report(g.scenario, config_of(g.scenario.ruleset.options), "germany")
    assert rep["ipcs"] == 24 and {"territory": "germany", "name": "Germany", "damage": 6, "usable": False,
                                  "reason": "the rail station in Germany has 6 damage markers and is inoperable "
                                            "(3 or more)"} in rep["stations"]
    assert rep["bought"] == {"railroad": 1}
    data = finish(g, path, original)
    assert territory(data, "bryansk")["controller"] == "ussr" and territory(data, "bryansk")["control_since"] == 5
    assert "railroad" not in territory(data, "bryansk")["features"]
    assert territory(data, "balkans")["features"]["rail_station"] == {"purchased": 5}
    assert data["state"]["rail_options"]["ipcs"]["germany"] == 24
    kinds = [e["kind"] for e in data["state"]["game"]["journal"]["entries"]]
    assert kinds.count("refused") == 5 and kinds.count("order") == 7


def test_option_2_buy_place_rail_bomb_destroy_capture(tmp_path: Path) -> None:
    g, path = start(2, tmp_path)
    original = path.read_text(encoding="utf-8")
    assert ok(g, {"action": "buy", "nation": "germany", "piece": "station"})["cost"] == 10  # "Cost: 10"
    to_phase(g, "germany", "combat")
    # "Players may destroy their own rail stations and railroad, however this must be done during the
    # controlling players turn"
    assert ok(g, {"action": "destroy", "nation": "germany", "piece": "railroad", "territory": "balkans"})
    to_phase(g, "germany", "place")
    assert ok(g, {"action": "place", "nation": "germany", "piece": "station", "territory": "belgium"})
    to_phase(g, "ussr", "combat")
    assert "Soviet Union's move: Germany cannot act now" in refused(g, {"action": "destroy", "nation": "germany",
                                                                         "piece": "railroad", "territory": "belarus"})
    assert "not controlled by Soviet Union" in refused(g, {"action": "destroy", "nation": "ussr",
                                                            "piece": "railroad", "territory": "belarus"})
    rec = ok(g, {"action": "capture", "nation": "ussr", "territory": "bryansk"})
    assert "railroad_removed" not in rec  # "Rail stations and railroad may be captured"
    to_phase(g, "uk", "combat")
    # "bombers receive one cycle of combat rolls ... a successful hit ... destroys the station"
    rec = ok(g, {"action": "bomb", "nation": "uk", "territory": "france", "bombers": 1, "aa": [6], "dice": [5]})
    assert rec["destroyed"] is False
    # one raid on a target a turn (option raids_per_turn)
    assert "already raided the rail station in France 1 time this turn" in refused(
        g, {"action": "bomb", "nation": "uk", "territory": "france", "bombers": 1, "aa": [6], "dice": [4]})
    to_phase(g, "germany", "noncombat")  # turn 6: the Belgian station is usable
    assert ok(g, {"unit": "ger_inf", "to": "belgium"})
    to_phase(g, "uk", "combat")
    rec = ok(g, {"action": "bomb", "nation": "uk", "territory": "france", "bombers": 1, "aa": [6], "dice": [4]})
    assert rec["destroyed"] is True
    data = finish(g, path, original)
    assert "rail_station" not in territory(data, "france")["features"]
    assert "railroad" not in territory(data, "balkans")["features"]
    assert territory(data, "bryansk")["features"] == {"rail_station": {}, "railroad": {}}
    assert data["state"]["rail_options"]["ipcs"]["germany"] == 30


def test_option_3_buy_place_rail_bomb_capture(tmp_path: Path) -> None:
    g, path = start(3, tmp_path)
    original = path.read_text(encoding="utf-8")
    assert "Option 3 has no railroad markers" in refused(g, {"action": "buy", "nation": "germany",
                                                             "piece": "railroad"})
    assert ok(g, {"action": "buy", "nation": "germany", "piece": "station"})["cost"] == 8  # "Cost: 8"
    to_phase(g, "germany", "place")
    assert ok(g, {"action": "place", "nation": "germany", "piece": "station", "territory": "balkans"})
    to_phase(g, "ussr", "combat")
    assert ok(g, {"action": "capture", "nation": "ussr", "territory": "bryansk"})
    to_phase(g, "uk", "combat")
    rec = ok(g, {"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 3, "seed": 17})
    assert len(rec["aa"]) == 3 and len(rec["dice"]) == 3 - sum(d == 1 for d in rec["aa"])
    assert rec["damage"] == min(6, 1 + sum(rec["dice"])) and rec["seed"] == 17
    to_phase(g, "germany", "noncombat")  # turn 6: the station in the Balkans is used
    loads = nation_report(g.scenario, config_of(g.scenario.ruleset.options), "germany")
    assert any(st["territory"] == "balkans" and st["usable"] for st in loads["stations"])
    data = finish(g, path, original)
    assert territory(data, "bryansk")["features"] == {"rail_station": {}, "railroad": {}}
    assert territory(data, "germany")["features"]["rail_station"]["damage"] == rec["damage"]
    assert data["state"]["rail_options"]["ipcs"]["germany"] == 32


def test_option_4_buy_place_rail_bomb_capture(tmp_path: Path) -> None:
    g, path = start(4, tmp_path)
    original = path.read_text(encoding="utf-8")
    assert "Option 4 has no rail stations" in refused(g, {"action": "buy", "nation": "germany", "piece": "station"})
    assert ok(g, {"action": "buy", "nation": "germany", "piece": "railroad", "count": 2})["cost"] == 6  # "Cost: 3"
    to_phase(g, "germany", "combat")
    assert ok(g, {"action": "destroy", "nation": "germany", "piece": "railroad", "territory": "balkans"})
    to_phase(g, "germany", "place")
    assert ok(g, {"action": "place", "nation": "germany", "piece": "railroad", "territory": "balkans"})
    to_phase(g, "ussr", "combat")
    assert "railroad_removed" not in ok(g, {"action": "capture", "nation": "ussr", "territory": "bryansk"})
    to_phase(g, "uk", "combat")
    rec = ok(g, {"action": "bomb", "nation": "uk", "territory": "belarus", "bombers": 1, "dice": [3]})
    assert rec["destroyed"] is True and "aa" not in rec  # a railroad marker has no anti-aircraft
    to_phase(g, "germany", "noncombat")  # turn 6: the new marker in the Balkans carries 1 unit 1 space
    assert ok(g, {"unit": "ger_inf", "to": "balkans"})
    data = finish(g, path, original)
    assert territory(data, "balkans")["features"]["railroad"] == {"purchased": 5}
    assert "railroad" not in territory(data, "belarus")["features"]
    assert data["state"]["rail_options"]["bought"] == {"germany": {"railroad": 1}}


@pytest.mark.parametrize(("order", "why"), [
    ({"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 1}, "needs its dice"),
    ({"action": "bomb", "nation": "uk", "territory": "germany", "aa": [1, 2], "dice": []}, "list of 1 die roll"),
    ({"action": "bomb", "nation": "uk", "territory": "russia", "aa": [2], "dice": [3]}, "not held by an enemy"),
    ({"action": "fly", "nation": "uk"}, "unknown rail-options action 'fly'"),
    ({"action": "buy", "nation": "france", "piece": "station"}, "no IPCs recorded (state.rail_options.ipcs.france)"),
])
def test_bad_economy_orders_are_refused_naming_what(order: dict[str, Any], why: str, tmp_path: Path) -> None:
    from engine.rules.rail_options.economy import judge

    g, _ = start(1, tmp_path)
    g.scenario.state.pop("game")
    v = judge(g.scenario, config_of(g.scenario.ruleset.options), order)
    assert not v.ok and why in v.reasons[0]


def test_option_1_station_spacing(tmp_path: Path) -> None:
    """"Rail stations cannot be built any farther than 4 territories away from one another, and must be
    connect by railroad markers.\""""
    from engine.rules.rail_options.economy import build_reason

    g, _ = start(1, tmp_path)
    s = g.scenario
    cfg = config_of(s.ruleset.options)
    for t in ("poland", "germany", "france", "smolensk", "bryansk", "syria", "egypt"):
        s.territory(t).features.pop("rail_station", None)
    assert build_reason(s, cfg, s.territory("belarus"), "germany", "station") is None  # the first station
    s.territory("balkans").features["rail_station"] = {}
    assert build_reason(s, cfg, s.territory("belarus"), "germany", "station") is None  # 3 along markers
    s.territory("poland").features.pop("railroad")
    assert "within 4 territories of Belarus along railroad markers" in \
        build_reason(s, cfg, s.territory("belarus"), "germany", "station")
    s.territory("poland").features["railroad"] = {}
    assert "no station of Germany is within 4" in \
        build_reason(s, cfg, s.territory("bryansk"), "germany", "station")  # 5 away
    s.territory("germany").features["rail_station"] = {}
    assert build_reason(s, cfg, s.territory("bryansk"), "germany", "station") is None  # 4 away


@pytest.mark.parametrize(("state", "message"), [
    ([], "state.rail_options must be an object"),
    ({"ipcs": [3]}, "state.rail_options.ipcs must be an object of nations"),
    ({"ipcs": {"germany": -1}}, "state.rail_options.ipcs.germany must be a whole number of 0 or more"),
    ({"ipcs": {"germany": 9}, "bought": {"germany": {"tank": 1}}}, "state.rail_options.bought.germany must map"),
])
def test_bad_economy_state_is_named(state: Any, message: str, tmp_path: Path) -> None:
    from engine.model import ModelError
    from engine.rules.rail_options.economy import judge

    g, _ = start(1, tmp_path)
    g.scenario.state["rail_options"] = state
    g.scenario.state.pop("game")
    order = {"action": "place" if "bought" in str(state) else "buy", "nation": "germany", "piece": "station",
             "territory": "balkans"}
    with pytest.raises(ModelError, match=message.replace(".", r"\.")):
        judge(g.scenario, config_of(g.scenario.ruleset.options), order)
