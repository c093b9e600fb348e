"""``app.gui.render.paths``: paths and polygons read from Qt's serialised
form are those built call by call, point for point."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath, QPolygonF

from app.gui.render.paths import polygons, segments_path

pytestmark = pytest.mark.gui


def test_polygons_are_those_built_point_by_point(qapp: Any) -> None:
    rng = np.random.default_rng(4)
    for k in (3, 4, 6):
        corners = rng.normal(0, 1e3, (50, 2 * k))
        want = [QPolygonF([QPointF(row[2 * i], row[2 * i + 1]) for i in range(k)]) for row in corners.tolist()]
        got = polygons(corners)
        assert len(got) == len(want) and all(g == w for g, w in zip(got, want))
    assert polygons(np.zeros((0, 8))) == []


def test_segments_path_is_the_path_built_call_by_call(qapp: Any) -> None:
    rng = np.random.default_rng(5)
    xy = rng.normal(0, 1e3, (40, 4))
    want = QPainterPath()
    for x0, y0, x1, y1 in xy.tolist():
        want.moveTo(x0, y0)
        want.lineTo(x1, y1)
    got = segments_path(xy[:, 0], xy[:, 1], xy[:, 2], xy[:, 3])
    assert got.elementCount() == want.elementCount()
    for i in range(want.elementCount()):
        a, b = got.elementAt(i), want.elementAt(i)
        assert (a.type, a.x, a.y) == (b.type, b.x, b.y)


def test_polygons_path_is_the_path_built_call_by_call(qapp: Any) -> None:
    from PySide6.QtCore import Qt

    from app.gui.render.paths import polygons_path

    rng = np.random.default_rng(6)
    xs, ys = rng.normal(0, 1e3, (30, 6)), rng.normal(0, 1e3, (30, 6))
    want = QPainterPath()
    want.setFillRule(Qt.FillRule.WindingFill)
    for rx, ry in zip(xs.tolist(), ys.tolist()):
        want.moveTo(rx[0], ry[0])
        for x, y in zip(rx[1:], ry[1:]):
            want.lineTo(x, y)
        want.lineTo(rx[0], ry[0])
    got = polygons_path(xs, ys)
    assert got.fillRule() == Qt.FillRule.WindingFill and got.elementCount() == want.elementCount()
    for i in range(want.elementCount()):
        a, b = got.elementAt(i), want.elementAt(i)
        assert (a.type, a.x, a.y) == (b.type, b.x, b.y)
