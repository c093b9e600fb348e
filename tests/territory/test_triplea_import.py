"""TripleA import: the real World War II Global 1940 files (read from
the folder ``G40`` below, outside the repository and never copied; skipped
when absent) and malformed or hostile input."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main
from engine.io import load_any
from engine.io.triplea import TripleAError, parse_centers, parse_game_xml, parse_polygons, to_scenario
from engine.territory import TerritoryScenario
from engine.territory.model import BorderKind

ROOT = Path(__file__).resolve().parents[2]
G40 = ROOT.parent / "shared" / "data" / "triplea-g40"
needs_g40 = pytest.mark.skipif(not (G40 / "ww2global40_2nd_edition.xml").exists(),
                               reason=f"the TripleA Global 1940 test files are not at {G40}")

MINI = """<?xml version="1.0"?>
<!DOCTYPE game SYSTEM "game.dtd">
<game>
  <info name="Mini" version="1"/>
  <map>
    <territory name="Alpha"/>
    <territory name="Beta"/>
    <!--<territory name="Gamma"/>-->
    <territory name="1 Sea Zone" water="true"/>
    <connection t1="Alpha" t2="Beta"/>
    <connection t1="Alpha" t2="1 Sea Zone"/>
    <!--<connection t1="Alpha" t2="Gamma"/>-->
  </map>
  <playerList>
    <player name="Reds" optional="false"/>
    <alliance player="Reds" alliance="Axis"/>
  </playerList>
  <attachmentList>
    <attachment name="territoryAttachment" attachTo="Alpha"
        javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">
      <option name="production" value="4"/>
    </attachment>
  </attachmentList>
  <initialize><ownerInitialize><territoryOwner territory="Alpha" owner="Reds"/></ownerInitialize></initialize>
</game>
"""


@needs_g40
def test_global_1940_second_edition_counts_and_values() -> None:
    g = parse_game_xml((G40 / "ww2global40_2nd_edition.xml").read_bytes(), "g40")
    water = dict(g.territories)
    assert len(g.territories) == 332
    assert sum(1 for w in water.values() if not w) == 204 and sum(water.values()) == 128
    assert len(g.connections) == 830
    assert sum(1 for a, b in g.connections if not water[a] and not water[b]) == 325
    assert "Yukon Territory" not in water  # commented out in the file
    assert g.production["Germany"] == 5 and g.production["United Kingdom"] == 6 and g.production["Japan"] == 8
    assert g.impassable == {"Himalayas", "Pripet Marshes"}
    assert {c for _, c, _ in g.canals} == {"Suez Canal", "Danish Straits", "Strait of Gibraltar", "Panama Canal",
                                           "Turkish Straits"}
    assert g.owners["Germany"] == "Germans" and dict(g.players)["Italians"] == "Axis"


@needs_g40
def test_global_1940_original_edition_counts() -> None:
    g = parse_game_xml((G40 / "ww2global40.xml").read_bytes(), "g40")
    assert len(g.territories) == 333 and len(g.connections) == 833


@needs_g40
def test_global_1940_polygons_load_as_valid_shapes() -> None:
    g = parse_game_xml((G40 / "ww2global40_2nd_edition.xml").read_bytes(), "g40")
    polys = parse_polygons((G40 / "polygons.txt").read_text(encoding="utf-8"))
    centers = parse_centers((G40 / "centers.txt").read_text(encoding="utf-8"))
    result = to_scenario(g, polys, centers, wrap_x=True)
    m = result.scenario.map
    assert len(m) == 332
    assert all(t.shape.is_valid and not t.shape.is_empty for t in m.territories.values())
    assert m.territory("British Columbia").shape.area > 0  # "British  Columbia" in polygons.txt
    assert m.territory("Himalayas").impassable
    assert m.territory("Germany").value == 5 and m.territory("Germany").controller == "germans"
    assert m.territory("81 Sea Zone").features["canal"] == {"name": "Suez Canal", "land": ["egypt", "trans_jordan"]}
    suez = m.border("egypt", "trans_jordan")
    assert suez is not None and suez.kind is BorderKind.RAIL_CROSSING
    assert (m.width, m.height) == (7705, 3213) and m.wrap_x
    assert any("Yukon Territory" in w for w in result.warnings)


@needs_g40
def test_import_command_writes_a_valid_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g40.json"
    code = main(["import-triplea", str(G40 / "ww2global40_2nd_edition.xml"), "--polygons", str(G40 / "polygons.txt"),
                 "--centers", str(G40 / "centers.txt"), "--wrap-x", "--out", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["territories"] == 332 and data["land"] == 204 and data["with_polygons"] == 332
    s = load_any(out)
    assert isinstance(s, TerritoryScenario) and len(s.map) == 332
    assert main(["validate", str(out)]) == 0


def test_comments_are_not_territories_and_values_are_read() -> None:
    g = parse_game_xml(MINI, "mini.xml")
    assert [n for n, _ in g.territories] == ["Alpha", "Beta", "1 Sea Zone"]
    assert g.connections == [("Alpha", "Beta"), ("Alpha", "1 Sea Zone")]
    s = to_scenario(g).scenario
    assert s.territory("Alpha").value == 4 and s.territory("Alpha").owner == "reds"
    assert s.territory("1 Sea Zone").sea and s.side("reds").alliance == "Axis"


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE game [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<game><info name="&lol3;"/></game>
"""

