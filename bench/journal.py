"""Loading a long game: a journal of 1,000 turns on the ACW sample map
(``maps/acw_short_campaign.json``) is read, its hash chain verified and the
game replayed from its turn-0 state to its last entry (``engine/turns``,
``docs/turns.md``).

Target (issue 15): load and replay to the last entry in at most 1 s.  The
game is built first (each side moves a few units to a neighbouring hex not
next to the enemy each turn, refused orders included, and ends its turn), saved, then loaded
``RUNS`` times: CPU time (``time.process_time``) and wall time, median and
p95.  Run: ``python -m bench.journal [TURNS]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from engine.io import dumps_any, loads_any
from engine.model import ModelError, Scenario
from engine.turns.game import Game

TARGET_S = 1.0
TURNS = 1000
RUNS = 7
ORDERS_PER_SIDE = 2
SAMPLE = Path(__file__).resolve().parent.parent / "maps" / "acw_short_campaign.json"


def build(turns: int = TURNS, seed: int = 15) -> str:
    """The text of the sample scenario after ``turns`` turns of play."""
    s = loads_any(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE))
    assert isinstance(s, Scenario)
    # the campaign ends after 12 turns (docs/rules/acw.md, "Turns and victory"): a long game needs
    # the Rebels' holding time set beyond it
    s.ruleset.options.setdefault("acw", {})["rebel_holds_turns"] = turns + 1
    game = Game(s, "acw")
    rng = random.Random(seed)
    while game.turn.turn <= turns:
        side = game.turn.side
        units = [u for u in s.units if u.side == side]
        enemy = {e.at for e in s.units if e.side != side}
        for u in rng.sample(units, min(ORDERS_PER_SIDE, len(units))):
            # moves that do not enter a hex next to the enemy (one that does owes a combat this turn)
            near = [c for c in s.map.grid.neighbours(u.at) if s.map.grid.contains(c)
                    and not any(n in enemy for n in s.map.grid.neighbours(c))]
            if not near:
                continue
            try:
                game.give({"unit": u.id, "to": s.map.label(rng.choice(near))})
            except ModelError:
                continue
        game.end_turn()
    return dumps_any(s)


def load(text: str) -> Game:
    """Read the file's text and replay its game (what opening it does)."""
    g = Game(loads_any(text, "bench"))
    g.at(len(g.journal))
    return g


def main() -> int:
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else TURNS
    t0 = time.perf_counter()
    text = build(turns)
    g = load(text)
    n = len(g.journal)
    kinds: dict[str, int] = {}
    for e in g.journal:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    print(f"built {turns} turns in {time.perf_counter() - t0:.1f} s: {n} entries "
          f"({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))}), file {len(text) / 1e6:.1f} MB")
    cpu, wall = [], []
    for _ in range(RUNS):
        c0, w0 = time.process_time(), time.perf_counter()
        load(text)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)

    def p95(xs: list[float]) -> float:
        return sorted(xs)[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]

    print(f"load + replay to entry {n}: CPU median {statistics.median(cpu):.3f} s, p95 {p95(cpu):.3f} s; "
          f"wall median {statistics.median(wall):.3f} s, p95 {p95(wall):.3f} s (target {TARGET_S:.1f} s)")
    ok = statistics.median(cpu) <= TARGET_S
    print("ok" if ok else "MISSED the target")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
