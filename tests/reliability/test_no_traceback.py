"""No traceback from any input, and budgets for work (``docs/reliability.md``,
"Hostile inputs" and "Limits"): each case is refused with exit status 1 and
a message naming the file and the field, quickly."""

from __future__ import annotations

import json
import shutil
import struct
import time
import zlib
from pathlib import Path

import pytest

from app.cli import main
from engine.io.tiled import format as tiled_format
from engine.printing import MAX_PRINT_CELLS

ROOT = Path(__file__).resolve().parents[2]
CWOL = ROOT / "maps" / "cwol_mobile_columbus.json"
EUROPE = ROOT / "maps" / "railroad_module_europe.json"
GRID = ROOT / "maps" / "gitm_graphic1.json"
RAIL_OPTIONS = ROOT / "maps" / "aa_rail_options.json"


def refused(argv: list[str], capsys: pytest.CaptureFixture[str], *names: str, json_out: bool = False) -> str:
    t0 = time.monotonic()
    code = main(argv)
    out = capsys.readouterr()
    assert code == 1, out
    assert time.monotonic() - t0 < 20
    said = out.err + out.out  # validate reports on stdout
    assert "Traceback" not in said
    for n in names:
        assert n in said, (n, said)
    if json_out:
        assert json.loads(out.out)["error"]
    said.encode("utf-8")  # printable as UTF-8
    return said


@pytest.mark.parametrize("command", [["validate"], ["info"], ["render", "--out", "x.png"],
                                     ["railplan", "--orders", "ORDERS"]])
def test_a_401_digit_coordinate(command: list[str], tmp_path: Path, capsys) -> None:
    d = json.loads(EUROPE.read_text(encoding="utf-8"))
    d["map"]["territories"][0]["polygons"][0][0][0] = int("9" * 401)
    f = tmp_path / "big.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    orders = tmp_path / "orders.json"
    orders.write_text("[]", encoding="utf-8")
    argv = [command[0], str(f)] + [str(tmp_path / a) if a == "x.png" else str(orders) if a == "ORDERS" else a
                                   for a in command[1:]]
    refused(argv, capsys, "big.json", "$.map.territories[0].polygons[0][0][0]", "401 digits")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    f = tmp_path / "game.json"
    shutil.copyfile(CWOL, f)
    return f


def test_orders_nested_100000_deep_nan_and_surrogates(tmp_path: Path, game: Path, capsys) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    refused(["orders", str(game), "--orders", str(deep)], capsys, "deep.json", "nested too deeply")
    nan = tmp_path / "nan.json"
    nan.write_text('[{"unit": "CS1IN", "to": NaN}]', encoding="utf-8")
    refused(["orders", str(game), "--orders", str(nan)], capsys, "nan.json", "$[0].to", "not a finite number")
    for field in ("unit", "to"):
        sur = tmp_path / f"sur-{field}.json"
        order = {"unit": "CS1IN", "to": "E4-X4"}
        order[field] = "\udc80"
        sur.write_text(json.dumps([order]), encoding="utf-8")
        refused(["orders", str(game), "--orders", str(sur), "--json"], capsys, sur.name, f"[0].{field}",
                "lone surrogate", json_out=True)
    assert "state" not in json.loads(game.read_text(encoding="utf-8"))  # nothing written


@pytest.mark.parametrize("field", ["at", "side"])
def test_a_lone_surrogate_in_a_unit(field: str, tmp_path: Path, capsys) -> None:
    d = json.loads(GRID.read_text(encoding="utf-8"))
    d["units"][0][field] = "\ud800x"
    f = tmp_path / "sur.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr()
    assert f"units[0].{field}" in out.out and "lone surrogate" in out.out
    refused(["info", str(f), "--json"], capsys, "sur.json", f"units[0].{field}", json_out=True)


def test_a_list_where_rail_options_expects_a_piece_name(tmp_path: Path, capsys) -> None:
    f = tmp_path / "aa.json"
    shutil.copyfile(RAIL_OPTIONS, f)
    for piece in (["station"], {"a": 1}):
        o = tmp_path / "o.json"
        o.write_text(json.dumps([{"action": "buy", "nation": "germany", "piece": piece}]), encoding="utf-8")
        code = main(["orders", str(f), "--orders", str(o)])
        out = capsys.readouterr()
        assert code == 1 and "\"piece\" must be station or railroad" in out.out, out


