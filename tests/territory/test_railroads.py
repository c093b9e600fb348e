"""Module I: Railroads — capacity, control, sharing, borders, routing and
bottlenecks through the engine API."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.io import load_any
from engine.model import Faction, Ruleset, TerrainType
from engine.rules.railroads import RailOrder, RailOrderError, RailRules, plan, preview
from engine.territory import BorderKind, Territory, TerritoryMap, TerritoryScenario, TerritoryUnit

ROOT = Path(__file__).resolve().parents[2]
EUROPE = ROOT / "maps" / "railroad_module_europe.json"
ORDERS = json.loads((ROOT / "tests" / "territory" / "europe_orders.json").read_text())["orders"]


def europe() -> TerritoryScenario:
    s = load_any(EUROPE)
    assert isinstance(s, TerritoryScenario)
    return s


def routes_by_unit(s: TerritoryScenario, raw: list[dict]) -> tuple[dict[str, list[tuple[str, ...]]], object]:  # type: ignore[type-arg]
    r = RailRules(s)
    orders = r.read_orders(raw)
    p = plan(s, orders, r)
    out = {orders[rt.order].unit or str(rt.order): [path for path, _ in rt.paths] for rt in p.routes}
    return out, p


def test_document_example_end_to_end() -> None:
    s = europe()
    routes, p = routes_by_unit(s, ORDERS)
    assert p.feasible and p.method == "milp"  # type: ignore[attr-defined]
    assert routes["ger_inf_dk"] == [("denmark", "prussia", "belarus")]
    for u in ("ger_inf_bh", "ger_art_fr"):
        assert routes[u][0][-3:] == ("western_poland", "eastern_poland", "belarus")
    assert routes["ita_inf_gr"] == [("greece", "bulgaria", "romania")]
    usage = {u.territory: (u.used, u.capacity) for u in p.usage}  # type: ignore[attr-defined]
    assert usage["austria"] == (1, 4)  # "leaves 3 railroad movements unused"
    assert usage["denmark"] == (1, 2) and usage["belgium_holland"] == (1, 2)  # "1 left in each"
    assert usage["france"] == (3, 6) and usage["eastern_poland"] == (2, 2)
    assert usage["romania"][1] == 4 and usage["romania"][0] <= 4
    assert set(p.bottleneck) == {"western_poland", "hungary", "yugoslavia"}  # type: ignore[attr-defined]
    assert "Western Poland" in p.reason and "6 of 6" in p.reason  # type: ignore[attr-defined]


def test_example_capacities_match_the_text() -> None:
    s = europe()
    r = RailRules(s)
    want = {"France": 6, "Germany": 20, "Italy": 13, "Austria": 4, "Denmark": 2, "Belgium/Holland": 2,
            "Western Poland": 2, "Hungary": 2, "Yugoslavia": 2, "Eastern Poland": 2, "Romania": 4, "Greece": 3,
            "Bulgaria": 1, "Belarus": 3, "Ukraine": 4}
    assert {n: r.capacity(s.territory(n)) for n in want} == want


def test_capacity_is_halved_rounding_down_when_occupied() -> None:
    s = europe()
    france = s.territory("France")
    assert france.occupied and RailRules(s).capacity(france) == 6  # 13 // 2
    s.set_control("france", "france", since=0)
    assert not s.territory("France").occupied and RailRules(s).capacity(france) == 13
    s.ruleset.options["railroads"]["occupied_divisor"] = 3
    assert RailRules(s).capacity(s.territory("Belarus")) == 2  # 7 // 3


def test_control_that_began_this_turn_blocks() -> None:
    s = europe()
    s.set_control("belarus", "germany", since=s.turn)  # taken this turn
    _, p = routes_by_unit(s, [{"unit": "ger_inf_dk", "to": "Belarus"}])
    assert not p.feasible  # type: ignore[attr-defined]
    assert "only since turn 3, not since the start of Germany's turn" in p.refused[0].reason  # type: ignore[attr-defined]
    # a path territory taken this turn blocks too
    s = europe()
    s.set_control("prussia", "germany", since=s.turn)
    _, p = routes_by_unit(s, [{"unit": "ger_inf_dk", "to": "Belarus"}])
    assert not p.feasible and "Prussia has been held" in p.refused[0].reason  # type: ignore[attr-defined]


def test_control_taken_earlier_this_round_in_an_earlier_turn_counts() -> None:
    s = europe()
    # Germany took Romania this round, during its own turn; Italy moves later in the round
    s.set_control("romania", "germany", since=s.turn, since_side="germany")
    r = RailRules(s)
    assert r.why_unusable(s.territory("Romania"), "italy") is None
    assert "not since the start of Germany's turn" in (r.why_unusable(s.territory("Romania"), "germany") or "")
    s.ruleset.options["railroads"]["same_round_before_turn"] = False
    assert RailRules(s).why_unusable(s.territory("Romania"), "italy") is not None


def test_sharing_partner_uses_allied_rail_but_japan_does_not() -> None:
    s = europe()
    routes, p = routes_by_unit(s, [{"unit": "ita_art_it", "to": "Ukraine"}])
    assert p.feasible and routes["ita_art_it"][0][1] in ("yugoslavia", "austria")  # type: ignore[attr-defined]
    assert len(routes["ita_art_it"][0]) == 4  # Italy, a German-held territory, a second, Ukraine
    s.units.append(TerritoryUnit("jap_inf", "japan", "infantry", "germany"))
    _, p = routes_by_unit(s, [{"unit": "jap_inf", "to": "France"}])
    assert not p.feasible  # type: ignore[attr-defined]
    assert "held by Germany, not by Japan or a power sharing its railroads" in p.refused[0].reason  # type: ignore[attr-defined]


def test_a_unit_rails_or_moves_never_both_and_rails_once() -> None:
    s = europe()
    s.unit("ger_inf_at").props["moved"] = True
    _, p = routes_by_unit(s, [{"unit": "ger_inf_at", "to": "Ukraine"}, {"unit": "ger_inf_bh", "to": "Germany"},
                              {"unit": "ger_inf_bh", "to": "France"}])
    reasons = [f.reason for f in p.refused]  # type: ignore[attr-defined]
    assert "either rails or moves" in reasons[0] and "already has a rail order" in reasons[1]


def test_bad_orders_get_clear_messages() -> None:
    r = RailRules(europe())
    with pytest.raises(RailOrderError, match="order 1: no unit 'nobody'"):
        r.read_orders([{"unit": "nobody", "to": "Belarus"}])
    with pytest.raises(RailOrderError, match="order 2: no territory 'Atlantis'"):
        r.read_orders([{"unit": "ger_inf_dk", "to": "Belarus"},
                       {"nation": "germany", "from": "Atlantis", "to": "France"}])
    with pytest.raises(RailOrderError, match="count must be a whole number"):
        r.read_orders([{"nation": "germany", "from": "Germany", "to": "France", "count": 0}])


def test_destination_overload_names_the_destination() -> None:
    s = europe()
    raw = [{"nation": "germany", "from": "Germany", "to": "Belarus", "count": 4}]
    for p in (plan(s, RailRules(s).read_orders(raw)), preview(s, RailRules(s).read_orders(raw))):
        assert not p.feasible and p.bottleneck == ("belarus",)
        assert "Belarus can carry 3 units, but 4 units must pass through it" in p.reason


def test_infeasible_plan_names_the_bottleneck() -> None:
    s = europe()
    s.unit("ger_inf_dk").at = "germany"  # no way round through Prussia now
    _, p = routes_by_unit(s, ORDERS)
    assert not p.feasible  # type: ignore[attr-defined]
    assert set(p.bottleneck) == {"western_poland", "hungary", "yugoslavia"}  # type: ignore[attr-defined]
    assert "can carry 6 units between them (2 + 2 + 2), but 7 units must pass through them" in p.reason  # type: ignore[attr-defined]
    assert sum(rt.unrouted for rt in p.routes) == 1  # type: ignore[attr-defined]


# -- borders: closed borders and the three sea crossings ----------------------

def strip_map(kinds: dict[tuple[str, str], BorderKind]) -> TerritoryScenario:
    """Land territories a..e in a row (borders as given) and a sea zone
    touching all of them; all Red's."""
    m = TerritoryMap(100, 10)
    for t in "abcde":
        m.add(Territory(t, t.upper(), value=3, owner="red", controller="red"))
    m.add(Territory("sea", "Sea", sea=True))
    for t in "abcde":
        m.add_border(t, "sea")
    for (a, b), k in kinds.items():
        m.add_border(a, b, k, f"{a}-{b}")
    sides = [Faction("red", "Red", "#ff0000", "R", "Axis"), Faction("blue", "Blue", "#0000ff", "B", "Allies")]
    rs = Ruleset("t", [TerrainType("land", "Land", "L", "#00ff00")])
    return TerritoryScenario("strip", rs, sides, m, [], turn=2)


