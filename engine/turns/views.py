"""What each side sees: hidden units, and a side's own file of the game.

A scenario says what a side sees in ``state.visibility`` (absent: every
side sees everything, which is what the built-in systems' documents imply,
none of them hiding units)::

    "visibility": {"sighting": {"cav": 4, "default": 2}, "identify": {"default": 1}}    (grid maps)
    "visibility": {"by": "territory", "adjacent": "a unit"}                             (territory maps)

On a grid map an enemy unit is seen when it stands within the *sighting*
range (in cells) of one of the side's units (the range of the sighting
unit's type, else ``default``), and identified within its *identify* range
(default: the sighting range); a unit seen but not identified is shown as
"a unit" (an anonymous marker of its side, type ``unknown``).  On a
territory map a side sees the enemy units in the territories it holds or
stands in, and ``adjacent`` ones (``"shown"``, ``"a unit"``, ``"hidden"``;
default ``"a unit"``).

:func:`side_view` makes a side's file: a copy of the scenario with its own
units, the enemy units it sees and markers for those it sees but cannot
identify; the game's journal is replaced by ``state.side_view``: each entry
whole where it names no hidden unit, else with the fields that name one
withheld (``"withheld": ["effect", ...]``: its turn, phase, side, kind,
``prev`` and ``hash`` always stay).  Every entry's hash still links to the
next (``prev``), so the chain of the side's file is checked
(:func:`check_side_view`): a whole entry is hashed again, an entry with a
field withheld keeps its hash as the game master's record gave it.  In a
signed game each entry's hash carries the game master's signature, and the
export itself (every field it shows, :func:`export_text`) is signed too, so
neither a withheld entry nor the fields shown beside it can be forged; an
unsigned game's side file vouches for its whole entries only.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError

from .journal import GENESIS, _entry, canonical_json

VIEW_KEY = "side_view"
"""The key of ``scenario.state`` a side's file keeps its view of the game under."""
VISIBILITY_KEY = "visibility"
"""The key of ``scenario.state`` that says what each side sees."""
UNKNOWN_TYPE = "unknown"
"""The unit type of a marker for a unit seen but not identified."""
ADJACENT = ("shown", "a unit", "hidden")
REDACTABLE = ("summary", "order", "verdict", "reasons", "effect", "time")
"""The fields of an entry a side's file may withhold (its turn, phase,
side, kind, ``prev`` and ``hash`` always stay)."""


@dataclass(frozen=True)
class Visibility:
    """What sides see: ``mode`` ``"all"``, ``"sighting"`` (grid) or
    ``"territory"``."""

    mode: str = "all"
    sighting: Mapping[str, int] | None = None
    identify: Mapping[str, int] | None = None
    adjacent: str = "a unit"


def _ranges(v: Any, where: str) -> dict[str, int]:
    if not isinstance(v, Mapping) or not all(isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool)
                                             and 0 <= n <= 1000 for k, n in v.items()):
        raise ModelError(f"{where}: expected an object of unit type -> range in cells (0 to 1000), got {v!r}")
    return dict(v)


def visibility(scenario: Any) -> Visibility:
    """The scenario's ``state.visibility`` (:class:`ModelError` names a
    malformed key)."""
    raw = scenario.state.get(VISIBILITY_KEY)
    where = f"state.{VISIBILITY_KEY}"
    if raw is None:
        return Visibility()
    if not isinstance(raw, Mapping):
        raise ModelError(f"{where}: expected an object, got {raw!r}")
    territorial = getattr(scenario.map, "territories", None) is not None
    unknown = sorted(set(raw) - {"by", "sighting", "identify", "adjacent"})
    if unknown:
        raise ModelError(f"{where}: unknown key {unknown[0]!r} (keys: by, sighting, identify, adjacent)")
    if raw.get("by", "territory" if territorial else "sighting") == "all":
        return Visibility()
    if territorial:
        if raw.get("by", "territory") != "territory":
            raise ModelError(f"{where}.by: a territory map's sides see by \"territory\" (or \"all\")")
        adjacent = raw.get("adjacent", "a unit")
        if adjacent not in ADJACENT:
            raise ModelError(f"{where}.adjacent: expected one of {', '.join(ADJACENT)}, got {adjacent!r}")
        return Visibility("territory", adjacent=str(adjacent))
    if raw.get("by", "sighting") != "sighting":
        raise ModelError(f"{where}.by: a grid map's sides see by \"sighting\" (or \"all\")")
    sighting = _ranges(raw.get("sighting", {}), f"{where}.sighting")
    identify = _ranges(raw.get("identify", sighting), f"{where}.identify")
    return Visibility("sighting", sighting, identify)


