"""Crash-safe game saves: a child process playing a long ACW game (an order,
then its save, over and over: each save appends the new entries in place,
``engine.io.journal_file.append_in_place``) is killed with SIGKILL at random
moments.  After every kill, ``adjutant validate`` passes on the file (its
first read finishes or takes back an append the kill cut short), and the
file is byte for byte the whole game before the save the kill interrupted
or the whole game after it — never a mixture, never an entry lost from a
save that had finished.

Short form: a 40-turn game, 6 kills; long form (``slow``): the 1,000-turn
game of ``bench/journal.py``, 30 kills.  The test counts the kills that left
the append's undo record, which proves they interrupted a write.
"""

from __future__ import annotations

import hashlib
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import hashlib, sys
from engine.io import dumps_any, load_any, save_any
from engine.turns.game import Game

path, log = sys.argv[1], open(sys.argv[2], "a", encoding="utf-8")
s = load_any(path)
g = Game(s)
print("ready", flush=True)
k = 0
while True:
    side = g.turn.side
    unit = next(u for u in s.units if u.side == side)
    cell = next(c for c in s.map.grid.neighbours(unit.at) if s.map.grid.contains(c))
    g.give({"unit": unit.id, "to": s.map.label(cell)})  # carried out or refused: journalled either way
    k += 1
    if k % 3 == 0:
        try:
            g.end_turn()
        except ValueError:  # the game is over: orders are still journalled (refused)
            pass
    log.write("pending " + hashlib.sha256(dumps_any(s).encode("utf-8")).hexdigest() + "\n")
    log.flush()
    save_any(s, path)
    log.write("done\n")
    log.flush()
"""


def _game(tmp_path: Path, turns: int) -> Path:
    sys.path.insert(0, str(ROOT))
    from bench.journal import build

    path = tmp_path / "game.json"
    path.write_text(build(turns), encoding="utf-8")
    return path


def _kill_test(tmp_path: Path, turns: int, kills: int) -> None:
    path = _game(tmp_path, turns)
    log = tmp_path / "saves.log"
    rng = random.Random(20261128)
    whole = hashlib.sha256(path.read_bytes()).hexdigest()
    interrupted = 0
    for k in range(kills):
        log.write_text("", encoding="utf-8")
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(log)], stdout=subprocess.PIPE,
                                 cwd=ROOT)
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == b"ready"
            time.sleep(rng.uniform(0.05, 0.6))
            child.send_signal(signal.SIGKILL)
        finally:
            child.wait(timeout=60)
            if child.stdout is not None:
                child.stdout.close()
        assert child.returncode == -signal.SIGKILL
        events = log.read_text(encoding="utf-8").split("\n")
        pending = [e.split()[1] for e in events if e.startswith("pending ")]
        done = events.count("done")
        before = pending[done - 1] if done else whole  # the last save that finished
        during = pending[done] if len(pending) > done else before  # the save the kill cut short, if any
        interrupted += any(p.name.endswith(".journal-undo") for p in tmp_path.iterdir())
        assert main(["validate", str(path)]) == 0, f"kill {k + 1}"
        now = hashlib.sha256(path.read_bytes()).hexdigest()
        assert now in (before, during), f"kill {k + 1}: the file is neither the game before nor after its save"
        assert not any(p.name.endswith(".journal-undo") for p in tmp_path.iterdir())
        whole = now
    print(f"{kills} kills at {turns} turns; {interrupted} interrupted an append (left its undo record)")
    if kills >= 20:
        assert interrupted > 0, "no kill landed during an append: the test did not test anything"


def test_killed_game_saves_leave_old_or_new_short(tmp_path: Path) -> None:
    _kill_test(tmp_path, 40, 6)


@pytest.mark.slow
def test_killed_game_saves_leave_old_or_new_long(tmp_path: Path) -> None:
    _kill_test(tmp_path, 1000, 30)
