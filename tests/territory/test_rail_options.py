"""Axis & Allies "Rail Options 1–4" (shared seed 001): each option's rules one
by one on small maps built in code, and the same move judged under each
option on the sample ``maps/aa_rail_options.json``.

Longer than 600 lines on purpose: the four options' rules side by side, in
the document's order, so a difference between options reads as one diff."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest

from engine.io import load_any
from engine.model import Faction, Ruleset, TerrainType, UnitType
from engine.rules.rail_options import (
    RailOptionsAdjudicator,
    RailOptionsError,
    config_from_dict,
    judge,
    reach,
    record_move,
    undo_move,
)
from engine.territory import BorderKind, Territory, TerritoryMap, TerritoryScenario, TerritoryUnit

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "aa_rail_options.json"

SIDES = [Faction("ger", "Germany", "#666666", "G", "Axis"), Faction("ita", "Italy", "#8b6f47", "I", "Axis"),
         Faction("sov", "Soviet Union", "#a52a2a", "R", "Allies")]


def build(terrs: list[tuple[str, dict[str, Any]]], borders: list[tuple[str, str]] | None = None,
          units: list[TerritoryUnit] | None = None, options: dict[str, Any] | None = None, turn: int = 5,
          state: dict[str, Any] | None = None) -> TerritoryScenario:
    """A map of the given territories (id, attributes: value, controller,
    control_since, features, sea; the feature keys ``rail_station``,
    ``railroad`` and ``crossing`` may also stand among the attributes).
    Without ``borders`` the territories form a line in the order given."""
    m = TerritoryMap(100, 100)
    for tid, a in terrs:
        a = dict(a)
        a["features"] = {**a.get("features", {}), **{k: a.pop(k) for k in FEATURES if k in a}}
        m.add(Territory(tid, tid.title(), sea=a.get("sea", False), value=a.get("value", 6),
                        owner=a.get("owner", a.get("controller", "ger")), controller=a.get("controller", "ger"),
                        control_since=a.get("control_since", 0),
                        features=copy.deepcopy(a.get("features", {}))))
    ids = [t for t, _ in terrs]
    for a, b in borders if borders is not None else list(itertools.pairwise(ids)):
        m.add_border(a, b)
    rs = Ruleset("test", [TerrainType("land", "Land", "L", "#00ff00")],
                 [UnitType("infantry", "Infantry", 1), UnitType("armor", "Armor", 2),
                  UnitType("fighter", "Fighter", 4, {"domain": "air"})],
                 {"rail_options": dict(options or {})})
    return TerritoryScenario("t", rs, list(SIDES), m, units or [TerritoryUnit("u", "ger", "infantry", ids[0])],
                             turn=turn, state={"rail_options": state} if state is not None else {})


FEATURES = ("rail_station", "railroad", "crossing")
ST: dict[str, Any] = {"rail_station": {}}
RR: dict[str, Any] = {"railroad": {}}
BOTH: dict[str, Any] = {"rail_station": {}, "railroad": {}}


def station_line(n: int, damage: int = 0, **kw: Any) -> TerritoryScenario:
    """t0 (station, ``damage``) — t1 … t(n-1) (railroad) with a station in
    every territory: t_k is k spaces from t0."""
    terrs = [("t0", {"features": {"rail_station": {"damage": damage}, "railroad": {}}})]
    terrs += [(f"t{i}", {"features": dict(BOTH)}) for i in range(1, n)]
    return build(terrs, **kw)


def reachable(s: TerritoryScenario, unit: str = "u", option: int | None = None, **kw: Any) -> dict[str, int]:
    r = reach(s, unit, option, **kw)
    return {d.territory: d.cost for d in r.destinations}


# ---------------------------------------------------------------------------
# Option 1: range and damage


@pytest.mark.parametrize(("damage", "farthest"), [(0, 4), (1, 3), (2, 2)])
def test_option1_range_is_four_less_one_per_damage_marker(damage: int, farthest: int) -> None:
    s = station_line(7, damage)
    assert max(reachable(s, option=1).values()) == farthest
    assert judge(s, "u", f"t{farthest}", 1).allowed
    v = judge(s, "u", f"t{farthest + 1}", 1)
    assert not v.allowed and f"at most {farthest}" in v.reason
    assert v.path == tuple(f"t{i}" for i in range(farthest + 2))  # the line that was too long
    if damage:
        assert f"4 less {damage} damage marker" in v.reason


def test_option1_three_damage_markers_make_a_station_inoperable() -> None:
    s = station_line(3, damage=3)
    r = reach(s, "u", 1)
    assert r.destinations == () and "3 damage markers and is inoperable" in r.reason
    # an inoperable station is no destination either
    s = station_line(3)
    s.map.territories["t2"].features["rail_station"]["damage"] = 4
    v = judge(s, "u", "t2", 1)
    assert not v.allowed and "inoperable" in v.reason


def test_option1_range_counted_as_territories_is_the_named_alternative() -> None:
    s = station_line(7, options={"range_counts": "territories"})
    assert max(reachable(s, option=1).values()) == 3
    assert "5 territories, the start included" in judge(s, "u", "t4", 1).reason


def test_option1_needs_railroad_between_stations_not_in_them() -> None:
    s = build([("a", dict(ST)), ("b", {}), ("c", dict(ST))])
    v = judge(s, "u", "c", 1)
    assert not v.allowed and "broken at B" in v.reason and "B has no railroad marker" in v.reason
    s.map.territories["b"].features["railroad"] = {}
    assert judge(s, "u", "c", 1).allowed
    s = build([("a", dict(ST)), ("b", dict(RR)), ("c", dict(ST))], options={"stations_need_railroad": True})
    assert "A has no railroad marker" in judge(s, "u", "c", 1).reason
    s.map.territories["a"].features["railroad"] = {}
    assert "C has no railroad marker" in judge(s, "u", "c", 1).reason


def test_option1_destination_must_be_a_station() -> None:
    s = build([("a", dict(BOTH)), ("b", dict(RR)), ("c", dict(RR))])
    assert reachable(s, option=1) == {}
    assert "C has no rail station" in judge(s, "u", "c", 1).reason


# ---------------------------------------------------------------------------
# Option 1: nation and station caps


def test_option1_nation_capacity_is_the_stations_it_controls() -> None:
    units = [TerritoryUnit(f"u{i}", "ger", "infantry", "a") for i in range(4)]
    s = build([("a", {"value": 6, "features": dict(BOTH)}), ("b", {"features": dict(BOTH)}),
               ("c", {"features": dict(BOTH)})], units=units)
    rules = RailOptionsAdjudicator(s, 1)
    load = rules.nation_load("ger")
    assert load is not None and (load.limit, load.used) == (3, 0)
    for i in range(3):
        record_move(s, judge(s, f"u{i}", "b", 1))
    v = judge(s, "u3", "b", 1)
    assert not v.allowed and "used all 3 of its rail capacity units" in v.reason
    undo_move(s, "u2")
    assert judge(s, "u3", "b", 1).allowed


def test_option1_nation_capacity_is_at_most_six() -> None:
    terrs = [(f"t{i}", {"features": dict(BOTH)}) for i in range(9)]
    s = build(terrs)
    load = RailOptionsAdjudicator(s, 1).nation_load("ger")
    assert load is not None and load.limit == 6 and "9 stations controlled" in load.basis
    # a station bought this turn is not on the board yet
    s.map.territories["t8"].features["rail_station"]["purchased"] = 5
    s.map.territories["t7"].features["rail_station"]["purchased"] = 5
    s.map.territories["t6"].features["rail_station"]["purchased"] = 5
    s.map.territories["t5"].features["rail_station"]["purchased"] = 5
    load = RailOptionsAdjudicator(s, 1).nation_load("ger")
    assert load is not None and load.limit == 5


def test_option1_station_passes_at_most_its_ipc_value_capped_at_six() -> None:
    units = [TerritoryUnit(f"u{i}", "ger", "infantry", "a") for i in range(8)]
    s = build([("a", {"value": 2, "features": dict(BOTH)})] + [(f"s{i}", {"features": dict(BOTH)}) for i in range(6)],
              units=units)
    record_move(s, judge(s, "u0", "s0", 1))
    record_move(s, judge(s, "u1", "s0", 1))
    v = judge(s, "u2", "s0", 1)
    assert not v.allowed and "passed all 2 units" in v.reason
    s = build([("a", {"value": 9, "features": dict(BOTH)})] + [(f"s{i}", {"features": dict(BOTH)}) for i in range(6)],
              units=units)
    load = RailOptionsAdjudicator(s, 1).station_load("a")
    assert load is not None and load.limit == 6


def test_option1_station_use_both_charges_the_destination_too() -> None:
    units = [TerritoryUnit("u0", "ger", "infantry", "a"), TerritoryUnit("u1", "ger", "infantry", "c")]
    s = build([("a", {"features": dict(BOTH)}), ("b", {"value": 1, "features": dict(BOTH)}),
               ("c", {"features": dict(BOTH)})], units=units, options={"station_use": "both"})
    record_move(s, judge(s, "u0", "b", 1))
    v = judge(s, "u1", "b", 1)
    assert not v.allowed and "passed all 1 units" in v.reason
    s.ruleset.options["rail_options"]["station_use"] = "start"
    assert judge(s, "u1", "b", 1).allowed


# ---------------------------------------------------------------------------
# unmoved units, ground units, the phase


@pytest.mark.parametrize("option", [1, 2, 3, 4])
def test_only_unmoved_ground_units_rail(option: int) -> None:
    units = [TerritoryUnit("moved", "ger", "infantry", "a", props={"moved": True}),
             TerritoryUnit("ftr", "ger", "fighter", "a"), TerritoryUnit("ok", "ger", "infantry", "a")]
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], units=units)
    assert "has already moved this turn" in judge(s, "moved", "b", option).reason
    assert "not a ground unit" in judge(s, "ftr", "b", option).reason
    v = judge(s, "ok", "b", option)
    assert v.allowed
    record_move(s, v)
    s.unit("ok").at = "a"  # even back at the start it may not rail twice
    assert "already used rail this turn" in judge(s, "ok", "b", option).reason


def test_rail_needs_the_combat_move_switch_in_the_combat_phase() -> None:
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))])
    v = judge(s, "u", "b", 1, phase="combat")
    assert not v.allowed and "non-combat" in v.reason
    s.ruleset.options["rail_options"]["combat_move"] = True
    assert judge(s, "u", "b", 1, phase="combat").allowed


def test_units_must_start_at_a_station_under_options_1_to_3() -> None:
    s = build([("a", dict(RR)), ("b", dict(BOTH))])
    for option in (1, 2, 3):
        v = judge(s, "u", "b", option)
        assert not v.allowed and "not at a usable rail station" in v.reason
    assert judge(s, "u", "b", 4).allowed


# ---------------------------------------------------------------------------
# purchase turn and capture delays


def test_stations_and_railroad_bought_this_turn_cannot_be_used() -> None:
    s = build([("a", {"features": {"rail_station": {"purchased": 5}, "railroad": {}}}), ("b", dict(BOTH))])
    v = judge(s, "u", "b", 1)
    assert not v.allowed and "bought on turn 5 and cannot be used before turn 6" in v.reason
    s.turn = 6
    assert judge(s, "u", "b", 1).allowed
    s = build([("a", dict(BOTH)), ("b", {"features": {"railroad": {"purchased": 5}}}), ("c", dict(BOTH))])
    for option in (1, 2, 4):
        v = judge(s, "u", "c", option)
        assert not v.allowed and "broken at B" in v.reason and "bought on turn 5" in v.reason


@pytest.mark.parametrize("option", [1, 2, 3])
def test_a_captured_station_must_be_held_one_full_turn(option: int) -> None:
    s = build([("a", {"control_since": 5, "owner": "sov", "features": dict(BOTH)}), ("b", dict(BOTH))])
    v = judge(s, "u", "b", option)
    assert not v.allowed and "captured on turn 5 and must be held one full turn: usable from turn 6" in v.reason
    s.map.territories["a"].control_since = 4
    assert judge(s, "u", "b", option).allowed


def test_captured_railroad_is_removed_under_option1_and_held_under_2_and_4() -> None:
    s = build([("a", dict(BOTH)), ("b", {"control_since": 2, "owner": "sov", "features": dict(RR)}),
               ("c", dict(BOTH))])
    v = judge(s, "u", "c", 1)
    assert not v.allowed and "removed from play" in v.reason
    assert judge(s, "u", "c", 2).allowed and judge(s, "u", "c", 4).allowed
    s.map.territories["b"].control_since = 5
    for option in (2, 4):
        v = judge(s, "u", "c", option)
        assert not v.allowed and "captured on turn 5" in v.reason


def test_capture_is_derived_from_control_and_purchase_unless_stated() -> None:
    s = build([("a", dict(BOTH)), ("b", {"control_since": 3, "owner": "sov",
                                        "features": {"railroad": {"purchased": 4}}}), ("c", dict(BOTH))])
    rules = RailOptionsAdjudicator(s, 1)
    b = s.map.territories["b"]
    assert rules.captured_on(b, b.features["railroad"]) is None  # built by Germany after taking it
    assert judge(s, "u", "c", 1).allowed
    b.features["railroad"] = {}
    assert RailOptionsAdjudicator(s, 1).captured_on(b, b.features["railroad"]) == 3
    b.features["railroad"] = {"captured": False}
    assert judge(s, "u", "c", 1).allowed
    b.features["railroad"] = {"captured": 5}
    assert "captured on turn 5" in judge(s, "u", "c", 4).reason
    s.ruleset.options["rail_options"]["capture_wait"] = 0
    assert judge(s, "u", "c", 4).allowed


# ---------------------------------------------------------------------------
# allies and enemies


def test_option1_shares_allied_rail_and_options_2_and_4_do_not() -> None:
    s = build([("a", dict(BOTH)), ("b", {"controller": "ita", "features": dict(RR)}),
               ("c", {"controller": "ita", "features": dict(BOTH)})], state={"income": {"ger": 29}})
    assert judge(s, "u", "c", 1).allowed
    for option in (2, 4):
        v = judge(s, "u", "c", option)
        assert not v.allowed and "uses only rail it controls itself" in v.reason
    s.ruleset.options["rail_options"]["allies_share"] = [1, 2, 4]
    assert judge(s, "u", "c", 2).allowed and judge(s, "u", "c", 4).allowed


def test_option3_uses_own_stations_but_moves_through_allied_land() -> None:
    s = build([("a", {"controller": "ita", "features": dict(ST)}), ("b", {"controller": "ita"})])
    v = judge(s, "u", "b", 3)
    assert not v.allowed and "uses only rail it controls itself" in v.reason
    s = build([("a", dict(ST)), ("b", {"controller": "ita"}), ("c", {"controller": "ita"})])
    assert reachable(s, option=3) == {"b": 1, "c": 2}


@pytest.mark.parametrize("option", [1, 2, 3, 4])
def test_enemy_rail_is_never_used(option: int) -> None:
    s = build([("a", dict(BOTH)), ("b", {"controller": "sov", "features": dict(BOTH)}), ("c", dict(BOTH))])
    assert "c" not in reachable(s, option=option)
    v = judge(s, "u", "c", option)
    assert not v.allowed and "Soviet Union" in v.reason
    v = judge(s, "u", "b", option)
    assert not v.allowed


# ---------------------------------------------------------------------------
# forbidden crossings


@pytest.mark.parametrize("option", [1, 2, 3, 4])
@pytest.mark.parametrize("name", ["Suez Canal", "Panama Canal", "Turkish Straits"])
def test_rail_never_crosses_a_border_named_as_a_forbidden_crossing(option: int, name: str) -> None:
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], borders=[])
    s.map.add_border("a", "b", BorderKind.RAIL_CROSSING, name)
    v = judge(s, "u", "b", option)
    assert not v.allowed and f"crosses the {name}, which rail may never cross" in v.reason
    s.ruleset.options["rail_options"]["forbidden_crossings"] = []
    assert judge(s, "u", "b", option).allowed


def test_a_crossing_may_be_named_in_border_props_and_closed_borders_block() -> None:
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], borders=[])
    s.map.add_border("a", "b", props={"crossing": "Suez Canal"})
    assert "the Suez Canal" in judge(s, "u", "b", 1).reason
    s.map.add_border("a", "b", BorderKind.CLOSED, "Sahara")
    assert "crosses the Sahara" in judge(s, "u", "b", 1).reason
    s.map.add_border("a", "b", BorderKind.STRAIT)
    assert not judge(s, "u", "b", 1).allowed


def test_a_crossing_through_a_territory_forbids_passing_through_it() -> None:
    # greece - turkey - syria, plus caucasus beside syria on the Asian side
    terrs = [("greece", dict(BOTH)), ("turkey", {"features": {**BOTH, "crossing": {"name": "Turkish Straits"}}}),
             ("syria", dict(BOTH)), ("caucasus", dict(BOTH))]
    borders = [("greece", "turkey"), ("turkey", "syria"), ("turkey", "caucasus")]
    units = [TerritoryUnit("u", "ger", "infantry", "greece"), TerritoryUnit("v", "ger", "infantry", "syria")]
    s = build(terrs, borders, units)
    for option in (1, 2, 4):
        assert judge(s, "u", "turkey", option).allowed  # ending in Turkey crosses nothing
        v = judge(s, "u", "syria", option)
        assert not v.allowed and "the Turkish Straits (through Turkey)" in v.reason
        assert judge(s, "v", "turkey", option).allowed
        # no sides given: any passage through Turkey counts as crossing
        assert not judge(s, "v", "caucasus", option).allowed
    s.map.territories["turkey"].features["crossing"]["sides"] = [["greece"], ["syria", "caucasus"]]
    assert judge(s, "v", "caucasus", 2).allowed
    assert not judge(s, "u", "syria", 2).allowed
    assert "turkey" in reachable(s, option=3) and "syria" not in reachable(s, option=3)


def test_a_tripleA_canal_on_a_sea_zone_marks_the_land_it_passes() -> None:
    terrs = [("mexico", dict(BOTH)), ("central", dict(BOTH)), ("colombia", dict(BOTH)),
             ("sea", {"sea": True, "controller": None, "features": {"canal": {"name": "Panama Canal",
                                                                              "land": ["central"]}}}),
             ("egypt", dict(BOTH)), ("jordan", dict(BOTH)),
             ("sea2", {"sea": True, "controller": None, "features": {"canal": {"name": "Suez Canal",
                                                                               "land": ["egypt", "jordan"]}}})]
    borders = [("mexico", "central"), ("central", "colombia"), ("mexico", "egypt"), ("egypt", "jordan")]
    s = build(terrs, borders, [TerritoryUnit("u", "ger", "infantry", "mexico")])
    v = judge(s, "u", "colombia", 2)
    assert not v.allowed and "Panama Canal" in v.reason
    assert judge(s, "u", "central", 2).allowed
    v = judge(s, "u", "jordan", 2)
    assert not v.allowed and "the Suez Canal" in v.reason


# ---------------------------------------------------------------------------
# Option 2


def test_option2_any_distance_two_units_a_turn_own_line_only() -> None:
    units = [TerritoryUnit(f"u{i}", "ger", "infantry", "t0") for i in range(3)]
    s = station_line(12, units=units)
    assert reachable(s, "u0", 2)["t11"] == 11
    record_move(s, judge(s, "u0", "t11", 2))
    record_move(s, judge(s, "u1", "t9", 2))
    v = judge(s, "u2", "t1", 2)
    assert not v.allowed and "used all 2 of its rail capacity units" in v.reason
    s.ruleset.options["rail_options"]["units_per_turn"] = 3
    assert judge(s, "u2", "t1", 2).allowed


def test_option2_ignores_damage_markers() -> None:
    s = station_line(3, damage=5)
    assert judge(s, "u", "t2", 2).allowed
    assert not judge(s, "u", "t2", 1).allowed


# ---------------------------------------------------------------------------
# Option 3


def test_option3_adds_one_to_movement_from_a_station() -> None:
    s = build([("a", dict(ST)), ("b", {}), ("c", {}), ("d", {}), ("e", {})],
              units=[TerritoryUnit("inf", "ger", "infantry", "a"), TerritoryUnit("arm", "ger", "armor", "a")])
    assert reachable(s, "inf", 3) == {"b": 1, "c": 2}
    assert reachable(s, "arm", 3) == {"b": 1, "c": 2, "d": 3}
    v = judge(s, "inf", "d", 3)
    assert not v.allowed and "may move 1 + 1 (rail station) = 2" in v.reason


def test_option3_station_serves_its_value_less_damage_and_no_nation_cap() -> None:
    units = [TerritoryUnit(f"u{i}", "ger", "infantry", "a") for i in range(4)]
    s = build([("a", {"value": 4, "features": {"rail_station": {"damage": 1}}}), ("b", {})], units=units)
    rules = RailOptionsAdjudicator(s, 3)
    assert rules.nation_load("ger") is None
    load = rules.station_load("a")
    assert load is not None and load.limit == 3
    for i in range(3):
        record_move(s, judge(s, f"u{i}", "b", 3))
    v = judge(s, "u3", "b", 3)
    assert not v.allowed and "passed all 3 units" in v.reason
    s.map.territories["a"].features["rail_station"]["damage"] = 3
    assert "inoperable" in judge(s, "u3", "b", 3).reason


def test_option3_bonus_from_a_station_passed_is_the_named_alternative() -> None:
    s = build([("a", {}), ("b", dict(ST)), ("c", {}), ("d", {})])
    assert not judge(s, "u", "c", 3).allowed  # default: the unit must start at the station
    s.ruleset.options["rail_options"]["bonus_station"] = "passed"
    v = judge(s, "u", "c", 3)
    assert v.allowed and v.station == "b" and v.path == ("a", "b", "c")
    assert not judge(s, "u", "d", 3).allowed
    s.map.territories["b"].features["rail_station"]["damage"] = 3
    v = judge(s, "u", "c", 3)
    assert not v.allowed and "passes a rail station that Germany may use" in v.reason


def test_a_station_in_a_territory_of_no_value_passes_no_units() -> None:
    s = build([("a", {"value": 0, "features": dict(BOTH)}), ("b", dict(BOTH))])
    v = judge(s, "u", "b", 1)
    assert not v.allowed and "can pass no units (IPC value 0)" in v.reason
    s = build([("a", {"value": 2, "features": {"rail_station": {"damage": 2}}}), ("b", {})])
    assert "can pass no units (IPC value 2 less 2 damage markers)" in judge(s, "u", "b", 3).reason


def test_option3_may_end_in_enemy_land_only_in_the_combat_phase() -> None:
    s = build([("a", dict(ST)), ("b", {}), ("c", {"controller": "sov"})], options={"combat_move": True})
    assert "held by Soviet Union" in judge(s, "u", "c", 3).reason
    assert judge(s, "u", "c", 3, phase="combat").allowed


# ---------------------------------------------------------------------------
# Option 4


def test_option4_the_documents_example_germany_at_29_ipc() -> None:
    units = [TerritoryUnit(f"u{i}", "ger", "infantry", "t0") for i in range(3)]
    s = build([(f"t{i}", dict(RR)) for i in range(6)], units=units, state={"income": {"ger": 29}})
    load = RailOptionsAdjudicator(s, 4).nation_load("ger")
    assert load is not None and load.limit == 4 and "29 IPC on the IPC chart ÷ 7 = 4" in load.basis
    # all 4 points: one unit 4 spaces
    one = s.copy()
    v = judge(one, "u0", "t4", 4)
    assert v.allowed and v.points == 4
    record_move(one, v)
    assert "used all 4 of its rail capacity points" in judge(one, "u1", "t1", 4).reason
    # or two units 2 spaces each
    v1 = judge(s, "u0", "t2", 4)
    record_move(s, v1)
    v2 = judge(s, "u1", "t2", 4)
    assert v1.points == v2.points == 2 and v2.allowed
    record_move(s, v2)
    assert not judge(s, "u2", "t1", 4).allowed
    # a unit may not go 5 spaces on 4 points
    fresh = build([(f"t{i}", dict(RR)) for i in range(6)], state={"income": {"ger": 29}})
    v = judge(fresh, "u", "t5", 4)
    assert not v.allowed and "4 rail capacity points left" in v.reason


def test_option4_income_defaults_to_the_territories_held_and_the_divisor_is_an_option() -> None:
    s = build([("a", {"value": 10, "features": dict(RR)}), ("b", {"value": 5, "features": dict(RR)})])
    load = RailOptionsAdjudicator(s, 4).nation_load("ger")
    assert load is not None and load.limit == 2 and "from the territories it holds" in load.basis
    s.ruleset.options["rail_options"]["points_divisor"] = 5
    load = RailOptionsAdjudicator(s, 4).nation_load("ger")
    assert load is not None and load.limit == 3
    s.ruleset.options["rail_options"]["points_divisor"] = 7
    s.state["rail_options"] = {"income": {"ger": 6}}
    v = judge(s, "u", "b", 4)
    assert not v.allowed and "Germany has no rail capacity points this turn (6 IPC on the IPC chart" in v.reason


def test_option4_every_territory_on_the_way_has_a_marker() -> None:
    s = build([("a", dict(RR)), ("b", {}), ("c", dict(RR))], state={"income": {"ger": 70}})
    v = judge(s, "u", "c", 4)
    assert not v.allowed and "B has no railroad marker" in v.reason
    v = judge(s, "u", "b", 4)
    assert not v.allowed and "B has no railroad marker" in v.reason


# ---------------------------------------------------------------------------
# technology, options, bad data, moves


def test_technology_raises_rail_capacity_for_nations_that_have_it() -> None:
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))],
              options={"technology": True}, state={"technology": ["ger"], "income": {"ger": 29}})
    assert [RailOptionsAdjudicator(s, o).nation_load("ger").limit for o in (1, 2, 4)] == [3, 3, 5]  # type: ignore[union-attr]
    load = RailOptionsAdjudicator(s, 3).station_load("a")
    assert load is not None and load.limit == 7
    s.ruleset.options["rail_options"]["technology"] = False
    assert [RailOptionsAdjudicator(s, o).nation_load("ger").limit for o in (1, 2, 4)] == [2, 2, 4]  # type: ignore[union-attr]


def test_bad_options_and_data_are_named() -> None:
    with pytest.raises(RailOptionsError, match="unknown rail_options option 'rnage'"):
        config_from_dict({"rnage": 3})
    with pytest.raises(RailOptionsError, match="must be 1, 2, 3 or 4"):
        config_from_dict({"option": 5})
    with pytest.raises(RailOptionsError, match="range_counts"):
        config_from_dict({"range_counts": "miles"})
    s = build([("a", {"features": {"rail_station": {"damage": 9}}}), ("b", {})])
    with pytest.raises(RailOptionsError, match="territory 'a': rail_station: damage must be 0 to 6"):
        RailOptionsAdjudicator(s)
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], state={"moves": [{"unit": "u"}]})
    with pytest.raises(RailOptionsError, match=r"moves\[0\]"):
        judge(s, "u", "b")
    with pytest.raises(ValueError, match="no territory 'atlantis'"):
        judge(build([("a", dict(BOTH))]), "u", "atlantis")


def test_the_scenario_names_the_option_and_moves_undo() -> None:
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], options={"option": 2})
    v = judge(s, "u", "b")
    assert v.option == 2 and v.allowed and v.station is None and v.points == 1
    before = copy.deepcopy(s.state)
    done = record_move(s, v)
    assert s.unit("u").at == "b" and s.state["rail_options"]["moves"][0]["path"] == ["a", "b"]
    undo_move(s, "u", done)
    assert s.unit("u").at == "a" and s.state == before  # no empty moves list left behind
    record_move(s, v)
    undo_move(s, "u")  # without the record: the move goes, the (now empty) list stays
    assert s.state["rail_options"]["moves"] == []
    done = record_move(s, v)
    undo_move(s, "u", done)  # the list was there before this move: it stays
    assert s.state["rail_options"] == {"moves": []}
    with pytest.raises(RailOptionsError, match="no rail move this turn"):
        undo_move(s, "u")
    with pytest.raises(RailOptionsError, match="refused"):
        record_move(s, judge(s, "u", "a"))


def test_moves_of_earlier_turns_do_not_count() -> None:
    units = [TerritoryUnit(f"u{i}", "ger", "infantry", "a") for i in range(3)]
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], units=units,
              state={"moves": [{"unit": "u0", "nation": "ger", "turn": 4, "path": ["a", "b"]},
                               {"unit": "u1", "nation": "ger", "turn": 4, "path": ["a", "b"]}]})
    assert judge(s, "u0", "b", 2).allowed and judge(s, "u2", "b", 2).allowed


# ---------------------------------------------------------------------------
# the sample: one unit, four answers


def sample() -> TerritoryScenario:
    s = load_any(SAMPLE)
    assert isinstance(s, TerritoryScenario)
    return s


def test_the_sample_gives_a_different_answer_under_each_option() -> None:
    s = sample()
    names = {o: sorted(reachable(s, "ger_inf", o)) for o in (1, 2, 3, 4)}
    assert names[1] == ["italy", "smolensk"]
    assert names[2] == ["bryansk", "france", "smolensk"]
    assert names[3] == ["austria", "balkans", "belarus", "belgium", "france", "italy", "poland", "turkey"]
    assert names[4] == ["balkans", "belarus", "belgium", "bryansk", "france", "poland", "smolensk", "turkey"]
    assert len({tuple(v) for v in names.values()}) == 4


@pytest.mark.parametrize(("to", "verdicts"), [
    ("bryansk", {1: "at most 3 (4 less 1 damage marker", 2: True, 3: "may move 1 + 1", 4: True}),
    ("italy", {1: True, 2: "only rail it controls", 3: True, 4: "only rail it controls"}),
    ("france", {1: "removed from play", 2: True, 3: True, 4: True}),
    ("syria", {1: "Turkish Straits", 2: "Turkish Straits", 3: "Turkish Straits", 4: "Turkish Straits"}),
    ("poland", {1: "bought on turn 5", 2: "bought on turn 5", 3: True, 4: True}),
])
def test_the_same_move_judged_under_each_option(to: str, verdicts: dict[int, Any]) -> None:
    s = sample()
    for option, want in verdicts.items():
        v = judge(s, "ger_inf", to, option)
        if want is True:
            assert v.allowed, (option, v.reason)
        else:
            assert not v.allowed and want in v.reason, (option, v.reason)


def test_result_data_for_the_cli() -> None:
    s = sample()
    d = judge(s, "ger_inf", "smolensk", 1).to_data()
    assert d["allowed"] and d["path"] == ["Germany", "Poland", "Belarus", "Smolensk"]
    assert d["uses"] == {"station": "Germany", "nation": "germany", "points": 1}
    r = reach(s, "ger_inf", 4).to_data()
    assert r["capacity"]["nation"]["limit"] == 4 and r["reachable"][-1] == "Bryansk"



def test_loads_list_every_nations_and_stations_capacity_left() -> None:
    s = sample()
    record_move(s, judge(s, "ger_inf", "smolensk", 1))
    nations, stations = RailOptionsAdjudicator(s, 1).loads()
    assert {n.nation: (n.limit, n.used) for n in nations} == {
        "germany": (6, 1), "ussr": (1, 0), "uk": (0, 0), "italy": (1, 0), "france": (0, 0)}
    assert {st.territory: (st.limit, st.used) for st in stations} == {
        "france": (6, 0), "germany": (6, 1), "smolensk": (2, 0), "bryansk": (2, 0),
        "russia": (6, 0), "italy": (6, 0), "syria": (1, 0), "egypt": (2, 0)}
    nations, stations = RailOptionsAdjudicator(s, 3).loads()
    assert nations == [] and {st.territory: st.left for st in stations}["germany"] == 10


def test_the_file_format_checks_rail_features() -> None:
    import json

    from engine.io import ScenarioError, loads_any

    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    germany = next(t for t in data["map"]["territories"] if t["id"] == "germany")
    germany["features"]["rail_station"] = {"damage": 7, "bought": 3}
    with pytest.raises(ScenarioError) as e:
        loads_any(json.dumps(data))
    problems = [str(p) for p in e.value.problems]
    assert any("rail_station: unknown key 'bought'" in p for p in problems)
    assert any("rail_station.damage: 7 is greater than the maximum of 6" in p for p in problems)


def test_the_command_prints_text_and_refuses_with_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    assert main(["rail-options", str(SAMPLE), "--unit", "ger_inf", "--option", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Option 4 (railroad markers only): ger_inf from Germany (at most 4): 8 territories")
    assert "Bryansk   4 spaces, 4 points" in out and "Germany rail capacity: 0 of 4 points used" in out
    assert main(["rail-options", str(SAMPLE), "--unit", "ger_inf", "--to", "Smolensk"]) == 0
    out = capsys.readouterr().out
    assert "ALLOWED" in out and "path: Germany > Poland > Belarus > Smolensk (3 spaces)" in out
    assert "uses: station Germany, Germany, 1 capacity unit" in out
    assert main(["rail-options", str(SAMPLE), "--unit", "ger_inf", "--to", "syria"]) == 1
    assert "REFUSED: every rail line from Germany to Syria crosses the Turkish Straits" in capsys.readouterr().out
    assert main(["rail-options", str(SAMPLE), "--unit", "ger_moved"]) == 0
    assert "cannot rail: infantry ger_moved (Germany) has already moved" in capsys.readouterr().out
    assert main(["rail-options", str(SAMPLE), "--unit", "ger_inf", "--planned", "ger_inf"]) == 1
    assert "expected UNIT:TERRITORY" in capsys.readouterr().err
    assert main(["rail-options", str(SAMPLE), "--unit", "ger_art", "--planned", "ger_inf:syria"]) == 1
    assert "planned move 1 (ger_inf to syria) is refused" in capsys.readouterr().err
    assert main(["rail-options", str(SAMPLE), "--unit", "nobody"]) == 1
    assert "no unit 'nobody'" in capsys.readouterr().err
    assert main(["rail-options", str(ROOT / "maps" / "gitm_cases.json"), "--unit", "x"]) == 1
    assert "rail options need a territory map" in capsys.readouterr().err


def test_undo_keeps_earlier_moves_and_the_state_they_live_in() -> None:
    earlier = {"unit": "u", "nation": "ger", "turn": 4, "path": ["b", "a"]}
    s = build([("a", dict(BOTH)), ("b", dict(BOTH))], options={"option": 2}, state={"moves": [dict(earlier)]})
    before = copy.deepcopy(s.state)
    done = record_move(s, judge(s, "u", "b"))
    assert len(s.state["rail_options"]["moves"]) == 2
    undo_move(s, "u", done)
    assert s.state == before and s.state["rail_options"]["moves"] == [earlier]
