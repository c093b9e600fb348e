"""Game > Check Set-up names every unit outside its deployment zone in the
editor, as ``adjutant validate`` does (issue 16, "Deployment")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from window_kit import open_map

from app.cli import main
from app.gui.main_window import MainWindow
from app.gui.setup_check import check
from engine.grids import Cell
from engine.io import load_any, save_scenario

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def test_the_editor_names_every_unit_outside_its_deployment_zone(qtbot: Any, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    s = load_any(ROOT / "maps" / "acw_short_campaign.json")
    moved = s.units[0]
    moved.at = Cell(s.map.width - 1, s.map.height - 1)  # far from every deployment city
    path = tmp_path / "misdeployed.json"
    save_scenario(s, path)
    assert main(["validate", str(path)]) == 1
    cli = [line.strip() for line in capsys.readouterr().out.splitlines()[1:]]
    w = open_map(qtbot, tmp_path, path, size=None)
    qtbot.waitUntil(lambda: "Set-up: 1 problem" in w.statusBar().currentMessage(), timeout=2000)  # on opening
    w.act_check_setup.trigger()
    assert w.error_dialog is not None and list(w.error_dialog.problems) == cli
    assert moved.id in cli[0]
    good = MainWindow(load_any(ROOT / "maps" / "acw_short_campaign.json"), None,
                      QSettings(str(tmp_path / "s2.ini"), QSettings.Format.IniFormat), tmp_path / "state")
    qtbot.addWidget(good)
    assert check(good) == []
