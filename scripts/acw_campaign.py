"""A scripted game of "A Short ACW Campaign" on ``maps/acw_short_campaign.json``,
played through the command line (``adjutant orders`` / ``adjutant end-turn``)
until a side wins, and its play-by-post report (``adjutant journal
--markdown``) written to ``docs/examples/acw-campaign-report.md``.

Both generals are simple and deterministic (rules: ``docs/rules/acw.md``):

* the Union keeps a garrison at Aldie (A) that stays put and is reinforced
  there (A is on the rail line from the west edge) and sends the rest towards
  Nokesville (N), then from turn 11 Montpelier (M); the Rebels march a
  garrison to M, reinforce it there, and close on Union units within reach;
* every unit that halts next to the enemy attacks the weakest adjacent enemy
  hex; defending cavalry engaged by infantry withdraws when it can, the
  loser retreats to the first (safest) hex offered;
* post times are made up from the turn and the order's number, so the run is
  the same every time (but for the journal's hashes: each entry's salt is
  drawn at random, ``docs/file-format.md``).

``python scripts/acw_campaign.py [--out REPORT.md] [--keep GAME.json]``;
``tests/rules/test_acw_game.py`` regenerates the report and compares it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from app.cli import main as adjutant
from engine.io import load_any
from engine.rules.acw import check_move, reach
from engine.rules.acw.orders import cavalry_choices, owed_combats, pending_retreats
from engine.rules.acw.retreat import retreat_options
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "acw_short_campaign.json"
REPORT = ROOT / "docs" / "examples" / "acw-campaign-report.md"
GAME_NAME = "acw-campaign.json"
MAX_TURNS = 14
UNION_GARRISON = ("US-13", "US-HQ", "US-8A")
"""Stay at Aldie (A): it keeps A and is reinforced there (A is on the rail line from the west edge)."""
REBEL_GARRISON = ("CS-17", "CS-HQ", "CS-11A")
"""March to Montpelier (M) and hold it; reinforced there (M is on the rail line to the east edge)."""
UNION_GOALS = ((10, "N"), (MAX_TURNS, "M"))
"""The Union's objective by turn: Nokesville (N) up to turn 10, then M."""


