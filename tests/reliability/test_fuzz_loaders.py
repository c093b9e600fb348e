"""Hostile input: property-based fuzzing of every loader.

Loaders and their documented refusals:

* scenario JSON (``engine.io.loads_any`` / ``loads_scenario`` /
  ``load_any``, grid and territory maps): :class:`ScenarioError`;
* Tiled TMX and Tiled JSON (``engine.io.tiled.import_tiled``, which
  reads the map and its tilesets from disk): :class:`TiledError`;
* TripleA game XML, ``polygons.txt`` and ``centers.txt``
  (``engine.io.triplea``) and the scenario built from them:
  :class:`TripleAError`.

Every generated input (byte-level mutations of real files, structural
mutations of their decoded JSON, and wholly random text) must be either
loaded or refused with the documented error, whose message names the input;
no input may take more than a second of CPU time.  The short forms run
:data:`SHORT_EXAMPLES` (200) inputs per loader; the ``slow`` forms
:data:`LONG_EXAMPLES` (10,000).  Targeted tests cover what random mutation
rarely reaches: entity expansion and external entities, declared sizes far
beyond the data, decompression bombs, tilesets naming devices.
"""

from __future__ import annotations

import base64
import itertools
import json
import tracemalloc
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reliability_kit import (
    LONG_EXAMPLES,
    SHORT_EXAMPLES,
    check_loader,
    fuzz_settings,
    max_rss_mb,
    mutated_json,
    mutated_text,
    to_bytes,
    to_text,
)

from engine.io import ScenarioError, load_any, loads_any, loads_scenario
from engine.io.triplea import TripleAError, parse_centers, parse_game_xml, parse_polygons, to_scenario

try:
    from engine.io.tiled import TiledError, export_tiled, import_tiled
except ImportError:  # the Tiled import/export is still being written
    export_tiled = import_tiled = None  # type: ignore[assignment]
    TiledError = ValueError  # type: ignore[assignment,misc]
needs_tiled = pytest.mark.skipif(import_tiled is None, reason="engine.io.tiled (Tiled import/export) is not there")

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*.json"))
SCENARIO_TEXTS = [p.read_text(encoding="utf-8") for p in MAPS]
SCENARIO_DATA = [json.loads(t) for t in SCENARIO_TEXTS]

RSS_GROWTH_LIMIT_MB = 300
"""Peak memory may grow at most this much over one fuzz run (no input may blow memory up)."""


def _warm() -> None:
    """First calls compile the JSON Schema and import parsers: not the input's cost."""
    for t in SCENARIO_TEXTS[:1]:
        loads_any(t, "warm.json")


_warm()


# ---------------------------------------------------------------------------
# scenario JSON

def _scenario_text(text: str) -> None:
    check_loader(lambda: loads_any(text, "fuzz.json"), ScenarioError, "fuzz.json", "loads_any")
    check_loader(lambda: loads_scenario(text, "fuzz.json"), ScenarioError, "fuzz.json", "loads_scenario")


SCENARIO_INPUTS = st.one_of(
    mutated_text(SCENARIO_TEXTS),
    mutated_json(SCENARIO_DATA).map(to_text),
    st.text(max_size=200),
)


def _scenario_fuzz(n: int) -> None:
    before = max_rss_mb()

    @fuzz_settings(n)
    @given(SCENARIO_INPUTS)
    def run(text: str) -> None:
        _scenario_text(text)

    run()
    assert max_rss_mb() - before < RSS_GROWTH_LIMIT_MB


def test_fuzz_scenario_json_short() -> None:
    _scenario_fuzz(SHORT_EXAMPLES)


@pytest.mark.slow
def test_fuzz_scenario_json_long() -> None:
    _scenario_fuzz(LONG_EXAMPLES)


