"""What a territory-map tool asks the canvas to draw on top of the map:
small Qt-free value types (colours are ``"#rrggbb"`` or ``"#rrggbbaa"``).

The rail-plan and rail-options tools turn engine results (a
:class:`~engine.rules.railroads.RailPlan`, a
:class:`~engine.rules.rail_options.RailReach`) into a
:class:`TerritoryOverlay`; the canvas paints it above the cached static
layer, its still part (shades, the selection, the shaded territories' names,
the shades' texts) from layers cached per overlay and zoom, routes and unit
counters fresh every frame.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shade:
    """Fill a territory (e.g. by the share of its capacity used) and/or
    outline it; ``text`` is drawn under its label (e.g. "2/2")."""

    territory: str
    fill: str | None = None
    outline: str | None = None
    width: float = 3.0
    text: str | None = None


@dataclass(frozen=True)
class Route:
    """A line through the label points of ``territories`` (start first),
    with an arrow head at the end; ``count`` units travel it."""

    territories: tuple[str, ...]
    color: str
    width: float = 3.0
    dashed: bool = False
    count: int = 1


@dataclass(frozen=True)
class TerritoryOverlay:
    shades: tuple[Shade, ...] = ()
    routes: tuple[Route, ...] = ()
    cells: tuple[tuple[int, int], ...] = ()
    """Backdrop cells being painted (painting a new territory)."""
    grid: bool = False
    """Show the backdrop grid's lines (paint mode)."""
    message: str = ""


EMPTY = TerritoryOverlay()

__all__ = ["EMPTY", "Route", "Shade", "TerritoryOverlay"]
