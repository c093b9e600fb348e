"""TripleA import: the real World War II Global 1940 files (read from
../shared/data, never copied) and malformed or hostile input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.cli import main
from engine.scenario_io import load_any
from engine.territory import TerritoryScenario
from engine.territory.model import BorderKind
from engine.territory.triplea import TripleAError, parse_centers, parse_game_xml, parse_polygons, to_scenario

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
    from engine.territory.rail import RailOrder, plan

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