def test_closed_border_blocks_rail() -> None:
    s = strip_map({("a", "b"): BorderKind.ORDINARY, ("b", "c"): BorderKind.CLOSED})
    p = plan(s, [RailOrder("red", "a", "c")])
    assert not p.feasible and "borders closed to rail: B–C (b-c)" in p.refused[0].reason
    assert plan(s, [RailOrder("red", "a", "b")]).feasible


@pytest.mark.parametrize("name", ["Jordan–Egypt", "Italy–Sicily", "Panama Canal"])
def test_each_named_sea_crossing_carries_rail(name: str) -> None:
    s = strip_map({("a", "b"): BorderKind.RAIL_CROSSING})
    s.map.add_border("a", "b", BorderKind.RAIL_CROSSING, name)
    p = plan(s, [RailOrder("red", "a", "b")])
    assert p.feasible and p.routes[0].paths == ((("a", "b"), 1),)


def test_rail_never_crosses_other_water() -> None:
    s = strip_map({("a", "b"): BorderKind.STRAIT})  # land units may cross a strait; rail may not
    p = plan(s, [RailOrder("red", "a", "b")])
    assert not p.feasible and "borders closed to rail" in p.refused[0].reason
    s = strip_map({})  # only the sea joins them
    p = plan(s, [RailOrder("red", "a", "c")])
    assert not p.feasible and "rail does not cross the sea there" in p.refused[0].reason


