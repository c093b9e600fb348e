"""The one object a rules system's UI package exports (:class:`SystemUI`),
what its installs are given (:class:`EditorHost`) and the hooks a window
calls on what they leave behind (:class:`SystemPart`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..preview import Preview, TerritoryPreview

if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDockWidget, QWidget


class EditorHost(Protocol):
    """What an install (:attr:`SystemUI.installs`) may use of the editor
    window it is given: the document, the window's tool context, docks,
    actions, the Game menu and error dialogs."""

    @property
    def document(self) -> Any:
        """The window's document (``document.turns``: its game)."""

    @property
    def context(self) -> Any:
        """The window's tool context (:mod:`app.gui.tools.context`)."""

    def add_dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea = ...,
                 tab_with: str | None = None) -> QDockWidget:
        """A dock of the system's own, listed in the View menu, tabbed with
        the dock named ``tab_with`` when given."""

    def make_action(self, text: str, slot: Any = None, shortcut: Any = None, tip: str = "") -> QAction:
        """An action of the window (its shortcut works while the window is active)."""

    def add_game_action(self, action: QAction) -> None:
        """Put ``action`` in the Game menu, among the turn's actions."""

    def show_error(self, title: str, summary: str, problems: list[str] | tuple[str, ...] = ()) -> Any:
        """An error dialog."""

    def resizeDocks(self, docks: list[QDockWidget], sizes: list[int], orientation: Qt.Orientation) -> None:
        """Give docks their first size (QMainWindow's)."""


@runtime_checkable
class TakesClicks(Protocol):
    """A part that may take a map click before the current tool."""

    def press(self, ev: Any) -> bool:
        """Whether it took the click ``ev``."""


class SystemPart:
    """What an install may leave in a window, with the hooks the window
    calls on it; the defaults do nothing.  An install may return any
    object; only a :class:`SystemPart` is told about the window's events."""

    def press(self, ev: Any) -> bool:
        """A map click, before the current tool: whether it took it."""
        return False

    def scenario_loaded(self, scenario: Any) -> None:
        """Another map was opened in the window (or the map replaced)."""

    def edited(self, what: Any) -> None:
        """The document was edited (an edit, undo, redo or a game step)."""

    def mode_changed(self, tool: Any) -> None:
        """The window's current tool (mode) changed to ``tool``, before it is activated."""


@dataclass(frozen=True)
class SystemUI:
    """What a rules system brings to the editor.

    ``system`` is the registered name of the rules system (``RulesSystem.name``).
    ``previews`` and ``territory_previews`` are preview classes (one instance
    per window); ``tools`` are territory tool classes (modes, in tool-bar
    order), each constructed with the window's tool context; ``installs`` are
    functions called once with a new editor window (an :class:`EditorHost`)
    of a kind the system plays on, adding its docks, actions and services
    and returning what the window keeps (a :class:`SystemPart` is told of
    the window's events; an object with ``press(event) -> bool`` takes a map
    click before the current tool); ``help_title`` is the Help menu entry
    that opens the system's rule page (``RulesSystem.doc``; empty: ``"Rules:
    " + title``); ``verdict_hint`` is what the territory window's Verdict
    dock says of the system's gestures before there is a verdict;
    ``position`` orders systems in menus and tool bars (lower first, ties by
    name)."""

    system: str
    previews: tuple[type[Preview], ...] = ()
    territory_previews: tuple[type[TerritoryPreview], ...] = ()
    tools: tuple[type[Any], ...] = ()
    installs: tuple[Callable[[EditorHost], Any], ...] = ()
    help_title: str = ""
    verdict_hint: str = ""
    position: int = 100


__all__ = ["EditorHost", "SystemPart", "SystemUI", "TakesClicks"]
