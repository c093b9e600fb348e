"""Recovery: edits, then a hard exit without saving; the next start offers
the autosave, and accepting it restores the edits.

A child process opens a saved map in the editor window (offscreen), edits it
with the editor's tools (a brush stroke, a rail line, a unit), lets the
autosave timer (200 ms here, 60 s by default) write the work, and ends with
``os._exit`` — no close event, no cleanup, as in a crash.  The test then
starts a new window on the same state folder, as the next run would:
``check_recovery`` offers exactly that autosave; accepting it restores the
edited model exactly (compared with the text the child wrote of its model),
the file on disk is untouched, and the recovered work counts as unsaved.
Declining it (a second crash) removes it.

Every autosave is offered (issues 21 and 22): two child processes each open
the same grid map and the same territory map in two windows, edit both,
autosave and are SIGKILLed; one meta file is then broken.  The next start
offers all four — both map kinds, both processes, the broken one too, with
its problem named — and deletes none that the person has not chosen to
discard ("Later" keeps them all); recovering them all restores each window's
work exactly.  Liveness is the autosave's lock, not its process id: a meta
naming a live unrelated process does not hide the autosave, and a live
window's autosave is not offered.  A scenario name with a lone surrogate
is autosaved and recovered unchanged.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from app.gui.autosave import Autosave, find_recoveries
from app.gui.dialogs.recovery import RecoveryDialog, RecoveryRow
from app.gui.document import Document
from app.gui.main_window import MainWindow
from engine.editing import new_scenario, plan_paint
from engine.grids import Cell
from engine.io import dumps_any, dumps_scenario, load_any, load_scenario, save_scenario

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from app.gui.main_window import MainWindow
from app.gui.tools import add_unit
from engine.editing import plan_links, plan_paint
from engine.grids import Cell
from engine.io import dumps_scenario, load_scenario

path, state, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
app = QApplication([])
w = MainWindow(load_scenario(path), path, QSettings(str(state / "settings.ini"), QSettings.Format.IniFormat),
               state, previews=[], autosave_ms=200)
w.show()
s = w.document.scenario
stroke = w.document.new_stroke()
for c in (Cell(1, 1), Cell(2, 1), Cell(3, 2)):
    w.document.push("Paint", plan_paint(s, "terrain", [c], 2), stroke)
w.document.push("Rail", plan_links(s, "rail", [Cell(0, 5), Cell(1, 5), Cell(2, 5), Cell(3, 5)]))
w.state.ask_unit = lambda unit, new: unit
add_unit(w.state, Cell(6, 4))
assert w.document.is_modified()
deadline = time.time() + 30
while not w.autosave.data_path.exists() and time.time() < deadline:
    app.processEvents()
    time.sleep(0.02)
assert w.autosave.data_path.exists(), "the autosave timer never wrote"
out.write_text(dumps_scenario(s), encoding="utf-8")
os._exit(0)  # a crash: no close, no cleanup
"""


