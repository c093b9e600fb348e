"""A scan under a territory map, and tracing a territory from it by a click
(issue 20, items 1 and 3; app/gui/territory/underlay.py): the Rail Options
picture under a copy of its map with Russia taken out lines up as added;
a click inside Russia's colour traces it back as a new territory bordering
Smolensk and Bryansk, one undo step; a click inside a territory already
there is refused; the underlay survives save and reopen; a missing scan is
reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage
from window_kit import open_map

from app.gui.export import export_territory_map
from engine.io import load_any, save_any

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUTANT_CACHE_DIR", str(tmp_path / "cache"))


def picture_and_map(tmp_path: Path, prepare: Any = None) -> tuple[Any, Path, float, Path]:
    """The Rail Options map, its picture (``maps/picture.png``, 2000 px
    wide) and the map saved beside it after ``prepare(scenario)``: the
    scenario, the picture, its pixels per map unit and the map file."""
    s = load_any(ROOT / "maps" / "aa_rail_options.json")
    folder = tmp_path / "maps"
    folder.mkdir()
    scan = folder / "picture.png"
    w_px, _ = export_territory_map(s, scan)
    if prepare is not None:
        prepare(s)
    path = folder / "map.json"
    save_any(s, path)
    return s, scan, w_px / s.map.width, path


def test_trace_russia_back_from_the_picture(qtbot, tmp_path) -> None:
    truth = load_any(ROOT / "maps" / "aa_rail_options.json").map.territories["russia"].shape

    def without_russia(s: Any) -> None:
        s.map.remove("russia")
        s.units = [u for u in s.units if u.at != "russia"]

    s, scan, z, path = picture_and_map(tmp_path, without_russia)
    w = open_map(qtbot, tmp_path, path)
    panel = w.underlay_panel
    assert not w.dock_underlay.isVisible()
    assert panel.add_image(str(scan))
    rec = w.scenario.map.underlay
    assert rec["image"] == "picture.png" and abs(rec["scale"] - z) < 1e-9
    assert panel.pyramid is not None
    x0, y0, x1, y1 = truth.bounds
    steps = w.document.undo_stack.count()
    assert panel.trace_at((x0 + 0.2 * (x1 - x0)) * z, (y0 + 0.8 * (y1 - y0)) * z, name="Russia") is None
    assert w.document.undo_stack.count() == steps + 1
    got = w.scenario.map.territories["russia"]
    assert got.shape.intersection(truth).area / got.shape.union(truth).area >= 0.95
    assert set(w.scenario.map.neighbours("russia")) >= {"smolensk", "bryansk"}
    germany = w.scenario.map.territories["germany"].shape.representative_point()
    refused = panel.trace_at(germany.x * z + 3, germany.y * z + 25, name="Again")
    assert refused is not None and "overlaps Germany" in refused
    w.document.undo_stack.undo()
    assert "russia" not in w.scenario.map
    w.document.undo_stack.redo()
    assert w.save()
    assert load_any(path).map.underlay == rec
    w.close()
    scan.unlink()
    w2 = open_map(qtbot, tmp_path, path)
    assert w2.dock_underlay.isVisible() and w2.underlay_panel.pyramid is None
    assert "The scan is not there" in w2.underlay_panel.message.text()
    for size in ((1280, 820), (1366, 768)):
        w2.resize(*size)
        qtbot.wait(20)
        w2.grab().save(str(tmp_path / f"territory-underlay-{size[0]}.png"))


def test_the_picture_lines_up_with_the_map(qtbot, tmp_path) -> None:
    """At full opacity the picture of the map, added under it, shows each
    territory's colour where the territory is."""
    s, scan, _z, path = picture_and_map(tmp_path)
    w = open_map(qtbot, tmp_path, path)
    assert w.underlay_panel.add_image(str(scan))
    w.underlay_panel.opacity.setValue(100)
    w.underlay_panel.opacity.sliderReleased.emit()
    qtbot.wait(20)
    assert w.scenario.map.underlay["opacity"] == 1.0
    img = w.canvas.viewport().grab().toImage()
    pic = QImage(str(scan))
    zpic = pic.width() / s.map.width
    t = s.map.territories["russia"]
    x0, y0, x1, y1 = t.shape.bounds
    mx, my = x0 + 0.2 * (x1 - x0), y0 + 0.8 * (y1 - y0)
    v = w.canvas.map_to_view(mx, my) if hasattr(w.canvas, "map_to_view") else None
    assert v is not None
    on_screen = img.pixelColor(int(v.x()), int(v.y()))
    in_picture = pic.pixelColor(int(mx * zpic), int(my * zpic))
    assert abs(on_screen.red() - in_picture.red()) + abs(on_screen.green() - in_picture.green()) \
        + abs(on_screen.blue() - in_picture.blue()) < 20


