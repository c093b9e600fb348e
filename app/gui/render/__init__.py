"""Map renderers, one per map kind, looked up from the map's kind.

``renderer_for(scenario)`` is the only place that chooses: nothing else in
the app asks which kind of map it draws.  :data:`RENDERERS` lists the
renderer of every map kind: the grid renderers (:class:`MapRenderer`
subclasses, one per grid kind) and the territory renderer
(:class:`~app.gui.render.territory.TerritoryRenderer`, imported the first
time a territory map is drawn, so drawing a grid map never loads the
territory geometry).  Both kinds are :class:`KindRenderer`\\ s.  Add a kind
by writing its renderer and listing it in :data:`RENDERERS`.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, Protocol, overload

from engine.model import Scenario

from .base import DEFAULT_LAYERS, LAYERS, MapRenderer
from .hexes import HexRenderer
from .square import SquareRenderer
from .tiles import TileCache

if TYPE_CHECKING:
    from engine.territory import TerritoryScenario

    from .territory import TerritoryRenderer


class KindRenderer(Protocol):
    """What the renderer of every map kind offers: the kind it draws and
    the map's size in its scene units (pixels at zoom 1)."""

    @property
    def kind(self) -> str: ...

    @property
    def map_width(self) -> float: ...

    @property
    def map_height(self) -> float: ...


RENDERERS: dict[str, str] = {
    SquareRenderer.kind.value: "square:SquareRenderer",
    HexRenderer.kind.value: "hexes:HexRenderer",
    "territory": "territory:TerritoryRenderer",
}
"""The renderer of each map kind (``map.grid.kind``), as ``module:class`` of
this package."""


def map_kind(scenario: Any) -> str:
    """The kind of ``scenario``'s map: ``"territory"`` for a territory
    scenario (whose module is loaded whenever one exists), else its grid's
    kind."""
    territory = sys.modules.get("engine.territory")
    if territory is not None and isinstance(scenario, territory.TerritoryScenario):
        return "territory"
    return str(scenario.map.grid.kind.value)


def renderer_class(kind: str) -> type[Any]:
    """The renderer class of maps of ``kind``; :class:`ValueError` naming
    the kind when none draws it."""
    try:
        module, name = RENDERERS[kind].split(":")
    except KeyError:
        raise ValueError(f"no renderer for {kind} maps") from None
    cls: type[Any] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return cls


@overload
def renderer_for(scenario: TerritoryScenario) -> TerritoryRenderer: ...


@overload
def renderer_for(scenario: Scenario) -> MapRenderer: ...


def renderer_for(scenario: Any) -> Any:
    """A renderer for the scenario's kind of map."""
    return renderer_class(map_kind(scenario))(scenario)


__all__ = ["DEFAULT_LAYERS", "LAYERS", "RENDERERS", "HexRenderer", "KindRenderer", "MapRenderer", "SquareRenderer",
           "TileCache", "map_kind", "renderer_class", "renderer_for"]
