"""Every sample map (``maps/*.json``) in its editor window at 1366x768 and
1280x820, in each layout (Designer, then Game Master with the game in
play) and each mode the window offers (a grid map: every editing tool and
Adjudicate with each of the map's rules previews; a territory map: every
mode of its tool bar), measured as a person sees it: the map view keeps at
least 60 % of the window, no dock title or dock tab title that shows is
cut short, and every button that shows in a dock lies inside the dock's
visible area.  In Adjudicate (and the Rail options mode) a unit is
selected and a target pointed at: the Verdict dock shows, and its verdict
is the engine's verdict whole (each of the engine's reasons inside the
message, the message a whole paragraph of the dock, not a prefix of it).

One window per map and size, its modes switched inside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from layout_kit import SIZE_IDS, SIZES, check, in_view, pump, showing
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QDockWidget, QMainWindow, QScrollArea
from system_parts import rail
from test_verdict_readable import assert_shown_whole
from window_kit import open_map

from app.gui.layouts import DESIGNER, GAME_MASTER
from app.gui.main_window import MainWindow
from app.gui.systems.acw.previews import AcwMovePreview
from app.gui.systems.cwol_rail.previews import CwolRailPreview
from app.gui.systems.gitm.previews import GitmMarchPreview
from app.gui.systems.movement.previews import MovementPreview, SightPreview
from engine.grids import Cell
from engine.model import Scenario, Unit
from engine.rules.gitm import march
from engine.rules.movement import check_move, options_for
from engine.rules.rail_options import RailOptionsAdjudicator
from engine.sight import line_of_sight

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "maps").glob("*.json"))


def engine_reasons(preview: Any, s: Scenario, unit: Unit, target: Cell) -> list[str]:
    """What the engine says of ``unit`` going to ``target`` under ``preview``'s rules."""
    if isinstance(preview, AcwMovePreview):
        return [preview.check(s, unit, target).reason]  # engine.rules.acw.check_move over the unit's reach
    if isinstance(preview, GitmMarchPreview):
        return [march(s, unit, target, None).reason]
    if isinstance(preview, CwolRailPreview):
        return [preview.result(s, unit, target).reason]  # engine.rules.cwol_rail.rail_move
    if isinstance(preview, MovementPreview):
        return list(check_move(s, unit, target, preview.reach_of(s, unit)).reasons)
    if isinstance(preview, SightPreview):
        o = options_for(s)
        return [line_of_sight(s, unit.at, target, o.sight.rules(), o.hexsides).reason]
    raise AssertionError(f"no engine verdict known for the preview {preview.name!r}: add it here")


def dock_of(widget: Any) -> QDockWidget | None:
    while widget is not None and not isinstance(widget, QDockWidget):
        widget = widget.parentWidget()
    return widget


def buttons_cut(w: QMainWindow) -> list[str]:
    """Each button that shows in a dock in front yet is not all inside the
    dock's visible area (a panel that scrolls, :data:`app.gui.layouts.SCROLLED`,
    brings its buttons into view by scrolling)."""
    cut = []
    for d in showing(w):
        for b in d.findChildren(QAbstractButton):
            if not b.isVisible() or dock_of(b) is not d:  # (a dock inside a dock's panel is measured as its own)
                continue
            parent = b.parentWidget()
            while parent is not d and not isinstance(parent, QScrollArea):
                parent = parent.parentWidget()
            if parent is not d:
                continue
            if not in_view(b, w):
                at = b.mapTo(w, QPoint(0, 0))
                cut.append(f"{d.windowTitle()!r}: button {b.text() or b.toolTip() or b.objectName()!r} "
                           f"at {at.x()},{at.y()} {b.width()}x{b.height()}")
    return cut


def measure(w: QMainWindow, what: str) -> None:
    check(w, what)
    assert not buttons_cut(w), f"{what}: {buttons_cut(w)}"


def click(w: Any, p: QPoint) -> None:
    vp = w.canvas.viewport()
    QTest.mouseMove(vp, p)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)


def grid_point(w: MainWindow, cell: Cell) -> QPoint:
    x, y = w.canvas.layout().center(cell)
    return w.canvas.map_to_view(x, y).toPoint()


