"""Adjutant's Tiled export checked by Tiled itself: ``tiled --export-map``
reads each exported map back cell for cell, ``tmxrasterizer`` draws exported
hexes where Adjutant's HexLayout puts them, and the designer's round trip
(Tiled's hexagonal example, one cell painted) changes nothing else."""

from __future__ import annotations

import base64
import gzip
import json
import os
import shutil
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from app.cli import main as cli_main
from engine.editing import apply_edits, plan_paint
from engine.grids import Cell, HexGrid, SquareGrid
from engine.grids.base import Grid
from engine.grids.hexgrid import HexLayout
from engine.io import load_scenario, save_scenario
from engine.io.png import parse_color
from engine.io.tiled import export_tiled, import_tiled
from engine.labels import NumericNumbering
from engine.model import GridMap, Ruleset, Scenario, TerrainType

TILED = shutil.which("tiled")
RASTERIZER = shutil.which("tmxrasterizer")
EXAMPLES = Path("/usr/share/doc/tiled/examples")
needs_tiled = pytest.mark.skipif(TILED is None, reason="Tiled is not installed (Debian package 'tiled' gives "
                                                      "'tiled --export-map'); .ci/run installs it")
needs_rasterizer = pytest.mark.skipif(RASTERIZER is None, reason="tmxrasterizer (Debian package 'tiled') is "
                                                                 "not installed")
ENV = dict(os.environ, QT_QPA_PLATFORM="offscreen")

TERRAIN = [TerrainType("clear", "Clear", ".", "#e0e0c0"), TerrainType("forest", "Forest", "f", "#2e7d32", 2),
           TerrainType("water", "Water", "~", "#3070d0", 1, True), TerrainType("hill", "Hill", "h", "#a06030", 2)]
GRIDS: list[Grid] = [SquareGrid(7, 5, 8), SquareGrid(4, 6, 4), HexGrid(7, 5, "flat", "odd"),
                     HexGrid(7, 5, "flat", "even"), HexGrid(6, 5, "pointy", "odd"), HexGrid(6, 5, "pointy", "even")]


def _scenario(grid: Grid, seed: int = 1) -> Scenario:
    terr = np.random.default_rng(seed).integers(0, len(TERRAIN), (grid.height, grid.width)).astype(np.uint8)
    return Scenario("t", Ruleset("r", TERRAIN), [], GridMap(grid, NumericNumbering(), terr))


def _tiled_json(src: Path, out: Path) -> dict:
    r = subprocess.run([str(TILED), "--export-map", "json", str(src), str(out)], env=ENV, capture_output=True, check=False,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text(encoding="utf-8"))


@needs_tiled
@pytest.mark.parametrize("suffix", [".tmx", ".json"])
@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: "-".join(str(v) for v in g.to_dict().values()))
def test_tiled_reads_an_export_cell_for_cell(tmp_path: Path, grid: Grid, suffix: str) -> None:
    s = _scenario(grid)
    rep = export_tiled(s, tmp_path / f"m{suffix}")
    d = _tiled_json(tmp_path / f"m{suffix}", tmp_path / "tiled.json")
    assert (d["width"], d["height"]) == (grid.width, grid.height)
    if isinstance(grid, HexGrid):
        assert d["orientation"] == "hexagonal"
        assert d["staggeraxis"] == {"flat": "x", "pointy": "y"}[grid.orientation.value]
        assert d["staggerindex"] == grid.parity.value
    else:
        assert d["orientation"] == "orthogonal"
    # Tiled's own reading of the layer, mapped through its own tile properties
    (ts,) = d["tilesets"]
    terrain_of = {ts["firstgid"] + t["id"]: next(p["value"] for p in t["properties"] if p["name"] == "terrain")
                  for t in ts["tiles"]}
    (layer,) = d["layers"]
    cells = np.array([terrain_of[g] for g in layer["data"]]).reshape(grid.height, grid.width)
    ids = np.array([t.id for t in TERRAIN])
    assert (cells == ids[s.map.terrain]).all()
    assert rep.image is not None and Path(rep.image).is_file()
    # and Adjutant reads Tiled's JSON back to the same scenario map
    back = import_tiled(tmp_path / "tiled.json").scenario
    assert back.map.grid.to_dict() == grid.to_dict()
    assert [t.id for t in back.ruleset.terrain] == list(ids)
    assert (back.map.terrain == s.map.terrain).all()
    assert [(t.move_cost, t.impassable, t.color) for t in back.ruleset.terrain] == [
        (t.move_cost, t.impassable, t.color) for t in TERRAIN]