def test_scenario_files_from_disk_any_bytes(tmp_path: Path) -> None:
    """``load_any`` on raw bytes: invalid UTF-8, NUL bytes, a BOM, empty files, folders."""
    p = tmp_path / "x.json"

    @fuzz_settings(SHORT_EXAMPLES)
    @given(st.one_of(st.binary(max_size=300), mutated_text(SCENARIO_TEXTS).map(to_bytes),
                     st.sampled_from([b"", b"\xef\xbb\xbf" + SCENARIO_TEXTS[0].encode(), b"\xff\xfe{", b"\x00" * 64])))
    def run(raw: bytes) -> None:
        p.write_bytes(raw)
        check_loader(lambda: load_any(p), ScenarioError, str(p), "load_any")

    run()
    check_loader(lambda: load_any(tmp_path), ScenarioError, str(tmp_path), "load_any on a folder")
    check_loader(lambda: load_any(tmp_path / "missing.json"), ScenarioError, "missing.json", "load_any on nothing")


@pytest.mark.parametrize("width, height", [(4096, 4096), (4097, 1), (10**9, 10**9), (2**63, 1), (0, 5), (-3, 4)])
def test_declared_size_costs_nothing_before_the_data_is_checked(width: int, height: int) -> None:
    """A small file declaring a huge grid is refused quickly and without
    allocating the grid (peak traced memory well under the grid's size)."""
    for data in SCENARIO_DATA:
        if data["map"]["grid"].get("kind") == "territory":
            continue
        d = json.loads(json.dumps(data))
        d["map"]["grid"]["width"], d["map"]["grid"]["height"] = width, height
        text = json.dumps(d)
        tracemalloc.start()
        try:
            check_loader(lambda text=text: loads_any(text, "big.json"), ScenarioError, "big.json", "declared size")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 32 * 1024 * 1024, f"{peak / 2**20:.0f} MiB allocated for a {len(text)}-byte file"


def test_deep_nesting_and_huge_numbers_are_refused_clearly() -> None:
    for text in ("[" * 100000 + "]" * 100000, '{"a":' * 50000 + "1" + "}" * 50000, "1" * 100000,
                 '{"format": "adjutant-scenario", "version": 1e400}', "\"" + "\\u0000" * 10000 + "\""):
        check_loader(lambda text=text: loads_any(text, "deep.json"), ScenarioError, "deep.json", "nesting")


# ---------------------------------------------------------------------------
# Tiled TMX and JSON

def _tiled_seeds(folder: Path) -> list[tuple[str, str]]:
    """(suffix, text) of Tiled maps Adjutant exports from its sample maps,
    square and hex, TMX and JSON (each with its tileset image beside it)."""
    seeds = []
    for p in MAPS:
        try:
            s = loads_scenario(p.read_text(encoding="utf-8"), str(p))
        except ScenarioError:
            continue  # a territory map: Tiled export is for grids
        for suffix in (".tmx", ".json"):
            out = folder / f"{p.stem}{suffix}"
            export_tiled(s, out)
            seeds.append((suffix, out.read_text(encoding="utf-8")))
    return seeds


@pytest.fixture(scope="module")
def tiled_dir(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str]]]:
    folder = tmp_path_factory.mktemp("tiled")
    seeds = _tiled_seeds(folder)
    assert {s for s, _ in seeds} == {".tmx", ".json"}
    for suffix, text in seeds[:2]:  # the seeds themselves load
        p = folder / f"seed{suffix}"
        p.write_text(text, encoding="utf-8")
        import_tiled(p)
    return folder, seeds


