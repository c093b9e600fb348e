"""Tiled import (engine.io.tiled): Tiled's own example maps, every
layer encoding, gids with flip bits, external tilesets, terrain mapping, and
malformed or hostile files refused with a message naming file and place."""

from __future__ import annotations

import base64
import gzip
import json
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.io import MAX_CELLS, MAX_SIDE
from engine.io.tiled import TiledError, import_tiled, load_terrain_map
from engine.io.tiled.format import _decode_csv, _decode_csv_items

EXAMPLES = Path("/usr/share/doc/tiled/examples")


def _example_files() -> list[Path]:
    if not EXAMPLES.is_dir():
        return []
    return sorted(p for p in EXAMPLES.rglob("*") if p.name.endswith((".tmx", ".tmx.gz")))


def _attrs(p: Path) -> dict[str, str]:
    raw = p.read_bytes()
    if p.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    return dict(ET.fromstring(raw).attrib)  # Tiled's own trusted example files


def _grid_examples() -> list[Path]:
    return [p for p in _example_files() if _attrs(p).get("orientation") in ("orthogonal", "hexagonal")]


needs_examples = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="Tiled's example maps are not installed "
                                    "(Debian package 'tiled': /usr/share/doc/tiled/examples)")


@needs_examples
def test_the_examples_include_the_hexagonal_ones() -> None:
    names = {p.name for p in _grid_examples()}
    assert {"hexagonal-mini.tmx", "test_hexagonal_tile_60x60x30.tmx", "desert.tmx"} <= names


def _grouping_map(p: Path, tmp_path: Path) -> Path:
    """A terrain map putting every tile id of the map into one of a few
    terrain types (for a map using more tile ids than a scenario's 92 types)."""
    raw = p.read_bytes()
    if p.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    root = ET.fromstring(raw)
    gids: set[int] = set()
    for data in root.iter("data"):
        text = (data.text or "").strip()
        if data.get("encoding") == "csv":
            gids |= {int(t) & 0x0FFFFFFF for t in text.replace("\n", "").split(",") if t.strip()}
        elif data.get("encoding") == "base64":
            b = base64.b64decode(text)
            if data.get("compression") == "zlib":
                b = zlib.decompress(b)
            elif data.get("compression") == "gzip":
                b = gzip.decompress(b)
            gids |= set((np.frombuffer(b, "<u4") & 0x0FFFFFFF).tolist())
    m = tmp_path / "group.json"
    m.write_text(json.dumps({"tiles": {str(g): f"t{g % 10}" for g in gids}}), encoding="utf-8")
    return m


