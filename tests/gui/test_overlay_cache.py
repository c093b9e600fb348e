"""The overlay caches never show a stale overlay (issue 19).

A hover repaints only the area of the old and new overlay
(:func:`app.gui.render.marks.overlay_change_rect`), and the ACW reach is
painted once per reach and zoom into a cached layer
(:class:`app.gui.render.marks.OverlayPainter`).  After each change a game
master makes (another unit selected, zoom, scroll, palette, an edit, another
map) what the window shows on screen (its backing store, painted only where
updates asked) must equal a full repaint of the canvas with every cache
dropped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_window_lifetimes import ACW, grid_window

from app.gui.render import style
from engine.editing import plan_paint
from engine.grids import Cell

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parent.parent.parent
GITM = str(ROOT / "maps" / "gitm_graphic3.json")


def on_screen(w: Any) -> QImage:
    """The canvas as the window's backing store holds it (only what updates repainted)."""
    QApplication.processEvents()
    vp = w.canvas.viewport()
    at = vp.mapTo(w, QPoint(0, 0))
    return w.screen().grabWindow(w.winId(), at.x(), at.y(), vp.width(), vp.height()).toImage() \
        .convertToFormat(QImage.Format.Format_RGB32)


def repainted(w: Any) -> QImage:
    """The canvas painted afresh, every tile and the overlay layer dropped."""
    r = w.canvas.renderer()
    r.overlay_painter().clear()
    r.overlay_painter().bounds.clear()
    w.canvas.tile_cache().clear()
    return w.canvas.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def pixels(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(img.constBits(), np.uint8, count=img.sizeInBytes()).reshape(
        img.height(), img.bytesPerLine() // 4, 4)[:, :img.width(), :3].astype(np.int16)


def assert_fresh(w: Any, what: str) -> None:
    """On screen equals a fresh repaint; a channel may differ by 2 (a tile
    re-rendered in part after an edit rounds its anti-aliased edges a shade
    differently from a whole one), a stale mark differs by far more."""
    a, b = pixels(on_screen(w)), pixels(repainted(w))
    assert a.shape == b.shape
    diff = np.abs(a - b).max(axis=2)
    assert diff.max() <= 2, f"stale canvas after {what}: {int((diff > 2).sum())} pixels differ, by up to {diff.max()}"
    w.canvas.viewport().repaint()  # the reference paint left no cache: paint the window's own state again


def view_point(w: Any, cell: Cell) -> QPoint:
    x, y = w.canvas.layout().center(cell)
    return w.canvas.map_to_view(x, y).toPoint()


def hover(w: Any, cell: Cell) -> None:
    QTest.mouseMove(w.canvas.viewport(), view_point(w, cell))
    QApplication.processEvents()


def click(w: Any, cell: Cell) -> None:
    vp, p = w.canvas.viewport(), view_point(w, cell)
    QTest.mouseMove(vp, p)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QApplication.processEvents()


def acw_window(qtbot: Any, tmp_path: Path) -> Any:
    w = grid_window(qtbot, tmp_path, ACW)
    w.set_tool("adjudicate")
    s = w.document.scenario
    w.canvas.set_zoom(1.0)
    w.canvas.center_on(s.map.parse_label("0605"))
    QApplication.processEvents()
    return w


def test_the_reach_layer_follows_selection_zoom_and_scroll(qtbot: Any, tmp_path: Path) -> None:
    w = acw_window(qtbot, tmp_path)
    s = w.document.scenario
    lab = s.map.parse_label
    op = w.canvas.renderer().overlay_painter()
    click(w, lab("0605"))
    assert w.state.selected_unit == "US-3C"
    before = op.layer_renders
    for target in ("0806", "0907", "0705", "0504"):  # the reach does not change while the mouse moves
        hover(w, lab(target))
    assert op.layer_renders - before <= 1
    assert w.adjudicate.overlay is not None and w.adjudicate.overlay.layer_count > 0
    assert_fresh(w, "hovering")
    other = next(u for u in s.units if u.at != lab("0605") and len(s.units_at(u.at)) == 1)
    w.canvas.center_on(other.at)
    QApplication.processEvents()
    click(w, other.at)
    assert w.state.selected_unit == other.id
    hover(w, Cell(other.at.col + 1, other.at.row))
    assert_fresh(w, f"selecting {other.id}")
    w.canvas.set_zoom(w.canvas.zoom() * 1.25, w.canvas.map_to_view(*w.canvas.layout().center(other.at)))
    hover(w, Cell(other.at.col, other.at.row + 1))
    assert_fresh(w, "zooming in")
    w.canvas.horizontalScrollBar().setValue(w.canvas.horizontalScrollBar().value() + 37)
    w.canvas.verticalScrollBar().setValue(w.canvas.verticalScrollBar().value() - 23)
    assert_fresh(w, "scrolling")
    hover(w, Cell(other.at.col + 1, other.at.row + 1))
    assert_fresh(w, "hovering after the scroll")


def test_palette_edit_and_another_map_leave_no_stale_overlay(qtbot: Any, tmp_path: Path) -> None:
    w = acw_window(qtbot, tmp_path)
    s = w.document.scenario
    lab = s.map.parse_label
    click(w, lab("0605"))
    hover(w, lab("0806"))
    names = list(w.palette_actions)
    try:
        for name in (*names[1:], names[0]):  # each other palette, then back to the default
            w.palette_actions[name].trigger()
            assert_fresh(w, f"palette {name}")
    finally:
        style.set_palette(style.PALETTES[0])
    key = w.adjudicate.overlay.layer_key
    # an edit: the hexes around the unit become impassable water (or the dearest terrain)
    terrain = s.ruleset.terrain
    water = max(range(len(terrain)), key=lambda i: (terrain[i].impassable, terrain[i].move_cost))
    around = [c for c in s.map.grid.neighbours(lab("0605")) if s.map.grid.contains(c)]
    w.document.push("Paint terrain", plan_paint(s, "terrain", around, water))
    QApplication.processEvents()
    assert w.adjudicate.overlay.layer_key is not key  # the reach was made again
    assert_fresh(w, "a terrain edit")
    w.document.undo_stack.undo()
    QApplication.processEvents()
    assert_fresh(w, "undoing the edit")
    assert w.open_file(GITM, ask=False)
    QApplication.processEvents()
    w.set_tool("adjudicate")
    QApplication.processEvents()
    assert_fresh(w, "opening another map")


def test_a_march_repaints_what_it_leaves(qtbot: Any, tmp_path: Path) -> None:
    """GITM: the old march's squares and lines are painted over when the
    mouse moves on (only the old and new overlay's area is repainted)."""
    w = grid_window(qtbot, tmp_path, GITM)
    w.set_tool("adjudicate")
    s = w.document.scenario
    unit = s.unit("FR1IN")
    click(w, unit.at)
    assert w.state.selected_unit == "FR1IN"
    for cell in (Cell(5, 4), Cell(1, 6), Cell(6, 1), Cell(2, 2)):
        if s.map.grid.contains(cell):
            hover(w, cell)
            assert_fresh(w, f"hovering {s.map.label(cell)}")
