"""Editor canvas speed and memory on big maps: a 1000 x 1000 square map and
a 500 x 500 hex map (random terrain blobs of six types, control in blocks,
rivers, roads, rail, 400 places and 2000 units), in a 1280 x 800 canvas
offscreen, at 32-pixel cells (zoom 1).

* **repaint**: a full repaint of the view with a warm tile cache
  (``viewport().repaint()``, synchronous), target 4 ms;
* **zoom**: a zoom change (x1.25 or /1.25, alternating) and the repaint
  that follows, with no tiles cached at the new zoom, target 50 ms;
* **dab**: a 5-cell brush dab of terrain at a random visible cell through
  the editor's model path (``brush_cells`` + ``plan_paint`` +
  ``Document.push``, whose signal calls ``canvas.invalidate_cells``) and the
  repaint of the region it marks (the event loop's paint, as in the editor),
  with the window's autosave attached as the editor attaches it (so each dab
  is also written to the autosave's edit log before it is carried out; the
  map was opened from its file, so the log starts on that file), target 4 ms;
* **open**: ``load_scenario`` of the saved file + ``canvas.set_scenario``,
  target 300 ms;
* **RSS**: peak resident memory of a child process that builds nothing but
  loads the file, opens the canvas, paints, zooms and dabs, target 300 MB.

Each figure is timed in CPU time of this process (``time.process_time``:
time spent waiting for a core of a shared machine does not count) beside
wall time; a target is met when the CPU p95 is within it.

Run: ``python -m bench.editor`` (``--quick``: fewer runs).
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.model import Faction, GridMap, Place, Ruleset, Scenario, TerrainType, Unit, UnitType
from engine.numbering import numbering_from_dict

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"repaint": 4.0, "zoom": 50.0, "dab": 4.0, "open": 300.0}
RSS_TARGET_MB = 300.0
VIEW = (1280, 800)
MAPS = {"square 1000x1000": ("square", 1000, 1000), "hex 500x500": ("hex", 500, 500)}
TERRAIN = [
    TerrainType("clear", "Clear", ".", "#d9dfa8"),
    TerrainType("forest", "Forest", "f", "#7fa86a", move_cost=2),
    TerrainType("hills", "Hills", "h", "#c9a877", move_cost=2),
    TerrainType("mountain", "Mountain", "m", "#9c8f80", move_cost=3),
    TerrainType("swamp", "Swamp", "s", "#9fb8a0", move_cost=3),
    TerrainType("water", "Water", "~", "#8fb8de", impassable=True),
]


def scenario(kind: str, width: int, height: int, seed: int = 1863) -> Scenario:
    """The benchmark map (deterministic for a seed)."""
    rng = np.random.default_rng(seed)
    grid = SquareGrid(width, height) if kind == "square" else HexGrid(width, height, "flat", "odd")
    # blobs: coarse random field upsampled, so terrain comes in patches
    coarse = rng.integers(0, len(TERRAIN), size=(height // 8 + 2, width // 8 + 2), dtype=np.uint8)
    terrain = np.repeat(np.repeat(coarse, 8, 0), 8, 1)[:height, :width].copy()
    speckle = rng.random((height, width)) < 0.1
    terrain[speckle] = rng.integers(0, len(TERRAIN), int(speckle.sum()), dtype=np.uint8)
    control = np.full((height, width), -1, np.int16)
    control[:, : width // 3] = 0
    control[:, width - width // 3:] = 1
    gm = GridMap(grid, numbering_from_dict({"scheme": "ccrr", "first": 1, "digits": 4}), terrain, control)
    prng = random.Random(seed)
    for _ in range(width // 5):  # rivers along column sides, rails and roads along rows
        c, r0 = prng.randrange(width - 1), prng.randrange(height - 40)
        for r in range(r0, r0 + prng.randint(10, 40)):
            a, b = Cell(c, r), Cell(c + 1, r)
            if grid.shares_side(a, b):
                gm.rivers.add(Edge.between(a, b))
        for layer in ("rail", "road"):
            r, c0 = prng.randrange(height), prng.randrange(width - 60)
            cells = [Cell(c, r) for c in range(c0, c0 + prng.randint(20, 60))]
            gm.links.setdefault(layer, set()).update(
                Edge.between(a, b) for a, b in zip(cells, cells[1:]) if grid.can_link(a, b))
    for i in range(400):
        gm.places[Cell(prng.randrange(width), prng.randrange(height))] = Place(f"Town {i}")
    rs = Ruleset("bench", list(TERRAIN), [UnitType("inf", "Infantry", 4), UnitType("cav", "Cavalry", 8)])
    sides = [Faction("blue", "Union", "#3a5fa8", "U"), Faction("grey", "Confederacy", "#8c8c8c", "C")]
    units = [Unit(f"u{i}", "blue" if i % 2 else "grey", "inf" if i % 3 else "cav",
                  Cell(prng.randrange(width), prng.randrange(height)), 1 + i % 9) for i in range(2000)]
    return Scenario(f"bench {kind} {width}x{height}", rs, sides, gm, units)


def _stats(times_ns: list[int]) -> tuple[float, float]:
    t = sorted(times_ns)
    return statistics.median(t) / 1e6, t[min(len(t) - 1, int(len(t) * 0.95))] / 1e6


Timing = tuple[float, float, float, float]
"""CPU median, CPU p95, wall median, wall p95 (ms)."""


def _timed(fn: Callable[[int], object], n: int) -> Timing:
    """``fn(i)`` for i < n: the CPU time of this process (``process_time``:
    waiting for a core of a shared machine does not count) and the wall
    time, median and p95 of each."""
    cpu, wall = [], []
    for i in range(n):
        c0, t0 = time.process_time_ns(), time.perf_counter_ns()
        fn(i)
        wall.append(time.perf_counter_ns() - t0)
        cpu.append(time.process_time_ns() - c0)
    return (*_stats(cpu), *_stats(wall))


def _app() -> object:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def _open_canvas(s: Scenario, path: str | None = None, state: str | None = None) -> tuple[object, object]:
    from app.gui.canvas import MapCanvas
    from app.gui.document import Document

    canvas = MapCanvas()
    canvas.resize(*VIEW)
    canvas.show()
    canvas.set_scenario(s)
    doc = Document(s, path)
    if state is not None:
        from app.gui.autosave import Autosave

        # the editor's autosave (its timer far off: the edit log is measured)
        doc.autosave = Autosave(doc, Path(state), interval_ms=1 << 30)  # type: ignore[attr-defined]
    # wired as MainWindow wires them: an edit names its layer, so a terrain
    # dab re-renders only its cells' pixels and skips edge re-indexing
    doc.cellsChanged.connect(lambda layer, cells: canvas.invalidate_cells(cells, layer))
    doc.layerChanged.connect(lambda _layer: canvas.invalidate_all())
    return canvas, doc


def measure(kind: str, width: int, height: int, runs: int) -> dict[str, Timing]:
    """Time repaint, zoom, dab and open on one map in this process."""
    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QApplication

    from engine.editing import brush_cells, plan_paint
    from engine.io import load_scenario, save_scenario

    app = _app()
    assert isinstance(app, QApplication)
    s = scenario(kind, width, height)
    out: dict[str, Timing] = {}
    folder = tempfile.TemporaryDirectory(prefix="adjutant-bench-editor-")
    path = Path(folder.name) / "map.json"
    save_scenario(s, path)
    holder: list[object] = []

    def open_file(_i: int) -> None:
        loaded = load_scenario(path)
        canvas.set_scenario(loaded)  # type: ignore[attr-defined]
        holder[:] = [loaded]

    canvas, doc = _open_canvas(s, str(path), str(Path(folder.name) / "state"))
    app.processEvents()
    out["open"] = _timed(open_file, max(3, runs // 20))
    canvas.set_scenario(s)  # type: ignore[attr-defined]
    vp = canvas.viewport()  # type: ignore[attr-defined]
    canvas.set_zoom(1.0)  # type: ignore[attr-defined]  # 32-pixel cells
    canvas.center_on(Cell(width // 2, height // 2))  # type: ignore[attr-defined]
    app.processEvents()
    vp.repaint()
    out["repaint"] = _timed(lambda _i: vp.repaint(), runs)

    def zoom(i: int) -> None:
        canvas.tile_cache().clear()  # type: ignore[attr-defined]  # nothing cached at the new zoom
        canvas.set_zoom(1.25 if i % 2 == 0 else 1.0)  # type: ignore[attr-defined]
        vp.repaint()
    out["zoom"] = _timed(zoom, max(10, runs // 5))
    canvas.set_zoom(1.0)  # type: ignore[attr-defined]
    canvas.center_on(Cell(width // 2, height // 2))  # type: ignore[attr-defined]
    vp.repaint()
    rng = random.Random(5)
    grid = s.map.grid
    stroke = doc.new_stroke()  # type: ignore[attr-defined]

    def dab(i: int) -> None:
        pt = QPointF(rng.uniform(40, VIEW[0] - 60), rng.uniform(40, VIEW[1] - 60))
        c = canvas.cell_at(pt)  # type: ignore[attr-defined]
        assert c is not None
        cells = brush_cells(grid, c, 5)
        edit = plan_paint(s, "terrain", cells, i % len(TERRAIN))
        before = canvas.tile_cache().renders  # type: ignore[attr-defined]
        doc.push("Paint terrain", edit, stroke)  # type: ignore[attr-defined]
        # repaint the region invalidate_cells marked for update, as the editor's event loop does
        rect = canvas.renderer().cells_scene_rect(cells, canvas.zoom())  # type: ignore[attr-defined]
        vp.repaint(rect.translated(*canvas.origin()))  # type: ignore[attr-defined]
        assert edit is None or canvas.tile_cache().renders > before, "the dab was not repainted"  # type: ignore[attr-defined]
    out["dab"] = _timed(dab, runs)
    assert doc.autosave._log is not None and doc.autosave._log.steps >= runs - 1, "the dabs were not logged"  # type: ignore[attr-defined]
    doc.autosave.close()  # type: ignore[attr-defined]
    folder.cleanup()
    return out


def child_rss(kind: str, width: int, height: int) -> float:
    """Peak RSS (MB) of a child that loads the saved map, opens it in the
    canvas, paints, zooms and dabs."""
    with tempfile.TemporaryDirectory(prefix="adjutant-bench-editor-") as d:
        path = Path(d) / "map.json"
        code = (f"from bench.editor import scenario; from engine.io import save_scenario; "
                f"save_scenario(scenario({kind!r}, {width}, {height}), {str(path)!r})")
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        res = subprocess.run([sys.executable, "-m", "bench.editor", "--child-rss", str(path)], check=True,
                             cwd=ROOT, capture_output=True, text=True)
    return float(json.loads(res.stdout.strip().splitlines()[-1])["rss_mb"])


def _rss_child(path: str) -> None:
    from PySide6.QtWidgets import QApplication

    from engine.editing import brush_cells, plan_paint
    from engine.io import load_scenario

    app = _app()
    assert isinstance(app, QApplication)
    s = load_scenario(path)
    canvas, doc = _open_canvas(s)
    app.processEvents()
    vp = canvas.viewport()  # type: ignore[attr-defined]
    for z in (None, 1.0, 1.25, 0.5, 2.0):
        if z is not None:
            canvas.set_zoom(z)  # type: ignore[attr-defined]
        vp.repaint()
    c = Cell(s.map.width // 2, s.map.height // 2)
    canvas.center_on(c)  # type: ignore[attr-defined]
    for i in range(20):
        doc.push("Paint", plan_paint(s, "terrain", brush_cells(s.map.grid, Cell(c.col + i, c.row), 5), i % 6))  # type: ignore[attr-defined]
        vp.repaint()
    app.processEvents()
    print(json.dumps({"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main() -> int:
    args = sys.argv[1:]
    if args[:1] == ["--child-rss"]:
        _rss_child(args[1])
        return 0
    runs = 40 if "--quick" in args else 200
    print(f"Editor canvas, {VIEW[0]}x{VIEW[1]} view offscreen, 32-pixel cells; median / p95 over the runs, "
          f"CPU (this process) and wall; load {os.getloadavg()[0]:.2f} at the start. A target is missed "
          f"(OVER) when the CPU p95 is over it.")
    print(f"{'map':<18} {'figure':<8} {'cpu median':>10} {'cpu p95':>9} {'wall med.':>10} {'wall p95':>9} "
          f"{'target':>8}")
    for label, (kind, w, h) in MAPS.items():
        res = measure(kind, w, h, runs)
        for name in TARGETS:
            cm, cp, wm, wp = res[name]
            print(f"{label:<18} {name:<8} {cm:>8.2f}ms {cp:>7.2f}ms {wm:>8.2f}ms {wp:>7.2f}ms "
                  f"{TARGETS[name]:>6.0f}ms{'  OVER' if cp > TARGETS[name] else ''}", flush=True)
        rss = child_rss(kind, w, h)
        print(f"{label:<18} {'RSS':<8} {rss:>8.0f}MB {'':>41} {RSS_TARGET_MB:>4.0f}MB"
              f"{'  OVER' if rss > RSS_TARGET_MB else ''}", flush=True)
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
