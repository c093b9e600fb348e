"""Play by post through files: each side's planned orders file, the game
master's apply, side exports with hidden units, signatures and dice anyone
can verify (docs/play-by-post.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.io import load_any, save_any
from engine.turns.game import Game
from engine.turns.journal import Journal

ROOT = Path(__file__).resolve().parent.parent.parent
ACW = ROOT / "maps" / "acw_short_campaign.json"
RAIL = ROOT / "maps" / "aa_rail_options.json"
ACW_SIGHT = {"sighting": {"cav": 8, "default": 3}, "identify": {"cav": 5, "default": 2}}


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "gm-config"
    monkeypatch.setenv("ADJUTANT_CONFIG_DIR", str(d))
    return d


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def state(f: Path) -> dict[str, Any]:
    return dict(json.loads(f.read_text(encoding="utf-8"))["state"]["game"])


def planned(f: Path, out: Path, side: str, orders: list[dict[str, Any]], salt: str | None = None) -> Path:
    """A player's orders file, written by hand as docs/turns.md shows."""
    g = state(f)
    data: dict[str, Any] = {"format": "adjutant-orders", "version": 1, "side": side, "turn": g["turn"]["turn"],
                            "phase": g["turn"]["phase"], "head": g["journal"]["head"]}
    if salt:
        data["salt"] = salt
    data["orders"] = orders
    out.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return out


def acw_game(tmp_path: Path) -> Path:
    s = load_any(str(ACW))
    s.state["setup_accepted"] = True
    s.state["visibility"] = ACW_SIGHT
    Game(s)  # the game begins: its turn state and empty journal in the file
    f = tmp_path / "acw.json"
    save_any(s, str(f))
    return f