XXE = """<?xml version="1.0"?>
<!DOCTYPE game [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<game><info name="&secret;"/></game>
"""


@pytest.mark.parametrize("text, words", [
    (BILLION_LAUGHS, "declares the XML entity 'lol'"),
    (XXE, "declares the XML entity 'secret'"),
    ("<game><map><territory name='A'></map></game>", "not well-formed XML at line 1, column"),
    ("<scenario/>", "the root element is <scenario>, expected <game>"),
    ("<game><map><territory name='A'/><connection t1='A' t2='B'/></map></game>", "names 'B', which is no territory"),
    ("<game><map><territory/></map></game>", "<territory> number 1 has no 'name' attribute"),
    ("<game><map><territory name='A'/><territory name='A'/></map></game>", "'A' is declared twice"),
])
def test_bad_xml_is_refused_clearly(text: str, words: str) -> None:
    with pytest.raises(TripleAError, match="bad.xml: .*" + re.escape(words)):
        parse_game_xml(text, "bad.xml")


def test_polygons_format() -> None:
    text = "Alpha  <  (0,0) (10,0) (10,10) (0,10) (0,0) >  <  (20,0) (30,0) (30,10) >\nBeta < (10,0) (20,0) (20,10) >"
    p = parse_polygons(text)
    assert len(p["Alpha"]) == 2 and p["Alpha"][0][-1] == (0.0, 0.0) and len(p["Beta"][0]) == 3


@pytest.mark.parametrize("text, words", [
    ("Alpha (0,0) (1,0) (1,1)", "line 1: expected 'Name  <  (x,y) (x,y) … >'"),
    ("Alpha < (0,0) (1,0) (1,1)", "line 1 (Alpha): unbalanced"),
    ("Alpha < (0,0) (1,0) >", "polygon 1: 2 distinct points"),
    ("Alpha < (0,0) (1,0) banana (1,1) >", "'banana' is not a point"),
    ("\n< (0,0) (1,0) (1,1) >", "line 2: a polygon without a territory name"),
    ("A < (0,0) (" + "9" * 400 + ",0) (1,1) >", "line 1 (A), polygon 1: a coordinate is too large"),
])
def test_bad_polygons_are_refused_clearly(text: str, words: str) -> None:
    with pytest.raises(TripleAError, match="polygons.txt: .*" + re.escape(words)):
        parse_polygons(text)


def test_import_command_reports_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text(BILLION_LAUGHS, encoding="utf-8")
    assert main(["import-triplea", str(bad), "--out", str(tmp_path / "x.json")]) == 1
    err = capsys.readouterr().err
    assert "entity declarations are refused" in err and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()
    assert main(["import-triplea", str(tmp_path / "missing.xml"), "--out", str(tmp_path / "x.json")]) == 1
    assert "no such file" in capsys.readouterr().err


