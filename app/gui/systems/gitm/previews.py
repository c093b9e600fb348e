"""Live preview of a GITM straight-line march (shared seed 002).

Point at a square with a unit selected: the squares the move checks are
painted as the document's graphics mark them (``T/U``: terrain and units;
``U``: units only), the squares that block stand out in red with their
reason as tooltip, and the straight line (through the waypoint, when one is
set) is drawn over the rounded path.  A click applies the march when nothing
blocks it.  All the rules are :func:`engine.rules.gitm.march`'s; this module
only draws its result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.grids import Cell, SquareGrid
from engine.model import Scenario, Unit
from engine.rules.gitm import SYSTEM, MarchResult, march

from ...overlay import CellMark, CellMarks, CellSeq, Item, Marker, Overlay, PathLine
from ...preview import MoveOrder, Preview

TU_FILL = "#f2a53a80"
"""``T/U`` squares: checked for terrain and units (amber)."""
U_FILL = "#5aa0e670"
"""``U`` squares: checked for units only (blue)."""
BLOCK_FILL = "#e03c3150"
"""Blocking squares: a light red wash (a blocking unit stays readable) ..."""
BLOCK_OUTLINE = "#e0201a"
"""... inside a heavy red outline; their text is red too."""
LINE_OK = "#1f7a34"
LINE_BLOCKED = "#e0201a"
LINE_AUTO = "#1f7a34"
PATH_COLOR = "#303030"

FILLS = {"T/U": TU_FILL, "U": U_FILL}
KIND_TIP = {"T/U": "checked for impassable terrain and enemy or neutral units",
            "U": "checked for enemy or neutral units only"}


class GitmMarchPreview(Preview):
    """GITM tactical movement: where would this straight line be blocked?"""

    name = "GITM straight-line march"

    def applies_to(self, scenario: Scenario) -> bool:
        """Square maps whose ruleset has ``gitm`` options or a GITM name."""
        r = scenario.ruleset
        return isinstance(scenario.map.grid, SquareGrid) and (SYSTEM in r.options or "gitm" in r.name.casefold())

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        if unit is None:
            return Overlay()
        return Overlay((Marker(unit.at, "circle", "#ffd23f", tooltip=f"{unit.id} marches from here"),),
                       message=f"{unit.id} selected: point at a square to march to (shift-click sets a waypoint)")

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        result = march(scenario, unit, target, waypoint)
        return overlay_for(scenario, result)

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        result = march(scenario, unit, target, waypoint)
        if result.blocked:
            return None
        lab = scenario.map.label
        route = " -> ".join(lab(c) for c in (result.start, *((result.via,) if result.via is not None else ()),
                                             result.end))
        how = " (all others allied)" if result.auto_success else ""
        return MoveOrder(unit.id, target, f"{unit.id} marches {route}{how}")


def overlay_for(scenario: Scenario, result: MarchResult) -> Overlay:
    """The overlay drawing ``result``: checked squares, blocks, the line.

    A march at the whole-map zoom checks hundreds of squares: the unblocked
    squares of a kind are one :class:`CellMarks` (one look, each square's
    tooltip made only when asked), the blocking squares one
    :class:`CellMark` each with their reasons."""
    label = scenario.map.label
    blocking: dict[Cell, list[str]] = {}
    for b in result.blocks:
        for c in b.cells:
            blocking.setdefault(c, []).append(b.reason)
    items: list[Item] = []
    kinds: dict[Cell, str] = {}
    squares = result.check_squares()  # arrays, no object per square
    for kind_, (cols, rows) in squares.items():
        if blocking:
            keep = np.ones(len(cols), bool)
            for cell in blocking:
                hit = np.flatnonzero((cols == cell.col) & (rows == cell.row))
                if len(hit):
                    keep[hit] = False
                    kinds[cell] = kind_
            cols, rows = cols[keep], rows[keep]
        if len(cols):
            items.append(CellMarks(CellSeq(cols, rows), fill=FILLS.get(kind_, U_FILL), text=kind_,
                                   tooltip=KIND_TIP.get(kind_), label=label))
    for cell, reasons in blocking.items():
        items.append(CellMark(cell, fill=BLOCK_FILL, outline=BLOCK_OUTLINE, text=kinds.get(cell), width=4.0,
                              tooltip="Blocks: " + "; ".join(dict.fromkeys(reasons))))
    lab = label
    ends = (result.start, *((result.via,) if result.via is not None else ()), result.end)
    color = LINE_AUTO if result.auto_success else LINE_BLOCKED if result.blocked else LINE_OK
    path = CellSeq(*result.path_squares())
    rounded = "rounded path: " + path_words(lab, path)
    # the tooltip names the path's length only: the mouse is on the march's
    # end, where the verdict panel lists the squares, and a tooltip is laid
    # out again on every move (its forty labels were a tenth of a hover)
    items.append(PathLine(path, PATH_COLOR, width=2.0, dashed=True,
                          tooltip=f"rounded path of {len(path)} squares (listed in the verdict panel)"))
    items.append(PathLine(ends, color, width=3.0, tooltip=result.reason))
    why = (*dict.fromkeys(b.reason for b in result.blocks), rounded)
    return Overlay(tuple(items), message=result.reason, ok=not result.blocked,
                   summary=result.reason.split(": ", 1)[0], reasons=why,
                   details={"blocked": result.blocked, "auto_success": result.auto_success,
                            "checks": sum(len(c) for c, _r in squares.values()), "blocks": len(result.blocks)})


PATH_SHOWN = 20
"""A rounded path longer than twice this many squares is named by its first
and last ``PATH_SHOWN`` squares and its length (a march across a big map has
hundreds: as a verdict line they would be unreadable, and laying them out
cost the verdict panel more than the rest of a hover; ``adjutant march``
prints every square)."""


def path_words(lab: Callable[[Cell], str], path: Sequence[Cell]) -> str:
    """The squares of ``path`` as labels, the middle of a long one left out."""
    if len(path) <= 2 * PATH_SHOWN:
        return " ".join(lab(c) for c in path)
    head = " ".join(lab(c) for c in path[:PATH_SHOWN])
    tail = " ".join(lab(c) for c in path[-PATH_SHOWN:])
    return f"{head} \u2026 {tail} ({len(path)} squares)"


PREVIEWS = (GitmMarchPreview,)
