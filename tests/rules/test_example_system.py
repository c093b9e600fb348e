"""The recipe of "How to add a rules system" (``docs/developing.md``),
proved: the example package ``tests/rules/example_system`` registers
itself on import, the registry finds it by name and map kind, its options
are read generically, and its golden file runs through the same order loop
as any system's (``tests/golden_cases.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import example_system  # tests/rules/example_system: registers "example_hop" on import
import pytest
from golden_cases import run_order_case

from engine.grids import Cell, SquareGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType, Unit
from engine.rules import registry
from engine.rules.base import RefusedOrder, RulesSystem

GOLDEN = Path(example_system.__file__).with_name("golden.json")
DATA = json.loads(GOLDEN.read_text(encoding="utf-8"))
TERRAIN = {".": TerrainType("land", "Land", ".", "#ffffff"), "~": TerrainType("water", "Water", "~", "#3060c0")}


@pytest.fixture(autouse=True)
def hop() -> Iterator[RulesSystem[Any, Any]]:
    """The system as its import registered it (registered again if an
    earlier test removed it), removed after the test."""
    registry.register(example_system.HopSystem)
    yield registry.get(example_system.NAME)
    registry.unregister(example_system.NAME)


def picture(options: dict[str, Any] | None = None) -> Scenario:
    """The golden file's map and units, with the case's options."""
    rows = DATA["map"]
    kinds = list(TERRAIN)
    m = GridMap(SquareGrid(len(rows[0]), len(rows)), NumericNumbering())
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            m.terrain[r, c] = kinds.index(ch)
    rs = Ruleset("hop", list(TERRAIN.values()), options={example_system.NAME: dict(options or {})})
    sides = [Faction("N", "North", "#0000ff", "N"), Faction("S", "South", "#ff0000", "S")]
    units = [Unit(uid, side, "IN", m.parse_label(at)) for uid, side, at in DATA["units"]]
    return Scenario("hop", rs, sides, m, units)


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_golden(case: dict[str, Any], hop: RulesSystem[Any, Any]) -> None:
    assert DATA["system"] == hop.name
    problems = run_order_case(hop, picture(case.get("options")), case)
    assert not problems, "\n".join(problems)


def test_the_registry_finds_it_by_name_and_map_kind(hop: RulesSystem[Any, Any]) -> None:
    assert isinstance(hop, example_system.HopSystem)
    assert hop in registry.for_map_kind("square")
    assert hop not in registry.for_map_kind("hex") and hop not in registry.for_map_kind("territory")
    assert not registry.is_builtin(hop)
    assert hop.order_keys == ("unit", "to")
    assert hop.to_data() == {
        "name": "example_hop", "title": "Hop (the example system)", "map_kinds": ["square"],
        "options": {"reach": "a whole number of 1 or more", "lines": "'rook' or 'queen'",
                    "blocking": "a list of texts", "stacking": "true or false"},
        "order_keys": ["unit", "to"], "doc": "tests/rules/example_system/__init__.py"}


def test_options_are_read_generically(hop: RulesSystem[Any, Any]) -> None:
    assert hop.options(picture()) == example_system.HopOptions()
    got = hop.options(picture({"reach": 3, "lines": "rook", "blocking": ["water", "land"]}))
    assert got == example_system.HopOptions(3, "rook", ("water", "land"), False)
    with pytest.raises(ModelError, match=r"ruleset.options.example_hop.lines must be 'rook' or 'queen', got 'king'"):
        hop.options(picture({"lines": "king"}))


def test_apply_refuses_with_the_reasons_and_changes_nothing(hop: RulesSystem[Any, Any]) -> None:
    s = picture()
    with pytest.raises(RefusedOrder, match=r"example_hop refuses the order: The hop lands on water at 3-2\."):
        hop.apply(s, {"unit": "B", "to": "3-2"})
    assert s.unit("B").at == Cell(2, 0)


def test_records_undo_in_reverse_order_only(hop: RulesSystem[Any, Any]) -> None:
    """push/pop: two hops, undone last first, give back the start; undoing
    the first while the second stands is refused with a reason."""
    s = picture()
    first = hop.apply(s, {"unit": "A", "to": "2-2"})
    second = hop.apply(s, {"unit": "A", "to": "2-4"})
    assert s.unit("A").at == Cell(1, 3)
    with pytest.raises(ModelError, match="cannot undo the example_hop move of A: it is at 2-4, not 2-2"):
        first.undo(s)
    second.undo(s)
    first.undo(s)
    assert s.unit("A").at == Cell(0, 0)
    assert first.to_data() == {"system": "example_hop", "moved": [{"unit": "A", "from": "1-1", "to": "2-2"}]}
