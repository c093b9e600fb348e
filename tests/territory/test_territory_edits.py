"""The territory edit records and their plans (``engine/editing/territory.py``),
without a window: tables of a change that changes nothing (``None``), of
refused values (the message), and of changes carried out and back (what
they touch, and the scenario's file text after a revert)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import box

from engine.editing.territory import (
    AttributeChange,
    BorderSpec,
    FeatureChange,
    RulesMoveEdit,
    TerritoryTouched,
    apply_edits,
    plan_add_territory,
    plan_attribute,
    plan_border,
    plan_feature,
    revert_edits,
)
from engine.io import load_any
from engine.io.territory import dumps_territory_scenario
from engine.model import ModelError
from engine.rules import rail_options
from engine.rules.rail_options import RailVerdict, judge
from engine.territory import BorderKind, Territory, TerritoryScenario


def plan_rail_move(s: TerritoryScenario, verdict: RailVerdict) -> RulesMoveEdit:
    """Rail Options' planned move as the editor pushes it."""
    return RulesMoveEdit(rail_options.plan_rail_move(s, verdict))

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "aa_rail_options.json"


@pytest.fixture()
def s() -> TerritoryScenario:
    out = load_any(SAMPLE)
    assert isinstance(out, TerritoryScenario)
    return out


NO_OPS: list[tuple[str, Any]] = [
    ("attribute: the same value", lambda s: plan_attribute(s, "germany", "value", 12)),
    ("attribute: the same name once stripped", lambda s: plan_attribute(s, "germany", "name", "  Germany ")),
    ("attribute: a side by name is its id", lambda s: plan_attribute(s, "germany", "owner", "Germany")),
    ("attribute: no controller stays none", lambda s: plan_attribute(s, "mediterranean", "controller", None)),
    ("attribute: a territory by name", lambda s: plan_attribute(s, "Russia", "value", 8)),
    ("feature: the same station", lambda s: plan_feature(s, "germany", "rail_station", {"damage": 1})),
    ("feature: removing an absent one", lambda s: plan_feature(s, "belgium", "rail_station", None)),
    ("border: the same kind and name", lambda s: plan_border(s, "egypt", "syria", BorderKind.RAIL_CROSSING,
                                                             "Suez Canal")),
    ("border: removing none", lambda s: plan_border(s, "france", "russia", None)),
    ("border: an empty name is no name", lambda s: plan_border(s, "france", "belgium", BorderKind.ORDINARY, "")),
]


@pytest.mark.parametrize("plan", [p for _, p in NO_OPS], ids=[n for n, _ in NO_OPS])
def test_a_change_that_changes_nothing_is_no_edit(s: TerritoryScenario, plan: Any) -> None:
    before = dumps_territory_scenario(s)
    assert plan(s) is None
    assert dumps_territory_scenario(s) == before


REFUSALS: list[tuple[Any, str]] = [
    (lambda s: plan_attribute(s, "germany", "features", {}), "'features' is not a territory attribute the editor"),
    (lambda s: plan_attribute(s, "atlantis", "value", 1), "no territory 'atlantis' on this map"),
    (lambda s: plan_attribute(s, "germany", "name", "  "), "a territory needs a name"),
    (lambda s: plan_attribute(s, "germany", "name", "poland"),
     "the name 'poland' is already used by territory 'poland'"),
    (lambda s: plan_attribute(s, "germany", "owner", "martians"), "unknown side 'martians'"),
    (lambda s: plan_attribute(s, "germany", "value", -1), "value must be a whole number of 0 or more, got -1"),
    (lambda s: plan_attribute(s, "germany", "control_since", "7"),
     "control_since must be a whole number of 0 or more, got '7'"),
    (lambda s: plan_feature(s, "atlantis", "railroad", {}), "no territory 'atlantis' on this map"),
    (lambda s: plan_border(s, "germany", "Germany", BorderKind.STRAIT), "a border needs two different territories"),
    (lambda s: plan_border(s, "germany", "atlantis", None), "no territory 'atlantis' on this map"),
    (lambda s: plan_add_territory(s, Territory("germany", "Greater Germany")), "territory id 'germany' is already used"),
    (lambda s: plan_add_territory(s, Territory("g2", "GERMANY")), "the name 'GERMANY' is already used"),
    (lambda s: plan_rail_move(s, judge(s, "ger_inf", "mediterranean", 1)), "Mediterranean"),
]


@pytest.mark.parametrize(("plan", "message"), REFUSALS)
def test_refused_values_say_why(s: TerritoryScenario, plan: Any, message: str) -> None:
    before = dumps_territory_scenario(s)
    with pytest.raises(ModelError) as e:
        plan(s)
    assert message in str(e.value)
    assert dumps_territory_scenario(s) == before


