"""Rail Options 1–4 as classes (engine/rules/rail_options/options.py): each
option's limits, loads, points and readings as tables; the option reader
(engine/rules/base.py read_options over RailConfig); the system registered as
``rail_options``: check, apply and an exact undo."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_rail_options import BOTH, build, sample

from engine.rules.base import OptionError, RefusedOrder
from engine.rules.rail_options import (
    INF,
    OPTIONS,
    Option1,
    Option2,
    Option3,
    Option4,
    RailConfig,
    RailOptionsAdjudicator,
    RailOptionsError,
    RailOptionsSystem,
    RecordedMove,
    config_from_dict,
    judge,
)
from engine.rules.registry import for_map_kind, get
from engine.territory import TerritoryScenario, TerritoryUnit


def line(options: dict[str, Any] | None = None, damage: int = 0, value: int = 6,
         state: dict[str, Any] | None = None) -> TerritoryScenario:
    """a (station with ``damage`` markers, IPC ``value``) - b - c - d, every
    one with a station and a railroad marker, Germany's since before the
    game; infantry ``u`` in a."""
    a = {"value": value, "features": {"rail_station": {"damage": damage}, "railroad": {}}}
    return build([("a", a), ("b", dict(BOTH)), ("c", dict(BOTH)), ("d", dict(BOTH))], options=options,
                 state=state)


# ---------------------------------------------------------------------------
# what each option class says about itself


@pytest.mark.parametrize(("number", "cls", "damage_stops", "both", "captured_removed", "charges", "words"), [
    (1, Option1, True, True, True, True, "the rail line"),
    (2, Option2, False, True, False, False, "the rail line"),
    (3, Option3, True, False, False, True, "the move"),
    (4, Option4, False, False, False, False, "the rail line"),
])
def test_each_option_class_states_where_it_differs(number: int, cls: type, damage_stops: bool, both: bool,
                                                   captured_removed: bool, charges: bool, words: str) -> None:
    assert OPTIONS[number] is cls and cls.number == number
    assert (cls.damage_stops_station, cls.stations_and_railroad, cls.captured_railroad_removed,
            cls.charges_start_station, cls.line_words) == (damage_stops, both, captured_removed, charges, words)
    assert type(RailOptionsAdjudicator(line(), number).rule) is cls


@pytest.mark.parametrize(("number", "cost", "points"), [
    (1, 1, 1), (1, 4, 1), (2, 9, 1), (3, 2, 0), (4, 1, 1), (4, 3, 3),
])
def test_points_a_move_uses(number: int, cost: int, points: int) -> None:
    assert RailOptionsAdjudicator(line(), number).rule.points(cost) == points


# ---------------------------------------------------------------------------
# limits


@pytest.mark.parametrize(("number", "options", "damage", "farthest"), [
    (1, {}, 0, 4),
    (1, {}, 2, 2),
    (1, {"range": 2}, 0, 2),
    (1, {"range_counts": "territories"}, 0, 3),
    (1, {"range_counts": "territories"}, 1, 2),
    (2, {}, 0, INF),
    (3, {}, 0, 2),  # infantry 1 + station bonus 1
    (3, {"station_bonus": 3}, 0, 4),
    (4, {}, 0, 4),  # the points left: 29 IPC on the chart ÷ 7
])
def test_max_cost(number: int, options: dict[str, Any], damage: int, farthest: int) -> None:
    s = line(options, damage, state={"income": {"ger": 29}})
    rules = RailOptionsAdjudicator(s, number)
    u = s.unit("u")
    assert rules.rule.max_cost(u, s.map.territories["a"], rules.nation_load("ger")) == farthest


@pytest.mark.parametrize(("number", "options", "state", "limit", "unit", "basis"), [
    (1, {}, {}, 4, "units", "4 stations controlled, at most 6"),
    (1, {"nation_capacity_max": 2}, {}, 2, "units", "4 stations controlled, at most 2"),
    (1, {"technology": True}, {"technology": ["ger"]}, 5, "units",
     "4 stations controlled + 1 technology, at most 7"),
    (2, {}, {}, 2, "units", "2 units a turn"),
    (2, {"units_per_turn": 3, "technology": True, "tech_bonus": 2}, {"technology": ["ger"]}, 5, "units",
     "3 units a turn + 2 technology"),
    (3, {}, {}, None, None, None),
    (4, {}, {"income": {"ger": 29}}, 4, "points", "29 IPC on the IPC chart ÷ 7 = 4"),
    (4, {"points_divisor": 5}, {}, 4, "points", "24 IPC from the territories it holds ÷ 5 = 4"),
])
def test_nation_capacity(number: int, options: dict[str, Any], state: dict[str, Any], limit: int | None,
                         unit: str | None, basis: str | None) -> None:
    load = RailOptionsAdjudicator(line(options, state=state), number).nation_load("ger")
    if limit is None:
        assert load is None
        return
    assert load is not None
    assert (load.limit, load.used, load.unit, load.basis, load.name) == (limit, 0, unit, basis, "Germany")


@pytest.mark.parametrize(("number", "options", "value", "damage", "limit"), [
    (1, {}, 6, 0, 6),
    (1, {}, 9, 2, 6),  # at most station_max; damage does not lower it
    (1, {"station_max": 3}, 6, 0, 3),
    (1, {}, 2, 0, 2),
    (2, {}, 6, 0, None),
    (3, {}, 6, 2, 4),  # IPC value less damage markers
    (3, {}, 1, 2, 0),
    (4, {}, 6, 0, None),
])
def test_station_throughput(number: int, options: dict[str, Any], value: int, damage: int,
                            limit: int | None) -> None:
    load = RailOptionsAdjudicator(line(options, damage, value), number).station_load("a")
    assert (None if load is None else load.limit) == limit
    if load is not None:
        assert (load.used, load.left, load.name) == (0, limit, "A")


@pytest.mark.parametrize(("number", "options", "move", "stations"), [
    (1, {}, {"path": ["a", "b", "c"]}, ["a"]),
    (1, {"station_use": "both"}, {"path": ["a", "b", "c"]}, ["a", "c"]),
    (2, {}, {"path": ["a", "b"]}, []),
    (3, {}, {"path": ["a", "b"]}, ["a"]),
    (3, {}, {"path": ["a", "b", "c"], "station": "b"}, ["b"]),
    (4, {}, {"path": ["a", "b"]}, []),
])
def test_stations_a_recorded_move_used(number: int, options: dict[str, Any], move: dict[str, Any],
                                       stations: list[str]) -> None:
    assert RailOptionsAdjudicator(line(options), number).rule.move_stations({"unit": "u", **move}) == stations


@pytest.mark.parametrize(("number", "damage", "start_ok"), [
    (1, 3, False), (2, 3, True), (3, 3, False), (4, 3, True),  # damage stops a station under 1 and 3 only
    (1, 2, True), (3, 2, True),
])
def test_damage_stops_a_station_only_under_options_1_and_3(number: int, damage: int, start_ok: bool) -> None:
    s = line(damage=damage)
    why = RailOptionsAdjudicator(s, number).rule.start_reason(s.unit("u"), s.map.territories["a"])
    assert (why is None) == start_ok, why


def test_option4_starts_on_railroad_not_at_a_station() -> None:
    s = build([("a", {"features": {"railroad": {}}}), ("b", {"features": {"railroad": {}}})])
    assert judge(s, "u", "b", 4).allowed
    for number in (1, 2, 3):
        v = judge(s, "u", "b", number)
        assert not v.allowed and "is not at a usable rail station: A has no rail station" in v.reason


# ---------------------------------------------------------------------------
# the option reader


@pytest.mark.parametrize(("raw", "message"), [
    ({"rnage": 3}, "unknown rail_options option 'rnage' (known: allies_share, "),
    ({"option": 5}, "rail_options option 'option' must be 1, 2, 3 or 4, got 5"),
    ({"option": True}, "rail_options option 'option' must be 1, 2, 3 or 4, got True"),
    ({"range": -1}, "rail_options option 'range' must be a whole number of 0 or more, got -1"),
    ({"range": 2.5}, "rail_options option 'range' must be a whole number of 0 or more, got 2.5"),
    ({"combat_move": 1}, "rail_options option 'combat_move' must be true or false, got 1"),
    ({"range_counts": "miles"}, "rail_options option 'range_counts' must be 'steps' or 'territories', got 'miles'"),
    ({"points_divisor": 0}, "rail_options option 'points_divisor' must be a whole number of 1 or more, got 0"),
    ({"allies_share": [1, 7]}, "rail_options option 'allies_share'[1] must be 1, 2, 3 or 4, got 7"),
    ({"forbidden_crossings": ["Suez Canal", ""]},
     "rail_options option 'forbidden_crossings'[1] must be a non-empty text, got ''"),
])
def test_bad_options_are_named(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(RailOptionsError) as e:
        config_from_dict(raw)
    assert str(e.value).startswith(message)


def test_options_are_read_into_the_config() -> None:
    cfg = config_from_dict({"option": 3, "allies_share": [1, 2], "forbidden_crossings": ["Kiel Canal"],
                            "bonus_station": "passed", "technology": True}, option=4)
    assert cfg == RailConfig(option=4, allies_share=(1, 2), forbidden_crossings=("Kiel Canal",),
                             bonus_station="passed", technology=True)
    with pytest.raises(RailOptionsError, match="the rail option must be 1, 2, 3 or 4, got 0"):
        config_from_dict({}, option=0)


# ---------------------------------------------------------------------------
# the registered system


def test_the_system_is_registered_for_territory_maps() -> None:
    system = get("rail_options")
    assert isinstance(system, RailOptionsSystem)
    assert system in for_map_kind("territory") and system not in for_map_kind("hex")
    assert set(system.order_keys) == {"unit", "to", "option", "phase", "action", "nation", "piece", "count",
                                      "territory", "bombers", "aa", "dice", "seed"}
    assert system.options(sample()) == RailConfig(option=1)


def test_check_is_the_verdict_of_judge() -> None:
    s = sample()
    v = get("rail_options").check(s, {"unit": "ger_inf", "to": "smolensk", "option": 1})
    assert v == judge(s, "ger_inf", "smolensk", 1) and v.ok and v.reasons == ()
    assert v.to_data() == judge(s, "ger_inf", "smolensk", 1).to_data()
    no = get("rail_options").check(s, {"unit": "ger_inf", "to": "bryansk", "option": 1})
    assert not no.ok and no.reasons == (no.reason,) and "at most 3 (4 less 1 damage marker" in no.reason


def test_apply_records_the_move_and_undo_puts_everything_back() -> None:
    s = sample()
    before = json.dumps([s.state, [(u.id, u.at) for u in s.units]], sort_keys=True)
    system = get("rail_options")
    rec = system.apply(s, {"unit": "ger_inf", "to": "smolensk", "option": 1})
    assert isinstance(rec, RecordedMove) and s.unit("ger_inf").at == "smolensk"
    had = json.loads(before)[0].get("rail_options")
    assert rec.to_data() == {"unit": "ger_inf", "made_state": had is None,
                             "made_moves": had is None or "moves" not in had}
    assert RailOptionsAdjudicator(s, 1).nation_load("germany").used == 1  # type: ignore[union-attr]
    rec.undo(s)
    assert json.dumps([s.state, [(u.id, u.at) for u in s.units]], sort_keys=True) == before


def test_apply_refuses_a_move_the_rules_refuse_and_bad_orders() -> None:
    s = sample()
    with pytest.raises(RefusedOrder, match="rail_options refuses the order: Bryansk is 4 spaces .* at most 3"):
        get("rail_options").apply(s, {"unit": "ger_inf", "to": "bryansk", "option": 1})
    with pytest.raises(OptionError, match=r"unknown option rail_options order\.speed \(known: option, phase, to, unit\)"):
        get("rail_options").check(s, {"unit": "ger_inf", "to": "bryansk", "speed": 3})
    with pytest.raises(OptionError, match="phase must be 'noncombat' or 'combat', got 'night'"):
        get("rail_options").check(s, {"unit": "ger_inf", "to": "bryansk", "phase": "night"})
    s.units.append(TerritoryUnit("extra", "germany", "infantry", "germany"))
    assert get("rail_options").check(s, {"unit": "extra", "to": "poland"}).option == 1