def test_calibrate_a_misplaced_scan_by_clicking_pairs(qtbot, tmp_path) -> None:
    """The picture of the Rail Options map, put under it too large and
    shifted, is placed back by two click pairs through the canvas: a place
    on the scan, then the same corner on the map (clicked 3 px off: it
    snaps); each pair is one undo step storing the pairs with the placement
    they fit; the pairs survive save and reopen; removing one keeps the
    placement; pairs all at one map point are refused, changing nothing."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtTest import QTest

    from app.gui.territory.underlay import image_to_view

    s, scan, z, path = picture_and_map(tmp_path)
    w = open_map(qtbot, tmp_path, path)
    panel, canvas, stack = w.underlay_panel, w.canvas, w.document.undo_stack
    assert panel.add_image(str(scan))
    w.dock_underlay.show()
    wrong = {**w.scenario.map.underlay, "scale": 1.2 * z, "offset": [40.0, -30.0]}
    assert panel._push(wrong, "misplace")
    canvas.fit()
    qtbot.wait(10)
    m = w.scenario.map
    corners = [next((x, y) for x, y in m.territories[t].shape.exterior.coords  # a corner inside the map
                    if 5 < x < m.width - 5 and 5 < y < m.height - 5) for t in ("germany", "russia")]
    assert abs(corners[0][0] - corners[1][0]) > 50
    panel.calibrating.setChecked(True)
    steps = stack.count()
    for n, (cx, cy) in enumerate(corners, 1):
        rec = w.scenario.map.underlay
        on_scan = image_to_view(rec, canvas.origin(), canvas.zoom()).map(QPointF(cx * z, cy * z))
        assert canvas.viewport().rect().contains(on_scan.toPoint())
        QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_scan.toPoint())
        assert panel._pending is not None and "now click the same place on the map" in panel.message.text(), panel.message.text()
        on_map = canvas.map_to_view(cx, cy)
        QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton,
                         pos=QPoint(round(on_map.x()) + 3, round(on_map.y()) + 2))
        assert stack.count() == steps + n and panel._pending is None
        assert [p.at for p in panel.pairs()][-1] == (cx, cy)  # snapped onto the corner
    rec = w.scenario.map.underlay
    assert abs(rec["scale"] / z - 1) < 0.01, rec["scale"] / z
    assert abs(rec["offset"][0]) < 4 and abs(rec["offset"][1]) < 4, rec["offset"]
    assert panel.points.rowCount() == 2 and panel.points.item(0, 2).text() != "—"
    assert "RMS" in panel.rms.text()
    stack.undo()
    assert len(panel.pairs()) == 1 and w.scenario.map.underlay["scale"] == 1.2 * z
    stack.undo()
    assert w.scenario.map.underlay == wrong and panel.points.rowCount() == 0
    stack.redo()
    stack.redo()
    assert w.scenario.map.underlay == rec
    for size in ((1280, 820), (1366, 768)):
        w.resize(*size)
        qtbot.wait(20)
        w.grab().save(str(tmp_path / f"territory-calibrate-{size[0]}.png"))
        assert panel.rms.isVisible() and panel.points.isVisible()
    assert w.save()
    assert load_any(path).map.underlay == rec
    steps = stack.count()
    panel.points.selectRow(1)
    panel.remove_point.click()
    assert stack.count() == steps + 1 and len(panel.pairs()) == 1
    assert w.scenario.map.underlay["scale"] == rec["scale"]  # one pair left: the placement stays
    refused = panel.add_point((5.0, 5.0), panel.pairs()[0].at)
    assert refused is not None and "all at one place" in refused and stack.count() == steps + 1
    w.close()
    w2 = open_map(qtbot, tmp_path, path)
    assert len(w2.underlay_panel.pairs()) == 2 and w2.underlay_panel.points.rowCount() == 2