def _range(ranges: Mapping[str, int] | None, unit_type: str) -> int:
    r = ranges or {}
    return int(r.get(unit_type, r.get("default", 0)))


def seen(scenario: Any, side: str) -> tuple[set[str], set[str]]:
    """The enemy units ``side`` sees and identifies, and those it sees but
    cannot identify (by id).  A unit of its own side or an ally is always
    identified."""
    v = visibility(scenario)
    units = list(scenario.units)
    allied = getattr(scenario, "allied", None)

    def friend(u: Any) -> bool:
        return bool(u.side == side or (allied is not None and allied(u.side, side)))

    own = [u for u in units if friend(u)]
    enemies = [u for u in units if not friend(u)]
    if v.mode == "all":
        return {u.id for u in units}, set()
    full: set[str] = {u.id for u in own}
    vague: set[str] = set()
    if v.mode == "sighting":
        grid = scenario.map.grid
        for e in enemies:
            near = [(grid.distance(o.at, e.at), o.type) for o in own]
            if any(d <= _range(v.identify, t) for d, t in near):
                full.add(e.id)
            elif any(d <= _range(v.sighting, t) for d, t in near):
                vague.add(e.id)
        return full, vague
    held = {tid for tid, t in scenario.map.territories.items() if t.controller is not None
            and (t.controller == side or (allied is not None and allied(t.controller, side)))}
    held |= {o.at for o in own}
    near_by = {n for tid in held for n in scenario.map.neighbours(tid)} - held
    for e in enemies:
        if e.at in held or (e.at in near_by and v.adjacent == "shown"):
            full.add(e.id)
        elif e.at in near_by and v.adjacent == "a unit":
            vague.add(e.id)
    return full, vague


def _mentions(text: str, tokens: Sequence[str]) -> bool:
    return any(f'"{t}"' in text or f"{t} " in text or f" {t}" in text for t in tokens)


def side_view(game: Any, side: str, sign: Any = None) -> Any:
    """A copy of ``game``'s scenario as ``side`` sees it (module docstring);
    ``sign(text) -> signature`` is the game master's key (a signed game's
    export is signed)."""
    s = game.scenario
    side = str(s.side(side).id)  # ModelError names an unknown side
    full, vague = seen(s, side)
    hidden = [u for u in s.units if u.id not in full]
    tokens = [u.id for u in hidden]
    if getattr(s.map, "territories", None) is None:  # a cell's label says where a unit stands; a territory is the map's
        tokens += sorted({_where(s, u) for u in hidden} - {_where(s, u) for u in s.units if u.id in full})
    state = {k: copy.deepcopy(v) for k, v in s.state.items() if k != "game"}
    out = _copy_without_game(s)
    kept = []
    markers = 0
    taken = {u.id for u in s.units}
    for u in out.units:
        if u.id in full:
            kept.append(u)
        elif u.id in vague:
            markers += 1
            while f"unit-{markers}" in taken:
                markers += 1
            u.id = f"unit-{markers}"
            u.type = UNKNOWN_TYPE
            u.name = None
            u.strength = 1
            u.props = {"unidentified": True}
            kept.append(u)
    out.units[:] = kept
    if markers and all(t.id != UNKNOWN_TYPE for t in out.ruleset.unit_types):
        from engine.model import UnitType

        out.ruleset.unit_types.append(UnitType(UNKNOWN_TYPE, "A unit (not identified)", 0, {}))
    out.state = _scrub(state, tokens)
    if _mentions(f" {getattr(out, 'description', '')} ".replace(".", " ").replace(",", " "), tokens):
        out.description = "(withheld from this side's file: it names a unit the side does not see)"
    entries = []
    withheld = 0
    for i in range(len(game.journal)):
        line = game.journal.lines.lines[i]
        e = game.journal[i]
        data = e.to_data()
        if _mentions(line, tokens):
            withheld += 1
            hide = [k for k in REDACTABLE if _mentions(canonical_json(data[k]), tokens)]
            if hide:
                data = {k: v for k, v in data.items() if k not in hide}
                data["withheld"] = hide
        entries.append(data)
    count, head = len(game.journal), game.journal.head
    shown = sum(1 for u in out.units if u.type == UNKNOWN_TYPE and u.props.get("unidentified"))
    view: dict[str, Any] = {"side": side, "system": game.system.name, "count": count, "head": head,
                            "hidden": len(hidden) - shown, "markers": shown, "withheld": withheld,
                            "turn": {"turn": game.turn.turn, "phase": game.turn.phase, "side": game.turn.side},
                            "entries": entries}
    if game.signing is not None:
        view["signing"] = {"key": game.signing.key, "signatures": list(game.signing.signatures), "export": ""}
        view["signing"]["export"] = sign(export_text(view)) if sign is not None else ""
    out.state[VIEW_KEY] = view
    return out


