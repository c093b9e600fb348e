"""Crash-safe game saves (each save appends the new journal entries in
place, ``engine.io.journal_file.append_in_place``).

* **Torn appends, at every point**: a child process saving a game kills
  itself with SIGKILL at each step of the append — after writing the undo
  record, half-way through the new end, after the whole end but before the
  file's length is set, after the sync but before the record is dropped.
  ``adjutant validate`` then passes and the file is byte for byte the whole
  game before the save, or after it once its new end is all there (the
  record says how long the new file is and the digest of its end).
* **Random kills**: a child playing a long ACW game (an order, then its
  save, over and over) is killed at random moments; after every kill
  ``validate`` passes and the file holds the journal of the last save that
  finished or of the one the kill cut short, whole.  Short form: a 40-turn
  game, 6 kills; long form (``slow``): the 1,000-turn game of
  ``bench/journal.py``, 30 kills.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from reliability_kit import kill_when_ready

from app.cli import main
from engine.io import load_any, loads_any
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import sys
from engine.io import load_any, save_any
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
    log.write(f"pending {len(g.journal)} {g.journal.head}\n")
    log.flush()
    save_any(s, path)
    log.write("done\n")
    log.flush()
"""

TORN = r"""
import os, signal, sys
import engine.io.journal_file as jf
from engine.io import dumps_any, load_any, save_any
from engine.turns.game import Game

path, point, new_text = sys.argv[1], sys.argv[2], sys.argv[3]
s = load_any(path)
g = Game(s)
unit = next(u for u in s.units if u.side == g.turn.side)
g.give({"unit": unit.id, "to": s.map.label(next(c for c in s.map.grid.neighbours(unit.at)
                                                  if s.map.grid.contains(c)))})
g.end_turn()
open(new_text, "w", encoding="utf-8").write(dumps_any(s))

def die():
    os.kill(os.getpid(), signal.SIGKILL)

real_pwrite, real_truncate, real_unlink, real_fsync = os.pwrite, os.ftruncate, os.unlink, os.fsync
if point == "record":
    jf.os.pwrite = lambda fd, data, offset: die()
elif point == "half":
    jf.os.pwrite = lambda fd, data, offset: (real_pwrite(fd, data[:len(data) // 2], offset), die())
elif point == "length":
    jf.os.ftruncate = lambda fd, n: die()
elif point == "synced":
    jf.os.unlink = lambda p: die() if str(p).endswith(".journal-undo") else real_unlink(p)
save_any(s, path)
print("not killed", flush=True)
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
    game = Game(load_any(path))
    whole = (len(game.journal), game.journal.head)
    interrupted = 0
    for k in range(kills):
        log.write_text("", encoding="utf-8")
        kill_when_ready([sys.executable, "-c", CHILD, str(path), str(log)], rng.uniform(0.05, 0.6), ROOT)
        events = log.read_text(encoding="utf-8").split("\n")
        pending = [(int(e.split()[1]), e.split()[2]) for e in events if e.startswith("pending ")]
        done = events.count("done")
        before = pending[done - 1] if done else whole  # the last save that finished
        during = pending[done] if len(pending) > done else before  # the save the kill cut short, if any
        interrupted += any(p.name.endswith(".journal-undo") for p in tmp_path.iterdir())
        assert main(["validate", str(path)]) == 0, f"kill {k + 1}"
        game = Game(load_any(path))
        now = (len(game.journal), game.journal.head)
        assert now in (before, during), f"kill {k + 1}: the journal is neither the one before nor after its save"
        assert not any(p.name.endswith(".journal-undo") for p in tmp_path.iterdir())
        whole = now
    print(f"{kills} kills at {turns} turns; {interrupted} interrupted an append (left its undo record)")


@pytest.mark.parametrize("point, kept", [("record", "old"), ("half", "old"), ("length", "whole"),
                                         ("synced", "new")])
def test_a_torn_append_is_finished_or_taken_back(tmp_path: Path, point: str, kept: str) -> None:
    path = _game(tmp_path, 3)
    Game(load_any(path))  # verified once, as the child's own read is
    old = path.read_bytes()
    new_text = tmp_path / "new.json"
    child = subprocess.run([sys.executable, "-c", TORN, str(path), point, str(new_text)], cwd=ROOT,
                           capture_output=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()[-2000:]
    new = new_text.read_bytes()
    assert (tmp_path / ".game.json.journal-undo").exists()  # killed inside the append
    assert main(["validate", str(path)]) == 0
    assert path.read_bytes() in ({"old": [old], "new": [new]}.get(kept) or [old, new])
    assert not (tmp_path / ".game.json.journal-undo").exists()


def test_killed_game_saves_leave_old_or_new_short(tmp_path: Path) -> None:
    _kill_test(tmp_path, 40, 6)


@pytest.mark.slow
def test_killed_game_saves_leave_old_or_new_long(tmp_path: Path) -> None:
    _kill_test(tmp_path, 1000, 30)


def test_a_reader_during_an_append_reads_the_whole_old_file_and_changes_nothing(tmp_path: Path) -> None:
    """An undo record whose writer still holds it (an append under way in
    another process) is not a crash: a reader reads the old file whole and
    leaves the file and the record alone."""
    import fcntl

    path = _game(tmp_path, 3)
    Game(load_any(path))
    old = path.read_bytes()
    child = subprocess.run([sys.executable, "-c", TORN, str(path), "half", str(tmp_path / "new.json")], cwd=ROOT,
                           capture_output=True, timeout=120)
    assert child.returncode == -signal.SIGKILL
    torn = path.read_bytes()
    undo = tmp_path / ".game.json.journal-undo"
    fd = os.open(undo, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as the writer holds it while it writes
        s = load_any(path)
        assert len(Game(s).journal) == len(Game(loads_any(old.decode("utf-8"), "old")).journal)
        assert path.read_bytes() == torn and undo.exists()
    finally:
        os.close(fd)
    assert main(["validate", str(path)]) == 0 and path.read_bytes() == old and not undo.exists()
