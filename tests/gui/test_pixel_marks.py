"""Below 1.5 screen pixels a cell, a batch of unoutlined cell marks is drawn
as the pixels the cells' centres fall in (``render/marks.py``,
``PIXEL_MARKS_BELOW_PX``; a march across a big map at the whole-map zoom
marks over a thousand cells: issue 19): every marked cell's pixel takes the
mark's colour, no other pixel changes; above the threshold the cells are
drawn as shapes."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from test_canvas_scenarios import make_scenario

from app.gui.overlay import CellMarks, CellSeq
from app.gui.render import renderer_for, style
from app.gui.render.marks import PIXEL_MARKS_BELOW_PX, OverlayPainter

pytestmark = pytest.mark.gui


def painted(kind: str, px: float, cols: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, object]:
    s = make_scenario(kind, 200, 150)
    r = renderer_for(s)
    zoom = px / r.cell_px(1.0)
    img = QImage(400, 300, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.white)
    p = QPainter(img)
    mark = CellMarks(CellSeq(cols, rows), fill="#c00000")
    OverlayPainter(r).paint_items(p, zoom, [mark], range(0, 200), range(0, 150), QRectF(0, 0, 400, 300))
    p.end()
    a = np.frombuffer(img.constBits(), np.uint32, img.sizeInBytes() // 4).reshape(300, 400).copy()
    return a, (r, zoom)


@pytest.mark.parametrize("kind", ["square", "hex"])
def test_sub_pixel_cells_mark_their_centres_pixels(qapp, kind: str) -> None:
    rng = np.random.default_rng(3)
    cols, rows = rng.integers(0, 200, 300), rng.integers(0, 150, 300)
    px = 1.0
    assert px < PIXEL_MARKS_BELOW_PX
    a, (r, zoom) = painted(kind, px, cols, rows)
    cx, cy = r.centers(cols, rows)
    xs = np.floor(np.asarray(cx) * zoom).astype(int)
    ys = np.floor(np.asarray(cy) * zoom).astype(int)
    want = np.zeros(a.shape, bool)
    want[ys, xs] = True
    white = np.uint32(0xFFFFFFFF)
    red = int(style.qcolor("#c00000").rgb()) & 0xFFFFFFFF
    assert (a[want] == red).all(), "every marked cell's pixel takes the mark's colour"
    assert (a[~want] == white).all(), "no other pixel changes"


def test_larger_cells_are_drawn_as_shapes(qapp) -> None:
    cols, rows = np.array([10, 11, 40]), np.array([5, 5, 20])
    a, _ = painted("square", 2.0, cols, rows)
    red = int(style.qcolor("#c00000").rgb()) & 0xFFFFFFFF
    assert (a == red).sum() >= 3 * 4 - 2, "whole 2 x 2 pixel squares, not one pixel a cell"