def test_tiled_and_triplea_refusals_name_the_file_and_field(tmp_path: Path, capsys) -> None:
    tmx = tmp_path / "long.tmx"
    tmx.write_text('<?xml version="1.0"?><map orientation="orthogonal" width="' + "9" * 4300 + '" height="2" '
                   'tilewidth="32" tileheight="32"></map>', encoding="utf-8")
    refused(["import-tiled", str(tmx), "--out", str(tmp_path / "o.json")], capsys, "long.tmx", "<map>",
            "4300 digits")
    xml = tmp_path / "self.xml"
    xml.write_text('<?xml version="1.0"?>\n<game><info name="M" version="1"/><map><territory name="A"/>'
                   '<territory name="B"/><connection t1="A" t2="A"/></map></game>', encoding="utf-8")
    refused(["import-triplea", str(xml), "--out", str(tmp_path / "o.json")], capsys, "self.xml",
            "<connection> number 1", "two different territories")
    u16 = tmp_path / "u16.xml"
    u16.write_bytes(b'<?xml version="1.0" encoding="UTF-16"?>\n<game/>')
    refused(["import-triplea", str(u16), "--out", str(tmp_path / "o.json")], capsys, "u16.xml")


# -- budgets --------------------------------------------------------------------------

def _tmx_with(tilesets: int, tiles: int) -> str:
    ts = "".join(f'<tileset firstgid="{1 + 10 * i}" name="t{i}" tilewidth="32" tileheight="32" tilecount="10" '
                 f'columns="1"></tileset>' for i in range(tilesets))
    described = "".join(f'<tile id="{i}"><properties><property name="terrain" value="t{i}"/></properties></tile>'
                        for i in range(tiles))
    ts += (f'<tileset firstgid="{1 + 10 * tilesets}" name="big" tilewidth="32" tileheight="32" '
           f'tilecount="{max(tiles, 1)}" columns="1">{described}</tileset>')
    return ('<?xml version="1.0"?><map orientation="orthogonal" width="2" height="2" tilewidth="32" '
            f'tileheight="32">{ts}<layer name="g" width="2" height="2"><data encoding="csv">1,1,1,1</data>'
            '</layer></map>')


def test_import_tiled_refuses_too_many_tilesets_or_described_tiles_early(tmp_path: Path, capsys) -> None:
    many = tmp_path / "many.tmx"
    many.write_text(_tmx_with(tiled_format.MAX_TILESETS + 1, 0), encoding="utf-8")
    refused(["import-tiled", str(many), "--out", str(tmp_path / "o.json")], capsys, "many.tmx",
            f"the limit is {tiled_format.MAX_TILESETS}")
    described = tmp_path / "described.tmx"
    described.write_text(_tmx_with(1, tiled_format.MAX_DESCRIBED_TILES + 1), encoding="utf-8")
    t0 = time.process_time()
    refused(["import-tiled", str(described), "--out", str(tmp_path / "o.json")], capsys, "described.tmx",
            f"the limit is {tiled_format.MAX_DESCRIBED_TILES}")
    assert time.process_time() - t0 < 5


def test_print_refuses_a_map_past_its_budget_quickly(qapp, tmp_path: Path, capsys) -> None:
    d = json.loads(GRID.read_text(encoding="utf-8"))
    side = 1001
    d["map"]["grid"].update(width=side, height=side)
    d["map"]["terrain"] = [d["ruleset"]["terrain"][0]["symbol"] * side] * side
    d["units"] = []
    f = tmp_path / "big.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    t0 = time.process_time()
    err = refused(["print", str(f), "--square-mm", "2", "--paper", "5000x5000", "--out", str(tmp_path / "p.pdf")],
                  capsys, f"{side * side} cells", f"the limit is {MAX_PRINT_CELLS} cells", "MB of PDF")
    assert time.process_time() - t0 < 10, err
    assert not (tmp_path / "p.pdf").exists()


