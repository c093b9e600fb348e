"""Rail stations and railroad markers as map pieces
(engine/rules/rail_options/pieces.py): where one may stand, what a new one
holds, a station's markers set and checked, the land route a run of markers
follows.  Table tests."""

from __future__ import annotations

from typing import Any

import pytest

from engine.model import Ruleset
from engine.rules.rail_options import RailOptionsError
from engine.rules.rail_options.pieces import (
    MAX_DAMAGE,
    land_reason,
    land_route,
    max_damage,
    new_piece,
    station_with,
)
from engine.territory import BorderKind, Territory, TerritoryMap, TerritoryScenario


def scenario(options: Any = None) -> TerritoryScenario:
    rs = Ruleset("t", [], options={} if options is None else {"rail_options": options})
    return TerritoryScenario("t", rs, [], TerritoryMap(10, 10))


@pytest.mark.parametrize(("options", "want"), [
    (None, MAX_DAMAGE),
    ({}, MAX_DAMAGE),
    ({"max_damage": 4}, 4),
    ({"max_damage": "many"}, MAX_DAMAGE),  # malformed options: the default
    ("not a table", MAX_DAMAGE),
])
def test_max_damage(options, want) -> None:
    assert max_damage(scenario(options)) == want


@pytest.mark.parametrize(("kw", "want"), [
    ({}, None),
    ({"sea": True}, "Bay is a sea zone: a rail station stands on land"),
    ({"impassable": True}, "Bay is impassable: no rail station there"),
])
def test_land_reason(kw, want) -> None:
    assert land_reason(Territory("bay", "Bay", **kw), "rail station") == want


@pytest.mark.parametrize(("bought", "want"), [(0, {}), (3, {"purchased": 3})])
def test_new_piece(bought, want) -> None:
    assert new_piece(bought) == want


@pytest.mark.parametrize(("station", "key", "value", "want"), [
    ({}, "damage", 2, {"damage": 2}),
    ({"damage": 2}, "damage", 0, {}),  # 0 removes the key
    ({"damage": 2}, "damage", 6, {"damage": 6}),
    ({"purchased": 1}, "purchased", 4, {"purchased": 4}),
    ({"damage": 1, "purchased": 1}, "purchased", 0, {"damage": 1}),
    ({}, "damage", 7, "0 to 6 damage markers, not 7"),
    ({}, "damage", -1, "0 to 6 damage markers, not -1"),
    ({}, "purchased", -2, "0 or later, not -2"),
    ({}, "colour", 1, "no 'colour' to set"),
])
def test_station_with(station, key, value, want) -> None:
    before = dict(station)
    if isinstance(want, str):
        with pytest.raises(RailOptionsError, match=want):
            station_with(station, key, value, 6)
    else:
        assert station_with(station, key, value, 6) == want
    assert station == before  # a new dict; the one given is left alone


def route_map() -> TerritoryMap:
    """a - b - c - d in a line, b - x (sea) - d, c - m (impassable) - d,
    and a closed border e - a."""
    m = TerritoryMap(10, 10)
    for tid, kw in (("a", {}), ("b", {}), ("c", {}), ("d", {}), ("e", {}), ("x", {"sea": True}),
                    ("m", {"impassable": True})):
        m.add(Territory(tid, tid.upper(), **kw))
    for a, b in (("a", "b"), ("b", "c"), ("c", "d"), ("b", "x"), ("x", "d"), ("c", "m"), ("m", "d")):
        m.add_border(a, b)
    m.add_border("a", "e", BorderKind.CLOSED)
    return m


@pytest.mark.parametrize(("a", "b", "want"), [
    ("a", "d", ["a", "b", "c", "d"]),  # not through the sea zone or the impassable territory
    ("a", "a", ["a"]),
    ("a", "e", None),  # only a closed border between them
    ("a", "x", None),  # a sea zone is no end of a land route
    ("a", "nowhere", None),
])
def test_land_route(a, b, want) -> None:
    assert land_route(route_map(), a, b) == want


def test_the_editor_asks_where_a_piece_may_be_built() -> None:
    """engine/rules/rail_options/pieces.py build_reason: the question the
    editor's tools ask in play mode (docs/rules/rail-options.md, "Buying,
    building, bombing")."""
    from pathlib import Path

    from engine.io import load_any
    from engine.rules.rail_options.pieces import build_reason

    s = load_any(str(Path(__file__).resolve().parents[2] / "maps" / "aa_rail_options.json"))
    assert build_reason(s, "balkans", "germany", "station") is None
    assert build_reason(s, "balkans", "germany", "railroad") == "Balkans already has a railroad marker"
    assert "held by Italy, not Germany" in build_reason(s, "austria", "germany", "station")
    s.turn = 4
    s.territory("bryansk").features.pop("railroad")
    assert "controlled for 1(+) round (from turn 5)" in build_reason(s, "bryansk", "germany", "railroad")
