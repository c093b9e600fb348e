"""What every territory tool shares: the grid tools' lifecycle
(:class:`app.gui.tools.base.Tool`: ``activate``/``deactivate`` when chosen
or left, ``press``/``move``/``release`` fed with the canvas's
:class:`~app.gui.territory.canvas.TerritoryMouseEvent`) on a
:class:`~app.gui.territory.window.TerritoryWindow`.

The window stands where a grid tool has its
:class:`~app.gui.tools.base.EditorState`: it holds what tools share (the
selection, the selected unit, the rail option and its reach), the docks and
the document, and says things in its status bar.  A tool also names the
overlay it shows (:meth:`TerritoryTool.overlay`) and what it adds to the
status bar's line about a territory (:meth:`TerritoryTool.status`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from PySide6.QtCore import QPointF

from ...tools.base import Tool
from ..canvas import TerritoryMouseEvent
from ..overlay import TerritoryOverlay

if TYPE_CHECKING:
    from ..window import TerritoryWindow


class TerritoryTool(Tool):
    """Base class of the territory window's tools (modes).

    ``id`` names the mode (``set_mode``, settings, tests); ``name``,
    ``shortcut`` and ``tip`` make its action in the Mode menu and tool bar;
    ``rail_panel`` says whether the "Rail tools" dock shows while it is
    active.  The base class ignores every mouse event."""

    rail_panel: ClassVar[bool] = False

    def __init__(self, window: TerritoryWindow) -> None:
        super().__init__(window)  # type: ignore[arg-type]  # the window is the territory tools' editor state
        self.w = window

    def activate(self) -> None:
        """Chosen: show its docks (the tip is its action's tool tip; the
        status bar keeps what it says)."""
        self.active = True

    def deactivate(self) -> None:
        """Left: drop any drag under way (the next tool puts its own overlay
        up)."""
        self.active = False

    def overlay(self) -> TerritoryOverlay | None:
        """What it shows over the map (``None``: nothing)."""
        return None

    def show_overlay(self) -> None:
        """Put :meth:`overlay` on the canvas (and what goes with it)."""
        self.w.canvas.set_overlay(self.overlay())

    def status(self, tid: str) -> list[str]:
        """What it adds to the status bar's line about territory ``tid``."""
        return []

    def counter_at(self, ev: TerritoryMouseEvent) -> tuple[str, list[str]] | None:
        """The unit counter under the event: (territory, unit ids)."""
        hit: tuple[str, list[str]] | None = self.w.canvas.units_at_view(QPointF(*ev.view))
        return hit

    def say(self, text: str) -> None:
        self.w.say(text)


__all__ = ["TerritoryTool"]
