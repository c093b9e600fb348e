"""Help > documentation pages, and the palette kept in the settings (issue
18: "Help has only About" and "links to the docs"; the palette choice was
lost at the next start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QUrl
from PySide6.QtGui import QDesktopServices
from window_kit import open_map

from app.gui import editor_window
from app.gui.main_window import MainWindow
from app.gui.render import style
from app.gui.territory import TerritoryWindow

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def _window(qtbot: Any, tmp_path: Path, cls: Any, sample: str, settings: QSettings | None = None) -> Any:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, size=None, settings=settings)
    assert isinstance(w, cls)
    return w


@pytest.mark.parametrize("cls, sample", [(MainWindow, "gitm_allied.json"), (TerritoryWindow, "aa_rail_options.json")])
def test_help_opens_each_documentation_page(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            cls: Any, sample: str) -> None:
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(QUrl(url).toLocalFile()) or True)
    w = _window(qtbot, tmp_path, cls, sample)
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Help")
    titles = [a.text() for a in help_menu.actions()]
    assert "&User Guide" in titles and "Keyboard Shortcuts" in " ".join(titles).replace("&", "")
    for page, act in w.doc_actions.items():
        act.trigger()
        assert opened[-1] == str(ROOT / "docs" / page) and Path(opened[-1]).is_file(), page
    assert len(opened) == len(w.doc_actions) >= 10
    rules = [page for _title, page in w.rule_docs()]
    built_in = ["rules/cwol-rail.md", "rules/gitm.md", "rules/acw.md", "rules/railroads.md", "rules/movement.md",
                "rules/rail-options.md"]  # from the registry's RulesSystem.doc, in the UIs' order
    assert [page for page in rules if page in built_in] == built_in  # an installed plugin's page may come too
    assert all(page in w.doc_actions for page in rules)
    monkeypatch.setattr(editor_window, "DOCS_DIR", tmp_path / "nowhere")
    assert not w.open_doc("editor.md")
    assert w.error_dialog is not None and "nowhere" in " ".join(w.error_dialog.problems)


def test_the_palette_is_kept_for_the_next_start(qtbot: Any, tmp_path: Path) -> None:
    first = style.palette()
    other = next(p for p in style.PALETTES if p != first)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    try:
        w = _window(qtbot, tmp_path, MainWindow, "gitm_allied.json", settings)
        w.palette_actions[other].trigger()
        assert style.palette() == other
        w.close()
        style.set_palette(first)  # as a new process starts
        again = _window(qtbot, tmp_path, TerritoryWindow, "aa_rail_options.json",
                        QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        assert style.palette() == other and again.palette_actions[other].isChecked()
    finally:
        style.set_palette(first)
