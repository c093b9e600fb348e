"""The territory canvas paints the overlay's still part from cached layers
(shades and selection; the shaded territories' names and the shades'
texts): a repaint of the same overlay renders no layer again, and what the
canvas shows always equals :meth:`TerritoryRenderer.paint_top` drawing the
same overlay afresh over the static layer."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QRect
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication
from system_parts import rail
from test_territory_rail_tools import RAIL_OPTIONS, open_window

from app.gui.render import style

pytestmark = pytest.mark.gui


def pixels(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(
        img.height(), img.bytesPerLine() // 4, 4)[:, :img.width(), :3].astype(np.int16)


def shown(w) -> np.ndarray:
    """The canvas as it paints itself (cached layers)."""
    return pixels(w.canvas.viewport().grab().toImage())


def fresh(w) -> np.ndarray:
    """The static layer with the renderer's own ``paint_top`` over it,
    nothing of the overlay cached."""
    c = w.canvas
    vp = c.viewport()
    img = QImage(vp.size(), QImage.Format.Format_RGB32)
    p = QPainter(img)
    pix, region = c._static_pixmap()  # noqa: SLF001 - the same static layer under both
    ox, oy = c.origin()
    z = c.zoom()
    p.fillRect(QRect(0, 0, vp.width(), vp.height()), style.BACKGROUND)
    p.drawPixmap(QPointF(ox + region.x() * z, oy + region.y() * z), pix)
    c.renderer().paint_top(p, (ox, oy), z, c.visible_map_rect(), c.overlay(), c.selected(), w.selected_unit)
    p.end()
    return pixels(img)


def assert_same(w, what: str) -> None:
    a, b = shown(w), fresh(w)
    diff = np.abs(a - b).max(axis=2)
    assert diff.max() <= 2, f"{what}: {int((diff > 2).sum())} pixels differ from a fresh paint, by up to {diff.max()}"


def test_the_rail_reach_is_painted_from_cached_layers(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "railoptions")
    c = w.canvas
    unit = w.scenario.units[0]
    w.select_unit(unit.id)
    assert rail(w).reach is not None and rail(w).reach.destinations
    assert c.overlay().shades
    vp = c.viewport()
    QApplication.processEvents()
    vp.repaint()
    n = c.layer_renders
    assert n >= 1
    for _ in range(3):  # window exposes: the layers are blitted, not rendered
        vp.repaint()
    assert c.layer_renders == n
    assert_same(w, "the reach")
    c.horizontalScrollBar().setValue(c.horizontalScrollBar().value() + 37)
    c.verticalScrollBar().setValue(c.verticalScrollBar().value() + 23)
    vp.repaint()
    assert c.layer_renders == n  # a pan by whole pixels renders nothing again
    assert_same(w, "a pan")
    c.set_zoom(c.zoom() * 3)
    vp.repaint()
    assert c.layer_renders > n
    assert_same(w, "zoomed in")


def test_another_unit_selection_or_edit_leaves_no_stale_layer(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "railoptions")
    s = w.scenario
    first = s.units[0]
    other = next(u for u in s.units if u.at != first.at and u.side == first.side)
    w.select_unit(first.id)
    w.canvas.viewport().repaint()
    w.select_unit(other.id)
    assert_same(w, f"selecting {other.id}")
    w.select_unit(None)
    assert not w.canvas.overlay().shades
    assert_same(w, "no unit selected")
    w.select_unit(first.id)
    dest = rail(w).reach.destinations[0].territory
    w.canvas.set_selected([dest])
    assert_same(w, "a territory selected")
    s.map.territories[dest].name = "A much longer name than before"
    w.canvas.invalidate([dest])
    assert_same(w, "a renamed territory")


def test_a_wrapping_world_keeps_a_layer_per_copy(qtbot, tmp_path) -> None:
    from test_territory_editor import open_window as open_any

    from engine.io import load_any

    src = tmp_path / "wrap.json"
    s = load_any(str(RAIL_OPTIONS))
    s.map.wrap_x = True
    from engine.io import save_any

    save_any(s, src)
    w = open_any(qtbot, tmp_path, src)
    w.mode_actions["railoptions"].trigger()
    w.select_unit(w.scenario.units[0].id)
    c = w.canvas
    QApplication.processEvents()
    c._fit_pending = False  # noqa: SLF001 - no refit on the next resize: the zoom below stays
    width = w.scenario.map.width
    c.set_zoom((round(width * c.zoom() * 1.37) + 0.5) / width)  # the copies half a pixel apart
    QApplication.processEvents()
    assert abs(width * c.zoom() % 1 - 0.5) < 0.01
    h = c.horizontalScrollBar()
    for _ in range(40):  # pan until two copies of the world show
        if len(c.renderer().copies(c.visible_map_rect())) > 1:
            break
        h.setValue(h.value() + 25)
        QApplication.processEvents()
    assert len(c.renderer().copies(c.visible_map_rect())) > 1
    c.viewport().repaint()
    n = c.layer_renders
    c.viewport().repaint()
    assert c.layer_renders == n, "copies a fraction of a pixel apart do not render each other's layer again"
    assert_same(w, "two copies of the world")
