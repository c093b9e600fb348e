"""Journal format 3: each entry's hash commits to its parts, so a side's file
that withholds what names a hidden unit keeps the chain, and ``validate``
checks it whole (docs/file-format.md, docs/play-by-post.md)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import dumps_any, load_any, loads_any, save_any
from engine.model import Scenario
from engine.turns.game import Game
from engine.turns.journal import (
    COMMITTED,
    Journal,
    JournalError,
    canonical_json,
    commit_text,
    commitment,
    entry_hash,
    part_salt,
)
from engine.turns.signing import Signer
from engine.turns.views import side_check, side_view

ROOT = Path(__file__).resolve().parents[2]
ACW = ROOT / "maps" / "acw_short_campaign.json"
SIGHT = {"sighting": {"cav": 8, "default": 3}, "identify": {"cav": 5, "default": 2}}


def played(fmt: int = COMMITTED, signer: Signer | None = None) -> Game:
    """The ACW sample with hidden units, a turn of moves for each side."""
    s = loads_any(ACW.read_text(encoding="utf-8"), str(ACW))
    assert isinstance(s, Scenario)
    s.state["setup_accepted"] = True
    s.state["visibility"] = SIGHT
    g = Game(s, "acw")
    g.journal.format = fmt
    if signer is not None:
        g.sign(signer)
    for order in ({"unit": "US-3C", "to": "1106"}, {"unit": "US-6", "to": "0805"}):
        assert g.give(order).kind == "order"
    g.end_turn()
    for order in ({"unit": "CS-45C", "to": "2510"}, {"unit": "CS-34", "to": "1919"}):
        assert g.give(order).kind == "order"
    g.end_turn()
    return g


@pytest.fixture(scope="module")
def game() -> Game:
    return played()


def view_of(out: Any) -> dict[str, Any]:
    return dict(out.state["side_view"])


def with_view(out: Any, view: dict[str, Any]) -> Any:
    bad = copy.deepcopy(out)
    bad.state["side_view"] = view
    return bad


def redacted_positions(view: dict[str, Any]) -> list[int]:
    return [i for i, d in enumerate(view["entries"]) if isinstance(d.get("withheld"), dict)]


def test_a_new_game_writes_format_3_and_reads_it_back(game: Game) -> None:
    text = dumps_any(game.scenario)
    data = json.loads(text)["state"]["game"]["journal"]
    assert data["format"] == 3 and all(len(e["salt"]) == 32 for e in data["entries"])
    again = Game(loads_any(text, "again.json"))
    assert again.journal.head == game.journal.head and again.journal.format == COMMITTED
    assert [e.to_data() for e in again.journal] == [e.to_data() for e in game.journal]
    alone = Journal.from_data(json.loads(json.dumps(game.journal.to_data())))  # a journal alone: no seal
    assert alone.head == game.journal.head


def test_a_side_file_withholds_parts_and_its_chain_still_verifies(game: Game) -> None:
    out = side_view(game, "union")
    view = view_of(out)
    found = side_check(out)
    assert found.problems == [] and found.redacted and found.unchecked == []
    assert found.redacted == [i + 1 for i in redacted_positions(view)]
    assert view["format"] == 3 and view["head"] == game.journal.head
    assert [d["hash"] for d in view["entries"]] == [game.journal.hash_at(i) for i in range(len(game.journal))]
    # the end of the Rebels' turn: the new turn state is shown, the delta naming their units withheld
    end = view["entries"][-1]
    assert end["kind"] == "end_turn" and end["effect"]["turn"]["side"] == "union" and "delta" not in end["effect"]
    assert "CS-45C" not in json.dumps(view) and "2510" not in json.dumps(view)
    assert found.head_at is None and side_check(out, game.journal.head).head_at == len(game.journal)


def tampered(out: Any, change: Any) -> list[str]:
    view = copy.deepcopy(view_of(out))
    change(view)
    return side_check(with_view(out, view)).problems


def first_redacted(view: dict[str, Any]) -> dict[str, Any]:
    return dict(view["entries"][redacted_positions(view)[0]])


@pytest.mark.parametrize("change,message", [
    # a field the redacted entry shows
    (lambda v: v["entries"][redacted_positions(v)[0]]["verdict"].update(ok=False),
     r"entry 5 \(turn 1, order: withheld, redacted\) was changed"),
    # a commitment it keeps
    (lambda v: v["entries"][redacted_positions(v)[0]]["withheld"]["order"].__setitem__(0, "0" * 64),
     r"entry 5 .* was changed"),
    # a part's salt
    (lambda v: v["entries"][redacted_positions(v)[0]]["salts"].update(time="0" * 32), r"entry 5 .* was changed"),
    # a withheld part shown with a made-up value
    (lambda v: v["entries"][redacted_positions(v)[0]].update(summary="CS-45C stays put"),
     r"entries\[4\].summary: a part is either shown"),
    # an entry dropped (the count and head put right)
    (lambda v: (v["entries"].pop(5), v.update(count=v["count"] - 1)), r"entry 6 .* is out of order"),
    # two entries swapped
    (lambda v: v["entries"].__setitem__(slice(4, 6), v["entries"][4:6][::-1]),
     r"entry 5 .* is out of order: it follows entry 6"),
    # a whole entry changed
    (lambda v: v["entries"][0].update(summary="US-3C to 2009"), r"entry 1 .* was changed after it was written"),
    # an entry added at the end
    (lambda v: v["entries"].append(copy.deepcopy(v["entries"][-1])), r"entry 9 .* is out of order"),
])
def test_each_tampering_is_named_with_its_entry(game: Game, change: Any, message: str) -> None:
    import re

    problems = tampered(side_view(game, "union"), change)
    assert len(problems) == 1 and re.search(message, problems[0]), problems


def test_the_salt_keeps_a_hidden_label_from_being_guessed(game: Game) -> None:
    """The Rebel move's destination, a four-digit hex label, is withheld:
    its commitment is neither the SHA-256 of the label's text nor what any
    salt the side's file holds gives for any label of the map."""
    out = side_view(game, "union")
    view = view_of(out)
    d = first_redacted(view)
    kept = set(d["withheld"]["order"])
    rebel = game.journal[redacted_positions(view)[0]]
    assert rebel.order == {"unit": "CS-45C", "to": "2510"}
    true = commitment(part_salt(rebel.salt, "order.to"), "order.to", canonical_json("2510"))
    assert true in kept  # what it commits to, given the entry's own salt (which the file does not hold)
    labels = [f"{c:02d}{r:02d}" for c in range(100) for r in range(100)]  # every label a hex map may have
    salts = [x for v in d["salts"].values() for x in (v.values() if isinstance(v, dict) else [v])]
    for label in labels:
        text = canonical_json(label)
        assert hashlib.sha256(text.encode()).hexdigest() not in kept
        assert hashlib.sha256(label.encode()).hexdigest() not in kept
        assert not any(commitment(x, "order.to", text) in kept for x in salts)
    assert rebel.salt not in json.dumps(view)


