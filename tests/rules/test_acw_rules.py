"""Engine-API tests for "A Short ACW Campaign" (shared seed 003, issue 6),
written from the rule document and the decisions recorded in
``docs/rules/acw.md`` -- not from the engine's output.

Longer than 600 lines on purpose: one table section per rule of the
document, in the document's order, so a reader checks them side by side.

The expected numbers in the tables below are worked out by hand from the
document: the worked example (Union 15 against Rebels 6 behind a river at
9:51:45), every boundary of the casualty table, the defence multipliers,
stacking, halting, movement costs, fortification, the spreading of losses,
retreat, the reinforcement roll and costs, victory, the alternative readings
kept as options, and bad input.  Small hex scenarios are built in code.

The result numbers used for the casualty-table rows through the post time are
found with an independent oracle: :mod:`decimal` square roots at 40 digits
(the document's "take the square root ... the 9th and 10th places").
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import pytest

from engine.grids import Cell
from engine.io import scenario_from_data
from engine.model import ModelError, Scenario
from engine.rules.acw import (
    battle,
    casualty_row,
    check_move,
    check_new_unit,
    check_reinforce,
    defence_multiplier,
    end_of_turn,
    engagement,
    half_loss,
    odds,
    options_from_dict,
    over_limit,
    parse_post_time,
    reach,
    rebel_roll,
    resolve,
    result_number,
    retreat_losses,
    retreat_options,
    roll,
    spread_losses,
    stack_at,
    victory,
)

# ---------------------------------------------------------------------------
# building small hex scenarios


def lab(col: int, row: int) -> str:
    """The ``ccrr`` label (first 1) of the 0-based ``Cell(col, row)``."""
    return f"{col + 1:02d}{row + 1:02d}"


UNIT_TYPES = [
    {"id": "inf", "name": "Infantry", "movement": 3, "properties": {"arm": "infantry"}},
    {"id": "cav", "name": "Cavalry", "movement": 5, "properties": {"arm": "cavalry"}},
    {"id": "arty", "name": "Artillery", "movement": 3, "properties": {"arm": "artillery"}},
    {"id": "hq", "name": "HQ", "movement": 5, "properties": {"arm": "hq"}},
]


def build(terrain: list[str], units: list[tuple[str, str, str, int, int, int]] | None = None, *,
          rivers: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
          bridges: Sequence[tuple[tuple[int, int], tuple[int, int], str]] = (),
          rail: list[tuple[int, int]] | None = None,
          places: dict[str, tuple[int, int]] | None = None,
          control: list[str] | None = None,
          options: dict[str, Any] | None = None, turn: int = 1,
          state: dict[str, Any] | None = None,
          props: dict[str, dict[str, Any]] | None = None) -> Scenario:
    """A flat-top ``ccrr`` hex scenario.  ``terrain`` rows use ``.`` open,
    ``w`` woods, ``#`` impassable; ``units`` are (id, side, type, strength,
    col, row) with 0-based col and row."""
    h, w = len(terrain), len(terrain[0])
    m: dict[str, Any] = {
        "grid": {"kind": "hex", "width": w, "height": h, "orientation": "flat", "parity": "odd"},
        "numbering": {"scheme": "ccrr", "first": 1, "digits": 2, "order": "col-row", "separator": ""},
        "terrain": terrain,
        "rivers": [[lab(*a), lab(*b)] for a, b in rivers],
        "bridges": [{"between": [lab(*a), lab(*b)], "kind": k} for a, b, k in bridges],
    }
    if rail:
        m["links"] = {"rail": [[lab(*c) for c in rail]]}
    if places:
        m["places"] = [{"at": lab(*c), "name": f"City {code}", "code": code} for code, c in places.items()]
    if control:
        m["control"] = control
    data: dict[str, Any] = {
        "format": "adjutant-scenario", "version": 1, "name": "test", "turn": turn,
        "ruleset": {
            "name": "acw test",
            "terrain": [
                {"id": "open", "name": "Open", "symbol": ".", "color": "#dddddd"},
                {"id": "woods", "name": "Woods", "symbol": "w", "color": "#22aa22", "move_cost": 3, "properties": {"woods": True}},
                {"id": "sea", "name": "Sea", "symbol": "#", "color": "#2222aa", "impassable": True},
            ],
            "unit_types": UNIT_TYPES,
            "options": {"acw": options or {}},
        },
        "sides": [{"id": "union", "name": "Union", "symbol": "U", "color": "#0000ff"}, {"id": "rebel", "name": "Rebels", "symbol": "R", "color": "#888888"}],
        "map": m,
        "units": [{"id": i, "side": s, "type": t, "at": lab(c, r), "strength": f, "name": i,
                   **({"props": props[i]} if props and i in props else {})}
                  for i, s, t, f, c, r in (units or [])],
        "state": state or {},
    }
    return scenario_from_data(data)


def decimal_result(h: int, m: int, s: int, first: int) -> int:
    """Independent oracle: the two decimals ``first``, ``first + 1`` of the
    square root of the post time written as one number (truncated)."""
    n = int(f"{h}{m:02d}{s:02d}")
    with localcontext() as ctx:
        ctx.prec = 40
        digits = f"{Decimal(n).sqrt():.30f}".split(".")[1]
    return int(digits[first - 1:first + 1])


def time_with_result(r: int) -> str:
    """The first post time of the day whose result number (9th and 10th
    decimals) is ``r``, found with the Decimal oracle."""
    for h in range(9, 24):
        for m in range(60):
            for s in range(60):
                if decimal_result(h, m, s, 9) == r:
                    return f"{h}:{m:02d}:{s:02d}"
    raise AssertionError(f"no time gives {r}")


# ---------------------------------------------------------------------------
# the worked example


def test_worked_example_numbers() -> None:
    """15 attacking 6 behind a river at 9:51:45: 56, 21, Union wins by 35,
    casualties 1 and 3."""
    c = resolve(15, 6, "9:51:45", multiplier=2)
    assert c.defender_effective == 12
    assert c.total == 27
    assert c.victory_number == 56
    assert c.result_number == 21
    assert c.winner == "attacker"
    assert c.difference == 35
    assert (c.row.winner, c.row.loser) == (Fraction(1, 2), Fraction(2))
    assert c.basic_rate == Fraction(21, 15)
    assert (c.winner_casualties, c.loser_casualties) == (1, 3)
    assert (c.attacker_casualties, c.defender_casualties) == (1, 3)
    assert "attacker wins" in c.reason


def test_worked_example_result_number_is_the_9th_and_10th_decimals() -> None:
    r = result_number("9:51:45")
    assert r.number == 95145
    assert r.value == decimal_result(9, 51, 45, 9) == 21


def river_battle_scenario(**kw: Any) -> Scenario:
    """Union 15 factors (4+4+4+3 infantry) in 0101's neighbour 0201 across a
    river from Rebels 6 factors (3+3 infantry) in 0301... laid out on one row:
    union at col 1, rebel at col 2, a river on the hexside between."""
    return build(["......"], [
        ("U1", "union", "inf", 4, 1, 0), ("U2", "union", "inf", 4, 1, 0),
        ("U3", "union", "inf", 4, 1, 0), ("U4", "union", "arty", 3, 1, 0),
        ("R1", "rebel", "inf", 3, 2, 0), ("R2", "rebel", "inf", 3, 2, 0),
    ], rivers=[((1, 0), (2, 0))], **kw)


def test_worked_example_on_the_map() -> None:
    s = river_battle_scenario()
    b = battle(s, [Cell(1, 0)], Cell(2, 0), "9:51:45")
    assert b.engagement.attacker_factors == 15
    assert b.engagement.defender_factors == 6
    assert b.engagement.defender_effective == 12
    assert b.combat is not None
    c = b.combat
    assert (c.victory_number, c.result_number, c.winner, c.difference) == (56, 21, "attacker", 35)
    assert (c.winner_casualties, c.loser_casualties) == (1, 3)
    assert sum(x.lost for x in b.attacker_losses.losses) == 1
    # 3 losses over two 3-factor units: one each, then a second for one of them
    assert sorted(x.lost for x in b.defender_losses.losses) == [1, 2]
    # the loser (the Rebels in 0302) must retreat
    assert [r.label for r in b.retreats] == [lab(2, 0)]
    assert s.units_at(Cell(2, 0))  # the scenario itself is not changed


def test_worked_example_with_a_bridge_still_doubles_by_default() -> None:
    s = river_battle_scenario(bridges=[((1, 0), (2, 0), "road")])
    assert engagement(s, [Cell(1, 0)], Cell(2, 0)).defender_effective == 12
    s2 = river_battle_scenario(bridges=[((1, 0), (2, 0), "road")], options={"bridged_river_doubles": False})
    assert engagement(s2, [Cell(1, 0)], Cell(2, 0)).defender_effective == 6


# ---------------------------------------------------------------------------
# the casualty table: every row boundary

# (difference, winner rate, loser rate) from the document's table
ROWS = [
    (0, Fraction(2), Fraction(2)), (5, Fraction(2), Fraction(2)),
    (6, Fraction(1), Fraction(1)), (10, Fraction(1), Fraction(1)),
    (11, Fraction(1), Fraction(3, 2)), (20, Fraction(1), Fraction(3, 2)),
    (21, Fraction(1), Fraction(2)), (30, Fraction(1), Fraction(2)),
    (31, Fraction(1, 2), Fraction(2)), (40, Fraction(1, 2), Fraction(2)),
    (41, Fraction(1, 2), Fraction(5, 2)), (50, Fraction(1, 2), Fraction(5, 2)),
    (51, Fraction(1, 2), Fraction(3)), (67, Fraction(1, 2), Fraction(3)), (99, Fraction(1, 2), Fraction(3)),
]


@pytest.mark.parametrize("difference,w,loser", ROWS)
def test_casualty_row_boundaries(difference: int, w: Fraction, loser: Fraction) -> None:
    row = casualty_row(difference)
    assert (row.winner, row.loser) == (w, loser)


# 20 attack 10 in the open: victory number 100/30*20 = 66.67 -> 67; basic
# rate 30/15 = 2, so casualties are the table's rates x 2 (whole numbers).
@pytest.mark.parametrize("difference,w,loser", [r for r in ROWS if r[0] <= 67])
def test_casualties_by_row_through_resolve(difference: int, w: Fraction, loser: Fraction) -> None:
    t = time_with_result(67 - difference)
    c = resolve(20, 10, t)
    assert c.victory_number == 67
    assert c.result_number == 67 - difference
    assert c.winner == "attacker"
    assert c.difference == difference
    assert c.basic_rate == 2
    assert (c.winner_casualties, c.loser_casualties) == (int(w * 2), int(loser * 2))


@pytest.mark.parametrize("difference,w,loser", [r for r in ROWS if 0 < r[0] <= 32])
def test_defender_wins_above_the_victory_number(difference: int, w: Fraction, loser: Fraction) -> None:
    t = time_with_result(67 + difference)
    c = resolve(20, 10, t)
    assert c.winner == "defender"
    assert c.difference == difference
    assert (c.attacker_casualties, c.defender_casualties) == (int(loser * 2), int(w * 2))


def test_result_equal_to_victory_number_is_the_attackers() -> None:
    c = resolve(20, 10, time_with_result(67))
    assert (c.winner, c.difference) == ("attacker", 0)
    assert (c.winner_casualties, c.loser_casualties) == (4, 4)


@pytest.mark.parametrize("difference,w,loser", [r for r in ROWS if r[0] <= 67])
def test_odds_give_the_same_table(difference: int, w: Fraction, loser: Fraction) -> None:
    o = odds(20, 10).outcomes[67 - difference]
    assert (o.winner, o.difference) == ("attacker", difference)
    assert (o.attacker_casualties, o.defender_casualties) == (int(w * 2), int(loser * 2))


# basic rate 1 (10 + 5 = 15): W0.5 -> 0.5 and L1.5 -> 1.5 are halves.
# docs/rules/acw.md: halves round up by default; "half_even" rounds to even.
@pytest.mark.parametrize("rounding,difference,winner,loser", [
    ("half_up", 35, 1, 2),     # 0.5 -> 1, 2 -> 2
    ("half_even", 35, 0, 2),   # 0.5 -> 0 ("If 0, fine")
    ("half_up", 15, 1, 2),     # 1, 1.5 -> 2
    ("half_even", 15, 1, 2),   # 1.5 -> 2
    ("half_up", 45, 1, 3),     # 0.5 -> 1, 2.5 -> 3
    ("half_even", 45, 0, 2),   # 0.5 -> 0, 2.5 -> 2
])
def test_casualty_rounding_of_halves(rounding: str, difference: int, winner: int, loser: int) -> None:
    o = options_from_dict({"rounding": rounding})
    # 10 against 5: 100/15*10 = 66.67 -> 67 (no half involved)
    c = resolve(10, 5, time_with_result(67 - difference), options=o)
    assert c.victory_number == 67 and c.basic_rate == 1
    assert (c.winner_casualties, c.loser_casualties) == (winner, loser)


def test_basic_rate_ignores_the_defence_multiplier() -> None:
    """Basic rate uses factors as they stand: 15 + 6 = 21, not 27."""
    for mult in (1, 2, Fraction(3, 2)):
        assert resolve(15, 6, "9:51:45", multiplier=mult).basic_rate == Fraction(21, 15)


# ---------------------------------------------------------------------------
# defence multipliers


@pytest.mark.parametrize("reasons,expected", [
    (["open"], 1), (["woods"], 2), (["river"], 2), (["fort"], Fraction(3, 2)),
    (["woods", "river"], 2), (["river", "fort"], 2),
])
def test_defence_multiplier(reasons: list[Any], expected: Fraction) -> None:
    assert defence_multiplier(reasons) == expected


@pytest.mark.parametrize("terrain,river,fortified,effective", [
    ("...", False, False, 6),
    (".w.", False, False, 12),   # defender in woods: double
    ("...", True, False, 12),    # behind a river: double
    ("...", False, True, 9),     # fortified: 1.5
    (".w.", False, True, 12),    # woods and fort: the highest
    ("w..", False, False, 6),    # attacker in woods: no doubling (behind_woods off)
])
def test_defender_effective_factors_on_the_map(terrain: str, river: bool, fortified: bool,
                                                effective: int) -> None:
    # attacker in col 0, defender in col 1
    s = build([terrain], [("U", "union", "inf", 4, 0, 0), ("R", "rebel", "inf", 6, 1, 0)],
              rivers=[((0, 0), (1, 0))] if river else [],
              props={"R": {"fortified": True}} if fortified else None)
    e = engagement(s, [Cell(0, 0)], Cell(1, 0))
    assert e.defender_factors == 6
    assert e.defender_effective == effective


# ---------------------------------------------------------------------------
# stacking


@pytest.mark.parametrize("types,over", [
    (["inf", "inf", "inf"], False),
    (["inf", "cav", "cav"], False),
    (["inf", "inf", "inf", "inf"], True),
    (["inf", "inf", "inf", "cav"], True),
    (["inf", "inf", "inf", "arty", "arty", "hq"], False),
    (["cav", "cav", "cav"] + ["arty"] * 5 + ["hq"] * 2, False),
    (["inf", "inf", "cav", "cav", "arty", "hq"], True),
])
def test_stacking_limit(types: list[str], over: bool) -> None:
    units = [(f"U{i}", "union", t, 2, 1, 0) for i, t in enumerate(types)]
    s = build(["...."], units)
    st = stack_at(s, Cell(1, 0))
    counted = sum(1 for t in types if t in ("inf", "cav"))
    assert st.count == counted
    assert len(st.on_top) == len(types) - counted
    assert st.over is over
    assert [x.label for x in over_limit(s)] == ([lab(1, 0)] if over else [])
    if over:
        assert "limit is 3" in st.reason


@pytest.mark.parametrize("mover,ok", [("inf", False), ("cav", False), ("arty", True), ("hq", True)])
def test_moving_into_a_full_hex(mover: str, ok: bool) -> None:
    s = build(["...."], [("A", "union", "inf", 2, 2, 0), ("B", "union", "inf", 2, 2, 0),
                         ("C", "union", "cav", 2, 2, 0), ("M", "union", mover, 2, 0, 0)])
    mc = check_move(s, "M", Cell(2, 0))
    assert mc.ok is ok
    if not ok:
        assert lab(2, 0) in mc.reason and "limit" in mc.reason


# ---------------------------------------------------------------------------
# movement: a one-row corridor (neighbours along a row are adjacent)


# (unit type, terrain row, river between cols 0|1, bridge kind, {col: cost or None})
MOVES = [
    ("inf", "........", None, None, {1: 1, 2: 2, 3: 3, 4: None}),
    ("arty", "........", None, None, {3: 3, 4: None}),
    ("cav", "........", None, None, {5: 5, 6: None}),
    ("hq", "........", None, None, {5: 5, 6: None}),
    ("inf", ".w......", None, None, {1: 3, 2: None}),          # woods cost 3
    ("cav", ".w......", None, None, {1: 3, 2: 4, 3: 5, 4: None}),
    ("inf", "........", "river", None, {1: 3, 2: None}),        # crossing a river costs 3
    ("cav", "........", "river", None, {1: 3, 3: 5, 4: None}),
    ("inf", "........", "river", "road", {1: 1, 3: 3}),         # at a road bridge 1
    ("inf", "........", "river", "rail", {1: 1, 3: 3}),         # at a rail bridge 1
    ("cav", "........", "river", "rail", {5: 5, 6: None}),
    ("inf", ".w......", "river", None, {1: 3, 2: None}),        # river into woods: 3 (docs: highest)
]


@pytest.mark.parametrize("utype,terrain,river,bridge,costs", MOVES)
def test_movement_costs(utype: str, terrain: str, river: str | None, bridge: str | None,
                        costs: dict[int, int | None]) -> None:
    s = build([terrain], [("M", "union", utype, 2, 0, 0)],
              rivers=[((0, 0), (1, 0))] if river else [],
              bridges=[((0, 0), (1, 0), bridge)] if bridge else [])
    r = reach(s, "M")
    for col, cost in costs.items():
        assert r.cost(Cell(col, 0)) == cost, (utype, terrain, river, bridge, col)
    if river:
        first = r.path(Cell(1, 0))
        if first:
            assert first[0].crossing == ("river" if bridge is None else f"{bridge} bridge")


def test_river_into_woods_sum_option() -> None:
    s = build([".w......"], [("M", "union", "cav", 2, 0, 0)], rivers=[((0, 0), (1, 0))],
              options={"step_cost": "sum"})
    assert reach(s, "M").cost(Cell(1, 0)) is None  # woods 3 + river 3 = 6 > 5


# ---------------------------------------------------------------------------
# halting next to the enemy: row 0 is a corridor (row 1 is impassable except
# the enemy's hex 0402, whose only row-0 neighbour is 0401)

CORRIDOR = ["..........", "###.######"]


@pytest.mark.parametrize("col,cost,halt", [
    (1, 1, False), (2, 2, False), (3, 3, True),  # entering 0401, next to the enemy: halt
    (4, None, False), (5, None, False),          # reach does not continue past it
])
def test_halting_next_to_the_enemy(col: int, cost: int | None, halt: bool) -> None:
    s = build(CORRIDOR, [("C", "union", "cav", 2, 0, 0), ("E", "rebel", "inf", 2, 3, 1)])
    r = reach(s, "C")
    assert r.cost(Cell(col, 0)) == cost
    if cost is not None:
        assert {h.label: h.halt for h in r.hexes()}[lab(col, 0)] is halt
    mc = check_move(s, "C", Cell(col, 0))
    assert mc.ok is (cost is not None)
    if halt:
        assert "halt" in mc.reason
    if cost is None:
        assert "halt" in mc.reason  # the "no" says why: the route passes a hex next to the enemy


def test_without_the_enemy_the_corridor_is_open() -> None:
    s = build(CORRIDOR, [("C", "union", "cav", 2, 0, 0)])
    r = reach(s, "C")
    assert [r.cost(Cell(c, 0)) for c in range(7)] == [0, 1, 2, 3, 4, 5, None]


def test_may_leave_a_hex_next_to_the_enemy_at_the_start() -> None:
    s = build(CORRIDOR, [("C", "union", "cav", 2, 3, 0), ("E", "rebel", "inf", 2, 3, 1)])
    r = reach(s, "C")
    assert r.cost(Cell(5, 0)) == 2
    assert r.cost(Cell(0, 0)) == 3


def test_may_not_enter_the_enemy_hex() -> None:
    s = build(["......"], [("C", "union", "cav", 2, 0, 0), ("E", "rebel", "inf", 2, 2, 0)])
    assert reach(s, "C").cost(Cell(2, 0)) is None
    assert not check_move(s, "C", Cell(2, 0)).ok


# ---------------------------------------------------------------------------
# fortification


@pytest.mark.parametrize("props,fortified", [
    ({}, True),                                   # did not move: fortifies
    ({"moved": False}, True),
    ({"moved": True}, False),                      # moved: no fortification
    ({"moved": True, "fortified": True}, False),   # moving removes it
])
def test_fortification_at_end_of_turn(props: dict[str, Any], fortified: bool) -> None:
    s = build(["...."], [("U", "union", "inf", 2, 0, 0), ("R", "rebel", "inf", 2, 3, 0)], props={"U": props})
    (f,) = end_of_turn(s, "union")
    assert (f.unit_id, f.fortified) == ("U", fortified)
    assert f.reason


def test_fortified_and_unfortified_defenders_in_one_hex() -> None:
    """Fortification is per unit: 4 fortified (6) + 2 not (2) = 8."""
    s = build(["...."], [("U", "union", "inf", 4, 0, 0), ("R1", "rebel", "inf", 4, 1, 0),
                         ("R2", "rebel", "inf", 2, 1, 0)], props={"R1": {"fortified": True}})
    e = engagement(s, [Cell(0, 0)], Cell(1, 0))
    assert e.defender_effective == 8


# ---------------------------------------------------------------------------
# spreading losses evenly


UNITS3 = [("a", "A", 4), ("b", "B", 2), ("c", "C", 1)]


@pytest.mark.parametrize("casualties,lost,unabsorbed", [
    (0, {"a": 0, "b": 0, "c": 0}, 0),
    (1, {"a": 1, "b": 0, "c": 0}, 0),   # strongest first (docs)
    (2, {"a": 1, "b": 1, "c": 0}, 0),
    (3, {"a": 1, "b": 1, "c": 1}, 0),   # every unit one before any takes a second
    (4, {"a": 2, "b": 1, "c": 1}, 0),   # c is eliminated and drops out
    (5, {"a": 2, "b": 2, "c": 1}, 0),
    (6, {"a": 3, "b": 2, "c": 1}, 0),
    (7, {"a": 4, "b": 2, "c": 1}, 0),
    (9, {"a": 4, "b": 2, "c": 1}, 2),   # more than the force has
])
def test_spread_losses(casualties: int, lost: dict[str, int], unabsorbed: int) -> None:
    sp = spread_losses(UNITS3, casualties)
    assert {x.unit_id: x.lost for x in sp.losses} == lost
    assert sp.unabsorbed == unabsorbed


def test_equal_units_take_losses_in_the_order_given() -> None:
    sp = spread_losses([("x", "X", 3), ("y", "Y", 3), ("z", "Z", 3)], 4)
    assert {x.unit_id: x.lost for x in sp.losses} == {"x": 2, "y": 1, "z": 1}


@pytest.mark.parametrize("factors", [(4, 4, 3, 3), (1, 5, 2), (3,), (2, 2, 2, 1, 1), (6, 1, 1, 1)])
def test_no_second_loss_before_every_other_has_one(factors: tuple[int, ...]) -> None:
    rows = [(f"u{i}", f"U{i}", f) for i, f in enumerate(factors)]
    for n in range(sum(factors) + 2):
        lost = {x.unit_id: x.lost for x in spread_losses(rows, n).losses}
        assert sum(lost.values()) == min(n, sum(factors))
        for uid, k in lost.items():
            for vid, f in ((r[0], r[2]) for r in rows if r[0] != uid):
                # a unit with k losses: every other has at least k-1, or is eliminated
                assert lost[vid] >= min(k - 1, f), (factors, n, lost)


# ---------------------------------------------------------------------------
# retreat


@pytest.mark.parametrize("factors,rounding,loss", [
    (4, "up", 2), (5, "up", 3), (1, "up", 1), (6, "up", 3), (5, "down", 2), (1, "down", 0),
])
def test_half_loss(factors: int, rounding: str, loss: int) -> None:
    assert half_loss(factors, options_from_dict({"retreat_loss_rounding": rounding})) == loss


def test_retreat_one_or_two_hexes_and_the_loss_next_to_an_enemy() -> None:
    # one row: Union at 0501 beat the Rebels (3 + 2 factors) in 0601; a second
    # Union force at 0901 makes 0801 a hex next to the enemy.
    s = build(["........."], [("U", "union", "inf", 4, 4, 0), ("U2", "union", "inf", 1, 8, 0),
                              ("R1", "rebel", "inf", 3, 5, 0), ("R2", "rebel", "inf", 2, 5, 0)])
    plan = retreat_options(s, Cell(5, 0))
    assert plan.factors == 5
    got = {h.label: (h.distance, h.adjacent_to_enemy, h.loss) for h in plan.hexes}
    assert got == {lab(6, 0): (1, False, 0), lab(7, 0): (2, True, 3)}
    assert plan.hexes[0].label == lab(6, 0)  # safest first
    sp = retreat_losses(s, plan, Cell(7, 0))
    assert {x.unit_id: x.lost for x in sp.losses} == {"R1": 2, "R2": 1}
    assert sum(x.lost for x in retreat_losses(s, plan, Cell(6, 0)).losses) == 0
    with pytest.raises(ValueError, match=lab(4, 0)):
        retreat_losses(s, plan, Cell(4, 0))


def test_no_retreat_possible_eliminates() -> None:
    s = build(["..."], [("U", "union", "inf", 4, 1, 0), ("R", "rebel", "inf", 3, 2, 0)])
    plan = retreat_options(s, Cell(2, 0))
    assert not plan.possible
    assert "eliminated" in plan.reason
    assert [x.lost for x in retreat_losses(s, plan, None).losses] == [3]


# ---------------------------------------------------------------------------
# reinforcement: the Rebel roll


@pytest.mark.parametrize("ms,cities,gained", [
    (250, 3, 0),   # 250 mod 6 = 4 > 3
    (250, 4, 1),   # 4 <= 4
    (250, 6, 1),
    (0, 0, 1),     # 0 <= 0
    (5, 4, 0),
    (5, 5, 1),
    (6, 0, 1),     # 6 mod 6 = 0
    (1, 0, 0),
])
def test_rebel_roll(ms: int, cities: int, gained: int) -> None:
    held = ("E", "G", "I", "O", "M", "L")[:cities]
    r = roll(f"9:51:45.{ms:03d}", held)
    assert (r.milliseconds, r.remainder, r.gained) == (ms, ms % 6, gained)
    assert roll(ms, held).gained == gained


def test_roll_time_of_day_option() -> None:
    o = options_from_dict({"roll_source": "time_of_day"})
    r = roll("0:00:01.001", ("E",), o)   # 1001 ms, mod 6 = 5 > 1
    assert (r.milliseconds, r.remainder, r.gained) == (1001, 5, 0)


CITIES = {"E": (0, 0), "G": (2, 0), "I": (4, 0), "O": (6, 0), "M": (8, 0), "L": (10, 0), "A": (11, 0)}


@pytest.mark.parametrize("union_at,held", [
    ([], 6),
    ([0], 5),          # a Union unit in E takes it
    ([0, 2, 4], 3),
    ([1, 3], 6),       # hexes that are not cities
])
def test_rebel_roll_counts_the_cities_held(union_at: list[int], held: int) -> None:
    units = [(f"U{c}", "union", "inf", 1, c, 0) for c in union_at]
    s = build(["............"], units, places=CITIES, control=["RRRRRRRRRRRU"])
    ms = 5  # remainder 5: gained only with 5 or more cities
    r = rebel_roll(s, f"10:00:00.{ms:03d}")
    assert len(r.cities) == held
    assert r.gained == (1 if 5 <= held else 0)


# reinforcement costs and where factors may be added: rail from the west
# edge 0102 to 0502 (row 1 of 3, so only 0102 is on the map edge), all Union;
# units on the rail, next to it, or far from it
RAIL = [(c, 1) for c in range(5)]


def supply_scenario(points: int, control: list[str] | None = None,
                    extra: Sequence[tuple[str, str, str, int, int, int]] = (),
                    props: dict[str, dict[str, Any]] | None = None) -> Scenario:
    units = [("I", "union", "inf", 2, 2, 1), ("C", "union", "cav", 2, 3, 1), ("A", "union", "arty", 2, 1, 1),
             ("N", "union", "inf", 2, 2, 2), ("F", "union", "inf", 2, 9, 2), *extra]
    return build(["..........", "..........", ".........."], units, rail=RAIL,
                 control=control or ["UUUUUUUUUU"] * 3, props=props,
                 state={"acw": {"points": {"union": points, "rebel": 0}}})


@pytest.mark.parametrize("unit,factors,points,ok,cost", [
    ("I", 1, 3, True, 1),    # infantry factor: 1 point
    ("I", 3, 3, True, 3),
    ("I", 4, 3, False, 4),   # not enough points
    ("C", 1, 3, True, 2),    # cavalry factor: 2 points
    ("C", 2, 3, False, 4),
    ("A", 1, 2, True, 2),    # artillery factor: 2 points
    ("N", 1, 3, True, 1),    # next to a rail hex
    ("F", 1, 3, False, 1),   # far from the rail
])
def test_reinforce_costs_and_places(unit: str, factors: int, points: int, ok: bool, cost: int) -> None:
    r = check_reinforce(supply_scenario(points), unit, factors)
    assert (r.ok, r.cost) == (ok, cost)
    assert r.reason


def test_a_unit_that_moved_is_not_reinforced() -> None:
    r = check_reinforce(supply_scenario(3, props={"I": {"moved": True}}), "I", 1)
    assert not r.ok and "moved" in r.reason


@pytest.mark.parametrize("rebel_unit,control_row", [
    (True, "UUUUUUUUUU"),    # a Rebel unit on the rail at 0202
    (False, "URUUUUUUUU"),   # 0202 given to the Rebels by the control layer
])
def test_rail_must_be_controlled_to_the_edge(rebel_unit: bool, control_row: str) -> None:
    units = [("C", "union", "cav", 2, 3, 1), ("W", "union", "inf", 2, 0, 2)]
    if rebel_unit:
        units.append(("R", "rebel", "inf", 1, 1, 1))
    s = build(["..........", "..........", ".........."], units, rail=RAIL,
              control=["UUUUUUUUUU", control_row, "UUUUUUUUUU"],
              state={"acw": {"points": {"union": 3, "rebel": 0}}})
    cut = check_reinforce(s, "C", 1)
    assert not cut.ok and "edge" in cut.reason   # 0302-0502 are cut off from the edge
    assert check_reinforce(s, "W", 1).ok          # 0103 is next to 0102 on the edge
    s2 = build(["..........", "..........", ".........."], units[:2], rail=RAIL, control=["UUUUUUUUUU"] * 3,
               state={"acw": {"points": {"union": 3, "rebel": 0}}})
    assert check_reinforce(s2, "C", 1).ok         # and with the rail held they are supplied


@pytest.mark.parametrize("points,ok", [(1, True), (0, False)])
def test_new_unit_costs_one_point(points: int, ok: bool) -> None:
    r = check_new_unit(supply_scenario(points), "union", "inf", Cell(4, 1))
    assert (r.ok, r.cost) == (ok, 1)


# ---------------------------------------------------------------------------
# victory


@pytest.mark.parametrize("turn,union_in_m,rebel_in_a,complete,outcome", [
    (1, False, False, False, None),
    (3, True, False, False, "major_union"),
    (7, True, False, False, "major_union"),   # within 7 turns
    (8, True, False, False, "minor_union"),   # later
    (5, False, True, False, "major_rebel"),   # taking A
    (12, False, False, False, None),          # turn 12 not played out yet
    (12, False, False, True, "minor_rebel"),  # held 12 turns
    (13, False, False, False, "minor_rebel"),
])
def test_victory(turn: int, union_in_m: bool, rebel_in_a: bool, complete: bool, outcome: str | None) -> None:
    units = []
    if union_in_m:
        units.append(("U", "union", "inf", 2, 5, 0))
    if rebel_in_a:
        units.append(("R", "rebel", "inf", 2, 0, 0))
    s = build(["......"], units, places={"A": (0, 0), "M": (5, 0)}, control=["UUURRR"], turn=turn)
    v = victory(s, turn_complete=complete)
    assert v.outcome == outcome
    assert v.reason


# ---------------------------------------------------------------------------
# the alternative readings kept as options


def test_text_reading_takes_the_8th_and_9th_places() -> None:
    o = options_from_dict({"result_places": "text"})
    assert result_number("9:51:45", o).value == decimal_result(9, 51, 45, 8) == 22
    c = resolve(15, 6, "9:51:45", multiplier=2, options=o)
    assert (c.victory_number, c.result_number, c.winner, c.difference) == (56, 22, "attacker", 34)
    assert (c.winner_casualties, c.loser_casualties) == (1, 3)


@pytest.mark.parametrize("h,m,s", [(0, 0, 7), (12, 34, 56), (23, 59, 59), (9, 5, 3)])
def test_both_readings_against_the_decimal_oracle(h: int, m: int, s: int) -> None:
    t = f"{h}:{m:02d}:{s:02d}"
    assert result_number(t).value == decimal_result(h, m, s, 9)
    assert result_number(t, options_from_dict({"result_places": "text"})).value == decimal_result(h, m, s, 8)


@pytest.mark.parametrize("attacker,defender,exact,one_decimal", [
    (15, 12, 56, 56),   # the worked example: 3.7 x 15 = 55.5 -> 56 either way
    (20, 10, 67, 66),   # 66.67 -> 67; 3.3 x 20 = 66
])
def test_victory_quotient_option(attacker: int, defender: int, exact: int, one_decimal: int) -> None:
    assert resolve(attacker, defender, "9:51:45").victory_number == exact
    o = options_from_dict({"victory_quotient": "one_decimal"})
    assert resolve(attacker, defender, "9:51:45", options=o).victory_number == one_decimal


# ---------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("text", ["9:61:00", "25:00:00", "9:51:60", "9-51-45", "", "nine"])
def test_malformed_time(text: str) -> None:
    with pytest.raises(ValueError, match="time"):
        parse_post_time(text)
    with pytest.raises(ValueError) as err:
        resolve(15, 6, text)
    assert isinstance(err.value, ModelError)


def test_malformed_time_message_names_the_time() -> None:
    with pytest.raises(ModelError, match="9:61:00"):
        resolve(15, 6, "9:61:00")


@pytest.mark.parametrize("call", [
    lambda s: reach(s, "nope"),
    lambda s: check_move(s, "nope", Cell(1, 0)),
    lambda s: check_reinforce(s, "nope"),
])
def test_unknown_unit(call: Any) -> None:
    s = build(["...."], [("U", "union", "inf", 2, 0, 0)])
    with pytest.raises(ValueError, match="nope"):
        call(s)


def test_unknown_option_and_empty_hex() -> None:
    with pytest.raises(ValueError, match="bogus"):
        options_from_dict({"bogus": 1})
    s = build(["...."], [("U", "union", "inf", 2, 0, 0)])
    with pytest.raises(ValueError, match=lab(1, 0)):
        battle(s, [Cell(0, 0)], Cell(1, 0), "9:51:45")


# ---------------------------------------------------------------------------
# more of the procedure end to end


@pytest.mark.parametrize("attacker,defender,rounding,vn", [
    (1, 7, "half_up", 13),     # 100 / 8 x 1 = 12.5 -> 13 (halves up, docs)
    (1, 7, "half_even", 12),
    (3, 5, "half_up", 38),     # 37.5 -> 38
    (3, 5, "half_even", 38),
    (15, 12, "half_up", 56),   # the example's 55.56 -> 56
])
def test_victory_number_rounding(attacker: int, defender: int, rounding: str, vn: int) -> None:
    o = options_from_dict({"rounding": rounding})
    assert resolve(attacker, defender, "9:51:45", options=o).victory_number == vn


def test_defender_wins_in_woods_and_the_attackers_retreat() -> None:
    """4 attack 6 in woods (12): total 16, victory number 25; result 90
    beats it by 65 (row 51+): basic rate 10/15, winner 0.5 x 2/3 -> 0,
    loser 3 x 2/3 = 2; the attackers in 0101 must retreat."""
    s = build([".w...."], [("U1", "union", "inf", 2, 0, 0), ("U2", "union", "cav", 2, 0, 0),
                           ("R", "rebel", "inf", 6, 1, 0)])
    b = battle(s, [Cell(0, 0)], Cell(1, 0), time_with_result(90))
    c = b.combat
    assert c is not None
    assert (c.victory_number, c.result_number, c.winner, c.difference) == (25, 90, "defender", 65)
    assert (c.attacker_casualties, c.defender_casualties) == (2, 0)
    assert sorted(x.lost for x in b.attacker_losses.losses) == [1, 1]   # spread: one each
    assert [r.label for r in b.retreats] == [lab(0, 0)]


def test_odds_chance_is_victory_number_plus_one_in_a_hundred() -> None:
    o = odds(15, 6, defender_effective=Fraction(12))
    assert o.victory_number == 56
    assert o.wins == 57
    assert o.chance == Fraction(57, 100)


def test_union_gains_its_point_every_turn_and_the_rebels_roll() -> None:
    """Reinforcements: "The Union will receive 1 reinforcement point each
    turn"; the Rebels gain 1 only by their roll."""
    from pathlib import Path

    from engine.io import load_scenario
    from engine.rules.acw import turn_gain

    s = load_scenario(Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json")
    before = s.state.get("acw", {}).get("points", {}).get("union", 0)
    g = turn_gain(s, "union")
    assert (g.gained, g.total) == (1, before + 1)
    with pytest.raises(ValueError, match="Reinforcement post"):
        turn_gain(s, "rebel")
    r = turn_gain(s, "rebel", 0)  # 0 ms mod 6 = 0 <= cities held: always a point
    assert r.gained == 1