CHANGES: list[tuple[str, Any, TerritoryTouched]] = [
    ("rename", lambda s: plan_attribute(s, "germany", "name", " Reich "),
     TerritoryTouched(frozenset({"germany"}))),
    ("owner by name", lambda s: plan_attribute(s, "turkey", "owner", "United Kingdom"),
     TerritoryTouched(frozenset({"turkey"}))),
    ("label point", lambda s: plan_attribute(s, "germany", "label_at", (1.0, 2.0)),
     TerritoryTouched(frozenset({"germany"}), shapes=True)),
    ("station added", lambda s: plan_feature(s, "belgium", "rail_station", {"damage": 2}),
     TerritoryTouched(frozenset({"belgium"}))),
    ("railroad removed", lambda s: plan_feature(s, "turkey", "railroad", None),
     TerritoryTouched(frozenset({"turkey"}))),
    ("border kind", lambda s: plan_border(s, "egypt", "syria", BorderKind.CLOSED),
     TerritoryTouched(frozenset({"egypt", "syria"}), borders=True)),
    ("border removed", lambda s: plan_border(s, "france", "belgium", None),
     TerritoryTouched(frozenset({"france", "belgium"}), borders=True)),
    ("territory added", lambda s: plan_add_territory(s, Territory("isle", "Isle", shape=box(9000, 0, 9010, 10))),
     TerritoryTouched(frozenset({"isle"}), borders=True, shapes=True)),
    ("rail move", lambda s: plan_rail_move(s, judge(s, "ger_inf", "smolensk", 1)),
     TerritoryTouched(frozenset({"germany", "smolensk"}), units=frozenset({"ger_inf"}))),
]


@pytest.mark.parametrize(("plan", "touched"), [(p, t) for _, p, t in CHANGES], ids=[n for n, _, _ in CHANGES])
def test_a_change_is_carried_out_and_back_exactly(s: TerritoryScenario, plan: Any, touched: TerritoryTouched) -> None:
    before = dumps_territory_scenario(s)
    edit = plan(s)
    assert edit is not None
    assert dumps_territory_scenario(s) == before, "planning changed the scenario"
    assert apply_edits(s, [edit]) == touched
    after = dumps_territory_scenario(s)
    assert after != before
    assert revert_edits(s, [edit]) == touched
    assert dumps_territory_scenario(s) == before
    assert apply_edits(s, [edit]) == touched
    assert dumps_territory_scenario(s) == after


def test_plans_store_what_the_scenario_holds(s: TerritoryScenario) -> None:
    """Names are normalised, sides stored by id, borders keep their props;
    records hold their own copies of feature dicts."""
    assert plan_attribute(s, "germany", "name", " Reich ") == AttributeChange("germany", "name", "Germany", "Reich")
    assert plan_attribute(s, "Turkey", "owner", "united kingdom") == AttributeChange("turkey", "owner", None, "uk")
    s.map.border("egypt", "syria").props["toll"] = 1  # type: ignore[union-attr]
    change = plan_border(s, "Syria", "Egypt", BorderKind.STRAIT)
    assert change is not None and (change.a, change.b) == ("syria", "egypt")
    assert change.after == BorderSpec(BorderKind.STRAIT, None, {"toll": 1})
    value = {"damage": 2}
    f = plan_feature(s, "belgium", "rail_station", value)
    assert f == FeatureChange("belgium", "rail_station", None, {"damage": 2})
    value["damage"] = 5
    apply_edits(s, [f])  # type: ignore[list-item]
    assert s.map.territories["belgium"].features["rail_station"] == {"damage": 2}
    s.map.territories["belgium"].features["rail_station"]["damage"] = 3
    assert f is not None and f.after == {"damage": 2}


def test_a_new_territory_borders_the_territories_it_shares_a_side_with(s: TerritoryScenario) -> None:
    a = Territory("a", "A", shape=box(9000, 0, 9010, 10))
    b = Territory("b", "B", shape=box(9010, 0, 9020, 10))  # shares a side with a
    corner = Territory("c", "C", shape=box(9020, 10, 9030, 20))  # touches b at a point only
    for t in (a, b, corner):
        edit = plan_add_territory(s, t)
        apply_edits(s, [edit])
    assert s.map.neighbours("b") == ["a"] and s.map.neighbours("c") == []
    assert s.map.territories["a"] is not a, "the map holds the record's copy"


def test_a_stroke_of_feature_edits_reverts_to_where_it_began(s: TerritoryScenario) -> None:
    """A drag laying and lifting railroad markers is a list of records;
    reverted in reverse order it gives back the first values."""
    before = dumps_territory_scenario(s)
    edits = []
    for tid, value in [("belgium", None), ("austria", {"purchased": 2}), ("belgium", {"purchased": 3}),
                       ("austria", None)]:
        e = plan_feature(s, tid, "railroad", value)
        assert e is not None
        apply_edits(s, [e])
        edits.append(e)
    assert revert_edits(s, edits) == TerritoryTouched(frozenset({"belgium", "austria"}))
    assert dumps_territory_scenario(s) == before


def test_a_rail_move_reverts_to_the_state_it_was_planned_on(s: TerritoryScenario) -> None:
    """Undoing a move removes the list of moves it created, and only that
    (``docs/rules/rail-options.md``, exact undo)."""
    del s.state["rail_options"]["moves"]
    before = dumps_territory_scenario(s)
    edit = plan_rail_move(s, judge(s, "ger_inf", "smolensk", 1))
    assert dumps_territory_scenario(s) == before
    apply_edits(s, [edit])
    assert s.unit("ger_inf").at == "smolensk" and len(s.state["rail_options"]["moves"]) == 1
    revert_edits(s, [edit])
    assert dumps_territory_scenario(s) == before and "moves" not in s.state["rail_options"]


def test_touched_records_combine() -> None:
    a = TerritoryTouched(frozenset({"x"}), units=frozenset({"u"}))
    b = TerritoryTouched(frozenset({"y"}), borders=True, shapes=True)
    assert a | b == TerritoryTouched(frozenset({"x", "y"}), True, frozenset({"u"}), True)
    assert not TerritoryTouched() and a and TerritoryTouched(borders=True)
