"""Unit counters on territory maps: where they go and how they look.

:func:`layout_counters` places each territory's counters under its label
point at a level of detail the territory has room for on screen (a
zoomed-out world map would otherwise be buried under counters);
:func:`paint_counters` draws them.  The territory renderer
(:mod:`app.gui.render.territory`) paints them in its top pass; the canvas
hits them with :func:`engine.territory.geometry.box_at`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from engine.territory import TerritoryScenario

from . import style
from .spent import SPENT_OPACITY, spent_units

COUNTER_W, COUNTER_H = 30.0, 18.0
"""A unit counter (one side and type) in screen pixels."""
COUNTER_COMPACT_W = 20.0
"""A counter showing only how many units a side has there."""
COUNTER_DOT = 7.0
"""A side's dot where a territory has no room for counters."""
COUNTER_OVERHANG = 1.5
"""How much wider than its territory on screen a row of counters may be."""
COUNTER_PAD = 2.0
"""How far outside its counter a click still hits it (screen pixels)."""


@dataclass(frozen=True)
class Counter:
    """One drawn unit counter: viewport rect, territory, the unit ids it
    stands for and its text (empty: drawn as a dot)."""

    rect: QRectF
    territory: str
    ids: list[str]
    label: str

    def box(self) -> tuple[float, float, float, float]:
        """The rect as (left, top, width, height), for picking."""
        return (self.rect.x(), self.rect.y(), self.rect.width(), self.rect.height())


NOBODY = QColor("#e6dfc8")
"""Land nobody controls, and the colour of a unit of no side."""


def side_color(scenario: TerritoryScenario, side: str | None) -> QColor:
    """A side's colour (grey for a side whose colour does not parse)."""
    if side is None:
        return QColor(NOBODY)
    try:
        return style.side_color(scenario.sides, scenario.sides.index(scenario.side(side)))
    except ValueError:
        return QColor("#808080")


def layout_counters(s: TerritoryScenario, labels: Mapping[str, tuple[float, float]], z: float,
                    base: tuple[float, float]) -> list[Counter]:
    """The unit counters to draw at zoom ``z`` with the map's (0, 0) at
    viewport point ``base``, each territory's under its label point:

    * one counter per side and type (``INF×2``) while that row is at
      most :data:`COUNTER_OVERHANG` times the territory's on-screen width;
    * else one counter per side with the side's number of units;
    * else a small dot per side.
    """
    out: list[Counter] = []
    groups: dict[str, dict[tuple[str, str], list[str]]] = {}
    for u in s.units:
        groups.setdefault(u.at, {}).setdefault((u.side, u.type), []).append(u.id)
    for tid, g in groups.items():
        lp = labels.get(tid)
        if lp is None:
            continue
        x0, _y0, x1, _y1 = s.map.territories[tid].shape.bounds
        room = (x1 - x0) * z * COUNTER_OVERHANG
        rows: list[tuple[list[str], str]] = [
            (ids, t[:3].upper() + (f"×{len(ids)}" if len(ids) > 1 else ""))
            for (_side, t), ids in sorted(g.items())]
        w, h, gap, dy = COUNTER_W, COUNTER_H, 3.0, 22.0
        if len(rows) * (w + gap) - gap > room:
            by_side: dict[str, list[str]] = {}
            for (side, _t), ids in sorted(g.items()):
                by_side.setdefault(side, []).extend(ids)
            rows = [(ids, str(len(ids))) for ids in by_side.values()]
            w = COUNTER_COMPACT_W
            if len(rows) * (w + gap) - gap > room:
                rows = [(ids, "") for ids, _n in rows]
                w = h = gap = COUNTER_DOT
                dy = 4.0
        left = base[0] + lp[0] * z - (len(rows) * (w + gap) - gap) / 2
        top = base[1] + lp[1] * z + dy
        for i, (ids, label) in enumerate(rows):
            out.append(Counter(QRectF(left + i * (w + gap), top, w, h), tid, ids, label))
    return out


def paint_counters(p: QPainter, s: TerritoryScenario, counters: Sequence[Counter], selected_unit: str | None,
                   font: QFont) -> None:
    """Draw ``counters`` in the side's colour (a stack shows a second
    counter peeking out; a dot where there is no room), the one holding
    ``selected_unit`` ringed; a counter whose units have all acted this
    turn (:func:`app.gui.render.spent.spent_units`) dimmed."""
    p.setFont(font)
    spent = spent_units(s)
    side_of = {u.id: u.side for u in s.units}
    colors: dict[str, QColor] = {}
    for c in counters:
        side = side_of[c.ids[0]] if c.ids[0] in side_of else s.unit(c.ids[0]).side
        fill = colors.get(side)
        if fill is None:
            fill = colors[side] = side_color(s, side)
        p.setOpacity(SPENT_OPACITY if spent and all(i in spent for i in c.ids) else 1.0)  # all acted: dimmed
        p.setPen(QPen(QColor("#111111"), 1))
        p.setBrush(fill)
        if not c.label:  # too small for a counter: a dot in the side's colour
            p.drawEllipse(c.rect)
        else:
            if len(c.ids) > 1:  # a stack: a second counter peeking out
                p.drawRoundedRect(c.rect.translated(2.5, -2.5), 2, 2)
            p.drawRoundedRect(c.rect, 2, 2)
            p.setPen(style.ink_on(fill))
            p.drawText(c.rect, Qt.AlignmentFlag.AlignCenter, c.label)
        if selected_unit in c.ids:
            pen = QPen(style.SELECTION, 2.5)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(c.rect.adjusted(-2, -2, 2, 2), 3, 3)
    p.setOpacity(1.0)


__all__ = ["COUNTER_COMPACT_W", "COUNTER_DOT", "COUNTER_H", "COUNTER_OVERHANG", "COUNTER_PAD", "COUNTER_W", "NOBODY",
           "Counter", "layout_counters", "paint_counters", "side_color"]
