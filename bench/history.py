"""Edit cost against undo-history length, with the History dock shown.

An editor window (offscreen, 1280 x 820) on a 40 x 30 square map, its
History dock raised so the undo view is visible, takes ``N`` edits (default
6,000): each a one-cell terrain paint through the editor's model path
(``plan_paint`` + ``Document.push``) followed by the event loop's repaint
(``processEvents``), as a person's click would be.  Every edit is timed,
CPU time (``time.process_time``, what this process spent, unaffected by
other programs on the machine) and wall time (``time.perf_counter``).

Printed: for each block of 500 edits, the median and 95th percentile of
both; then 500 more edits in that window alternating with 500 in a new
window on the same map (:func:`time_interleaved`), and the ratio of their
medians: the cost of an edit at history ``N`` against one at history 0,
measured over the same seconds (on a shared machine the speed drifts by
more than the effect over a run: against the first 500 edits the ratio
moved between 0.7 and 1.5 from run to run of the same code; it is printed
too).  Target: ratio at most 1.5 (CPU median); the benchmark exits 1 when
it is missed.  With the plain ``QUndoView`` the dock used before, whose
model resets itself on every change, this ratio grew with the history
(3,000 edits took 27.9 s with the dock and 1.1 s without).

Run: ``python -m bench.history`` (``--edits N``, ``--no-dock`` to close the
dock and compare).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BLOCK = 500
TARGET_RATIO = 1.5


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def make_window(state_dir: Path, dock: bool = True) -> Any:
    """An editor window on a small new map, its History dock raised (or
    closed with ``dock=False``), shown."""
    from PySide6.QtCore import QSettings

    from app.gui.main_window import MainWindow
    from engine.editing import new_scenario

    state_dir.mkdir(parents=True, exist_ok=True)
    s = new_scenario("History", {"kind": "square", "width": 40, "height": 30, "neighbours": 8}, {"scheme": "ccrr"})
    w = MainWindow(s, None, QSettings(str(state_dir / "settings.ini"), QSettings.Format.IniFormat), state_dir,
                   previews=[], autosave_ms=3_600_000)
    w.resize(1280, 820)
    w.show()
    if dock:
        w.dock_history.show()
        w.dock_history.raise_()
    else:
        w.dock_history.close()
    return w


def _edit(window: Any, i: int) -> tuple[float, float]:
    """The ``i``-th one-cell paint in ``window`` (cells in order across the
    map): its CPU and wall seconds (the push and the event loop's work
    after it)."""
    from PySide6.QtWidgets import QApplication

    from engine.editing import plan_paint
    from engine.grids import Cell

    app = QApplication.instance()
    assert app is not None
    s = window.document.scenario
    width, height = s.map.width, s.map.height
    cell = Cell(i % width, (i // width) % height)
    value = 1 + (i // (width * height)) % 2
    c0, w0 = time.process_time(), time.perf_counter()
    window.document.push("Paint", plan_paint(s, "terrain", [cell], value))
    app.processEvents()
    return time.process_time() - c0, time.perf_counter() - w0


def time_edits(window: Any, edits: int, start: int = 0) -> tuple[list[float], list[float]]:
    """Make ``edits`` one-cell paints in ``window`` (the ``start``-th
    first); each one's CPU and wall seconds."""
    cpu: list[float] = []
    wall: list[float] = []
    for i in range(start, start + edits):
        c, w = _edit(window, i)
        cpu.append(c)
        wall.append(w)
    return cpu, wall


def ratio(times: list[float], block: int = BLOCK, baseline: list[float] | None = None) -> float:
    """Median of the last ``block`` times over the median of ``baseline``
    (default: the first ``block`` times)."""
    base = times[:block] if baseline is None else baseline
    return statistics.median(times[-block:]) / max(statistics.median(base), 1e-9)


def time_interleaved(long: Any, fresh: Any, edits: int = BLOCK, start: int = 0
                     ) -> tuple[tuple[list[float], list[float]], tuple[list[float], list[float]]]:
    """``edits`` paints in each of two windows, one in ``long`` (its history
    long, its next paint the ``start``-th) then one in ``fresh`` (a window on
    the same map, its history empty), and so on: the CPU and wall seconds of
    each window's paints.  Alternating, both are measured over the same
    seconds in the same process: on a shared machine the speed drifts over a
    run by more than the effect measured (against the first 500 edits, a
    minute earlier, the ratio moved between 0.7 and 1.5 from run to run of
    the same code; against 500 made after them with the history cleared, it
    was 0.86-1.14 alone and once 1.59 at the end of the whole suite)."""
    a: tuple[list[float], list[float]] = ([], [])
    b: tuple[list[float], list[float]] = ([], [])
    for i in range(edits):
        for window, out, k in ((long, a, start + i), (fresh, b, i)):
            c, w = _edit(window, k)
            out[0].append(c)
            out[1].append(w)
    return a, b


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.history", description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=6000, help="edits to make (default 6000)")
    parser.add_argument("--no-dock", action="store_true", help="close the History dock (for comparison)")
    args = parser.parse_args(argv)
    if args.edits < 2 * BLOCK:
        parser.error(f"--edits must be at least {2 * BLOCK}")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        w = make_window(Path(tmp) / "long", dock=not args.no_dock)
        cpu, wall = time_edits(w, args.edits)
        w0 = make_window(Path(tmp) / "fresh", dock=not args.no_dock)
        (cpu1, wall1), (cpu0, wall0) = time_interleaved(w, w0, start=args.edits)
        for window in (w, w0):
            window.ask_unsaved = lambda: "discard"
            window.close()
    print(f"{args.edits} edits, History dock {'closed' if args.no_dock else 'shown'}; "
          f"total CPU {sum(cpu):.2f} s, wall {sum(wall):.2f} s")
    print(f"{'history':>13}  {'cpu median':>10}  {'cpu p95':>8}  {'wall median':>11}  {'wall p95':>8}  (ms)")
    for start in range(0, args.edits - BLOCK + 1, BLOCK):
        c, t = cpu[start:start + BLOCK], wall[start:start + BLOCK]
        print(f"{start:>6}-{start + BLOCK - 1:<6}  {statistics.median(c) * 1e3:10.3f}  {_p95(c) * 1e3:8.3f}  "
              f"{statistics.median(t) * 1e3:11.3f}  {_p95(t) * 1e3:8.3f}")
    for name, c, t in ((f"{args.edits}-{args.edits + BLOCK - 1}*", cpu1, wall1), (f"new 0-{BLOCK - 1}*", cpu0, wall0)):
        print(f"{name:>13}  {statistics.median(c) * 1e3:10.3f}  {_p95(c) * 1e3:8.3f}  "
              f"{statistics.median(t) * 1e3:11.3f}  {_p95(t) * 1e3:8.3f}")
    print("(* alternately, one edit in the long window then one in a new window on the same map)")
    r_cpu, r_wall = ratio(cpu1, baseline=cpu0), ratio(wall1, baseline=wall0)
    ok = r_cpu <= TARGET_RATIO
    print(f"at history {args.edits} / at history 0, alternately (median): CPU {r_cpu:.2f}, wall {r_wall:.2f}; "
          f"target CPU <= {TARGET_RATIO}: {'ok' if ok else 'MISSED'} (last / first {BLOCK}: CPU {ratio(cpu):.2f})")
    del app
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
