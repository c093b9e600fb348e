"""Map renderers, one per grid kind, looked up from the map's grid kind.

``renderer_for(scenario)`` is the only place that chooses: nothing else in
the app asks which kind of grid it draws.  Add a kind by writing a
:class:`MapRenderer` subclass and listing it in :data:`RENDERERS`.
"""

from __future__ import annotations

from engine.grids import GridKind
from engine.model import Scenario

from .base import DEFAULT_LAYERS, LAYERS, MapRenderer
from .hexes import HexRenderer
from .square import SquareRenderer
from .tiles import TileCache

RENDERERS: dict[GridKind, type[MapRenderer]] = {
    SquareRenderer.kind: SquareRenderer,
    HexRenderer.kind: HexRenderer,
}


def renderer_for(scenario: Scenario) -> MapRenderer:
    """A renderer for the scenario's kind of grid."""
    kind = scenario.map.grid.kind
    try:
        cls = RENDERERS[kind]
    except KeyError:
        raise ValueError(f"no renderer for {kind.value} grids") from None
    return cls(scenario)


__all__ = ["DEFAULT_LAYERS", "LAYERS", "RENDERERS", "HexRenderer", "MapRenderer", "SquareRenderer",
           "TileCache", "renderer_for"]
