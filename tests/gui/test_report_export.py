"""File > Export Report… writes what ``adjutant journal FILE --markdown
--crops FOLDER`` writes: the same Markdown, with each order's result in
words and a map crop of each order linked from it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from test_journal_editor import ORDERS, game_window

from app.cli import main as cli
from app.gui.report_export import crops_folder, export_report

pytestmark = pytest.mark.gui


def test_export_report_is_the_commands_report(qtbot: Any, tmp_path: Path, capsys: Any) -> None:
    w, path = game_window(qtbot, tmp_path)
    w.document.scenario.state["setup_accepted"] = True
    for o in ORDERS:
        ok, why = w.turns.give(o)
        assert ok, why
    assert w.save()
    assert w.game.act_export_report.isEnabled()
    file_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "File")
    assert w.game.act_export_report in file_menu.actions()
    report = tmp_path / "gui" / "editor-report.md"
    report.parent.mkdir()
    assert export_report(w, str(report))
    text = report.read_text(encoding="utf-8")
    folder = crops_folder(report)
    assert sorted(p.name for p in folder.iterdir()) == ["editor-1.png", "editor-2.png"]
    # the command on the saved file, its crops in a folder of the same name
    cli_dir = tmp_path / "cli"
    cli_dir.mkdir()
    shutil.copy(path, cli_dir / "editor.json")
    capsys.readouterr()
    assert cli(["journal", str(cli_dir / "editor.json"), "--markdown", "--crops",
                str(cli_dir / folder.name)]) == 0
    assert text == capsys.readouterr().out
    assert "](editor-report-crops/editor-1.png)" in text and "**US-14 to 0410**" in text
    assert sorted(p.name for p in (cli_dir / folder.name).iterdir()) == ["editor-1.png", "editor-2.png"]


def test_export_report_without_a_game_says_so(qtbot: Any, tmp_path: Path) -> None:
    w, _path = game_window(qtbot, tmp_path)
    assert not export_report(w, str(tmp_path / "r.md"))
    assert w.error_dialog is not None and "nothing to report" in w.error_dialog.summary
    assert not (tmp_path / "r.md").exists()