def parts_of(e: dict[str, Any]) -> dict[str, list[str]]:
    """The commitments a redacted entry gives, as a verifier computes them."""
    parts: dict[str, list[str]] = {}
    for name in ("summary", "reasons", "time"):
        parts[name] = e["withheld"][name] if name in e["withheld"] else [
            commitment(e["salts"][name], name, canonical_json(e[name]))]
    for name in ("order", "verdict", "effect"):
        parts[name] = sorted([commitment(e["salts"][name][k], f"{name}.{k}", canonical_json(v))
                              for k, v in e.get(name, {}).items()] + e["withheld"].get(name, []))
    return parts


def forge_shown(view: dict[str, Any], i: int) -> None:
    """What the side's file's holder can do: change a part an entry shows
    (here the verdict's ``ok`` of a redacted entry), its commitment (the
    file holds the part's salt), the entry's hash and every hash after it,
    the count and the head."""
    view["entries"][i]["verdict"]["ok"] = False
    for j in range(i, len(view["entries"])):
        e = view["entries"][j]
        if j > i:
            e["prev"] = view["entries"][j - 1]["hash"]
        if "withheld" in e:
            e["hash"] = hashlib.sha256((e["prev"] + "\n" + commit_text(e, e["prev"], parts_of(e))).encode()).hexdigest()
        else:
            e["hash"] = entry_hash(e["prev"], {k: v for k, v in e.items() if k != "hash"})
    view["head"] = view["entries"][-1]["hash"]


def test_the_holder_who_edits_a_shown_part_and_computes_what_he_can_is_refused(game: Game) -> None:
    """Unsigned, the side's file alone cannot tell (``validate`` says so):
    the game master's head refuses it.  Signed, the signatures name the
    entry."""
    out = side_view(game, "union")
    view = copy.deepcopy(view_of(out))
    i = redacted_positions(view)[0]
    forge_shown(view, i)
    forged = with_view(out, view)
    assert side_check(forged).problems == []  # the chain alone holds: nothing in the file is out of reach
    problems = side_check(forged, game.journal.head).problems
    assert len(problems) == 1 and "the game master's head" in problems[0] and "is not in this side's journal" \
        in problems[0]
    signer = Signer.generate()
    signed = played(signer=signer)
    out = side_view(signed, "union", signer.sign)
    assert side_check(out).problems == []
    view = copy.deepcopy(view_of(out))
    i = redacted_positions(view)[0]
    forge_shown(view, i)
    problems = side_check(with_view(out, view)).problems
    assert len(problems) == 1 and f"entry {i + 1} " in problems[0] and "not signed by the game master" in problems[0], problems


