"""Undo and redo of the editor's commands, without widgets: the document,
its QUndoStack and the engine edits only."""

from __future__ import annotations

from app.gui.document import Document
from engine.editing import (
    brush_cells,
    line_cells,
    new_scenario,
    plan_add_unit,
    plan_bridge,
    plan_links,
    plan_move_unit,
    plan_paint,
    plan_place,
    plan_rivers,
)
from engine.grids import Cell, Edge
from engine.io import dumps_scenario
from engine.model import Unit


def make_doc(qapp) -> Document:
    s = new_scenario("t", {"kind": "hex", "width": 12, "height": 10, "orientation": "flat", "parity": "odd"},
                     {"scheme": "ccrr"})
    return Document(s)


def test_a_stroke_is_one_undo_step(qapp) -> None:
    doc = make_doc(qapp)
    start = doc.text()
    forest = doc.scenario.ruleset.terrain_index("forest")
    seen: list[tuple[str, frozenset]] = []
    doc.cellsChanged.connect(lambda layer, cells: seen.append((layer, cells)))
    stroke = doc.new_stroke()
    for c in (Cell(1, 1), Cell(2, 1), Cell(3, 2), Cell(3, 2)):
        doc.push("Paint", plan_paint(doc.scenario, "terrain", brush_cells(doc.scenario.map.grid, c, 3), forest), stroke)
    assert doc.undo_stack.count() == 1
    assert doc.is_modified()
    assert seen and all(layer == "terrain" for layer, _ in seen)
    painted = doc.text()
    doc.undo_stack.undo()
    assert doc.text() == start and not doc.is_modified()
    doc.undo_stack.redo()
    assert doc.text() == painted
    # a second stroke is a second step
    doc.push("Paint", plan_paint(doc.scenario, "terrain", [Cell(8, 8)], forest), doc.new_stroke())
    assert doc.undo_stack.count() == 2


def test_an_edit_that_changes_nothing_pushes_nothing(qapp) -> None:
    doc = make_doc(qapp)
    assert not doc.push("Paint", plan_paint(doc.scenario, "terrain", [Cell(0, 0)], 0))
    assert not doc.push("Rivers", plan_rivers(doc.scenario, [], True))
    assert doc.undo_stack.count() == 0 and not doc.is_modified()


def test_undo_redo_of_every_kind_of_edit(qapp) -> None:
    doc = make_doc(qapp)
    s = doc.scenario
    states = [doc.text()]
    side = Edge.between(Cell(4, 4), Cell(4, 5))
    steps = [
        ("Paint", plan_paint(s, "terrain", brush_cells(s.map.grid, Cell(5, 5), 5), 1)),
        ("Control", plan_paint(s, "control", brush_cells(s.map.grid, Cell(2, 2), 3), 0)),
        ("Rail", lambda: plan_links(s, "rail", line_cells(s.map.grid, Cell(0, 0), Cell(8, 6)))),
        ("Road", lambda: plan_links(s, "road", line_cells(s.map.grid, Cell(0, 9), Cell(9, 0)))),
        ("River", lambda: plan_rivers(s, [side])),
        ("Bridge", lambda: plan_bridge(s, side, "road")),
        ("Place", lambda: plan_place(s, Cell(3, 3), "Richmond", "R")),
        ("Add unit", lambda: plan_add_unit(s, Unit("u1", "blue", "infantry", Cell(1, 1), 4))),
        ("Move unit", lambda: plan_move_unit(s, "u1", Cell(6, 6), {"fortified": True})),
        ("Lift river", lambda: plan_rivers(s, [side], present=False)),
    ]
    for text, plan in steps:
        edits = plan() if callable(plan) else plan
        assert doc.push(text, edits), text
        states.append(doc.text())
    assert doc.undo_stack.count() == len(steps)
    for i in range(len(steps), 0, -1):
        assert doc.text() == states[i]
        doc.undo_stack.undo()
    assert doc.text() == states[0]
    for i in range(1, len(steps) + 1):
        doc.undo_stack.redo()
        assert doc.text() == states[i]


def test_units_signal_and_replace_clears_history(qapp, tmp_path) -> None:
    doc = make_doc(qapp)
    ids: list = []
    doc.unitsChanged.connect(ids.append)
    doc.push("Add unit", plan_add_unit(doc.scenario, Unit("a", "red", "cavalry", Cell(2, 2))))
    assert ids == [frozenset({"a"})]
    path = tmp_path / "x.json"
    doc.save(str(path))
    assert not doc.is_modified() and doc.path == str(path)
    replaced: list = []
    doc.scenarioReplaced.connect(replaced.append)
    doc.replace(new_scenario("n", {"kind": "square", "width": 3, "height": 3}, {"scheme": "numeric"}), None,
                modified=True)
    assert replaced and doc.undo_stack.count() == 0 and doc.is_modified()
    doc.open(str(path))
    assert doc.scenario.unit("a").at == Cell(2, 2) and not doc.is_modified()
    assert dumps_scenario(doc.scenario) == path.read_text()


def test_a_bulk_fill_reports_its_layer(qapp) -> None:
    from engine.editing import bucket_mask, plan_paint_mask

    doc = Document(new_scenario("big", {"kind": "square", "width": 300, "height": 200}, {"scheme": "numeric"}))
    layers: list[str] = []
    cells: list = []
    doc.layerChanged.connect(layers.append)
    doc.cellsChanged.connect(lambda layer, c: cells.append(layer))
    doc.push("Fill", plan_paint_mask(doc.scenario, "terrain", bucket_mask(doc.scenario.map, Cell(0, 0)), 2))
    assert layers == ["terrain"] and cells == []
    doc.undo_stack.undo()
    assert layers == ["terrain", "terrain"] and (doc.scenario.map.terrain == 0).all()
