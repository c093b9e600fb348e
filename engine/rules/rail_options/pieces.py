"""Rail stations and railroad markers as map pieces: where one may stand,
what a new one holds, how a station's markers change, and the land route a
run of markers is laid along (the editor's Station and Railroad tools ask
these; ``docs/rules/rail-options.md`` describes the features).

A station is the territory feature ``rail_station``, a marker the feature
``railroad``; each is a dict that may hold ``purchased`` (the turn it was
bought) and, for a station, ``damage`` (its damage markers).
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from engine.territory import BorderKind, Territory, TerritoryMap, TerritoryScenario

from . import RailOptionsError, config_from_dict

MAX_DAMAGE = 6
"""Most damage markers a station carries when the options do not say."""
STATION_KEYS = ("damage", "purchased")
"""What the editor sets on a station."""


def max_damage(s: TerritoryScenario) -> int:
    """Most damage markers a station may carry under the scenario's options
    (``max_damage``, :data:`MAX_DAMAGE` by default or when the options are
    malformed)."""
    raw = s.ruleset.options.get("rail_options", {})
    try:
        return config_from_dict(raw if isinstance(raw, dict) else {}).max_damage
    except RailOptionsError:
        return MAX_DAMAGE


def land_reason(t: Territory, what: str) -> str | None:
    """Why ``what`` (a rail station, a railroad marker) cannot stand in
    ``t`` (``None``: it can): not in a sea zone, not in an impassable
    territory."""
    if t.sea:
        return f"{t.name} is a sea zone: a {what} stands on land"
    if t.impassable:
        return f"{t.name} is impassable: no {what} there"
    return None


def new_piece(bought: int) -> dict[str, Any]:
    """A new station or marker: bought on turn ``bought`` (0: part of the
    setup, no ``purchased`` key)."""
    return {"purchased": bought} if bought > 0 else {}


def station_with(station: dict[str, Any], key: str, value: int, top: int) -> dict[str, Any]:
    """``station`` with its ``damage`` or ``purchased`` set to ``value`` (0
    removes the key), as a new dict.  Raises :class:`RailOptionsError` for
    another key, a negative value, or damage over ``top`` markers
    (:func:`max_damage`)."""
    if key not in STATION_KEYS:
        raise RailOptionsError(f"a station has no '{key}' to set (only {' or '.join(STATION_KEYS)})")
    if key == "damage" and not 0 <= value <= top:
        raise RailOptionsError(f"a station carries 0 to {top} damage markers, not {value}")
    if value < 0:
        raise RailOptionsError(f"a station's {key} turn is 0 or later, not {value}")
    new = dict(station)
    if value == 0:
        new.pop(key, None)
    else:
        new[key] = value
    return new


def build_reason(s: TerritoryScenario, tid: str, nation: str, piece: str) -> str | None:
    """Why ``nation`` may not build a ``piece`` (``"station"`` or
    ``"railroad"``) in territory ``tid`` now under the scenario's option
    (``None``: it may): an option without such pieces, one already there,
    a territory not controlled for 1(+) round, an Option 1 station too far
    from the nation's others along railroad markers
    (:func:`~.economy.build_reason`).  The editor's Station and Railroad
    tools ask it in play mode; the map designer's mode places freely."""
    from .config import config_of
    from .economy import build_reason as reason

    return reason(s, config_of(s.ruleset.options), s.territory(tid), s.side(nation).id, piece)


def land_route(m: TerritoryMap, a: str, b: str) -> list[str] | None:
    """The shortest route from ``a`` to ``b`` (both included) over land a
    railroad marker may stand in (:func:`land_reason`), across any border
    but a closed one; ``None`` when there is none or either end is not on
    the map or not such land."""
    land = [t.id for t in m.territories.values() if land_reason(t, "railroad marker") is None]
    sub = m.graph.subgraph(land)
    view = nx.subgraph_view(sub, filter_edge=lambda u, v: sub.edges[u, v]["border"].kind != BorderKind.CLOSED)
    try:
        return list(nx.shortest_path(view, a, b))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


__all__ = ["MAX_DAMAGE", "STATION_KEYS", "build_reason", "land_reason", "land_route", "max_damage", "new_piece", "station_with"]
