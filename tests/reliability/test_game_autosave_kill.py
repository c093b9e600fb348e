"""The editor's autosave of a game, killed at random (``app/gui/autosave.py``):
a window plays orders and ends turns, each autosaved by appending in place
from a thread of its own, and the process is killed with SIGKILL at random
moments.  After every kill the autosave the next start offers
(:func:`app.gui.autosave.find_recoveries`) loads as a whole game — its
journal's chain and replay verified from scratch — at a position the
window had: never a torn file, never a game the window did not play."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest
from reliability_kit import kill_when_ready

from app.gui.autosave import find_recoveries
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from app.gui.main_window import MainWindow
from app.gui.systems import previews_for
from bench.journal import _safe_step
from engine.io import load_any

path, state, log = sys.argv[1], Path(sys.argv[2]), open(sys.argv[3], "a", encoding="utf-8")
app = QApplication([])
w = MainWindow(load_any(path), path, QSettings(str(state / "settings.ini"), QSettings.Format.IniFormat), state,
               previews=previews_for())
w.ask_unsaved = lambda: "discard"
w.show()
tc = w.turns
g = tc.game()
tc.set_playing(True)
def note():
    log.write(f"state {len(g.journal)} {g.journal.head}\n")
    log.flush()
note()
print("ready", flush=True)
k = 0
while True:
    k += 1
    moved = False
    for u in g.scenario.units:
        if u.side == g.turn.side and not g.turn.did(u.id, "moved"):
            to = _safe_step(g.scenario, u)
            if to is not None and g.check({"unit": u.id, "to": to}).ok:
                note()  # the step is under way: the autosave may hold it or the one before
                tc.give({"unit": u.id, "to": to})
                moved = True
                break
    if not moved or k % 4 == 0:
        note()
        tc.end()
    note()
    for _ in range(3):
        app.processEvents()
"""


def _kill_test(tmp_path: Path, turns: int, kills: int) -> None:
    sys.path.insert(0, str(ROOT))
    from bench.journal import build

    path = tmp_path / "game.json"
    path.write_text(build(turns, more=50), encoding="utf-8")
    rng = random.Random(20261208)
    env = dict(os.environ, ADJUTANT_CACHE_DIR=str(tmp_path / "child-cache"), PYTHONPATH=str(ROOT))
    recovered = interrupted = 0
    for k in range(kills):
        state = tmp_path / f"state{k}"
        state.mkdir()
        log = tmp_path / f"steps{k}.log"
        log.write_text("", encoding="utf-8")
        kill_when_ready([sys.executable, "-c", CHILD, str(path), str(state), str(log)], rng.uniform(0.3, 1.5),
                        ROOT, env)
        played = {(int(n), h) for x in log.read_text(encoding="utf-8").split("\n") if x.startswith("state ")
                  for _, n, h in [x.split()]}
        interrupted += any(p.name.endswith(".journal-undo") for p in (state / "autosave").glob(".*"))
        found = find_recoveries(state)
        if not found:  # killed before the first step was autosaved
            continue
        assert len(found) == 1, found
        scenario, _notes = found[0].load()
        os.environ["ADJUTANT_CACHE_DIR"] = str(tmp_path / f"fresh-cache{k}")  # verified from scratch
        game = Game(scenario)
        assert (len(game.journal), game.journal.head) in played, f"kill {k + 1}: a position the window never had"
        recovered += 1
    assert recovered >= kills // 2, f"only {recovered} of {kills} kills left an autosave"
    print(f"{kills} kills at {turns} turns; {recovered} autosaves recovered whole, {interrupted} killed inside "
          f"an append (its undo record left)")


def test_killed_game_autosaves_recover_a_position_the_window_had(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    _kill_test(tmp_path, 20, 5)


@pytest.mark.slow
def test_killed_game_autosaves_recover_a_position_the_window_had_long(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))
    _kill_test(tmp_path, 1000, 20)
