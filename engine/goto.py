"""Go to: what a typed name points at on a map.

Both editors offer Edit > Go to (Ctrl+G).  What a game master may type, and
what it finds, is decided here, without a window:

* on a grid map (:func:`goto_cell`): a unit id, a place name or its code
  (``M`` for Mobile), or a cell label in the map's numbering (``0508``,
  ``C7``) — :meth:`engine.model.GridMap.parse_label`;
* on a territory map (:func:`goto_territory`): a territory id or name, or a
  unit id (the unit's territory) — :meth:`engine.territory.model.TerritoryMap.territory`.

Matching ignores case and surrounding spaces.  A name nothing matches raises
:class:`~engine.model.ModelError` whose message says what was looked for and
what can be typed; :func:`grid_names` and :func:`territory_names` list the
names to complete from.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grids import Cell
from .model import ModelError, Scenario
from .territory.model import TerritoryScenario


@dataclass(frozen=True)
class GridTarget:
    """Where a go-to on a grid map lands: the cell, and what was found there
    (``"unit"``, ``"place"`` or ``"cell"``) with the name people see."""

    cell: Cell
    kind: str
    name: str


@dataclass(frozen=True)
class TerritoryTarget:
    """Where a go-to on a territory map lands: the territory id, and what was
    found (``"territory"`` or ``"unit"``) with the name people see."""

    territory: str
    kind: str
    name: str


def _key(text: str) -> str:
    return text.strip().casefold()


def grid_names(s: Scenario) -> list[str]:
    """The names a go-to on this grid map completes: place names and codes,
    then unit ids, each once, sorted (cell labels are too many to list and
    are typed as they read)."""
    places = sorted({p.name for p in s.map.places.values()} | {p.code for p in s.map.places.values() if p.code},
                    key=str.casefold)
    units = sorted({u.id for u in s.units}, key=str.casefold)
    return places + [u for u in units if u not in places]


def goto_cell(s: Scenario, text: str) -> GridTarget:
    """The cell ``text`` names on the scenario's grid map: a unit id first,
    then a place (name or code), then a cell label.  Raises
    :class:`ModelError` for an empty text or one that names nothing."""
    key = _key(text)
    if not key:
        raise ModelError("type a cell label, a place name or a unit id")
    for u in s.units:
        if u.id.casefold() == key:
            return GridTarget(u.at, "unit", u.id)
    cell = s.map.find_place(text)
    if cell is not None:
        return GridTarget(cell, "place", s.map.places[cell].name)
    try:
        cell = s.map.parse_label(text.strip())
    except ModelError as e:
        raise ModelError(f"no unit, place or cell '{text.strip()}' on this map ({e})") from None
    return GridTarget(cell, "cell", s.map.label(cell))


def territory_names(s: TerritoryScenario) -> list[str]:
    """The names a go-to on this territory map completes: territory names,
    then unit ids, each once, sorted."""
    names = sorted({t.name for t in s.map.territories.values()}, key=str.casefold)
    units = sorted({u.id for u in s.units}, key=str.casefold)
    return names + [u for u in units if u not in names]


def goto_territory(s: TerritoryScenario, text: str) -> TerritoryTarget:
    """The territory ``text`` names: a territory id or name first, then a
    unit id (the territory the unit is in).  Raises :class:`ModelError` for
    an empty text or one that names nothing, suggesting near names."""
    key = _key(text)
    if not key:
        raise ModelError("type a territory name or a unit id")
    try:
        t = s.map.territory(text.strip())
    except ModelError as e:
        for u in s.units:
            if u.id.casefold() == key:
                return TerritoryTarget(u.at, "unit", u.id)
        raise ModelError(f"{e}; no unit has that id either") from None
    return TerritoryTarget(t.id, "territory", t.name)
