"""How a game's journal sits in its file (``docs/file-format.md``, "The game
journal"): one entry per line at the end, each line made once; older files
and other layouts still read; a journal verified once is not verified again
unless a byte of it or the position it ends in changed; ``Game.at`` walks
from the nearest position it reached."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.io import dumps_any, dumps_compact, load_any, loads_any, save_any, scenario_to_data
from engine.io.journal_file import MARKER, JournalLines, split_entries
from engine.model import ModelError, Scenario
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"


def played(turns: int = 2, fmt: int = 3) -> Scenario:
    """The ACW sample after ``turns`` turns: moves carried out and refused,
    ends of turn with their effects; its journal in format ``fmt`` (2: as
    an older Adjutant wrote it)."""
    s = loads_any(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE))
    assert isinstance(s, Scenario)
    g = Game(s, "acw")
    g.journal.format = fmt
    moves = {"union": [("US-14", ["0311", "0312", "0311"]), ("US-8A", ["0210", "0211", "0210"])],
             "rebel": [("CS-39", ["0708", "0709", "0708"])]}
    for t in range(turns):
        for _ in range(2):
            for unit, path in moves[str(g.turn.side)]:
                g.give({"unit": unit, "to": path[t % len(path)]})
            g.give({"unit": "US-14" if g.turn.side == "rebel" else "CS-39", "to": "0312"})  # refused
            g.end_turn()
    return s


@pytest.fixture(scope="module")
def game_text() -> str:
    return dumps_any(played())


def test_the_entries_are_one_a_line_and_what_orders_change_comes_after(game_text: str) -> None:
    s = loads_any(game_text, "game.json")
    n = len(Game(s).journal)
    head, _, rest = game_text.partition(MARKER)
    lines = rest.split("\n")
    assert all(x.startswith('{"hash":"') for x in lines[:1]) and all(x.startswith(',{"hash":"') for x in lines[1:n])
    assert lines[n].startswith('], "count": ')
    after = "\n".join(lines[n:])
    assert '"units": [' in after and '"units": [' not in head and '"acw": {' in after and '"turn": {' in after
    assert json.loads(game_text)["state"]["game"]["journal"]["count"] == n  # still one JSON document
    assert dumps_any(loads_any(game_text, "again")) == game_text  # read and written back: the same text


def test_a_line_is_made_once_and_written_as_it_is(game_text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    s = loads_any(game_text, "game.json")
    g = Game(s)
    calls = []
    real = json.dumps

    def counting(value: Any, *a: Any, **k: Any) -> str:
        if isinstance(value, dict) and "prev" in value:
            calls.append(value)
        return real(value, *a, **k)

    monkeypatch.setattr(json, "dumps", counting)
    g.give({"unit": "US-13", "to": "0618"})
    dumps_any(s)
    dumps_any(s)
    assert len(calls) <= 2  # the new entry's canonical text and its line; no old entry dumped again


def test_an_older_file_is_read_and_the_next_save_writes_the_new_layout() -> None:
    game_text = dumps_any(played(fmt=2))  # format 2: the lines, the seal
    s = loads_any(game_text, "game.json")
    g = Game(s)
    data = scenario_to_data(s)
    data["state"] = dict(data["state"])
    data["state"]["game"] = {"system": "acw", "turn": g.turn.to_data(), "journal": g.journal.to_data()}
    old = dumps_compact(data) + "\n"  # format 1: no seal, every entry laid out as any data
    assert json.loads(old)["state"]["game"]["journal"]["format"] == 1
    assert MARKER not in old or split_entries(old) is None
    again = Game(loads_any(old, "old.json"))
    assert again.journal.head == g.journal.head and len(again.journal) == len(g.journal)
    assert dumps_any(again.scenario) == game_text


@pytest.mark.parametrize("rewrite", [
    lambda d: json.dumps(d, indent=1),  # re-indented by another program
    lambda d: json.dumps(d),  # on one line
    lambda d: json.dumps({**d, "state": {**d["state"], "note": "after the game"}}, indent=2),  # a key moved
])
def test_other_layouts_are_read_whole(game_text: str, rewrite: Any) -> None:
    text = rewrite(json.loads(game_text))
    g = Game(loads_any(text, "other.json"))
    assert g.journal.head == json.loads(game_text)["state"]["game"]["journal"]["head"]


def test_entries_taken_out_must_be_the_journals(game_text: str) -> None:
    """Text shaped like a journal's entries elsewhere in the file (here a
    state key before the game's) is not taken for them: the file is read
    as its JSON says."""
    data = json.loads(game_text)
    real = data["state"]["game"]["journal"]["entries"]
    data["state"] = {"aaa": {"entries": "DECOY"}, **data["state"]}
    first = json.dumps(real[0], separators=(",", ":"))
    line = '{"hash":"' + real[0]["hash"] + '",' + first[1:]
    text = json.dumps(data, indent=1).replace('"entries": "DECOY"', MARKER + line + "\n]")
    assert split_entries(text) is not None  # the layout looks right where the decoy is...
    s = loads_any(text, "decoy.json")  # ...but the game's entries are elsewhere: read whole
    assert len(Game(s).journal) == len(real)
    assert s.state["aaa"]["entries"] == real[:1]


def test_a_journal_verified_once_is_trusted_until_a_byte_changes(tmp_path: Path, game_text: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    replays = []
    real = Game._replay
    monkeypatch.setattr(Game, "_replay", lambda self: (replays.append(1), real(self))[1])
    Game(load_any(f))
    Game(load_any(f))
    assert len(replays) == 1
    # one entry changed (its hash no longer fits): verified again, and refused
    lines = game_text.split("\n")
    i = next(k for k, x in enumerate(lines) if '"kind":"order"' in x)
    lines[i] = lines[i].replace('"turn":1', '"turn":2', 1)
    f.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ModelError, match="was changed after it was written"):
        Game(load_any(f))
    # a unit moved by hand: the position differs, so the journal is replayed, and refused
    data = json.loads(game_text)
    data["units"][0]["at"] = "0101"
    f.write_text(dumps_any(_scenario(data)), encoding="utf-8")
    with pytest.raises(ModelError, match="does not match the scenario"):
        Game(load_any(f))


def _scenario(data: dict[str, Any]) -> Any:
    s = loads_any(json.dumps(data), "x.json")
    return s


def test_orders_and_end_turn_record_what_they_write(tmp_path: Path, game_text: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from app.cli import main

    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    assert main(["end-turn", str(f)]) == 0
    assert main(["validate", str(f)]) == 0  # adjudicates the journal again, once, and records it
    replays = []
    adjudications = []
    real = Game._replay
    monkeypatch.setattr(Game, "_replay", lambda self: (replays.append(1), real(self))[1])
    import engine.turns.verify as verify_module
    real_verify = verify_module.verify
    monkeypatch.setattr(verify_module, "verify", lambda *a, **k: (adjudications.append(1), real_verify(*a, **k))[1])
    assert main(["end-turn", str(f)]) == 0
    assert main(["validate", str(f)]) == 0
    assert replays == [] and adjudications == []


def test_validate_adjudicates_a_journal_it_has_not_adjudicated(tmp_path: Path, game_text: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The record that a journal was verified and replayed does not stand for
    its adjudication: a journal only ever loaded is adjudicated by validate."""
    from app.cli import main

    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    assert main(["end-turn", str(f)]) == 0
    import engine.turns.verify as verify_module
    adjudications = []
    real_verify = verify_module.verify
    monkeypatch.setattr(verify_module, "verify", lambda *a, **k: (adjudications.append(1), real_verify(*a, **k))[1])
    assert main(["validate", str(f)]) == 0
    assert main(["validate", str(f)]) == 0
    assert len(adjudications) == 1