def _crash_child(map_path: Path, state: Path, out: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-c", CHILD, str(map_path), str(state), str(out)], check=False,
                       env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def _window(qtbot: Any, tmp_path: Path, scenario: Any, path: str | None, state: Path) -> MainWindow:
    w = MainWindow(scenario, path, QSettings(str(tmp_path / "settings2.ini"), QSettings.Format.IniFormat),
                   state, previews=[])
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    return w


@pytest.mark.parametrize("grid", [
    {"kind": "square", "width": 12, "height": 9, "neighbours": 8},
    {"kind": "hex", "width": 12, "height": 9, "orientation": "flat", "parity": "odd"},
])
def test_hard_exit_then_recovery_restores_the_edits(qtbot: Any, tmp_path: Path, grid: dict[str, Any]) -> None:
    map_path = tmp_path / "campaign.json"
    original = new_scenario("Campaign", grid, {"scheme": "ccrr"})
    save_scenario(original, map_path)
    on_disk = map_path.read_bytes()
    state = tmp_path / "state"
    edited_text = tmp_path / "edited.json"
    _crash_child(map_path, state, edited_text)

    recs = find_recoveries(state)
    assert len(recs) == 1 and recs[0].original == str(map_path) and recs[0].name == "Campaign"
    assert map_path.read_bytes() == on_disk, "the crash changed the saved file"

    w = _window(qtbot, tmp_path, load_scenario(map_path), str(map_path), state)
    offered: list[Any] = []
    w.ask_recover = lambda rec: offered.append(rec) or True  # type: ignore[method-assign]
    assert w.check_recovery()
    assert len(offered) == 1 and offered[0].original == str(map_path)
    assert dumps_scenario(w.document.scenario) == edited_text.read_text(encoding="utf-8")
    assert dumps_scenario(w.document.scenario) != on_disk.decode("utf-8")
    assert w.document.is_modified() and w.document.path == str(map_path)
    assert map_path.read_bytes() == on_disk
    # the recovered work is now this window's own autosave: nothing else is offered
    assert find_recoveries(state) == []
    w.save()
    assert load_scenario(map_path) is not None and dumps_scenario(load_scenario(map_path)) == edited_text.read_text(
        encoding="utf-8")
    w.close()


def test_declined_recovery_after_a_hard_exit_is_removed(qtbot: Any, tmp_path: Path) -> None:
    map_path = tmp_path / "campaign.json"
    save_scenario(new_scenario("Campaign", {"kind": "square", "width": 12, "height": 9, "neighbours": 8},
                               {"scheme": "ccrr"}), map_path)
    state = tmp_path / "state"
    _crash_child(map_path, state, tmp_path / "edited.json")
    w = _window(qtbot, tmp_path, load_scenario(map_path), str(map_path), state)
    w.ask_recover = lambda rec: False  # type: ignore[method-assign]
    assert not w.check_recovery()
    assert not w.document.is_modified()
    assert find_recoveries(state) == []
    w.close()


# -- every autosave is offered, none deleted unseen (issues 21, 22) -------------

EUROPE = ROOT / "maps" / "railroad_module_europe.json"

KILLED_CHILD = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from app.gui.editor_window import EditorWindow
from app.gui.main_window import MainWindow
from app.gui.territory import TerritoryWindow
from engine.editing import plan_paint
from engine.grids import Cell
from engine.io import dumps_any, load_any

grid_path, europe, state, out, value = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5])
app = QApplication([])
# the second instance finds the maps held by the first: it opens them read-only (and still autosaves)
EditorWindow.ask_map_locked = lambda self, path, holder: "read-only"
settings = QSettings(str(out / "settings.ini"), QSettings.Format.IniFormat)
grid = MainWindow(load_any(grid_path), grid_path, settings, state, previews=[], autosave_ms=100)
terr = TerritoryWindow(load_any(europe), europe, settings, state, autosave_ms=100)
grid.show()
terr.show()
s = grid.document.scenario
grid.document.push("Paint", plan_paint(s, "terrain", [Cell(value, 1), Cell(value, 2)], value))
terr.select(["denmark"])
terr.inspector.value.setValue(value + 5)
terr.inspector.value.editingFinished.emit()
assert grid.document.is_modified() and terr.document.is_modified()
deadline = time.time() + 60
while not (grid.autosave.data_path.exists() and terr.autosave.data_path.exists()) and time.time() < deadline:
    app.processEvents()
    time.sleep(0.02)
(out / "grid.json").write_text(dumps_any(grid.document.scenario), encoding="utf-8")
(out / "territory.json").write_text(dumps_any(terr.document.scenario), encoding="utf-8")
print("autosaved", grid.autosave.key, terr.autosave.key, flush=True)
while True:  # keep running (and holding the autosave locks) until killed
    app.processEvents()
    time.sleep(0.05)
