"""What a tool may use: its context, declared once for both map kinds.

A tool is made with a context and never sees a window.  :class:`ToolContext`
is what every tool, grid or territory, may ask of it: the document, the
selected unit, and a line in the status bar.  :class:`TerritoryToolContext`
adds what a territory tool uses: the canvas, the scenario, the selected
territories, the verdict, the overlay, the window's own docks by object
name, the game and the rules systems' services.

The grid editor's context is :class:`app.gui.tools.base.EditorState`, the
territory editor's :class:`app.gui.territory.context.TerritoryContext`; each
window makes its own and hands it to its tools.  ``tests/test_tool_context.py``
fails when a tool module names a window class or reaches through ``.w``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget, QWidget

    from engine.territory import TerritoryScenario

    from ..territory.canvas import TerritoryCanvas
    from ..territory.document import TerritoryDocument
    from ..turns import TurnController

S = TypeVar("S")


class ToolContext(Protocol):
    """What every tool may use."""

    @property
    def document(self) -> Any:
        """The open document (its scenario, undo stack and edit pushes)."""

    @property
    def selected_unit(self) -> str | None:
        """The selected unit's id (``None``: none)."""

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit (``None``: drop the selection)."""

    def say(self, text: str) -> None:
        """A line in the status bar."""


class TerritoryToolContext(ToolContext, Protocol):
    """What a territory tool may use besides :class:`ToolContext`."""

    @property
    def document(self) -> TerritoryDocument: ...

    @property
    def canvas(self) -> TerritoryCanvas:
        """The map canvas (overlay, picking, counters under a point, zoom)."""

    @property
    def scenario(self) -> TerritoryScenario:
        """The document's scenario."""

    @property
    def selection(self) -> list[str]:
        """The selected territories' ids, the last one clicked last."""

    @property
    def turns(self) -> TurnController | None:
        """The document's game controller (``None`` until the window has one)."""

    def say(self, text: str, ms: int = 10000) -> None:
        """A line in the status bar, shown for ``ms`` milliseconds."""

    def select(self, tids: list[str]) -> None:
        """Select territories (unknown ids are dropped)."""

    def show_verdict(self, allowed: bool | None, text: str) -> None:
        """The Verdict dock shows ``text`` (green: allowed, red: refused;
        empty: its hint)."""

    def update_overlay(self) -> None:
        """The current tool's overlay goes on the canvas again."""

    def dock(self, name: str) -> QDockWidget:
        """The window's dock of object name ``name``, among those it keeps
        findable (the territory window: its Inspector, Paint, History and
        Legend docks); :class:`KeyError` for another."""

    def add_dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        """A new dock of the window, kept for the window's life."""

    def service(self, kind: type[S]) -> S:
        """The one service of class ``kind`` the window provides (a rules
        system's part: its panels, planner, judge)."""


__all__ = ["TerritoryToolContext", "ToolContext"]
