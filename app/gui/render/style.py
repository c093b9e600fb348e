"""Colours, pens and legibility thresholds shared by the map renderers.

Every threshold is in *screen pixels per cell* (``cell_px``: the cell's
inner extent times the zoom), so square and hex maps switch detail at the
same apparent size.
"""

from __future__ import annotations

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
SELECTION = QColor("#ffd21f")
SELECTION_DARK = QColor("#1a1a1a")

CONTROL_TINT_ALPHA = 0.28
"""How strongly a controlling side's colour tints its cells (0..1)."""

# legibility thresholds (screen pixels per cell)
GRID_MIN_PX = 9.0
LABEL_MIN_PX = 40.0
CONTROL_BORDER_MIN_PX = 8.0
RAIL_TIES_MIN_PX = 12.0
LINKS_MIN_PX = 1.5
COUNTER_TEXT_MIN_PX = 20.0
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