"""


def _start_killed_child(grid_path: Path, state: Path, out: Path, value: int) -> subprocess.Popen[str]:
    out.mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(grid_path), str(EUROPE), str(state), str(out),
                             str(value)], env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _wait_autosaved(child: subprocess.Popen[str]) -> list[str]:
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith("autosaved"):
        child.kill()
        _, err = child.communicate(timeout=60)
        pytest.fail(f"the child did not autosave: {line!r} {err[-2000:]}")
    return line.split()[1:]


def test_every_autosave_of_two_killed_processes_is_offered_and_none_deleted_unseen(
        qtbot: Any, tmp_path: Path) -> None:
    grid_path = tmp_path / "campaign.json"
    save_scenario(new_scenario("Campaign", {"kind": "square", "width": 12, "height": 9, "neighbours": 8},
                               {"scheme": "ccrr"}), grid_path)
    state = tmp_path / "state"
    children = [_start_killed_child(grid_path, state, tmp_path / f"child{v}", v) for v in (2, 3)]
    try:
        keys = [key for child in children for key in _wait_autosaved(child)]
        # while the children run, their autosaves are theirs: nothing is offered
        assert find_recoveries(state) == []
    finally:
        for child in children:
            if child.poll() is None:
                os.kill(child.pid, signal.SIGKILL)
            child.communicate(timeout=60)
    assert [c.returncode for c in children] == [-signal.SIGKILL] * 2
    folder = state / "autosave"
    assert sorted(p.name for p in folder.glob("*.json") if not p.name.endswith(".meta.json")) == sorted(
        f"{k}.json" for k in keys)
    broken = folder / f"{keys[3]}.meta.json"  # the second child's territory autosave
    broken.write_text('{"pid": 12, "name": "Eur', encoding="utf-8")
    expected = sorted((tmp_path / f"child{v}" / f).read_text(encoding="utf-8")
                      for v in (2, 3) for f in ("grid.json", "territory.json"))

    w = _window(qtbot, tmp_path, load_scenario(grid_path), str(grid_path), state)
    offered: list[Any] = []
    # first start: decide later for all -> nothing deleted
    w.ask_recover = lambda rec: offered.append(rec) or None  # type: ignore[method-assign]
    assert not w.check_recovery()
    assert sorted(r.key for r in offered) == sorted(keys)
    assert {r.kind for r in offered if r.key != keys[3]} == {"grid", "territory"}
    bad = next(r for r in offered if r.key == keys[3])
    assert bad.problems and "cannot be read" in bad.problems[0] and bad.name == keys[3]
    assert sorted(r.key for r in find_recoveries(state)) == sorted(keys)  # all kept
    # the list the person sees names each one's map and window kind, the broken one included
    rows = [w._recovery_row(r) for r in find_recoveries(state)]
    assert sorted(r.kind or "" for r in rows) == ["grid", "grid", "territory", "territory"]
    dialog = RecoveryDialog(rows, w)
    assert dialog.table.rowCount() == 4
    texts = [[dialog.table.item(r, c).text() for c in range(5)] for r in range(4)]
    assert sum("Campaign" in t[0] for t in texts) == 2 and sum("territory" in t[3] for t in texts) == 2
    assert any("cannot be read" in t[4] for t in texts)
    dialog.reject()
    assert set(dialog.answers().values()) == {None}  # "Decide later": nothing discarded
    dialog.close()

    # second start: recover them all -> each window's work, exactly
    offered.clear()
    w.ask_recover = lambda rec: offered.append(rec) or True  # type: ignore[method-assign]
    assert w.check_recovery()
    assert len(offered) == 4
    windows = [w, *w._other_windows]
    for other in w._other_windows:
        other.ask_unsaved = lambda: "discard"  # closed below (they delete themselves on close)
    assert len(windows) == 4 and all(x.document.is_modified() for x in windows)
    assert sorted(dumps_any(x.document.scenario) for x in windows) == expected
    assert sum(isinstance(x, MainWindow) for x in windows) == 2
    assert find_recoveries(state) == []  # recovered work is now the live windows' own autosaves
    assert sorted(x.autosave.data_path.exists() for x in windows) == [True] * 4
    for other in list(w._other_windows):
        other.close()
    w.close()


def _abandoned_autosave(state: Path, name: str = "Campaign") -> tuple[Autosave, str]:
    doc = Document(new_scenario(name, {"kind": "square", "width": 8, "height": 6, "neighbours": 8},
                                {"scheme": "ccrr"}))
    doc.push("Paint", plan_paint(doc.scenario, "terrain", [Cell(1, 1)], 2))
    auto = Autosave(doc, state)
    assert auto.save_now()
    auto.abandon()  # as a crash: the files stay, the lock is freed
    return auto, doc.text()


def test_a_meta_naming_a_live_unrelated_process_does_not_hide_the_autosave(tmp_path: Path) -> None:
    state = tmp_path / "state"
    auto, _ = _abandoned_autosave(state)
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        meta = json.loads(auto.meta_path.read_text(encoding="utf-8"))
        meta["pid"] = stranger.pid  # the crashed run's pid, now reused by an unrelated live process
        auto.meta_path.write_text(json.dumps(meta), encoding="utf-8")
        recs = find_recoveries(state)
        assert [r.key for r in recs] == [auto.key] and recs[0].problems == ()
    finally:
        stranger.kill()
        stranger.wait()


@pytest.mark.parametrize(("meta_text", "problem"), [
    ("[1, 2, 3]", "not an Adjutant autosave meta file"),
    ('{"name": 5, "time": "noon", "path": ["x"]}', "'path' is not text"),
    ("\x00\xff garbage", "cannot be read"),
    (None, "is missing"),
])
def test_a_malformed_or_foreign_meta_is_reported_and_the_autosave_offered(
        tmp_path: Path, meta_text: str | None, problem: str) -> None:
    state = tmp_path / "state"
    auto, text = _abandoned_autosave(state)
    if meta_text is None:
        auto.meta_path.unlink()
    else:
        auto.meta_path.write_text(meta_text, encoding="utf-8")
    recs = find_recoveries(state)
    assert len(recs) == 1 and recs[0].data == auto.data_path
    assert any(problem in p for p in recs[0].problems), recs[0].problems
    assert recs[0].saved_at > 0 and recs[0].describe()
    assert dumps_scenario(load_any(recs[0].data)) == text


def test_a_live_autosave_is_not_offered_even_to_another_process(tmp_path: Path) -> None:
    state = tmp_path / "state"
    doc = Document(new_scenario("Live", {"kind": "square", "width": 8, "height": 6, "neighbours": 8},
                                {"scheme": "ccrr"}))
    doc.push("Paint", plan_paint(doc.scenario, "terrain", [Cell(1, 1)], 2))
    auto = Autosave(doc, state)
    try:
        assert auto.save_now()
        probe = ("import sys; from app.gui.autosave import find_recoveries; "
                 "print(len(find_recoveries(__import__('pathlib').Path(sys.argv[1]))))")
        env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
        r = subprocess.run([sys.executable, "-c", probe, str(state)], env=env, cwd=ROOT, capture_output=True,
                           text=True, timeout=120, check=False)
        assert r.stdout.strip() == "0", r.stderr[-2000:]  # held by this live process's lock
    finally:
        auto.close()


def test_a_name_with_a_lone_surrogate_is_autosaved_and_recovered(qtbot: Any, tmp_path: Path) -> None:
    state = tmp_path / "state"
    name = "Bad \udc80 name"
    _, text = _abandoned_autosave(state, name)
    recs = find_recoveries(state)
    assert len(recs) == 1 and recs[0].name == name
    assert "\\udc80" in recs[0].describe()
    w = _window(qtbot, tmp_path, new_scenario("Other", {"kind": "square", "width": 8, "height": 6, "neighbours": 8},
                                              {"scheme": "ccrr"}), None, state)
    w.ask_recover = lambda rec: True  # type: ignore[method-assign]
    assert w.check_recovery()
    assert w.document.scenario.name == name and w.document.text() == text
    w.close()


def test_the_recovery_dialog_gives_each_rows_choice(qtbot: Any, tmp_path: Path) -> None:
    state = tmp_path / "state"
    autos = [_abandoned_autosave(state, f"Map {i}")[0] for i in range(3)]
    rows = [RecoveryRow(r, load_any(r.data), "grid") for r in find_recoveries(state)]
    dialog = RecoveryDialog(rows)
    qtbot.addWidget(dialog)
    dialog.set_choice(0, False)
    dialog.set_choice(2, None)
    dialog.accept()
    answers = dialog.answers()
    assert [answers[r.recovery.data] for r in rows] == [False, True, None]
    assert {a.data_path for a in autos} == set(answers)


# -- a second instance on the same map (issue 21) --------------------------------

HOLDER_CHILD = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from app.gui.main_window import MainWindow
from engine.io import load_any

path, state = sys.argv[1], Path(sys.argv[2])
app = QApplication([])
w = MainWindow(load_any(path), path, QSettings(str(state / "child.ini"), QSettings.Format.IniFormat), state,
               previews=[])
print("holding", flush=True)
while True:
    app.processEvents()
    time.sleep(0.05)
"""


