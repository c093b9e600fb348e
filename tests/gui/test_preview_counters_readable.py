"""A movement preview keeps the unit counters under it readable
(``maps/movement_moscow.json``, ``maps/acw_short_campaign.json``): the
path line and the start marker stay off the selected unit's counter (the
path starts at its edge, the marker is a ring around it), and no reach
number is written over any counter."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from app.gui.overlay import CellMark, CellMarks, Marker, Overlay, PathLine
from app.gui.render import DEFAULT_LAYERS, renderer_for
from app.gui.systems.acw.previews import AcwMovePreview
from app.gui.systems.movement.previews import MovementPreview
from engine.io import load_any

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def _paint(r: Any, zoom: float, ov: Overlay, selected: str) -> QImage:
    w, h = int(r.map_width * zoom) + 2, int(r.map_height * zoom) + 2
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    r.paint_top(p, zoom, 0.0, 0.0, QRectF(0, 0, w, h), DEFAULT_LAYERS, selected, [ov])
    p.end()
    return img


def _differs(a: QImage, b: QImage, rect: QRectF) -> int:
    inner = rect.adjusted(1, 1, -1, -1).toAlignedRect().intersected(a.rect())
    return sum(1 for x in range(inner.left(), inner.right() + 1) for y in range(inner.top(), inner.bottom() + 1)
               if a.pixel(x, y) != b.pixel(x, y))


def _untexted(items: Any) -> tuple[Any, ...]:
    return tuple(dataclasses.replace(i, text=None) if isinstance(i, (CellMark, CellMarks)) else i for i in items)


@pytest.mark.parametrize(("sample", "preview"), [("movement_moscow.json", MovementPreview),
                                                 ("acw_short_campaign.json", AcwMovePreview)])
@pytest.mark.parametrize("cell_px", [30.0, 60.0])
def test_selected_counter_and_counters_under_reach_numbers_read(sample: str, preview: Any, cell_px: float) -> None:
    s = load_any(ROOT / "maps" / sample)
    unit = min(s.units, key=lambda u: u.id)
    pv = preview()
    r = renderer_for(s)
    zoom = cell_px / r.cell_px(1.0)
    sel = pv.select(s, unit)
    reach = [i.cell for i in sel.items if isinstance(i, CellMark) and i.cell != unit.at]
    assert reach
    ov = max((pv.hover(s, unit, c) for c in reach),
             key=lambda o: max((len(i.cells) for i in o.items if isinstance(i, PathLine)), default=0))
    assert any(isinstance(i, PathLine) and len(i.cells) >= 3 for i in ov.items)
    assert any(isinstance(i, Marker) and i.cell == unit.at for i in ov.items)
    plain = Overlay(_untexted(i for i in ov.items if not isinstance(i, (PathLine, Marker))))
    full = _paint(r, zoom, dataclasses.replace(ov, layer_key=None, layer_count=0), unit.id)
    bare = _paint(r, zoom, plain, unit.id)
    no_text = _paint(r, zoom, Overlay(_untexted(ov.items)), unit.id)
    boxes = r.counter_rects(zoom, range(0, s.map.width + 1), range(0, s.map.height + 1))
    assert unit.at in boxes
    assert _differs(full, bare, boxes[unit.at]) == 0, "the path or start marker covers the selected counter"
    marked = {i.cell for i in ov.items if isinstance(i, CellMark) and i.text}
    under = [c for c in boxes if c in marked]
    assert under, "the test case: reach numbers fall on cells with counters"
    for c in under:
        assert _differs(full, no_text, boxes[c]) == 0, f"a reach number covers the counter on {c}"
    # the start is still marked: a ring around the counter
    ring = boxes[unit.at].adjusted(-8, -8, 8, 8)
    assert _differs(full, bare, ring) > 20
