"""File > Print / Export PDF… (issue 20, item 5; app/gui/dialogs/print_dialog.py):
the dialog's page count follows its fields, a choice that cannot print says
why and cannot be accepted, and the PDF it writes is the one ``adjutant
print`` writes for the same choice (page for page, rasterised)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from window_kit import open_map

from app.cli import main
from app.gui.dialogs.print_dialog import PrintDialog, print_map

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
ACW = ROOT / "maps" / "acw_short_campaign.json"


def test_the_dialog_counts_pages_and_refuses_what_cannot_print(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, ACW)
    assert w.act_print.shortcut().toString() == "Ctrl+P"
    d = PrintDialog(w.document.scenario, w)
    qtbot.addWidget(d)
    ok = d.buttons.button(QDialogButtonBox.StandardButton.Ok)
    d.cell_size.setValue(16.0)
    assert d.summary.text().startswith("4 pages (2 × 2) of 210 × 297 mm") and ok.isEnabled()
    d.landscape.setChecked(True)
    assert "of 297 × 210 mm" in d.summary.text()
    d.unit.setCurrentText("in")
    assert abs(d.cell_size.value() - 16.0 / 25.4) < 0.01 and abs(d.spec().cell_mm - 16.0) < 0.2
    d.unit.setCurrentText("mm")
    d.overlap.setValue(99.0)
    assert d.summary.text().startswith("Cannot print: the overlap") and not ok.isEnabled()
    for size in ((1280, 820), (1366, 768)):
        d.overlap.setValue(10.0)
        d.show()
        qtbot.waitExposed(d)
        d.grab().save(str(tmp_path / f"print-dialog-{size[0]}.png"))
        assert d.summary.sizeHint().width() <= d.width()  # the verdict is not clipped


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm is not installed (apt-get install poppler-utils)")
def test_the_menu_writes_what_the_command_writes(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, ACW)
    d = PrintDialog(w.document.scenario, w)
    qtbot.addWidget(d)
    d.cell_size.setValue(18.0)
    d.paper.setCurrentText("Letter")
    ours = tmp_path / "menu.pdf"
    import threading

    from app.gui import print_pdf as module

    threads: list[bool] = []
    real = module.print_pdf

    def spy(*a, **k):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*a, **k)

    module.print_pdf = spy  # type: ignore[assignment]
    try:
        assert print_map(w, str(ours), d.spec())
    finally:
        module.print_pdf = real  # type: ignore[assignment]
    assert threads == [True], "printing paints, so it runs on the GUI thread (app/gui/background.py)"
    assert "Wrote" in w.statusBar().currentMessage()
    theirs = tmp_path / "cli.pdf"
    assert main(["print", str(ACW), "--hex-mm", "18", "--paper", "letter", "--out", str(theirs)]) == 0
    for name, pdf in (("a", ours), ("b", theirs)):
        subprocess.run(["pdftoppm", "-r", "40", str(pdf), str(tmp_path / name)], check=True)
    a, b = sorted(tmp_path.glob("a-*.ppm")), sorted(tmp_path.glob("b-*.ppm"))
    assert len(a) == len(b) >= 2
    for x, y in zip(a, b, strict=True):
        assert x.read_bytes() == y.read_bytes()


def test_a_file_that_cannot_be_written_is_an_error_dialog_not_a_crash(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, ACW)
    shown: list[str] = []
    w.show_error = lambda title, text, details=(): shown.append(" ".join([title, text, *details]))
    d = PrintDialog(w.document.scenario, w)
    qtbot.addWidget(d)
    assert not print_map(w, str(tmp_path / "no-such-folder" / "map.pdf"), d.spec())
    assert shown and "Cannot print" in shown[0]


EUROPE = ROOT / "maps" / "railroad_module_europe.json"


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm is not installed (apt-get install poppler-utils)")
def test_a_territory_window_prints_at_a_map_width_what_the_command_prints(qtbot, tmp_path) -> None:
    w = open_map(qtbot, tmp_path, EUROPE)
    assert type(w).__name__ == "TerritoryWindow"
    assert w.act_print.shortcut().toString() == "Ctrl+P" and w.act_print in w.menuBar().actions()[0].menu().actions()
    d = PrintDialog(w.document.scenario, w)
    qtbot.addWidget(d)
    assert d.territory and not d.labels.isVisibleTo(d) and not d.coordinates.isVisibleTo(d)
    ok = d.buttons.button(QDialogButtonBox.StandardButton.Ok)
    d.cell_size.setValue(400.0)
    d.landscape.setChecked(True)
    assert d.summary.text().startswith("4 pages (2 × 2) of 297 × 210 mm; the map is 400 × 280 mm"), d.summary.text()
    assert ok.isEnabled() and d.spec().width_mm == 400.0
    d.unit.setCurrentText("in")
    assert abs(d.cell_size.value() - 400.0 / 25.4) < 0.01 and abs((d.spec().width_mm or 0) - 400.0) < 0.2
    d.unit.setCurrentText("mm")
    d.cell_size.setValue(20.0)
    d.overlap.setValue(99.0)
    assert d.summary.text().startswith("Cannot print: the overlap") and not ok.isEnabled()
    d.overlap.setValue(10.0)
    d.cell_size.setValue(400.0)
    for size in ((1280, 820), (1366, 768)):
        w.resize(*size)
        d.show()
        qtbot.waitExposed(d)
        d.grab().save(str(tmp_path / f"territory-print-dialog-{size[0]}.png"))
        assert d.summary.sizeHint().width() <= d.width()  # the verdict is not clipped
    ours = tmp_path / "menu.pdf"
    assert print_map(w, str(ours), d.spec())
    assert "Wrote" in w.statusBar().currentMessage() and "400 mm wide" in w.statusBar().currentMessage()
    theirs = tmp_path / "cli.pdf"
    assert main(["print", str(EUROPE), "--width-mm", "400", "--landscape", "--out", str(theirs)]) == 0
    for name, pdf in (("a", ours), ("b", theirs)):
        subprocess.run(["pdftoppm", "-r", "40", str(pdf), str(tmp_path / name)], check=True)
    a, b = sorted(tmp_path.glob("a-*.ppm")), sorted(tmp_path.glob("b-*.ppm"))
    assert len(a) == len(b) == 4
    for x, y in zip(a, b, strict=True):
        assert x.read_bytes() == y.read_bytes()
