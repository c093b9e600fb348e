"""The ACW move-and-attack preview: as a pure object (no Qt) on the bundled
sample, then once in the editor window with its pyqtgraph dock (pytest-qt,
offscreen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.gui.overlay import CellMark, EdgeMark, Marker, PathLine
from app.gui.systems import previews_for
from app.gui.systems.acw.previews import BRIDGE_COLOR, HALT_OUTLINE, RIVER_COLOR, AcwMovePreview, left_fill
from engine.grids import Cell
from engine.io import load_scenario
from engine.model import Scenario
from engine.rules.acw import odds, reach

ROOT = Path(__file__).resolve().parent.parent.parent


def load(name: str = "acw_short_campaign.json") -> Scenario:
    return load_scenario(ROOT / "maps" / name)


def marks(s: Scenario, ov: Any) -> dict[str, CellMark]:
    return {s.map.label(i.cell): i for i in ov.items if isinstance(i, CellMark)}


def at(s: Scenario, label: str) -> Cell:
    return s.map.parse_label(label)


def test_discovered_and_applies_only_to_acw_hex_maps() -> None:
    assert any(isinstance(p, AcwMovePreview) for p in previews_for())
    p = AcwMovePreview()
    assert p.applies_to(load())
    assert not p.applies_to(load("gitm_graphic1.json"))
    assert not p.applies_to(load("cwol_mobile_columbus.json"))


def test_select_shades_reach_by_points_left_and_marks_halts() -> None:
    s = load()
    s.unit("CS-39").at = at(s, "1007")  # a Rebel within reach of 3rd Cav (0605)
    unit = s.unit("US-3C")
    ov = AcwMovePreview().select(s, unit)
    r = reach(s, unit)
    m = marks(s, ov)
    assert set(m) == {h.label for h in r.hexes()}
    for h in r.hexes():
        mark = m[h.label]
        assert mark.fill == left_fill(h.left)
        if h.halt:
            assert mark.outline == HALT_OUTLINE and mark.text == "H" and "must halt" in (mark.tooltip or "")
        else:
            assert mark.outline is None and mark.text == str(h.left)
    assert m["0907"].outline == HALT_OUTLINE  # next to 1007
    assert m["0706"].text == "4" and m["0706"].fill != m["0807"].fill
    assert ov.details["halts"] == sum(1 for h in r.hexes() if h.halt) > 0


def test_hover_counts_an_unbridged_river_crossing() -> None:
    s = load()
    unit = s.unit("US-14")
    unit.at = at(s, "1107")
    ov = AcwMovePreview().hover(s, unit, at(s, "1207"))
    assert ov.ok is True and ov.details["cost"] == 3 and ov.details["crossings"] == ["river"]
    edges = [i for i in ov.items if isinstance(i, EdgeMark)]
    assert len(edges) == 1 and edges[0].color == RIVER_COLOR and "+3" in (edges[0].tooltip or "")
    assert "1207 +3 (woods, across a river) = 3" in ov.message and "stack 1/3" in ov.message


def test_hover_takes_the_rail_bridge_for_one_point() -> None:
    s = load()
    unit = s.unit("US-3C")
    unit.at = at(s, "1111")
    ov = AcwMovePreview().hover(s, unit, at(s, "1210"))
    assert ov.ok is True and ov.details["cost"] == 2 and ov.details["crossings"] == ["rail bridge"]
    edges = [i for i in ov.items if isinstance(i, EdgeMark)]
    assert [e.color for e in edges] == [BRIDGE_COLOR]
    lines = [i for i in ov.items if isinstance(i, PathLine)]
    assert lines and lines[0].cells == (at(s, "1111"), at(s, "1110"), at(s, "1210"))


def test_over_the_stacking_limit_is_flagged_and_refused() -> None:
    s = load()
    s.unit("US-12").at = at(s, "0310")  # 14th, 13th and 12th Inf in Aldie
    p = AcwMovePreview()
    unit = s.unit("US-3")
    ov = p.hover(s, unit, at(s, "0310"))
    assert ov.ok is False and ov.details["over"] is True and ov.details["stack"] == 4
    assert "stack 4/3 OVER THE LIMIT" in ov.message
    assert p.apply(s, unit, at(s, "0310")) is None
    s.unit("US-12").at = at(s, "0410")
    ov = p.hover(s, unit, at(s, "0310"))
    assert ov.ok is True and "stack 3/3" in ov.message and "OVER" not in ov.message


def test_attack_shows_victory_number_and_chance() -> None:
    s = load()
    s.unit("CS-39").at = at(s, "1007")  # 39th Inf, 4 factors, in the open
    p = AcwMovePreview()
    unit = s.unit("US-3C")  # 3rd Cav, 2 factors
    ov = p.hover(s, unit, at(s, "0907"))
    # 100 / 6 x 2 = 33.3 -> 33: the attacker wins on 00..33, 34 of 100
    assert ov.details["attacks"] == [{"on": "1007", "victory_number": 33, "wins": 34}]
    assert "victory number 33, the attacker wins on 34 of the 100 result numbers (34%)" in ov.message
    cross = [i for i in ov.items if isinstance(i, Marker) and i.cell == at(s, "1007")]
    assert cross and cross[0].text == "34%" and "39th Inf" in (ov.tooltip_at(at(s, "1007")) or "")
    assert p.attack is not None and p.attack.odds.victory_number == 33
    # the same defender in woods counts double: 2 / (2 + 8) -> 20
    s.unit("CS-39").at = at(s, "1107")
    ov = p.hover(s, unit, at(s, "1007"))
    assert ov.details["attacks"] == [{"on": "1107", "victory_number": 20, "wins": 21}]
    assert "counting 8" in ov.message and "woods" in ov.message
    # away from the enemy: no attack
    ov = p.hover(s, unit, at(s, "0706"))
    assert ov.details["attacks"] == [] and p.attack is None


def test_odds_reproduce_the_worked_example() -> None:
    o = odds(15, 6, defender_effective=12)
    assert o.victory_number == 56 and o.wins == 57
    r21 = o.outcomes[21]
    assert (r21.winner, r21.difference, r21.attacker_casualties, r21.defender_casualties) == ("attacker", 35, 1, 3)
    assert o.outcomes[57].winner == "defender" and len(o.outcomes) == 100


def test_apply_moves_and_clears_fortifications() -> None:
    s = load()
    p = AcwMovePreview()
    unit = s.unit("US-3C")
    unit.props["fortified"] = True
    order = p.apply(s, unit, at(s, "0907"))
    assert order is not None and order.unit_id == "US-3C" and order.to == at(s, "0907")
    assert order.props == {"moved": True, "fortified": False}
    assert order.description.startswith("3rd Cav moves to 0907 for 3 of 5")
    assert p.apply(s, unit, at(s, "2020")) is None  # out of reach
    assert p.apply(s, unit, unit.at) is None  # staying put is not a move


@pytest.mark.gui
def test_in_the_editor_window_with_the_odds_dock(qtbot: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest

    from app.gui.main_window import MainWindow
    from app.gui.systems.acw.plot import OddsPlot

    s = load()
    s.unit("CS-39").at = at(s, "1007")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    preview = AcwMovePreview()
    w = MainWindow(s, None, settings, tmp_path / "state", previews=[preview])
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1200, 860)
    w.show()
    qtbot.waitExposed(w)
    w.set_tool("adjudicate")
    w.canvas.fit()
    assert w.adjudicate.preview is preview
    assert w.dock_preview is not None
    plot = w.dock_preview.widget()
    assert isinstance(plot, OddsPlot) and plot.attack is None

    def point(cell: Cell) -> Any:
        x, y = w.canvas.layout().center(cell)
        return w.canvas.map_to_view(x, y).toPoint()

    def click(cell: Cell) -> None:
        vp = w.canvas.viewport()
        QTest.mouseMove(vp, point(cell))
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point(cell))

    click(at(s, "0605"))
    assert w.state.selected_unit == "US-3C"
    QTest.mouseMove(w.canvas.viewport(), point(at(s, "0907")))
    ov = w.adjudicate.overlay
    assert ov is not None and ov.ok is True
    assert "victory number 33" in (w.canvas.tooltip_text(at(s, "1007")) or "")
    assert "must halt" in w.statusBar().currentMessage()
    assert plot.attack is not None and plot.attack.odds.victory_number == 33
    assert "victory number 33" in plot.title.text()
    assert not plot.grab().isNull()
    click(at(s, "0907"))
    assert s.unit("US-3C").at == at(s, "0907") and s.unit("US-3C").props["moved"] is True
    assert w.document.undo_stack.count() == 1
    w.document.undo_stack.undo()
    assert s.unit("US-3C").at == at(s, "0605")
