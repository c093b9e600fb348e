"""A person who opens, switches, closes and reopens maps of every kind and
hovers with every preview never meets a dead panel (issue 18, items 1, 2, 6).

A hypothesis state machine drives the real windows (offscreen): the grid
window opens grid maps (ACW hexes, CWOL squares, GITM squares) and
territory maps (each in a territory window beside it), switches tools,
selects units and hovers with every preview, closes territory windows and
reopens them, closes the grid window and opens a new one.  Qt deletes what
it deletes (deferred deletes are sent after each step, as the event loop
would).  After every step: no deleted Qt object is reachable from a window,
no dock is lost (each window has every dock it started with, each alive),
the preview dock matches the map, and nothing reached stderr that names a
Qt object error or a traceback.

Short form (CI, about 20 s): ``python -m pytest tests/gui/test_gui_stateful.py``.
Long form: ``python -m pytest -m slow tests/gui/test_gui_stateful.py`` or
``ADJUTANT_LONG=1`` (``docs/reliability.md``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget

from app.gui.main_window import MainWindow, ensure_app
from app.gui.systems import previews_for
from engine.grids import Cell
from engine.io import load_any

pytestmark = pytest.mark.gui

MAPS = Path(__file__).resolve().parents[2] / "maps"
GRID_MAPS = ("acw_short_campaign.json", "cwol_mobile_columbus.json", "gitm_graphic1.json", "gitm_examples.json")
TERRITORY_MAPS = ("railroad_module_europe.json", "aa_rail_options.json")
TOOLS = ("adjudicate", "brush", "rail", "control", "unit")
QT_OBJECT_ERRORS = ("already deleted", "Internal C++ object", "Traceback", "RuntimeError")


def pump() -> None:
    for _ in range(2):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


class StderrWatch:
    """Collects what is written to stderr (Python's, as PySide6 prints a
    slot's exception there) while the machine runs."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self._old = sys.stderr

    def write(self, s: str) -> int:
        self.text.append(s)
        return self._old.write(s)

    def flush(self) -> None:
        self._old.flush()

    def errors(self) -> str:
        joined = "".join(self.text)
        return joined if any(e in joined for e in QT_OBJECT_ERRORS) else ""


class Windows(RuleBasedStateMachine):
    """The editor's windows, driven by a person at random."""

    folder: Path = Path(".")

    def __init__(self) -> None:
        super().__init__()
        ensure_app()
        self.watch = StderrWatch()
        sys.stderr = self.watch  # type: ignore[assignment]
        self.settings = QSettings(str(self.folder / "settings.ini"), QSettings.Format.IniFormat)
        self.grid: MainWindow | None = None
        self.docks: set[str] = set()
        self._new_grid("acw_short_campaign.json")

    # -- helpers ---------------------------------------------------------------
    def _new_grid(self, name: str) -> None:
        path = str(MAPS / name)
        w = MainWindow(load_any(path), path, self.settings, self.folder / "state", previews=previews_for(),
                       autosave_ms=3_600_000)
        w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
        w.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        w.resize(1280, 820)
        w.show()
        pump()
        w.canvas.fit()
        self.grid = w
        self.docks = self._dock_names(w)

    @staticmethod
    def _dock_names(w: Any) -> set[str]:
        return {d.objectName() for d in w.findChildren(QDockWidget) if not d.objectName().startswith("previewDock")}

    def _cell_point(self, col: float, row: float) -> Any:
        assert self.grid is not None
        g = self.grid.document.scenario.map.grid
        cell = Cell(min(g.width - 1, int(col * g.width)), min(g.height - 1, int(row * g.height)))
        x, y = self.grid.canvas.layout().center(cell)
        return self.grid.canvas.map_to_view(x, y).toPoint()

    # -- rules -------------------------------------------------------------------
    @rule(name=st.sampled_from(GRID_MAPS))
    def open_grid_map(self, name: str) -> None:
        assert self.grid is not None
        assert self.grid.open_file(str(MAPS / name))
        pump()

    @rule(name=st.sampled_from(TERRITORY_MAPS))
    def open_territory_map(self, name: str) -> None:
        assert self.grid is not None
        n = len(self.grid._other_windows)
        assert self.grid.open_file(str(MAPS / name))
        pump()
        assert len(self.grid._other_windows) == n + 1 and self.grid._other_windows[-1].isVisible()

    @precondition(lambda self: self.grid is not None and bool(self.grid._other_windows))
    @rule(index=st.integers(0, 5), by_key=st.booleans())
    def close_territory_window(self, index: int, by_key: bool) -> None:
        assert self.grid is not None
        wins = self.grid._other_windows
        w = wins[index % len(wins)]
        if by_key:
            w.act_close.trigger()
        else:
            w.close()
        pump()
        assert w not in self.grid._other_windows

    @rule(tool=st.sampled_from(TOOLS))
    def choose_tool(self, tool: str) -> None:
        assert self.grid is not None
        self.grid.set_tool(tool)
        pump()

    @rule(unit=st.integers(0, 200), col=st.floats(0, 1), row=st.floats(0, 1))
    def hover_with_the_preview(self, unit: int, col: float, row: float) -> None:
        w = self.grid
        assert w is not None
        w.set_tool("adjudicate")
        s = w.document.scenario
        vp = w.canvas.viewport()
        if s.units:
            u = sorted(s.units, key=lambda u: u.id)[unit % len(s.units)]
            x, y = w.canvas.layout().center(u.at)
            p = w.canvas.map_to_view(x, y).toPoint()
            QTest.mouseMove(vp, p)
            QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
            QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        QTest.mouseMove(vp, self._cell_point(col, row))
        pump()
        ov = w.adjudicate.overlay
        if ov is not None and ov.message:
            assert w.verdict.overlay is ov
            assert w.statusBar().currentMessage() == ov.short()

    @rule(name=st.sampled_from(GRID_MAPS))
    def close_and_reopen_the_grid_window(self, name: str) -> None:
        assert self.grid is not None
        for t in list(self.grid._other_windows):
            t.close()
        self.grid.close()
        pump()
        self._new_grid(name)

    # -- invariants ------------------------------------------------------------
    @invariant()
    def no_dock_lost_and_nothing_dead(self) -> None:
        w = self.grid
        assert w is not None and shiboken6.isValid(w)
        assert self._dock_names(w) == self.docks
        for d in w.findChildren(QDockWidget):
            assert shiboken6.isValid(d.widget()), d.objectName()
        for t in w._other_windows:
            assert shiboken6.isValid(t) and t.isVisible()
            for d in t.findChildren(QDockWidget):
                assert shiboken6.isValid(d.widget()), d.objectName()
        acw = w.adjudicate.preview is not None and w.adjudicate.preview.name == "ACW move and attack"
        assert (w.dock_preview is not None) == acw
        if acw:
            assert w.dock_preview.isVisible() == (w.tool is w.adjudicate)

    @invariant()
    def nothing_on_stderr(self) -> None:
        assert not self.watch.errors(), self.watch.errors()

    def teardown(self) -> None:
        sys.stderr = self.watch._old
        if self.grid is not None and shiboken6.isValid(self.grid):
            for t in list(self.grid._other_windows):
                t.close()
            self.grid.close()
        pump()


def run(folder: Path, examples: int, steps: int) -> None:
    Windows.folder = folder
    run_state_machine_as_test(Windows, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.reuse, Phase.generate] + (
            [Phase.shrink] if os.environ.get("ADJUTANT_SHRINK") else [])))


def test_windows_short(tmp_path: Path) -> None:
    run(tmp_path, examples=3, steps=14)


@pytest.mark.slow
def test_windows_long(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    expr = str(request.config.getoption("markexpr", "") or "")
    if os.environ.get("ADJUTANT_LONG", "") in ("", "0") and ("slow" not in expr or "not slow" in expr):
        pytest.skip("long GUI run: use `python -m pytest -m slow tests/gui/test_gui_stateful.py` or ADJUTANT_LONG=1")
    run(tmp_path, examples=40, steps=40)