def no_leak(side_file: Path, report: str, game_file: Path, side: str) -> None:
    """No unit the side does not see is named, nor where it stands, in the
    side's file (the map aside: it is the same for everyone) or its report."""
    from engine.turns.views import seen

    s = load_any(str(game_file))
    full, vague = seen(s, side)
    data = json.loads(side_file.read_text(encoding="utf-8"))
    data.pop("map")
    text = json.dumps(data)
    grid = getattr(s.map, "territories", None) is None
    shown_at = {str(s.map.label(u.at)) if grid else u.at for u in s.units if u.id in full | vague}
    hidden = [u for u in s.units if u.id not in full]
    assert hidden, "the round must hide something"
    def named(word: str, t: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", t) is not None

    for u in hidden:
        assert not named(u.id, text) and not named(u.id, report), u.id
        where = str(s.map.label(u.at)) if grid else None
        if where and u.id not in vague and where not in shown_at:
            assert not named(where, text) and not named(where, report), (u.id, where)


def test_an_acw_round_through_both_sides_orders_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = acw_game(tmp_path)
    assert run(["sign", str(f)], capsys)[0] == 0
    union = planned(f, tmp_path / "union-t1.json", "union",
                    [{"unit": "US-3C", "to": "1106"}, {"unit": "US-6", "to": "0805"}], salt="for the Union")
    code, out, err = run(["orders", str(f), "--orders", str(union), "--dry-run"], capsys)
    assert code == 0 and "not written (--dry-run)" in out, err
    code, out, err = run(["orders", str(f), "--orders", str(union), "--json"], capsys)
    assert code == 0, err
    digest = json.loads(out)["entries"][0]["verdict"]["source"]
    import hashlib

    assert digest == {"file": hashlib.sha256(union.read_bytes()).hexdigest(), "sent_by": "union",
                      "salt": "for the Union"}
    # the same file again: it was planned against a head the game has moved on from
    code, out, err = run(["orders", str(f), "--orders", str(union)], capsys)
    assert code == 1 and "planned against journal head" in err and "2 entries written since: 1. US-3C to 1106" in err
    assert run(["end-turn", str(f)], capsys)[0] == 0
    for side in ("union", "rebel"):
        assert run(["export-side", str(f), "--side", side, "--out", str(tmp_path / f"{side}-1.json")], capsys)[0] == 0
    # a union file for the rebels' move is refused, with the reason
    late = planned(f, tmp_path / "late.json", "union", [{"unit": "US-3", "to": "0510"}])
    code, _, err = run(["orders", str(f), "--orders", str(late)], capsys)
    assert code == 1 and "it is the Rebels' move and no choice waits for the Union" in err
    rebel = planned(f, tmp_path / "rebel-t1.json", "rebel",
                    [{"unit": "CS-45C", "to": "2510"}, {"unit": "CS-34", "to": "1919"}], salt="for the South")
    code, out, err = run(["orders", str(f), "--orders", str(rebel)], capsys)
    assert code == 0, out + err
    assert run(["end-turn", str(f)], capsys)[0] == 0
    for side in ("union", "rebel"):
        out_file = tmp_path / f"{side}-2.json"
        assert run(["export-side", str(f), "--side", side, "--out", str(out_file)], capsys)[0] == 0
        code, report, _ = run(["journal", str(f), "--markdown", "--side", side], capsys)
        assert code == 0 and "withheld" in report
        no_leak(out_file, report, f, side)
        code, out, _ = run(["validate", str(out_file)], capsys)
        assert code == 0 and "signed by the game master" in out, out
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 0 and "signed by the game master's key" in out
    code, out, _ = run(["journal", str(f), "--verify-dice"], capsys)
    assert code == 0


def test_a_side_file_whose_entry_or_end_was_changed_is_refused(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    f = acw_game(tmp_path)
    assert run(["sign", str(f)], capsys)[0] == 0
    union = planned(f, tmp_path / "u.json", "union", [{"unit": "US-3C", "to": "1106"}])
    assert run(["orders", str(f), "--orders", str(union)], capsys)[0] == 0
    assert run(["end-turn", str(f)], capsys)[0] == 0
    side = tmp_path / "union.json"
    assert run(["export-side", str(f), "--side", "union", "--out", str(side)], capsys)[0] == 0
    data = json.loads(side.read_text(encoding="utf-8"))
    view = data["state"]["side_view"]
    whole = next(i for i, e in enumerate(view["entries"]) if not e.get("withheld"))
    view["entries"][whole]["summary"] = "US-3C to 2009"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(["validate", str(bad)], capsys)
    assert code == 1 and "was changed after it was written" in out
    data = json.loads(side.read_text(encoding="utf-8"))
    view = data["state"]["side_view"]
    view["entries"].pop()
    view["signing"]["signatures"].pop()
    view["count"] -= 1
    view["head"] = view["entries"][-1]["hash"]
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(["validate", str(bad)], capsys)
    assert code == 1 and "the export is not signed by the game master's key" in out


def rail_game(tmp_path: Path) -> Path:
    s = load_any(str(RAIL))
    s.state["visibility"] = {"by": "territory", "adjacent": "a unit"}
    Game(s)  # the game begins: its turn state and empty journal in the file
    f = tmp_path / "rail.json"
    save_any(s, str(f))
    return f


def to_phase(f: Path, side: str, phase: str, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(40):
        t = state(f)["turn"]
        if t["side"] == side and t["phase"] == phase:
            return
        assert run(["end-turn", str(f), "--phase"], capsys)[0] == 0
    raise AssertionError(f"never reached {side} {phase}")


def rail_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    f = rail_game(tmp_path)
    to_phase(f, "germany", "noncombat", capsys)
    ger = planned(f, tmp_path / "germany.json", "germany", [{"unit": "ger_inf", "to": "smolensk"}])
    code, out, err = run(["orders", str(f), "--orders", str(ger)], capsys)
    assert code == 0, out + err
    assert run(["end-turn", str(f)], capsys)[0] == 0
    for side in ("germany", "uk"):
        assert run(["export-side", str(f), "--side", side, "--out", str(tmp_path / f"{side}-a.json")], capsys)[0] == 0
    to_phase(f, "uk", "combat", capsys)
    code, out, err = run(["dice", str(f), "--commit"], capsys)
    assert code == 0 and "commits to a dice seed" in out, err
    uk = planned(f, tmp_path / "uk.json", "uk",
                 [{"action": "bomb", "nation": "uk", "territory": "germany", "bombers": 2}], salt="Bomber Command")
    code, out, err = run(["orders", str(f), "--orders", str(uk), "--json"], capsys)
    assert code == 0, out + err
    entry = json.loads(out)["entries"][0]
    rolls = entry["verdict"]["dice"]["rolls"]
    assert [r["purpose"] for r in rolls[:2]] == ["anti-aircraft fire at bomber 1 of 2 over germany",
                                                 "anti-aircraft fire at bomber 2 of 2 over germany"]
    assert entry["order"]["aa"] == [r["value"] for r in rolls[:2]]
    assert entry["effect"]["record"]["dice"] == [r["value"] for r in rolls[2:]]
    code, out, _ = run(["journal", str(f), "--verify-dice"], capsys)
    assert code == 0 and "waiting for their seed's reveal" in out
    code, out, _ = run(["end-turn", str(f)], capsys)
    assert code == 0 and "reveals the dice seed" in out
    for side in ("germany", "uk"):
        out_file = tmp_path / f"{side}-b.json"
        assert run(["export-side", str(f), "--side", side, "--out", str(out_file)], capsys)[0] == 0
        code, report, _ = run(["journal", str(f), "--markdown", "--side", side], capsys)
        assert code == 0
        if side == "uk":
            no_leak(out_file, report, f, side)
            assert "bombs the rail in Germany with 2 bombers" in report  # its own raid is its to read
        assert run(["validate", str(out_file)], capsys)[0] == 0
    return f


def test_a_rail_options_round_with_a_bombing_raid_and_dice_anyone_can_verify(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = rail_round(tmp_path, capsys)
    code, out, _ = run(["journal", str(f), "--verify-dice"], capsys)
    n = 2 + 2 - sum(1 for d in next(e for e in Game(load_any(str(f))).journal if "dice" in e.verdict).order["aa"]
                    if d == 1)  # two anti-aircraft dice, a bombing die for each bomber left
    assert code == 0 and f"{n} rolls checked against 1 revealed seed" in out and "every roll matches" in out
    # a forger who changes one roll and recomputes the whole chain (each entry keeping its salt, so the heads
    # before the raid are the game's) is named by the dice check
    s = load_any(str(f))
    g = Game(s)
    entries = list(g.journal)
    k = next(i for i, e in enumerate(entries) if "dice" in e.verdict)
    e = entries[k]
    dice = json.loads(json.dumps(e.verdict["dice"]))
    dice["rolls"][-1]["value"] = dice["rolls"][-1]["value"] % 6 + 1
    entries[k] = type(e)(**{**{n: getattr(e, n) for n in ("turn", "phase", "side", "kind", "system", "summary",
                                                           "order", "reasons", "effect", "time", "salt")},
                            "verdict": {**e.verdict, "dice": dice}})
    s.state["game"]["journal"] = Journal([type(x)(**{n: getattr(x, n) for n in (
        "turn", "phase", "side", "kind", "system", "summary", "order", "verdict", "reasons", "effect", "time",
        "salt")})
        for x in entries]).to_data(g.turn.to_data())
    forged = tmp_path / "forged.json"
    save_any(s, str(forged))
    code, out, _ = run(["journal", str(forged), "--verify-dice"], capsys)
    assert code == 1
    bad = [line for line in out.splitlines() if "DOES NOT MATCH" in line]
    assert len(bad) == 1 and f"entry {k + 1} " in bad[0] and f"roll {n} (" in bad[0], out


def test_a_raid_without_a_commitment_asks_for_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = rail_game(tmp_path)
    to_phase(f, "uk", "combat", capsys)
    uk = planned(f, tmp_path / "uk.json", "uk", [{"action": "bomb", "nation": "uk", "territory": "germany"}])
    code, out, _ = run(["orders", str(f), "--orders", str(uk)], capsys)
    assert code == 1 and "adjutant dice GAME --commit" in out
    typed = planned(f, tmp_path / "typed.json", "uk",
                    [{"action": "bomb", "nation": "uk", "territory": "germany", "aa": [5], "dice": [3]}])
    code, out, err = run(["orders", str(f), "--orders", str(typed), "--rebase"], capsys)
    assert code == 0, out + err
    code, out, _ = run(["journal", str(f), "--verify-dice"], capsys)
    assert code == 0 and "1 entry with dice typed by the game master" in out


def test_a_signed_game_is_extended_only_by_its_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    f = acw_game(tmp_path)
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 0
    assert run(["sign", str(f)], capsys)[0] == 0
    u = planned(f, tmp_path / "u.json", "union", [{"unit": "US-3C", "to": "1106"}])
    assert run(["orders", str(f), "--orders", str(u)], capsys)[0] == 0
    before = f.read_bytes()
    monkeypatch.setenv("ADJUTANT_CONFIG_DIR", str(tmp_path / "a-player"))
    code, _, err = run(["end-turn", str(f)], capsys)
    assert code == 1 and "only the game master extends the record" in err and f.read_bytes() == before
    # a player who appends an entry by hand and recomputes the chain is found
    s = load_any(str(f))
    g = Game(s)
    g.signer = None
    g.end_turn()
    forged = tmp_path / "forged.json"
    save_any(s, str(forged))
    code, out, _ = run(["validate", str(forged)], capsys)
    assert code == 1 and "is not signed: the record was extended by someone who does not hold" in out
    # the game master's key lost: a new key takes over by a hand-over entry
    code, out, _ = run(["sign", str(f), "--hand-over", "--reason", "laptop lost"], capsys)
    assert code == 0 and "takes over from" in out and "laptop lost" in out
    assert run(["end-turn", str(f)], capsys)[0] == 0
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 0 and "signed by the game master's key" in out, out


def test_orders_files_old_and_new(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = acw_game(tmp_path)
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps([{"unit": "US-3C", "to": "1106"}]), encoding="utf-8")
    code, out, err = run(["orders", str(f), "--orders", str(plain), "--dry-run"], capsys)
    assert code == 0, err
    for bad, why in [({"side": "union", "turn": 1, "orders": []}, "phase, head missing"),
                     ({"side": "union", "turn": 1, "phase": "movement", "head": "abc", "orders": []},
                      "\"head\" must be a journal head"),
                     ({"format": "other", "orders": []}, "\"format\" must be 'adjutant-orders'"),
                     ({"orders": [], "salt": ""}, "\"salt\" must be text"),
                     ({"orders": [], "colour": "red"}, "unknown key colour")]:
        p = tmp_path / "bad.json"
        p.write_text(json.dumps(bad), encoding="utf-8")
        code, _, err = run(["orders", str(f), "--orders", str(p)], capsys)
        assert code == 1 and why in err and "Traceback" not in err, err
    other = planned(f, tmp_path / "t2.json", "union", [])
    data = json.loads(other.read_text(encoding="utf-8"))
    data["turn"] = 2
    other.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["orders", str(f), "--orders", str(other)], capsys)
    assert code == 1 and "the file is for turn 2, movement phase; the game is in turn 1, movement phase" in err
    data["turn"], data["head"] = 1, "ab" * 32
    other.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(["orders", str(f), "--orders", str(other)], capsys)
    assert code == 1 and "not an entry of this game's journal" in err


@pytest.mark.parametrize("change, why", [
    (lambda g: g["signing"].update(key="zz"), "state.game.signing.key: expected an Ed25519 public key"),
    (lambda g: g["signing"].update(signatures="x"), "state.game.signing.signatures: expected a list"),
    (lambda g: g["signing"]["signatures"].__setitem__(0, "00" * 64), "entry 1 (turn 1, order: US-3C to 1106) is "
                                                                         "not signed by the game master's key"),
    (lambda g: g.update(signing=[]), "state.game.signing: expected an object"),
])
def test_a_malformed_signing_block_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any,
                                            why: str) -> None:
    f = acw_game(tmp_path)
    assert run(["sign", str(f)], capsys)[0] == 0
    u = planned(f, tmp_path / "u.json", "union", [{"unit": "US-3C", "to": "1106"}])
    assert run(["orders", str(f), "--orders", str(u)], capsys)[0] == 0
    data = json.loads(f.read_text(encoding="utf-8"))
    change(data["state"]["game"])
    f.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["validate", str(f)], capsys)
    assert code == 1 and why in out and "Traceback" not in out + err, out


def test_a_malformed_visibility_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = acw_game(tmp_path)
    data = json.loads(f.read_text(encoding="utf-8"))
    data["state"]["visibility"] = {"sighting": {"cav": -1}}
    f.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(["validate", str(f)], capsys)
    assert code == 1 and "state.visibility.sighting: expected an object of unit type -> range" in out
    code, _, err = run(["export-side", str(f), "--side", "union", "--out", str(tmp_path / "u.json")], capsys)
    assert code == 1 and "state.visibility.sighting" in err and not (tmp_path / "u.json").exists()


def test_sighting_and_identifying_on_a_grid_map() -> None:
    from engine.turns.views import seen

    s = load_any(str(ACW))
    s.state["visibility"] = ACW_SIGHT
    s.unit("US-3C").at = s.map.parse_label("1106")
    full, vague = seen(s, "union")
    assert "CS-37C" in full  # 5 hexes from the cavalry: identified
    assert {"CS-39", "CS-51"} <= vague  # 6 hexes: seen, not identified
    assert "CS-45C" not in full | vague  # beyond 8 hexes: hidden
    s.state["visibility"] = {"by": "all"}
    assert seen(s, "union") == ({u.id for u in s.units}, set())