def _tiled_fuzz(tiled: tuple[Path, list[tuple[str, str]]], n: int) -> None:
    folder, seeds = tiled
    tmx = [t for s, t in seeds if s == ".tmx"]
    tjs = [t for s, t in seeds if s == ".json"]
    tjs_data = [json.loads(t) for t in tjs]
    before = max_rss_mb()
    counter = itertools.count()

    @fuzz_settings(n)
    @given(st.one_of(
        st.tuples(st.just(".tmx"), mutated_text(tmx)),
        st.tuples(st.just(".json"), mutated_text(tjs)),
        st.tuples(st.just(".json"), mutated_json(tjs_data).map(to_text)),
        st.tuples(st.sampled_from((".tmx", ".json")), st.text(max_size=200)),
    ))
    def run(case: tuple[str, str]) -> None:
        suffix, text = case
        p = folder / f"fuzz{next(counter) % 4}{suffix}"
        p.write_bytes(to_bytes(text))
        check_loader(lambda: import_tiled(p), TiledError, str(p), "import_tiled")

    run()
    assert max_rss_mb() - before < RSS_GROWTH_LIMIT_MB


@needs_tiled
def test_fuzz_tiled_short(tiled_dir: tuple[Path, list[tuple[str, str]]]) -> None:
    _tiled_fuzz(tiled_dir, SHORT_EXAMPLES)


@needs_tiled
@pytest.mark.slow
def test_fuzz_tiled_long(tiled_dir: tuple[Path, list[tuple[str, str]]]) -> None:
    _tiled_fuzz(tiled_dir, LONG_EXAMPLES)


TMX_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" '
            'tilewidth="32" tileheight="32" infinite="0">\n'
            ' <tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="1" columns="1">\n'
            '  <image source="t.png" width="32" height="32"/>\n </tileset>\n')


def _tmx(w: int, h: int, data: str, encoding: str = 'encoding="csv"', head: str = "") -> str:
    return head + TMX_HEAD.format(w=w, h=h) + (f' <layer id="1" name="terrain" width="{w}" height="{h}">'
                                               f'<data {encoding}>{data}</data></layer>\n</map>\n')


BILLION_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE map [\n <!ENTITY a "aaaaaaaaaa">\n'
                  ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n'
                  ' <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">\n]>\n'
                  '<map version="1.10" orientation="&d;" width="1" height="1" tilewidth="32" tileheight="32"/>\n')
XXE = ('<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
       '<map version="1.10" orientation="&secret;" width="1" height="1" tilewidth="32" tileheight="32"/>\n')
XXE_PARAM = ('<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY % ext SYSTEM "http://example.invalid/x.dtd"> %ext;]>\n'
             '<map version="1.10" orientation="orthogonal" width="1" height="1" tilewidth="32" tileheight="32"/>\n')


def _bomb(n: int) -> str:
    return base64.b64encode(zlib.compress(b"\x01\x00\x00\x00" * n, 9)).decode()


