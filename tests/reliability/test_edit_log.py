"""The autosave's edit log (issue 21: "after any crash, every unsaved edit of
every open window is offered on the next start"; ``app/gui/step_log.py``).

The autosave writes the whole work on its timer (60 s); between two whole
writes every undo step is logged before it is carried out.  These tests
check that what a crash leaves is recovered exactly — with no whole
autosave at all (the log on the map's own file), after whole writes, on
grid and territory maps, through strokes, undo and redo — and that the log
is safe to read: a frame cut short by the kill ends it, a foreign pickle is
never run, a changed map file is named and its log kept.

The kill harness: a process that has imported everything once forks an
editing session per kill, which makes a fixed, seeded sequence of edits
(paint strokes, units, undo, redo, a whole autosave every 40 steps) and
reports each finished step; it is SIGKILLed at a random step.  The work
recovered must be exactly the work after the last reported step or the one
it was in (its step was logged before it was carried out): no edit lost.
20 kills in CI, 60 under ``-m slow``.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from app.gui.autosave import Autosave, find_recoveries
from app.gui.document import Document
from app.gui.step_log import StepLog, read_log, replay
from app.gui.territory.document import TerritoryDocument
from engine.editing import brush_cells, new_scenario, plan_add_unit, plan_paint
from engine.grids import Cell
from engine.io import dumps_any, load_any, save_scenario
from engine.model import Unit

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]

STEPS = r'''
import random as _random
from engine.editing import brush_cells as _brush, plan_add_unit as _add_unit, plan_paint as _paint
from engine.grids import Cell as _Cell
from engine.model import Unit as _Unit

def perform(doc, i):
    """Edit step i of the fixed sequence (the same in every process)."""
    rng = _random.Random(i * 7919 + 17)
    s = doc.scenario
    w, h = s.map.grid.width, s.map.grid.height
    stack = doc.undo_stack
    k = i % 10
    if k == 9 and stack.canUndo():
        stack.undo()
    elif k == 0 and stack.canRedo():
        stack.redo()
    elif k == 6:
        cell = _Cell(rng.randrange(w), rng.randrange(h))
        doc.push("Add unit", _add_unit(s, _Unit(f"k{i}", s.sides[i % len(s.sides)].id, "infantry", cell, 3)))
    else:
        cells = _brush(s.map.grid, _Cell(rng.randrange(w), rng.randrange(h)), rng.randrange(1, 6))
        doc.push("Paint", _paint(s, "terrain", cells, rng.randrange(len(s.ruleset.terrain))), 1000 + i // 3)
'''
NAMESPACE: dict[str, Any] = {}
exec(STEPS, NAMESPACE)  # noqa: S102 — the same step code the child processes run
perform = NAMESPACE["perform"]


def _saved_map(tmp_path: Path, size: int = 40) -> Path:
    s = new_scenario("Logged", {"kind": "hex", "width": size, "height": size, "orientation": "flat",
                                "parity": "odd"}, {"scheme": "ccrr"})
    path = tmp_path / "logged.json"
    save_scenario(s, path)
    return path


def _recover(state: Path) -> tuple[Any, list[str]]:
    recs = find_recoveries(state)
    assert len(recs) == 1, recs
    return recs[0].load()


# -- the log itself ---------------------------------------------------------------

def test_a_log_round_trips_its_steps_and_ends_at_a_cut_short_frame(qapp: Any, tmp_path: Path) -> None:
    s = load_any(_saved_map(tmp_path))
    edits = [plan_paint(s, "terrain", brush_cells(s.map.grid, Cell(4, 4), 3), 2),
             plan_add_unit(s, Unit("a1", s.sides[0].id, "infantry", Cell(1, 1), 2))]
    log = StepLog.start(tmp_path / "x.steps", {"base": "file", "path": "p", "sha256": "0"})
    log.append("apply", edits[:1])
    log.append("apply", edits[1:])
    log.append("revert", edits[1:])
    whole = (tmp_path / "x.steps").read_bytes()
    read = read_log(tmp_path / "x.steps")
    assert read.base["base"] == "file" and [k for k, _ in read.steps] == ["apply", "apply", "revert"]
    assert read.notes == []
    (tmp_path / "x.steps").write_bytes(whole[:-5])  # the kill landed inside the last append
    read = read_log(tmp_path / "x.steps")
    assert len(read.steps) == 2 and "cut short" in read.notes[0]
    fresh = load_any(_saved_map(tmp_path))
    replay(fresh, read.steps)
    assert fresh.map.terrain_at(Cell(4, 4)) == 2 and [u.id for u in fresh.units] == ["a1"]


class _Boom:
    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, ("touch pwned",))


def test_a_foreign_pickle_in_the_log_is_never_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    log = StepLog.start(tmp_path / "x.steps", {"base": "autosave", "sha256": "0"})
    payload = pickle.dumps(("apply", [_Boom()]))
    with open(tmp_path / "x.steps", "ab") as f:
        f.write(struct.pack(">II", len(payload), zlib.crc32(payload)) + payload)
    assert log.path.exists()
    read = read_log(tmp_path / "x.steps")
    assert read.steps == [] and "is not an engine record" in read.notes[0]
    assert not (tmp_path / "pwned").exists()


# -- what a crash leaves is recovered exactly ---------------------------------------

def test_edits_after_opening_are_recovered_without_any_whole_autosave(qapp: Any, tmp_path: Path) -> None:
    path = _saved_map(tmp_path)
    doc = Document(load_any(path), str(path))
    auto = Autosave(doc, tmp_path / "state", interval_ms=10**9)
    for i in range(25):
        perform(doc, i)
    assert doc.is_modified()
    assert not auto.data_path.exists(), "a document matching its file logs on that file, with no whole write"
    auto.abandon()  # the crash
    scenario, notes = _recover(tmp_path / "state")
    assert dumps_any(scenario) == doc.text()
    assert any("replayed" in n for n in notes)


def test_edits_after_a_whole_autosave_are_recovered(qapp: Any, tmp_path: Path) -> None:
    path = _saved_map(tmp_path)
    doc = Document(load_any(path), str(path))
    auto = Autosave(doc, tmp_path / "state", interval_ms=10**9)
    for i in range(12):
        perform(doc, i)
    assert auto.save_now()
    for i in range(12, 31):
        perform(doc, i)
    auto.abandon()
    scenario, _ = _recover(tmp_path / "state")
    assert dumps_any(scenario) == doc.text()


def test_territory_edits_are_recovered(qapp: Any, tmp_path: Path) -> None:
    src = ROOT / "maps" / "aa_rail_options.json"
    path = tmp_path / "europe.json"
    path.write_bytes(src.read_bytes())
    doc = TerritoryDocument(load_any(path), str(path))
    auto = Autosave(doc, tmp_path / "state", interval_ms=10**9)
    tids = sorted(doc.scenario.map.territories)[:6]
    for n, tid in enumerate(tids):
        assert doc.set_attribute(tid, "value", 10 + n)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    auto.abandon()
    scenario, _ = _recover(tmp_path / "state")
    assert dumps_any(scenario) == doc.text()


def test_a_change_that_is_no_logged_step_writes_the_whole_work(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    path = _saved_map(tmp_path)
    doc = Document(load_any(path), str(path))
    auto = Autosave(doc, tmp_path / "state", interval_ms=10**9)
    perform(doc, 1)
    doc.scenario.name = "Renamed by a game step"  # as the turn controller changes state outside edit records
    doc.edited.emit(None)
    qtbot.waitUntil(auto.data_path.exists, timeout=2000)
    perform(doc, 2)
    auto.abandon()
    scenario, _ = _recover(tmp_path / "state")
    assert scenario.name == "Renamed by a game step" and dumps_any(scenario) == doc.text()


def test_a_map_file_changed_since_is_named_and_its_log_kept(qapp: Any, tmp_path: Path) -> None:
    path = _saved_map(tmp_path)
    doc = Document(load_any(path), str(path))
    auto = Autosave(doc, tmp_path / "state", interval_ms=10**9)
    perform(doc, 1)
    auto.abandon()
    other = new_scenario("Someone else's", {"kind": "square", "width": 5, "height": 5, "neighbours": 8},
                         {"scheme": "ccrr"})
    save_scenario(other, path)
    recs = find_recoveries(tmp_path / "state")
    assert len(recs) == 1
    with pytest.raises(ValueError, match="changed .* since these edits were made"):
        recs[0].load()
    assert recs[0].steps.exists()


# -- the kill harness ---------------------------------------------------------------

ZYGOTE = r"""
import os, signal, sys
from pathlib import Path
import PySide6.QtGui
from engine.io import load_scenario
from app.gui.document import Document
from app.gui.autosave import Autosave
exec(sys.argv[1])
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
print("zygote", flush=True)
for line in sys.stdin:
    path, state, progress = line.split()
    if os.fork() == 0:
        from PySide6.QtGui import QGuiApplication
        app = QGuiApplication(["adjutant"])
        doc = Document(load_scenario(path), path)
        auto = Autosave(doc, Path(state), interval_ms=10**9)
        fd = os.open(progress, os.O_WRONLY | os.O_CREAT, 0o644)
        print(os.getpid(), flush=True)
        for i in range(100000):
            perform(doc, i)
            if i % 40 == 39:
                auto.save_now()
            os.pwrite(fd, str(i + 1).encode().ljust(12), 0)