def cli(*argv: str) -> str:
    """Run ``adjutant`` and return what it printed; a failure stops the script."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = adjutant(list(argv))
    if status != 0:
        raise SystemExit(f"adjutant {' '.join(argv)} failed ({status}):\n{out.getvalue()}")
    return out.getvalue()


def give(path: Path, orders: list[dict[str, Any]], work: Path, side: str | None = None) -> None:
    """Give ``orders`` as the orders file of ``side`` (the side to move when ``None``)."""
    if not orders:
        return
    f = work / "orders.json"
    f.write_text(json.dumps(orders), encoding="utf-8")
    cli("orders", str(path), "--orders", str(f), *(["--side", side] if side else []))


def game(path: Path) -> Game:
    return Game(load_any(str(path)))


def stamp(turn: int, n: int, ms: bool = False) -> str:
    """A made-up post time for order ``n`` of ``turn``."""
    h, m, s = 8 + (turn + n) % 12, (turn * 17 + n * 23) % 60, (turn * 31 + n * 7) % 60
    return f"{h}:{m:02d}:{s:02d}" + (f".{(turn * 211 + n * 97) % 1000:03d}" if ms else "")


def moves(g: Game) -> list[dict[str, Any]]:
    """Each unit of the side to move to the reachable hex nearest its goal."""
    s = g.scenario
    side = g.turn.side
    grid, lab = s.map.grid, s.map.label
    enemies = [u for u in s.units if u.side != side]
    m = s.map.parse_label("M")
    union_goal = s.map.parse_label(next(code for last, code in UNION_GOALS if g.turn.turn <= last))
    out = []
    for u in sorted((u for u in s.units if u.side == side), key=lambda u: u.id):
        if u.id in UNION_GARRISON or u.at == m and u.id in REBEL_GARRISON or not enemies:
            continue
        if side == "union":
            goal = union_goal
        elif u.id in REBEL_GARRISON:
            goal = m
        else:  # the Rebels close on the nearest Union unit within two moves' reach, else stay
            near = min(enemies, key=lambda e: (grid.distance(u.at, e.at), e.id))
            if grid.distance(u.at, near.at) > 6:
                continue
            goal = near.at
        r = reach(s, u)
        best = None
        for h in r.to_data()["reachable"]:
            if not h["ok"]:
                continue
            c = s.map.parse_label(h["hex"])
            key = (grid.distance(c, goal), h["cost"], h["hex"])
            if best is None or key < best[0]:
                best = (key, c)
        if best is None or best[1] == u.at or grid.distance(best[1], goal) >= grid.distance(u.at, goal):
            continue
        if check_move(s, u, best[1]).ok:
            out.append({"unit": u.id, "to": lab(best[1])})
            u.at = best[1]  # later units see where this one went (stacking)
    return out


def purchases(g: Game) -> list[dict[str, Any]]:
    s = g.scenario
    side = g.turn.side
    posts = {"union": s.map.parse_label("A"), "rebel": s.map.parse_label("M")}
    for uid in UNION_GARRISON + REBEL_GARRISON:
        if any(u.id == uid and u.side == side and u.at == posts[side] for u in s.units):
            order = {"unit": uid, "factors": 1}
            if g.check(order).ok:
                return [order]
    return []


def play_side(path: Path, work: Path) -> None:
    g = game(path)
    turn, side = g.turn.turn, g.turn.side
    first: list[dict[str, Any]] = []
    if side == "rebel":
        first.append({"reinforcement_post": stamp(turn, 0, ms=True)})
    give(path, first, work)
    give(path, purchases(game(path)), work)
    give(path, moves(game(path)), work)
    n = 1
    for _ in range(20):  # every combat owed, one at a time, and the retreats it leaves
        g = game(path)
        s = g.scenario
        retreats = pending_retreats(s)
        if retreats:
            r = retreats[0]
            plan = retreat_options(s, s.map.parse_label(r["hex"]), units=[s.unit(i) for i in r["units"]])
            give(path, [{"retreat": r["hex"], "to": plan.hexes[0].label}], work, str(r["side"]))
            continue
        if not owed_combats(s):
            break
        attacker = next(u for u in s.units if u.side == side and u.props.get("moved") and not u.props.get("fought")
                        and any(e.side != side and s.map.grid.are_adjacent(u.at, e.at) for e in s.units))
        targets = sorted({e.at for e in s.units if e.side != side and s.map.grid.are_adjacent(attacker.at, e.at)},
                         key=lambda c: (sum(x.strength for x in s.units_at(c)), s.map.label(c)))
        defend = s.map.label(targets[0])
        orders: list[dict[str, Any]] = []
        attack: dict[str, Any] = {"attack": s.map.label(attacker.at), "defend": defend, "time": stamp(turn, n)}
        for cav, hexes in cavalry_choices(s, targets[0]):  # the cavalry's owner chooses first
            orders.append({"withdraw": cav, "to": hexes[0]} if hexes else {"stand": cav})
        if orders:
            give(path, orders, work, s.unit(orders[0].get("withdraw") or orders[0]["stand"]).side)
            continue
        give(path, [attack], work)
        n += 1
    cli("end-turn", str(path))


def run(out: Path, keep: Path | None = None) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = work / GAME_NAME
        shutil.copyfile(MAP, path)
        for _ in range(2 * MAX_TURNS):
            if game(path).scenario.state.get("acw", {}).get("victory"):
                break
            play_side(path, work)
        report = cli("journal", str(path), "--markdown")
        report = report.replace(str(path), GAME_NAME)
        if keep is not None:
            shutil.copyfile(path, keep)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report, encoding="utf-8")
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=REPORT)
    p.add_argument("--keep", type=Path, help="also keep the finished game file here")
    a = p.parse_args(argv)
    run(a.out, a.keep)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