def toward_middle(w: MainWindow, start: Cell, steps: int = 3) -> Cell:
    """The cell ``steps`` cells from ``start`` on the line to the map's middle."""
    grid = w.document.scenario.map.grid
    line = grid.line(start, Cell(grid.width // 2, grid.height // 2))
    return line[min(steps, len(line) - 1)] if len(line) > 1 else grid.neighbours(start)[0]


def assert_verdict_whole(w: Any, message: str, reasons: list[str], what: str) -> None:
    """The Verdict dock shows, in front, with ``message`` as a whole paragraph
    of its text, and each of the engine's ``reasons`` inside it."""
    assert w.dock_verdict in showing(w), f"{what}: the Verdict dock is not in front"
    assert reasons and all(reasons), f"{what}: the engine gave no verdict"
    for r in reasons:
        assert r in message, f"{what}: the engine's {r!r} is not in the verdict {message!r}"
    lines = w.verdict.view.toPlainText().splitlines()
    assert message in lines, f"{what}: the Verdict dock reads {lines!r}, not {message!r}"
    bar = w.verdict.view.verticalScrollBar()
    assert bar.maximum() == 0, f"{what}: the verdict scrolls ({bar.maximum()} px more): {lines!r}"


def grid_sweep(w: MainWindow, tag: str) -> None:
    for tool in w.tools:
        w.set_tool(tool)
        pump()
        if tool != "adjudicate":
            measure(w, f"{tag} {tool}")
            continue
        s = w.document.scenario
        for i, preview in enumerate(list(w._previews)):
            w._preview_chosen(i)
            pump()
            name = f"{tag} adjudicate {preview.name}"
            measure(w, name)
            if not s.units:
                continue
            unit = min(s.units, key=lambda u: u.id)
            click(w, grid_point(w, unit.at))
            chosen = w.state.selected_unit
            assert chosen is not None, f"{name}: a click on {unit.id} selected nothing"
            picked = s.unit(chosen) if isinstance(chosen, str) else chosen
            target = toward_middle(w, picked.at)
            QTest.mouseMove(w.canvas.viewport(), grid_point(w, target))
            pump()
            ov = w.adjudicate.overlay
            assert ov is not None and ov.message, f"{name}: no verdict for {picked.id} to {s.map.label(target)}"
            measure(w, name + " verdict")
            assert_verdict_whole(w, ov.message, engine_reasons(preview, s, picked, target), name)
            assert_shown_whole(w.statusBar(), ov.short())
            QTest.keyClick(w.canvas.viewport(), Qt.Key.Key_Escape)
            pump()


def territory_sweep(w: Any, tag: str) -> None:
    s = w.scenario
    for mode in w.tools:
        w.set_mode(mode)
        pump()
        measure(w, f"{tag} {mode}")
        if mode != "railoptions" or not s.units:
            continue
        kit = rail(w)
        unit = min(s.units, key=lambda u: u.id)
        w.select_unit(unit.id)
        pump()
        judge = RailOptionsAdjudicator(s, kit.option, kit.rail_phase())
        for tid in s.map.territories:
            lp = w.canvas.label_point(tid)
            if lp is None or tid == unit.at:
                continue
            QTest.mouseMove(w.canvas.viewport(), QPoint(1, 1))  # from elsewhere: a move onto the territory
            QTest.mouseMove(w.canvas.viewport(), w.canvas.map_to_view(*lp).toPoint())
            pump()
            break
        else:
            raise AssertionError(f"{tag}: no territory to point at")
        reason = judge.judge(unit.id, tid).reason
        assert w.verdict.overlay is not None, f"{tag}: no verdict for {unit.id} to {tid}"
        measure(w, f"{tag} railoptions verdict")
        assert_verdict_whole(w, w.verdict.overlay.message, [reason], f"{tag} railoptions {unit.id} to {tid}")
        assert_shown_whole(w.statusBar(), ("✔ " if w.verdict.overlay.ok else "✘ ") + reason)
        w.select_unit(None)
        pump()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("sample", SAMPLES)
def test_every_mode_of_every_sample_in_each_layout(qtbot: Any, tmp_path: Path, sample: str,
                                                    size: tuple[int, int]) -> None:
    path = ROOT / "maps" / sample
    w = open_map(qtbot, tmp_path, path, size=size)  # a grid map with the rules previews the app finds
    pump()
    for layout in (DESIGNER, GAME_MASTER):
        if layout == GAME_MASTER and w.game.act_play.isEnabled() and not w.game.act_play.isChecked():
            w.game.act_play.trigger()  # Game > Play as a Game
        w.layouts.choose(layout)
        pump()
        w.canvas.fit()
        tag = f"{Path(sample).stem} {size[0]}x{size[1]} {layout}"
        (grid_sweep if isinstance(w, MainWindow) else territory_sweep)(w, tag)