def _image(path: Path):  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    img = QImage(str(path))
    assert not img.isNull(), path
    return img


@needs_rasterizer
@pytest.mark.parametrize("grid", [g for g in GRIDS if isinstance(g, HexGrid)],
                         ids=lambda g: f"{g.orientation.value}-{g.parity.value}")
def test_tmxrasterizer_draws_hexes_where_hexlayout_puts_them(tmp_path: Path, grid: HexGrid) -> None:
    s = _scenario(grid, seed=7)
    rep = export_tiled(s, tmp_path / "m.tmx")
    r = subprocess.run([str(RASTERIZER), str(tmp_path / "m.tmx"), str(tmp_path / "m.png")], env=ENV,
                       capture_output=True, text=True, check=False, timeout=60)
    assert r.returncode == 0, r.stderr
    img = _image(tmp_path / "m.png")
    layout = HexLayout(grid, rep.layout_size)
    bw, bh = layout.bounds()
    assert abs(img.width() - bw) <= 2 and abs(img.height() - bh) <= 2, ((img.width(), img.height()), (bw, bh))
    for row in range(grid.height):
        for col in range(grid.width):
            cell = Cell(col, row)
            cx, cy = layout.center(cell)
            want = parse_color(TERRAIN[s.map.terrain[row, col]].color)
            # the centre and points a third of the way to each corner are the cell's own colour
            for px, py in [(cx, cy)] + [(cx + (x - cx) / 3, cy + (y - cy) / 3) for x, y in layout.corners(cell)]:
                c = img.pixelColor(int(px), int(py))
                assert (c.red(), c.green(), c.blue()) == want, (cell, (px, py))


def _layer_gids(layer: dict) -> np.ndarray:
    """A Tiled JSON layer's tile ids, whatever its data format (popped from
    the layer; the format keys stay, to be compared)."""
    data = layer.pop("data")
    enc, comp = layer.get("encoding", "csv"), layer.get("compression", "")
    if enc == "base64":
        raw = base64.b64decode(data)
        raw = zlib.decompress(raw) if comp == "zlib" else gzip.decompress(raw) if comp == "gzip" else raw
        data = np.frombuffer(raw, "<u4").tolist()
    return np.array(data, np.int64).reshape(layer["height"], layer["width"])


@needs_tiled
def test_designers_round_trip_changes_only_the_painted_cell(tmp_path: Path) -> None:
    src = EXAMPLES / "hexagonal-mini.tmx"
    scen = tmp_path / "mini.json"
    assert cli_main(["import-tiled", str(src), "--out", str(scen)]) == 0
    s = load_scenario(scen)
    cell = Cell(4, 3)
    ids = [t.id for t in s.ruleset.terrain]
    new = next(i for i in range(len(ids)) if i != s.map.terrain[3, 4])
    edit = plan_paint(s, "terrain", [cell], new)  # what the editor's brush does
    assert edit is not None
    apply_edits(s, [edit])
    save_scenario(s, scen)
    out = tmp_path / "out" / "mini.tmx"
    out.parent.mkdir()
    assert cli_main(["export-tiled", str(scen), "--out", str(out)]) == 0
    a = _tiled_json(src, tmp_path / "a.json")
    b = _tiled_json(out, tmp_path / "b.json")
    for k in ("orientation", "width", "height", "tilewidth", "tileheight", "hexsidelength", "staggeraxis",
              "staggerindex", "renderorder"):
        assert a[k] == b[k], k
    for ta, tb in zip(a["tilesets"], b["tilesets"], strict=True):
        ia, ib = ((tmp_path / t.pop("image")).resolve() for t in (ta, tb))
        assert ia == ib == (EXAMPLES / "hexmini.png").resolve()
        assert ta == tb
    (la,), (lb,) = a["layers"], b["layers"]
    da, db = _layer_gids(la), _layer_gids(lb)
    assert la == lb
    differ = np.argwhere(da != db)
    assert differ.tolist() == [[3, 4]]
    # the painted cell got a tile of its new terrain, as the import named it
    back = import_tiled(tmp_path / "b.json")
    assert next(t.terrain for t in back.report.tiles if t.gid == db[3, 4] & 0x0FFFFFFF) == ids[new]


