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
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from app.gui.autosave import find_recoveries
from app.gui.main_window import MainWindow
from engine.editing import new_scenario
from engine.io import dumps_scenario, load_scenario, save_scenario

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
