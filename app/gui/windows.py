"""Which editor window opens a map of each kind.

Each editor window class registers itself for the map kinds it edits
(:func:`register_window`, when its module is imported); :func:`window_class`
finds it, importing the built-in window module of a kind the first time it
is asked (:data:`WINDOW_MODULES`).  So code below the windows (recovery, the
file actions) opens a window of any kind without importing the window
modules, and the window modules stay above it.
"""

from __future__ import annotations

import importlib
from typing import Any

WINDOW_MODULES: dict[str, str] = {"grid": "app.gui.main_window", "territory": "app.gui.territory.window"}
"""The module whose import registers the built-in window of each map kind
(:func:`app.gui.autosave.map_kind`: ``"grid"`` or ``"territory"``)."""

_CLASSES: dict[str, type[Any]] = {}


def register_window(kinds: tuple[str, ...], cls: type[Any]) -> None:
    """Make ``cls`` the window for maps of each of ``kinds``."""
    for kind in kinds:
        _CLASSES[kind] = cls


def window_class(kind: str) -> type[Any]:
    """The window class for maps of ``kind``; :class:`KeyError` naming the
    kind when no window edits it."""
    if kind not in _CLASSES and kind in WINDOW_MODULES:
        importlib.import_module(WINDOW_MODULES[kind])
    try:
        return _CLASSES[kind]
    except KeyError:
        raise KeyError(f"no editor window for {kind!r} maps") from None
