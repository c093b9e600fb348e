"""Command-line start-up: the CPU time of whole ``adjutant``
processes against ``python -c pass`` (the interpreter's own start-up),
measured in the same run and reported as a ratio.

Each case is a child process; its CPU time is the change in
``resource.getrusage(RUSAGE_CHILDREN)`` (user + system) across the run, so
time spent waiting for a core on a loaded machine is not counted; wall time
is printed beside it.  Median and 95th percentile over ``BENCH_STARTUP_RUNS``
runs (default 15; ``--quick``: 5).  Target: ``adjutant --help`` and
``adjutant validate`` of a small file at most 0.25 s CPU (median); exit 1
when either misses it.

The project's own modules are byte-compiled first (``compileall``), as an
installed program's are (pip compiles them at install): without bytecode
every run compiles the engine's sources again (about 40 ms of a small
``validate`` here, where ``PYTHONDONTWRITEBYTECODE`` is set).

Run: ``python -m bench.cli_startup``.
"""

from __future__ import annotations

import compileall
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.25
SMALL = ROOT / "maps" / "acw_short_campaign.json"


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of ``runs`` runs of ``argv`` (output discarded)."""
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = _cpu_children(), time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall.append(time.perf_counter() - w0)
        cpu.append(_cpu_children() - c0)
    return cpu, wall


def median_p95(xs: list[float]) -> tuple[float, float]:
    s = sorted(xs)
    return s[len(s) // 2], s[min(len(s) - 1, int(len(s) * 0.95))]


def main() -> int:
    runs = 5 if "--quick" in sys.argv else int(os.environ.get("BENCH_STARTUP_RUNS", "15"))
    for pkg in ("app", "engine"):
        compileall.compile_dir(str(ROOT / pkg), quiet=1)
    py = sys.executable
    cases = {
        "python -c pass": [py, "-c", "pass"],
        "adjutant --help": [py, "-m", "app", "--help"],
        "adjutant validate SMALL": [py, "-m", "app", "validate", str(SMALL)],
        "adjutant info SMALL": [py, "-m", "app", "info", str(SMALL)],
        "adjutant rail --help": [py, "-m", "app", "rail", "--help"],
    }
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} / {os.getloadavg()[1]:.2f} "
          f"(1 / 5 min); {runs} runs each; SMALL = {SMALL.relative_to(ROOT)}")
    print(f"{'command':28} {'CPU median':>11} {'CPU p95':>9} {'wall median':>12} {'wall p95':>9} {'CPU ratio':>10}")
    base = None
    medians = {}
    for name, argv in cases.items():
        cpu, wall = measure(argv, runs)
        (cm, cp), (wm, wp) = median_p95(cpu), median_p95(wall)
        base = cm if base is None else base
        medians[name] = cm
        print(f"{name:28} {cm * 1e3:9.0f} ms {cp * 1e3:6.0f} ms {wm * 1e3:10.0f} ms {wp * 1e3:6.0f} ms "
              f"{cm / base:9.1f}x")
    print("CPU ratio: the command's median CPU / python -c pass's, measured in this run.")
    missed = [n for n in ("adjutant --help", "adjutant validate SMALL") if medians[n] > TARGET_S]
    for n in missed:
        print(f"target missed: {n} takes {medians[n] * 1e3:.0f} ms CPU (target {TARGET_S * 1e3:.0f} ms)")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
