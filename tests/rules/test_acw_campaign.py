"""The bundled ACW sample (maps/acw_short_campaign.json) against the rule
document (shared seed 003): orders of battle, deployment zones, cities,
the Union moving first, rail to the map edge, stacking."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.io import load_scenario
from engine.model import Scenario
from engine.rules.acw import over_limit, phasing, rail_to_edge, victory
from engine.rules.acw.reinforcement import city_cell
from engine.rules.acw.units import arm_of

MAP = Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json"

# The document's orders of battle: (unit, factors); "11th Ary" is written
# "Ary" in the document and means artillery.
UNION_OOB = [
    ("14th Inf", 4), ("13th Inf", 4), ("12th Inf", 4), ("3rd Inf", 4), ("6th Inf", 4),
    ("27th Inf", 3), ("29th Inf", 3), ("30th Inf", 3), ("3rd Cav", 2), ("4th Cav", 2),
    ("8th Arty", 2), ("10th Arty", 2), ("Army HQ", 1),
]
REBEL_OOB = [
    ("39th Inf", 4), ("40th Inf", 4), ("17th Inf", 4), ("34th Inf", 4), ("51st Inf", 3),
    ("52nd Inf", 3), ("37th Cav", 3), ("45th Cav", 3), ("11th Arty", 2), ("Army HQ", 1),
]
ARMS = {"Inf": "infantry", "Cav": "cavalry", "Arty": "artillery", "HQ": "hq"}
ZONES = {"union": ("A", "B", "C"), "rebel": ("E", "I", "H", "G")}


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(MAP)


def _oob(s: Scenario, side: str) -> list[tuple[str, int, str]]:
    return sorted((u.name or u.id, u.strength, arm_of(s, u)) for u in s.units if u.side == side)


@pytest.mark.parametrize("side,oob", [("union", UNION_OOB), ("rebel", REBEL_OOB)])
def test_order_of_battle_is_the_documents(scenario: Scenario, side: str, oob: list[tuple[str, int]]) -> None:
    expected = sorted((name, f, ARMS[name.split()[-1]]) for name, f in oob)
    assert _oob(scenario, side) == expected


def test_only_the_two_sides(scenario: Scenario) -> None:
    assert sorted(s.id for s in scenario.sides) == ["rebel", "union"]
    assert {u.side for u in scenario.units} == {"union", "rebel"}


@pytest.mark.parametrize("side", ["union", "rebel"])
def test_every_unit_deploys_within_one_hex_of_its_cities(scenario: Scenario, side: str) -> None:
    grid = scenario.map.grid
    cities = [city_cell(scenario, c) for c in ZONES[side]]
    for u in scenario.units:
        if u.side == side:
            d = min(grid.distance(u.at, c) for c in cities)
            assert d <= 1, f"{u.name} at {scenario.map.label(u.at)} is {d} hexes from {ZONES[side]}"


def test_cities_a_to_o_are_places_with_codes(scenario: Scenario) -> None:
    codes = sorted(p.code for p in scenario.map.places.values() if p.code)
    assert codes == list("ABCDEFGHIJKLMNO")


def test_no_hex_over_the_stacking_limit(scenario: Scenario) -> None:
    assert over_limit(scenario) == ()


def test_union_moves_first_and_nobody_has_won(scenario: Scenario) -> None:
    assert phasing(scenario) == "union"
    assert scenario.turn == 1
    assert not victory(scenario).game_over


def test_objectives_lie_behind_the_enemy_lines(scenario: Scenario) -> None:
    """M is in Rebel hands, A in Union hands, and each side's deployment
    cities are nearer its own objective to defend than the enemy's."""
    grid = scenario.map.grid
    m, a = city_cell(scenario, "M"), city_cell(scenario, "A")
    for code in ZONES["union"]:
        c = city_cell(scenario, code)
        assert grid.distance(c, a) < grid.distance(c, m)
    for code in ZONES["rebel"]:
        c = city_cell(scenario, code)
        assert grid.distance(c, m) < grid.distance(c, a)


def test_both_sides_have_rail_to_the_map_edge(scenario: Scenario) -> None:
    for side, city in (("union", "A"), ("rebel", "M")):
        assert city_cell(scenario, city) in rail_to_edge(scenario, side)


def test_rivers_have_rail_and_road_bridges(scenario: Scenario) -> None:
    kinds = set(scenario.map.bridges.values())
    assert {"rail", "road"} <= kinds
    assert len(scenario.map.rivers) > len(scenario.map.bridges)
    woods = [t.id for t in scenario.ruleset.terrain if t.id == "woods"]
    assert woods and (scenario.map.terrain == scenario.ruleset.terrain_index("woods")).any()


def test_crossing_costs_on_the_sample(scenario: Scenario) -> None:
    """45th Cav (5 MP) at 2009: over the North Anna's rail bridge for 1,
    across the unbridged river for 3."""
    from engine.rules.acw import reach

    r = reach(scenario, "CS-45C")
    P = scenario.map.parse_label
    assert r.cost(P("2210")) == 2
    assert [s.crossing for s in r.path(P("2210"))] == [None, "rail bridge"]
    assert r.cost(P("2208")) == 4
    assert [s.crossing for s in r.path(P("2208"))] == [None, "river"]
