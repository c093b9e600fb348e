"""File > Map Properties… (issue 20, item 4; app/gui/dialogs/map_properties.py):
a preset shows its corner labels, a custom setting that cannot number the
map says why and cannot be accepted, OK changes every label the window
shows as one undo step, undo brings the old ones back, and the new
numbering is saved and read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from window_kit import open_map

from app.gui.dialogs.map_properties import MapPropertiesDialog, edit_map_properties
from engine.grids import Cell
from engine.io import load_scenario

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
ACW = ROOT / "maps" / "acw_short_campaign.json"


def test_presets_preview_and_refuse(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, ACW)
    d = MapPropertiesDialog(w.document.scenario, w)
    qtbot.addWidget(d)
    ok = d.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert d.preview.text().startswith("top left 0101")  # this map's own CCRR
    d.preset.setCurrentText("Avalon Hill oblique (A1, B1, C2…)")
    assert d.preview.text().startswith("top left A1") and ok.isEnabled()
    assert d.oblique.isChecked()
    d.preset.setCurrentText("Lettered columns (A1, AA1: Squad Leader)")
    assert "top right Z1" in d.preview.text()
    # a custom choice: numbers then numbers with no separator cannot be read back
    d.col.style_box.setCurrentIndex(0)
    assert d.preset.currentText() == "Custom"
    assert d.preview.text().startswith("Cannot number this map so:") and not ok.isEnabled()
    d.separator.setText("-")
    assert d.preview.text().startswith("top left 0-1") and ok.isEnabled()
    for size in ((1280, 820), (1366, 768)):
        d.show()
        qtbot.waitExposed(d)
        assert d.preview.sizeHint().width() <= d.preview.width() + 1 or d.preview.wordWrap()
        d.grab().save(str(tmp_path / f"map-properties-{size[0]}.png"))


def test_ok_relabels_the_map_as_one_undo_step(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, ACW)
    s = w.document.scenario
    before = s.map.label(Cell(3, 4))
    steps = w.document.undo_stack.count()
    d = MapPropertiesDialog(s, w)
    qtbot.addWidget(d)
    d.preset.setCurrentText("Avalon Hill oblique (A1, B1, C2…)")
    assert edit_map_properties(w, d.numbering_data())
    assert w.document.undo_stack.count() == steps + 1
    assert s.map.label(Cell(3, 4)) == "D6" and s.map.parse_label("D6") == Cell(3, 4)
    assert w.document.undo_stack.undoText() == "Change numbering"
    w.document.undo_stack.undo()
    assert s.map.label(Cell(3, 4)) == before
    w.document.undo_stack.redo()
    out = tmp_path / "relabelled.json"
    assert w.save_as(str(out))
    assert load_scenario(out).map.label(Cell(3, 4)) == "D6"


def test_a_numbering_that_cannot_label_the_map_changes_nothing(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, ACW)
    shown: list[str] = []
    w.show_error = lambda title, text, details=(): shown.append(" ".join([title, text, *details]))
    s = w.document.scenario
    old = s.map.numbering.to_dict()
    assert not edit_map_properties(w, {"scheme": "ccrr", "digits": 1})
    assert shown and "Cannot change the numbering" in shown[0]
    assert s.map.numbering.to_dict() == old
