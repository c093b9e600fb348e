"""File > Export VASSAL Module… in the grid editor (app/gui/interop_actions.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gui"))
from test_editor_tools import blank, open_window  # noqa: E402

from app.gui import interop_actions  # noqa: E402
from engine.grids import Cell  # noqa: E402
from engine.io.vassal_check import module_problems  # noqa: E402
from engine.model import Unit  # noqa: E402

pytestmark = pytest.mark.gui


def _actions(w):  # type: ignore[no-untyped-def]
    return {a.objectName(): a for a in w.findChildren(type(w.act_undo)) if a.objectName()}


def test_export_through_the_file_menu_picks_the_version_by_file_type(qtbot, tmp_path: Path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("pointy"))
    s = w.document.scenario
    s.units.append(Unit("u1", s.sides[0].id, s.ruleset.unit_types[0].id, Cell(3, 2), 2))
    acts = _actions(w)
    assert "actionExportVassal" in acts and acts["actionExportVassal"].text() == "Export VASSAL Module…"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "game"), "VASSAL 3.8 module (*.vmod)"))
    acts["actionExportVassal"].trigger()
    out = tmp_path / "game.vmod"
    assert out.is_file() and module_problems(out) == []
    import zipfile

    assert b"<VassalVersion>3.8.0</VassalVersion>" in zipfile.ZipFile(out).read("moduledata")
    assert w.error_dialog is None or not w.error_dialog.isVisible()


def test_a_cancelled_dialog_writes_nothing(qtbot, tmp_path: Path, monkeypatch) -> None:
    w = open_window(qtbot, tmp_path, blank("square"))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))
    assert interop_actions.export_vassal(w, w.document.scenario) is None
    assert not list(tmp_path.glob("*.vmod"))


def test_a_refused_export_shows_why_and_writes_nothing(qtbot, tmp_path: Path, monkeypatch) -> None:
    from engine.io import vassal

    w = open_window(qtbot, tmp_path, blank("hex"))
    out = tmp_path / "x.vmod"
    monkeypatch.setattr(vassal, "MAX_BOARD_PIXELS", 1000)
    assert interop_actions.export_vassal(w, w.document.scenario, str(out)) is None
    assert not out.exists()
    assert w.error_dialog is not None and w.error_dialog.isVisible()
    assert any("over the limit" in p for p in w.error_dialog.problems)


def test_warnings_are_shown_after_writing(qtbot, tmp_path: Path) -> None:
    from engine.editing import new_scenario

    s = new_scenario("ak", {"kind": "hex", "width": 6, "height": 5, "orientation": "flat", "parity": "odd"},
                     {"scheme": "axes", "col": {"style": "letters", "start": 0}, "row": {"style": "number", "start": 10},
                      "first": "col", "separator": "",
                      "oblique": {"axis": "row", "direction": "minus", "parity": "odd"}})
    w = open_window(qtbot, tmp_path, s)
    out = tmp_path / "ak.vmod"
    plan = interop_actions.export_vassal(w, w.document.scenario, str(out), version="3.7")
    assert plan is not None and out.is_file()
    assert w.error_dialog is not None and w.error_dialog.isVisible()
    assert any("oblique" in p for p in w.error_dialog.problems)
