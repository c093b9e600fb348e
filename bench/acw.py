"""ACW reachability preview on a 500 x 500 hex map.

Target: the reachability preview in at most 0.5 ms (p95) per
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
them) is timed separately, and so is what follows a move: one unit of
either side moved to a hex its reach allows, then the moved unit's reach
on a board brought up to date from the last (:meth:`Board.with_units`)
against a board built afresh (target: 8 ms, p95 CPU, a frame's budget).
Run: ``python -m bench.acw``.
"""

from __future__ import annotations

import os
import random
import time

from bench.peers import acw_scenario, summary, timed
from engine.model import Unit
from engine.rules.acw import Board, check_move, reach

TARGET_MS = 0.5
MOVE_TARGET_MS = 8.0
RUNS = 5000


def after_moves(moves: int = 200) -> tuple[list[int], list[int], list[int], list[int]]:
    """Wall and CPU nanoseconds of the moved unit's reach after a move of
    one unit (ours or the enemy's, alternately), on a board updated from
    the last one, then on a new board: (updated wall, updated CPU, new
    wall, new CPU)."""
    import dataclasses

    s = acw_scenario()
    rng = random.Random(1863)
    board = Board(s, "US")
    reach(s, s.units[-1], board)
    out: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for k in range(moves):
        side = "US" if k % 2 else "CS"
        i = rng.choice([j for j, u in enumerate(s.units) if u.side == side])
        u = s.units[i]
        hexes = reach(s, u, Board(s, side) if side == "CS" else board).hexes()
        if not hexes:
            continue
        s.units[i] = dataclasses.replace(u, at=rng.choice(hexes).cell)
        mover = s.units[i] if side == "US" else next(x for x in s.units if x.side == "US")
        c0, t0 = time.process_time_ns(), time.perf_counter_ns()
        board = board.with_units(s)
        reach(s, mover, board).hexes()
        out[0].append(time.perf_counter_ns() - t0)
        out[1].append(time.process_time_ns() - c0)
        c0, t0 = time.process_time_ns(), time.perf_counter_ns()
        fresh = Board(s, "US")
        reach(s, mover, fresh).hexes()
        out[2].append(time.perf_counter_ns() - t0)
        out[3].append(time.process_time_ns() - c0)
    return out


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
    for name, (wall, cpu) in rows:
        (med, p95), (wm, wp) = summary(cpu), summary(wall)
        verdict = "meets" if p95 <= TARGET_MS else "MISSES"
        print(f"  {name:42} CPU median {med:7.3f} ms  p95 {p95:7.3f} ms (wall {wm:7.3f} / {wp:7.3f})   "
              f"target CPU p95 <= {TARGET_MS} ms: {verdict}")
    uw, uc, nw, nc = after_moves()
    print(f"  after a unit moves, the moved unit's reach ({len(uc)} moves; load average {os.getloadavg()[0]:.2f}):")
    for name, w, c, target in (("board updated (with_units) + reach", uw, uc, MOVE_TARGET_MS),
                               ("board built afresh + reach", nw, nc, None)):
        (wm, wp), (cm, cp) = summary(w), summary(c)
        verdict = "" if target is None else f"   target CPU p95 <= {target:g} ms: {'meets' if cp <= target else 'MISSES'}"
        print(f"    {name:40} CPU median {cm:7.3f} p95 {cp:7.3f} ms; wall median {wm:7.3f} p95 {wp:7.3f} ms{verdict}")


if __name__ == "__main__":
    main()
