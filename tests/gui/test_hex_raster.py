"""The hex renderer's period-wise raster (``HexRenderer.raster``) gives the
base class's per-pixel raster exactly: flat and pointy hexes, odd and even
offsets, random terrain and control, every whole number of pixels per hex
from 1 to 41 (and fractional ones, which take the per-pixel path), every
layer combination, rectangles inside, across and outside the map's edges,
and the whole 500 x 500 hex map of ``bench/peers.py`` at 8 px."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QRect

from app.gui.render import DEFAULT_LAYERS, renderer_for, style
from app.gui.render.base import MapRenderer
from engine.grids import HexGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType

pytestmark = pytest.mark.gui
LAYER_SETS = [DEFAULT_LAYERS, DEFAULT_LAYERS - {"grid"}, DEFAULT_LAYERS - {"control"},
              DEFAULT_LAYERS - {"terrain"}, frozenset()]
TERRAIN = [TerrainType("open", "Open", "o", "#dddd99"), TerrainType("woods", "Woods", "w", "#338833"),
           TerrainType("water", "Water", "~", "#3366cc", impassable=True)]


def random_hex_map(width: int, height: int, orientation: str, parity: str, seed: int) -> Scenario:
    rng = np.random.default_rng(seed)
    gm = GridMap(HexGrid(width, height, orientation, parity), NumericNumbering())
    gm.terrain[:] = rng.integers(0, len(TERRAIN) + 1, size=gm.terrain.shape)  # one unknown terrain too
    gm.control[:] = rng.integers(-1, 2, size=gm.control.shape)
    sides = [Faction("US", "Union", "#2244aa", "U"), Faction("CS", "Confederate", "#888888", "C")]
    return Scenario("hex raster", Ruleset("t", TERRAIN), sides, gm, [])


def same(r: Any, zoom: float, rect: QRect, layers: frozenset[str]) -> None:
    want = MapRenderer.raster(r, zoom, rect, layers, style.BACKGROUND)
    got = r.raster(zoom, rect, layers, style.BACKGROUND)
    assert got.shape == want.shape and got.dtype == want.dtype
    diff = int((got != want).sum())
    assert diff == 0, f"{diff} pixels differ at {zoom * r.extent:g} px per hex, {sorted(layers)}, {rect}"


@pytest.mark.parametrize("orientation, parity", [("flat", "odd"), ("flat", "even"), ("pointy", "odd"),
                                                  ("pointy", "even")])
def test_periods_give_the_per_pixel_raster(qapp: Any, orientation: str, parity: str) -> None:
    s = random_hex_map(23, 17, orientation, parity, seed=len(orientation) * 7 + len(parity))
    r = renderer_for(s)
    rng = np.random.default_rng(5)
    for px in [*range(1, 42), 7.5, 12.25]:
        zoom = px / r.extent
        sw, sh = r.scene_size(zoom)
        for layers in LAYER_SETS:
            rect = QRect(int(rng.integers(-40, sw + 1)), int(rng.integers(-40, sh + 1)),
                         int(rng.integers(1, 300)), int(rng.integers(1, 300)))
            same(r, zoom, rect, layers)
        same(r, zoom, QRect(0, 0, sw, sh), DEFAULT_LAYERS)


def test_the_bench_hex_map_at_8_px(qapp: Any) -> None:
    from bench.peers import acw_scenario

    s = acw_scenario()
    s.map.control[:] = np.random.default_rng(3).integers(-1, 2, size=s.map.control.shape)
    r = renderer_for(s)
    zoom = 8 / r.extent
    sw, sh = r.scene_size(zoom)
    for y in range(0, sh, 1024):
        same(r, zoom, QRect(0, y, sw, min(1024, sh - y)), DEFAULT_LAYERS)
