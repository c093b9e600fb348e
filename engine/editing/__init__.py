"""What an editing tool changes, decided without a window.

Three modules, all pure Python, re-exported here so ``from engine.editing
import X`` works for every public name:

* :mod:`.shapes` — which cells (or sides) a tool touches: :func:`brush_cells`,
  :func:`bucket_cells`, :func:`rect_cells`, :func:`line_cells`,
  :func:`cells_along`, :func:`nearest_edge`, :func:`nearest_link`.  The grid
  answers what differs between kinds; nothing here branches on it.
* :mod:`.edits` — small frozen records of a change to a scenario
  (:class:`CellValues`, :class:`EdgeSetChange`, :class:`BridgeChange`,
  :class:`PlaceChange`, :class:`UnitChange`); :func:`apply_edits` and
  :func:`revert_edits` carry them out and back and return a :class:`Touched`
  record of what changed (cells per layer, unit ids), which is what views
  repaint.
* :mod:`.plans` — the ``plan_*`` functions look at the scenario and return
  the edit that would make a change, or ``None`` when nothing would change
  (so the editor pushes no empty undo step); they do not mutate.

:mod:`.scenarios` makes blank scenarios (:func:`new_scenario`).  The
editor's undo commands hold lists of edits; a whole brush stroke is the
concatenation of its dabs' edits, reverted in reverse order.
"""

from __future__ import annotations

from .edits import (
    BULK_CELLS,
    ArrayLayer,
    BridgeChange,
    CellValues,
    EdgeSetChange,
    Edit,
    NumberingChange,
    PlaceChange,
    Touched,
    UnderlayChange,
    UnitChange,
    apply_edits,
    copy_unit,
    revert_edits,
)
from .plans import (
    LINK_KINDS,
    check_unit,
    next_unit_id,
    plan_add_unit,
    plan_bridge,
    plan_delete_unit,
    plan_edge_set,
    plan_links,
    plan_move_unit,
    plan_numbering,
    plan_paint,
    plan_paint_mask,
    plan_place,
    plan_rivers,
    plan_update_unit,
)
from .scenarios import basic_ruleset, new_scenario
from .shapes import (
    MAX_BRUSH,
    MIN_BRUSH,
    brush_cells,
    bucket_cells,
    bucket_mask,
    cells_along,
    corner_sides,
    edges_along,
    line_cells,
    nearest_corner,
    nearest_edge,
    nearest_link,
    rect_cells,
    rect_mask,
    river_walk,
)

__all__ = [
    "BULK_CELLS",
    "LINK_KINDS",
    "MAX_BRUSH",
    "MIN_BRUSH",
    "ArrayLayer",
    "BridgeChange",
    "CellValues",
    "EdgeSetChange",
    "Edit",
    "NumberingChange",
    "PlaceChange",
    "Touched",
    "UnderlayChange",
    "UnitChange",
    "apply_edits",
    "basic_ruleset",
    "brush_cells",
    "bucket_cells",
    "bucket_mask",
    "cells_along",
    "check_unit",
    "copy_unit",
    "corner_sides",
    "edges_along",
    "line_cells",
    "nearest_corner",
    "nearest_edge",
    "nearest_link",
    "new_scenario",
    "next_unit_id",
    "plan_add_unit",
    "plan_bridge",
    "plan_delete_unit",
    "plan_edge_set",
    "plan_links",
    "plan_move_unit",
    "plan_numbering",
    "plan_paint",
    "plan_paint_mask",
    "plan_place",
    "plan_rivers",
    "plan_update_unit",
    "rect_cells",
    "rect_mask",
    "revert_edits",
    "river_walk",
]
