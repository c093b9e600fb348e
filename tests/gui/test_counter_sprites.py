"""Counter sprites are cached by what a counter shows at its size: units
that share a sprite (below the sizes where the id, the type or the
strength are drawn) look exactly as each would drawn on its own."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6.QtGui import QImage
from test_canvas_scenarios import make_scenario

from app.gui.render import renderer_for, style
from app.gui.render.top import _draw_counter
from engine.grids import Cell
from engine.model import Unit

pytestmark = pytest.mark.gui


def pixels(img: QImage) -> np.ndarray:
    a = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    return a[:, : img.width() * 4].copy()


def test_a_shared_sprite_is_each_units_own_counter(qapp: Any) -> None:
    s = make_scenario("square", 12, 9)
    s.units += [Unit("Long name 9th", "blue", "cav", Cell(6, 6), 2), Unit("x", "blue", "art", Cell(7, 6), 7),
                Unit("y", "grey", "hq", Cell(8, 6), 6, props={"fortified": True})]
    r = renderer_for(s)
    shared = 0
    for size in range(3, 26):
        seen: dict[int, str] = {}
        for u in s.units:
            for stack in (1, 2, 3):
                img = r.counter_sprite(u, stack, size)
                side = s.sides.index(s.side(u.side))
                own = _draw_counter(style.side_color(s.sides, side).name(), u, stack, size,
                                    bool(u.props.get("fortified")))
                assert (pixels(img) == pixels(own)).all(), (u.id, stack, size)
                if id(img) in seen and seen[id(img)] != u.id:
                    shared += 1
                seen[id(img)] = u.id
    assert shared > 0  # small counters of alike units do share
