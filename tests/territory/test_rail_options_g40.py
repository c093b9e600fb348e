"""Rail Options on the real World War II Global 1940 map (TripleA game XML,
found by tests/conftest.py (ADJUTANT_TRIPLEA_G40), outside the repository and never copied;
skipped when absent): rail never passes through the
territories the Panama Canal and the Turkish Straits cross, nor across the
Suez Canal."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.io.triplea import parse_game_xml, to_scenario
from engine.rules.rail_options import RailOptionsAdjudicator, judge
from engine.territory import TerritoryScenario, TerritoryUnit


@pytest.fixture(scope="module")
def g40(triplea_g40: Path) -> TerritoryScenario:
    """The map (tests/conftest.py finds the file; skipped, saying how to
    provide it, when absent)."""
    return to_scenario(parse_game_xml(triplea_g40.read_bytes(), str(triplea_g40))).scenario


def railway(base: TerritoryScenario, nation: str, stations: list[str], track: list[str],
            units: dict[str, str]) -> TerritoryScenario:
    """A copy of ``base`` where ``nation`` holds ``stations`` (with station
    and railroad) and ``track`` (railroad) since before the game, with
    infantry ``units`` (id: territory)."""
    s = base.copy()
    s.turn = 3
    for tid in stations + track:
        t = s.map.territories[tid]
        assert t.land, tid
        t.controller, t.control_since = nation, 0
        t.features["railroad"] = {}
        if tid in stations:
            t.features["rail_station"] = {}
    s.units = [TerritoryUnit(uid, nation, "infantry", at) for uid, at in units.items()]
    s.state["rail_options"] = {"income": {nation: 70}}
    return s


def test_the_importer_marks_the_three_crossings(g40: TerritoryScenario) -> None:
    rules = RailOptionsAdjudicator(g40, 1)
    assert rules.barrier_in("turkey") == "Turkish Straits"
    assert rules.barrier_in("central_america") == "Panama Canal"
    assert rules.crossing_between("egypt", "trans_jordan") == "Suez Canal"
    assert rules.barrier_in("denmark") is None  # the Danish Straits are no rail barrier


@pytest.mark.parametrize("option", [1, 2, 4])
def test_rail_may_not_pass_through_turkey(g40: TerritoryScenario, option: int) -> None:
    s = railway(g40, "germans", ["greece", "turkey", "syria"], [], {"g": "greece", "t": "turkey"})
    assert judge(s, "g", "turkey", option).allowed  # ending in Turkey crosses nothing
    assert judge(s, "t", "syria", option).allowed  # nor does leaving it
    v = judge(s, "g", "syria", option)
    assert not v.allowed and "the Turkish Straits (through Turkey)" in v.reason
    assert "syria" not in {d.territory for d in RailOptionsAdjudicator(s, option).reach("g").destinations}


@pytest.mark.parametrize("option", [1, 2, 4])
def test_rail_may_not_pass_through_central_america(g40: TerritoryScenario, option: int) -> None:
    s = railway(g40, "americans", ["southeast_mexico", "colombia"], ["central_america", "mexico"],
                {"m": "southeast_mexico"})
    s.map.territories["colombia"].value = 2  # a station passes its IPC value (Colombia has none)
    v = judge(s, "m", "colombia", option)
    assert not v.allowed and "Panama Canal" in v.reason
    if option == 4:  # railroad markers only: ending in Central America crosses nothing
        assert judge(s, "m", "central_america", option).allowed


def test_rail_may_not_cross_the_suez_canal(g40: TerritoryScenario) -> None:
    s = railway(g40, "british", ["egypt", "trans_jordan"], [], {"e": "egypt"})
    v = judge(s, "e", "trans_jordan", 2)
    assert not v.allowed and "the Suez Canal" in v.reason


def test_a_long_line_elsewhere_is_allowed(g40: TerritoryScenario) -> None:
    line = ["western_germany", "germany", "poland", "baltic_states", "novgorod"]
    s = railway(g40, "germans", [line[0], line[-1]], line[1:-1], {"w": line[0]})
    v = judge(s, "w", "novgorod", 2)
    assert v.allowed, v.reason
