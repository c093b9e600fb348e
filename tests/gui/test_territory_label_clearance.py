"""A border's name (a strait, a canal) on the bundled territory samples
meets no unit counter, no territory label, no rail mark and no other
border name, and a strait's line stops short of the territories' labels,
at the window's fit zoom and at three times it ("Suez Canal" over Syria's
armour, "Strait of Messina" over "Mediterranean Sea", the Messina line
through "Sicily 1")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication
from window_kit import open_map

from engine.territory.model import BorderKind

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ["aa_rail_options.json", "railroad_module_europe.json"]


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("size", [(1366, 768), (1280, 820)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_border_names_and_lines_keep_clear(qtbot: Any, tmp_path: Path, sample: str, size: tuple[int, int]) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, size=size)
    QApplication.processEvents()
    r = w.canvas.renderer()
    fit = w.canvas._zoom
    for z in (fit, fit * 3):
        names = r.border_name_rects((0.0, 0.0), z)
        assert names, "the sample names a border"
        placed = r.label_layout(z)
        labels = {tid: r.label_rect(tid, text, z) for tid, text in placed.items()}
        counters = r.counters((0.0, 0.0), z)
        for i, (name, _start, rect) in enumerate(names):
            for c in counters:
                assert not rect.intersects(c.rect), f"{name} meets counter {c.label} in {c.territory} at {z:.2f}"
            for tid, lr in labels.items():
                assert not rect.intersects(lr), f"{name} meets the label {placed[tid]!r} at {z:.2f}"
            for o in r.label_obstacles(z, counters=False):
                assert not rect.intersects(o), f"{name} meets a label or rail mark at {z:.2f}"
            for other, _s, orect in names[i + 1:]:
                assert not rect.intersects(orect), f"{name} meets {other} at {z:.2f}"
        for kind, polys in r.border_lines_at(z):
            if kind == BorderKind.CLOSED:
                continue
            for q in polys:
                a, b = q.at(0), q.at(q.size() - 1)
                for k in range(65):
                    t = k / 64
                    pt = QPointF((a.x() + (b.x() - a.x()) * t) * z, (a.y() + (b.y() - a.y()) * t) * z)
                    hit = [placed[tid] for tid, lr in labels.items() if lr.contains(pt)]
                    assert not hit, f"a {kind.value} line crosses {hit} at {z:.2f}"
