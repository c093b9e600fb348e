"""How preview time, open time and memory grow with the map: square maps
of 100 x 100 to 1000 x 1000 cells, and 2000 x 2000 where the machine has the
memory (at least 6 GB available).

Each size runs in a child process of its own, so its peak resident memory
(``ru_maxrss``) is that size's alone.  The map is the CWOL rail benchmark's
(random-walk rail lines on 5% of the squares, control in blocks, a unit on
the rail near the centre; :mod:`bench.cwol_rail`) at that size.  Measured:

* **load**: ``load_scenario`` of the saved file (JSON parse, schema,
  building the model), median of 3;
* **open**: the editor window on the loaded scenario, shown offscreen until
  its first paint is done (``MainWindow`` + ``show`` + events);
* **preview**: one CWOL rail hover in the editor's preview
  (:class:`CwolRailPreview.hover`: bounded search, ties, overlay), median and
  95th percentile over 300 hovers on rail squares within 90 of the unit;
* **peak RSS**: the child's peak resident memory after all of the above.

The table gives each figure and its growth exponent against the previous
size (time ~ cells^k: k = 1 is linear in the number of cells, k = 0 flat).
Run: ``python -m bench.scaling`` (``--quick``: 100 to 500 only).
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = (100, 250, 500, 1000, 2000)
BIG_NEEDS_GB = 6.0


def child(size: int) -> dict[str, float]:
    """Measure one size in this process (called in a fresh child)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import random

    from bench import cwol_rail as cw
    from engine.io import load_scenario, save_scenario
    from engine.rules.cwol_rail import rail_network

    cw.SIZE = size  # the benchmark map, at this size
    s = cw.scenario()
    out: dict[str, float] = {"size": size}
    with tempfile.TemporaryDirectory(prefix="adjutant-scaling-") as d:
        path = Path(d) / "map.json"
        save_scenario(s, path)
        out["file_mb"] = path.stat().st_size / 2**20
        del s
        loads = []
        for _ in range(3):
            t0 = time.perf_counter()
            s = load_scenario(path)
            loads.append(time.perf_counter() - t0)
        out["load_s"] = statistics.median(loads)

        from PySide6.QtCore import QSettings

        from app.gui.main_window import MainWindow, ensure_app
        from app.gui.systems.cwol_rail.previews import CwolRailPreview

        app = ensure_app()
        t0 = time.perf_counter()
        w = MainWindow(s, str(path), QSettings(str(Path(d) / "s.ini"), QSettings.Format.IniFormat),
                       Path(d) / "state", previews=[CwolRailPreview()])
        w.resize(1200, 800)
        w.show()
        for _ in range(3):
            app.processEvents()
        w.canvas.viewport().repaint()
        out["open_s"] = time.perf_counter() - t0

        unit = s.unit("CS1IN")
        net = rail_network(s.map)
        rng = random.Random(7)
        near = [net.cell(i) for i in net.adj
                if max(abs(i % size - unit.at.col), abs(i // size - unit.at.row)) <= cw.WINDOW]
        targets = [rng.choice(near) for _ in range(300)]
        p = CwolRailPreview()
        for t in targets[:50]:
            p.hover(s, unit, t)
        times = []
        for t in targets:
            t0 = time.perf_counter_ns()
            p.hover(s, unit, t)
            times.append(time.perf_counter_ns() - t0)
        times.sort()
        out["preview_ms"] = statistics.median(times) / 1e6
        out["preview_p95_ms"] = times[int(len(times) * 0.95)] / 1e6
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        w.autosave.close()
    return out


def _available_gb() -> float:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 2**20
    except OSError:
        pass
    return 0.0


def _exp(a: float, b: float, ca: int, cb: int) -> str:
    if a <= 0 or b <= 0:
        return "   -"
    return f"{math.log(b / a) / math.log(cb / ca):4.2f}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        print(json.dumps(child(int(args[1]))))
        return 0
    sizes = [n for n in SIZES if n <= 500] if "--quick" in args else list(SIZES)
    rows = []
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for n in sizes:
        if n >= 2000 and _available_gb() < BIG_NEEDS_GB:
            print(f"{n}x{n}: skipped, {_available_gb():.1f} GB available (needs {BIG_NEEDS_GB} GB)")
            continue
        r = subprocess.run([sys.executable, "-m", "bench.scaling", "--child", str(n)], capture_output=True,
                           text=True, env=env, cwd=ROOT, check=False, timeout=3600)
        if r.returncode != 0:
            print(f"{n}x{n}: failed: {r.stderr.strip()[-500:]}")
            continue
        rows.append(json.loads(r.stdout.strip().splitlines()[-1]))
    print("Scaling on square maps (CWOL rail benchmark map; exponent k: time ~ cells^k against the row above)")
    print(f"{'map':>10} {'cells':>10} {'file MB':>8} {'load s':>8} {'k':>5} {'open s':>8} {'k':>5} "
          f"{'hover ms':>9} {'p95':>7} {'k':>5} {'peak RSS MB':>12} {'k':>5}")
    prev = None
    for row in rows:
        n = int(row["size"])
        cells = n * n
        ks = ["   -"] * 4
        if prev is not None:
            pc = int(prev["size"]) ** 2
            ks = [_exp(prev[key], row[key], pc, cells) for key in ("load_s", "open_s", "preview_ms", "peak_rss_mb")]
        print(f"{n:>5}x{n:<4} {cells:>10,} {row['file_mb']:8.1f} {row['load_s']:8.3f} {ks[0]:>5} "
              f"{row['open_s']:8.3f} {ks[1]:>5} {row['preview_ms']:9.3f} {row['preview_p95_ms']:7.3f} {ks[2]:>5} "
              f"{row['peak_rss_mb']:12.0f} {ks[3]:>5}")
        prev = row
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
