"""The undo history frees what it held: a brush stroke of many dabs is one
command (no command object per dab for Qt to merge and PySide to keep for
good, holding the dab's edits), and clearing the history frees every
command.  This was the soak test's memory growth (see
``docs/reliability.md``, Soak)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from app.gui.commands import EditCommand
from app.gui.document import Document
from engine.editing import new_scenario, plan_paint
from engine.grids import Cell

pytestmark = pytest.mark.gui

RAIL_OPTIONS = Path(__file__).resolve().parents[2] / "maps" / "aa_rail_options.json"


def alive(cls: type) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, cls))


def document() -> Document:
    s = new_scenario("Undo", {"kind": "square", "width": 40, "height": 40, "neighbours": 8}, {"scheme": "ccrr"})
    return Document(s)


def paint_stroke(doc: Document, cells: list[Cell], value: int) -> None:
    stroke = doc.new_stroke()
    for c in cells:
        doc.push("Paint terrain", plan_paint(doc.scenario, "terrain", [c], value), stroke)


def test_a_stroke_is_one_command_and_clearing_frees_it(qapp) -> None:
    before = alive(EditCommand)
    doc = document()
    cells = [Cell(i % 40, i // 40) for i in range(300)]
    paint_stroke(doc, cells, 3)
    paint_stroke(doc, cells[:50], 2)
    assert doc.undo_stack.count() == 2
    assert alive(EditCommand) - before == 2
    assert all(int(doc.scenario.map.terrain[c.row, c.col]) == 2 for c in cells[:50])
    doc.undo_stack.undo()
    assert all(int(doc.scenario.map.terrain[c.row, c.col]) == 3 for c in cells[:50])
    doc.undo_stack.undo()
    assert not doc.scenario.map.terrain.any()
    doc.undo_stack.redo()
    assert all(int(doc.scenario.map.terrain[c.row, c.col]) == 3 for c in cells)
    # a new stroke after an undo drops the redo step; nothing is left behind
    paint_stroke(doc, cells[:10], 5)
    assert doc.undo_stack.count() == 2
    doc.undo_stack.clear()
    assert alive(EditCommand) == before


def test_a_stroke_does_not_merge_into_the_saved_step(qapp) -> None:
    doc = document()
    stroke = doc.new_stroke()
    doc.push("Paint terrain", plan_paint(doc.scenario, "terrain", [Cell(0, 0)], 1), stroke)
    doc.undo_stack.setClean()
    doc.push("Paint terrain", plan_paint(doc.scenario, "terrain", [Cell(1, 0)], 1), stroke)
    assert doc.undo_stack.count() == 2 and doc.is_modified()
    doc.undo_stack.undo()
    assert not doc.is_modified() and int(doc.scenario.map.terrain[0, 1]) == 0



def test_a_railroad_drag_on_a_territory_map_is_one_command_and_clearing_frees_it(qapp) -> None:
    """The territory editor's strokes (a drag of the Railroad tool) grow one
    command too, and the history frees every command it held."""
    from app.gui.territory.document import TerritoryDocument
    from engine.io import load_any

    before = alive(EditCommand)
    doc = TerritoryDocument(load_any(RAIL_OPTIONS))
    strip = ["belgium", "austria", "balkans", "turkey"]
    original = {t: doc.scenario.map.territories[t].features.get("railroad") for t in strip}
    for k in range(30):
        stroke = doc.new_stroke()
        for t in strip:
            doc.set_feature(t, "railroad", {"purchased": k} if k % 2 else None, stroke)
    assert doc.undo_stack.count() == 30
    assert alive(EditCommand) - before == 30
    assert doc.undo_stack.text(29) == "add railroad in 4 territories"
    doc.undo_stack.setIndex(0)
    assert {t: doc.scenario.map.territories[t].features.get("railroad") for t in strip} == original
    doc.undo_stack.clear()
    assert alive(EditCommand) == before
