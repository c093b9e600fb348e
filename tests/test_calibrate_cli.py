"""``adjutant calibrate`` (app/cli/calibrate.py, issue 20): the transform,
residuals and RMS as text and JSON, ``--write`` storing the calibration in
the scenario, and bad input refused with a message (never a traceback)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli import main
from engine.calibration import Affine, Underlay
from engine.grids import Cell
from engine.io import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"
TRUTH = Affine(30.0, 2.0, 100.0, -1.0, 28.0, 120.0)
CELLS = [Cell(0, 0), Cell(25, 0), Cell(0, 19), Cell(25, 19), Cell(12, 9)]


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    out = tmp_path / "acw.json"
    shutil.copyfile(SAMPLE, out)
    return out


def write_points(tmp_path: Path, noise: float = 0.0, cells: list[Cell] = CELLS) -> Path:
    s = load_scenario(SAMPLE)
    layout = s.map.grid.make_layout(1.0)
    pts = []
    for i, c in enumerate(cells):
        x, y = TRUTH.apply(*layout.center(c))
        pts.append({"x": x + (noise if i == 0 else 0.0), "y": y, "label": s.map.label(c)})
    p = tmp_path / "points.json"
    p.write_text(json.dumps(pts), encoding="utf-8")
    return p


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["calibrate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_report(capsys, scenario, tmp_path):
    code, out, err = run(capsys, str(scenario), "--points", str(write_points(tmp_path)))
    assert code == 0 and err == ""
    assert "5 points, affine fit" in out
    assert "x' = 30 x + 2 y + 100" in out and "y' = -1 x + 28 y + 120" in out
    assert "0101  (" in out and "RMS 0.000 px" in out
    assert scenario.read_bytes() == SAMPLE.read_bytes()  # without --write nothing is stored


def test_json_report_has_residual_per_point(capsys, scenario, tmp_path):
    code, out, _ = run(capsys, str(scenario), "--points", str(write_points(tmp_path, noise=4.0)), "--json")
    data = json.loads(out)
    assert code == 0 and data["written"] is False and data["piecewise"] is False
    assert [p["label"] for p in data["points"]] == ["0101", "2601", "0120", "2620", "1310"]
    assert all(p["residual"] > 0 for p in data["points"]) and data["points"][0]["residual"] > 1.0
    assert data["points"][0]["leave_one_out"] == pytest.approx(4.0, abs=1e-6)  # the 4 px off click, alone
    assert data["rms"] == pytest.approx((sum(p["residual"] ** 2 for p in data["points"]) / 5) ** 0.5)
    assert set(data["describe"]) == {"scale_x", "scale_y", "rotation_degrees", "skew_degrees",
                                     "translate_x", "translate_y"}


def test_write_stores_the_underlay_and_the_file_still_loads(capsys, scenario, tmp_path):
    pts = write_points(tmp_path)
    code, out, err = run(capsys, str(scenario), "--points", str(pts), "--piecewise", "--write",
                         "--image", "scans/acw.png")
    assert code == 0, err
    assert "stored in" in out and "piecewise correction on" in out
    s = load_scenario(scenario)
    u = Underlay.from_dict(s.map.underlay)
    assert u.image == "scans/acw.png" and u.piecewise and len(u.points) == 5
    assert u.transform is not None
    assert [u.transform.a, u.transform.c, u.transform.f] == pytest.approx([30.0, 100.0, 120.0], abs=1e-9)
    # a second run keeps the image and replaces the calibration
    code, _, _ = run(capsys, str(scenario), "--points", str(pts), "--write")
    assert code == 0
    u2 = Underlay.from_dict(load_scenario(scenario).map.underlay)
    assert u2.image == "scans/acw.png" and not u2.piecewise


@pytest.mark.parametrize(("extra", "message"), [
    (["--write"], "has no underlay yet: give the scan's path relative to it with --image"),
    (["--image", "a.png"], "--image is only used with --write"),
    (["--write", "--image", "/abs/scan.png"], "give the scan's path relative to"),
])
def test_write_options_refused(capsys, scenario, tmp_path, extra, message):
    code, _, err = run(capsys, str(scenario), "--points", str(write_points(tmp_path)), *extra)
    assert code == 1 and message in err and "Traceback" not in err
    assert scenario.read_bytes() == SAMPLE.read_bytes()


@pytest.mark.parametrize(("content", "message"), [
    ("[1, 2", "not valid JSON"),
    ('{"x": 1}', "points.json: expected a list"),
    ('[{"x": 1, "y": 2, "label": "0101"}, {"x": 5, "y": 2, "label": "0201"}]', "2 points given"),
    ('[{"x": 1, "y": 2, "label": "0101"}, {"x": 5, "y": 2, "label": "0201"}, {"x": 9, "y": 40, "label": "9999"}]',
     "point 3 (label '9999'): '9999' is off the map"),
    ('[{"x": 1, "y": 2, "label": "0101"}, {"x": 5, "y": 9, "label": "0102"}, {"x": 9, "y": 40, "label": "0105"}]',
     "these cells lie on one line of the grid"),
    ('[{"x": 1, "y": 2, "label": "0101"}, {"x": 5, "y": 2, "label": "0201"}, {"x": 9, "y": 2, "label": "0301"}]',
     "these clicks lie on one line (or one spot) of the image although their cells do not"),
    ('[{"x": 1, "y": "2", "label": "0101"}]', "points.json[0].y: expected a finite number"),
])
def test_bad_points_refused_with_a_message(capsys, scenario, tmp_path, content, message):
    p = tmp_path / "points.json"
    p.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, str(scenario), "--points", str(p), "--json")
    assert code == 1 and "Traceback" not in err
    assert message in json.loads(out)["error"]


def test_missing_points_file(capsys, scenario, tmp_path):
    code, _, err = run(capsys, str(scenario), "--points", str(tmp_path / "nope.json"))
    assert code == 1 and "nope.json: no such file" in err


@pytest.mark.parametrize(("kind", "message"), [
    ("folder", "is a folder"),
    ("fifo", "not a regular file"),
    ("latin1", "not UTF-8 text"),
    ("deep", "nested too deeply to be a list of points"),
])
def test_hostile_points_files_are_refused_without_a_traceback(capsys, scenario, tmp_path, kind, message):
    import os

    p = tmp_path / "points.json"
    if kind == "folder":
        p.mkdir()
    elif kind == "fifo":
        os.mkfifo(p)
    elif kind == "latin1":
        p.write_bytes(b'[{"x": 1, "y": 2, "label": "\xe9"}]')
    else:
        p.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, _, err = run(capsys, str(scenario), "--points", str(p))
    assert code == 1 and message in err and "Traceback" not in err
    assert scenario.read_bytes() == SAMPLE.read_bytes()