def test_an_older_format_2_game_reads_extends_and_exports_as_before() -> None:
    g = played(fmt=2)
    text = dumps_any(g.scenario)
    data = json.loads(text)["state"]["game"]["journal"]
    assert data["format"] == 2 and all("salt" not in e for e in data["entries"])
    again = Game(loads_any(text, "old.json"))
    assert again.journal.format == 2 and again.journal.head == g.journal.head
    again.give({"unit": "US-14", "to": "0311"})
    assert json.loads(dumps_any(again.scenario))["state"]["game"]["journal"]["format"] == 2
    out = side_view(g, "union")
    found = side_check(out)
    assert view_of(out)["format"] == 2 and found.problems == [] and found.unchecked and not found.redacted
    assert all(isinstance(d.get("withheld", []), list) for d in view_of(out)["entries"])


def test_a_format_1_journal_alone_still_reads() -> None:
    j = Journal()
    j.format = 2
    from engine.turns.journal import Entry

    for i in range(3):
        j.append(Entry(turn=1, phase="movement", side="Union", kind="order", system="acw", summary=f"U{i}"))
    data = json.loads(json.dumps(j.to_data()))
    assert data["format"] == 1 and "salt" not in data["entries"][0]
    assert Journal.from_data(data).head == j.head
    data["entries"][1]["summary"] = "forged"
    with pytest.raises(JournalError, match=r"entry 2 .*was changed"):
        Journal.from_data(data)


def test_the_cache_of_verified_journals_does_not_take_one_format_for_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    text = dumps_any(game.scenario)
    f = tmp_path / "game.json"
    f.write_text(text, encoding="utf-8")
    Game(load_any(str(f))).remember()
    assert Game(load_any(str(f))).journal.head == game.journal.head  # verified before: read as it is
    f.write_text(text.replace('"format": 3,', '"format": 2,', 1), encoding="utf-8")
    with pytest.raises(JournalError, match="not written as the journal writes an entry"):
        Game(load_any(str(f)))


def test_a_torn_format_3_journal_is_refused(game: Game) -> None:
    data = json.loads(dumps_any(game.scenario))
    journal = data["state"]["game"]["journal"]
    journal["entries"].pop()
    journal["count"] -= 1
    journal["head"] = journal["entries"][-1]["hash"]
    with pytest.raises(JournalError, match="seal"):
        Game(loads_any(json.dumps(data), "torn.json"))
    del journal["seal"]
    with pytest.raises(JournalError, match="has no seal"):
        Game(loads_any(json.dumps(data), "unsealed.json"))


def test_validate_says_what_a_side_file_proves(tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "union.json"
    save_any(side_view(game, "union"), str(f))
    assert main(["validate", str(f)]) == 0
    out = capsys.readouterr().out
    assert "entries 5-8 redacted, their chain checked" in out and "not adjudicated again" in out
    assert "--head" in out
    assert main(["validate", str(f), "--head", game.journal.head]) == 0
    assert "its first 8 entries match the game master's head" in capsys.readouterr().out
    assert main(["validate", str(f), "--head", game.journal.hash_at(0)]) == 0
    data = json.loads(f.read_text(encoding="utf-8"))
    data["state"]["side_view"]["entries"][5]["withheld"]["summary"] = ["1" * 64]
    f.write_text(json.dumps(data), encoding="utf-8")
    assert main(["validate", str(f)]) == 1
    assert "entry 6 (turn 1, order: withheld, redacted) was changed" in capsys.readouterr().out


def test_an_entry_taken_back_and_made_again_keeps_its_hash_and_another_takes_a_new_salt() -> None:
    g = played()
    order = {"unit": "US-14", "to": "0311"}
    first = g.give(order)
    g.undo()
    assert g.give(order).hash == first.hash  # a redo: the file is as it was
    g.undo()
    other = g.give({"unit": "US-14", "to": "0409"})
    assert other.salt != first.salt
    g.undo()
    assert g.give(order).salt != first.salt  # another order came between: the old salt is not used again
