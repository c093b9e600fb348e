"""File > Import/Export Tiled map in the editor (app/gui/interop_actions.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from test_editor_tools import blank, open_window

from app.gui import interop_actions
from engine.grids import Cell
from engine.interop.tiled import import_tiled as engine_import

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
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(out), ""))
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