def export_text(view: Mapping[str, Any]) -> str:
    """The text a side's export is signed over: the SHA-256 of the
    canonical JSON of its view of the game (its export signature aside), so
    every field it shows, the withheld entries' too, is the game master's."""
    body = dict(view)
    signing = dict(body.get("signing") or {})
    signing.pop("export", None)
    body["signing"] = signing
    return "side-export\n" + hashlib.sha256(canonical_json(body).encode("utf-8", "surrogatepass")).hexdigest()


def _where(s: Any, u: Any) -> str:
    territories = getattr(s.map, "territories", None)
    return str(u.at) if territories is not None else str(s.map.label(u.at))


def _copy_without_game(s: Any) -> Any:
    full = s.state
    s.state = {k: v for k, v in full.items() if k != "game"}
    try:
        return s.copy()
    finally:
        s.state = full


def _scrub(value: Any, tokens: Sequence[str]) -> Any:
    """``value`` without the object keys, list items and text that name a
    hidden unit."""
    if isinstance(value, Mapping):
        return {k: _scrub(v, tokens) for k, v in value.items()
                if k not in tokens and not _mentions(canonical_json(v), tokens)}
    if isinstance(value, list):
        return [_scrub(v, tokens) for v in value if not _mentions(canonical_json(v), tokens)]
    return value


def is_side_file(scenario: Any) -> bool:
    return isinstance(getattr(scenario, "state", None), Mapping) and VIEW_KEY in scenario.state


def check_side_view(scenario: Any) -> list[str]:
    """What is wrong with a side's file's view of the game: an entry changed
    (a whole entry whose content no longer matches its hash), out of order,
    missing or added; in a signed game a signature that is not the game
    master's."""
    view = scenario.state.get(VIEW_KEY)
    where = f"state.{VIEW_KEY}"
    if not isinstance(view, Mapping) or not isinstance(view.get("entries"), list):
        return [f"{where}: expected an object with the side's entries"]
    raw = view["entries"]
    prev = GENESIS
    hashes: list[str] = []
    labels: list[str] = []
    for i, d in enumerate(raw):
        w = f"{where}.entries[{i}]"
        if not isinstance(d, Mapping):
            return [f"{w}: expected an object"]
        if "withheld" in d:
            h, p = d.get("hash"), d.get("prev")
            if not isinstance(h, str) or not isinstance(p, str):
                return [f"{w}: a withheld entry keeps its prev and hash"]
            label = f"entry {i + 1} (turn {d.get('turn')}, {d.get('kind')}, partly withheld)"
        else:
            try:
                e = _entry(d, w)
            except ModelError as err:
                return [str(err)]
            body = {k: v for k, v in d.items() if k != "hash"}
            if e.hash != hashlib.sha256((e.prev + "\n" + canonical_json(body)).encode("utf-8",
                                                                                      "surrogatepass")).hexdigest():
                return [f"{where}: {e.label(i + 1)} was changed after it was written (its content does not match "
                        f"its hash)"]
            h, p, label = e.hash, e.prev, e.label(i + 1)
        if p != prev:
            return [f"{where}: {label} is out of order: it does not follow entry {i}"]
        prev = h
        hashes.append(h)
        labels.append(label)
    count, head = view.get("count"), view.get("head")
    if count != len(raw) or head != prev:
        return [f"{where}: the side's journal records {count} entries ending at {str(head)[:12]}; it holds "
                f"{len(raw)} ending at {prev[:12]}: entries were added or removed"]
    signing = view.get("signing")
    if signing is None:
        return []
    from .signing import SignatureError, Signatures, check, verify

    try:
        sig = Signatures.from_data({"algorithm": "ed25519", "key": signing.get("key"),
                                    "signatures": signing.get("signatures"), "seal": ""}, f"{where}.signing")
        handed = {i: str(d.get("effect", {}).get("key")) for i, d in enumerate(raw)
                  if "effect" in d and d.get("kind") == "key"}
        verify(sig, hashes, lambda i: labels[i], handed, None, f"{where}.signing")
    except SignatureError as err:
        return [str(err)]
    key = sig.key_at(handed, len(hashes) - 1)
    if not check(key, export_text(view), str(signing.get("export", ""))):
        return [f"{where}.signing.export: the export is not signed by the game master's key: an entry was changed "
                f"or dropped, or the file was made by someone else"]
    return []
