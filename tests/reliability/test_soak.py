"""Soak: thousands of random tool operations with live previews on a
500 x 500 map in the editor window (offscreen).

Every editing tool plus Adjudicate (the CWOL rail preview, hovering over
rail and non-rail squares, so the rules run on every mouse move), undo and
redo, fed through the canvas's own mouse signals; the window repaints (the
event loop runs) every few operations and the canvas is grabbed to an image
now and then.  Checks: no exception, no Qt warning or critical message (a
``qInstallMessageHandler`` records them), no preview plug-in failure (the
adjudicate tool turns those into status messages, so messages are watched
too), and memory: resident memory growth over the run, measured after the
undo history is cleared (what the run leaks), under 50 MB.  The growth with
the history still held is printed too.

Short form: 1,000 operations; long form (``slow``): 20,000.
"""

from __future__ import annotations

import gc
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings, QtMsgType, qInstallMessageHandler

from app.gui.canvas import MapMouseEvent
from app.gui.main_window import MainWindow
from engine.editing import new_scenario
from engine.grids import Cell, Edge
from engine.model import Unit

pytestmark = pytest.mark.gui
SIZE = 500
MAX_GROWTH_MB = 50.0
IGNORED_QT = ("This plugin does not support propagateSizeHints()",)
"""Said by Qt's offscreen platform plug-in itself on every window shown; not Adjutant's."""


def rss_mb() -> float:
    """Resident memory now (MiB), after asking glibc to hand freed memory
    back (``malloc_trim``), so that free memory the allocator keeps is not
    counted as growth."""
    import ctypes
    import resource

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def soak_scenario(seed: int = 5) -> Any:
    s = new_scenario("Soak", {"kind": "square", "width": SIZE, "height": SIZE, "neighbours": 8}, {"scheme": "numeric"})
    rng = np.random.default_rng(seed)
    s.map.terrain[:] = rng.integers(0, len(s.ruleset.terrain), size=s.map.terrain.shape)
    s.map.control[:] = 0
    s.ruleset.options["cwol_rail"] = {}
    mid = SIZE // 2
    rail = s.map.links["rail"]
    for k in range(-60, 60):  # a cross of rail through the middle, and a diagonal
        rail.add(Edge.between(Cell(mid + k, mid), Cell(mid + k + 1, mid)))
        rail.add(Edge.between(Cell(mid, mid + k), Cell(mid, mid + k + 1)))
        rail.add(Edge.between(Cell(mid + k, mid + k), Cell(mid + k + 1, mid + k + 1)))
    s.units.append(Unit("CS1", s.sides[0].id, s.ruleset.unit_types[0].id if s.ruleset.unit_types else "unit",
                        Cell(mid, mid)))
    return s