def _tiled_state(n: int) -> dict:
    """A scenario whose Tiled record keeps ``n`` tiles with two properties each."""
    d = json.loads(GRID.read_text(encoding="utf-8"))
    tiles = [{"id": i, "properties": [{"name": "terrain", "type": "string", "value": "clear"},
                                      {"name": "n", "type": "int", "value": i}]} for i in range(n)]
    d["state"] = {"tiled": {
        "source": None, "layer": "g", "orientation": "orthogonal", "width": 6, "height": 6, "tilewidth": 32,
        "tileheight": 32, "hexsidelength": 0, "staggeraxis": "y", "staggerindex": "odd", "properties": [],
        "tilesets": [{"firstgid": 1, "name": "big", "tilewidth": 32, "tileheight": 32, "tilecount": n,
                      "columns": 1, "tiles": tiles}],
        "gid_terrain": {str(i + 1): "clear" for i in range(n)}, "terrain_gid": {"clear": 1}, "cells": ""}}
    return d


def test_the_tiled_record_is_checked_in_one_pass() -> None:
    from engine.io.common import schema_problems

    d = _tiled_state(20_000)
    t0 = time.process_time()
    assert schema_problems(d, "big.json") == []
    dt = time.process_time() - t0
    assert dt < 1.0, f"{dt:.2f} s CPU for 20,000 tiles"  # the schema validator per tile: about 2.5 s
    tiles = d["state"]["tiled"]["tilesets"][0]["tiles"]
    tiles[7]["id"] = -1
    tiles[9]["properties"][0]["value"] = [1]
    del tiles[11]["id"]
    d["state"]["tiled"]["gid_terrain"]["x1"] = 3
    said = [str(p) for p in schema_problems(d, "big.json")]
    assert said == [
        "big.json: $.state.tiled.gid_terrain: key \"x1\" is not a tile id (1 to 10 digits)",
        "big.json: $.state.tiled.gid_terrain.x1: expected string, got 3",
        "big.json: $.state.tiled.tilesets[0].tiles[11]: missing required key 'id'",
        "big.json: $.state.tiled.tilesets[0].tiles[7].id: -1 is out of range (0 to 2147483647)",
        "big.json: $.state.tiled.tilesets[0].tiles[9].properties[0].value: expected string, number or boolean, "
        "got list"]


def test_trace_reads_a_scan_past_qts_image_limit(tmp_path: Path) -> None:
    """67 Mpx: 269 MB as Qt's 32-bit pixels, over its 256 MB limit; libvips
    reads it (the documented limit is 150 Mpx)."""
    import os

    import pyvips

    from app.cli.common import CliError
    from app.cli.trace import MAX_PIXELS, read_image

    side = 8200
    scan = tmp_path / "scan.png"
    im = pyvips.Image.black(side, side, bands=3).draw_rect([200, 30, 10], 100, 200, 50, 50, fill=True)
    im.cast("uchar").pngsave(str(scan), compression=1)
    a = read_image(str(scan))
    assert a.shape == (side, side, 3)
    assert a[210, 110].tolist() == [200, 30, 10] and a[0, 0].tolist() == [0, 0, 0]
    grey = tmp_path / "grey.png"
    pyvips.Image.black(40, 30).draw_rect([90], 0, 0, 10, 10, fill=True).cast("uchar").pngsave(str(grey))
    g = read_image(str(grey))
    assert g.shape == (30, 40, 3) and g[5, 5].tolist() == [90, 90, 90]
    fifo = tmp_path / "scan.fifo"
    os.mkfifo(fifo)
    with pytest.raises(CliError, match="FIFO"):
        read_image(str(fifo))
    huge = tmp_path / "huge.png"  # a header declaring 150,015,000 pixels, and no pixels: only the header is read

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 15000, 10001, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
    with pytest.raises(CliError, match=f"more than the {MAX_PIXELS // 1_000_000} Mpx"):
        read_image(str(huge))


def test_an_underlay_image_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    import os

    from app.gui.underlay import TilePyramid, UnderlayError

    fifo = tmp_path / "scan.png"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(UnderlayError, match="scan.png: is a FIFO"):
        TilePyramid.build(fifo, tmp_path / "cache")
    assert time.monotonic() - t0 < 10
