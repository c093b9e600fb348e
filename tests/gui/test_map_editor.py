"""One window shell hosting the map editor of the document's kind
(app/gui/editor_window.py, app/gui/map_editor.py).

The shell built straight from the registry is the window the kind's name
builds (same docks, menus, tool bar, status field); a window keeps its
editor and its docks while maps of its kind come and go, and a map of the
other kind opens in a window of its own with that kind's editor.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtWidgets import QApplication, QDockWidget, QToolBar

from app.gui.autosave import map_kind
from app.gui.editor_window import EditorWindow
from app.gui.main_window import GridEditor, MainWindow
from app.gui.map_editor import EDITORS, MapEditor, editor_class
from app.gui.territory.window import TerritoryEditor, TerritoryWindow
from app.gui.windows import window_class
from engine.io import load_any

pytestmark = pytest.mark.gui

MAPS = Path(__file__).resolve().parents[2] / "maps"
GRID_A = str(MAPS / "acw_short_campaign.json")
GRID_B = str(MAPS / "gitm_graphic1.json")
TERRITORY = str(MAPS / "aa_rail_options.json")


def pump() -> None:
    for _ in range(3):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def settings(tmp_path: Path, name: str) -> QSettings:
    return QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat)


def layout(w: EditorWindow) -> dict[str, Any]:
    """What a person sees of a window's make-up: docks, menus, tool bar,
    status bar fields, title."""
    bar = w.findChild(QToolBar)
    assert bar is not None
    return {
        "name": w.objectName(),
        "docks": sorted(d.objectName() for d in w.findChildren(QDockWidget)),
        "menus": [(a.text(), [b.text() for b in a.menu().actions()]) for a in w.menuBar().actions()],
        "toolbar": (bar.objectName(), [a.text() for a in bar.actions()]),
        "central": w.centralWidget().objectName(),
        "title": w.windowTitle(),
    }


def test_the_registry_has_an_editor_per_map_kind() -> None:
    assert editor_class("grid") is GridEditor and editor_class("territory") is TerritoryEditor
    assert all(issubclass(cls, MapEditor) and kind in cls.kinds for kind, cls in EDITORS.items())
    with pytest.raises(KeyError, match="'hexcrawl'"):
        editor_class("hexcrawl")


@pytest.mark.parametrize("path", [GRID_A, TERRITORY])
def test_the_shell_from_the_registry_is_the_kinds_window(qtbot: Any, tmp_path: Path, path: str) -> None:
    scenario = load_any(path)
    kind = map_kind(scenario)
    named = window_class(kind)(scenario, path, settings(tmp_path, "named"), tmp_path / "state1")
    qtbot.addWidget(named)
    shell = EditorWindow(editor_class(kind), load_any(path), path, settings(tmp_path, "shell"),
                         tmp_path / "state2")
    qtbot.addWidget(shell)
    assert type(shell.editor) is editor_class(kind) and isinstance(named.editor, editor_class(kind))
    assert layout(shell) == layout(named)
    # the editor's parts read through the window, as the rules systems' installs use them
    assert shell.tools is shell.editor.tools and shell.canvas is shell.editor.canvas is shell.centralWidget()
    with pytest.raises(AttributeError, match="no_such_part"):
        _ = shell.no_such_part


def test_a_window_keeps_its_editor_and_docks_while_maps_come_and_go(qtbot: Any, tmp_path: Path) -> None:
    w = MainWindow(load_any(GRID_A), GRID_A, settings(tmp_path, "s"), tmp_path / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.show()
    editor, docks = w.editor, w.findChildren(QDockWidget)
    for path in (TERRITORY, GRID_B, TERRITORY, GRID_A):
        assert w.open_file(path)
        pump()
        now = w.findChildren(QDockWidget)  # the layout may re-dock them: the same docks, in any order
        assert w.editor is editor and all(any(d is e for e in now) for d in docks)
        assert all(shiboken6.isValid(d) and shiboken6.isValid(d.widget()) for d in docks)
    assert w.document.path == GRID_A
    others = w._other_windows
    assert len(others) == 2 and all(isinstance(o, TerritoryWindow) and isinstance(o.editor, TerritoryEditor)
                                    for o in others)
    for o in others:
        o.ask_unsaved = lambda: "discard"
        o.close()
    pump()
    assert w._other_windows == []
    assert w.open_file(TERRITORY)  # and again after they are gone
    pump()
    (again,) = w._other_windows
    assert again.document.path == TERRITORY and shiboken6.isValid(again.dock_inspector)
    again.ask_unsaved = lambda: "discard"
    again.close()
    pump()