@needs_g40
@pytest.mark.parametrize("nation, a, b, crossing", [
    ("british", "Trans-Jordan", "Egypt", "Jordan–Egypt"),
    ("italians", "Southern Italy", "Sicily", "Italy–Sicily"),
    ("americans", "Central America", "Colombia", "Panama Canal"),
])
def test_each_sea_crossing_on_the_imported_map(nation: str, a: str, b: str, crossing: str) -> None:
    from engine.rules.railroads import RailOrder, plan

    g = parse_game_xml((G40 / "ww2global40_2nd_edition.xml").read_bytes(), "g40")
    polys = parse_polygons((G40 / "polygons.txt").read_text(encoding="utf-8"))
    s = to_scenario(g, polys, wrap_x=True).scenario
    ta, tb = s.territory(a), s.territory(b)
    for t in (ta, tb):  # held by the nation from the start, with some rail capacity
        t.owner = nation
        s.set_control(t.id, nation, since=0)
        t.value = max(t.value, 1)
    border = s.map.border(ta.id, tb.id)
    assert border is not None and border.kind is BorderKind.RAIL_CROSSING and border.name == crossing
    p = plan(s, [RailOrder(nation, ta.id, tb.id)])
    assert p.feasible and p.routes[0].paths == (((ta.id, tb.id), 1),)
    s.map.add_border(ta.id, tb.id, BorderKind.STRAIT)  # without the exception: water that rail cannot cross
    p = plan(s, [RailOrder(nation, ta.id, tb.id)])
    assert not p.feasible and "no rail path" in p.refused[0].reason


