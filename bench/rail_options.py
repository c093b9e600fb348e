"""Rail Options 1-4: ``reach`` (every territory a unit can rail to) and
``judge`` (one move, refused with an explanation) on a synthetic 30 x 30
territory grid (900 land territories, every one with a station and a
railroad marker, a forbidden crossing through the middle column).

No speed target is set; an editor preview recomputes ``reach`` when
a unit is selected, so it should stay well under ~50 ms.  Run:
``python -m bench.rail_options``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from engine.model import Faction, Ruleset, TerrainType, UnitType
from engine.rules.rail_options import RailOptionsAdjudicator
from engine.territory import Territory, TerritoryMap, TerritoryScenario, TerritoryUnit

SIZE = 30
RUNS = 30


def scenario() -> TerritoryScenario:
    m = TerritoryMap(SIZE, SIZE)
    for r in range(SIZE):
        for c in range(SIZE):
            feats = {"rail_station": {}, "railroad": {}}
            if c == SIZE // 2:
                feats["crossing"] = {"name": "Turkish Straits"}
            m.add(Territory(f"t{c}_{r}", f"T{c}-{r}", value=3, owner="ger", controller="ger", features=feats))
    for r in range(SIZE):
        for c in range(SIZE):
            if c + 1 < SIZE:
                m.add_border(f"t{c}_{r}", f"t{c + 1}_{r}")
            if r + 1 < SIZE:
                m.add_border(f"t{c}_{r}", f"t{c}_{r + 1}")
    rs = Ruleset("bench", [TerrainType("land", "Land", "L", "#cccccc")], [UnitType("infantry", "Infantry", 1)])
    return TerritoryScenario("bench", rs, [Faction("ger", "Germany", "#666666", "G", "Axis")], m,
                             [TerritoryUnit("u", "ger", "infantry", "t0_0")], turn=3,
                             state={"rail_options": {"income": {"ger": 7 * 60}}})


def measure(f: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    s = scenario()
    print(f"{len(s.map)} territories, {len(s.map.borders())} borders; {RUNS} runs each")
    for option in (1, 2, 3, 4):
        n = len(RailOptionsAdjudicator(s, option).reach("u").destinations)
        med, p95 = measure(lambda o=option: RailOptionsAdjudicator(s, o).reach("u"))
        print(f"  reach  option {option}: {n:4d} territories  median {med:7.2f} ms  p95 {p95:7.2f} ms")
    far = f"t{SIZE - 1}_{SIZE - 1}"
    for option in (1, 2, 4):
        v = RailOptionsAdjudicator(s, option).judge("u", far)
        med, p95 = measure(lambda o=option: RailOptionsAdjudicator(s, o).judge("u", far))
        print(f"  judge  option {option} to the far corner ({'allowed' if v.allowed else 'refused'}): "
              f"median {med:7.2f} ms  p95 {p95:7.2f} ms")


if __name__ == "__main__":
    main()
