"""What an edit would change, planned without mutating anything.

Each ``plan_*`` function looks at the scenario and returns the edit record
(:mod:`engine.editing.edits`) that would make the change, or ``None`` (an
empty list for :func:`plan_rivers`) when nothing would change, so the editor
pushes no empty undo step.  Bad input raises :class:`~engine.model.ModelError`
naming the cell, side, unit or value at fault.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..grids import Cell, Edge
from ..model import NO_SIDE, ModelError, Place, Scenario, Unit
from .edits import (
    ArrayLayer,
    BridgeChange,
    CellValues,
    EdgeSetChange,
    Edit,
    NumberingChange,
    PlaceChange,
    UnitChange,
    copy_unit,
)

LINK_KINDS = ("rail", "road")
"""Link kinds the editor's tools lay (a file may hold others; they are kept)."""


def _layer_array(s: Scenario, layer: ArrayLayer, value: int) -> np.ndarray:
    """The array of ``layer``, after checking ``value`` fits it."""
    if layer == "terrain":
        if not 0 <= value < len(s.ruleset.terrain):
            raise ModelError(f"no terrain number {value} (the ruleset has {len(s.ruleset.terrain)})")
        return s.map.terrain
    if value != NO_SIDE and not 0 <= value < len(s.sides):
        raise ModelError(f"no side number {value} (the scenario has {len(s.sides)})")
    return s.map.control


def plan_paint(s: Scenario, layer: ArrayLayer, cells: Iterable[Cell], value: int) -> CellValues | None:
    """Set ``layer`` to ``value`` on ``cells`` (off-map cells ignored);
    ``None`` when every cell already has it.  ``value`` is a terrain index,
    or a side index / :data:`~engine.model.NO_SIDE` for control."""
    gmap = s.map
    arr = _layer_array(s, layer, value)
    pts = [(c.row, c.col) for c in dict.fromkeys(cells) if gmap.grid.contains(c)]
    if not pts:
        return None
    rows = np.fromiter((p[0] for p in pts), np.int64, len(pts))
    cols = np.fromiter((p[1] for p in pts), np.int64, len(pts))
    before = arr[rows, cols]
    changed = before != value
    if not changed.any():
        return None
    rows, cols, before = rows[changed], cols[changed], before[changed]
    return CellValues(layer, rows, cols, before.copy(), np.full(rows.size, value, arr.dtype))


def plan_paint_mask(s: Scenario, layer: ArrayLayer, mask: np.ndarray, value: int) -> CellValues | None:
    """:func:`plan_paint` for the cells of a boolean ``[row, col]`` mask
    (a bucket or rectangle fill), vectorised: a whole-map fill of a
    million cells takes milliseconds."""
    arr = _layer_array(s, layer, value)
    rows, cols = np.nonzero(mask & (arr != value))
    if rows.size == 0:
        return None
    return CellValues(layer, rows, cols, arr[rows, cols].copy(), np.full(rows.size, value, arr.dtype))


def plan_links(s: Scenario, kind: str, path: Sequence[Cell], present: bool = True) -> EdgeSetChange | None:
    """Lay (``present``) or lift links of ``kind`` between successive cells
    of ``path``.  Raises :class:`ModelError` when two successive cells
    cannot be linked (``grid.can_link``); ``None`` when nothing changes."""
    grid = s.map.grid
    edges: set[Edge] = set()
    for a, b in itertools.pairwise(path):
        if a == b:
            continue
        if not (grid.contains(a) and grid.contains(b) and grid.can_link(a, b)):
            raise ModelError(f"{s.map.label(a)} and {s.map.label(b)} are not adjacent, so no {kind} can join them")
        edges.add(Edge.between(a, b))
    return plan_edge_set(s, kind, edges, present)


def plan_edge_set(s: Scenario, layer: str, edges: Iterable[Edge], present: bool) -> EdgeSetChange | None:
    """Add (``present``) or remove ``edges`` in ``layer`` (``rivers`` or a
    link kind); ``None`` when nothing changes."""
    current = s.map.rivers if layer == "rivers" else s.map.links.get(layer, set())
    edges = set(edges)
    if present:
        add = frozenset(edges - current)
        return EdgeSetChange(layer, added=add) if add else None
    rem = frozenset(edges & current)
    return EdgeSetChange(layer, removed=rem) if rem else None


def plan_rivers(s: Scenario, edges: Iterable[Edge], present: bool = True) -> list[Edit]:
    """Lay or remove rivers on sides.  A river lies on the side two cells
    share, never in a cell: sides of cells that only touch at a corner are
    refused with :class:`ModelError`.  Removing a river removes its bridge.
    An empty list when nothing changes."""
    grid = s.map.grid
    edges = list(edges)
    for e in edges:
        if not (grid.contains(e.a) and grid.contains(e.b) and grid.shares_side(e.a, e.b)):
            raise ModelError(f"{s.map.label(e.a)} and {s.map.label(e.b)} share no side, so no river can lie between them")
    out: list[Edit] = []
    if not present:
        for e in sorted(set(edges)):
            kind = s.map.bridges.get(e)
            if kind is not None:
                out.append(BridgeChange(e, kind, None))
    change = plan_edge_set(s, "rivers", edges, present)
    if change is not None:
        out.append(change)
    return out


