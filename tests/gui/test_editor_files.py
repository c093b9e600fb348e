"""Files in the editor: save from the GUI and reload, a bad file, the
unsaved-changes prompt, recent files and window layout, autosave and
recovery after a crash, the new-map dialog, and ``app.gui.run``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from test_editor_tools import blank, click, open_window

from app.gui.autosave import Autosave, find_recoveries
from app.gui.dialogs.new_map import NewMapDialog
from app.gui.document import Document
from app.gui.main_window import MainWindow
from engine.editing import brush_cells, new_scenario, plan_add_unit, plan_paint
from engine.grids import Cell, HexGrid, SquareGrid
from engine.io import dumps_scenario, load_scenario, save_scenario
from engine.model import Unit

pytestmark = pytest.mark.gui


def paint_something(w: MainWindow, cell: Cell | None = None) -> None:
    cell = cell or Cell(3, 3)
    w.set_tool("brush")
    w.state.set_terrain(w.document.scenario.ruleset.terrain_index("forest"))
    w.state.set_brush_size(3)
    click(w, cell)


def test_save_from_the_gui_and_reload(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("hex"))
    paint_something(w)
    assert w.document.is_modified() and w.isWindowModified()
    path = tmp_path / "saved.json"
    assert w.save_as(str(path))
    assert not w.document.is_modified() and not w.isWindowModified()
    assert w.document.path == str(path)
    again = load_scenario(path)
    assert dumps_scenario(again) == w.document.text()
    assert again.map.terrain_at(Cell(3, 3)) == again.ruleset.terrain_index("forest")
    # edit, Ctrl+S path (save to the same file), reopen from the recent list
    paint_something(w, Cell(8, 6))
    assert w.save()
    assert load_scenario(path).map.terrain_at(Cell(8, 6)) == again.ruleset.terrain_index("forest")
    assert w.recent_files()[0] == str(path.resolve())
    assert w.open_file(str(tmp_path / "saved.json"))
    assert w.document.undo_stack.count() == 0


def test_a_bad_file_shows_the_loaders_problems_and_keeps_the_document(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    paint_something(w)
    text = w.document.text()
    bad = json.loads(text)
    bad["map"]["terrain"][2] = "??" + bad["map"]["terrain"][2][2:]
    del bad["name"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert not w.open_file(str(path), ask=False)
    dlg = w.error_dialog
    assert dlg is not None and dlg.isVisible()
    assert any("name" in p for p in dlg.problems)
    assert all("Traceback" not in p for p in dlg.problems)
    assert w.document.text() == text and w.document.is_modified()
    assert not w.open_file(str(tmp_path / "missing.json"), ask=False)
    assert "no such file" in w.error_dialog.problems[0]
    assert w.document.text() == text


def test_unsaved_changes_prompt_on_close(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    path = tmp_path / "m.json"
    w.save_as(str(path))
    paint_something(w)
    w.ask_unsaved = lambda: "cancel"  # type: ignore[method-assign]
    assert not w.close()
    assert w.isVisible()
    w.ask_unsaved = lambda: "save"  # type: ignore[method-assign]
    assert w.close()
    assert dumps_scenario(load_scenario(path)) == w.document.text()


def test_window_layout_and_choices_restored(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    w.dock_layers.hide()
    w.state.set_brush_size(4)
    w.set_tool("river")
    w.layers.set_visible("labels", True)
    w.add_recent(str(tmp_path / "a.json"))
    assert w.close()
    w2 = open_window(qtbot, tmp_path, blank("hex"))
    assert not w2.dock_layers.isVisible() and w2.dock_units.isVisible()
    assert w2.state.brush_size == 4
    assert w2.tool.id == "river"
    assert w2.canvas.layer_visible("labels")
    assert w2.recent_files() == [str((tmp_path / "a.json").resolve())]
    assert next(a.text() for a in w2.recent_menu.actions()).endswith("a.json")


def test_shortcuts(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    keys = {a.shortcut().toString() for a in (w.act_new, w.act_open, w.act_save, w.act_save_as, w.act_undo)}
    assert keys == {"Ctrl+N", "Ctrl+O", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+Z"}
    assert {s.toString() for s in w.act_redo.shortcuts()} == {"Ctrl+Shift+Z", "Ctrl+Y"}
    assert "+" in {s.toString() for s in w.act_zoom_in.shortcuts()}
    assert "-" in {s.toString() for s in w.act_zoom_out.shortcuts()}
    assert w.act_fit.shortcut().toString() == "F"
    z = w.canvas.zoom()
    w.act_zoom_in.trigger()
    assert w.canvas.zoom() > z
    paint_something(w)
    w.act_undo.trigger()
    assert not w.document.is_modified()
    w.act_redo.trigger()
    assert w.document.is_modified()


# -- autosave and recovery ------------------------------------------------------

def test_autosave_writes_unsaved_work_on_its_timer(qtbot, tmp_path) -> None:
    doc = Document(blank("hex"))
    auto = Autosave(doc, tmp_path, interval_ms=30)
    try:
        qtbot.wait(80)
        assert not auto.data_path.exists()  # nothing unsaved yet
        doc.push("Paint", plan_paint(doc.scenario, "terrain", [Cell(1, 1)], 1))
        # the step is in the edit log at once (on a whole write of the
        # untitled map made before it); the timer then writes the whole work
        qtbot.waitUntil(lambda: auto.data_path.exists() and auto.data_path.read_text() == doc.text(), timeout=2000)
        doc.save(str(tmp_path / "saved.json"))  # saved: the autosave goes
        assert not auto.data_path.exists()
    finally:
        auto.close()


def crash_with_unsaved_work(tmp_path: Path, original: str | None) -> str:
    """An editing session that autosaves and then dies without closing."""
    doc = Document(blank("hex"), original)
    s = doc.scenario
    doc.push("Paint", plan_paint(s, "terrain", brush_cells(s.map.grid, Cell(5, 5), 5), 3))
    doc.push("Add unit", plan_add_unit(s, Unit("u9", "blue", "artillery", Cell(2, 2), 2)))
    auto = Autosave(doc, tmp_path / "state")
    assert auto.save_now()
    auto.abandon()  # the process "crashes": nothing is cleaned up
    return doc.text()


def test_recovery_after_a_crash_restores_the_edits(qtbot, tmp_path) -> None:
    original = tmp_path / "campaign.json"
    save_scenario(blank("hex"), original)
    edited = crash_with_unsaved_work(tmp_path, str(original))
    assert len(find_recoveries(tmp_path / "state")) == 1
    w = open_window(qtbot, tmp_path, blank("square"))
    offered = []
    w.ask_recover = lambda rec: offered.append(rec) or True  # type: ignore[method-assign]
    assert w.check_recovery()
    assert len(offered) == 1 and "campaign.json" in offered[0].describe()
    assert w.document.text() == edited
    assert w.document.path == str(original)
    assert w.document.is_modified()  # recovered work is not saved yet
    assert w.document.scenario.unit("u9").at == Cell(2, 2)
    assert not find_recoveries(tmp_path / "state")  # offered once
    assert w.save()
    assert dumps_scenario(load_scenario(original)) == edited


def test_declined_recovery_is_discarded(qtbot, tmp_path) -> None:
    crash_with_unsaved_work(tmp_path, None)
    w = open_window(qtbot, tmp_path, blank("square"))
    w.ask_recover = lambda rec: False  # type: ignore[method-assign]
    before = w.document.text()
    assert not w.check_recovery()
    assert w.document.text() == before
    assert not find_recoveries(tmp_path / "state")


def test_a_normal_close_leaves_nothing_to_recover(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    paint_something(w)
    assert w.autosave.save_now()
    assert w.autosave.data_path.exists()
    assert not find_recoveries(tmp_path / "state")  # this window is alive: not a crash
    assert w.close()
    assert not w.autosave.data_path.exists()
    assert not find_recoveries(tmp_path / "state")


# -- new map ---------------------------------------------------------------------

@pytest.mark.parametrize("kind, extra, scheme", [
    ("hex", {"orientation": "flat", "parity": "odd"}, "ccrr"),
    ("hex", {"orientation": "pointy", "parity": "even"}, "numeric"),
    ("square", {"neighbours": 8}, "cwol"),
    ("square", {"neighbours": 4}, "ccrr"),
])
def test_new_map_dialog_builds_each_grid_kind(qtbot, tmp_path, kind, extra, scheme) -> None:
    dlg = NewMapDialog(None, blank("square"), maps_dir=tmp_path)
    qtbot.addWidget(dlg)
    dlg.name.setText("Fresh")
    dlg.set_kind(kind)
    dlg.columns.setValue(23)
    dlg.rows.setValue(17)
    if kind == "hex":
        dlg.orientation.setCurrentIndex(dlg.orientation.findData(extra["orientation"]))
        dlg.parity.setCurrentIndex(dlg.parity.findData(extra["parity"]))
    else:
        dlg.neighbours.setCurrentIndex(dlg.neighbours.findData(extra["neighbours"]))
    dlg.scheme.setCurrentIndex(dlg.scheme.findData(scheme))
    s = dlg.scenario()
    g = s.map.grid
    assert isinstance(g, HexGrid if kind == "hex" else SquareGrid)
    assert g.to_dict() == {"kind": kind, "width": 23, "height": 17, **extra}
    assert s.map.numbering.scheme == scheme
    assert s.name == "Fresh" and not s.units and (s.map.terrain == 0).all()
    again = load_scenario_text(dumps_scenario(s), tmp_path)
    assert again.map.grid.to_dict() == g.to_dict()
    assert dlg.example.text().startswith(s.map.label(Cell(0, 0)))


def load_scenario_text(text: str, tmp_path: Path):
    p = tmp_path / "x.json"
    p.write_text(text)
    return load_scenario(p)


def test_new_map_dialog_rulesets_and_errors(qtbot, tmp_path) -> None:
    current = blank("square")
    current.ruleset.name = "mine"
    sample = tmp_path / "sample.json"
    other = new_scenario("S", {"kind": "square", "width": 3, "height": 3}, {"scheme": "numeric"})
    other.ruleset.name = "from-sample"
    save_scenario(other, sample)
    dlg = NewMapDialog(None, current, maps_dir=tmp_path)
    qtbot.addWidget(dlg)
    dlg.ruleset.setCurrentIndex(dlg.ruleset.findData("current"))
    assert dlg.scenario().ruleset.name == "mine"
    dlg.ruleset.setCurrentIndex(dlg.ruleset.findData(str(sample)))
    assert dlg.scenario().ruleset.name == "from-sample"
    dlg.ruleset.setCurrentIndex(dlg.ruleset.findData("basic"))
    dlg.scheme.setCurrentIndex(dlg.scheme.findData("cwol"))
    dlg.columns.setValue(300)  # CWOL labels stop at Z9 = 260 columns
    dlg._accept()
    assert dlg.built() is None and "Z9" in dlg.error.text()
    dlg.columns.setValue(30)
    dlg.name.setText("")
    dlg._accept()
    assert "name" in dlg.error.text()


# -- app.gui.run ---------------------------------------------------------------

def test_run_with_a_bad_file_opens_an_error_dialog(qtbot, tmp_path, monkeypatch) -> None:
    from app import gui

    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "cfg"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "cfg"))
    monkeypatch.setenv("ADJUTANT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(QApplication, "exec", lambda *a: 0)
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    assert gui.run(str(bad)) == 0
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    assert len(windows) == 1
    w = windows[0]
    qtbot.addWidget(w)
    assert w.error_dialog is not None and w.error_dialog.isVisible()
    assert "not valid JSON" in w.error_dialog.problems[0]
    assert w.document.path is None
    w.close()


def test_file_new_replaces_the_map_after_the_prompt(qtbot, tmp_path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    paint_something(w)
    asked: list[str] = []

    def unsaved() -> str:
        asked.append("asked")
        return "discard"

    def fill_in(dlg: NewMapDialog) -> int:
        dlg.name.setText("Brand new")
        dlg.set_kind("hex")
        dlg.columns.setValue(9)
        dlg.rows.setValue(7)
        dlg._accept()
        return int(dlg.result())

    w.ask_unsaved = unsaved  # type: ignore[method-assign]
    monkeypatch.setattr(NewMapDialog, "exec", fill_in)
    assert w.new_map()
    s = w.document.scenario
    assert asked == ["asked"]
    assert s.name == "Brand new" and isinstance(s.map.grid, HexGrid) and s.map.width == 9
    assert w.document.path is None and not w.document.is_modified()
    assert w.document.undo_stack.count() == 0
    assert w.tool_palette.terrain.count() == len(s.ruleset.terrain)
    assert w.units.tree.topLevelItemCount() == 0
    assert "Brand new" in w.windowTitle()
    paint_something(w)  # the tools work on the new map
    assert w.document.scenario.map.terrain_at(Cell(3, 3)) == s.ruleset.terrain_index("forest")


def test_unit_and_place_dialogs(qtbot) -> None:
    from app.gui.dialogs.place import PlaceDialog
    from app.gui.dialogs.unit import UnitDialog
    from engine.model import Place

    s = blank("hex")
    dlg = UnitDialog(None, s, Unit("u1", "blue", "infantry", Cell(1, 1), 2), new=True)
    qtbot.addWidget(dlg)
    dlg.id.setText("1st")
    dlg.side.setCurrentIndex(dlg.side.findData("red"))
    dlg.type.setCurrentIndex(dlg.type.findData("cavalry"))
    dlg.strength.setValue(7)
    dlg.at.setText("0305")
    assert dlg.result_unit() == Unit("1st", "red", "cavalry", Cell(2, 4), 7, None, {})
    dlg.at.setText("9999")
    dlg._accept()
    assert not dlg.result() and "off the map" in dlg.error.text()
    pd = PlaceDialog(None, s, Cell(2, 2), Place("Old", "O"))
    qtbot.addWidget(pd)
    assert pd.values() == ("Old", "O")
    pd.name.setText("  New  ")
    assert pd.values() == ("New", "O")


def test_opening_a_territory_map_opens_its_own_window(qtbot, tmp_path, in_root) -> None:
    from app.gui.territory import TerritoryWindow

    w = open_window(qtbot, tmp_path, blank("square"))
    paint_something(w)
    text = w.document.text()
    w.ask_unsaved = lambda: pytest.fail("the grid map is not being replaced")  # type: ignore[method-assign]
    assert w.open_file("maps/railroad_module_europe.json")
    others = [x for x in w._other_windows if isinstance(x, TerritoryWindow)]
    assert len(others) == 1 and others[0].isVisible()
    others[0].document.undo_stack.setClean()
    assert w.document.text() == text
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    others[0].close()


def test_a_territory_autosave_is_recovered_in_a_territory_window(qtbot, tmp_path) -> None:
    """The grid editor starts first after a crashed territory session: the
    territory work is offered and opens in its own window, not lost."""
    from app.gui.territory.document import TerritoryDocument
    from engine.io import load_any

    root = Path(__file__).resolve().parents[2]
    europe = load_any(root / "maps" / "railroad_module_europe.json")
    europe.name = "Europe, edited before the crash"
    doc = TerritoryDocument(europe, None)
    doc.replace(europe, None, modified=True)  # unsaved work
    auto = Autosave(doc, tmp_path / "state")
    assert auto.save_now()
    auto.abandon()
    w = open_window(qtbot, tmp_path, blank("square"))
    before = w.document.text()
    w.ask_recover = lambda rec: True  # type: ignore[method-assign]
    assert w.check_recovery()
    assert w.document.text() == before  # the grid map is untouched
    recovered = w._other_windows[-1]
    recovered.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(recovered)
    assert recovered.document.scenario.name == "Europe, edited before the crash"
    assert recovered.document.is_modified()


def test_a_preview_dock_shows_only_while_adjudicating(qtbot, tmp_path) -> None:
    root = Path(__file__).resolve().parents[2]
    from app.gui.systems import previews_for

    w = open_window(qtbot, tmp_path, load_scenario(root / "maps" / "acw_short_campaign.json"), previews=previews_for())
    assert w.dock_preview is not None  # the ACW odds plot
    w.set_tool("brush")
    assert not w.dock_preview.isVisible()
    w.set_tool("adjudicate")
    assert w.dock_preview.isVisible()
