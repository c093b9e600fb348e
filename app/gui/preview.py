"""Live previews of the rules, one module per rules system.

A preview answers, as the mouse moves, "what would happen if this unit went
there?": it calls the engine, gets a result value, and returns an
:class:`~app.gui.overlay.Overlay` for the canvas to draw.  Clicking applies
the move: :meth:`Preview.apply` returns a :class:`MoveOrder` that the editor
turns into one undoable command.  Previews hold no Qt state except an
optional dock widget (:meth:`Preview.dock`).

To add one for a rules system registered in :mod:`engine.rules.registry`,
create ``app/gui/previews/<system name>.py`` defining a subclass of
:class:`Preview` listed in the module's ``PREVIEWS`` tuple; :func:`available`
finds it through the registry.
"""

from __future__ import annotations

import importlib
import importlib.util
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.grids import Cell
from engine.model import Scenario, Unit
from engine.rules import registry

from ..overlay import Overlay


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


GRID_KINDS: tuple[str, ...] = ("square", "hex")
"""The map kinds of the grid editor, whose previews these are."""


def available(kinds: Iterable[str] = GRID_KINDS) -> list[Preview]:
    """One instance of every preview of the rules systems the registry lists
    for maps of ``kinds``, by system name: the ``PREVIEWS`` of the module
    named after the system (a system without such a module has none)."""
    names = sorted({s.name for kind in kinds for s in registry.for_map_kind(kind)})
    out: list[Preview] = []
    for name in names:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            continue
        module = importlib.import_module(f"{__name__}.{name}")
        for cls in getattr(module, "PREVIEWS", ()):
            out.append(cls())
    return out