def test_at_walks_from_the_nearest_position(monkeypatch: pytest.MonkeyPatch) -> None:
    s = played(3)
    g = Game(loads_any(dumps_any(s), "game.json"))
    n = len(g.journal)
    walked: list[int] = []
    real = Game._walk

    def counting(self: Game, scenario: Any, frm: int, to: int, turn: dict[str, Any]) -> dict[str, Any]:
        walked.append(abs(to - frm))
        return real(self, scenario, frm, to, turn)

    monkeypatch.setattr(Game, "_walk", counting)
    texts = {k: dumps_any(g.at(k)) for k in (n // 2, 3)}
    walked.clear()
    assert dumps_any(g.at(n // 2)) == texts[n // 2]
    assert sum(walked) == 0
    g.at(n // 2 - 1)
    g.at(n // 2 - 2)
    g.at(n // 2 - 1)
    assert walked and max(walked) == 1  # a step back or forwards costs one entry
    # once walked, any position is at most half the checkpoint interval away from one
    monkeypatch.setattr("engine.turns.game.ANCHOR_EVERY", 4)
    positions = (n - 5, 3, n // 2, 1, n - 2)
    want = {k: dumps_any(Game(loads_any(dumps_any(s), "again")).at(k)) for k in positions}
    g = Game(loads_any(dumps_any(s), "game.json"))
    g.at(0)
    walked.clear()
    for k in positions:
        assert dumps_any(g.at(k)) == want[k]
    assert max(walked) <= 2


def test_journal_lines_are_immutable_and_compare_by_text() -> None:
    lines = JournalLines(['{"hash":"' + "a" * 64 + '","x":1}'])
    import copy

    assert copy.deepcopy(lines) is lines and lines == JournalLines(list(lines.lines))
    assert list(lines) == [{"hash": "a" * 64, "x": 1}]


def _written_by(save: Any) -> int:
    """Bytes this process handed to write calls while ``save()`` ran."""
    def wchar() -> int:
        with open("/proc/self/io", encoding="ascii") as f:
            return int(next(x for x in f if x.startswith("wchar:")).split()[1])

    before = wchar()
    save()
    return wchar() - before


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts bytes written through /proc/self/io")
def test_the_bytes_one_order_writes_do_not_grow_with_the_journal(tmp_path: Path) -> None:
    from engine.io import save_any

    written = {}
    sizes = {}
    for turns in (1, 12):
        f = tmp_path / f"game{turns}.json"
        f.write_text(dumps_any(played(turns)), encoding="utf-8")
        s = load_any(f)
        g = Game(s)
        inode = f.stat().st_ino
        g.give({"unit": "US-13", "to": "0618"} if g.turn.side == "union" else {"unit": "CS-40", "to": "1609"})
        written[turns] = _written_by(lambda: save_any(s, f))  # noqa: B023
        sizes[turns] = f.stat().st_size
        assert f.stat().st_ino == inode  # appended in place, not written anew
        assert Game(load_any(f)).journal.head == g.journal.head
    assert sizes[12] > 4 * sizes[1]
    entry = len(g.journal.lines.lines[-1])
    # the same order costs the same bytes, give or take the digits of counts and the units' own changes
    assert abs(written[12] - written[1]) <= 1024, written
    assert written[12] < 10 * entry + 16_000  # the entry, the units and turn state after it, the undo record


def test_a_game_read_again_decodes_only_the_entries_asked_for(tmp_path: Path, game_text: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal verified before is kept as its lines: looking for the open
    dice commitment of a game without one, or giving an order, decodes no
    old entry."""
    import engine.turns.journal as journal_module

    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    Game(load_any(f))  # the first read verifies the journal
    decoded: list[str] = []
    real = journal_module._decode
    monkeypatch.setattr(journal_module, "_decode", lambda line, where, *more: (decoded.append(where),
                                                                               real(line, where, *more))[1])
    g = Game(load_any(f))
    assert g.open_dice_commitment() is None
    assert decoded == []
    g.give({"unit": "US-13", "to": "0618"} if g.turn.side == "union" else {"unit": "CS-40", "to": "1609"})
    assert len(decoded) <= 3, decoded  # the entries of this turn, that say whether the unit acted already


def test_a_journal_verified_before_is_not_split_into_its_lines(tmp_path: Path, game_text: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The entries' text of a file verified before is neither split nor
    counted on load, nor by an order (which looks at this turn's entries,
    found from the text's end), nor by the save that appends it."""
    import engine.io.journal_file as jf

    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    first = Game(load_any(f))  # verified: split once
    splits: list[int] = []
    real = jf.split_lines
    monkeypatch.setattr(jf, "split_lines", lambda text: (splits.append(len(text)), real(text))[1])
    g = Game(load_any(f))
    assert len(g.journal) == len(first.journal) and g.journal.head == first.journal.head
    g.give({"unit": "US-13", "to": "0618"} if g.turn.side == "union" else {"unit": "CS-40", "to": "1609"})
    save_any(g.scenario, f)
    assert splits == []
    again = Game(load_any(f))
    assert len(again.journal) == len(first.journal) + 1 and again.journal.head == g.journal.head
    assert [e.hash for e in again.journal] == [e.hash for e in first.journal] + [g.journal[-1].hash]  # split now


def test_an_entry_changed_in_the_middle_is_found_whatever_else_stays(tmp_path: Path, game_text: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The record of a verified journal is found by a digest of all of its
    text: an entry in the middle changed by hand, with its stated hash, the
    file's size, the last entry (and so the head, count and seal) and
    everything around it kept, is not taken for the journal verified."""
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    Game(load_any(f))
    lines = game_text.split("\n")
    orders = [k for k, x in enumerate(lines) if '"kind":"order"' in x and '"to":"0312"' in x]
    i = orders[len(orders) // 2]
    lines[i] = lines[i].replace('"to":"0312"', '"to":"0313"')  # the same length: the same file size
    forged = "\n".join(lines)
    assert len(forged) == len(game_text) and forged[-2000:] == game_text[-2000:]
    f.write_text(forged, encoding="utf-8")
    with pytest.raises(ModelError, match="was changed after it was written"):
        Game(load_any(f))


def test_entries_laid_out_otherwise_inside_are_read_as_their_json(game_text: str) -> None:
    """An entry between the first and the last broken over lines (by
    another program) is read as the JSON says; the game is the same."""
    lines = game_text.split("\n")
    start = next(k for k, x in enumerate(lines) if x.startswith('{"hash":"'))
    lines[start + 2] = lines[start + 2].replace(',"turn":', ',\n  "turn":', 1)
    text = "\n".join(lines)
    g, want = Game(loads_any(text, "other.json")), Game(loads_any(game_text, "game.json"))
    assert len(g.journal) == len(want.journal) and g.journal.head == want.journal.head
    assert [e.hash for e in g.journal] == [e.hash for e in want.journal]


def test_a_file_read_again_unchanged_is_found_by_its_stamp(tmp_path: Path, game_text: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A file left unchanged since it was verified (its device, inode,
    size, modification and change times the same, and older than
    QUIET_S) is known by them: its entries are not hashed again.  Any
    write changes the change time, so an entry edited in the middle (its
    hash, the size and the end kept) is hashed, and refused."""
    import engine.io.journal_file as jf

    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "game.json"
    f.write_text(game_text, encoding="utf-8")
    Game(load_any(f))  # verified; the file was written just now: no stamp kept
    assert not list((tmp_path / "cache" / "journals").glob("stamp-*"))
    monkeypatch.setattr(jf, "QUIET_S", 0.0)  # (the file is taken as long left alone)
    hashed: list[int] = []
    real = jf.JournalLines.hasher
    monkeypatch.setattr(jf.JournalLines, "hasher", lambda self: (hashed.append(1), real(self))[1])
    Game(load_any(f))  # found by its digest; its stamp is kept
    assert hashed and list((tmp_path / "cache" / "journals").glob("stamp-*"))
    hashed.clear()
    g = Game(load_any(f))
    assert hashed == [] and len(g.journal) == len(Game(loads_any(game_text, "x")).journal)
    lines = game_text.split("\n")
    orders = [k for k, x in enumerate(lines) if '"kind":"order"' in x and '"to":"0312"' in x]
    i = orders[len(orders) // 2]
    lines[i] = lines[i].replace('"to":"0312"', '"to":"0313"')
    with open(f, "r+", encoding="utf-8") as out:  # the same file (inode), rewritten in place
        out.write("\n".join(lines))
    with pytest.raises(ModelError, match="was changed after it was written"):
        Game(load_any(f))
