"""What a game master feels while hovering: a mouse-move event on the editor's
canvas to the frame painted, for every grid preview on a big map.

The real :class:`~app.gui.main_window.MainWindow` at 1280 x 820 (offscreen),
the adjudicate tool on, one unit selected by a real click, then real
``QMouseEvent`` moves (``QTest.mouseMove``) to 200 different cells around the
unit, each followed by the event loop's turn that paints the frame
(``processEvents``, which runs the posted ``UpdateRequest``).  Each sample is
the whole of that: the preview's engine call, the overlay, the status bar and
the paint.  CPU time (``time.process_time``: waiting for a core is not
counted, so a busy machine does not inflate it) and wall time, median and
95th percentile in milliseconds, and the load average at the start.

Cases (the target: p95 <= 8 ms CPU for every preview):

* **CWOL rail**, 1000 x 1000 squares, 5 % rail (:func:`bench.cwol_rail.scenario`);
* **GITM march**, 1000 x 1000 squares of flat ground and hills, 400 enemy units;
* **ACW reach + move**, 500 x 500 hexes (:func:`bench.peers.acw_scenario`);
* **Rail Options** (a unit selected; each hover judges the move) and the
  **Module I plan** (a counter dragged; each hover redraws the plan and the
  order being dragged) in the territory window, on the 1000-territory
  Voronoi map of :mod:`bench.railroads` with a station and a railroad in
  every territory (:func:`territory_scenario`), at the fitted zoom and three
  times closer.
* **Rail Options repaint**: the same map with a unit selected, each sample a
  whole repaint of the canvas (the window exposed, or panned by a few
  pixels), at both zooms.

Run: ``python -m bench.hover`` (``--quick``: 60 moves a case; ``--case TEXT``
and ``--zoom fit|24|48`` pick cases and zooms; ``--help``).  Exits 1 when a
case misses the target, so ``python -m bench`` lists it.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from engine.grids import Cell, SquareGrid  # noqa: E402
from engine.labels import NumericNumbering  # noqa: E402
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit  # noqa: E402

if TYPE_CHECKING:
    from engine.territory import TerritoryScenario

TARGET_MS = 8.0
WINDOW = (1280, 820)
ZOOMS: tuple[float | None, ...] = (None, 24.0, 48.0)
"""Screen size of a cell during the hovers: ``None`` is the zoom a map opens
at (the whole map fitted to the window; the mouse then ranges over the whole
map), 24 and 48 px zooms a game master reads unit counters at (the mouse ranges
over the cells around the unit that are on screen)."""


def gitm_scenario(size: int = 1000, enemies: int = 400, seed: int = 7) -> Scenario:
    """A ``size`` x ``size`` GITM map: flat ground and hills at random (every
    step a climb check), the French unit in the middle, Austrian units
    scattered."""
    rs = Ruleset("bench", [TerrainType("flat", "flat ground", ".", "#dddddd"),
                           TerrainType("hills", "hills", "h", "#aa9966", elevation=1)],
                 options={"gitm": {"max_climb": 1}})
    m = GridMap(SquareGrid(size, size), NumericNumbering())
    rng = np.random.default_rng(seed)
    m.terrain[:] = rng.integers(0, 2, size=(size, size), dtype=np.uint8)
    sides = [Faction("FR", "French", "#0000ff", "F"), Faction("AU", "Austrian", "#ffffff", "A")]
    mid = size // 2
    s = Scenario("bench", rs, sides, m, [Unit("FR1IN", "FR", "IN", Cell(mid, mid))])
    for i, (c, r) in enumerate(rng.integers(0, size, size=(enemies, 2)).tolist()):
        if (c, r) != (mid, mid):
            s.units.append(Unit(f"AU{i}", "AU", "IN", Cell(c, r)))
    return s


def cwol_scenario() -> Scenario:
    from bench.cwol_rail import scenario

    return scenario()


def acw_scenario() -> Scenario:
    from bench.peers import acw_scenario as build

    return build()


CASES: dict[str, tuple[Callable[[], Scenario], str | None, int]] = {
    # name: (scenario, unit id (None: the first unit of the first side), hover radius in cells)
    "CWOL rail 1000x1000": (cwol_scenario, "CS1IN", 20),
    "GITM march 1000x1000": (gitm_scenario, "FR1IN", 12),
    "ACW reach 500x500 hex": (acw_scenario, None, 5),
}


TERRITORIES = 1000


def territory_scenario() -> TerritoryScenario:
    """The 1000-territory Voronoi map of :func:`bench.railroads.scenario`,
    every territory with a rail station and a railroad marker (Rail
    Options), three German infantry units near the middle."""
    import dataclasses

    from bench.railroads import scenario
    from engine.model import UnitType
    from engine.territory import TerritoryUnit

    s = scenario(TERRITORIES)
    for t in list(s.map.territories.values()):
        t.features.update({"rail_station": {}, "railroad": {}})
    mid = min(s.map.territories.values(), key=lambda t: (t.shape.centroid.x - 300) ** 2 + (t.shape.centroid.y - 350) ** 2)
    s.ruleset = dataclasses.replace(s.ruleset, unit_types=[UnitType("infantry", "Infantry", 3)])
    s.units.extend(TerritoryUnit(f"ger{i}", "germany", "infantry", mid.id) for i in range(3))
    s.state.setdefault("rail_options", {"income": {"germany": 420}})
    return s


TERRITORY_ZOOMS: tuple[float | None, ...] = (None, 3.0)
"""Territory window zooms: the fitted map, and three times closer."""

TERRITORY_CASES: dict[str, str] = {
    # name: the territory window's mode
    "Rail Options 1000 terr.": "railoptions",
    "Module I plan 1000 terr.": "railplan",
}


def run_territory_case(name: str, mode: str, moves: int, zoom_factor: float | None
                       ) -> tuple[float, float, float, float]:
    """As :func:`run_case` in the territory window: Rail Options with a unit
    selected (each hover judges the move to the territory), or the Module I
    plan with a counter dragged (each hover redraws the plan and the order
    being dragged); ``zoom_factor`` None is the fitted map, else that many
    times the fitted zoom."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.gui.systems.rail_options.kit import RailOptionsKit
    from app.gui.territory import TerritoryWindow

    app = QApplication.instance() or QApplication([])
    s = territory_scenario()
    tmp = Path(tempfile.mkdtemp())
    w = TerritoryWindow(s, None, QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat), tmp / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    w.resize(*WINDOW)
    w.show()
    app.processEvents()
    w.canvas.fit()
    start = s.units[0].at
    if zoom_factor is not None:
        w.canvas.set_zoom(w.canvas.zoom() * zoom_factor)
        w.canvas._scroll_to(*w.canvas.label_point(start))  # noqa: SLF001 - the view's own centring
    w.mode_actions[mode].trigger()
    app.processEvents()
    vp = w.canvas.viewport()
    c = w.canvas
    at = c.map_to_view(*c.label_point(start)).toPoint()
    if mode == "railoptions":
        w.select_unit(s.units[0].id)
    else:
        QTest.mouseMove(vp, at)
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    app.processEvents()
    if mode == "railoptions" and (w.selected_unit != s.units[0].id or w.context.service(RailOptionsKit).reach is None):
        raise SystemExit(f"{name}: selecting {s.units[0].id} gave no rail reach")
    if mode == "railplan" and getattr(w.tool, "_drag", None) is None:
        raise SystemExit(f"{name}: pressing on the counter in {start} started no drag")
    rng = random.Random(1940)
    tids = [t for t in s.map.territories if t != start]
    rng.shuffle(tids)
    points = []
    for t in tids:
        q = c.map_to_view(*c.label_point(t)).toPoint()
        if vp.rect().contains(q) and c.territory_at(q.toPointF()) == t:
            points.append(q)
        if len(points) == moves:
            break
    for q in points[:5]:
        QTest.mouseMove(vp, q, -1)
        app.processEvents()
    cpu: list[float] = []
    wall: list[float] = []
    for q in points:
        t0, c0 = time.perf_counter(), time.process_time()
        QTest.mouseMove(vp, q, -1)
        app.processEvents()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    if mode == "railplan":
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    w.close()
    app.processEvents()
    return (*_stats(cpu), *_stats(wall))