@pytest.mark.parametrize("answer", ["read-only", "copy"])
def test_a_second_instance_on_a_held_map_asks_and_never_saves_over_it(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    map_path = tmp_path / "campaign.json"
    save_scenario(new_scenario("Campaign", {"kind": "square", "width": 12, "height": 9, "neighbours": 8},
                               {"scheme": "ccrr"}), map_path)
    on_disk = map_path.read_bytes()
    state = tmp_path / "state"
    state.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, "-c", HOLDER_CHILD, str(map_path), str(state)], env=env, cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().startswith("holding")
        asked: list[tuple[str, dict[str, Any]]] = []

        def ask(path: str, holder: dict[str, Any]) -> str:
            asked.append((path, holder))
            return answer

        monkeypatch.setattr(MainWindow, "ask_map_locked", lambda self, path, holder: ask(path, holder))
        w = _window(qtbot, tmp_path, load_scenario(map_path), str(map_path), state)  # construction asks
        assert len(asked) == 1 and asked[0][0] == str(map_path) and asked[0][1]["pid"] == child.pid
        if answer == "read-only":
            assert w.read_only and w.document.path == str(map_path) and "(read-only)" in w.windowTitle()
        else:
            assert not w.read_only and w.document.path is None and w.document.is_modified()
        w.document.push("Paint", plan_paint(w.document.scenario, "terrain", [Cell(1, 1)], 2))
        assert not w._save_to(str(map_path))  # refused: the other instance holds it
        assert w.error_dialog is not None and str(child.pid) in w.error_dialog.summary
        assert map_path.read_bytes() == on_disk
        other = tmp_path / "mine.json"
        assert w._save_to(str(other))  # another name is fine, and now this window's own
        assert not w.read_only and w.document.path == str(other)
    finally:
        child.kill()
        child.communicate(timeout=60)
    # the holder is gone (killed): its lock is free, the map opens without asking
    monkeypatch.setattr(MainWindow, "ask_map_locked",
                        lambda self, path, holder: pytest.fail("asked although no one holds the map"))
    again = _window(qtbot, tmp_path, load_scenario(map_path), str(map_path), state)
    assert not again.read_only
    again.close()
    w.close()


def test_a_territory_window_offers_a_grid_autosave_and_opens_it_in_a_grid_window(
        qtbot: Any, tmp_path: Path) -> None:
    from app.gui.territory import TerritoryWindow

    state = tmp_path / "state"
    _, text = _abandoned_autosave(state, "Grid work")
    tw = TerritoryWindow(load_any(EUROPE), str(EUROPE),
                         QSettings(str(tmp_path / "settings3.ini"), QSettings.Format.IniFormat), state)
    tw.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(tw)
    before = tw.document.text()
    offered: list[Any] = []
    tw.ask_recover = lambda rec: offered.append(rec) or True  # type: ignore[method-assign]
    assert tw.check_recovery()
    assert [r.kind for r in offered] == ["grid"]
    assert tw.document.text() == before  # the territory map is untouched
    grid = tw._other_windows[-1]
    grid.ask_unsaved = lambda: "discard"
    assert isinstance(grid, MainWindow) and grid.document.text() == text and grid.document.is_modified()
    assert find_recoveries(state) == []
    grid.close()
    tw.close()
