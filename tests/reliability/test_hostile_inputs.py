"""Hostile input classes of issues 21 and 22, each through the real
``adjutant`` command in a child process: every one ends with exit status 1
and a message naming the file, within :data:`CPU_LIMIT_S` seconds of CPU
and :data:`MEMORY_LIMIT_MB` of peak memory, both measured for that child
alone (``os.wait4``: the child's own ``ru_maxrss`` and CPU time, not the
test process's lifetime peak).  Accepted inputs (a byte order mark) load.

The attack inputs are generated here, never stored.  The CI form keeps
them small enough to stay fast; ``@pytest.mark.slow`` forms use the sizes
the issues name (a gzipped map inflating to 200 MB).
"""

from __future__ import annotations

import gc
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
GRID_MAP = MAPS / "gitm_lakes.json"
TERRITORY_MAP = MAPS / "railroad_module_europe.json"

CPU_LIMIT_S = 2.0
"""CPU seconds (user + system) one refused input may cost the whole command."""
MEMORY_LIMIT_MB = 500
"""Peak resident memory of the whole command, in MB."""


@dataclass
class Run:
    code: int
    out: str
    err: str
    cpu_s: float
    peak_mb: float


LAUNCHER = r"""
import json, os, resource, sys
argv, report_fd = json.loads(sys.argv[1]), int(sys.argv[2])
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_CPU, (30, 30))  # a runaway input is stopped, not waited for
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    os.close(report_fd)
    os.execv(argv[0], argv)
_, status, usage = os.wait4(pid, 0)
os.write(report_fd, json.dumps([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime,
                        usage.ru_maxrss]).encode())
"""
"""Runs the command as its own child and reports that child's rusage.  A
small launcher in between matters: on Linux a child's ``ru_maxrss`` starts
at the resident size of the process it was forked from (the kernel carries
the old memory's high-water mark over ``exec``), so forking from the test
process itself would report its 100+ MB for every input."""


def child(argv: list[str], cwd: Path | None = None) -> Run:
    """Run ``argv`` in a child; its own CPU time and peak memory (reaped with
    ``os.wait4`` by :data:`LAUNCHER`, so the figures are that child's alone)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    r, w = os.pipe()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, json.dumps(argv), str(w)], env=env, cwd=cwd or ROOT,
                                    stdout=out, stderr=err, stdin=subprocess.DEVNULL, pass_fds=(w,),
                                    start_new_session=True)
        finally:
            os.close(w)
        timer = threading.Timer(60, lambda: os.killpg(proc.pid, 9))  # a read blocked forever uses no CPU
        gc.collect()  # so the collector does not run in the watchdog thread as it starts (tests/conftest.py)
        timer.start()
        try:
            report = b""
            while chunk := os.read(r, 4096):
                report += chunk
            proc.wait()
        finally:
            timer.cancel()
            os.close(r)
        out.seek(0)
        err.seek(0)
        code, cpu, maxrss = json.loads(report or b"[-9, 0, 0]")
        return Run(code, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"), cpu,
                   maxrss / 1024)


def adjutant(*args: str | Path, cwd: Path | None = None) -> Run:
    """Run ``adjutant ARGS`` in a child (see :func:`child`)."""
    return child([sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())", *map(str, args)],
                 cwd)


def refused(run: Run, name: str | Path) -> None:
    """Exit status 1, the file named, no traceback, within the bounds."""
    text = run.out + run.err
    assert run.code == 1, text[-2000:]
    assert str(name) in text, text[-2000:]
    assert "Traceback" not in text, text[-3000:]
    assert run.cpu_s <= CPU_LIMIT_S, f"{run.cpu_s:.2f} s CPU"
    assert run.peak_mb <= MEMORY_LIMIT_MB, f"{run.peak_mb:.0f} MB"


def _tmx(body: str, w: int = 2, h: int = 2, tileset: str = "") -> str:
    ts = tileset or ('<tileset firstgid="1" name="t" tilewidth="32" tileheight="32" tilecount="4" columns="2">'
                     '<image source="t.png" width="64" height="64"/></tileset>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" width="{w}" '
            f'height="{h}" tilewidth="32" tileheight="32">{ts}{body}</map>\n')


LAYER = '<layer name="terrain" width="2" height="2"><data encoding="csv">1,1,1,1</data></layer>'


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    p = tmp_path / "pipe.json"
    os.mkfifo(p)
    return p


@pytest.mark.parametrize("command", [["validate"], ["info"], ["import-tiled", "--out", "o.json"],
                                     ["import-triplea", "--out", "o.json"]])
def test_a_fifo_is_refused_without_waiting(command: list[str], fifo: Path, tmp_path: Path) -> None:
    refused(adjutant(command[0], fifo, *command[1:], cwd=tmp_path), fifo)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", [["info"], ["import-tiled", "--out", "o.json"],
                                     ["import-triplea", "--out", "o.json"]])
def test_a_device_is_refused(command: list[str], device: str, tmp_path: Path) -> None:
    r = adjutant(command[0], device, *command[1:], cwd=tmp_path)
    refused(r, device)
    assert "character device" in r.err


def test_a_fifo_as_railplan_orders_is_refused(fifo: Path, tmp_path: Path) -> None:
    refused(adjutant("railplan", TERRITORY_MAP, "--orders", fifo, cwd=tmp_path), fifo)


def _gzip_padding(size: int) -> bytes:
    """``size`` bytes of XML whitespace, gzipped as it streams (a bomb of ratio ~1000)."""
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = b" " * (1 << 20)
    parts = [z.compress(chunk) for _ in range(size >> 20)]
    return b"".join(parts) + z.flush()


INFLATED = 20 * 1024 * 1024
"""Bytes the CI form's gzip bombs inflate to (the slow form: 200 MB, as issue 21 measured)."""


