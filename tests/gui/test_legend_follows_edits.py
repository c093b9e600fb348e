"""The grid legend follows the map's edits (issue 18: "the grid legend is
not refreshed after paint edits"): a terrain painted for the first time gets
its row once the edits pause, and loses it when undone; a stroke does not
rebuild the legend per dab."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_editor_tools import blank, open_window

from engine.editing import plan_paint
from engine.grids import Cell

pytestmark = pytest.mark.gui


def test_a_newly_painted_terrain_appears_in_the_legend_and_goes_with_undo(qtbot: Any, tmp_path: Path) -> None:
    w = open_window(qtbot, tmp_path, blank("hex"))
    s = w.document.scenario
    absent = next(t for i, t in enumerate(s.ruleset.terrain) if not (s.map.terrain == i).any())
    row = f"Terrain: {absent.name}"
    assert row not in w.legend.texts()
    stroke = w.document.new_stroke()
    rebuilt = []
    w.legend.model().rowsInserted.connect(lambda *_: rebuilt.append(1))
    for c in (Cell(2, 2), Cell(3, 2), Cell(4, 2)):
        w.document.push("Paint", plan_paint(s, "terrain", [c], s.ruleset.terrain_index(absent.id)), stroke)
    assert row not in w.legend.texts() and not rebuilt  # nothing per dab
    qtbot.waitUntil(lambda: row in w.legend.texts(), timeout=3000)
    w.document.undo_stack.undo()
    qtbot.waitUntil(lambda: row not in w.legend.texts(), timeout=3000)