@needs_tiled
@pytest.mark.parametrize("name, text, words", [
    ("laughs", BILLION_LAUGHS, "entities"),
    ("xxe", XXE, "entities"),
    ("xxe-param", XXE_PARAM, ""),
    ("declared-huge", _tmx(100000, 100000, "1"), "larger than"),
    ("declared-huge-within-limit", _tmx(4096, 4096, "1,1,1"), ""),
    ("declared-negative", _tmx(-5, 3, "1"), ""),
    ("zlib-bomb", _tmx(4, 4, _bomb(50_000_000), 'encoding="base64" compression="zlib"'), ""),
    ("zlib-short", _tmx(64, 64, _bomb(10), 'encoding="base64" compression="zlib"'), ""),
    ("tileset-device", TMX_HEAD.format(w=2, h=2).replace(
        '<tileset firstgid="1" name="t"', '<tileset firstgid="1" source="/dev/zero"/><tileset firstgid="9" name="t"')
     + ' <layer id="1" name="terrain" width="2" height="2"><data encoding="csv">9,9,9,9</data></layer>\n</map>\n', ""),
    ("tileset-self", TMX_HEAD.format(w=2, h=2).replace(
        '<tileset firstgid="1" name="t"', '<tileset firstgid="1" source="self.tmx"/><tileset firstgid="9" name="t"')
     + ' <layer id="1" name="terrain" width="2" height="2"><data encoding="csv">9,9,9,9</data></layer>\n</map>\n', ""),
    ("gid-huge", _tmx(2, 2, "1,4294967295,99999999,1"), ""),
])
def test_hostile_tmx_is_refused_quickly_and_small(tmp_path: Path, name: str, text: str, words: str) -> None:
    p = tmp_path / ("self.tmx" if name == "tileset-self" else f"{name}.tmx")
    p.write_text(text, encoding="utf-8")
    (tmp_path / "t.png").write_bytes(b"")
    tracemalloc.start()
    try:
        result = check_loader(lambda: import_tiled(p), TiledError, str(p), name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    if name in ("laughs", "xxe", "xxe-param", "declared-huge", "declared-negative", "zlib-bomb", "tileset-device",
                "tileset-self", "zlib-short"):
        assert result is None, f"{name} was accepted"
    if words:
        with pytest.raises(TiledError, match=words):
            import_tiled(p)
    assert peak < 64 * 1024 * 1024, f"{name}: {peak / 2**20:.0f} MiB"


@needs_tiled
def test_tmx_with_an_unknown_encoding_is_refused_clearly(tmp_path: Path) -> None:
    p = tmp_path / "enc.tmx"
    p.write_text(_tmx(2, 2, "1,1,1,1").replace('encoding="UTF-8"', 'encoding="TF-8"'), encoding="utf-8")
    check_loader(lambda: import_tiled(p), TiledError, str(p), "unknown encoding")


def _tiled_json_variants() -> list[tuple[str, dict, bool]]:
    """(name, Tiled JSON map, must be refused)."""
    base = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 32,
            "infinite": False, "tilesets": [{"firstgid": 1, "name": "t", "tilewidth": 32, "tileheight": 32,
                                             "tilecount": 1, "columns": 1, "image": "t.png", "imagewidth": 32,
                                             "imageheight": 32}],
            "layers": [{"type": "tilelayer", "name": "terrain", "width": 2, "height": 2, "data": [1, 1, 1, 1]}]}
    out: list[tuple[str, dict, bool]] = []
    for key, value, refuse in (("width", 10**12, True), ("height", -1, True), ("width", "2", True),
                               ("tilewidth", 0, False), ("layers", None, False),
                               ("tilesets", [{"firstgid": 1, "source": "/dev/zero"}], True),
                               ("orientation", "isometric", True), ("infinite", True, True)):
        d = json.loads(json.dumps(base))
        d[key] = value
        out.append((f"{key}={str(value)[:20]}", d, refuse))
    d = json.loads(json.dumps(base))
    d["layers"][0]["data"] = [1] * 10
    out.append(("data too long", d, True))
    d = json.loads(json.dumps(base))
    d["layers"][0] = {"type": "group", "layers": [{"type": "group", "layers": []}] * 3}
    out.append(("empty groups", d, False))
    deep: dict = {"type": "tilelayer", "name": "terrain", "width": 2, "height": 2, "data": [1, 1, 1, 1]}
    for _ in range(20000):
        deep = {"type": "group", "layers": [deep]}
    out.append(("groups nested 20,000 deep", {**base, "layers": [deep]}, False))
    return out


@needs_tiled
def test_hostile_tiled_json_is_refused_quickly(tmp_path: Path) -> None:
    p = tmp_path / "m.json"
    for name, v, refuse in _tiled_json_variants():
        try:
            text = json.dumps(v)
        except RecursionError:
            text = "{" + '"type":"map","layers":[' + '{"type":"group","layers":[' * 20000 + "]}" * 20000 + "]}"
        p.write_text(text, encoding="utf-8")
        result = check_loader(lambda: import_tiled(p), TiledError, str(p), f"json {name}")
        assert not refuse or result is None, f"{name} was accepted"