def _soak(qtbot: Any, tmp_path: Path, operations: int) -> None:
    problems: list[str] = []

    def handler(kind: QtMsgType, _context: Any, message: str) -> None:
        if kind in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg) \
                and not any(m in message for m in IGNORED_QT):
            problems.append(f"{kind.name}: {message}")

    previous = qInstallMessageHandler(handler)
    try:
        w = MainWindow(soak_scenario(), None, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                       tmp_path / "state")
        w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
        qtbot.addWidget(w)
        w.resize(1000, 700)
        w.show()
        qtbot.waitExposed(w)
        failures: list[str] = []
        w.state.message.connect(lambda text: failures.append(text) if "preview failed" in text else None)
        w.state.ask_place = lambda cell, place: ("Depot", "")  # type: ignore[method-assign]
        w.state.ask_unit = lambda unit, new: unit  # type: ignore[method-assign]
        assert any(p.name == "CWOL rail move" for p in w.adjudicate.applicable())
        mid = SIZE // 2
        layout = w.canvas.layout()
        rng = random.Random(1863)
        tools = [t for t in w.tools if t != "adjudicate"]

        def cell() -> Cell:
            r = rng.choice((8, 30, 90))
            return Cell(min(SIZE - 1, max(0, mid + rng.randint(-r, r))), min(SIZE - 1, max(0, mid + rng.randint(-r, r))))

        def event(c: Cell, button: str | None, shift: bool = False) -> MapMouseEvent:
            x, y = layout.center(c)
            x += rng.uniform(-12, 12)
            y += rng.uniform(-12, 12)
            picked = layout.pick(x, y)
            on = picked if w.document.scenario.map.grid.contains(picked) else None
            edge = None
            if on is not None:
                edge = min(w.document.scenario.map.grid.edges_of(on),
                           key=lambda e: _distance(x, y, *layout.edge_segment(e)))
            return MapMouseEvent(x, y, on, edge, button, shift, False, False)

        def operation(i: int) -> None:
            roll = rng.random()
            stack = w.document.undo_stack
            if roll < 0.06 and stack.canUndo():
                stack.undo()
                return
            if roll < 0.09 and stack.canRedo():
                stack.redo()
                return
            if roll < 0.35:  # adjudicate: select the unit, hover around (live preview), sometimes apply a move
                w.set_tool("adjudicate")
                unit = w.document.scenario.units[0] if w.document.scenario.units else None
                if unit is not None and w.state.selected_unit != unit.id:
                    w.canvas.mousePressed.emit(event(unit.at, "left"))
                    w.canvas.mouseReleased.emit(event(unit.at, "left"))
                for _ in range(rng.randint(1, 6)):
                    w.canvas.mouseMoved.emit(event(cell(), None))
                if rng.random() < 0.05:
                    target = cell()
                    w.canvas.mousePressed.emit(event(target, "left"))
                    w.canvas.mouseReleased.emit(event(target, "left"))
                return
            w.set_tool(rng.choice(tools))
            w.state.set_terrain(rng.randrange(8))
            w.state.set_brush_size(rng.randint(1, 9))
            w.state.set_side(rng.randrange(len(w.document.scenario.sides)))
            button = "right" if rng.random() < 0.2 else "left"
            path = [cell()]
            for _ in range(rng.randint(0, 5)):
                c = path[-1]
                path.append(Cell(min(SIZE - 1, max(0, c.col + rng.randint(-3, 3))),
                                 min(SIZE - 1, max(0, c.row + rng.randint(-3, 3)))))
            shift = rng.random() < 0.1
            w.canvas.mouseMoved.emit(event(path[0], None, shift))
            w.canvas.mousePressed.emit(event(path[0], button, shift))
            for c in path[1:]:
                w.canvas.mouseMoved.emit(event(c, button, shift))
            w.canvas.mouseReleased.emit(event(path[-1], button, shift))

        from PySide6.QtWidgets import QApplication

        app = QApplication.instance()
        warm = min(300, operations // 4)
        for i in range(warm):
            operation(i)
            if i % 10 == 0:
                app.processEvents()
        gc.collect()
        start = rss_mb()
        for i in range(operations):
            operation(i)
            if i % 10 == 0:
                app.processEvents()
            if i % 500 == 0:
                assert not w.canvas.grab().isNull()
        app.processEvents()
        gc.collect()
        with_history = rss_mb() - start
        steps = w.document.undo_stack.count()
        w.document.undo_stack.clear()
        app.processEvents()
        gc.collect()
        leaked = rss_mb() - start
        print(f"soak: {operations} operations on {SIZE}x{SIZE}; {steps} undo steps; resident memory "
              f"+{with_history:.1f} MB with the undo history, +{leaked:.1f} MB after clearing it")
        assert not failures, failures[:5]
        assert leaked < MAX_GROWTH_MB, f"memory grew by {leaked:.1f} MB"
        w.close()
    finally:
        qInstallMessageHandler(previous)
    assert not problems, problems[:10]


def _distance(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return float(((ax + t * dx - px) ** 2 + (ay + t * dy - py) ** 2) ** 0.5)


def test_soak_short(qtbot: Any, tmp_path: Path) -> None:
    _soak(qtbot, tmp_path, 1000)


@pytest.mark.slow
def test_soak_long(qtbot: Any, tmp_path: Path) -> None:
    _soak(qtbot, tmp_path, 20000)
