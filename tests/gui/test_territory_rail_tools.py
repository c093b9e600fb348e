"""The territory editor's Station and Railroad tools (issue 8, "In the
editor"): mouse events through the canvas, one undo step an edit, and the
rail-options engine seeing the result."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from system_parts import rail
from test_territory_editor import open_window as open_territory_window

from app.gui.territory import TerritoryWindow
from engine.rules.rail_options import RailOptionsAdjudicator

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
RAIL_OPTIONS = ROOT / "maps" / "aa_rail_options.json"
LEFT, RIGHT = Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton
SHIFT = Qt.KeyboardModifier.ShiftModifier


def open_window(qtbot, tmp_path: Path, mode: str) -> TerritoryWindow:
    """The Rail Options sample in a territory window, fitted, in ``mode``."""
    w = open_territory_window(qtbot, tmp_path, RAIL_OPTIONS)
    w.mode_actions[mode].trigger()
    assert w.mode == mode
    return w


def at(w: TerritoryWindow, tid: str) -> QPoint:
    """A viewport point inside ``tid`` clear of unit counters (its label
    point, or a point of its shape when a counter covers the label)."""
    c = w.canvas
    lp = c.label_point(tid)
    assert lp is not None
    pt = c.map_to_view(*lp).toPoint()
    if c.units_at_view(pt.toPointF()) is None:
        return pt
    shape = w.scenario.territory(tid).shape
    x0, y0, x1, y1 = shape.bounds
    for fx in (0.15, 0.85, 0.5):
        for fy in (0.15, 0.85):
            q = c.map_to_view(x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy).toPoint()
            if c.territory_at(q.toPointF()) == tid and c.units_at_view(q.toPointF()) is None:
                return q
    raise AssertionError(f"no free point in {tid}")


def click(qtbot, w: TerritoryWindow, tid: str, button=LEFT, mods=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.mouseClick(w.canvas.viewport(), button, mods, at(w, tid))


def features(w: TerritoryWindow, tid: str) -> dict:
    return w.scenario.territory(tid).features


def test_the_tools_are_checkable_actions_of_the_mode_group(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "station")
    for mode, key in (("station", "T"), ("railroad", "L")):
        act = w.mode_actions[mode]
        assert act.isCheckable() and act.actionGroup() is w.mode_group
        assert act.shortcut().toString() == key
        assert "right" in act.toolTip()
    assert rail(w).dock_rail_tools.isVisible()
    assert rail(w).rail_tools_panel.station_box.isVisibleTo(rail(w).rail_tools_panel)
    w.mode_actions["railroad"].trigger()
    assert not rail(w).rail_tools_panel.station_box.isVisibleTo(rail(w).rail_tools_panel)
    w.mode_actions["select"].trigger()
    assert not rail(w).dock_rail_tools.isVisible()


def test_place_edit_and_remove_a_station(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "station")
    stack = w.document.undo_stack
    panel = rail(w).rail_tools_panel
    assert "rail_station" not in features(w, "belgium")
    # place: one step, selected, the tool options show it
    click(qtbot, w, "belgium")
    assert features(w, "belgium")["rail_station"] == {}
    assert stack.count() == 1
    assert w.selection == ["belgium"] and w.tools["station"].selected == "belgium"
    assert panel.damage.isEnabled() and "Belgium" in panel.station.text()
    # clicking it again selects it and pushes nothing
    click(qtbot, w, "belgium")
    assert stack.count() == 1
    # damage markers and the purchase turn: one step each
    panel.damage.setValue(4)
    assert features(w, "belgium")["rail_station"] == {"damage": 4}
    panel.station_bought.setValue(5)
    assert features(w, "belgium")["rail_station"] == {"damage": 4, "purchased": 5}
    assert stack.count() == 3
    assert stack.text(2) == "Belgium: rail station damage 4, purchased 5"
    # the same value again changes nothing and pushes nothing
    assert not w.tools["station"].set_key("damage", 4)
    assert stack.count() == 3
    # a bad value is refused with a sentence
    assert not w.tools["station"].set_key("damage", 7)
    assert "0 to 6 damage markers" in w.statusBar().currentMessage()
    # right-click removes it
    click(qtbot, w, "belgium", RIGHT)
    assert "rail_station" not in features(w, "belgium")
    assert stack.count() == 4
    assert not panel.damage.isEnabled()
    # right-click where there is none: a message, no step
    click(qtbot, w, "belgium", RIGHT)
    assert stack.count() == 4
    assert w.statusBar().currentMessage() == "Belgium has no rail station"
    # undo walks back through every step, redo forward
    stack.undo()
    assert features(w, "belgium")["rail_station"] == {"damage": 4, "purchased": 5}
    assert rail(w).rail_tools_panel.damage.value() == 4
    stack.undo()
    assert features(w, "belgium")["rail_station"] == {"damage": 4}
    stack.undo()
    stack.undo()
    assert "rail_station" not in features(w, "belgium")
    for _ in range(4):
        stack.redo()
    assert "rail_station" not in features(w, "belgium")
    stack.undo()
    assert features(w, "belgium")["rail_station"] == {"damage": 4, "purchased": 5}


def test_a_new_station_takes_the_tool_options_purchase_turn(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "station")
    rail(w).rail_tools_panel.bought.setValue(5)
    click(qtbot, w, "austria")
    assert features(w, "austria")["rail_station"] == {"purchased": 5}
    assert rail(w).rail_tools_panel.station_bought.value() == 5


def test_no_station_at_sea_and_no_step_for_it(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "station")
    click(qtbot, w, "mediterranean")
    assert "rail_station" not in features(w, "mediterranean")
    assert w.document.undo_stack.count() == 0
    assert "sea zone" in w.statusBar().currentMessage()
    # a click beside the map deselects and pushes nothing
    qtbot.mouseClick(w.canvas.viewport(), LEFT, pos=QPoint(3, 3))
    assert w.selection == [] and w.document.undo_stack.count() == 0


def test_the_remove_button_removes_the_selected_station(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "station")
    click(qtbot, w, "italy")
    assert w.tools["station"].selected == "italy" and w.document.undo_stack.count() == 0
    rail(w).rail_tools_panel.remove.click()
    assert "rail_station" not in features(w, "italy")
    assert w.document.undo_stack.count() == 1


def drag(qtbot, w: TerritoryWindow, tids: list[str], button=LEFT) -> None:
    vp = w.canvas.viewport()
    pts = [at(w, t) for t in tids]
    qtbot.mousePress(vp, button, pos=pts[0])
    for p in pts[1:]:
        qtbot.mouseMove(vp, p)
    qtbot.mouseRelease(vp, button, pos=pts[-1])


def strip(w: TerritoryWindow, *tids: str) -> None:
    """Take the railroad out of ``tids`` without the undo stack (set-up)."""
    for t in tids:
        features(w, t).pop("railroad", None)
    w.document.notify(set(tids))


def test_lay_railroad_by_drag_is_one_undo_step(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "railroad")
    stack = w.document.undo_stack
    strip(w, "france", "belgium", "germany", "poland")
    rail(w).rail_tools_panel.bought.setValue(5)
    # France to Poland in two moves: Belgium and Germany lie between and are laid too
    drag(qtbot, w, ["france", "poland"])
    for t in ("france", "belgium", "germany", "poland"):
        assert features(w, t)["railroad"] == {"purchased": 5}, t
    assert stack.count() == 1
    assert stack.text(0) == "add railroad in 4 territories"
    assert w.statusBar().currentMessage() == "laid 4 railroad markers"
    stack.undo()
    for t in ("france", "belgium", "germany", "poland"):
        assert "railroad" not in features(w, t)
    stack.redo()
    assert all("railroad" in features(w, t) for t in ("france", "belgium", "germany", "poland"))
    # a drag over markers already there changes nothing and pushes nothing
    drag(qtbot, w, ["france", "belgium"])
    assert stack.count() == 1
    # right-drag removes, one step
    drag(qtbot, w, ["belgium", "germany"], RIGHT)
    assert "railroad" not in features(w, "belgium") and "railroad" not in features(w, "germany")
    assert features(w, "france")["railroad"] == {"purchased": 5}
    assert stack.count() == 2
    stack.undo()
    assert features(w, "belgium")["railroad"] == {"purchased": 5}


def test_click_lays_a_marker_click_again_removes_it(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "railroad")
    stack = w.document.undo_stack
    strip(w, "austria")
    click(qtbot, w, "austria")
    assert features(w, "austria")["railroad"] == {}
    click(qtbot, w, "austria")
    assert "railroad" not in features(w, "austria")
    assert stack.count() == 2
    stack.undo()
    assert features(w, "austria")["railroad"] == {}
    # at sea: a message, nothing pushed
    click(qtbot, w, "mediterranean")
    assert "railroad" not in features(w, "mediterranean")
    assert (stack.count(), stack.index()) == (2, 1)
    assert "sea zone" in w.statusBar().currentMessage()


def test_shift_click_lays_a_route_from_the_last_marker(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, "railroad")
    stack = w.document.undo_stack
    strip(w, "france", "belgium", "germany", "poland", "belarus")
    click(qtbot, w, "france")
    click(qtbot, w, "belarus", LEFT, SHIFT)
    laid = {t for t in ("france", "belgium", "germany", "poland", "belarus") if "railroad" in features(w, t)}
    assert laid == {"france", "belgium", "germany", "poland", "belarus"}
    assert stack.count() == 2
    stack.undo()
    assert {t for t in laid if "railroad" in features(w, t)} == {"france"}


def test_the_engine_sees_a_station_placed_and_removed_with_the_tool(qtbot, tmp_path) -> None:
    """Option 1: ger_inf (at the Berlin station) reaches Italy and
    Smolensk; Austria has railroad but no station.  A station placed in
    Austria with the tool makes it a destination; removed, it is not."""
    w = open_window(qtbot, tmp_path, "station")
    assert not RailOptionsAdjudicator(w.scenario).judge("ger_inf", "austria").allowed
    w.select_unit("ger_inf")
    assert "Austria" not in rail(w).options_panel.reachable()
    click(qtbot, w, "austria")
    assert RailOptionsAdjudicator(w.scenario).judge("ger_inf", "austria").allowed
    assert "Austria" in rail(w).options_panel.reachable()
    stations = [rail(w).options_panel.stations.item(i, 0).text() for i in range(rail(w).options_panel.stations.rowCount())]
    assert "Austria" in stations
    click(qtbot, w, "austria", RIGHT)
    v = RailOptionsAdjudicator(w.scenario).judge("ger_inf", "austria")
    assert not v.allowed and "Austria" in v.reason
    assert "Austria" not in rail(w).options_panel.reachable()
    # an inoperable start station (3 damage markers) stops the unit
    click(qtbot, w, "germany")
    rail(w).rail_tools_panel.damage.setValue(3)
    v = RailOptionsAdjudicator(w.scenario).judge("ger_inf", "italy")
    assert not v.allowed and "inoperable" in v.reason
    assert rail(w).options_panel.reachable() == []
    w.document.undo_stack.undo()
    assert RailOptionsAdjudicator(w.scenario).judge("ger_inf", "italy").allowed
    assert rail(w).options_panel.reachable() == ["Italy", "Smolensk"]


def test_the_window_judge_follows_every_edit_and_undo(qtbot, tmp_path) -> None:
    """The window keeps one judge per document revision (a hover asks no new
    search); a station placed, its damage, an undo and a switch of option
    each give the answer a fresh judge gives, never a stale one."""
    w = open_window(qtbot, tmp_path, "station")
    w.select_unit("ger_inf")

    def same() -> None:
        fresh = RailOptionsAdjudicator(w.scenario, rail(w).option)
        for tid in ("austria", "italy", "smolensk", "germany"):
            assert rail(w).rail_options().judge("ger_inf", tid) == fresh.judge("ger_inf", tid), tid

    same()
    first = rail(w).rail_options()
    assert rail(w).rail_options() is first  # no edit: the same judge, its searches kept
    click(qtbot, w, "austria")
    assert rail(w).rail_options() is not first and rail(w).rail_options().judge("ger_inf", "austria").allowed
    same()
    click(qtbot, w, "germany")
    rail(w).rail_tools_panel.damage.setValue(3)
    assert not rail(w).rail_options().judge("ger_inf", "italy").allowed
    same()
    w.document.undo_stack.undo()
    assert rail(w).rail_options().judge("ger_inf", "italy").allowed
    same()
    rail(w)._option_chosen(3)
    assert rail(w).rail_options().option == 3
    same()


def test_option_4_points_left_update_as_moves_are_made(qtbot, tmp_path) -> None:
    """The capacity panel under Option 4: Germany's points (29 IPC ÷ 7 = 4)
    go down by the spaces a move uses, and come back on undo."""
    w = open_window(qtbot, tmp_path, "railoptions")
    i = rail(w).options_panel.option.findData(4)
    rail(w).options_panel.option.setCurrentIndex(i)
    rail(w).options_panel.option.activated.emit(i)
    w.select_unit("ger_inf")
    assert rail(w).options_panel.nation_left("Germany") == "4"
    click(qtbot, w, "belarus")
    assert w.scenario.unit("ger_inf").at == "belarus"
    assert rail(w).options_panel.nation_left("Germany") == "2"
    w.document.undo_stack.undo()
    assert rail(w).options_panel.nation_left("Germany") == "4"


def test_the_rail_tool_gives_a_combat_phase_move_when_the_scenario_allows_it(qtbot, tmp_path) -> None:
    import shutil

    from engine.io import load_any, save_any

    path = tmp_path / "combat.json"
    shutil.copy(RAIL_OPTIONS, path)
    s = load_any(str(path))
    s.ruleset.options["rail_options"]["combat_move"] = True
    save_any(s, str(path))
    w = open_territory_window(qtbot, tmp_path, path)
    w.mode_actions["railoptions"].trigger()
    w.game.act_play.trigger()
    w.game.act_end_phase.trigger()
    assert w.game.turn_label.text() == "Turn 5 · Germany to move · combat phase"
    assert rail(w).rail_phase() == "combat"
    w.select_unit("ger_inf")
    assert w.tools["railoptions"].rail_to("italy"), w.statusBar().currentMessage()
    game = w.turns.game()
    assert game is not None and game.journal[-1].kind == "order"
    assert game.journal[-1].order == {"unit": "ger_inf", "to": "italy", "phase": "combat"}
    assert w.scenario.unit("ger_inf").at == "italy"
