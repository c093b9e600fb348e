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
whole where it names no hidden unit, else redacted.

In a format-3 journal (``engine/turns/journal.py``) an entry's hash commits
to its parts, so a redacted entry keeps what it withholds as commitments:
its public fields (turn, phase, side, kind, system), ``prev`` and ``hash``,
each part it shows (the summary, the reasons, the time, each key of the
order, the verdict and the effect that names no hidden unit) with that
part's salt under ``salts``, and under ``withheld`` the commitments of the
parts it withholds, by field (sorted, without the keys they are for)::

    {"turn": 1, ..., "summary": "...", "order": {}, "verdict": {},
     "effect": {"turn": {...}}, "time": null, "prev": "...", "hash": "...",
     "salts": {"summary": "<32 hex>", "effect": {"turn": "<32 hex>"}, ...},
     "withheld": {"reasons": ["<64 hex>"], "effect": ["<64 hex>", ...]}}

The chain of a side's file is checked whole (:func:`check_side_view`):
every entry's hash is computed again, a redacted one's from the parts it
shows and the commitments it keeps, and each follows the one before.  What
the chain cannot show is that its hashes are the game master's: whoever
holds the file can change a part it shows and compute every hash after it
again.  A head the game master gave out (``validate --head``) or his
signatures (a signed game: each entry's hash and the export itself) close
that.  A side's file of a format-2 game withholds whole fields
(``"withheld": ["effect", ...]``) and keeps such an entry's hash as the
game master gave it, unchecked but for a signed game's signatures.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError

from .journal import (
    COMMITTED,
    ENTRY_KEYS,
    ENTRY_KEYS_COMMITTED,
    GENESIS,
    KEYED_PARTS,
    PUBLIC,
    WHOLE_PARTS,
    _digest_text,
    _entry,
    canonical_json,
    commit_text,
    commitment,
    entry_hash,
    part_salt,
)

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
    committed = game.journal.format >= COMMITTED
    lines = game.journal.lines.lines
    for i in range(len(game.journal)):
        line = lines[i]
        e = game.journal[i]
        data = e.to_data()
        if _mentions(line, tokens):
            if committed:
                data = redacted(data, tokens)
            else:
                hide = [k for k in REDACTABLE if _mentions(canonical_json(data[k]), tokens)]
                if hide:
                    data = {k: v for k, v in data.items() if k not in hide}
                    data["withheld"] = hide
            withheld += bool(data.get("withheld"))
        entries.append(data)
    count, head = len(game.journal), game.journal.head
    shown = sum(1 for u in out.units if u.type == UNKNOWN_TYPE and u.props.get("unidentified"))
    view: dict[str, Any] = {"format": game.journal.format, "side": side, "system": game.system.name,
                            "count": count, "head": head,
                            "hidden": len(hidden) - shown, "markers": shown, "withheld": withheld,
                            "turn": {"turn": game.turn.turn, "phase": game.turn.phase, "side": game.turn.side},
                            "entries": entries}
    if game.signing is not None:
        view["signing"] = {"key": game.signing.key, "signatures": list(game.signing.signatures), "export": ""}
        view["signing"]["export"] = sign(export_text(view)) if sign is not None else ""
    out.state[VIEW_KEY] = view
    return out


def redacted(data: Mapping[str, Any], tokens: Sequence[str]) -> dict[str, Any]:
    """A format-3 entry's data (``Entry.to_data()``) with every part that
    names one of ``tokens`` withheld (module docstring); the data as it is
    when none does."""
    salt = str(data["salt"])
    out: dict[str, Any] = {k: data[k] for k in PUBLIC}
    salts: dict[str, Any] = {}
    withheld: dict[str, list[str]] = {}
    for name in WHOLE_PARTS:
        text = canonical_json(data[name])
        if _mentions(text, tokens):
            withheld[name] = [commitment(part_salt(salt, name), name, text)]
        else:
            out[name] = data[name]
            salts[name] = part_salt(salt, name)
    for name in KEYED_PARTS:
        shown: dict[str, Any] = {}
        shown_salts: dict[str, str] = {}
        hidden: list[str] = []
        for k, v in data[name].items():
            path, text = f"{name}.{k}", canonical_json(v)
            if _mentions(text, tokens) or _mentions(canonical_json(k), tokens):
                hidden.append(commitment(part_salt(salt, path), path, text))
            else:
                shown[k] = v
                shown_salts[k] = part_salt(salt, path)
        if shown or not hidden:
            out[name] = shown
        if shown_salts:
            salts[name] = shown_salts
        if hidden:
            withheld[name] = sorted(hidden)
    if not withheld:
        return dict(data)
    out.update(prev=data["prev"], hash=data["hash"], salts=salts, withheld=withheld)
    return out


REDACTED_KEYS = frozenset(PUBLIC) | set(WHOLE_PARTS) | set(KEYED_PARTS) | {"prev", "hash", "salts", "withheld"}
"""The keys a redacted format-3 entry may hold."""


def _hex(v: Any, n: int) -> bool:
    return isinstance(v, str) and len(v) == n and not v.strip("0123456789abcdef")


def _redacted_hash(d: Mapping[str, Any], w: str) -> str:
    """The hash a redacted format-3 entry's shown parts and kept
    commitments give (:class:`ModelError` names what is malformed)."""
    unknown = sorted(set(d) - REDACTED_KEYS)
    if unknown:
        raise ModelError(f"{w}: {unknown[0]!r} is not a field of a redacted entry")
    salts, withheld = d.get("salts"), d.get("withheld")
    if not isinstance(salts, Mapping) or not isinstance(withheld, Mapping):
        raise ModelError(f"{w}: a redacted entry keeps its parts' salts and withheld commitments as objects")
    odd = sorted(set(withheld) - set(WHOLE_PARTS) - set(KEYED_PARTS)) or sorted(
        set(salts) - set(WHOLE_PARTS) - set(KEYED_PARTS))
    if odd:
        raise ModelError(f"{w}: {odd[0]!r} is not a part of an entry")
    prev = str(d.get("prev"))
    parts: dict[str, list[str]] = {}
    for name in WHOLE_PARTS + KEYED_PARTS:
        kept = withheld.get(name, [])
        if not isinstance(kept, list) or not all(_hex(c, 64) for c in kept):
            raise ModelError(f"{w}.withheld.{name}: expected a list of commitments (64 hex digits)")
        if name in WHOLE_PARTS:
            if kept:
                if name in d or name in salts or len(kept) != 1:
                    raise ModelError(f"{w}.{name}: a part is either shown (with its salt) or withheld "
                                     f"(one commitment)")
                parts[name] = kept
                continue
            if name not in d or not _hex(salts.get(name), 32):
                raise ModelError(f"{w}.{name}: a part shown keeps its salt (salts.{name}, 32 hex digits)")
            parts[name] = [commitment(salts[name], name, canonical_json(d[name]))]
            continue
        shown, shown_salts = d.get(name, {}), salts.get(name, {})
        if not isinstance(shown, Mapping) or not isinstance(shown_salts, Mapping) or set(shown) != set(shown_salts) \
                or not all(_hex(x, 32) for x in shown_salts.values()):
            raise ModelError(f"{w}.{name}: each key shown keeps its salt (salts.{name}, 32 hex digits)")
        parts[name] = sorted([commitment(shown_salts[k], f"{name}.{k}", canonical_json(v)) for k, v in shown.items()]
                             + kept)
    return _digest_text(prev, commit_text(d, prev, parts))


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


@dataclass
class SideCheck:
    """What checking a side's file found: its ``problems`` (empty: none),
    the entries (from 1) it shows redacted with their chain checked, those
    whose withheld content the chain could not check (a format-2 game's),
    and the entry whose hash is the head the game master gave out, when
    one was given and found."""

    problems: list[str]
    redacted: list[int]
    unchecked: list[int]
    head_at: int | None = None


def check_side_view(scenario: Any, head: str | None = None) -> list[str]:
    """What is wrong with a side's file's view of the game (see
    :func:`side_check`)."""
    return side_check(scenario, head).problems


def side_check(scenario: Any, head: str | None = None) -> SideCheck:
    """Check a side's file's view of the game: every entry's hash computed
    again (a redacted format-3 entry's from the parts it shows and the
    commitments it keeps), each following the one before, the count and
    head; in a signed game every signature and the export's; with ``head``
    (one the game master gave out) that the chain passes through it.  The
    first problem is named with its entry."""
    view = scenario.state.get(VIEW_KEY)
    where = f"state.{VIEW_KEY}"
    redacted_at: list[int] = []
    unchecked: list[int] = []

    def fail(message: str) -> SideCheck:
        return SideCheck([message], redacted_at, unchecked)

    if not isinstance(view, Mapping) or not isinstance(view.get("entries"), list):
        return fail(f"{where}: expected an object with the side's entries")
    committed = view.get("format") == COMMITTED
    if view.get("format", 2) not in (2, COMMITTED):
        return fail(f"{where}.format: expected 2 or {COMMITTED}, got {view.get('format')!r}")
    raw = view["entries"]
    prev = GENESIS
    hashes: list[str] = []
    labels: list[str] = []
    for i, d in enumerate(raw):
        w = f"{where}.entries[{i}]"
        if not isinstance(d, Mapping):
            return fail(f"{w}: expected an object")
        if isinstance(d.get("withheld"), Mapping) and committed:
            try:
                fill: dict[str, Any] = {"summary": "", "reasons": [], "time": None, "order": {}, "verdict": {}, "effect": {}}
                e = _entry({**fill, **{k: v for k, v in d.items() if k not in ("salts", "withheld")}}, w)
                expected = _redacted_hash(d, w)
            except ModelError as err:
                return fail(str(err))
            except ValueError:
                return fail(f"{w}: holds a number that is not finite")
            h, p = e.hash, e.prev
            label = f"entry {i + 1} (turn {e.turn}, {e.kind}: {e.summary if 'summary' in d else 'withheld'}, redacted)"
            if h != expected:
                return fail(f"{where}: {label} was changed after it was written (what it shows and the commitments "
                            f"it keeps do not match its hash)")
            redacted_at.append(i + 1)
        elif "withheld" in d and not committed:
            kept_hash, kept_prev = d.get("hash"), d.get("prev")
            if not isinstance(kept_hash, str) or not isinstance(kept_prev, str):
                return fail(f"{w}: a withheld entry keeps its prev and hash")
            h, p = kept_hash, kept_prev
            label = f"entry {i + 1} (turn {d.get('turn')}, {d.get('kind')}, partly withheld)"
            unchecked.append(i + 1)
        else:
            try:
                e = _entry(d, w, committed)
            except ModelError as err:
                return fail(str(err))
            keys = ENTRY_KEYS_COMMITTED if committed else ENTRY_KEYS
            if set(d) != keys:
                return fail(f"{w}: a whole entry holds exactly the fields {', '.join(sorted(keys))}")
            try:
                expected = entry_hash(e.prev, {k: v for k, v in d.items() if k != "hash"})
            except ValueError:
                return fail(f"{w}: holds a number that is not finite")
            if e.hash != expected:
                return fail(f"{where}: {e.label(i + 1)} was changed after it was written (its content does not match "
                            f"its hash)")
            h, p, label = e.hash, e.prev, e.label(i + 1)
        if p != prev:
            moved = next((j + 1 for j, x in enumerate(raw) if isinstance(x, Mapping) and x.get("hash") == p), None)
            how = f"it follows entry {moved}, not entry {i}" if moved is not None else f"it does not follow entry {i}"
            return fail(f"{where}: {label} is out of order: {how}")
        prev = h
        hashes.append(h)
        labels.append(label)
    count, end = view.get("count"), view.get("head")
    if count != len(raw) or end != prev:
        return fail(f"{where}: the side's journal records {count} entries ending at {str(end)[:12]}; it holds "
                    f"{len(raw)} ending at {prev[:12]}: entries were added or removed")
    head_at = None
    if head is not None:
        head_at = next((i + 1 for i, h in enumerate(hashes) if h == head), None)
        if head_at is None:
            return fail(f"{where}: the game master's head {head[:12]} is not in this side's journal: an entry was "
                        f"changed and the hashes after it computed again, or the file is of another game")
    signing = view.get("signing")
    if signing is None:
        return SideCheck([], redacted_at, unchecked, head_at)
    from .signing import SignatureError, Signatures, check, verify

    try:
        sig = Signatures.from_data({"algorithm": "ed25519", "key": signing.get("key"),
                                    "signatures": signing.get("signatures"), "seal": ""}, f"{where}.signing")
        handed = {i: str(d.get("effect", {}).get("key")) for i, d in enumerate(raw)
                  if "effect" in d and d.get("kind") == "key"}
        verify(sig, hashes, lambda i: labels[i], handed, None, f"{where}.signing")
    except SignatureError as err:
        return fail(str(err))
    key = sig.key_at(handed, len(hashes) - 1)
    if not check(key, export_text(view), str(signing.get("export", ""))):
        return fail(f"{where}.signing.export: the export is not signed by the game master's key: an entry was "
                    f"changed or dropped, or the file was made by someone else")
    return SideCheck([], redacted_at, unchecked, head_at)