def _gzip_bomb_map(tmp_path: Path, size: int) -> Path:
    head = _tmx(LAYER).encode()
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    body = z.compress(head[:-7])
    chunk = b"<properties/>" * 80_000
    for _ in range(size // len(chunk)):
        body += z.compress(chunk)
    body += z.compress(head[-7:]) + z.flush()
    p = tmp_path / "bomb.tmx.gz"
    p.write_bytes(body)
    return p


def test_a_gzipped_tmx_bomb_is_refused(tmp_path: Path) -> None:
    p = _gzip_bomb_map(tmp_path, INFLATED)
    r = adjutant("import-tiled", p, "--out", tmp_path / "o.json")
    refused(r, p)
    assert "decompresses to more than" in r.err


@pytest.mark.slow
def test_a_200_mb_gzipped_tmx_bomb_is_refused(tmp_path: Path) -> None:
    p = _gzip_bomb_map(tmp_path, 200 * 1024 * 1024)
    refused(adjutant("import-tiled", p, "--out", tmp_path / "o.json"), p)


def test_a_tileset_that_exists_only_gzipped_is_bounded(tmp_path: Path) -> None:
    (tmp_path / "t.tsx.gz").write_bytes(_gzip_padding(INFLATED))
    m = tmp_path / "m.tmx"
    m.write_text(_tmx(LAYER, tileset='<tileset firstgid="1" source="t.tsx"/>'), encoding="utf-8")
    r = adjutant("import-tiled", m, "--out", tmp_path / "o.json")
    refused(r, "t.tsx.gz")
    assert "decompresses to more than" in r.err


def test_a_gzipped_tiled_json_bomb_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "bomb.json.gz"
    p.write_bytes(_gzip_padding(INFLATED))
    refused(adjutant("import-tiled", p, "--out", tmp_path / "o.json"), p)


def test_a_small_gzipped_map_still_loads(tmp_path: Path) -> None:
    p = tmp_path / "small.tmx.gz"
    p.write_bytes(gzip.compress(_tmx(LAYER).encode()))
    from engine.io.tiled.format import load_map

    assert load_map(p).width == 2


def _nested_groups(depth: int) -> str:
    return _tmx("".join(f'<group name="g{i}">' for i in range(depth)) + LAYER + "</group>" * depth)


def test_tmx_groups_nested_1000_deep_are_refused(tmp_path: Path) -> None:
    p = tmp_path / "deep.tmx"
    p.write_text(_nested_groups(1000), encoding="utf-8")
    r = adjutant("import-tiled", p, "--out", tmp_path / "o.json")
    refused(r, p)
    assert "nested more than 100 deep" in r.err


def test_tmx_groups_nested_50_deep_load() -> None:
    from engine.io.inputs import MAX_XML_DEPTH
    from engine.io.tiled.format import _TmxReader

    m = _TmxReader(Path("deep.tmx")).read_map(_nested_groups(MAX_XML_DEPTH // 2).encode())
    assert len(m.layers) == 1


def test_tiled_json_groups_nested_deep_are_refused(tmp_path: Path) -> None:
    layer: dict[str, object] = {"type": "tilelayer", "name": "terrain", "width": 2, "height": 2, "data": [1, 1, 1, 1]}
    for i in range(300):
        layer = {"type": "group", "name": f"g{i}", "layers": [layer]}
    d = {"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 32, "tileheight": 32,
         "infinite": False, "layers": [layer], "tilesets": []}
    p = tmp_path / "deep.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    refused(adjutant("import-tiled", p, "--out", tmp_path / "o.json"), p)


def test_an_over_long_tileset_name_is_refused(tmp_path: Path) -> None:
    m = tmp_path / "m.tmx"
    m.write_text(_tmx(LAYER, tileset=f'<tileset firstgid="1" source="{"a" * 5000}.tsx"/>'), encoding="utf-8")
    refused(adjutant("import-tiled", m, "--out", tmp_path / "o.json"), m)


def test_xml_with_millions_of_elements_is_refused_before_parsing(tmp_path: Path) -> None:
    p = tmp_path / "flat.tmx"
    p.write_bytes(_tmx(LAYER + "<properties/>" * 2_100_000).encode())
    r = adjutant("import-tiled", p, "--out", tmp_path / "o.json")
    refused(r, p)
    assert "pieces of XML markup" in r.err


# -- text and numbers (issue 22) -------------------------------------------------

def _variant(tmp_path: Path, source: Path, name: str, change: str, value: str) -> Path:
    """``source`` with the JSON text of ``change`` replaced by ``value`` (kept as text, so
    escapes such as ``\\udc80`` and tokens such as ``NaN`` reach the loader as written)."""
    text = source.read_text(encoding="utf-8")
    assert change in text
    p = tmp_path / name
    p.write_text(text.replace(change, value, 1), encoding="utf-8")
    return p


GRID_NAME = '"name": ' + json.dumps(json.loads(GRID_MAP.read_text(encoding="utf-8"))["name"])
TERRITORY_NAME = '"name": ' + json.dumps(json.loads(TERRITORY_MAP.read_text(encoding="utf-8"))["name"])


@pytest.mark.parametrize("command", [["validate"], ["info"], ["info", "--json"],
                                     ["rail-options", "--unit", "x"]])
def test_a_lone_surrogate_name_is_refused_naming_file_and_field(command: list[str], tmp_path: Path) -> None:
    p = _variant(tmp_path, TERRITORY_MAP, "sur.json", TERRITORY_NAME, '"name": "Bad \\udc80 name"')
    r = adjutant(command[0], p, *command[1:])
    refused(r, p)
    assert "name: holds the character U+DC80" in r.out + r.err


def test_export_tiled_refuses_a_lone_surrogate_name(tmp_path: Path) -> None:
    p = _variant(tmp_path, GRID_MAP, "sur.json", GRID_NAME, '"name": "Bad \\udc80 name"')
    refused(adjutant("export-tiled", p, "--out", tmp_path / "t.tmx"), p)
    assert not (tmp_path / "t.tmx").exists()


@pytest.mark.parametrize("char", ["\\u0001", "\\u0008", "\\u001f", "\\uffff"])
def test_xml_forbidden_characters_are_refused_at_validation(char: str, tmp_path: Path) -> None:
    p = _variant(tmp_path, GRID_MAP, "ctl.json", GRID_NAME, f'"name": "a{char}b"')
    r = adjutant("validate", p)
    refused(r, p)
    assert "name: holds the character" in r.out


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.json"
    p.write_bytes(b"\xef\xbb\xbf" + GRID_MAP.read_bytes())
    r = adjutant("validate", p)
    assert r.code == 0 and "ok" in r.out, r.out + r.err


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_non_finite_territory_width_is_refused_at_load(value: str, tmp_path: Path) -> None:
    p = _variant(tmp_path, TERRITORY_MAP, "w.json", '"width": 400', f'"width": {value}')
    for command in (["validate"], ["info", "--json"]):
        r = adjutant(*command, p)
        refused(r, p)
        assert "$.map.grid" in r.out + r.err  # the schema's message for -Infinity, else the value's own path


@pytest.mark.parametrize(("orders", "expect"), [
    ('[{"nation": "Germany", "from": "Germany", "to": "Poland", "count": 9223372036854775808}]', "out of range"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('[{"nation": "Germany", "from": "Germany", "to": "Poland", "count": 1' + "0" * 5000 + "}]", "digits"),
    ('[{"nation": "Germany", "from": "Germany", "to": "Poland", "count": NaN}]', "out of range"),
])
def test_railplan_orders_out_of_range_are_refused(orders: str, expect: str, tmp_path: Path) -> None:
    p = tmp_path / "orders.json"
    p.write_text(orders, encoding="utf-8")
    r = adjutant("railplan", TERRITORY_MAP, "--orders", p)
    refused(r, p)
    assert expect in r.err


@pytest.mark.parametrize("scale", ["1e300", "inf", "nan", "0", "-5"])
def test_render_refuses_a_scale_out_of_range(scale: str, tmp_path: Path) -> None:
    r = adjutant("render", GRID_MAP, "--out", tmp_path / "o.png", "--scale", scale)
    refused(r, "--scale")
    assert not (tmp_path / "o.png").exists()


# -- geometry work (issue 21 item 7; issue 22: star polygons) -------------------

def _star(n: int, cx: float = 200, cy: float = 140, r: float = 120) -> list[list[float]]:
    """A ring of ``n`` points jumping almost across the circle each step:
    every edge crosses nearly every other (about n^2/4 crossings)."""
    k = n // 2 - 1
    return [[round(cx + r * math.cos(2 * math.pi * i * k / n), 3), round(cy + r * math.sin(2 * math.pi * i * k / n), 3)]
            for i in range(n)]


def _with_polygons(tmp_path: Path, rings: list[list[list[float]]], name: str = "geo.json") -> Path:
    d = json.loads(TERRITORY_MAP.read_text(encoding="utf-8"))
    d["map"]["territories"][0]["polygons"] = rings
    p = tmp_path / name
    p.write_text(json.dumps(d), encoding="utf-8")
    return p


@pytest.mark.parametrize("n", [400, 2000])
def test_a_star_polygon_is_refused_within_the_budget(n: int, tmp_path: Path) -> None:
    p = _with_polygons(tmp_path, [_star(n)])
    for command in ("validate", "info"):
        r = adjutant(command, p)
        refused(r, p)
        assert "crosses itself too often to repair" in r.out + r.err


def test_many_small_self_crossing_rings_stay_within_the_budget(tmp_path: Path) -> None:
    bow_ties = [[[x, y], [x + 2, y + 2], [x + 2, y], [x, y + 2]] for x in range(0, 400, 3) for y in range(0, 280, 3)]
    p = _with_polygons(tmp_path, bow_ties)
    r = adjutant("validate", p)
    assert r.code in (0, 1), r.err
    assert "Traceback" not in r.out + r.err
    assert r.cpu_s <= CPU_LIMIT_S and r.peak_mb <= MEMORY_LIMIT_MB, (r.cpu_s, r.peak_mb)


def test_a_small_star_is_still_repaired() -> None:
    from engine.territory.geometry import shape_from_rings

    shape = shape_from_rings([_star(40)])
    assert shape.is_valid and not shape.is_empty


def test_import_triplea_refuses_a_star_polygon_within_the_budget(tmp_path: Path) -> None:
    game = tmp_path / "g.xml"
    game.write_text('<?xml version="1.0"?><game><map><territory name="A"/></map></game>', encoding="utf-8")
    polygons = tmp_path / "polygons.txt"
    polygons.write_text("A < " + " ".join(f"({x},{y})" for x, y in _star(2000)) + " >\n", encoding="utf-8")
    r = adjutant("import-triplea", game, "--polygons", polygons, "--out", tmp_path / "o.json")
    refused(r, "A")
    assert "crosses itself too often" in r.err


# -- state.tiled, validated by the schema like everything else (issue 21 item 10) -----------

def _imported(tmp_path: Path) -> dict[str, object]:
    """A scenario imported from a small TMX, with its ``state.tiled`` record."""
    from engine.io import scenario_to_data
    from engine.io.tiled import import_tiled

    m = tmp_path / "small.tmx"
    m.write_text(_tmx(LAYER), encoding="utf-8")
    data = scenario_to_data(import_tiled(m).scenario)
    assert "tiled" in data["state"]
    return json.loads(json.dumps(data))


@pytest.mark.parametrize(("key", "value"), [
    ("tilewidth", "x"), ("tilewidth", 2**70), ("width", 1e308), ("tilesets", [1]), ("tilesets", [{"firstgid": -1}]),
    ("gid_terrain", {"x": 1}), ("terrain_gid", {"land": 2**64}), ("properties", [[]]), ("staggeraxis", 3),
    ("cells", 17),
])
def test_a_malformed_state_tiled_is_refused_by_validate(key: str, value: object, tmp_path: Path) -> None:
    data = _imported(tmp_path)
    data["state"]["tiled"][key] = value  # type: ignore[index]
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    r = adjutant("validate", p)
    refused(r, p)
    assert "$.state.tiled" in r.out, r.out


def test_a_zlib_bomb_in_state_tiled_is_not_inflated(tmp_path: Path) -> None:
    import base64

    data = _imported(tmp_path)
    data["state"]["tiled"]["cells"] = base64.b64encode(  # type: ignore[index]
        zlib.compress(b"\0" * INFLATED, 9)).decode("ascii")
    p = tmp_path / "bomb.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    r = adjutant("export-tiled", p, "--out", tmp_path / "out.tmx")
    assert r.code == 0 and "Traceback" not in r.err, r.err
    assert "were not used" in r.out + r.err
    assert r.cpu_s <= CPU_LIMIT_S and r.peak_mb <= MEMORY_LIMIT_MB, (r.cpu_s, r.peak_mb)


# -- the editor's File > Open (issue 21 item 8: a FIFO froze it forever) -------------------

@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_file_open_refuses_a_fifo_or_device_at_once(special: str, qtbot: object, tmp_path: Path) -> None:
    import time

    from PySide6.QtCore import QSettings

    from app.gui.main_window import MainWindow
    from engine.io import load_scenario

    path = str(tmp_path / "pipe.json") if special == "fifo" else special
    if special == "fifo":
        os.mkfifo(path)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(load_scenario(GRID_MAP), None, settings, tmp_path / "state", previews=[])
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    start = time.process_time()
    assert not w.open_file(path, ask=False)
    assert time.process_time() - start < CPU_LIMIT_S
    problems = w.error_dialog.problems
    assert any("not a regular file" in p and path in p for p in problems), problems
    w.close()