@needs_examples
@pytest.mark.parametrize("path", _grid_examples(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_tiled_example_imports_with_its_size_orientation_and_parity(path: Path, tmp_path: Path) -> None:
    a = _attrs(path)
    try:
        result = import_tiled(path)
    except TiledError as e:
        # more distinct tiles than a scenario holds terrain types: refused with
        # that reason, and imported when a terrain map groups them
        assert "more than the 92" in str(e) and str(path) in str(e)
        result = import_tiled(path, _grouping_map(path, tmp_path))
    g = result.scenario.map.grid.to_dict()
    assert (g["width"], g["height"]) == (int(a["width"]), int(a["height"]))
    assert result.report.orientation == a["orientation"]
    if a["orientation"] == "hexagonal":
        assert g["kind"] == "hex"
        # Tiled's renderer: staggeraxis x staggers columns (flat-top hexes), y rows (pointy-top)
        assert g["orientation"] == {"x": "flat", "y": "pointy"}[a["staggeraxis"]]
        assert g["parity"] == a["staggerindex"]
    else:
        assert g["kind"] == "square"
    assert result.scenario.map.terrain.shape == (int(a["height"]), int(a["width"]))


@needs_examples
def test_hexagonal_mini_cells_are_the_tiles_of_the_file(tmp_path: Path) -> None:
    p = EXAMPLES / "hexagonal-mini.tmx"
    root = ET.fromstring(p.read_bytes())
    data = root.find("layer/data")
    assert data is not None
    gids = _decode(data, int(root.get("width", 0)), int(root.get("height", 0)))
    r = import_tiled(p)
    s = r.scenario
    ids = [t.id for t in s.ruleset.terrain]
    by_gid = {t.gid: t.terrain for t in r.report.tiles}
    for (y, x), g in np.ndenumerate(gids):
        assert ids[s.map.terrain[y, x]] == by_gid[int(g) & 0x0FFFFFFF]
    # no terrain property in Tiled's example: every tile is reported, none dropped
    assert {t.gid for t in r.report.unmapped} == {int(g) & 0x0FFFFFFF for g in np.unique(gids)}
    assert sum(t.cells for t in r.report.tiles) == gids.size


def _decode(data: ET.Element, w: int, h: int) -> np.ndarray:
    text = (data.text or "").strip()
    if data.get("encoding") == "csv":
        return np.array([int(t) for t in text.replace("\n", "").split(",")], np.uint32).reshape(h, w)
    b = base64.b64decode(text)
    if data.get("compression") == "zlib":
        b = zlib.decompress(b)
    elif data.get("compression") == "gzip":
        b = gzip.decompress(b)
    return np.frombuffer(b, "<u4").reshape(h, w)


# ---------------------------------------------------------------------------
# hand-written maps

TILESET = ('<tileset firstgid="{first}" name="ts" tilewidth="32" tileheight="32" tilecount="4" columns="2">'
           '<image source="ts.png" width="64" height="64"/>'
           '<tile id="0"><properties><property name="terrain" value="clear"/></properties></tile>'
           '<tile id="1"><properties><property name="terrain" value="forest"/>'
           '<property name="move_cost" type="int" value="2"/></properties></tile>'
           '<tile id="2"><properties><property name="terrain" value="water"/></properties></tile>'
           '</tileset>')


def _tmx(w: int, h: int, data: str, encoding: str = "csv", compression: str | None = None,
         orientation: str = "orthogonal", extra: str = "", tileset: str | None = None, first: int = 1) -> str:
    comp = f' compression="{compression}"' if compression else ""
    ts = TILESET.format(first=first) if tileset is None else tileset
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="{orientation}" '
            f'renderorder="right-down" width="{w}" height="{h}" tilewidth="32" tileheight="32" {extra}>'
            f'{ts}<layer id="1" name="Ground" width="{w}" height="{h}">'
            f'<data encoding="{encoding}"{comp}>{data}</data></layer></map>')


GIDS = np.array([[1, 2, 3], [3, 2, 1]], np.uint32)
EXPECT = [["clear", "forest", "water"], ["water", "forest", "clear"]]


def _ids(path: Path, terrain_map: Path | None = None) -> list[list[str]]:
    s = import_tiled(path, terrain_map).scenario
    ids = [t.id for t in s.ruleset.terrain]
    return [[ids[v] for v in row] for row in s.map.terrain.tolist()]


@pytest.mark.parametrize("encoding, compression", [("csv", None), ("base64", None), ("base64", "zlib"),
                                                   ("base64", "gzip")])
def test_every_layer_encoding_reads_the_same_cells(tmp_path: Path, encoding: str, compression: str | None) -> None:
    raw = GIDS.astype("<u4").tobytes()
    if encoding == "csv":
        data = ",".join(str(v) for v in GIDS.flatten())
    else:
        comp = {None: raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[compression]
        data = base64.b64encode(comp).decode()
    p = tmp_path / "m.tmx"
    p.write_text(_tmx(3, 2, data, encoding, compression), encoding="utf-8")
    assert _ids(p) == EXPECT
    s = import_tiled(p).scenario
    assert {t.id: t.move_cost for t in s.ruleset.terrain}["forest"] == 2


def test_old_xml_tile_elements(tmp_path: Path) -> None:
    p = tmp_path / "m.tmx"
    tiles = "".join(f'<tile gid="{g}"/>' if g else "<tile/>" for g in GIDS.flatten())
    p.write_text(_tmx(3, 2, "").replace('<data encoding="csv"></data>', f"<data>{tiles}</data>"), encoding="utf-8")
    assert _ids(p) == EXPECT


def test_flip_bits_and_firstgid(tmp_path: Path) -> None:
    flips = np.array([0x80000000, 0x40000000, 0x20000000, 0xE0000000, 0, 0x10000000], np.uint32).reshape(2, 3)
    gids = (GIDS + 10) | flips  # firstgid 11
    p = tmp_path / "m.tmx"
    p.write_text(_tmx(3, 2, ",".join(str(v) for v in gids.flatten()), first=11), encoding="utf-8")
    assert _ids(p) == EXPECT


def test_external_tileset_is_read_relative_to_the_map(tmp_path: Path) -> None:
    (tmp_path / "sets").mkdir()
    tsx = TILESET.format(first=1).replace(' firstgid="1"', "")
    (tmp_path / "sets" / "t.tsx").write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + tsx, encoding="utf-8")
    (tmp_path / "maps").mkdir()
    p = tmp_path / "maps" / "m.tmx"
    p.write_text(_tmx(3, 2, "1,2,3,3,2,1", tileset='<tileset firstgid="1" source="../sets/t.tsx"/>'),
                 encoding="utf-8")
    assert _ids(p) == EXPECT
    (tmp_path / "sets" / "t.tsx").unlink()
    with pytest.raises(TiledError, match=r"external tileset '\.\./sets/t\.tsx' not found"):
        import_tiled(p)


def test_terrain_map_file_and_unmapped_ids(tmp_path: Path) -> None:
    bare = ('<tileset firstgid="1" name="bare" tilewidth="32" tileheight="32" tilecount="4" columns="2">'
            '<image source="ts.png" width="64" height="64"/></tileset>')
    p = tmp_path / "m.tmx"
    p.write_text(_tmx(3, 2, "1,2,3,3,2,0", tileset=bare), encoding="utf-8")
    r = import_tiled(p)
    assert {(t.gid, t.terrain) for t in r.report.unmapped} == {(0, "empty"), (1, "bare-0"), (2, "bare-1"),
                                                               (3, "bare-2")}
    with pytest.raises(TiledError, match="tiles without a terrain"):
        import_tiled(p, strict=True)
    tm = tmp_path / "tm.json"
    tm.write_text(json.dumps({"tiles": {"1": "clear", "bare:1": "forest", "3": "water"},
                              "terrain": [{"id": "forest", "name": "Forest", "move_cost": 3}]}), encoding="utf-8")
    r = import_tiled(p, tm)
    assert [(t.gid, t.terrain) for t in r.report.unmapped] == [(0, "empty")]
    assert _ids(p, tm) == [["clear", "forest", "water"], ["water", "forest", "empty"]]
    assert {t.id: t.move_cost for t in r.scenario.ruleset.terrain}["forest"] == 3
    tm.write_text(json.dumps({"tiles": {"x": "clear"}}), encoding="utf-8")
    with pytest.raises(TiledError, match=r"tm\.json: \$\.tiles\.x"):
        load_terrain_map(tm)


def test_tiled_json_map_imports(tmp_path: Path) -> None:
    d = {"type": "map", "orientation": "hexagonal", "width": 3, "height": 2, "tilewidth": 32, "tileheight": 28,
         "hexsidelength": 16, "staggeraxis": "x", "staggerindex": "even", "infinite": False,
         "tilesets": [{"firstgid": 1, "name": "ts", "tilewidth": 32, "tileheight": 28, "tilecount": 4,
                       "columns": 2, "image": "ts.png", "imagewidth": 64, "imageheight": 56,
                       "tiles": [{"id": i, "properties": [{"name": "terrain", "type": "string", "value": v}]}
                                 for i, v in enumerate(["clear", "forest", "water"])]}],
         "layers": [{"type": "tilelayer", "name": "t", "width": 3, "height": 2, "data": GIDS.flatten().tolist()}]}
    p = tmp_path / "m.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    assert _ids(p) == EXPECT
    g = import_tiled(p).scenario.map.grid.to_dict()
    assert (g["kind"], g["orientation"], g["parity"]) == ("hex", "flat", "even")


# ---------------------------------------------------------------------------
# refused, with file and place named

LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
          '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>\n<map orientation="orthogonal" width="1" height="1" '
          'tilewidth="32" tileheight="32" name="&c;"></map>')
