"""Hostile journals: a game's record edited by someone who recomputes every
hash, so the chain holds and only the game's own checks stand between the
edit and a traceback.

Every mutated journal (structural edits of the entries of a played ACW game,
each entry's hash, the count, the head and the seal computed again) must be
loaded or refused with a :class:`~engine.model.ModelError` naming the
journal (``state.game``); never another exception.  The short form runs
:data:`SHORT_EXAMPLES` (200) journals, the ``slow`` form
:data:`LONG_EXAMPLES` (10,000).  Targeted cases: each wrong type in an
entry's ``effect.delta`` that used to end in a traceback, and a journal cut
short with its count and head copied from the entry before.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from reliability_kit import LONG_EXAMPLES, SHORT_EXAMPLES, check_loader, fuzz_settings, mutated_json

from app.cli import main
from engine.io import loads_any, save_any
from engine.model import ModelError, Scenario
from engine.turns.game import Game
from engine.turns.journal import canonical_json, entry_hash, seal

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"


def _played(fmt: int = 3) -> Scenario:
    """The ACW sample after a turn and a half: orders carried out, an order
    refused last, the end of a turn (fortification effects); its journal in
    format ``fmt``."""
    s = loads_any(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE))
    assert isinstance(s, Scenario)
    g = Game(s, "acw")
    g.journal.format = fmt
    g.give({"unit": "US-14", "to": "0311"})
    g.give({"unit": "US-8A", "to": "0210"})
    g.end_turn()
    g.give({"unit": "CS-39", "to": "0708"})
    g.give({"unit": "US-14", "to": "0312"})  # not the Union's move: refused
    assert g.journal[-1].kind == "refused"
    return s


PLAYED = _played()
GAME = copy.deepcopy(PLAYED.state["game"])
GAME["journal"]["entries"] = list(GAME["journal"]["entries"])  # each entry's data, not its line
BARE = PLAYED.copy()
BARE.state = {k: v for k, v in PLAYED.state.items() if k != "game"}


def rehash(game: dict[str, Any]) -> dict[str, Any]:
    """``game`` with every entry's ``prev`` and ``hash``, the count, the head
    and the seal computed again, as a forger would (``docs/turns.md``)."""
    journal = game["journal"]
    prev = "0" * 64
    for e in journal["entries"]:
        if isinstance(e, dict):
            e["prev"] = prev
            body = {k: v for k, v in e.items() if k != "hash"}
            try:
                e["hash"] = prev = entry_hash(prev, body)
            except (AttributeError, TypeError):  # parts that are not what a format-3 entry holds: hashed whole
                e["hash"] = prev = hashlib.sha256((prev + "\n" + canonical_json(body)).encode(
                    "utf-8", "surrogatepass")).hexdigest()
    journal["count"] = len(journal["entries"])
    journal["head"] = prev
    journal["seal"] = seal(journal["count"], prev, game["turn"])
    return game


def load(game: dict[str, Any]) -> Game:
    s = BARE.copy()
    s.state["game"] = game
    return Game(s)


def test_the_seed_game_loads_as_played() -> None:
    g = load(rehash(copy.deepcopy(GAME)))
    assert len(g.journal) == len(GAME["journal"]["entries"])


def _first(kind: str) -> int:
    return next(i for i, e in enumerate(GAME["journal"]["entries"]) if e["kind"] == kind)


ORDER, END = _first("order"), _first("end_turn")
HOSTILE_DELTAS = [
    (ORDER, lambda d: d.update(units=[1, 2]), "effect.delta.units"),
    (ORDER, lambda d: d["units"].update({"US-14": "moved"}), "effect.delta.units.US-14"),
    (ORDER, lambda d: d["units"]["US-14"].__setitem__(1, 7), "effect.delta.units.US-14[1]"),
    (ORDER, lambda d: d["units"]["US-14"][1].update(at=12), r"effect.delta.units.US-14[1].at"),
    (ORDER, lambda d: d["units"]["US-14"][1].update(at="9999"), r"effect.delta.units.US-14[1].at"),
    (ORDER, lambda d: d["units"]["US-14"][1].update(props=[]), r"effect.delta.units.US-14[1].props"),
    (ORDER, lambda d: d["units"]["US-14"][0].update(strength="4"), r"effect.delta.units.US-14[0].strength"),
    (ORDER, lambda d: d["units"]["US-14"].pop(), "effect.delta.units.US-14"),
    (ORDER, lambda d: d["units"].update({"US-99": [None, {"at": "0311"}]}), "effect.delta.units.US-99[1]"),
    (ORDER, lambda d: d.update(turn=["1", 2]), "effect.delta.turn"),
    (ORDER, lambda d: d.update(order=[["US-14"], ["US-14", "US-99"]]), "effect.delta.order"),
    (ORDER, lambda d: d.update(state=[]), "effect.delta.state"),
    (ORDER, lambda d: d.update(territories={"x": [{}, {}]}), "effect.delta.territories"),
    (ORDER, lambda d: d.update(game=[]), "effect.delta.game"),
    (ORDER, lambda d: d["game"].update(acted=[1]), "effect.delta.game.acted"),
    (ORDER, lambda d: d["game"]["acted"].update({"US-14": 5}), "effect.delta.game.acted.US-14"),
    (END, lambda d: d["game"].update(side="rebel"), "effect.delta.game.side"),
    (END, lambda d: d["game"].update(turn=[1]), "effect.delta.game.turn"),
    (END, lambda d: d.update(oops=1), "effect.delta.oops"),
]


@pytest.mark.parametrize("index, mutate, field", HOSTILE_DELTAS)
def test_a_delta_of_the_wrong_types_is_refused_naming_the_entry_and_field(index: int, mutate: Any,
                                                                           field: str) -> None:
    game = copy.deepcopy(GAME)
    mutate(game["journal"]["entries"][index]["effect"]["delta"])
    with pytest.raises(ModelError) as err:
        load(rehash(game))
    message = str(err.value)
    assert f"entry {index + 1} (turn " in message and field in message, message


def test_a_journal_cut_short_with_its_count_and_head_copied_is_refused(tmp_path: Path) -> None:
    game = copy.deepcopy(GAME)
    journal = game["journal"]
    journal["entries"].pop()  # the refused order: it changed nothing else
    journal["count"] -= 1
    journal["head"] = journal["entries"][-1]["hash"]  # no hashing needed
    with pytest.raises(ModelError, match="seal"):
        load(game)
    s = BARE.copy()
    s.state["game"] = game
    f = tmp_path / "cut.json"
    save_any(s, f)
    for argv in (["journal", str(f)], ["validate", str(f)]):
        assert main(argv) == 1, argv


def test_an_unsealed_journal_of_the_older_format_is_still_read() -> None:
    game = copy.deepcopy(_played(fmt=2).state["game"])
    game["journal"]["entries"] = list(game["journal"]["entries"])
    del game["journal"]["seal"]
    game["journal"]["format"] = 1
    assert len(load(game).journal) == len(game["journal"]["entries"])


def _journal_fuzz(n: int) -> None:
    @fuzz_settings(n)
    @given(mutated_json([GAME["journal"]["entries"]]))
    def run(entries: Any) -> None:
        game = copy.deepcopy(GAME)
        game["journal"]["entries"] = entries
        try:
            json.dumps(entries, allow_nan=False)
        except ValueError:
            assume(False)  # NaN has no canonical text: refused before any hash (tests/turns/test_journal.py)
        if not isinstance(entries, list):
            check_loader(lambda: load(game), ModelError, "state.game", "Game")
            return
        check_loader(lambda: load(rehash(game)), ModelError, "state.game", "Game")

    run()


def test_fuzz_journals_with_hashes_recomputed_short() -> None:
    _journal_fuzz(SHORT_EXAMPLES)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # 10,000 games loaded and replayed: about 5 minutes on a busy 2-core machine
def test_fuzz_journals_with_hashes_recomputed_long() -> None:
    _journal_fuzz(LONG_EXAMPLES)
