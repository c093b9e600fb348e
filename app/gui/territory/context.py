"""The territory editor's tool context (:class:`TerritoryContext`).

It implements :class:`app.gui.tools.context.TerritoryToolContext`: what the
territory tools share (the selection, the selected unit, the current tool
and every tool by mode) and what they may ask for (the canvas, the document,
the status bar, the verdict, docks, the rules systems' services).  The
window makes one, hands it to every tool and to the rules systems' parts,
and listens to its signals; nothing here knows the window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDockWidget, QWidget

from engine.territory import TerritoryScenario

from .canvas import TerritoryCanvas
from .document import TerritoryDocument

if TYPE_CHECKING:
    from ..turns import TurnController
    from .tools.base import TerritoryTool

S = TypeVar("S")


class TerritoryContext(QObject):
    """The territory tools' context (see the module docstring).

    Signals: ``message(text, ms)`` (a status line), ``verdictShown(allowed,
    text)``, ``selectionChanged(tids)``, ``unitSelected(unit_id)`` (before
    the overlay is redrawn, so a service can recompute what it shows)."""

    message = Signal(str, int)
    verdictShown = Signal(object, str)
    selectionChanged = Signal(list)
    unitSelected = Signal(object)

    def __init__(self, document: TerritoryDocument, canvas: TerritoryCanvas,
                 add_dock: Callable[[str, str, QWidget, Qt.DockWidgetArea], QDockWidget],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._canvas = canvas
        self._add_dock = add_dock
        self.selection: list[str] = []
        """The selected territories, the last one clicked last."""
        self.selected_unit: str | None = None
        self.tools: dict[str, TerritoryTool] = {}
        """The tools by mode, in tool-bar order."""
        self.tool: TerritoryTool | None = None
        """The current tool."""
        self._docks: dict[str, QDockWidget] = {}
        self._services: dict[type, object] = {}

    # -- what the tools read -------------------------------------------------
    @property
    def document(self) -> TerritoryDocument:
        return self._document

    @property
    def canvas(self) -> TerritoryCanvas:
        return self._canvas

    @property
    def scenario(self) -> TerritoryScenario:
        return self._document.scenario

    @property
    def turns(self) -> TurnController | None:
        turns: TurnController | None = self._document.turns
        return turns

    # -- what they do ----------------------------------------------------------
    def say(self, text: str, ms: int = 10000) -> None:
        self.message.emit(text, ms)

    def show_verdict(self, allowed: bool | None, text: str) -> None:
        self.verdictShown.emit(allowed, text)

    def select(self, tids: list[str]) -> None:
        self.selection = [t for t in tids if t in self.scenario.map]
        self._canvas.set_selected(self.selection)
        self.selectionChanged.emit(list(self.selection))

    def select_unit(self, unit_id: str | None) -> None:
        if unit_id != self.selected_unit:
            self.show_verdict(None, "")
        self.selected_unit = unit_id
        self._canvas.set_selected_unit(unit_id)
        self.unitSelected.emit(unit_id)
        self.update_overlay()

    def update_overlay(self) -> None:
        if self.tool is not None:
            self.tool.show_overlay()

    # -- docks and services ----------------------------------------------------
    def add_dock(self, title: str, name: str, widget: QWidget,
                 area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea) -> QDockWidget:
        dock = self._add_dock(title, name, widget, area)
        self._docks[name] = dock
        return dock

    def keep_dock(self, dock: QDockWidget) -> QDockWidget:
        """Make ``dock`` findable by its object name (:meth:`dock`)."""
        self._docks[dock.objectName()] = dock
        return dock

    def dock(self, name: str) -> QDockWidget:
        return self._docks[name]

    def provide(self, service: Any) -> Any:
        """Offer ``service`` to the tools, found by its class (:meth:`service`)."""
        self._services[type(service)] = service
        return service

    def service(self, kind: type[S]) -> S:
        found = self._services.get(kind)
        if not isinstance(found, kind):
            raise LookupError(f"this window has no {kind.__name__} (its rules system's UI is not installed)")
        return found


__all__ = ["TerritoryContext"]