@needs_tiled
def test_tiled_json_with_a_huge_integer_is_refused_clearly(tmp_path: Path) -> None:
    p = tmp_path / "m.json"
    p.write_text('{"type": "map", "width": ' + "9" * 5000 + "}", encoding="utf-8")
    check_loader(lambda: import_tiled(p), TiledError, str(p), "huge integer")


# ---------------------------------------------------------------------------
# TripleA

MINI_XML = """<?xml version="1.0"?>
<!DOCTYPE game SYSTEM "game.dtd">
<game>
  <info name="Mini" version="1"/>
  <map>
    <territory name="Alpha"/>
    <territory name="Beta"/>
    <territory name="Gamma"/>
    <territory name="1 Sea Zone" water="true"/>
    <connection t1="Alpha" t2="Beta"/>
    <connection t1="Beta" t2="Gamma"/>
    <connection t1="Alpha" t2="1 Sea Zone"/>
  </map>
  <playerList>
    <player name="Reds" optional="false"/>
    <player name="Blues" optional="false"/>
    <alliance player="Reds" alliance="Axis"/>
    <alliance player="Blues" alliance="Allies"/>
  </playerList>
  <unitList><unit name="infantry"/><unit name="fighter"/></unitList>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="fighter"
        javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">
      <option name="movement" value="4"/><option name="isAir" value="true"/>
    </attachment>
    <attachment name="territoryAttachment" attachTo="Alpha"
        javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory">
      <option name="production" value="4"/>
    </attachment>
    <attachment name="canalAttachment" attachTo="1 Sea Zone"
        javaClass="games.strategy.triplea.attachments.CanalAttachment" type="territory">
      <option name="canalName" value="Kiel"/><option name="landTerritories" value="Alpha"/>
    </attachment>
  </attachmentList>
  <initialize><ownerInitialize>
    <territoryOwner territory="Alpha" owner="Reds"/><territoryOwner territory="Beta" owner="Blues"/>
  </ownerInitialize>
  <unitInitialize>
    <unitPlacement unitType="infantry" territory="Alpha" quantity="3" owner="Reds"/>
    <unitPlacement unitType="fighter" territory="Beta" quantity="1" owner="Blues" hitsTaken="1"/>
  </unitInitialize></initialize>
</game>
"""
POLYGONS = ("Alpha  <  (0,0) (10,0) (10,10) (0,10) >\n"
            "Beta  <  (10,0) (20,0) (20,10) (10,10) >  <  (30,0) (40,0) (40,10) >\n"
            "Gamma  <  (20,0) (30,0) (30,10) (20,10) (20,0) >\n"
            "1 Sea Zone  <  (0,10) (40,10) (40,30) (0,30) >\n")
CENTERS = "Alpha  (5,5)\nBeta  (15,5)\nGamma  (25,5)\n1 Sea Zone  (20,20)\n"


def _triplea(xml: str, polygons: str | None, centers: str | None) -> None:
    game = check_loader(lambda: parse_game_xml(xml, "game.xml"), TripleAError, "game.xml", "parse_game_xml")
    polys = None if polygons is None else check_loader(
        lambda: parse_polygons(polygons, "polygons.txt"), TripleAError, "polygons.txt", "parse_polygons")
    cents = None if centers is None else check_loader(
        lambda: parse_centers(centers, "centers.txt"), TripleAError, "centers.txt", "parse_centers")
    if game is not None:
        check_loader(lambda: to_scenario(game, polys, cents), TripleAError, None, "to_scenario")


def test_the_triplea_seeds_import() -> None:
    game = parse_game_xml(MINI_XML, "game.xml")
    s = to_scenario(game, parse_polygons(POLYGONS), parse_centers(CENTERS)).scenario
    assert len(s.map) == 4
    assert sorted((u.type, u.at) for u in s.units) == [("fighter", "beta")] + [("infantry", "alpha")] * 3


