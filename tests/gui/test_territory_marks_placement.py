"""Territory drawing keeps its marks readable at the window's sizes: a
rail station box never runs past its territory or the map's edge (Egypt's
strip on the Rail Options map's bottom edge: beside the label instead),
and a border's name a unit counter would cover (the Suez Canal under
Syria's armour) is painted over the counter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QApplication
from window_kit import open_map

from app.gui.render.territory import RAIL_MARK_H, STRAIT

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("size", [(1366, 768), (1280, 820)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_station_boxes_stay_inside_and_the_canal_reads(qtbot: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / "aa_rail_options.json", size=size)
    QApplication.processEvents()
    r = w.canvas.renderer()
    z = w.canvas._zoom
    s = w.scenario
    placed = r.label_layout(z)
    paths = r.paths(z)
    checked = 0
    fm = QFontMetricsF(r._font)
    for tid, t in s.map.territories.items():
        if not placed.get(tid) or not any(isinstance(t.features.get(k), dict) for k in ("rail_station", "railroad")):
            continue
        x, top = r.rail_marks_at(tid, fm.horizontalAdvance(placed[tid]), z)
        box = paths[tid].boundingRect()
        half = r.rail_features_width(t) / 2
        assert top + RAIL_MARK_H <= min(box.bottom(), r.map_height) * z + 0.5, tid
        assert x + half <= r.map_width * z + 0.5, tid
        checked += 1
    assert checked >= 8
    lp = r.labels["egypt"]
    ex, etop = r.rail_marks_at("egypt", fm.horizontalAdvance(placed["egypt"]), z)
    assert etop < lp[1] * z  # beside the label: the strip has no room under it
    # the Suez Canal's name is painted over Syria's counter
    base = (0.0, 0.0)
    names = {name: (start, rect) for name, start, rect in r.border_name_rects(base, z)}
    assert "Suez Canal" in names
    start, rect = names["Suez Canal"]
    counters = r.counters(base, z)
    assert any(rect.intersects(c.rect) for c in counters), "the test case: a counter meets the name"
    img = QImage(int(r.map_width * z) + 1, int(r.map_height * z) + 1, QImage.Format.Format_ARGB32)
    img.fill(QColor("#000000"))
    p = QPainter(img)
    r.paint_counters(p, base, z, None)
    r.paint_border_names_over_counters(p, base, z)
    p.end()
    ink = [img.pixelColor(x, y) for x in range(int(rect.left()), int(rect.right()))
           for y in range(int(rect.top()), int(rect.bottom()))]
    assert sum(1 for c in ink if abs(c.red() - STRAIT.red()) < 40 and abs(c.blue() - STRAIT.blue()) < 40
               and abs(c.green() - STRAIT.green()) < 40) > 20, "the name's ink shows over the counter"
    w.grab().save(str(tmp_path / f"marks-{size[0]}x{size[1]}.png"))
