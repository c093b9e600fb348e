"""Colours, pens and legibility thresholds shared by the map renderers.

Every threshold is in *screen pixels per cell* (``cell_px``: the cell's
inner extent times the zoom), so square and hex maps switch detail at the
same apparent size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtGui import QColor

BACKGROUND = QColor("#5c6168")
"""Behind the map (canvas, and off-map corners of a hex map's bounding box)."""
EXPORT_BACKGROUND = QColor("#f4f1e8")
"""Behind the map in exported images (paper)."""
NO_TERRAIN = QColor("#e8e4d8")
"""Cell colour when the terrain layer is hidden."""

GRID = QColor(40, 36, 30, 90)
LABEL = QColor(30, 28, 24, 190)
RIVER = QColor("#2f6fc0")
RIVER_BANK = QColor("#1d4f8f")
ROAD_CASING = QColor("#6d4c2c")
ROAD = QColor("#e9c46a")
RAIL = QColor("#1e1e1e")
BRIDGE_RAIL = QColor("#4a4a4a")
BRIDGE_ROAD = QColor("#c9a25a")
PLACE_DOT = QColor("#202020")
PLACE_TEXT = QColor("#141414")
PLACE_HALO = QColor(255, 252, 240, 215)
CONTROL_BAND = QColor(255, 255, 255, 200)
"""Under a control border's dashes."""
SELECTION = QColor("#ffd21f")
SELECTION_DARK = QColor("#1a1a1a")

# -- side palettes (a colour-blind-safe default, a switch in View) --

OKABE_ITO = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000")
"""Okabe & Ito's eight colours, told apart under the common colour-vision
deficiencies; side ``i`` of a scenario takes colour ``i`` (mod 8)."""

PALETTES: tuple[str, ...] = ("Colour-blind safe", "Scenario colours")
"""The side palettes View > Palette offers: the first is the default; the
second takes each side's colour from its file."""

_palette = PALETTES[0]


class _Side(Protocol):
    color: str


def palette() -> str:
    """The side palette in use (one of :data:`PALETTES`)."""
    return _palette


def set_palette(name: str) -> None:
    """Use side palette ``name``; renderers built afterwards draw with it.
    Raises ValueError naming the palettes for an unknown name."""
    global _palette
    if name not in PALETTES:
        raise ValueError(f"unknown palette '{name}' (palettes: {', '.join(PALETTES)})")
    _palette = name


def side_color(sides: Sequence[_Side], index: int) -> QColor:
    """The colour of side ``index`` of ``sides`` in the palette in use."""
    if _palette == PALETTES[0]:
        return QColor(OKABE_ITO[index % len(OKABE_ITO)])
    return qcolor(sides[index].color)


CONTROL_TINT_ALPHA = 0.28
"""How strongly a controlling side's colour tints its cells (0..1)."""

# legibility thresholds (screen pixels per cell)
GRID_MIN_PX = 9.0
LABEL_MIN_PX = 40.0
CONTROL_BORDER_MIN_PX = 8.0
RAIL_TIES_MIN_PX = 12.0
LINKS_MIN_PX = 1.5
COUNTER_TEXT_MIN_PX = 20.0
COUNTER_SMALL_TEXT_MIN_PX = 11.0
COUNTER_LEGIBLE_PX = 13.0
"""Smallest counter side once cells are :data:`COUNTER_GROW_MIN_PX` or more:
big enough for its strength."""
COUNTER_GROW_MIN_PX = 6.0
"""From this counter size up to :data:`COUNTER_TEXT_MIN_PX` a counter shows
its strength alone."""
COUNTER_MIN_PX = 3.0
PLACE_NAME_MIN_PX = 10.0


def qcolor(text: str | None, fallback: str = "#808080") -> QColor:
    """A QColor from ``#rrggbb`` / ``#rrggbbaa`` (the overlay and file
    convention: alpha last), or ``fallback`` when missing or unreadable."""
    if not text:
        return QColor(fallback)
    t = text.strip()
    if t.startswith("#") and len(t) == 9:
        c = QColor(t[:7])
        if c.isValid():
            c.setAlpha(int(t[7:9], 16))
            return c
    c = QColor(t)
    return c if c.isValid() else QColor(fallback)


def luminance(c: QColor) -> float:
    """Relative luminance (0 dark .. 1 light) for choosing text colour."""
    return (0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF())


def ink_on(c: QColor) -> QColor:
    """Black or white, whichever reads better on ``c``."""
    return QColor("#111111") if luminance(c) > 0.55 else QColor("#ffffff")


def argb(c: QColor) -> int:
    """The 0xAARRGGBB word of a colour (numpy raster format)."""
    return (c.alpha() << 24) | (c.red() << 16) | (c.green() << 8) | c.blue()
