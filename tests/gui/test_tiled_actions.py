"""File > Import/Export Tiled map in the editor (app/gui/interop_actions.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from test_editor_tools import blank, open_window

from app.gui import interop_actions
from app.gui.dialogs import import_tiled as import_dialog
from engine.grids import Cell
from engine.io.tiled import import_tiled as engine_import

pytestmark = pytest.mark.gui

EXAMPLE = Path("/usr/share/doc/tiled/examples/hexagonal-mini.tmx")


def _actions(w):  # type: ignore[no-untyped-def]
    return {a.objectName(): a for a in w.findChildren(type(w.act_undo)) if a.objectName()}


def test_export_then_import_through_the_file_menu(qtbot, tmp_path: Path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("hex"))
    acts = _actions(w)
    assert {"actionImportTiled", "actionExportTiled"} <= set(acts)
    s = w.document.scenario
    forest = s.ruleset.terrain_index("forest")
    s.map.terrain[2, 5] = forest
    out = tmp_path / "m.tmx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "m"), "Tiled map (*.tmx)"))
    acts["actionExportTiled"].trigger()
    assert out.is_file() and (tmp_path / "m-terrain.png").is_file()
    monkeypatch.setattr(import_dialog, "ask_import", lambda *a, **k: (str(out), None))
    acts["actionImportTiled"].trigger()
    t = w.document.scenario
    assert t is not s and w.document.path is None
    assert t.map.grid.to_dict() == s.map.grid.to_dict()
    assert t.ruleset.terrain[t.map.terrain_at(Cell(5, 2))].id == "forest"
    assert (t.map.terrain == s.map.terrain).all()


def test_a_refused_file_shows_the_message_and_returns_none(qtbot, tmp_path: Path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    bad = tmp_path / "bad.tmx"
    bad.write_text('<?xml version="1.0"?><map orientation="isometric" width="2" height="2" tilewidth="8" '
                   'tileheight="8"/>', encoding="utf-8")
    before = w.document.scenario
    assert interop_actions.import_tiled(w, str(bad)) is None
    assert w.error_dialog is not None and w.error_dialog.isVisible()
    assert any("'isometric' is not supported" in p and str(bad) in p for p in w.error_dialog.problems)
    assert w.document.scenario is before


@pytest.mark.skipif(not EXAMPLE.is_file(), reason="Tiled's examples are not installed (Debian package 'tiled')")
def test_unmapped_tiles_are_listed(qtbot, tmp_path: Path) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    s = interop_actions.import_tiled(w, str(EXAMPLE))
    assert s is not None and w.error_dialog is not None
    n = len(engine_import(EXAMPLE).report.unmapped)
    assert n > 0 and len([p for p in w.error_dialog.problems if "(generated," in p]) == n


BARE_TMX = ('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="orthogonal" renderorder="right-down" '
            'width="3" height="2" tilewidth="32" tileheight="32" infinite="0">'
            '<tileset firstgid="1" name="bare" tilewidth="32" tileheight="32" tilecount="4" columns="2">'
            '<image source="ts.png" width="64" height="64"/></tileset>'
            '<layer id="1" name="ground" width="3" height="2"><data encoding="csv">1,2,3,\n3,2,1</data></layer></map>')


def test_the_import_dialog_asks_for_a_map_and_an_optional_terrain_map(qtbot, tmp_path: Path, monkeypatch) -> None:
    dlg = import_dialog.ImportTiledDialog(None)
    qtbot.addWidget(dlg)
    ok = dlg.buttons.button(dlg.buttons.StandardButton.Ok)
    assert not ok.isEnabled()
    picks = iter([(str(tmp_path / "m.tmx"), ""), (str(tmp_path / "tm.json"), ""), ("", "")])
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: next(picks))
    dlg.findChild(type(ok), "browseTiledmap").click()
    assert ok.isEnabled() and dlg.values() == (str(tmp_path / "m.tmx"), None)
    dlg.findChild(type(ok), "browseTerrainmap").click()
    assert dlg.values() == (str(tmp_path / "m.tmx"), str(tmp_path / "tm.json"))
    dlg.findChild(type(ok), "browseTerrainmap").click()  # cancelled: the field keeps its file
    assert dlg.values()[1] == str(tmp_path / "tm.json")


def test_import_through_the_menu_with_a_terrain_map(qtbot, tmp_path: Path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    (tmp_path / "m.tmx").write_text(BARE_TMX, encoding="utf-8")
    tm = tmp_path / "tm.json"
    tm.write_text('{"tiles": {"1": "clear", "bare:1": "forest", "3": "water"}, '
                  '"terrain": [{"id": "forest", "name": "Forest", "move_cost": 3}]}', encoding="utf-8")
    monkeypatch.setattr(import_dialog, "ask_import", lambda *a, **k: (str(tmp_path / "m.tmx"), str(tm)))
    _actions(w)["actionImportTiled"].trigger()
    s = w.document.scenario
    ids = [[s.ruleset.terrain[s.map.terrain_at(Cell(c, r))].id for c in range(3)] for r in range(2)]
    assert ids == [["clear", "forest", "water"], ["water", "forest", "clear"]]
    assert w.error_dialog is None or not w.error_dialog.isVisible()  # every tile mapped: nothing to list


def test_a_bad_terrain_map_is_named_and_the_document_kept(qtbot, tmp_path: Path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    before = w.document.scenario
    (tmp_path / "m.tmx").write_text(BARE_TMX, encoding="utf-8")
    tm = tmp_path / "tm.json"
    tm.write_text('{"tiles": {"x": "clear"}}', encoding="utf-8")
    monkeypatch.setattr(import_dialog, "ask_import", lambda *a, **k: (str(tmp_path / "m.tmx"), str(tm)))
    _actions(w)["actionImportTiled"].trigger()
    assert w.document.scenario is before
    assert w.error_dialog is not None and w.error_dialog.isVisible()
    assert any("tm.json" in p and "$.tiles.x" in p for p in w.error_dialog.problems)


def test_cancelling_the_import_dialog_changes_nothing(qtbot, tmp_path: Path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    before = w.document.scenario
    monkeypatch.setattr(import_dialog, "ask_import", lambda *a, **k: None)
    _actions(w)["actionImportTiled"].trigger()
    assert w.document.scenario is before
