"""A long campaign stays instant: the game commands and the engine's load on
games of 10, 100 and 1,000 turns of the ACW sample
(``maps/acw_short_campaign.json``; ``engine/turns``, ``docs/turns.md``).

Each game is built first (each side moves a few units to a neighbouring hex
not next to the enemy each turn, refused orders included, and ends its
turn) and saved.  Then, for each size:

* ``adjutant orders FILE --orders ONE.json`` (one order carried out and the
  file written: a fresh copy of the game each run);
* the same with ``--dry-run``;
* ``adjutant validate FILE`` (the file, its game's journal and replay);
* the engine's load: the file read, its journal checked and the game
  replayed (``Game(load_any(FILE))``), in this process, twice: the first
  read of a file (the journal verified and replayed) and a read of a file
  already verified (:func:`engine.io.journal_file.verified`).

Commands run as child processes; CPU is the change in
``getrusage(RUSAGE_CHILDREN)`` (user + system: waiting for a core is not
counted), wall beside it; median and 95th percentile of ``RUNS``, the sizes
taking turns within each round of runs (a change in the machine's load
falls on every size alike), the load average printed at the start and the
end.

Targets (CPU, at 1,000 turns): one order written <= 0.35 s, ``--dry-run``
<= 0.3 s, ``validate`` <= 0.3 s, each scaled by this run's ``python -c
pass`` against :data:`PASS_REFERENCE_S` (the machine the targets were set
on), and each command on the 1,000-turn game within 20 % of the 10-turn
game (flat, not growing).  Exit 1 when one is missed.

The table gives, for each size, CPU median / p95 and wall median; the
ratio of the largest game's CPU median to the smallest's (flat: at most
:data:`FLAT`); and the scaled target at the largest size, each marked met
or MISSED.

Run: ``python -m bench.journal`` (``--quick``: 3 runs, 10 and 1,000 turns;
``--turns=N,...``; ``--runs=N``).
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.io import dumps_any, load_any, loads_any
from engine.model import ModelError, Scenario
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"
TURNS = (10, 100, 1000)
RUNS = 7
ORDERS_PER_SIDE = 2
TARGETS_S = {"orders": 0.35, "orders --dry-run": 0.3, "validate": 0.3}
"""CPU seconds per command at 1,000 turns (on the reference machine)."""
PASS_REFERENCE_S = 0.016
"""``python -c pass`` CPU on the machine the targets were set on (2 cores)."""
FLAT = 1.2
"""The 1,000-turn figure may be at most this times the 10-turn one."""


def build(turns: int, seed: int = 15, more: int = 1) -> str:
    """The text of the sample scenario after ``turns`` turns of play, the
    game going on for ``more`` turns after them."""
    s = loads_any(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE))
    assert isinstance(s, Scenario)
    # the campaign ends after 12 turns (docs/rules/acw.md, "Turns and victory"): a long game needs
    # the Rebels' holding time set beyond it
    s.ruleset.options.setdefault("acw", {})["rebel_holds_turns"] = turns + more
    game = Game(s, "acw")
    rng = random.Random(seed)
    while game.turn.turn <= turns:
        side = game.turn.side
        units = [u for u in s.units if u.side == side]
        for u in rng.sample(units, min(ORDERS_PER_SIDE, len(units))):
            to = _safe_step(s, u)
            if to is None:
                continue
            try:
                game.give({"unit": u.id, "to": to})
            except ModelError:
                continue
        game.end_turn()
    return dumps_any(s)


def _safe_step(s: Scenario, u: object) -> str | None:
    """A neighbouring hex of unit ``u`` not next to the enemy (a move there
    owes no combat), or None."""
    side, at = getattr(u, "side"), getattr(u, "at")  # noqa: B009
    enemy = {e.at for e in s.units if e.side != side}
    grid = s.map.grid
    near = sorted(c for c in grid.neighbours(at) if grid.contains(c) and c not in enemy
                  and not any(n in enemy for n in grid.neighbours(c)))
    return s.map.label(near[0]) if near else None


def one_order(text: str) -> list[dict[str, str]]:
    """One order the side to move can carry out in the game ``text``."""
    s = loads_any(text, "bench")
    assert isinstance(s, Scenario)
    game = Game(s)
    for u in s.units:
        if u.side == game.turn.side:
            to = _safe_step(s, u)
            if to is not None and game.check({"unit": u.id, "to": to}).ok:
                return [{"unit": u.id, "to": to}]
    raise SystemExit("no unit of the side to move can step anywhere")


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    c0, w0 = _cpu_children(), time.perf_counter()
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
    return _cpu_children() - c0, time.perf_counter() - w0, p.returncode


def p95(xs: list[float]) -> float:
    """The 95th percentile of ``xs`` (nearest rank: the largest of fewer
    than 20)."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, -(-95 * len(ys) // 100) - 1))]


Samples = dict[str, dict[int, tuple[list[float], list[float]]]]
"""CPU and wall seconds of each run, by what was measured and the game's turns."""