XXE = ('<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
       '<map orientation="orthogonal" width="1" height="1" tilewidth="32" tileheight="32">&x;</map>')


@pytest.mark.parametrize("name, text, words", [
    ("truncated", _tmx(3, 2, "1,2,3,3,2,1")[:-40], r"line 2, column \d+: not well-formed XML"),
    ("bad base64", _tmx(3, 2, "AAAA$$$$", "base64"), r"layer 'Ground'.*not valid base64"),
    ("short csv", _tmx(3, 2, "1,2,3,3,2"), r"layer 'Ground'.*holds 5 tile ids; a 3 x 2 map needs 6"),
    ("long base64", _tmx(3, 2, base64.b64encode(b"\1\0\0\0" * 7).decode(), "base64"), r"holds 7 tile ids"),
    ("bad zlib", _tmx(3, 2, base64.b64encode(b"not zlib").decode(), "base64", "zlib"), "not valid zlib"),
    ("zstd", _tmx(3, 2, "KLUv/QBYAQAA", "base64", "zstd"), "zstd"),
    ("bad csv", _tmx(3, 2, "1,2,x,3,2,1"), r"x 2 y 0: 'x' is not a tile id"),
    ("unicode digit", _tmx(3, 2, "1,2,3,\u00b2,2,1"), r"x 0 y 1: '\u00b2' is not a tile id"),
    ("negative", _tmx(3, 2, "1,2,3,-3,2,1"), r"x 0 y 1: '-3' is not a tile id"),
    ("bad xml gid", _tmx(3, 2, "").replace('<data encoding="csv"></data>', '<data><tile gid="a"/></data>'),
     r"<tile> 1"),
    ("unknown gid", _tmx(3, 2, "1,2,3,3,2,99"), r"x 2 y 1"),
    ("billion laughs", LAUGHS, "entities"),
    ("external entity", XXE, "entities"),
    ("isometric", _tmx(3, 2, "1,2,3,3,2,1", orientation="isometric"), "'isometric' is not supported"),
    ("staggered", _tmx(3, 2, "1,2,3,3,2,1", orientation="staggered"), "'staggered' is not supported"),
    ("huge", _tmx(MAX_SIDE + 1, 2, "1"), f"larger than Adjutant's limit \\({MAX_SIDE} per side, {MAX_CELLS}"),
    ("huge area", _tmx(MAX_SIDE, MAX_CELLS // MAX_SIDE + 1, "1"), "larger than Adjutant's limit"),
    ("not a map", '<?xml version="1.0"?><tileset/>', r"root element is <tileset>"),
    ("bad stagger", _tmx(3, 2, "1,2,3,3,2,1", orientation="hexagonal", extra='staggeraxis="z"'), "staggeraxis"),
])
def test_malformed_tmx_is_refused_with_file_and_place(tmp_path: Path, name: str, text: str, words: str) -> None:
    p = tmp_path / "bad.tmx"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(TiledError, match=words) as e:
        import_tiled(p)
    assert str(e.value).startswith(str(p) + ": ")


@pytest.mark.parametrize("name, text, words", [
    ("truncated", '{"type": "map", "width": 3', r"line 1, column \d+: not valid JSON"),
    ("not a map", '{"type": "tileset"}', r"\$\.type"),
    ("bad data", json.dumps({"type": "map", "orientation": "orthogonal", "width": 1, "height": 1,
                             "tilewidth": 8, "tileheight": 8, "tilesets": [],
                             "layers": [{"type": "tilelayer", "name": "l", "width": 1, "height": 1,
                                         "data": ["x"]}]}), "is not a tile id"),
])
def test_malformed_tiled_json_is_refused(tmp_path: Path, name: str, text: str, words: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(TiledError, match=words) as e:
        import_tiled(p)
    assert str(e.value).startswith(str(p) + ": ")


def test_tiled_json_base64_layer_and_pre_1_2_properties(tmp_path: Path) -> None:
    """Tiled JSON with a base64+zlib layer, and tile properties in the form
    Tiled wrote before 1.2 (``tileproperties``/``tilepropertytypes``)."""
    d = {"type": "map", "orientation": "orthogonal", "width": 3, "height": 2, "tilewidth": 32, "tileheight": 32,
         "tilesets": [{"firstgid": 1, "name": "ts", "tilewidth": 32, "tileheight": 32, "tilecount": 4,
                       "columns": 2, "image": "ts.png", "imagewidth": 64, "imageheight": 64,
                       "tileproperties": {"0": {"terrain": "clear"}, "1": {"terrain": "forest", "move_cost": 2},
                                          "2": {"terrain": "water"}},
                       "tilepropertytypes": {"1": {"terrain": "string", "move_cost": "int"}}}],
         "layers": [{"type": "tilelayer", "name": "t", "width": 3, "height": 2, "encoding": "base64",
                     "compression": "zlib",
                     "data": base64.b64encode(zlib.compress(GIDS.astype("<u4").tobytes())).decode()}]}
    p = tmp_path / "m.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    assert _ids(p) == EXPECT
    assert {t.id: t.move_cost for t in import_tiled(p).scenario.ruleset.terrain}["forest"] == 2
    d["tilesets"][0]["tilepropertytypes"]["1"]["move_cost"] = "bool"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(TiledError, match=r"\$\.tilesets\[0\]\.tileproperties\.1\.move_cost: '2' is not a valid bool"):
        import_tiled(p)
    # an int property of Infinity (JSON allows it as a number literal here): refused, not an OverflowError
    d["tilesets"][0]["tilepropertytypes"]["1"]["move_cost"] = "int"
    d["tilesets"][0]["tileproperties"]["1"]["move_cost"] = float("inf")
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(TiledError, match=r"move_cost: 'inf' is not a valid int"):
        import_tiled(p)


def test_export_of_an_import_says_which_layers_it_does_not_write(tmp_path: Path) -> None:
    from engine.io.tiled import export_tiled

    text = _tmx(3, 2, "1,2,3,3,2,1").replace(
        "</layer></map>", '</layer><layer id="2" name="Deco" width="3" height="2"><data encoding="csv">'
                          '0,0,0,0,0,1</data></layer><objectgroup id="3" name="Units"/></map>')
    p = tmp_path / "m.tmx"
    p.write_text(text, encoding="utf-8")
    r = import_tiled(p)
    assert r.report.ignored_layers == ("object layer 'Units'",)
    assert any("other tile layers not read: 'Deco'" in n for n in r.report.notes)
    rep = export_tiled(r.scenario, tmp_path / "out.tmx")
    assert rep.kept_tiles
    assert any("not written" in n and "tile layer 'Deco'" in n and "object layer 'Units'" in n for n in rep.notes)
    assert _ids(tmp_path / "out.tmx") == EXPECT


# -- CSV layer data: numpy's one-pass reader and the item-by-item one agree ----

def _csv_answer(fn, text: str, w: int, h: int) -> object:
    try:
        return fn("map.tmx", "layer 'ground'", text, w, h).tolist()
    except TiledError:
        return "refused"


CSV_HOSTILE = st.sampled_from(["", " ", "\n", "-1", "1 2", "x", "٣", "+4", "1e3", "00000000007", "4294967295",
                               "4294967296", "18446744073709551616", "99999999999"])


@settings(max_examples=500, deadline=None)
@given(w=st.integers(1, 5), h=st.integers(1, 4), data=st.data())
def test_csv_fast_path_agrees_with_the_item_reader(w: int, h: int, data: st.DataObject) -> None:
    """Valid layers read the same through numpy as item by item; a layer with
    one hostile item, a missing or extra item, or a trailing separator is
    refused by both (and worded by the item reader)."""
    n = data.draw(st.sampled_from([w * h, w * h, w * h, w * h - 1, w * h + 1]))
    items = data.draw(st.lists(st.integers(0, 2**32 - 1).map(str), min_size=n, max_size=n))
    if n and data.draw(st.booleans()):
        items[data.draw(st.integers(0, n - 1))] = data.draw(CSV_HOSTILE)
    seps = data.draw(st.lists(st.sampled_from([",", ",\n", ", ", " ,", ",\r\n"]), min_size=n, max_size=n))
    text = "\n" + "".join(i + s for i, s in zip(items, seps))[:-1] + data.draw(st.sampled_from(["\n", "", ",", " "]))
    assert _csv_answer(_decode_csv, text, w, h) == _csv_answer(_decode_csv_items, text, w, h)


def test_csv_refusal_names_the_first_bad_item() -> None:
    text = ",".join(["1"] * 5 + ["7x"] + ["2"] * 3)
    with pytest.raises(TiledError, match=r"x 2 y 1.*'7x' is not a tile id"):
        _decode_csv("map.tmx", "layer 'ground'", text, 3, 3)


@pytest.mark.parametrize("text", ["1, ,2", "1,\n,2", "1,2,", ",1,2", "1,,2", "4294967296,1,1", "1 2,3,4",
                                  "1,2,3,4", "1,2", "1,+2,3", "1,2,٣"])
def test_csv_inputs_numpy_reads_laxly_are_refused(text: str) -> None:
    """numpy's text reader takes a blank item for 0, stops early at junk and
    wraps huge numbers; none of that may slip through."""
    with pytest.raises(TiledError, match="tile id"):
        _decode_csv("map.tmx", "layer 'ground'", text, 3, 1)
