"""The scanned-map underlay in the grid editor (issue 20, items 1–2;
app/gui/underlay.py, app/gui/docks/underlay.py): added by its path relative
to the map, cut into tiles once and drawn under the map's lines at its
opacity, calibrated by clicks with residuals, every change one undo step,
kept through save and reopen, through a switch of maps, and a missing scan
reported without stopping the map from opening."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter
from window_kit import open_map

from app.gui.underlay import TilePyramid
from engine.calibration import Affine
from engine.grids import Cell
from engine.io import load_scenario

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
ACW = ROOT / "maps" / "acw_short_campaign.json"
GITM = ROOT / "maps" / "gitm_examples.json"
SCAN_RGB = (200, 40, 160)  # a magenta no terrain has
TRUTH = Affine(36.0, 3.0, 60.0, -2.0, 35.0, 80.0)  # layout (cell size 1) -> scan pixels


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))


def make_scan(path: Path, w: int = 1400, h: int = 1100) -> None:
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(QColor(*SCAN_RGB))
    p = QPainter(img)
    p.fillRect(0, 0, 80, 80, QColor(20, 20, 20))
    p.end()
    assert img.save(str(path))


def map_with_scan(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "maps"
    (folder / "scans").mkdir(parents=True)
    m = folder / "acw.json"
    shutil.copyfile(ACW, m)
    scan = folder / "scans" / "acw.png"
    make_scan(scan)
    return m, scan


def scan_shows(w) -> bool:
    """Whether the window's canvas shows the scan's colour somewhere."""
    img = w.canvas.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    a = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    rgb = a[:, :img.width() * 3].reshape(img.height(), img.width(), 3).astype(int)
    near = np.abs(rgb - np.array(SCAN_RGB)).sum(axis=-1) < 30
    return bool(near.mean() > 0.05)


def shows_colour(w, rgb: tuple[int, int, int]) -> int:
    """How many viewport pixels are of colour ``rgb`` (within 30)."""
    img = w.canvas.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    a = np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    px = a[:, :img.width() * 3].reshape(img.height(), img.width(), 3).astype(int)
    return int((np.abs(px - np.array(rgb)).sum(axis=-1) < 30).sum())


def click_points(w, cells: list[Cell]) -> None:
    lay = w.document.scenario.map.grid.make_layout(1.0)
    for c in cells:
        x, y = TRUTH.apply(*lay.center(c))
        assert w.underlay_panel.add_point(x, y, w.document.scenario.map.label(c)) is None


def test_add_show_calibrate_undo_and_reopen(qtbot, tmp_path) -> None:
    path, scan = map_with_scan(tmp_path)
    w = open_map(qtbot, tmp_path, path)
    panel = w.underlay_panel
    assert not panel.remove.isEnabled() and not scan_shows(w)
    assert panel.add_image(str(scan))
    assert w.document.scenario.map.underlay["image"] == "scans/acw.png"
    assert w.document.undo_stack.undoText() == "Add underlay"
    assert panel.pyramid is not None and (panel.pyramid.width, panel.pyramid.height) == (1400, 1100)
    assert panel.opacity.value() == 70
    panel.opacity.setValue(100)
    panel.opacity.sliderReleased.emit()
    assert w.document.scenario.map.underlay["opacity"] == 1.0
    w.canvas.fit()
    qtbot.wait(20)
    w.canvas.viewport().grab().save(str(tmp_path / "scan-shown.png"))
    assert scan_shows(w)
    panel.show_box.setChecked(False)
    assert w.document.scenario.map.underlay["visible"] is False and not scan_shows(w)
    w.document.undo_stack.undo()
    assert w.document.scenario.map.underlay["visible"] is True and panel.show_box.isChecked()
    # calibration: two points are not enough, the third fixes the grid
    click_points(w, [Cell(1, 1), Cell(24, 2)])
    assert "transform" not in w.document.scenario.map.underlay
    grid_rgb = (0xE6, 0x00, 0x7E)
    assert shows_colour(w, grid_rgb) == 0  # no grid over the scan before it is calibrated
    click_points(w, [Cell(12, 18)])
    qtbot.wait(20)
    assert shows_colour(w, grid_rgb) > 500  # the fitted grid drawn over the scan
    rec = w.document.scenario.map.underlay
    assert np.allclose(np.array(rec["transform"]), np.array(TRUTH.to_list()), atol=1e-6)
    assert panel.table.rowCount() == 3 and panel.table.item(0, 2).text() == "0.00 px"
    assert panel.rms.text().startswith("RMS 0.00 px over 3 points")
    # a refused point changes nothing
    steps = w.document.undo_stack.count()
    assert panel.add_point(10, 10, "9999") is not None and w.document.undo_stack.count() == steps
    assert "Point not added" in panel.message.text()
    # the scan follows the calibration: the scan's pixel of a cell's centre lies on that cell
    t = w.canvas.underlay_transform()
    lay = w.document.scenario.map.grid.make_layout(1.0)
    px = TRUTH.apply(*lay.center(Cell(5, 7)))
    assert w.canvas.cell_at(t.map(QPointF(*px))) == Cell(5, 7)
    w.document.undo_stack.undo()
    assert "transform" not in w.document.scenario.map.underlay and panel.table.rowCount() == 2
    w.document.undo_stack.redo()
    assert w.save()
    reloaded = load_scenario(path)
    assert reloaded.map.underlay["transform"] == rec["transform"]
    w.close()
    w2 = open_map(qtbot, tmp_path, path)
    assert w2.underlay_panel.pyramid is not None and w2.underlay_panel.table.rowCount() == 3
    w2.canvas.fit()
    qtbot.wait(20)
    assert scan_shows(w2)


def test_switching_maps_and_a_missing_scan(qtbot, tmp_path) -> None:
    path, scan = map_with_scan(tmp_path)
    w = open_map(qtbot, tmp_path, path)
    assert w.underlay_panel.add_image(str(scan))
    assert w.save()
    other = tmp_path / "maps" / "gitm.json"
    shutil.copyfile(GITM, other)
    w.open_file(str(other))
    assert w.document.scenario.map.underlay is None and w.underlay_panel.pyramid is None
    assert w.underlay_panel.file.text().startswith("No underlay")
    w.open_file(str(path))
    assert w.underlay_panel.pyramid is not None
    w.close()
    scan.unlink()
    w3 = open_map(qtbot, tmp_path, path)  # the map opens; the panel says what is missing
    assert w3.underlay_panel.pyramid is None
    assert "The scan is not there" in w3.underlay_panel.message.text()
    for size in ((1280, 820), (1366, 768)):
        w3.resize(*size)
        w3.dock_underlay.show()
        w3.dock_underlay.raise_()
        qtbot.wait(20)
        w3.grab().save(str(tmp_path / f"underlay-{size[0]}.png"))


def test_an_untitled_map_must_be_saved_first(qtbot, tmp_path) -> None:
    path, scan = map_with_scan(tmp_path)
    w = open_map(qtbot, tmp_path, path)
    w.document.path = None
    shown: list[str] = []
    w.show_error = lambda title, text, details=(): shown.append(" ".join([title, text, *details]))
    assert not w.underlay_panel.add_image(str(scan))
    assert shown and "Save the map first" in shown[0]


def test_the_pyramid_is_built_once_and_its_levels_halve(tmp_path) -> None:
    scan = tmp_path / "s.png"
    make_scan(scan, 3000, 2000)
    pyr = TilePyramid.build(scan, tmp_path / "cache")
    assert (pyr.width, pyr.height, pyr.top) == (3000, 2000, 12)
    assert TilePyramid.cached(scan, tmp_path / "cache") is not None
    full = pyr.tile(pyr.top, 0, 0)
    assert full is not None and full.width() == 512
    assert pyr.tile(pyr.top, 5, 3) is not None and pyr.tile(pyr.top, 6, 0) is None  # 3000 px: 6 tiles a row
    assert pyr.level_for(1.0) == pyr.top and pyr.level_for(0.5) == pyr.top - 1 and pyr.level_for(0.2) == pyr.top - 2
    for ext in ("jpg", "tif"):  # JPEG and TIFF scans too
        other = tmp_path / f"s.{ext}"
        make_scan(other, 900, 700)
        p2 = TilePyramid.build(other, tmp_path / "cache")
        assert (p2.width, p2.height) == (900, 700) and p2.tile(p2.top, 1, 1) is not None
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not an image")
    from app.gui.underlay import UnderlayError

    with pytest.raises(UnderlayError, match="bad.png: cannot read the image"):
        TilePyramid.build(bad, tmp_path / "cache")


def test_cutting_a_pyramid_stops_when_cancelled(tmp_path) -> None:
    """``cancelled`` is asked as libvips reports progress: the cutting stops
    early, says so, and leaves no pyramid behind (a later build starts again)."""
    from app.gui.underlay import UnderlayError

    scan = tmp_path / "big.jpg"
    make_scan(scan, 6000, 5000)
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 1

    with pytest.raises(UnderlayError, match="big.jpg: preparing the scan was cancelled"):
        TilePyramid.build(scan, tmp_path / "cache", cancelled=cancelled)
    assert asked and TilePyramid.cached(scan, tmp_path / "cache") is None
    assert not any((tmp_path / "cache").iterdir())
    assert TilePyramid.build(scan, tmp_path / "cache", cancelled=lambda: False).width == 6000


def test_trace_terrain_from_the_scan_in_the_editor(qtbot, tmp_path) -> None:
    """The tracing test scan (tests/test_tracing.py) under a blank copy of
    the map: three calibration clicks, two colour samples a terrain, Trace:
    at least 98 % of cells get the original terrain, as one undo step."""
    from test_tracing import clean_cells, clicks, scan_of, truth

    original = load_scenario(ACW)
    img, M, t = scan_of(original)
    folder = tmp_path / "maps"
    folder.mkdir()
    blank = load_scenario(ACW)
    blank.map.terrain[:] = 0
    from engine.io import save_scenario

    path = folder / "blank.json"
    save_scenario(blank, path)
    h, w_ = img.shape[:2]
    rgba = np.dstack([img, np.full((h, w_), 255, np.uint8)]).copy()
    scan = folder / "scan.png"
    assert QImage(rgba.data, w_, h, w_ * 4, QImage.Format.Format_RGBA8888).save(str(scan))
    w = open_map(qtbot, tmp_path, path)
    panel = w.underlay_panel
    assert panel.add_image(str(scan))
    assert panel.trace() == "Calibrate the scan first: three cells clicked fix the grid on it."
    for p in clicks(original, M, t):
        assert panel.add_point(p.x, p.y, p.label) is None
    lay = original.map.grid.make_layout(1.0)
    for terrain, cells in clean_cells(original).items():
        for c in cells:
            assert panel.add_sample(*truth(M, t, np.array([lay.center(c)]))[0], terrain=terrain) is None
    assert panel.sample_text.text() == "Samples: Open: 2, Woods: 2"
    steps = w.document.undo_stack.count()
    assert panel.trace() is None
    assert w.document.undo_stack.count() == steps + 1 and w.document.undo_stack.undoText() == "Trace terrain"
    right = float((w.document.scenario.map.terrain == original.map.terrain).mean())
    assert right >= 0.98, right
    assert panel.message.text().startswith("Traced 520 cells")
    w.document.undo_stack.undo()
    assert (w.document.scenario.map.terrain == 0).all()
