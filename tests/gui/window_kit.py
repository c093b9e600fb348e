"""Opening an editor window on a map for a GUI test: the window kind the map
needs, its own settings and state folders under the test's temporary
folder, unsaved work discarded on close, shown at a screen size and fitted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

from app.gui.main_window import MainWindow
from app.gui.territory import TerritoryWindow
from engine.io import load_any
from engine.territory import TerritoryScenario


def open_map(qtbot: Any, tmp_path: Path, path: Path | str, size: tuple[int, int] | None = (1280, 820),
             settings: QSettings | None = None, **kwargs: Any) -> Any:
    """``path`` in a new window of its kind; ``size=None``: not shown."""
    scenario = load_any(path)
    cls: Any = TerritoryWindow if isinstance(scenario, TerritoryScenario) else MainWindow
    w = cls(scenario, str(path), settings or QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
            tmp_path / "state", **kwargs)
    w.ask_unsaved = lambda: "discard"
    qtbot.addWidget(w)
    if size is not None:
        w.resize(*size)
        w.show()
        qtbot.waitExposed(w)
        w.canvas.fit()
    return w
