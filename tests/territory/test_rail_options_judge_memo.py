"""One Rail Options judge asked about many territories answers exactly as a
fresh judge whose explaining searches are made for the asked territory alone
(the searches the judge made before it kept them per unit: issue 19).

The oracle below is the judge's explanation as it was written before: each
search lets only the asked territory be entered besides the ones the nation
may pass through.  Random small Voronoi maps (bench.railroads) with random
stations, railroads, damage, control, sea, closed borders and forbidden
crossings; every option; every unit asked about every territory."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.railroads import scenario
from engine.model import UnitType
from engine.rules.rail_options import RailOptionsAdjudicator
from engine.rules.rail_options.config import INF
from engine.rules.rail_options.results import RailVerdict
from engine.territory import TerritoryScenario, TerritoryUnit
from engine.territory.model import BorderKind, Territory

NATIONS = ("germany", "ussr", "italy")


class Oracle(RailOptionsAdjudicator):
    """The judge with its explanation searched afresh for each territory."""

    def _explain(self, u: TerritoryUnit, dest: Territory, max_cost: int,
                 no: Callable[..., RailVerdict]) -> RailVerdict:
        nation = u.side
        m = self.s.map
        ok = self.node_ok(nation)

        def line_ok(q: str) -> bool:
            return ok(q) or q == dest.id

        def crossings(node_ok: Callable[[str], bool], through: Callable[[str], bool] | None = None) -> list[str]:
            hit = self.search(u.at, INF, node_ok, ignore_crossings=True, through_ok=through).get(dest.id)
            assert hit is not None
            return self.crossing_names(hit[1])

        far = self.search(u.at, INF, line_ok, through_ok=ok).get(dest.id)
        if far is not None:
            cost, path = far
            if cost <= max_cost:
                return no(f"no move from {m.label(u.at)} to {dest.name} of at most {max_cost} spaces starts in or "
                          f"passes a rail station that {self.s.side(nation).name} may use", path, cost)
            return no(self.rule.too_far(u, dest, cost), path, cost)
        if self.search(u.at, INF, line_ok, ignore_crossings=True, through_ok=ok).get(dest.id) is not None:
            names = crossings(line_ok, ok)
            return no(f"every rail line from {m.label(u.at)} to {dest.name} crosses {' or '.join(names)}, which rail "
                      f"may never cross")
        landset = {tid for tid, t in m.territories.items() if not t.sea and not t.impassable}
        found = self.search(u.at, INF, lambda q: q in landset,
                            weight=lambda q: 1 if (ok(q) or q == dest.id) else 1000)
        hit = found.get(dest.id)
        if hit is None:
            if self.search(u.at, INF, lambda q: q in landset, ignore_crossings=True).get(dest.id) is None:
                return no(f"no land route joins {m.label(u.at)} and {dest.name}")
            names = crossings(lambda q: q in landset)
            return no(f"every land route from {m.label(u.at)} to {dest.name} crosses {' or '.join(names)}, which "
                      f"rail may never cross")
        _, path = hit
        broken = [x for x in path[1:-1] if not ok(x)]
        reasons = [self.rule.passage_reason(m.territories[x], nation) or "" for x in broken]
        return no(f"{self.rule.line_words} from {m.label(u.at)} to {dest.name} is broken at "
                  f"{', '.join(m.label(x) for x in broken)}: {'; '.join(reasons)}", path, len(path) - 1)


def random_map(seed: int) -> TerritoryScenario:
    rng = random.Random(seed)
    s = scenario(40, seed=seed)
    s.ruleset = dataclasses.replace(s.ruleset, unit_types=[UnitType("infantry", "Infantry", 2)])
    ids = sorted(s.map.territories)
    for tid in ids:
        t = s.map.territories[tid]
        t.controller = rng.choice(NATIONS)
        t.control_since = 0
        if rng.random() < 0.08:
            t.sea = True
            continue
        if rng.random() < 0.8:
            t.features["railroad"] = {"damage": rng.choice((0, 0, 0, 1))}
        if rng.random() < 0.5:
            t.features["rail_station"] = {"damage": rng.choice((0, 0, 1, 2))}
    borders = s.map.borders()
    for b in rng.sample(borders, 6):
        kind = rng.choice((BorderKind.CLOSED, BorderKind.STRAIT, BorderKind.RAIL_CROSSING))
        s.map.add_border(b.a, b.b, kind, rng.choice(("Suez Canal", "Sahara", None)))
    land = [tid for tid in ids if not s.map.territories[tid].sea]
    s.units = [TerritoryUnit(f"u{i}", rng.choice(NATIONS[:2]), "infantry", rng.choice(land)) for i in range(3)]
    s.state["rail_options"] = {"income": {"germany": 40, "ussr": 30}}
    return s


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), option=st.sampled_from((1, 2, 3, 4)))
def test_one_judge_answers_every_territory_as_a_fresh_search_would(seed: int, option: int) -> None:
    s = random_map(seed)
    judge = RailOptionsAdjudicator(s, option)
    for u in s.units:
        for tid in sorted(s.map.territories):
            assert judge.judge(u.id, tid) == Oracle(s, option).judge(u.id, tid), (u.id, u.at, tid)
