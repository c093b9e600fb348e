"""The movement system's live preview in the grid editor, on a square map
(``maps/movement_features.json``) and a hex map (``maps/movement_moscow.json``):
found through the registry, it shades the reach, says each step's cost or
the reason for "no", and a click applies the move as one undo step."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_editor_adjudicate import hover, shown
from test_editor_tools import click, open_window

from app.gui.overlay import CellMark, EdgeMark, PathLine
from app.gui.systems import previews_for as available
from app.gui.systems.movement.previews import MovementPreview
from engine.io import load_any

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]


def test_found_through_the_registry() -> None:
    assert any(isinstance(p, MovementPreview) for p in available())


@pytest.mark.parametrize(("sample", "unit", "target", "refused"), [
    ("movement_features.json", "H1", "7-2", "3-3"),
    ("movement_moscow.json", "G1", "0604", "0705"),
])
def test_reach_hover_refusal_and_one_undoable_move(qtbot, tmp_path: Path, sample: str, unit: str, target: str,
                                                   refused: str) -> None:
    s = load_any(ROOT / "maps" / sample)
    w = open_window(qtbot, tmp_path, s, previews=[MovementPreview()])
    w.set_tool("adjudicate")
    assert isinstance(w.adjudicate.preview, MovementPreview)
    m = s.map
    u = s.unit(unit)
    start = u.at
    click(w, start)
    ov = shown(w)
    assert "can reach" in ov.message and sum(isinstance(i, CellMark) for i in ov.items) == ov.details["reachable"]
    to = m.parse_label(target)
    hover(w, to)
    ov = shown(w)
    assert ov.ok is True and any(isinstance(i, PathLine) for i in ov.items)
    assert ov.details["stop"] is True and "zone of control" in ov.message
    if sample == "movement_moscow.json":  # the river crossed is marked on its side
        assert any(isinstance(i, EdgeMark) for i in ov.items)
    no = m.parse_label(refused)
    hover(w, no)
    assert shown(w).ok is False and shown(w).message
    click(w, no)
    assert s.unit(unit).at == start and w.document.undo_stack.count() == 0
    click(w, start, button="right")  # deselect, whatever the refused click selected
    click(w, start)
    assert w.state.selected_unit == unit
    hover(w, to)
    click(w, to)
    assert s.unit(unit).at == to and w.document.undo_stack.count() == 1, w.statusBar().currentMessage()
    w.document.undo_stack.undo()
    assert s.unit(unit).at == start


def test_line_of_sight_preview(qtbot, tmp_path: Path) -> None:
    from app.gui.systems.movement.previews import SightPreview

    s = load_any(ROOT / "maps" / "movement_moscow.json")
    p = SightPreview()
    assert p.applies_to(s)
    u = s.unit("G1")
    ov = p.hover(s, u, s.map.parse_label("0604"))
    assert ov.ok is True and ov.details["ties"] == ["along", "vertex"]
    assert any(isinstance(i, PathLine) for i in ov.items)
    g2 = s.unit("G2")  # 0206: the city at 0205 stands between it and 0204
    ov = p.hover(s, g2, s.map.parse_label("0204"))
    assert ov.ok is False and ov.details["blocker"] == "0205" and "city at 0205 blocks sight" in ov.message
    assert any(isinstance(i, CellMark) and i.outline == "#e0201a" for i in ov.items)
    assert p.apply(s, u, s.map.parse_label("0604")) is None  # looking moves nothing
    w = open_window(qtbot, tmp_path, s, previews=[p])
    w.set_tool("adjudicate")
    click(w, g2.at)
    hover(w, s.map.parse_label("0204"))
    assert shown(w).ok is False
