"""``adjutant render`` and :mod:`app.gui.export`: whole-map PNG/SVG export
with the canvas's own renderers.

Reference images live in ``tests/reference/render_*.png``; after a
deliberate change of the map's look, regenerate them with
``ADJUTANT_UPDATE_REFERENCES=1 pytest tests/gui/test_render_export.py`` and
look at them before committing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QColor, QImage
from test_canvas_scenarios import TERRAIN, make_scenario

from app.cli import main as cli
from app.gui import export
from app.gui.overlay import CellMark, Overlay
from app.gui.render import renderer_for
from engine.grids import Cell
from engine.io import load_any, save_scenario

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "tests" / "reference"
TOLERANCE = 2.0
"""Largest mean absolute difference (0..255, over every pixel and channel)
from a reference image: room for font rasterisation, not for a changed map."""

KINDS = {
    "square": ("square", "flat", "odd"),
    "hex_flat_odd": ("hex", "flat", "odd"),
    "hex_pointy_even": ("hex", "pointy", "even"),
}


def _pixels(path: Path) -> np.ndarray:
    img = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    assert not img.isNull(), f"{path} is not a readable image"
    a = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    return a[:, : img.width() * 4].reshape(img.height(), img.width(), 4)[..., 2::-1].astype(np.int16).copy()


def _mad(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).mean())


def _render(tmp_path: Path, name: str, scenario, *extra: str) -> tuple[int, Path, dict]:
    src = tmp_path / f"{name}.json"
    save_scenario(scenario, src)
    out = tmp_path / f"{name}.png"
    rc = cli(["render", str(src), "--out", str(out), "--json", *extra])
    return rc, out, {}


@pytest.mark.parametrize("name", list(KINDS))
def test_render_matches_reference(qapp, tmp_path, capsys, name) -> None:
    kind, orientation, parity = KINDS[name]
    s = make_scenario(kind, 12, 9, orientation, parity)
    rc, out, _ = _render(tmp_path, name, s)
    assert rc == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    assert (data["width"], data["height"]) == renderer_for(s).scene_size(24 / renderer_for(s).extent)
    ref = REFERENCE / f"render_{name}.png"
    if os.environ.get("ADJUTANT_UPDATE_REFERENCES"):
        ref.write_bytes(out.read_bytes())
    got, want = _pixels(out), _pixels(ref)
    assert got.shape == want.shape
    assert _mad(got, want) <= TOLERANCE, f"{name}: differs from {ref.name} by {_mad(got, want):.2f}"


def test_reference_comparison_catches_a_changed_map(qapp, tmp_path, capsys) -> None:
    s = make_scenario("square", 12, 9)
    s.map.terrain[3:7, 3:9] = 5  # a lake where the reference has land
    rc, out, _ = _render(tmp_path, "changed", s)
    assert rc == 0
    assert _mad(_pixels(out), _pixels(REFERENCE / "render_square.png")) > TOLERANCE


@pytest.mark.parametrize("name", list(KINDS))
def test_cell_centre_has_its_terrain_colour(qapp, tmp_path, capsys, name) -> None:
    kind, orientation, parity = KINDS[name]
    s = make_scenario(kind, 12, 9, orientation, parity)
    rc, out, _ = _render(tmp_path, name, s, "--scale", "30")
    assert rc == 0
    px = _pixels(out)
    r = renderer_for(s)
    zoom = 30 / r.extent
    # uncontrolled cells clear of rivers, links, places and units
    for cell in (Cell(5, 0), Cell(4, 3), Cell(5, 7)):
        assert s.map.control[cell.row, cell.col] == -1
        t = TERRAIN[int(s.map.terrain[cell.row, cell.col])]
        x, y = r.layout.center(cell)
        want = QColor(t.color)
        got = px[int(y * zoom), int(x * zoom)]
        assert tuple(got) == (want.red(), want.green(), want.blue()), f"{name} {cell}: {tuple(got)} is not {t.color}"


def test_overlay_and_svg(qapp, tmp_path) -> None:
    s = make_scenario("hex", 12, 9, "flat", "odd")
    r = renderer_for(s)
    ov = Overlay((CellMark(Cell(5, 0), fill="#ff0000"),))
    w, _h = export.export_map(s, tmp_path / "ov.png", 30, overlays=[ov])
    x, y = r.layout.center(Cell(5, 0))
    z = 30 / r.extent
    assert tuple(_pixels(tmp_path / "ov.png")[int(y * z), int(x * z)]) == (255, 0, 0)
    assert export.svg_available()
    export.export_map(s, tmp_path / "m.svg", 30, labels=True)
    text = (tmp_path / "m.svg").read_text()
    assert text.startswith("<?xml") and "<svg" in text and "<image" in text
    assert f'width="{w}' in text or "viewBox" in text


def test_export_refuses_bad_requests(qapp, tmp_path, capsys) -> None:
    s = make_scenario("square", 12, 9)
    with pytest.raises(export.ExportError, match="over the export limit"):
        export.export_map(s, tmp_path / "big.png", 5000)
    with pytest.raises(export.ExportError, match=r"\.png or \.svg"):
        export.export_map(s, tmp_path / "m.gif", 24)
    src = tmp_path / "s.json"
    save_scenario(s, src)
    assert cli(["render", str(src), "--out", str(tmp_path / "x.png"), "--scale", "100000"]) == 1
    assert "--scale" in capsys.readouterr().err
    assert cli(["render", str(src), "--out", str(tmp_path / "x.png"), "--labels", "--scale", "20"]) == 1
    assert "--labels needs --scale 40" in capsys.readouterr().err


@pytest.mark.parametrize("path", sorted((ROOT / "maps").glob("*.json")), ids=lambda p: p.stem)
def test_render_every_sample_map(qapp, tmp_path, capsys, path) -> None:
    out = tmp_path / f"{path.stem}.png"
    rc = cli(["render", str(path), "--out", str(out)])
    err = capsys.readouterr().err
    from engine.model import Scenario

    if isinstance(load_any(path), Scenario):
        assert rc == 0, err
        img = QImage(str(out))
        m = load_any(path).map
        assert img.width() >= 10 * m.width and img.height() >= 10 * m.height
    else:  # a territory map, drawn since issue 18 (was refused "not a grid map")
        assert rc == 0, err
        img = QImage(str(out))
        assert max(img.width(), img.height()) == 2000


def test_export_view_is_what_the_canvas_shows(qtbot, tmp_path) -> None:
    from app.gui.canvas import MapCanvas

    c = MapCanvas()
    qtbot.addWidget(c)
    c.resize(500, 400)
    c.show()
    qtbot.waitExposed(c)
    s = make_scenario("square", 12, 9)
    c.set_scenario(s)
    c.fit()
    w, h = export.export_view(c, tmp_path / "view.png")
    assert (w, h) == (c.viewport().width(), c.viewport().height())
    shown = c.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    shown.save(str(tmp_path / "grab.png"))
    assert _mad(_pixels(tmp_path / "view.png"), _pixels(tmp_path / "grab.png")) <= TOLERANCE
