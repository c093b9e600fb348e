"""New scenarios: a blank map on a chosen grid and numbering, with the
built-in starting ruleset when no other is chosen."""

from __future__ import annotations

from typing import Any

from ..model import Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType, UnitType, make_grid
from ..numbering import numbering_from_dict


def basic_ruleset() -> tuple[Ruleset, list[Faction]]:
    """The built-in ruleset a new map starts from when no other is chosen:
    common terrain, three unit types and two sides.  The first terrain
    (``clear``) is what the eraser paints."""
    terrain = [
        TerrainType("clear", "Clear", ".", "#d8d9a6", 1),
        TerrainType("forest", "Forest", "f", "#5f8f4e", 2),
        TerrainType("rough", "Rough", "r", "#b39c6f", 2),
        TerrainType("hills", "Hills", "h", "#a98955", 2, elevation=1),
        TerrainType("mountain", "Mountain", "m", "#8a7a6a", 3, elevation=2),
        TerrainType("marsh", "Marsh", "s", "#8fae9a", 3),
        TerrainType("town", "Town", "t", "#c9a0a0", 1),
        TerrainType("water", "Water", "w", "#6c9cc9", 1, impassable=True),
    ]
    units = [UnitType("infantry", "Infantry", 4), UnitType("cavalry", "Cavalry", 8),
             UnitType("artillery", "Artillery", 3)]
    sides = [Faction("blue", "Blue", "#3461b3", "B"), Faction("red", "Red", "#b33434", "R")]
    return Ruleset("basic", terrain, units), sides


def new_scenario(name: str, grid: dict[str, Any], numbering: dict[str, Any],
                 ruleset: Ruleset | None = None, sides: list[Faction] | None = None) -> Scenario:
    """A blank scenario: every cell the ruleset's first terrain, nobody in
    control, no units.  ``grid`` and ``numbering`` are as in the file format
    (``{"kind": "hex", "width": 20, "height": 15, "orientation": "flat",
    "parity": "odd"}``, ``{"scheme": "ccrr"}``).  Raises a ``ValueError``
    (:class:`~engine.grids.GridError`, :class:`~engine.labels.LabelError`,
    :class:`ModelError`) naming what is wrong."""
    from ..io.common import MAX_CELLS, MAX_SIDE

    if not name.strip():
        raise ModelError("a scenario needs a name")
    g = dict(grid)
    kind = g.pop("kind", None)
    w, h = int(g.pop("width", 0)), int(g.pop("height", 0))
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_CELLS:
        raise ModelError(f"{w}x{h} is larger than the limit ({MAX_SIDE} per side, {MAX_CELLS} cells)")
    gr = make_grid(str(kind), w, h, **g)
    num = numbering_from_dict(numbering)
    num.check_fits(w, h)
    if ruleset is None:
        ruleset, default_sides = basic_ruleset()
        sides = default_sides if sides is None else sides
    return Scenario(name.strip(), ruleset, list(sides or []), GridMap(gr, num))
