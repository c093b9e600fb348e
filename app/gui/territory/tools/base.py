"""What every territory tool shares: the lifecycle of every tool
(:class:`app.gui.tools.base.Tool`: ``activate``/``deactivate`` when chosen
or left, ``press``/``move``/``release`` fed with the canvas's
:class:`~app.gui.territory.canvas.TerritoryMouseEvent`) over a
:class:`~app.gui.tools.context.TerritoryToolContext` (``ctx``).

The context stands where a grid tool has its
:class:`~app.gui.tools.base.EditorState`: it holds what tools share (the
selection, the selected unit), finds docks and the rules systems' services,
and says things in the status bar.  A tool also names the overlay it shows
(:meth:`TerritoryTool.overlay`) and what it adds to the status bar's line
about a territory (:meth:`TerritoryTool.status`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF

from ...tools.base import Tool
from ..canvas import TerritoryMouseEvent
from ..overlay import TerritoryOverlay

if TYPE_CHECKING:
    from ...tools.context import TerritoryToolContext


class TerritoryTool(Tool):
    """Base class of the territory window's tools (modes).

    ``id`` names the mode (``set_mode``, settings, tests); ``name``,
    ``shortcut`` and ``tip`` make its action in the Mode menu and tool bar.
    The base class ignores every mouse event."""

    ctx: TerritoryToolContext
    judges = False
    """Whether the mode says a verdict on what the pointer is at (the
    Verdict dock comes to the front of its tabs while it is the mode)."""

    def __init__(self, ctx: TerritoryToolContext) -> None:
        super().__init__(ctx)

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
        self.ctx.canvas.set_overlay(self.overlay())

    def status(self, tid: str) -> list[str]:
        """What it adds to the status bar's line about territory ``tid``."""
        return []

    def counter_at(self, ev: TerritoryMouseEvent) -> tuple[str, list[str]] | None:
        """The unit counter under the event: (territory, unit ids)."""
        hit: tuple[str, list[str]] | None = self.ctx.canvas.units_at_view(QPointF(*ev.view))
        return hit

    def say(self, text: str, ms: int = 10000) -> None:
        self.ctx.say(text, ms)

    def new_scenario(self) -> None:
        """Another map was opened (or the map replaced): forget what belongs
        to the one before."""


__all__ = ["TerritoryTool"]
