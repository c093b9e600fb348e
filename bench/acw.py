"""ACW reachability preview on a 500 x 500 hex map.

Target (issue 6): the reachability preview in at most 0.5 ms (p95) per
unit.  What is timed, over many units of both arms (infantry 3 MP, cavalry
5 MP) on the map of :func:`bench.peers.acw_scenario` (open, woods and water
in patches, 4% of hexsides river, a fifth of them bridged, 300 enemy units,
400 of ours):

* ``reach``: :func:`engine.rules.acw.reach` with the side's
  :class:`~engine.rules.acw.Board` built once (the search the preview runs
  when a unit is selected);
* ``reach + hexes``: the same plus listing every reached hex with its
  movement points left and halt flag (what the preview shades);
* ``check_move``: one hover's verdict for a reached hex (cost, path with
  crossings, stack), given the reach.

The Board (indexes of river hexsides, enemy hexes and the hexes next to
them; rebuilt after units move) is timed separately.
Run: ``python -m bench.acw``.
"""

from __future__ import annotations

import random
import time

from bench.peers import acw_scenario, summary, timed
from engine.model import Unit
from engine.rules.acw import Board, check_move, reach

TARGET_MS = 0.5
RUNS = 5000


def main(runs: int = RUNS) -> None:
    s = acw_scenario()
    board_times = []
    for _ in range(20):
        t0 = time.perf_counter_ns()
        board = Board(s, "US")
        board_times.append(time.perf_counter_ns() - t0)
    ours = [u for u in s.units if u.side == "US"]
    rng = random.Random(6)
    chosen = [rng.choice(ours) for _ in range(runs)]
    reaches = {u.id: reach(s, u, board) for u in ours}
    targets = []
    for u in chosen:
        hexes = reaches[u.id].hexes()
        targets.append((u, rng.choice(hexes).cell if hexes else u.at))

    def just_reach(u: Unit) -> object:
        return reach(s, u, board)

    def reach_hexes(u: Unit) -> object:
        return reach(s, u, board).hexes()

    def hover(ut: tuple[Unit, object]) -> object:
        u, cell = ut
        return check_move(s, u, cell, reaches[u.id])  # type: ignore[arg-type]

    timed(just_reach, chosen[:200])  # warm up
    rows = [("reach (search only)", timed(just_reach, chosen)),
            ("reach + hexes (the preview's shading)", timed(reach_hexes, chosen)),
            ("check_move (one hover, given the reach)", timed(hover, targets[: runs // 5]))]
    cav = sum(1 for u in chosen if u.type == "cavalry")
    print(f"ACW reachability preview on {s.map.width}x{s.map.height} hexes, {len(s.map.rivers)} river hexsides, "
          f"{len(board.enemy)} enemy hexes; {runs} units ({cav} cavalry, 5 MP; {runs - cav} infantry, 3 MP)")
    bm, bp = summary(board_times)
    print(f"  Board for one side (built once per position): median {bm:.1f} ms, p95 {bp:.1f} ms")
    for name, t in rows:
        med, p95 = summary(t)
        verdict = "meets" if p95 <= TARGET_MS else "MISSES"
        print(f"  {name:42} median {med:7.3f} ms  p95 {p95:7.3f} ms   target p95 <= {TARGET_MS} ms: {verdict}")


if __name__ == "__main__":
    main()
