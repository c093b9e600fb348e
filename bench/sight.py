"""Checked line of sight on a 500 x 500 hex map: random pairs of cells
(lines up to hundreds of hexes long, random woods, towns, hills and walls),
the whole verdict (both nudged walks when the line ties, every cell and
side classified, the blocker found).

Target: at most 1 ms of CPU per query (the mean over the pairs; the p95 is
shown too).  Run: ``python -m bench.sight``.
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np

from engine.grids import Cell, Edge, HexGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType
from engine.sight import SightRules, line_of_sight

TARGET_MS = 1.0
SIZE = 500
PAIRS = 300


def scenario() -> Scenario:
    grid = HexGrid(SIZE, SIZE)
    gm = GridMap(grid, NumericNumbering())
    rng = np.random.default_rng(7)
    gm.terrain[:] = rng.choice(np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3], np.uint8), size=(SIZE, SIZE))
    r = random.Random(7)
    for _ in range(2000):
        c = Cell(r.randrange(SIZE), r.randrange(SIZE))
        n = grid.neighbours(c)
        gm.rivers.add(Edge.between(c, n[r.randrange(len(n))]))
    ts = [TerrainType("clear", "Clear", ".", "#eeeeee"), TerrainType("woods", "Woods", "w", "#33aa33"),
          TerrainType("town", "Town", "t", "#aa7744"), TerrainType("hill", "Hill", "h", "#aa9966", elevation=1)]
    return Scenario("bench", Ruleset("bench", ts), [Faction("A", "A", "#000000", "A")], gm, [])


def measure(s: Scenario, rules: SightRules, pairs: list[tuple[Cell, Cell]]) -> tuple[float, float, float]:
    """Mean and p95 CPU milliseconds per query, and the mean number of cells a
    line meets (its whole length, blocked or not)."""
    line_of_sight(s, *pairs[0], rules)  # warm caches and imports
    times = []
    lengths = []
    for a, b in pairs:
        t0 = time.process_time_ns()
        v = line_of_sight(s, a, b, rules)
        times.append(time.process_time_ns() - t0)
        lengths.append(sum(1 for e in v.elements if e.kind == "cell"))
    times.sort()
    return statistics.fmean(times) / 1e6, times[int(len(times) * 0.95)] / 1e6, statistics.fmean(lengths)


def main() -> int:
    s = scenario()
    r = random.Random(11)
    pairs = [(Cell(r.randrange(SIZE), r.randrange(SIZE)), Cell(r.randrange(SIZE), r.randrange(SIZE)))
             for _ in range(PAIRS)]
    # lines along a hex row (every one a tie along sides) and through corners
    pairs += [(Cell(10, 250), Cell(490, 250)), (Cell(3, 3), Cell(403, 203))] * 20
    worst = 0.0
    print(f"line of sight on a {SIZE} x {SIZE} hex map, {len(pairs)} queries (target: mean <= {TARGET_MS} ms CPU)")
    for title, rules in (
            ("towns and rivers block, woods 1 high, hills", SightRules(("town",), ("river",), {"woods": 1}, True)),
            ("nothing blocks: every line walked to its end", SightRules())):
        mean, p95, cells = measure(s, rules, pairs)
        worst = max(worst, mean)
        print(f"  {title}: mean {mean:.3f} ms, p95 {p95:.3f} ms ({cells:.0f} cells a line)")
    ok = worst <= TARGET_MS
    print("  OK" if ok else "  OVER TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