def test_import_command_reports_an_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "mini.xml"
    game.write_text(MINI, encoding="utf-8")
    assert main(["import-triplea", str(game), "--out", str(tmp_path / "no" / "such" / "x.json")]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err


def test_centers_format_and_errors() -> None:
    assert parse_centers("Alpha  (10,20)\n\nBeta (3,4)") == {"Alpha": (10.0, 20.0), "Beta": (3.0, 4.0)}
    with pytest.raises(TripleAError, match=r"centers.txt: line 1: expected 'Name  \(x,y\)'"):
        parse_centers("Alpha 10 20")
    with pytest.raises(TripleAError, match="centers.txt: line 1: a coordinate is too large"):
        parse_centers("Alpha (" + "9" * 400 + ",1)")


# -- unit types and starting placements ----------------------------------------

UNITS = """<?xml version="1.0"?>
<game>
  <info name="Units" version="1"/>
  <map>
    <territory name="Alpha"/>
    <territory name="Beta"/>
    <territory name="1 Sea Zone" water="true"/>
    <connection t1="Alpha" t2="Beta"/>
    <connection t1="Alpha" t2="1 Sea Zone"/>
  </map>
  <playerList>
    <player name="Reds" optional="false"/>
    <player name="Blue Men" optional="false"/>
    <alliance player="Reds" alliance="Axis"/>
    <alliance player="Blue Men" alliance="Allies"/>
  </playerList>
  <unitList>
    <unit name="infantry"/>
    <unit name="fighter"/>
    <unit name="destroyer"/>
    <unit name="factory"/>
    <unit name="militia"/>
  </unitList>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="infantry"
        javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">
      <option name="movement" value="1"/><option name="attack" value="1"/><option name="defense" value="2"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="fighter"
        javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">
      <option name="movement" value="4"/><option name="isAir" value="true"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="destroyer"
        javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">
      <option name="movement" value="2"/><option name="isSea" value="TRUE"/><option name="hitPoints" value="1"/>
    </attachment>
    <attachment name="unitAttachment" attachTo="factory"
        javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">
      <option name="isFactory" value="true"/>
    </attachment>
  </attachmentList>
  <initialize>
    <ownerInitialize><territoryOwner territory="Alpha" owner="Reds"/></ownerInitialize>
    <unitInitialize>
      <unitPlacement unitType="infantry" territory="Alpha" quantity="3" owner="Reds"/>
      <unitPlacement unitType="fighter" territory="Alpha" quantity="1" owner="Reds"/>
      <unitPlacement unitType="factory" territory="Alpha" quantity="1" owner="Reds" unitDamage="2"/>
      <unitPlacement unitType="destroyer" territory="1 Sea Zone" quantity="2" owner="Blue Men" hitsTaken="1"/>
      <unitPlacement unitType="infantry" territory="Beta" owner="Blue Men"/>
      <unitPlacement unitType="infantry" territory="Beta" quantity="2" owner="Reds"/>
      <unitPlacement unitType="militia" territory="Beta" quantity="0" owner="Reds"/>
      <!--<unitPlacement unitType="infantry" territory="Beta" quantity="50" owner="Reds"/>-->
    </unitInitialize>
  </initialize>
</game>
"""


def _units_xml(placement: str = "", attachment: str = "") -> str:
    """UNITS with one more placement and one more unit attachment."""
    return (UNITS.replace("</unitInitialize>", placement + "\n    </unitInitialize>")
            .replace("</attachmentList>", attachment + "\n  </attachmentList>"))


def test_placements_become_units_in_their_territories() -> None:
    s = to_scenario(parse_game_xml(UNITS, "units.xml")).scenario
    assert len(s.units) == 3 + 1 + 1 + 2 + 1 + 2  # quantity defaults to 1; 0 places none; comments are no units
    stacks: dict[tuple[str, str, str], int] = {}
    for u in s.units:
        stacks[u.at, u.side, u.type] = stacks.get((u.at, u.side, u.type), 0) + 1
    assert stacks == {("alpha", "reds", "infantry"): 3, ("alpha", "reds", "fighter"): 1,
                      ("alpha", "reds", "factory"): 1, ("1_sea_zone", "blue_men", "destroyer"): 2,
                      ("beta", "blue_men", "infantry"): 1, ("beta", "reds", "infantry"): 2}
    # ids: readable, numbered per side and type in file order, unique
    assert [u.id for u in s.units_in("alpha")] == ["reds_infantry_1", "reds_infantry_2", "reds_infantry_3",
                                                   "reds_fighter_1", "reds_factory_1"]
    assert [u.id for u in s.units_in("beta")] == ["blue_men_infantry_1", "reds_infantry_4", "reds_infantry_5"]
    assert len({u.id for u in s.units}) == len(s.units)
    # hitsTaken / unitDamage are kept as unit props; nothing else gets props
    assert s.unit("blue_men_destroyer_2").props == {"hits_taken": 1}
    assert s.unit("reds_factory_1").props == {"unit_damage": 2}
    assert s.unit("reds_infantry_1").props == {} and all(u.strength == 1 for u in s.units)
    # the ids are stable: a second import gives the same units
    assert to_scenario(parse_game_xml(UNITS, "units.xml")).scenario.units == s.units


def test_unit_types_carry_movement_and_domain() -> None:
    rs = to_scenario(parse_game_xml(UNITS, "units.xml")).scenario.ruleset
    inf, ftr, dd, fac, mil = (rs.unit_type(x) for x in ("infantry", "fighter", "destroyer", "factory", "militia"))
    assert (inf.movement, inf.properties) == (1, {"domain": "land", "attack": 1, "defense": 2})
    assert (ftr.movement, ftr.properties) == (4, {"domain": "air"})
    assert (dd.movement, dd.properties) == (2, {"domain": "sea", "hit_points": 1})
    assert (fac.movement, fac.properties) == (0, {"domain": "land", "infrastructure": True, "ground": False})
    assert (mil.movement, mil.properties) == (0, {"domain": "land"})  # no unitAttachment at all
    assert inf.name == "Infantry" and [t.id for t in rs.unit_types] == ["infantry", "fighter", "destroyer",
                                                                       "factory", "militia"]


def test_rail_options_take_only_the_land_units() -> None:
    from engine.rules.rail_options import RailOptionsAdjudicator

    s = to_scenario(parse_game_xml(UNITS, "units.xml")).scenario
    rules = RailOptionsAdjudicator(s, 1)
    assert rules.unit_reason(s.unit("reds_infantry_1")) is None
    for uid in ("reds_fighter_1", "blue_men_destroyer_1", "reds_factory_1"):
        reason = rules.unit_reason(s.unit(uid))
        assert reason is not None and "not a ground unit" in reason, uid


def test_placements_without_an_owner_go_to_a_neutral_side() -> None:
    xml = _units_xml('<unitPlacement unitType="infantry" territory="Beta" quantity="2"/>')
    result = to_scenario(parse_game_xml(xml, "units.xml"))
    s = result.scenario
    assert s.side("neutral").name == "Neutral"
    assert [u.id for u in s.units if u.side == "neutral"] == ["neutral_infantry_1", "neutral_infantry_2"]
    assert any("2 placed units have no owner" in w for w in result.warnings)
    assert not any(f.id == "neutral" for f in to_scenario(parse_game_xml(UNITS, "u.xml")).scenario.sides)


def test_an_owner_that_only_owns_territory_may_place_units() -> None:
    xml = (_units_xml('<unitPlacement unitType="infantry" territory="Beta" owner="Pirates"/>')
           .replace('<ownerInitialize>', '<ownerInitialize><territoryOwner territory="Beta" owner="Pirates"/>'))
    s = to_scenario(parse_game_xml(xml, "units.xml")).scenario
    assert s.unit("pirates_infantry_1").at == "beta" and s.side("pirates").name == "Pirates"


P = '<unitPlacement unitType="{t}" territory="{w}" quantity="{q}" owner="{o}"/>'
MILITIA = '<attachment name="unitAttachment" attachTo="militia" javaClass="x.UnitAttachment" type="unitType">{}</attachment>'


@pytest.mark.parametrize("placement, attachment, words", [
    (P.format(t="infantry", w="Atlantis", q=1, o="Reds"), "",
     "<unitPlacement> number 8 (infantry in Atlantis) names the territory 'Atlantis', which the game does not declare"),
    (P.format(t="tank", w="Alpha", q=1, o="Reds"), "",
     "(tank in Alpha) names the unit type 'tank', which is not in the <unitList>"),
    (P.format(t="infantry", w="Alpha", q=1, o="Martians"), "",
     "names the owner 'Martians', who is no player of the game (players: Blue Men, Reds)"),
    (P.format(t="infantry", w="Alpha", q="two", o="Reds"), "", "the quantity is 'two', not a whole number"),
    (P.format(t="infantry", w="Alpha", q="2.5", o="Reds"), "", "the quantity is '2.5', not a whole number"),
    (P.format(t="infantry", w="Alpha", q="", o="Reds"), "", "the quantity is '', not a whole number"),
    (P.format(t="infantry", w="Alpha", q="\uff11\uff12", o="Reds"), "", "not a whole number"),  # fullwidth 12
    (P.format(t="infantry", w="Alpha", q="-3", o="Reds"), "", "the quantity is '-3', a negative number"),
    (P.format(t="infantry", w="Alpha", q="100001", o="Reds"), "",
     "the quantity is 100001; at most 100,000 is accepted"),
    (P.format(t="infantry", w="Alpha", q="9" * 5000, o="Reds"), "", "at most 100,000 is accepted"),
    (P.format(t="infantry", w="Alpha", q=60000, o="Reds") * 2, "",
     "the unit placements add up to more than 100,000 units (passed at <unitPlacement> number 9)"),
    ('<unitPlacement unitType="infantry" territory="Alpha" owner="Reds" hitsTaken="-1"/>', "",
     "hitsTaken is '-1', a negative number"),
    ('<unitPlacement unitType="infantry" territory="Alpha" owner="Reds" unitDamage="lots"/>', "",
     "unitDamage is 'lots', not a whole number"),
    ('<unitPlacement territory="Alpha" owner="Reds"/>', "", "<unitPlacement> number 8 has no 'unitType' attribute"),
    ('<unitPlacement unitType="infantry" owner="Reds"/>', "", "<unitPlacement> number 8 has no 'territory'"),
    ("", MILITIA.format('<option name="movement" value="fast"/>'),
     "unit type 'militia': option 'movement' is 'fast', not a whole number"),
    ("", MILITIA.format('<option name="movement" value="-1"/>'), "option 'movement' is '-1', a negative number"),
    ("", MILITIA.format('<option name="isAir" value="true"/><option name="isSea" value="true"/>'),
     "unit type 'militia' is both isAir and isSea"),
])
def test_bad_placements_and_unit_types_are_refused_clearly(placement: str, attachment: str, words: str) -> None:
    with pytest.raises(TripleAError, match="units.xml: .*" + re.escape(words)):
        parse_game_xml(_units_xml(placement, attachment), "units.xml")


def test_placements_at_the_limit_are_imported() -> None:
    from engine.io.triplea import MAX_UNITS

    xml = _units_xml(P.format(t="infantry", w="Beta", q=MAX_UNITS - 10, o="Reds"))
    s = to_scenario(parse_game_xml(xml, "units.xml")).scenario
    assert len(s.units) == MAX_UNITS and s.units[-1].id == f"reds_infantry_{MAX_UNITS - 10 + 5}"


def test_import_command_counts_units(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "units.xml"
    game.write_text(UNITS, encoding="utf-8")
    out = tmp_path / "units.json"
    assert main(["import-triplea", str(game), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["units"] == 10 and data["unit_types"] == 5
    assert main(["import-triplea", str(game), "--out", str(out)]) == 0
    assert "2 sides, 10 units of 5 unit types" in capsys.readouterr().out
    s = load_any(out)
    assert isinstance(s, TerritoryScenario) and len(s.units) == 10 and s.ruleset.unit_type("fighter").movement == 4


def _placed(path: Path) -> dict[tuple[str, str, str], int]:
    """(owner, territory, unit type) → units, read from the game XML by the
    standard library parser, independently of the importer (comments are not
    elements, so commented-out placements are left out)."""
    import xml.etree.ElementTree as ET

    out: dict[tuple[str, str, str], int] = {}
    for p in ET.parse(path).getroot().iter("unitPlacement"):
        key = (p.get("owner", "Neutral"), p.get("territory", ""), p.get("unitType", ""))
        out[key] = out.get(key, 0) + int(p.get("quantity", "1"))
    return out


@needs_g40
@pytest.mark.parametrize("edition, placements, units, germany_infantry", [
    ("ww2global40_2nd_edition.xml", 361, 589, 11),
    ("ww2global40.xml", 338, 524, 6),
])
def test_global_1940_starting_armies(edition: str, placements: int, units: int, germany_infantry: int) -> None:
    path = G40 / edition
    expected = _placed(path)
    text = re.sub(r"<!--.*?-->", "", path.read_text("utf-8"), flags=re.DOTALL)
    assert len(re.findall(r"<unitPlacement\b", text)) == placements
    assert sum(expected.values()) == units
    g = parse_game_xml(path.read_bytes(), edition)
    assert len(g.placements) == placements
    s = to_scenario(g).scenario
    assert len(s.units) == units
    got: dict[tuple[str, str, str], int] = {}
    for u in s.units:
        key = (s.side(u.side).name, s.map.territories[u.at].name, u.type)
        got[key] = got.get(key, 0) + 1
    assert got == expected
    assert expected["Germans", "Germany", "infantry"] == germany_infantry
    assert sum(1 for u in s.units_in("germany") if u.side == "germans" and u.type == "infantry") == germany_infantry
    rs = s.ruleset
    assert rs.unit_type("infantry").movement == 1 and rs.unit_type("infantry").properties["domain"] == "land"
    assert rs.unit_type("armour").movement == 2 and rs.unit_type("bomber").properties["domain"] == "air"
    assert rs.unit_type("battleship").properties["domain"] == "sea"
    assert rs.unit_type("factory_major").properties["ground"] is False


@needs_g40
def test_global_1940_with_units_saves_reloads_and_rails(tmp_path: Path) -> None:
    from engine.io.territory import territory_scenario_to_data
    from engine.rules.rail_options import RailOptionsAdjudicator

    g = parse_game_xml((G40 / "ww2global40_2nd_edition.xml").read_bytes(), "g40")
    polys = parse_polygons((G40 / "polygons.txt").read_text(encoding="utf-8"))
    centers = parse_centers((G40 / "centers.txt").read_text(encoding="utf-8"))
    s = to_scenario(g, polys, centers, wrap_x=True).scenario
    out = tmp_path / "g40.json"
    from engine.io import save_any

    save_any(s, out)
    back = load_any(out)
    assert isinstance(back, TerritoryScenario)
    assert back.units == s.units and back.ruleset.unit_types == s.ruleset.unit_types
    assert territory_scenario_to_data(back) == territory_scenario_to_data(s)
    # Rail Options on the imported armies: a German infantry in Germany, with
    # stations in Germany and the German land around it
    germany = back.territory("Germany")
    held = [germany.id] + [n for n in back.map.neighbours(germany.id)
                           if back.map.territories[n].land and back.map.territories[n].controller == "germans"]
    assert len(held) > 1
    for tid in held:
        back.map.territories[tid].features.update(rail_station={}, railroad={})
    back.state["rail_options"] = {"income": {"germans": 30}}
    inf = next(u for u in back.units_in(germany.id) if u.type == "infantry" and u.side == "germans")
    reach = RailOptionsAdjudicator(back, 1).reach(inf.id)
    assert reach.reason == "" and {d.territory for d in reach.destinations} >= set(held[1:])
    bomber = next(u for u in back.units_in(germany.id) if u.type == "bomber")
    assert "not a ground unit" in RailOptionsAdjudicator(back, 1).reach(bomber.id).reason


# -- hostile names (issue 22): every output loads, or the refusal names the element ----------------

HOSTILE_NAMES = ["France", "FRANCE", "france", "!!!", "???", "Unit One", "  spaced  ", "Ünïcödé", "Österreich",
                 ".dot", "_", "9", "a.b", "日本", "A", "a", "Sea Zone 1", "Sea  Zone 1", "x" * 200]


def _hostile_game(territories: list[str], players: list[str], units: list[str], production: list[int]) -> str:
    from xml.sax.saxutils import quoteattr

    water = ' water="true"'
    terr = "".join(f"<territory name={quoteattr(t)}{water if i % 3 == 2 else ''}/>" for i, t in enumerate(territories))
    conns = "".join(f"<connection t1={quoteattr(a)} t2={quoteattr(b)}/>" for a, b in zip(territories, territories[1:]))
    pl = "".join(f"<player name={quoteattr(p)}/><alliance player={quoteattr(p)} alliance={quoteattr(p + ' side')}/>"
                 for p in players)
    ul = "".join(f"<unit name={quoteattr(u)}/>" for u in units)
    atts = "".join(
        f'<attachment name="territoryAttachment" attachTo={quoteattr(t)} '
        f'javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">'
        f'<option name="production" value="{v}"/></attachment>' for t, v in zip(territories, production))
    owners = "".join(f"<territoryOwner territory={quoteattr(t)} owner={quoteattr(players[i % len(players)])}/>"
                     for i, t in enumerate(territories)) if players else ""
    places = "".join(f"<unitPlacement unitType={quoteattr(units[i % len(units)])} territory={quoteattr(t)} "
                     f"quantity=\"2\" owner={quoteattr(players[i % len(players)])}/>"
                     for i, t in enumerate(territories)) if players and units else ""
    return (f'<?xml version="1.0"?><game><info name="Hostile" version="1"/><map>{terr}{conns}</map>'
            f"<playerList>{pl}</playerList><unitList>{ul}</unitList><attachmentList>{atts}</attachmentList>"
            f"<initialize><ownerInitialize>{owners}</ownerInitialize>"
            f"<unitInitialize>{places}</unitInitialize></initialize></game>")


def _import_and_load(xml: str, tmp_path: Path, polygons: str | None = None) -> None:
    """Import through the CLI: exit 0 and an output that loads, or exit 1 with
    a message naming the file and the element (never a traceback)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    game = tmp_path / "game.xml"
    game.write_text(xml, encoding="utf-8")
    out = tmp_path / "out.json"
    out.unlink(missing_ok=True)
    args = ["import-triplea", str(game), "--out", str(out), "--force"]
    if polygons is not None:
        (tmp_path / "polygons.txt").write_text(polygons, encoding="utf-8")
        args += ["--polygons", str(tmp_path / "polygons.txt")]
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(args)
    if code == 0:
        s = load_any(out)
        assert isinstance(s, TerritoryScenario)
    else:
        assert code == 1 and "Traceback" not in err.getvalue(), err.getvalue()
        assert str(game) in err.getvalue() or "polygons" in err.getvalue(), err.getvalue()
        assert re.search(r"<\w+>|'[^']*'", err.getvalue()), err.getvalue()  # the element or name at fault
        assert not out.exists()


@pytest.mark.parametrize("pair", [("France", "FRANCE"), ("!!!", "???"), ("Ünïcödé", "Österreich"), ("日本", "_")])
def test_names_colliding_after_slugging_import_and_load(pair: tuple[str, str], tmp_path: Path) -> None:
    _import_and_load(_hostile_game(list(pair) + ["Gamma"], list(pair), list(pair), [1, 2, 3]), tmp_path)


def test_unit_names_with_spaces_dots_and_letters_import_and_load(tmp_path: Path) -> None:
    units = ["Unit One", ".dot", "Ünïcödé", "a.b", "9"]
    _import_and_load(_hostile_game(["A", "B", "C"], ["Reds", "Blues"], units, [1, 2, 3]), tmp_path)


@pytest.mark.parametrize("n", [60, 61, 63, 70])
def test_many_players_import_or_are_refused_by_element(n: int, tmp_path: Path) -> None:
    _import_and_load(_hostile_game(["A", "B", "C"], [f"P{i}" for i in range(n)], ["inf"], [1, 2, 3]), tmp_path)


def test_repeated_players_negative_production_and_coordinates(tmp_path: Path) -> None:
    _import_and_load(_hostile_game(["A", "B", "C"], ["Reds", "Reds"], ["inf"], [1, 2, 3]), tmp_path / "a")
    _import_and_load(_hostile_game(["A", "B", "C"], ["Reds"], ["inf"], [1, -2, 3]), tmp_path / "b")
    _import_and_load(_hostile_game(["A", "B", "C"], ["Reds"], ["inf"], [1, 2**70, 3]), tmp_path / "c")
    _import_and_load(_hostile_game(["A", "B", "C"], ["Reds"], ["inf"], [1, 2, 3]), tmp_path / "d",
                     "A < (-5,0) (10,0) (10,10) (0,10) >\nB < (0,0) (1e308,0) (1e308,1e308) >\n")


@settings(max_examples=int(os.environ.get("ADJUTANT_TRIPLEA_EXAMPLES", "25")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(territories=st.lists(st.sampled_from(HOSTILE_NAMES) | st.text(min_size=1, max_size=8), min_size=1,
                            max_size=8, unique=True),
       players=st.lists(st.sampled_from(HOSTILE_NAMES) | st.text(min_size=1, max_size=8), min_size=1, max_size=5),
       units=st.lists(st.sampled_from(HOSTILE_NAMES) | st.text(min_size=1, max_size=8), min_size=1, max_size=4,
                      unique=True),
       production=st.lists(st.integers(-5, 2**64), max_size=8))
def test_generated_hostile_games_import_and_load(territories: list[str], players: list[str], units: list[str],
                                                 production: list[int], tmp_path: Path) -> None:
    xml = _hostile_game(territories, players, units, production)
    try:
        from xml.etree import ElementTree as ET

        ET.fromstring(xml.encode("utf-8", "surrogatepass"))
    except (ET.ParseError, UnicodeEncodeError):
        return  # text XML itself cannot hold (control characters, surrogates): no game to import
    _import_and_load(xml, tmp_path)
