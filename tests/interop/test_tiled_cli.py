"""``adjutant import-tiled`` and ``adjutant export-tiled``: output, --json,
and clear messages (exit 1, no traceback) for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main

MAP = ('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="hexagonal" width="3" height="2" '
       'tilewidth="32" tileheight="28" hexsidelength="16" staggeraxis="x" staggerindex="even">'
       '<tileset firstgid="1" name="ts" tilewidth="32" tileheight="28" tilecount="2" columns="2">'
       '<image source="ts.png" width="64" height="28"/>'
       '<tile id="0"><properties><property name="terrain" value="clear"/></properties></tile></tileset>'
       '<layer id="1" name="Ground" width="3" height="2"><data encoding="csv">1,1,2,2,1,1</data></layer></map>')


def test_import_reports_unmapped_tiles_and_export_writes_tmx_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "m.tmx"
    src.write_text(MAP, encoding="utf-8")
    scen = tmp_path / "s.json"
    assert main(["import-tiled", str(src), "--out", str(scen)]) == 0
    out = capsys.readouterr().out
    assert "3 x 2 hex grid (flat-top, even parity)" in out
    assert "1 tile id not mapped" in out and "tile 2 ('ts' #1) -> ts-1 (generated, 2 cells)" in out
    assert main(["import-tiled", str(src), "--out", str(scen), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [(t["gid"], t["terrain"]) for t in d["unmapped"]] == [(2, "ts-1")]
    assert d["terrain"] == ["clear", "ts-1"]
    tm = tmp_path / "tm.json"
    tm.write_text(json.dumps({"tiles": {"2": "forest"}}), encoding="utf-8")
    assert main(["import-tiled", str(src), "--terrain-map", str(tm), "--out", str(scen), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["unmapped"] == [] and d["terrain"] == ["clear", "forest"]
    for name in ("e.tmx", "e.json"):
        assert main(["export-tiled", str(scen), "--out", str(tmp_path / name), "--generated", "--json"]) == 0
        d = json.loads(capsys.readouterr().out)
        assert (d["orientation"], d["staggeraxis"], d["staggerindex"]) == ("hexagonal", "x", "even")
        assert Path(d["image"]).is_file() and (tmp_path / name).is_file()
        assert d["terrain_gids"] == {"clear": 1, "forest": 2}


def test_bad_input_is_a_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "m.tmx"
    src.write_text(MAP.replace("1,1,2,2,1,1", "1,1,2"), encoding="utf-8")
    assert main(["import-tiled", str(src), "--out", str(tmp_path / "s.json")]) == 1
    err = capsys.readouterr().err
    assert f"adjutant import-tiled: {src}: layer 'Ground'" in err and "holds 3 tile ids" in err
    assert "Traceback" not in err
    assert main(["import-tiled", str(tmp_path / "none.tmx"), "--out", str(tmp_path / "s.json"), "--json"]) == 1
    assert "none.tmx: no such map file" in json.loads(capsys.readouterr().out)["error"]
    src.write_text(MAP, encoding="utf-8")
    assert main(["import-tiled", str(src), "--out", str(tmp_path / "s.json")]) == 0
    assert main(["export-tiled", str(tmp_path / "s.json"), "--out", str(tmp_path / "m.png")]) == 1
    assert ".tmx" in capsys.readouterr().err
