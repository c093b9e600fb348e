"""The square renderer's row-wise raster (``SquareRenderer.raster``) gives
the base class's per-pixel raster exactly: every sample square map, control
scattered over every side, zooms from whole-map to close, every layer
combination, rectangles inside, across and outside the map's edges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QRect

from app.gui.render import DEFAULT_LAYERS, renderer_for, style
from app.gui.render.base import MapRenderer
from engine.io import load_any

pytestmark = pytest.mark.gui
MAPS = Path(__file__).resolve().parents[2] / "maps"
SQUARE_MAPS = [p for p in sorted(MAPS.glob("*.json")) if '"kind": "square"' in p.read_text(encoding="utf-8")[:4000]]
LAYER_SETS = [DEFAULT_LAYERS, DEFAULT_LAYERS - {"grid"}, DEFAULT_LAYERS - {"control"},
              DEFAULT_LAYERS - {"terrain"}, frozenset()]


def test_there_are_square_samples() -> None:
    assert len(SQUARE_MAPS) >= 2


@pytest.mark.parametrize("path", SQUARE_MAPS, ids=lambda p: p.stem)
def test_rows_give_the_per_pixel_raster(qapp: Any, path: Path) -> None:
    s = load_any(str(path))
    assert s.map.grid.kind.value == "square"
    rng = np.random.default_rng(len(path.stem))
    if s.sides:
        s.map.control[:] = rng.integers(-1, len(s.sides), size=s.map.control.shape)
    r = renderer_for(s)
    for zoom in (0.05, 0.13, 0.5, 0.75, 1.0, 1.7, 3.3):
        sw, sh = r.scene_size(zoom)
        for layers in LAYER_SETS:
            for _ in range(3):
                rect = QRect(int(rng.integers(-40, sw + 1)), int(rng.integers(-40, sh + 1)),
                             int(rng.integers(1, 300)), int(rng.integers(1, 200)))
                want = MapRenderer.raster(r, zoom, rect, layers, style.BACKGROUND)
                got = r.raster(zoom, rect, layers, style.BACKGROUND)
                assert got.shape == want.shape and got.dtype == want.dtype
                assert (got == want).all(), (zoom, sorted(layers), rect)