def measure(sizes: tuple[int, ...], runs: int, work: Path, env: dict[str, str]) -> tuple[float, Samples]:
    """``python -c pass``'s median CPU, and each command's and the engine's
    load's runs on each game.  The sizes take turns within each round of
    runs, so a change in the machine's load falls on all of them alike."""
    py = sys.executable
    adjutant = [py, "-c", "import sys; from app.cli import main; sys.exit(main())"]
    base = statistics.median(run([py, "-c", "pass"], env)[0] for _ in range(max(runs, 5)))
    games = {n: work / f"game{n}.json" for n in sizes}
    cases: dict[str, dict[int, list[str]]] = {"orders": {}, "orders --dry-run": {}, "validate": {}}
    for n, f in games.items():
        orders = work / f"orders{n}.json"
        orders.write_text(json.dumps(one_order(f.read_text(encoding="utf-8"))), encoding="utf-8")
        run([*adjutant, "validate", str(f)], env)  # the first read verifies the journal once
        cases["orders"][n] = [*adjutant, "orders", "COPY", "--orders", str(orders)]
        cases["orders --dry-run"][n] = [*adjutant, "orders", str(f), "--orders", str(orders), "--dry-run"]
        cases["validate"][n] = [*adjutant, "validate", str(f)]
    out: Samples = {}
    for name, by_size in cases.items():
        for r in range(-1, runs):  # round -1 unmeasured: the first run of a command creates what later ones find
            for n, argv in by_size.items():
                copy = work / f"copy{n}.json"
                shutil.copyfile(games[n], copy)  # each order is given to a fresh copy of the game
                c, w, code = run([str(copy) if a == "COPY" else a for a in argv], env)
                if code != 0:
                    raise SystemExit(f"{name} on {n} turns exited {code}")
                if r < 0:
                    continue
                cpu, wall = out.setdefault(name, {}).setdefault(n, ([], []))
                cpu.append(c)
                wall.append(w)
    for name, fresh in (("engine load, first read", True), ("engine load, verified before", False)):
        for _ in range(runs):
            for n, f in games.items():
                if fresh:
                    shutil.rmtree(work / "cache", ignore_errors=True)
                c0, w0 = time.process_time(), time.perf_counter()
                Game(load_any(f))
                cpu, wall = out.setdefault(name, {}).setdefault(n, ([], []))
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
    return base, out


def report(sizes: tuple[int, ...], runs: int, base: float, samples: Samples) -> list[str]:
    """Print the table and return the targets missed."""
    scale = max(1.0, base / PASS_REFERENCE_S)
    small, big = sizes[0], sizes[-1]
    print(f"python -c pass: {base * 1e3:.0f} ms CPU (targets scaled by {scale:.2f}); {runs} runs of each, "
          f"the sizes taking turns")
    print(f"{'CPU median / p95, wall median (s)':34}" + "".join(f"{f'{n} turns':>24}" for n in sizes)
          + f"{f'{big}/{small}':>9}{'flat':>7}{f'at {big}':>9}{'target':>8}")
    missed = []
    for name, by in samples.items():
        med = {n: statistics.median(by[n][0]) for n in sizes}
        line = f"{name:34}" + "".join(f"{med[n]:7.3f} /{p95(by[n][0]):6.3f}, {statistics.median(by[n][1]):6.3f}  "
                                      for n in sizes)
        ratio = med[big] / med[small]
        line += f"{ratio:8.2f}x"
        target = TARGETS_S.get(name)
        if target is not None:
            flat = ratio <= FLAT
            line += (f"{'met' if flat else 'MISSED':>7}{target * scale:8.2f}s"
                     f"{'met' if med[big] <= target * scale else 'MISSED':>8}")
            if not flat:
                missed.append(f"{name}: {med[big]:.3f} s CPU at {big} turns against {med[small]:.3f} s at {small} "
                              f"({ratio:.2f}x, more than {FLAT:.1f}x)")
            if med[big] > target * scale:
                missed.append(f"{name}: {med[big]:.3f} s CPU at {big} turns (target {target * scale:.2f} s)")
        print(line)
    print(f"{big}/{small}: the CPU medians' ratio (flat: at most {FLAT:.1f}x); the targets are the scaled CPU "
          f"seconds at {big} turns.")
    return missed


def main() -> int:
    quick = "--quick" in sys.argv
    runs = 3 if quick else RUNS
    sizes: tuple[int, ...] = (10, 1000) if quick else TURNS
    for a in sys.argv[1:]:
        if a.startswith("--turns"):
            sizes = tuple(int(x) for x in a.split("=", 1)[1].split(","))
        elif a.startswith("--runs="):
            runs = int(a.split("=", 1)[1])
    import compileall

    for pkg in ("app", "engine"):
        compileall.compile_dir(str(ROOT / pkg), quiet=1)
    work = Path(tempfile.mkdtemp(prefix="bench-journal-"))
    env = dict(os.environ, ADJUTANT_CACHE_DIR=str(work / "cache"), PYTHONPATH=str(ROOT))
    os.environ["ADJUTANT_CACHE_DIR"] = env["ADJUTANT_CACHE_DIR"]
    la = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {la[0]:.2f} / {la[1]:.2f} (1 / 5 min) at the start")
    for n in sizes:
        t0 = time.perf_counter()
        text = build(n)
        (work / f"game{n}.json").write_text(text, encoding="utf-8")
        print(f"built {n} turns in {time.perf_counter() - t0:.1f} s: file {len(text) / 1e6:.2f} MB")
    try:
        base, samples = measure(sizes, runs, work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    la = os.getloadavg()
    print(f"load average {la[0]:.2f} / {la[1]:.2f} (1 / 5 min) at the end")
    missed = report(sizes, runs, base, samples)
    for m in missed:
        print(f"target missed: {m}")
    print("ok" if not missed else "MISSED a target")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
