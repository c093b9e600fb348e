"""Which editor window opens a map of each kind, and the one window
manager that opens and keeps every window.

The window of a map kind is the shell (:class:`app.gui.editor_window.EditorWindow`)
preconfigured with the kind's map editor (:mod:`app.gui.map_editor`); each
registers itself for the map kinds it edits (:func:`register_window`, when
its module is imported); :func:`window_class`
finds it, importing the built-in window module of a kind the first time it
is asked (:data:`WINDOW_MODULES`).  So code below the windows (recovery, the
file actions, the turn controller) opens a window of any kind without
importing the window modules, and the window modules stay above it.

:data:`MANAGER` (a :class:`WindowManager`) is where windows are opened and
kept: a window opened from another (a map of the other kind, recovered
work, a branch of a game) is created by :meth:`WindowManager.open` or
handed to :meth:`WindowManager.track`, kept until Qt destroys it (it is
deleted when closed) and then forgotten, so no list holds a closed window.
"""

from __future__ import annotations

import importlib
import weakref
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt

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


@dataclass(frozen=True)
class Opened:
    """A window the manager keeps and why it was opened (``"other kind"``,
    ``"recovered"``, ``"branch"``, ...)."""

    window: Any
    role: str


class WindowManager:
    """Every window the app opens from another, while it exists (the first
    window, which :func:`app.gui.run` opens and keeps until the app ends, is
    not listed).

    A window is kept under the window it was opened from, for as long as
    that one's Python object lives (the manager holds openers weakly, so it
    never keeps a window alive), and forgotten as soon as Qt destroys it."""

    def __init__(self) -> None:
        self._open: weakref.WeakKeyDictionary[Any, list[Opened]] = weakref.WeakKeyDictionary()
        self._unowned: list[Opened] = []

    def open(self, kind: str, scenario: Any, path: str | None, settings: Any, state_dir: Any,
             opener: Any = None, role: str = "other kind") -> Any:
        """A new window of the class for ``kind`` (:func:`window_class`) on
        ``scenario``, kept (:meth:`track`); not yet shown."""
        return self.track(window_class(kind)(scenario, path, settings, state_dir), opener, role)

    def track(self, window: Any, opener: Any = None, role: str = "other kind") -> Any:
        """Keep ``window`` (under ``opener``) until Qt destroys it: it is
        deleted when closed, and then forgotten.  Returns it."""
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        kept = self._unowned if opener is None else self._open.setdefault(opener, [])
        kept.append(Opened(window, role))
        window.destroyed.connect(lambda _obj=None, w=window: self._forget(w))
        return window

    def _forget(self, window: Any) -> None:
        for kept in (self._unowned, *self._open.values()):
            kept[:] = [o for o in kept if o.window is not window]

    def windows(self, opener: Any = None, role: str | None = None) -> list[Any]:
        """The windows kept (each opener's in the order they were opened):
        those opened from ``opener`` (``None``: all), of ``role`` (``None``: any)."""
        if opener is None:
            found = [o for kept in (self._unowned, *self._open.values()) for o in kept]
        else:
            found = list(self._open.get(opener, ()))
        return [o.window for o in found if role is None or o.role == role]


MANAGER = WindowManager()
"""The app's one window manager."""
