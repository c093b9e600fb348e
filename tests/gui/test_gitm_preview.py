"""The GITM march preview: as a pure object (no Qt), then once in the
editor window (pytest-qt, offscreen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.gui.overlay import CellMark, CellMarks, PathLine
from app.gui.systems import previews_for
from app.gui.systems.gitm.previews import BLOCK_OUTLINE, GitmMarchPreview
from engine.grids import Cell
from engine.io import load_scenario
from engine.labels import NumericNumbering
from engine.model import ModelError

NUM = NumericNumbering()
ROOT = Path(__file__).resolve().parent.parent.parent


def C(label: str) -> Cell:
    return NUM.parse(label)


def load(name: str) -> Any:
    return load_scenario(ROOT / "maps" / name)


def marks(ov: Any) -> dict[str, CellMark]:
    """Every marked square's mark by label (a batch of squares marked alike,
    CellMarks, counts as one CellMark per square)."""
    out = {NUM.label(c): i.mark(c) for i in ov.items if isinstance(i, CellMarks) for c in i.cells}
    out.update((NUM.label(i.cell), i) for i in ov.items if isinstance(i, CellMark))
    return out


def test_discovered_and_applies_only_to_gitm_square_maps() -> None:
    assert any(isinstance(p, GitmMarchPreview) for p in previews_for())
    p = GitmMarchPreview()
    assert p.applies_to(load("gitm_graphic1.json"))
    from engine.editing import new_scenario

    assert not p.applies_to(new_scenario("hex", {"kind": "hex", "width": 5, "height": 5, "orientation": "flat",
                                                 "parity": "odd"}, {"scheme": "ccrr"}))


@pytest.mark.parametrize(("name", "to", "tu", "u"), [
    ("gitm_graphic1.json", "5-1", {"2-1", "3-1", "4-1", "5-1"}, set()),
    ("gitm_graphic3.json", "6-5", {"2-3", "3-3", "4-4", "5-4", "6-5"}, {"2-2", "3-4", "4-3", "5-5"}),
])
def test_clear_moves_paint_the_graphics_and_apply(name: str, to: str, tu: set[str], u: set[str]) -> None:
    s = load(name)
    unit = s.unit("FR1IN")
    p = GitmMarchPreview()
    ov = p.hover(s, unit, C(to))
    m = marks(ov)
    assert {k for k, v in m.items() if v.text == "T/U"} == tu
    assert {k for k, v in m.items() if v.text == "U"} == u
    assert ov.ok is True and "is clear" in ov.message
    lines = [i for i in ov.items if isinstance(i, PathLine)]
    assert any(line.cells == (unit.at, C(to)) for line in lines)  # the straight line itself
    order = p.apply(s, unit, C(to))
    assert order is not None and order.unit_id == "FR1IN" and order.to == C(to)
    assert order.description == f"FR1IN marches {NUM.label(unit.at)} -> {to}"


def test_blocked_move_stands_out_with_its_reason_and_is_refused() -> None:
    s = load("gitm_graphic2.json")
    unit = s.unit("FR1IN")
    p = GitmMarchPreview()
    ov = p.hover(s, unit, C("5-2"))
    assert ov.ok is False
    m = marks(ov)
    assert set(m) == {"2-5", "3-4", "4-3", "5-2", "1-5", "2-4", "2-6", "3-3", "3-5", "4-2", "4-4", "5-3"}
    block = m["4-2"]
    assert block.outline == BLOCK_OUTLINE and block.text == "U"
    assert block.tooltip == "Blocks: enemy AU2CA at 4-2, beside the diagonal step from 4-3 to 5-2"
    assert ov.tooltip_at(C("4-2")) is not None and "AU2CA" in (ov.tooltip_at(C("4-2")) or "")
    assert m["3-3"].outline is None and "units only" in (m["3-3"].tooltip or "")
    assert [k for k, v in m.items() if v.outline == BLOCK_OUTLINE] == ["4-2"]
    assert p.apply(s, unit, C("5-2")) is None


def test_terrain_pair_marks_both_squares() -> None:
    s = load("gitm_examples.json")
    ov = GitmMarchPreview().hover(s, s.unit("FR5IN"), C("5-8"))
    m = marks(ov)
    for sq in ("4-8", "5-9"):
        assert m[sq].outline == BLOCK_OUTLINE
        assert m[sq].tooltip == "Blocks: river at 4-8 and 5-9 block the diagonal step from 4-9 to 5-8"


def test_waypoint_draws_two_lines_and_blocks_on_the_second() -> None:
    s = load("gitm_examples.json")
    unit = s.unit("FR3IN")
    p = GitmMarchPreview()
    ov = p.hover(s, unit, C("8-3"), C("7-3"))
    assert ov.ok is False and "too steep" in ov.message
    assert any(isinstance(i, PathLine) and i.cells == (C("3-1"), C("7-3"), C("8-3")) for i in ov.items)
    assert p.apply(s, unit, C("8-3"), C("7-3")) is None
    assert p.apply(s, unit, C("7-3")) is not None


def test_all_allied_is_an_automatic_success() -> None:
    s = load("gitm_allied.json")
    unit = s.unit("FR2IN")
    ov = GitmMarchPreview().hover(s, unit, C("5-1"))
    assert ov.ok is True and "automatically" in ov.message and not marks(ov)
    order = GitmMarchPreview().apply(s, unit, C("5-1"))
    assert order is not None and order.description.endswith("(all others allied)")


def test_hover_on_own_square_is_an_error_the_tool_reports() -> None:
    s = load("gitm_graphic1.json")
    with pytest.raises(ModelError):
        GitmMarchPreview().hover(s, s.unit("FR1IN"), C("1-1"))


@pytest.mark.gui
def test_in_the_editor_window(qtbot: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtTest import QTest

    from app.gui.main_window import MainWindow

    s = load("gitm_graphic2.json")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(s, None, settings, tmp_path / "state", previews=[GitmMarchPreview()])
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1000, 760)
    w.show()
    qtbot.waitExposed(w)
    w.canvas.fit()
    w.set_tool("adjudicate")
    assert isinstance(w.adjudicate.preview, GitmMarchPreview)

    def point(cell: Cell) -> Any:
        x, y = w.canvas.layout().center(cell)
        return w.canvas.map_to_view(x, y).toPoint()

    def click(cell: Cell) -> None:
        from PySide6.QtCore import Qt

        vp = w.canvas.viewport()
        QTest.mouseMove(vp, point(cell))
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))

    click(C("1-6"))
    assert w.state.selected_unit == "FR1IN"
    QTest.mouseMove(w.canvas.viewport(), point(C("5-2")))
    ov = w.adjudicate.overlay
    assert ov is not None and ov.ok is False
    assert "AU2CA" in (w.canvas.tooltip_text(C("4-2")) or "")
    assert "blocked" in w.statusBar().currentMessage()
    click(C("5-2"))  # refused: nothing moves
    assert s.unit("FR1IN").at == C("1-6") and w.document.undo_stack.count() == 0

    QTest.mouseMove(w.canvas.viewport(), point(C("5-6")))  # due east along row 6: clear
    assert w.adjudicate.overlay is not None and w.adjudicate.overlay.ok is True
    shot = w.canvas.viewport().grab()
    assert not shot.isNull()
    shot.save(str(tmp_path / "gitm_preview.png"))
    click(C("5-6"))
    assert s.unit("FR1IN").at == C("5-6") and w.document.undo_stack.count() == 1
    w.document.undo_stack.undo()
    assert s.unit("FR1IN").at == C("1-6")
