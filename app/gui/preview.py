"""What a rules system's live preview is, on either map kind.

A preview answers, as the mouse moves, "what would happen if this unit went
there?": it calls the engine, gets a result value, and returns an overlay
for the canvas to draw (:class:`~app.gui.overlay.Overlay` on grid maps,
:class:`~app.gui.territory.overlay.TerritoryOverlay` on territory maps).
Clicking applies a grid preview's move: :meth:`Preview.apply` returns a
:class:`MoveOrder` that the editor turns into one undoable command.
Previews hold no Qt state except an optional dock widget
(:meth:`Preview.dock`, :meth:`TerritoryPreview.dock`).

A rules system's previews live in its UI package, ``app/gui/systems/<name>/``,
listed by the :class:`~app.gui.systems.SystemUI` it exports; the editors find
them through the rules registry (:func:`app.gui.systems.previews_for`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.grids import Cell
from engine.model import Scenario, Unit

from .overlay import Overlay
from .territory.overlay import EMPTY, TerritoryOverlay

if TYPE_CHECKING:  # annotations only: grid maps never import the territory model
    from engine.territory import TerritoryScenario, TerritoryUnit


@dataclass(frozen=True)
class MoveOrder:
    """A move the editor applies as one undo step: the unit goes to ``to``;
    ``props`` are unit properties to set at the same time (e.g. clear
    ``fortified``)."""

    unit_id: str
    to: Cell
    description: str
    props: dict[str, Any] = field(default_factory=dict)


class Preview(ABC):
    """A rules system's live preview.  One instance per editor window."""

    name: str = ""
    """Shown in the editor's preview chooser, e.g. "CWOL rail move"."""

    @abstractmethod
    def applies_to(self, scenario: Scenario) -> bool:
        """Whether this preview makes sense for the scenario (its ruleset)."""

    def selectable(self, scenario: Scenario, unit: Unit) -> bool:
        """Whether ``unit`` can be the subject of this preview."""
        return True

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        """Called when the selected unit changes; may return an overlay shown
        before the mouse moves (e.g. reachable hexes)."""
        return Overlay()

    @abstractmethod
    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        """The overlay for ``unit`` going to ``target`` (via ``waypoint``).
        Must be fast: it runs on every mouse move."""

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        """The move a click makes, or ``None`` when the rules refuse it."""
        return None

    def dock(self) -> Any:
        """An optional QWidget (e.g. a pyqtgraph analysis plot) the editor
        shows while this preview is active; created lazily, ``None`` if the
        preview has none."""
        return None


class TerritoryPreview(ABC):
    """A rules system's live preview on a territory map.  One instance per
    editor window; the territory editor's Preview mode asks it as the mouse
    moves over territories with a unit selected."""

    name: str = ""
    """Shown in the Preview mode's chooser."""
    system: str = ""
    """The registered name of the rules system whose orders :meth:`order` gives."""

    @abstractmethod
    def applies_to(self, scenario: TerritoryScenario) -> bool:
        """Whether this preview makes sense for the scenario (its ruleset)."""

    def selectable(self, scenario: TerritoryScenario, unit: TerritoryUnit) -> bool:
        """Whether ``unit`` can be the subject of this preview."""
        return True

    def select(self, scenario: TerritoryScenario, unit: TerritoryUnit | None) -> TerritoryOverlay:
        """Called when the selected unit changes; may return an overlay shown
        before the mouse moves (e.g. the territories it can reach)."""
        return EMPTY

    @abstractmethod
    def hover(self, scenario: TerritoryScenario, unit: TerritoryUnit, target: str) -> TerritoryOverlay:
        """The overlay for ``unit`` going to territory ``target`` (its
        ``message`` is the verdict).  Must be fast: it runs on every mouse
        move over another territory."""

    def order(self, scenario: TerritoryScenario, unit: TerritoryUnit, target: str) -> dict[str, Any] | None:
        """The order a click on ``target`` gives for the rules system named
        :attr:`system` (``None``: a click only previews).  The editor gives
        it to the game when one is played, else carries it out through the
        system as one undo step; a refused order changes nothing."""
        return None

    def dock(self) -> Any:
        """An optional QWidget the editor shows while this preview is
        active; created lazily, ``None`` if the preview has none."""
        return None
