"""Module I rail-sharing groups for imported TripleA games (issue 15 item 6;
``docs/rules/railroads.md``, "Sharing groups on imported maps").

The document: "On the Axis, only Italy and Germany may share railroads. On
the Allies, only United Kingdom, France, U.S.A. and China may share
railroads. Japan and the U.S.S.R. are isolated in their railroad usage."
That is the importer's default (``--rail-sharing document``), recognised by
the players' names TripleA games use; ``alliances`` (the game's alliances
share) and ``none`` are the other readings."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.cli import main
from engine.io import load_any
from engine.io.triplea import TripleAError, parse_game_xml, rail_sharing_groups, to_scenario
from engine.model import Faction
from engine.rules.railroads import RailRules, plan
from engine.territory import TerritoryScenario

ROOT = Path(__file__).resolve().parents[2]
G40 = Path(os.environ.get("ADJUTANT_TRIPLEA_G40", ROOT.parent / "shared" / "data" / "triplea-g40"))

PLAYERS = [("Germans", "Axis"), ("Italians", "Axis"), ("Japanese", "Axis"), ("British", "Allies"),
           ("UK_Pacific", "Allies"), ("Americans", "Allies"), ("Russians", "Allies"), ("ANZAC", "Allies"),
           ("French", "Allies"), ("Chinese", "Allies"), ("Dutch", "Dutch")]
CHAIN = ["Berlin", "Rome", "Tokyo", "London", "Moscow"]
OWNERS = {"Berlin": "Germans", "Rome": "Italians", "Tokyo": "Japanese", "London": "British", "Moscow": "Russians"}


def game_xml() -> str:
    """A chain of five land territories, each held by one player."""
    conn = "".join(f'<connection t1="{a}" t2="{b}"/>' for a, b in zip(CHAIN, CHAIN[1:]))
    players = "".join(f'<player name="{p}" optional="false"/><alliance player="{p}" alliance="{a}"/>'
                      for p, a in PLAYERS)
    prod = "".join(f'<attachment name="territoryAttachment" attachTo="{t}" javaClass="x.TerritoryAttachment" '
                   f'type="territory"><option name="production" value="6"/></attachment>' for t in CHAIN)
    owners = "".join(f'<territoryOwner territory="{t}" owner="{o}"/>' for t, o in OWNERS.items())
    units = ('<unitInitialize><unitPlacement unitType="infantry" territory="Berlin" quantity="1" owner="Germans"/>'
             '<unitPlacement unitType="infantry" territory="Tokyo" quantity="1" owner="Japanese"/>'
             '</unitInitialize>')
    return ('<?xml version="1.0"?><game><info name="Sharing" version="1"/><map>'
            + "".join(f'<territory name="{t}"/>' for t in CHAIN) + conn
            + f"</map><playerList>{players}</playerList><unitList><unit name=\"infantry\"/></unitList>"
            f"<attachmentList>{prod}</attachmentList><initialize><ownerInitialize>{owners}</ownerInitialize>"
            f"{units}</initialize></game>")


def imported(reading: str) -> TerritoryScenario:
    return to_scenario(parse_game_xml(game_xml(), "sharing.xml"), rail_sharing=reading).scenario


@pytest.mark.parametrize("reading, groups", [
    ("document", [["germans", "italians"], ["british", "uk_pacific", "americans", "french", "chinese"]]),
    ("alliances", [["germans", "italians", "japanese"],
                   ["british", "uk_pacific", "americans", "russians", "anzac", "french", "chinese"]]),
    ("none", []),
])
def test_each_reading_gives_its_groups(reading: str, groups: list[list[str]]) -> None:
    s = imported(reading)
    assert s.ruleset.option("railroads", "sharing", []) == groups


def test_the_document_reading_isolates_japan_and_the_ussr_and_names_no_other_sharer() -> None:
    sides = [Faction("a", "Japan", "#000", "A", "Axis"), Faction("b", "Germany", "#000", "B", "Axis"),
             Faction("c", "Italy", "#000", "C", "Axis"), Faction("d", "U.S.S.R.", "#000", "D", "Allies"),
             Faction("e", "United Kingdom", "#000", "E", "Allies"), Faction("f", "ANZAC", "#000", "F", "Allies")]
    assert rail_sharing_groups(sides) == [["b", "c"]]
    # the document's sharers of different alliances never share
    rebels = [Faction("x", "Germans", "#000", "X", "Axis"), Faction("y", "Italians", "#000", "Y", "Allies")]
    assert rail_sharing_groups(rebels) == []
    with pytest.raises(TripleAError, match="rail sharing 'friends'"):
        to_scenario(parse_game_xml(game_xml(), "sharing.xml"), rail_sharing="friends")


def test_the_groups_decide_who_rails_through_whose_territory() -> None:
    s = imported("document")
    rules = RailRules(s)
    orders = rules.read_orders([{"unit": "germans_infantry_1", "to": "Rome"}])
    assert plan(s, orders, rules).feasible  # Germans rail into Italian-held Rome
    orders = rules.read_orders([{"unit": "japanese_infantry_1", "to": "Rome"}])
    p = plan(s, orders, rules)
    assert not p.feasible and "not by Japanese or a power sharing its railroads" in p.refused[0].reason
    s = imported("alliances")
    rules = RailRules(s)
    assert plan(s, rules.read_orders([{"unit": "japanese_infantry_1", "to": "Rome"}]), rules).feasible


def test_the_command_writes_the_groups_and_they_load_back(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "sharing.xml"
    game.write_text(game_xml(), encoding="utf-8")
    out = tmp_path / "out.json"
    assert main(["import-triplea", str(game), "--out", str(out), "--rail-sharing", "alliances", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rail_sharing"][0] == ["germans", "italians", "japanese"]
    s = load_any(out)
    assert isinstance(s, TerritoryScenario) and s.ruleset.option("railroads", "sharing", [])[0][2] == "japanese"


@pytest.mark.skipif(not (G40 / "ww2global40_2nd_edition.xml").exists(),
                    reason=f"the TripleA Global 1940 files are not at {G40}; set ADJUTANT_TRIPLEA_G40 to their folder")
def test_global_1940_gets_the_documents_groups(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g40.json"
    assert main(["import-triplea", str(G40 / "ww2global40_2nd_edition.xml"), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rail_sharing"] == [["germans", "italians"], ["americans", "chinese", "british", "uk_pacific",
                                                              "french"]]