# -- the quick check is a necessary condition of the exact one --------------

def random_case(seed: int) -> tuple[TerritoryScenario, list[RailOrder]]:
    rng = random.Random(seed)
    n = 12
    m = TerritoryMap(100, 100)
    for i in range(n):
        m.add(Territory(f"t{i}", f"T{i}", value=rng.randint(1, 4), owner="red",
                        controller=rng.choice(["red", "red", "red", "green"])))
    for i in range(1, n):
        m.add_border(f"t{i}", f"t{rng.randrange(i)}")
    for _ in range(n // 2):
        a, b = rng.sample(range(n), 2)
        m.add_border(f"t{a}", f"t{b}")
    sides = [Faction("red", "Red", "#ff0000", "R", "Axis"), Faction("green", "Green", "#00ff00", "G", "Axis")]
    rs = Ruleset("t", [TerrainType("land", "Land", "L", "#00ff00")],
                 options={"railroads": {"sharing": [["red"], ["green"]]}})
    s = TerritoryScenario("random", rs, sides, m, [], turn=2)
    orders = []
    for _ in range(rng.randint(1, 5)):
        a, b = rng.sample(range(n), 2)
        nation = rng.choice(["red", "green"])
        orders.append(RailOrder(nation, f"t{a}", f"t{b}", rng.randint(1, 3)))
    return s, orders


def test_preview_never_refuses_what_the_exact_routing_accepts() -> None:
    agree = 0
    for seed in range(120):
        s, orders = random_case(seed)
        exact = plan(s, orders)
        quick = preview(s, orders)
        if exact.feasible:
            assert quick.feasible, (seed, quick.reason)
        if not quick.feasible:
            assert not exact.feasible, seed
        agree += exact.feasible == quick.feasible
        # every route respects every capacity and starts/ends where ordered
        r = RailRules(s)
        used: dict[str, int] = {}
        for rt in exact.routes:
            o = orders[rt.order]
            for path, k in rt.paths:
                assert path[0] == o.start and path[-1] == o.to
                assert all(s.map.graph.has_edge(a, b) for a, b in zip(path, path[1:], strict=False))
                for t in path:
                    used[t] = used.get(t, 0) + k
        assert all(u <= r.capacity(s.map.territories[t]) for t, u in used.items())
    assert agree >= 100  # the quick check is usually right, too