def plan_bridge(s: Scenario, edge: Edge, kind: str | None) -> BridgeChange | None:
    """Put a bridge of ``kind`` (``rail`` or ``road``) on a river side, or
    remove it (``kind=None``).  Raises :class:`ModelError` when no river runs
    there; ``None`` when nothing changes."""
    if kind is not None and edge not in s.map.rivers:
        raise ModelError(f"no river runs between {s.map.label(edge.a)} and {s.map.label(edge.b)}, "
                         "so a bridge there crosses nothing")
    before = s.map.bridges.get(edge)
    return None if before == kind else BridgeChange(edge, before, kind)


def plan_place(s: Scenario, cell: Cell, name: str | None, code: str | None = None) -> PlaceChange | None:
    """Name a cell (``name`` empty or ``None``: remove its place).  Raises
    :class:`ModelError` for an off-map cell or a name/code another cell
    already uses; ``None`` when nothing changes."""
    if not s.map.grid.contains(cell):
        raise ModelError(f"{cell!r} is off the map")
    name = (name or "").strip()
    code = (code or "").strip() or None
    before = s.map.places.get(cell)
    after = Place(name, code) if name else None
    if after is not None:
        for key in (name, code):
            if key is None:
                continue
            other = s.map.find_place(key)
            if other is not None and other != cell:
                raise ModelError(f"'{key}' already names {s.map.label(other)}")
    if before == after:
        return None
    return PlaceChange(cell, before, after)


def _unit_index(s: Scenario, unit_id: str) -> int:
    for i, u in enumerate(s.units):
        if u.id == unit_id:
            return i
    raise ModelError(f"no unit '{unit_id}' in scenario '{s.name}'")


def check_unit(s: Scenario, unit: Unit, replacing: str | None = None) -> None:
    """Raise :class:`ModelError` when ``unit`` cannot stand in the scenario:
    empty or duplicate id, unknown side or type, off the map, negative
    strength.  ``replacing`` is the id of the unit it replaces, if any."""
    if not unit.id.strip():
        raise ModelError("a unit needs an id")
    if unit.id != replacing and any(u.id == unit.id for u in s.units):
        raise ModelError(f"unit id '{unit.id}' is already used")
    s.side(unit.side)
    if s.ruleset.unit_types:
        s.ruleset.unit_type(unit.type)
    elif not unit.type.strip():
        raise ModelError("a unit needs a type")
    if not s.map.grid.contains(unit.at):
        raise ModelError(f"{unit.at!r} is off the map")
    if unit.strength < 0:
        raise ModelError(f"strength must be 0 or more, got {unit.strength}")


def plan_add_unit(s: Scenario, unit: Unit) -> UnitChange:
    """Add ``unit`` at the end of the unit list (checked by :func:`check_unit`)."""
    check_unit(s, unit)
    return UnitChange(len(s.units), None, copy_unit(unit))


def plan_update_unit(s: Scenario, unit_id: str, **changes: Any) -> UnitChange | None:
    """Change fields of a unit (``id``, ``side``, ``type``, ``at``,
    ``strength``, ``name``, ``props``); ``None`` when nothing changes."""
    i = _unit_index(s, unit_id)
    old = s.units[i]
    new = replace(copy_unit(old), **changes)
    check_unit(s, new, replacing=old.id)
    if new == old:
        return None
    return UnitChange(i, copy_unit(old), new)


def plan_move_unit(s: Scenario, unit_id: str, to: Cell, props: dict[str, Any] | None = None) -> UnitChange | None:
    """Move a unit to ``to``, setting ``props`` (a rules move order's unit
    properties) at the same time; ``None`` when nothing changes."""
    old = s.units[_unit_index(s, unit_id)]
    merged = dict(old.props)
    merged.update(props or {})
    return plan_update_unit(s, unit_id, at=to, props=merged)


def plan_delete_unit(s: Scenario, unit_id: str) -> UnitChange:
    i = _unit_index(s, unit_id)
    return UnitChange(i, copy_unit(s.units[i]), None)


def next_unit_id(s: Scenario, prefix: str = "u") -> str:
    """The first free id ``prefix1``, ``prefix2``, …"""
    used = {u.id for u in s.units}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def plan_numbering(s: Scenario, data: dict[str, Any]) -> NumberingChange | None:
    """The map's numbering replaced by the one ``data`` describes; ``None``
    when it is the same.  Raises :class:`engine.labels.LabelError` naming
    what is wrong when ``data`` is no numbering, or one that cannot label
    every cell of the map, or whose labels are not all different where the
    map's places and units stand."""
    from ..labels import LabelError
    from ..numbering import numbering_from_dict

    new = numbering_from_dict(data)
    m = s.map
    new.check_fits(m.width, m.height)
    used = {*m.places, *(u.at for u in s.units)}
    seen: dict[str, Any] = {}
    for cell in used:
        text = new.label(cell)
        if new.parse(text) != cell or text in seen:
            raise LabelError(f"'{text}' would name both {m.label(cell)} and {m.label(seen.get(text, cell))}")
        seen[text] = cell
    after = new.to_dict()
    before = m.numbering.to_dict()
    return None if after == before else NumberingChange(before, after)
