"""Data-level deltas: what an order or an end of phase changed in a scenario,
as plain JSON data a journal entry keeps, so a game loaded from its file can
be replayed from its turn-0 state and its entries undone (``docs/turns.md``,
"Replay").

A :class:`Snapshot` is taken before and after a step, of what a delta
records (never a whole map): each unit's data, the keys of
``scenario.state`` other than ``game`` (the journal's own), the turn number
and, on territory maps, each territory's data other than its shape.  Of
everything else (a grid map's terrain, control, rivers, bridges, links and
places; a territory map's borders, territories' shapes and label points;
the sides, the ruleset, the name) it keeps a fingerprint per part
(:func:`unrecorded`): a step that changed one cannot be journalled, and
:meth:`Snapshot.delta` refuses it with :class:`UnrecordedChange` naming the
part.  The difference is a delta::

    {"turn": [3, 4],
     "units": {"US-1": [{"at": "0410", ...}, {"at": "0510", ...}], "CS-2": [{...}, null]},
     "order": [["US-1", "CS-2"], ["US-1"]],
     "state": {"acw": [{...}, {...}]},
     "territories": {"posen": [{"controller": "ussr", ...}, {"controller": "germany", ...}]},
     "game": {"acted": {"US-1": [null, ["moved"]]}, "phase": ["movement", "combat"]}}

with ``[before, after]`` pairs (``null`` for a unit that did not exist; for
a unit that stays, only its fields that changed) and only what changed.  ``order`` (the unit ids in file order) is there only
when units were created, removed or reordered.  ``game`` is the difference
of the turn state (:class:`~engine.turns.state.TurnState`).

:func:`apply_delta` applies a delta forwards or backwards and first checks
that the scenario is where the delta starts from, raising
:class:`DeltaMismatch` naming what differs; replay uses that check to find
the first entry whose record does not match the file.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError, Unit

GAME_KEY = "game"
"""Where a game keeps its data in ``scenario.state`` (never part of a delta:
the journal is there)."""

TERRITORY_FIELDS = ("name", "sea", "value", "owner", "controller", "control_since", "control_since_side",
                    "impassable", "features")
"""The fields of a territory an order can change (its shape and label point
it cannot)."""


class DeltaMismatch(ModelError):
    """The scenario is not where a delta starts from: the message says what
    differs (a unit, a state key, a territory, the turn)."""


class UnrecordedChange(ModelError):
    """A step changed a part of the scenario a delta does not record (the
    message names the parts): it cannot be journalled, so it is refused."""


def unrecorded(scenario: Any) -> dict[str, Any]:
    """A fingerprint of each part of ``scenario`` a delta does not record,
    by part name: equal fingerprints mean the part is unchanged.  Arrays
    and collections are hashed by content; shapes, which are never changed
    in place, by identity.  Cheap next to a step (no copy of the map)."""
    m = scenario.map
    out: dict[str, Any] = {"sides": repr(scenario.sides), "ruleset": repr(scenario.ruleset),
                           "name": (scenario.name, scenario.description)}
    if _is_territory(scenario):
        terrs = m.territories
        out["territories"] = tuple(terrs)
        out["shapes"] = tuple((id(t.shape), t.label_at) for t in terrs.values())
        out["borders"] = hash(tuple((b.a, b.b, b.kind, b.name, _text(b.props) if b.props else "")
                                    for b in m.borders()))
    else:
        out["terrain"] = hash(m.terrain.tobytes())
        out["control"] = hash(m.control.tobytes())
        out["rivers"] = hash(frozenset(m.rivers))
        out["bridges"] = hash(frozenset(m.bridges.items()))
        out["links"] = hash(tuple((k, frozenset(v)) for k, v in sorted(m.links.items())))
        out["places"] = hash(tuple((c, p.name, p.code) for c, p in m.places.items()))
    return out


def _is_territory(scenario: Any) -> bool:
    return hasattr(scenario.map, "territories")


def unit_data(scenario: Any, u: Any) -> dict[str, Any]:
    """One unit as plain data, ``at`` written as the file writes it (a
    cell's label on a grid map, a territory id on a territory map)."""
    at = u.at if _is_territory(scenario) else scenario.map.label(u.at)
    return {"side": u.side, "type": u.type, "at": at, "strength": u.strength, "name": u.name,
            "props": _copy(u.props)}


def _text(value: Any) -> str:
    """JSON text keeping the keys' order (the file keeps it, and undo must
    give back the same file)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _unit_key(u: Any) -> tuple[Any, ...]:
    return (u.side, u.type, u.at, u.strength, u.name, _text(u.props) if u.props else "")


def territory_data(t: Any) -> dict[str, Any]:
    """A territory's fields an order can change, as plain data (a copy)."""
    return _territory_data(t)


def _territory_data(t: Any) -> dict[str, Any]:
    return {f: copy.deepcopy(getattr(t, f)) for f in TERRITORY_FIELDS}


def _territory_key(t: Any) -> tuple[Any, ...]:
    return (t.name, t.sea, t.value, t.owner, t.controller, t.control_since, t.control_since_side, t.impassable,
            _text(t.features) if t.features else "")


@dataclass(frozen=True)
class Snapshot:
    """What orders can change, keyed for a cheap comparison (see the module
    docstring); :meth:`delta` turns two snapshots into a delta."""

    turn: int
    order: tuple[str, ...]
    units: dict[str, tuple[Any, ...]]
    state: dict[str, str]
    territories: dict[str, tuple[Any, ...]]
    rest: dict[str, Any]
    """:func:`unrecorded`: the fingerprint of what a delta does not record."""

    @classmethod
    def take(cls, scenario: Any) -> Snapshot:
        terrs = ({tid: _territory_key(t) for tid, t in scenario.map.territories.items()}
                 if _is_territory(scenario) else {})
        return cls(int(scenario.turn), tuple(u.id for u in scenario.units),
                   {u.id: _unit_key(u) for u in scenario.units},
                   {k: _text(v) for k, v in scenario.state.items() if k != GAME_KEY}, terrs, unrecorded(scenario))

    def delta(self, scenario: Any, before: Snapshot) -> dict[str, Any]:
        """The delta from ``before`` to this snapshot, both sides read from
        the snapshots' keys (``scenario`` only names cells by their labels),
        so it can be taken after the scenario moved on.  Raises
        :class:`UnrecordedChange` naming the parts a delta does not record
        that differ."""
        changed = [k for k in self.rest if before.rest.get(k) != self.rest[k]]
        if changed:
            raise UnrecordedChange(f"the step changed the {_or_and(changed)}, which a journal entry cannot "
                                   f"record (it records units, state, the turn and territories' data)")
        out: dict[str, Any] = {}
        if before.turn != self.turn:
            out["turn"] = [before.turn, self.turn]
        units: dict[str, Any] = {}
        for uid in before.units.keys() | self.units.keys():
            b, a = before.units.get(uid), self.units.get(uid)
            if b != a:
                bd = None if b is None else _key_unit_data(scenario, b)
                ad = None if a is None else _key_unit_data(scenario, a)
                if bd is not None and ad is not None:  # a unit that stays: only the fields that changed
                    keys = [k for k in bd if bd[k] != ad[k]]
                    bd, ad = {k: bd[k] for k in keys}, {k: ad[k] for k in keys}
                units[uid] = [bd, ad]
        if units:
            out["units"] = dict(sorted(units.items()))
        if before.order != self.order:
            out["order"] = [list(before.order), list(self.order)]
        state = {k: [_loads(before.state.get(k)), _loads(self.state.get(k))]
                 for k in sorted(before.state.keys() | self.state.keys()) if before.state.get(k) != self.state.get(k)}
        if state:
            out["state"] = state
        terrs = {}
        for tid in sorted(self.territories):
            b, a = before.territories.get(tid), self.territories[tid]
            if b != a and b is not None:
                terrs[tid] = [_key_territory_data(b), _key_territory_data(a)]
        if terrs:
            out["territories"] = terrs
        return out


def _or_and(parts: list[str]) -> str:
    names = {"name": "scenario's name", "territories": "list of territories",
             "shapes": "territories' shapes or label points"}
    words = [names.get(p, "map's " + p if p in ("terrain", "control", "rivers", "bridges", "links", "places",
                                                   "borders") else p) for p in parts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _key_unit_data(scenario: Any, key: tuple[Any, ...]) -> dict[str, Any]:
    side, type_, at, strength, name, props = key
    if not _is_territory(scenario):
        at = scenario.map.label(at)
    return {"side": side, "type": type_, "at": at, "strength": strength, "name": name,
            "props": json.loads(props) if props else {}}


def _key_territory_data(key: tuple[Any, ...]) -> dict[str, Any]:
    values = list(key[:-1]) + [json.loads(key[-1]) if key[-1] else {}]
    return dict(zip(TERRITORY_FIELDS, values, strict=True))


def diff_turn(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The difference of two turn states' data (``TurnState.to_data()``):
    scalars as ``[before, after]``, the ``acted``/``used``/``banked`` objects
    key by key."""
    out: dict[str, Any] = {}
    for k in sorted(before.keys() | after.keys()):
        b, a = before.get(k), after.get(k)
        if b == a:
            continue
        if isinstance(b, Mapping) and isinstance(a, Mapping):
            out[k] = {kk: [b.get(kk), a.get(kk)] for kk in sorted(b.keys() | a.keys()) if b.get(kk) != a.get(kk)}
        else:
            out[k] = [b, a]
    return out


def apply_turn(data: dict[str, Any], diff: Mapping[str, Any], forward: bool, where: str) -> dict[str, Any]:
    """Apply ``diff`` (forwards or backwards) to the turn state's data
    ``data``, in place (its objects are replaced, not changed, so a copy
    made by ``dict(data)`` stays as it was), and return it;
    :class:`DeltaMismatch` when ``data`` is not where the diff starts."""
    src, dst = (0, 1) if forward else (1, 0)
    out = data
    for k, change in diff.items():
        if isinstance(change, Mapping):
            old = out.get(k, {})
            if not isinstance(old, dict):
                raise DeltaMismatch(f"{where}: the turn's {k} is not an object")
            sub = dict(old)
            for kk, pair in change.items():
                if sub.get(kk) != pair[src]:
                    raise DeltaMismatch(f"{where}: the turn's {k}.{kk} is {sub.get(kk)!r}, "
                                        f"the record says {pair[src]!r}")
                if pair[dst] is None:
                    sub.pop(kk, None)
                else:
                    sub[kk] = pair[dst]
            out[k] = dict(sorted(sub.items()))
        else:
            if out.get(k) != change[src]:
                raise DeltaMismatch(f"{where}: the turn's {k} is {out.get(k)!r}, the record says {change[src]!r}")
            out[k] = change[dst]
    return out


def apply_delta(scenario: Any, delta: Mapping[str, Any], forward: bool = True, where: str = "the record",
                check: bool = True) -> None:
    """Apply ``delta`` (without its ``game`` part) to ``scenario``, forwards
    or backwards.  Everything is checked before anything changes: a
    :class:`DeltaMismatch` names the first unit, state key, territory or the
    turn that is not where the delta starts, and leaves the scenario as it
    was.  ``where`` names the entry in messages.  ``check`` false skips the
    check (for a replay forwards over deltas the walk back has checked)."""
    src, dst = (0, 1) if forward else (1, 0)
    try:
        if check:
            _check(scenario, delta, src, where)
    except (KeyError, TypeError, IndexError, ValueError, ModelError) as e:
        if isinstance(e, DeltaMismatch):
            raise
        raise DeltaMismatch(f"{where}: its record cannot be read ({e})") from None
    if "turn" in delta:
        scenario.turn = delta["turn"][dst]
    units = delta.get("units", {})
    if units:
        by_id = {u.id: u for u in scenario.units}
        for uid, pair in units.items():
            data = pair[dst]
            if data is None:
                by_id.pop(uid, None)
            elif uid in by_id:
                _set_unit(scenario, by_id[uid], data)
            else:
                by_id[uid] = _new_unit(scenario, uid, data)
        if "order" in delta:
            ids = delta["order"][dst]
        else:
            ids = [u.id for u in scenario.units if u.id in by_id]
        scenario.units[:] = [by_id[i] for i in ids]
    for key, pair in delta.get("state", {}).items():
        if pair[dst] is None:
            scenario.state.pop(key, None)
        else:
            scenario.state[key] = copy.deepcopy(pair[dst])
    for tid, pair in delta.get("territories", {}).items():
        t = scenario.map.territories[tid]
        for f in TERRITORY_FIELDS:
            setattr(t, f, copy.deepcopy(pair[dst][f]))


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _opt_text(v: Any) -> bool:
    return v is None or isinstance(v, str)


UNIT_FIELD_TYPES: dict[str, tuple[str, Any]] = {
    "side": ("text", lambda v: isinstance(v, str)),
    "type": ("text", lambda v: isinstance(v, str)),
    "at": ("a place (text)", lambda v: isinstance(v, str)),
    "strength": ("a whole number", _whole),
    "name": ("text or null", _opt_text),
    "props": ("an object", lambda v: isinstance(v, dict)),
}
"""The fields of a unit in a delta, what each must be, and the test."""

TERRITORY_FIELD_TYPES: dict[str, tuple[str, Any]] = {
    "name": ("text", lambda v: isinstance(v, str)),
    "sea": ("true or false", lambda v: isinstance(v, bool)),
    "value": ("a whole number", _whole),
    "owner": ("a side (text) or null", _opt_text),
    "controller": ("a side (text) or null", _opt_text),
    "control_since": ("a whole number", _whole),
    "control_since_side": ("a side (text) or null", _opt_text),
    "impassable": ("true or false", lambda v: isinstance(v, bool)),
    "features": ("an object", lambda v: isinstance(v, dict)),
}
"""The fields of a territory in a delta, what each must be, and the test."""

TURN_FIELD_TYPES: dict[str, tuple[str, Any]] = {
    "turn": ("a whole number", _whole),
    "phase": ("text", lambda v: isinstance(v, str)),
    "side": ("a side (text) or null", _opt_text),
}
"""The scalar fields of the turn state a delta's ``game`` part may change."""

TURN_MAPS: dict[str, tuple[str, Any]] = {
    "acted": ("a list of actions (text) or null",
              lambda v: v is None or (isinstance(v, list) and all(isinstance(a, str) for a in v))),
    "used": ("a whole number or null", lambda v: v is None or _whole(v)),
    "banked": ("a whole number or null", lambda v: v is None or _whole(v)),
}
"""The object fields of the turn state a delta's ``game`` part may change, by key."""


def _shown_value(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _pair(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2


def check_shape(scenario: Any, delta: Any, where: str) -> None:
    """Refuse a delta whose parts are not of the types :func:`apply_delta`
    and :func:`apply_turn` read (a hand-made or damaged record whose hash
    was computed again): :class:`DeltaMismatch` names the field
    (``effect.delta.units.US-1[1].at``) and what it must be.  Labels are
    checked against the map (a grid's cells, a territory map's ids)."""
    at = f"{where}: effect.delta"
    if not isinstance(delta, Mapping):
        raise DeltaMismatch(f"{at}: expected an object, got {_shown_value(delta)}")
    for key in delta:
        if key not in ("turn", "units", "order", "state", "territories", "game"):
            raise DeltaMismatch(f"{at}.{key}: not a part of a delta (turn, units, order, state, territories, game)")
    if "turn" in delta:
        t = delta["turn"]
        if not (_pair(t) and all(_whole(x) and 0 <= x < 2**31 for x in t)):
            raise DeltaMismatch(f"{at}.turn: expected [before, after] turn numbers, got {_shown_value(t)}")
    units = delta.get("units", {})
    if not isinstance(units, Mapping):
        raise DeltaMismatch(f"{at}.units: expected an object of unit ids, got {_shown_value(units)}")
    for uid, pair in units.items():
        if not _pair(pair):
            raise DeltaMismatch(f"{at}.units.{uid}: expected [before, after], got {_shown_value(pair)}")
        for side, data in enumerate(pair):
            if data is None:
                continue
            if not isinstance(data, Mapping):
                raise DeltaMismatch(f"{at}.units.{uid}[{side}]: expected a unit's fields or null, "
                                    f"got {_shown_value(data)}")
            whole = pair[1 - side] is None  # a unit created or removed: every field is there
            for k, (what, ok) in UNIT_FIELD_TYPES.items():
                if k not in data:
                    if whole:
                        raise DeltaMismatch(f"{at}.units.{uid}[{side}]: has no {k}")
                    continue
                if not ok(data[k]):
                    raise DeltaMismatch(f"{at}.units.{uid}[{side}].{k}: expected {what}, got {_shown_value(data[k])}")
            for k in data:
                if k not in UNIT_FIELD_TYPES:
                    raise DeltaMismatch(f"{at}.units.{uid}[{side}].{k}: not a field of a unit")
            if "at" in data:
                _check_place(scenario, data["at"], f"{at}.units.{uid}[{side}].at")
    if "order" in delta:
        o = delta["order"]
        if not (_pair(o) and all(isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in o)):
            raise DeltaMismatch(f"{at}.order: expected [before, after] lists of unit ids, got {_shown_value(o)}")
        for side, ids in enumerate(o):
            if len(set(ids)) != len(ids):
                raise DeltaMismatch(f"{at}.order[{side}]: names a unit twice")
        for uid in set(o[0]) ^ set(o[1]):
            pair = units.get(uid)
            side = 0 if uid in o[0] else 1
            if pair is None or pair[side] is None or pair[1 - side] is not None:
                raise DeltaMismatch(f"{at}.order: unit {uid} is in one list and not the other, but the delta "
                                    f"does not {'remove' if side == 0 else 'create'} it")
    made = [uid for uid, pair in units.items() if pair[0] is None or pair[1] is None]
    if made and "order" not in delta:
        raise DeltaMismatch(f"{at}.units.{made[0]}: a unit created or removed needs the units' order "
                            f"(effect.delta.order)")
    state = delta.get("state", {})
    if not isinstance(state, Mapping) or not all(_pair(p) for p in state.values()):
        raise DeltaMismatch(f"{at}.state: expected an object of [before, after] pairs, got {_shown_value(state)}")
    if GAME_KEY in state:
        raise DeltaMismatch(f"{at}.state.{GAME_KEY}: the game's own data is never part of a delta")
    terrs = delta.get("territories", {})
    if not isinstance(terrs, Mapping):
        raise DeltaMismatch(f"{at}.territories: expected an object of territory ids, got {_shown_value(terrs)}")
    if terrs and not _is_territory(scenario):
        raise DeltaMismatch(f"{at}.territories: this map has no territories")
    for tid, pair in terrs.items():
        if not _pair(pair):
            raise DeltaMismatch(f"{at}.territories.{tid}: expected [before, after], got {_shown_value(pair)}")
        if tid not in scenario.map.territories:
            raise DeltaMismatch(f"{at}.territories.{tid}: no such territory on the map")
        for side, data in enumerate(pair):
            if not isinstance(data, Mapping):
                raise DeltaMismatch(f"{at}.territories.{tid}[{side}]: expected a territory's fields, "
                                    f"got {_shown_value(data)}")
            for k, (what, ok) in TERRITORY_FIELD_TYPES.items():
                if k not in data:
                    raise DeltaMismatch(f"{at}.territories.{tid}[{side}]: has no {k}")
                if not ok(data[k]):
                    raise DeltaMismatch(f"{at}.territories.{tid}[{side}].{k}: expected {what}, "
                                        f"got {_shown_value(data[k])}")
    check_turn_shape(delta.get("game", {}), f"{at}.game")


def check_turn_shape(diff: Any, at: str) -> None:
    """Refuse a turn-state difference (a delta's ``game`` part) whose parts
    are not of the types :func:`apply_turn` reads; :class:`DeltaMismatch`
    names the field."""
    if not isinstance(diff, Mapping):
        raise DeltaMismatch(f"{at}: expected an object, got {_shown_value(diff)}")
    for k, change in diff.items():
        if k in TURN_FIELD_TYPES:
            what, ok = TURN_FIELD_TYPES[k]
            if not (_pair(change) and all(ok(x) for x in change)):
                raise DeltaMismatch(f"{at}.{k}: expected [before, after], each {what}, got {_shown_value(change)}")
        elif k in TURN_MAPS:
            what, ok = TURN_MAPS[k]
            if not isinstance(change, Mapping):
                raise DeltaMismatch(f"{at}.{k}: expected an object of [before, after] pairs, "
                                    f"got {_shown_value(change)}")
            for kk, pair in change.items():
                if not (_pair(pair) and all(ok(x) for x in pair)):
                    raise DeltaMismatch(f"{at}.{k}.{kk}: expected [before, after], each {what}, "
                                        f"got {_shown_value(pair)}")
        else:
            raise DeltaMismatch(f"{at}.{k}: not a part of the turn state "
                                f"({', '.join([*TURN_FIELD_TYPES, *TURN_MAPS])})")


def _check_place(scenario: Any, label: str, at: str) -> None:
    if _is_territory(scenario):
        if label not in scenario.map.territories:
            raise DeltaMismatch(f"{at}: no territory {_shown_value(label)} on the map")
        return
    try:
        cell = scenario.map.parse_label(label)
        inside = scenario.map.grid.contains(cell)
    except (ValueError, TypeError, OverflowError):
        inside = False
    if not inside:
        raise DeltaMismatch(f"{at}: {_shown_value(label)} is not a cell of the map")


def _check(scenario: Any, delta: Mapping[str, Any], src: int, where: str) -> None:
    if "turn" in delta and scenario.turn != delta["turn"][src]:
        raise DeltaMismatch(f"{where}: the scenario is at turn {scenario.turn}, the record says "
                            f"{delta['turn'][src]}")
    by_id = {u.id: u for u in scenario.units}
    for uid, pair in delta.get("units", {}).items():
        want = pair[src]
        u = by_id.get(uid)
        if want is None:
            if u is not None:
                raise DeltaMismatch(f"{where}: unit {uid} exists, the record says it does not")
        elif u is None:
            raise DeltaMismatch(f"{where}: unit {uid} is missing, the record says it is at {want['at']}")
        else:
            have = unit_data(scenario, u)
            if any(have[k] != v for k, v in want.items()):
                raise DeltaMismatch(f"{where}: unit {uid}: {_show({k: have[k] for k in want})} in the scenario, "
                                    f"{_show(want)} in the record")
    if "order" in delta and [u.id for u in scenario.units] != list(delta["order"][src]):
        raise DeltaMismatch(f"{where}: the units are not in the order the record says")
    for key, pair in delta.get("state", {}).items():
        if scenario.state.get(key) != pair[src]:
            raise DeltaMismatch(f"{where}: state.{key} is not what the record says")
    if delta.get("territories"):
        terrs = scenario.map.territories
        for tid, pair in delta["territories"].items():
            if tid not in terrs:
                raise DeltaMismatch(f"{where}: no territory {tid}")
            if _territory_data(terrs[tid]) != pair[src]:
                raise DeltaMismatch(f"{where}: territory {tid} is not what the record says")


def _copy(value: Any) -> Any:
    """A copy of JSON data that shares nothing mutable (a flat object, the
    usual unit properties, without the cost of a deep copy)."""
    if isinstance(value, dict) and all(v is None or isinstance(v, (str, int, float, bool)) for v in value.values()):
        return dict(value)
    return copy.deepcopy(value)


def _show(d: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v!r}" for k, v in d.items()) or "nothing"


def _set_unit(scenario: Any, u: Any, data: Mapping[str, Any]) -> None:
    """Set the fields ``data`` holds (a delta keeps only those that changed)."""
    for k, v in data.items():
        if k == "at":
            u.at = v if _is_territory(scenario) else scenario.map.parse_label(v)
        elif k == "props":
            u.props = _copy(v)
        elif k in ("side", "type", "strength", "name"):
            setattr(u, k, v)


def _new_unit(scenario: Any, uid: str, data: Mapping[str, Any]) -> Any:
    if _is_territory(scenario):
        from engine.territory.model import TerritoryUnit  # only a territory map's game needs networkx and shapely

        return TerritoryUnit(uid, data["side"], data["type"], data["at"], data["strength"], data["name"],
                             copy.deepcopy(data["props"]))
    return Unit(uid, data["side"], data["type"], scenario.map.parse_label(data["at"]), data["strength"],
                data["name"], copy.deepcopy(data["props"]))
