"""A raster export strokes its vectors square by square
(``app.gui.render.region.VECTOR_TILE``), each square given only the
rivers, links and bridges that reach into it (``base.near_box``), rivers
in smaller squares still (``base.stroke_in_squares``), with the edges'
geometry made in one call per layer (``EdgeIndex.fill``): the pixels are
those of every edge near the square's cells stroked at once, their
geometry made bucket by bucket, on dense random hex and square maps at
small and large cells."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, QPainter

from app.gui.render import DEFAULT_LAYERS, base, renderer_for, style
from app.gui.render.index import EdgeIndex
from app.gui.render.region import VECTOR_TILE, paint_region
from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType

pytestmark = pytest.mark.gui
TERRAIN = [TerrainType("open", "Open", "o", "#dddd99"), TerrainType("woods", "Woods", "w", "#338833")]


def dense_map(kind: str, size: int, seed: int) -> Scenario:
    """Rivers on a third of the cells' sides, roads and rail on a tenth of
    the links, a bridge on a fifth of the river sides that carry a link,
    control in blocks."""
    r = random.Random(seed)
    grid = HexGrid(size, size, "flat", "odd") if kind == "hex" else SquareGrid(size, size)
    gm = GridMap(grid, NumericNumbering())
    gm.control[:] = np.kron(np.random.default_rng(seed).integers(-1, 2, (size // 5 + 1, size // 5 + 1)),
                            np.ones((5, 5), np.int16))[:size, :size]
    for row in range(size):
        for col in range(size):
            c = Cell(col, row)
            for n in grid.neighbours(c):
                e = Edge.between(c, n)
                if grid.shares_side(c, n) and r.random() < 0.33 / 2:
                    gm.rivers.add(e)
            for n in grid.link_neighbours(c):
                e = Edge.between(c, n)
                for link in ("road", "rail"):
                    if r.random() < 0.1 / 2:
                        gm.links.setdefault(link, set()).add(e)
                        if e in gm.rivers and r.random() < 0.2:
                            gm.bridges[e] = link
    sides = [Faction("US", "Union", "#2244aa", "U"), Faction("CS", "Confederate", "#888888", "C")]
    return Scenario("dense", Ruleset("t", TERRAIN), sides, gm, [])


def pixels(img: QImage) -> np.ndarray:
    a = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    return a[:, : img.width() * 4].copy()


@pytest.mark.parametrize("kind, size, px", [("hex", 90, 8), ("hex", 24, 24), ("square", 70, 8), ("square", 20, 30)])
def test_squares_leave_out_only_what_they_do_not_show(qapp: Any, kind: str, size: int, px: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    s = dense_map(kind, size, seed=size + px)
    r = renderer_for(s)
    zoom = px / r.extent
    w, h = r.scene_size(zoom)
    assert max(w, h) > VECTOR_TILE  # more than one square

    def export(layers: frozenset[str] = DEFAULT_LAYERS) -> np.ndarray:
        img = QImage(w, h, QImage.Format.Format_RGB32)
        p = QPainter(img)
        paint_region(p, renderer_for(s), zoom, (0, 0), QRect(0, 0, w, h), layers, background=style.EXPORT_BACKGROUND)
        p.end()
        return pixels(img)

    got = export()
    monkeypatch.setattr(base, "near_box", lambda xy, box, margin: np.ones(len(xy), bool))
    monkeypatch.setattr(EdgeIndex, "fill", lambda self: None)
    monkeypatch.setattr(base, "STROKE_SQUARE", 10**6)
    want = export()
    differ = int((got != want).sum())
    assert differ == 0, f"{differ} pixel bytes differ"
    assert (got != export(DEFAULT_LAYERS - {"rivers", "road", "rail"})).sum() > 0.02 * got.size  # lines drawn


def test_a_vector_export_strokes_each_line_once(qapp: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An SVG file is not cut into squares: its rivers, roads and rail are
    the same path elements as with no squares at all."""
    from app.gui.export import export_map, svg_available

    if not svg_available():
        pytest.skip("PySide6.QtSvg is not available")
    s = dense_map("hex", 40, seed=9)
    export_map(s, tmp_path / "squares.svg", 24)
    monkeypatch.setattr(base, "STROKE_SQUARE", 10**6)
    export_map(s, tmp_path / "whole.svg", 24)
    got, want = (tmp_path / "squares.svg").read_text(), (tmp_path / "whole.svg").read_text()
    assert got.count("<path") == want.count("<path") and got.count("clip") == want.count("clip")
