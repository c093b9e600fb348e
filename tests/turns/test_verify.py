"""``validate`` checks the game (``engine/turns/verify.py``, ``docs/turns.md``,
"Verifying a game"): a journal whose hash chain was sealed again after an
entry was changed still loads and replays, but adjudicating it again names
the first entry the rules do not give."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import dumps_any, loads_any
from engine.model import Scenario
from engine.turns.delta import Snapshot
from engine.turns.game import Game
from engine.turns.journal import GENESIS, entry_hash, seal
from engine.turns.verify import verify

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"


def sample() -> Game:
    return Game(loads_any(SAMPLE.read_text(encoding="utf-8")))


def reseal(data: dict[str, Any]) -> dict[str, Any]:
    """What a forger does after changing an entry: every hash, the head and
    the seal computed again."""
    journal = data["state"]["game"]["journal"]
    prev = GENESIS
    for e in journal["entries"]:
        e["prev"] = prev
        e["hash"] = prev = entry_hash(prev, {k: v for k, v in e.items() if k != "hash"})
    journal["head"] = prev
    if "seal" in journal:
        journal["seal"] = seal(journal["count"], prev, data["state"]["game"]["turn"])
    return data


def forged(g: Game, cheat: Callable[[Scenario], None], edit: Callable[[dict[str, Any]], None]) -> str:
    """The game's file after its last entry was made to record ``cheat``
    (applied to the scenario after the entry) as part of it: the delta, the
    scenario and the chain all agree, so the file loads and replays."""
    s = g.scenario
    before = g.at(len(g.journal) - 1)
    cheat(s)
    data = json.loads(dumps_any(s))
    entry = data["state"]["game"]["journal"]["entries"][-1]
    game_delta = entry.get("effect", {}).get("delta", {}).get("game")
    delta = Snapshot.take(s).delta(s, Snapshot.take(before))
    if game_delta:
        delta["game"] = game_delta
    entry.setdefault("effect", {})["delta"] = delta
    edit(entry)
    text = json.dumps(reseal(data))
    Game(loads_any(text))  # the chain holds and the replay matches: only the rules can tell
    return text


def test_an_honest_game_verifies() -> None:
    g = sample()
    assert g.give({"unit": "US-8A", "to": "0411"}, side="union").kind == "order"
    g.give({"unit": "US-8A", "to": "0101"})  # refused: too far
    g.end_turn()
    assert g.give({"unit": "CS-11A", "to": "1611"}).kind == "order"
    again = Game(loads_any(dumps_any(g.scenario)))
    assert verify(again) is None
    assert verify(again, start=3) is None  # inside the end of the turn: adjudicated from its first effect
    assert verify(again, start=4, position=again.at(4)) is None


def test_a_journal_worded_by_an_earlier_version_still_verifies() -> None:
    """Summaries and reasons are words, and words change between versions:
    an entry whose words differ from what the rules say today, but whose
    substance (kind, order, author, delta, turn state) is theirs, passes
    (a changed substance is named: the tests below)."""
    g = sample()
    assert g.give({"unit": "US-8A", "to": "0411"}, side="union").kind == "order"
    g.give({"unit": "US-8A", "to": "0101"}, side="union")  # refused: too far
    g.end_turn()
    data = json.loads(dumps_any(g.scenario))
    for e in data["state"]["game"]["journal"]["entries"]:
        e["summary"] = "worded otherwise: " + e["summary"]
        e["reasons"] = [f"in older words: {r}" for r in e["reasons"]]
    assert verify(Game(loads_any(json.dumps(reseal(data))))) is None


def test_a_resealed_illegal_move_is_named() -> None:
    g = sample()
    g.end_turn()
    assert g.give({"unit": "CS-11A", "to": "1611"}).kind == "order"

    def cheat(s: Scenario) -> None:
        s.unit("CS-11A").at = s.map.parse_label("0101")

    def edit(e: dict[str, Any]) -> None:
        e["order"]["to"] = "0101"
        e["summary"] = "CS-11A to 0101"

    text = forged(g, cheat, edit)
    problem = verify(Game(loads_any(text)))
    assert problem is not None and problem.position == 3
    assert "entry 3 (turn 1, order: CS-11A to 0101) is not what the rules give: it is recorded as order, but the " \
           "rules refuse it" in str(problem)


def test_a_refused_entry_whose_delta_moves_a_unit_is_named() -> None:
    g = sample()
    assert g.give({"unit": "US-8A", "to": "0101"}).kind == "refused"

    def cheat(s: Scenario) -> None:
        s.unit("US-8A").at = s.map.parse_label("0101")

    problem = verify(Game(loads_any(forged(g, cheat, lambda e: None))))
    assert problem is not None and problem.position == 1 and "its effect.delta is recorded as" in problem.what


def test_a_rebel_order_whose_delta_deletes_a_union_unit_is_named() -> None:
    g = sample()
    g.end_turn()
    assert g.give({"unit": "CS-11A", "to": "1611"}).kind == "order"

    def cheat(s: Scenario) -> None:
        s.units = [u for u in s.units if u.id != "US-14"]

    problem = verify(Game(loads_any(forged(g, cheat, lambda e: None))))
    assert problem is not None and problem.position == 3 and "effect.delta" in problem.what


def test_validate_refuses_a_forged_game_and_names_the_entry(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    g = sample()
    g.end_turn()
    g.give({"unit": "CS-11A", "to": "1611"})
    honest = tmp_path / "honest.json"
    honest.write_text(dumps_any(g.scenario), encoding="utf-8")
    assert main(["validate", str(honest)]) == 0
    capsys.readouterr()

    def cheat(s: Scenario) -> None:
        s.unit("CS-11A").at = s.map.parse_label("0101")

    def edit(e: dict[str, Any]) -> None:
        e["order"]["to"] = "0101"

    bad = tmp_path / "bad.json"
    bad.write_text(forged(g, cheat, edit), encoding="utf-8")
    assert main(["validate", str(bad), "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert not res["valid"] and "entry 3 (turn 1, order: CS-11A to 1611) is not what the rules give" \
        in res["files"][0]["problems"][0]
    # a journal changed without resealing: the chain names it
    data = json.loads(honest.read_text(encoding="utf-8"))
    data["state"]["game"]["journal"]["entries"][-1]["order"]["to"] = "0101"
    honest.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(honest)]) == 1
    assert "was changed after it was written" in capsys.readouterr().out