def run_territory_repaint(frames: int, zoom_factor: float | None) -> tuple[float, float, float, float]:
    """CPU median, CPU p95, wall median, wall p95 (ms) of a whole repaint
    of the Rail Options canvas with a unit selected (its reach shown):
    every other frame is an expose of the same view, the others a pan by a
    few pixels."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.gui.systems.rail_options.kit import RailOptionsKit
    from app.gui.territory import TerritoryWindow

    app = QApplication.instance() or QApplication([])
    s = territory_scenario()
    tmp = Path(tempfile.mkdtemp())
    w = TerritoryWindow(s, None, QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat), tmp / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    w.resize(*WINDOW)
    w.show()
    app.processEvents()
    c = w.canvas
    c.fit()
    if zoom_factor is not None:
        c.set_zoom(c.zoom() * zoom_factor)
        c._scroll_to(*c.label_point(s.units[0].at))  # noqa: SLF001 - the view's own centring
    w.mode_actions["railoptions"].trigger()
    w.select_unit(s.units[0].id)
    app.processEvents()
    reach = w.context.service(RailOptionsKit).reach
    if reach is None or not reach.destinations:
        raise SystemExit(f"Rail Options repaint: selecting {s.units[0].id} gave no rail reach")
    vp = c.viewport()
    h, v = c.horizontalScrollBar(), c.verticalScrollBar()
    rng = random.Random(1941)
    cpu: list[float] = []
    wall: list[float] = []
    for i in range(frames + 3):
        t0, c0 = time.perf_counter(), time.process_time()
        if i % 2:
            h.setValue(h.value() + rng.choice((-3, 3)))
            v.setValue(v.value() + rng.choice((-2, 2)))
        vp.repaint()
        if i >= 3:  # the first frames render the cached layers
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
    w.close()
    app.processEvents()
    return (*_stats(cpu), *_stats(wall))


ZOOM_TARGET_MS = 50.0
ZOOM_CASES: dict[str, Callable[[], Scenario]] = {
    "zoom 1000x1000 square": gitm_scenario,
    "zoom 500x500 hex": acw_scenario,
}


def run_zoom_case(name: str, build: Callable[[], Scenario], steps: int) -> tuple[float, float, float, float]:
    """CPU median, CPU p95, wall median, wall p95 (ms) of a zoom change by
    the mouse wheel (one notch, x1.25 or /1.25 about the cursor) in the real
    window and the repaint that follows, with no tiles cached at the new
    zoom (the tile cache is emptied before each notch; the zoom wanders
    between 12 and 60 px cells)."""
    from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    s = build()
    tmp = Path(tempfile.mkdtemp())
    w = MainWindow(s, None, QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat), tmp / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    w.resize(*WINDOW)
    w.show()
    app.processEvents()
    c = w.canvas
    r = c.renderer()
    assert r is not None
    c.set_zoom(24.0 / r.cell_px(1.0))
    c.center_on(Cell(s.map.width // 2, s.map.height // 2))
    app.processEvents()
    vp = c.viewport()
    rng = random.Random(125)
    cpu: list[float] = []
    wall: list[float] = []
    for i in range(steps + 3):
        px = r.cell_px(c.zoom())
        up = px < 16 or (px <= 50 and rng.random() < 0.5)
        pos = QPointF(rng.uniform(100, vp.width() - 100), rng.uniform(100, vp.height() - 100))
        ev = QWheelEvent(pos, QPointF(vp.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120 if up else -120),
                         Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                         False)
        c.tile_cache().clear()
        t0, c0 = time.perf_counter(), time.process_time()
        QApplication.sendEvent(vp, ev)
        app.processEvents()
        if i >= 3:  # the first notches warm the sprites and fonts
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
    w.close()
    app.processEvents()
    return (*_stats(cpu), *_stats(wall))


def _stats(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def run_case(name: str, build: Callable[[], Scenario], unit_id: str | None, radius: int,
             moves: int, cell_px: float | None) -> tuple[float, float, float, float]:
    """CPU median, CPU p95, wall median, wall p95 (ms) of ``moves`` hovers."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    s = build()
    unit = s.unit(unit_id) if unit_id else next(u for u in s.units if u.side == s.sides[0].id)
    tmp = Path(tempfile.mkdtemp())
    w = MainWindow(s, None, QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat), tmp / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    w.resize(*WINDOW)
    w.show()
    app.processEvents()
    layout = w.canvas.layout()
    assert layout is not None
    x0, y0 = layout.center(unit.at)
    grid = s.map.grid
    c1 = layout.center(Cell(unit.at.col + 1, unit.at.row))
    px = cell_px or 24.0  # select the unit by a click at a readable zoom
    w.canvas.set_zoom(px / max(abs(c1[0] - x0), 1e-9))
    app.processEvents()
    w.canvas._scroll_to(x0, y0)  # noqa: SLF001 - the view's own centring
    app.processEvents()
    w.set_tool("adjudicate")
    app.processEvents()
    vp = w.canvas.viewport()

    def point(cell: Cell):  # type: ignore[no-untyped-def]
        x, y = layout.center(cell)
        return w.canvas.map_to_view(x, y).toPoint()

    p = point(unit.at)
    QTest.mouseMove(vp, p)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    app.processEvents()
    if w.state.selected_unit != unit.id:
        raise SystemExit(f"{name}: clicking {unit.id} did not select it (preview: {w.adjudicate.preview})")
    if cell_px is None:  # the whole map, the mouse anywhere on it
        w.canvas.fit()
        radius = max(grid.width, grid.height)
    else:  # only cells on screen
        radius = min(radius, int(min(vp.width(), vp.height()) / cell_px / 2) - 1)
    app.processEvents()
    rng = random.Random(1865)
    cells: list[Cell] = []
    seen: set[Cell] = set()
    near = moves if radius > 50 else sum(  # cells in range (fewer than moves at a close zoom in a small view)
        grid.contains(Cell(unit.at.col + dc, unit.at.row + dr)) and (dc, dr) != (0, 0)
        for dc in range(-radius, radius + 1) for dr in range(-radius, radius + 1))
    while len(cells) < min(moves, near):
        c = Cell(unit.at.col + rng.randint(-radius, radius), unit.at.row + rng.randint(-radius, radius))
        if grid.contains(c) and c not in seen and c != unit.at:
            seen.add(c)
            cells.append(c)
    while len(cells) < moves:  # fewer cells on screen than moves: the same cells again, in the same order
        cells.append(cells[len(cells) % len(seen)])
    for c in cells[:5]:  # warm caches the way a first sweep of the mouse does
        QTest.mouseMove(vp, point(c))
        app.processEvents()
    cpu: list[float] = []
    wall: list[float] = []
    for c in cells:
        q = point(c)
        t0, c0 = time.perf_counter(), time.process_time()
        QTest.mouseMove(vp, q)
        app.processEvents()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    w.close()
    app.processEvents()
    return (*_stats(cpu), *_stats(wall))


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.hover", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="60 moves a case instead of 200")
    ap.add_argument("--case", action="append", default=[], metavar="TEXT",
                    help="only the cases whose name contains TEXT (case-insensitive; repeatable)")
    ap.add_argument("--zoom", action="append", default=[], choices=["fit", "24", "48", "3x", "wheel"],
                    help="only these zooms (repeatable; default: all): fit, 24 or 48 px cells (grids), "
                         "3 times the fitted zoom (territories), wheel (the zoom-change rows)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    moves = 60 if args.quick else 200
    zooms = [z for z in ZOOMS if not args.zoom or ("fit" if z is None else f"{z:.0f}") in args.zoom]
    cases = {k: v for k, v in CASES.items() if not args.case or any(t.casefold() in k.casefold() for t in args.case)}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"hover to painted frame, {moves} moves a case, window {WINDOW[0]}x{WINDOW[1]}; "
          f"load average {load:.2f} on {os.cpu_count()} cores; times in ms")
    print(f"{'case':<24} {'zoom':>6} {'CPU med':>8} {'CPU p95':>8} {'wall med':>9} {'wall p95':>9}  target p95 CPU")
    missed = []
    for name, (build, unit_id, radius) in cases.items():
        for px in zooms:
            cm, cp, wm, wp = run_case(name, build, unit_id, radius, moves, px)
            ok = cp <= TARGET_MS
            zoom = "fit" if px is None else f"{px:.0f} px"
            if not ok:
                missed.append(f"{name} ({zoom})")
            print(f"{name:<24} {zoom:>6} {cm:8.2f} {cp:8.2f} {wm:9.2f} {wp:9.2f}  "
                  f"{TARGET_MS:.0f} {'met' if ok else 'MISSED'}", flush=True)
    tzooms = [z for z in TERRITORY_ZOOMS if not args.zoom or ("fit" if z is None else f"{z:.0f}x") in args.zoom]
    for name, mode in TERRITORY_CASES.items():
        if args.case and not any(t.casefold() in name.casefold() for t in args.case):
            continue
        for f in tzooms:
            cm, cp, wm, wp = run_territory_case(name, mode, moves, f)
            ok = cp <= TARGET_MS
            zoom = "fit" if f is None else f"{f:.0f}x fit"
            if not ok:
                missed.append(f"{name} ({zoom})")
            print(f"{name:<24} {zoom:>6} {cm:8.2f} {cp:8.2f} {wm:9.2f} {wp:9.2f}  "
                  f"{TARGET_MS:.0f} {'met' if ok else 'MISSED'}", flush=True)
    name = "Rail Options repaint"
    if not args.case or any(t.casefold() in name.casefold() for t in args.case):
        for f in tzooms:
            cm, cp, wm, wp = run_territory_repaint(moves, f)
            ok = cp <= TARGET_MS
            zoom = "fit" if f is None else f"{f:.0f}x fit"
            if not ok:
                missed.append(f"{name} ({zoom})")
            print(f"{name:<24} {zoom:>6} {cm:8.2f} {cp:8.2f} {wm:9.2f} {wp:9.2f}  "
                  f"{TARGET_MS:.0f} {'met' if ok else 'MISSED'}", flush=True)
    for name, build in ZOOM_CASES.items():
        if args.case and not any(t.casefold() in name.casefold() for t in args.case):
            continue
        if args.zoom and "wheel" not in args.zoom:
            continue
        cm, cp, wm, wp = run_zoom_case(name, build, 20 if args.quick else 60)
        ok = cp <= ZOOM_TARGET_MS
        if not ok:
            missed.append(name)
        print(f"{name:<24} {'wheel':>6} {cm:8.2f} {cp:8.2f} {wm:9.2f} {wp:9.2f}  "
              f"{ZOOM_TARGET_MS:.0f} {'met' if ok else 'MISSED'}", flush=True)
    if missed:
        print(f"missed: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