def _triplea_fuzz(n: int) -> None:
    before = max_rss_mb()

    @fuzz_settings(n)
    @given(st.one_of(
        st.tuples(mutated_text([MINI_XML]), st.just(POLYGONS), st.just(CENTERS)),
        st.tuples(st.just(MINI_XML), mutated_text([POLYGONS]), st.just(CENTERS)),
        st.tuples(st.just(MINI_XML), st.just(POLYGONS), mutated_text([CENTERS])),
        st.tuples(mutated_text([MINI_XML]), st.none() | mutated_text([POLYGONS]), st.none() | st.text(max_size=80)),
        st.tuples(st.text(max_size=200), st.text(max_size=200), st.text(max_size=200)),
    ))
    def run(case: tuple[str, str | None, str | None]) -> None:
        _triplea(*case)

    run()
    assert max_rss_mb() - before < RSS_GROWTH_LIMIT_MB


def test_fuzz_triplea_short() -> None:
    _triplea_fuzz(SHORT_EXAMPLES)


@pytest.mark.slow
def test_fuzz_triplea_long() -> None:
    _triplea_fuzz(LONG_EXAMPLES)


@pytest.mark.parametrize("xml", [
    ('<?xml version="1.0"?>\n<!DOCTYPE game [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
     '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><game><info name="&c;"/></game>'),
    '<?xml version="1.0"?>\n<!DOCTYPE game [<!ENTITY s SYSTEM "file:///etc/passwd">]><game><info name="&s;"/></game>',
    '<?xml version="1.0"?>\n<!DOCTYPE game [<!ENTITY % p SYSTEM "http://example.invalid/p.dtd"> %p;]><game/>',
    '<?xml version="1.0"?>\n<!DOCTYPE game [<!ENTITY s SYSTEM "/dev/zero">]><game><info name="&s;"/></game>',
])
def test_triplea_entity_expansion_and_external_entities_are_refused(xml: str) -> None:
    assert check_loader(lambda: parse_game_xml(xml, "evil.xml"), TripleAError, "evil.xml", "evil") is None


def test_triplea_xml_with_an_unknown_encoding_is_refused_clearly() -> None:
    xml = MINI_XML.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="TF-8"?>')
    assert check_loader(lambda: parse_game_xml(xml, "enc.xml"), TripleAError, "enc.xml", "encoding") is None


def test_triplea_polygon_extremes() -> None:
    for text in ("A < " + " ".join(f"({i},0)" for i in range(50000)) + " (0,5) >",  # many points, simple ring
                 "A < (0,0) (1e308,0) (1e308,1e308) >", "A < (0,0) (nan,0) (1,1) >", "A < (0,0) (inf,0) (1,1) >",
                 "A < (0,0) (1,0) (0,1) (1,1) >",  # a bow tie
                 "A < (0,0) (0,0) (0,0) (1,1) >", "A" * 100000 + " < (0,0) (1,0) (0,1) >"):
        polys = check_loader(lambda text=text: parse_polygons(text, "polygons.txt"), TripleAError, "polygons.txt",
                             text[:40])
        if polys is not None:
            game = parse_game_xml('<game><map><territory name="A"/></map></game>', "g.xml")
            check_loader(lambda g=game, p=polys: to_scenario(g, p), TripleAError, None, "to_scenario " + text[:40])


def test_triplea_self_intersecting_polygon_is_handled_within_a_second() -> None:
    """A ring crossing itself thousands of times (shapely's make_valid was super-linear on it)."""
    game = parse_game_xml('<game><map><territory name="A"/></map></game>', "g.xml")
    for n in (2000, 8000, 50000):
        for pts in ((f"({i},{i * i % 97})" for i in range(n)), (f"({i},{i % 2})" for i in range(n))):
            polys = parse_polygons("A < " + " ".join(pts) + " >", "polygons.txt")
            check_loader(lambda p=polys: to_scenario(game, p), TripleAError, None, f"zigzag polygon of {n} points")