def _named_cells(s: Scenario) -> np.ndarray:
    return np.array([t.id for t in s.ruleset.terrain])[s.map.terrain]


@needs_tiled
@pytest.mark.parametrize("name", ["desert.tmx", "hexagonal-mini.tmx", "test_hexagonal_tile_60x60x30.tmx"])
def test_tiled_json_of_an_example_imports_like_its_tmx(tmp_path: Path, name: str) -> None:
    """Tiled's own JSON writer: the example converted by ``tiled
    --export-map json`` imports to the same grid and cells as the TMX; for
    desert.tmx the JSON map keeps the external tileset desert.tsx, and again
    with that tileset converted by ``tiled --export-tileset json``."""
    for p in EXAMPLES.iterdir():
        if p.suffix in (".tmx", ".tsx", ".png"):
            shutil.copy(p, tmp_path / p.name)
    tmx = import_tiled(tmp_path / name).scenario
    d = _tiled_json(tmp_path / name, tmp_path / "m.json")
    variants = [tmp_path / "m.json"]
    if name == "desert.tmx":
        assert [t.get("source") for t in d["tilesets"]] == ["desert.tsx"]
        r = subprocess.run([str(TILED), "--export-tileset", "json", str(tmp_path / "desert.tsx"),
                            str(tmp_path / "desert.tsj")], env=ENV, capture_output=True, text=True, check=False,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        d["tilesets"][0]["source"] = "desert.tsj"
        (tmp_path / "m2.json").write_text(json.dumps(d), encoding="utf-8")
        variants.append(tmp_path / "m2.json")
    for v in variants:
        js = import_tiled(v).scenario
        assert js.map.grid.to_dict() == tmx.map.grid.to_dict()
        assert (_named_cells(js) == _named_cells(tmx)).all()


@needs_tiled
@pytest.mark.parametrize("suffix", [".tmx", ".json"])
@pytest.mark.parametrize("encoding, compression", [("csv", ""), ("base64", ""), ("base64", "zlib"),
                                                   ("base64", "gzip")])
def test_an_imports_export_keeps_its_layer_format(tmp_path: Path, suffix: str, encoding: str,
                                                  compression: str) -> None:
    """Import a Tiled map saved in each layer format, export it, and Tiled
    reads the export in the same format with the same tiles."""
    src = tmp_path / "src.tmx"
    out = tmp_path / "c.json"
    assert cli_main(["export-tiled", str(_scenario_file(tmp_path)), "--out", str(src)]) == 0
    gids = _layer_gids(_tiled_json(src, out)["layers"][0])
    # a designer's map, not Adjutant's own export (whose import keeps no record)
    text = src.read_text(encoding="utf-8").replace('name="adjutant-terrain"', 'name="my tiles"')
    src.write_text(text, encoding="utf-8")
    if encoding == "base64":
        raw = gids.astype("<u4").tobytes()
        raw = zlib.compress(raw) if compression == "zlib" else gzip.compress(raw) if compression == "gzip" else raw
        comp = f' compression="{compression}"' if compression else ""
        head, rest = text.split('<data encoding="csv">')
        text = head + f'<data encoding="base64"{comp}>' + base64.b64encode(raw).decode() + rest[rest.index("</data>"):]
        src.write_text(text, encoding="utf-8")
    s = import_tiled(src).scenario
    export_tiled(s, tmp_path / f"e{suffix}")
    layer = _tiled_json(tmp_path / f"e{suffix}", out)["layers"][0]
    assert (layer.get("encoding", "csv"), layer.get("compression", "")) == (encoding, compression)
    assert (_layer_gids(layer) == gids).all()


def _scenario_file(folder: Path) -> Path:
    p = folder / "s.json"
    save_scenario(_scenario(HexGrid(5, 4, "pointy", "even"), seed=3), p)
    return p