"""


def _kill_editing_sessions(qapp: Any, tmp_path: Path, kills: int) -> None:
    path = _saved_map(tmp_path, 99)
    rng = random.Random(20261124)
    targets = [rng.randrange(1, 300) for _ in range(kills)]
    expected = Document(load_any(path), str(path))
    texts = [expected.text()]

    def text_after(n: int) -> str:
        """The work after n steps of the sequence (computed as far as asked)."""
        while len(texts) <= n:
            perform(expected, len(texts) - 1)
            texts.append(expected.text())
        return texts[n]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    zyg = subprocess.Popen([sys.executable, "-c", ZYGOTE, STEPS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           env=env, cwd=ROOT, text=True, bufsize=1)
    assert zyg.stdin is not None and zyg.stdout is not None
    try:
        assert zyg.stdout.readline().strip() == "zygote"
        ahead = 0
        for k, target in enumerate(targets):
            state, progress = tmp_path / f"state{k}", tmp_path / f"progress{k}"
            zyg.stdin.write(f"{path} {state} {progress}\n")
            pid = int(zyg.stdout.readline())
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                done = progress.read_bytes().strip() if progress.exists() else b""
                if done and int(done) >= target:
                    break
                time.sleep(0.001)
            os.kill(pid, signal.SIGKILL)
            while True:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.005)
            last = int(progress.read_bytes().strip())
            scenario, _ = _recover(state)
            got = dumps_any(scenario)
            assert got in (text_after(last), text_after(last + 1)), (
                f"kill {k + 1} after step {last}: the recovered work is not the work of step {last} or {last + 1}")
            ahead += got == texts[last + 1] and texts[last] != texts[last + 1]
        print(f"autosave: {kills} kills, recovered exactly; {ahead} inside a step already logged")
    finally:
        zyg.stdin.close()
        zyg.wait(timeout=30)
        zyg.stdout.close()


def test_killed_editing_sessions_lose_no_edit_short(qapp: Any, tmp_path: Path) -> None:
    _kill_editing_sessions(qapp, tmp_path, 20)


@pytest.mark.slow
def test_killed_editing_sessions_lose_no_edit_long(qapp: Any, tmp_path: Path) -> None:
    _kill_editing_sessions(qapp, tmp_path, 60)

