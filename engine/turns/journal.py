"""The game journal: what was ordered, what the rules said and why, in order,
with a hash chain so a changed, reordered or shortened record is found on load.

Play by post lives on its record.  Every entry holds one event of the game —
an order applied, an order refused with its reasons, an effect of the end of a
phase or turn — and the SHA-256 hash of the entry before it, so that the hash
of the last entry (the *head*) vouches for the whole history.  The journal's
data keeps the head and the count beside the entries, which is how a journal
cut short (entries dropped from the end) is told from a whole one.

The chain is a check against accidents and casual edits, not a signature: a
player who recomputes every hash can forge a record; a player who edits one
entry by hand, reorders two or drops the last few cannot do so unseen.

Hashes are taken over a canonical JSON text of the entry (sorted keys, no
spaces, UTF-8, no NaN), so they are the same on every machine and Python
version.  :meth:`Journal.from_data` refuses a broken chain with a
:class:`JournalError` naming the first entry that does not fit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from engine.model import ModelError

FORMAT = 2
"""Version of the journal's data layout: 2 adds the ``seal`` (written by a
game, which knows its turn state); 1, without it, is still read."""

FORMATS = (1, 2)
"""The journal layouts read."""

GENESIS = "0" * 64
"""The ``prev`` of the first entry: the hash of "nothing before it"."""

EntryKind = Literal["order", "refused", "effect", "end_phase", "end_turn", "branch"]
"""What an entry records: an order applied, an order refused (with the
verdict's reasons), an effect the rules applied on their own (fortification at
the end of a turn, a reinforcement roll), the end of a phase or of a turn, or
the start of a branch (the first entry of a what-if journal)."""

KINDS: tuple[str, ...] = get_args(EntryKind)

ENTRY_KEYS = frozenset({"turn", "phase", "side", "kind", "system", "summary", "order", "verdict", "reasons", "effect",
                        "time", "prev", "hash"})
"""The keys of an entry's data (:meth:`Entry.to_data`)."""


class JournalError(ModelError):
    """A journal that cannot be trusted or read: the message names the entry
    (by its position, counting from 1, and its turn) and what is wrong."""


def canonical_json(data: Any) -> str:
    """The one text hashes are taken over: sorted keys, no spaces, no NaN or
    Infinity (refused with ``ValueError``), non-ASCII kept as UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def seal(count: int, head: str, turn: Mapping[str, Any]) -> str:
    """The hash that commits the end of a journal: its count, its head and
    the turn state after its last entry (``TurnState.to_data()``).  Dropping
    entries from the end (even a refused order, which changes nothing else)
    and copying an earlier hash into ``head`` leaves a seal that no longer
    fits; making one that fits takes hashing, as forging the chain does."""
    text = f"seal\n{count}\n{head}\n" + canonical_json(dict(turn))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _digest(prev: str, body: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev + "\n" + canonical_json(body)).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One event of the game.

    ``order``, ``verdict`` and ``effect`` are plain JSON data as the rules
    system that made them defines them (its ``to_data()``); the journal only
    keeps and hashes them.  ``reasons`` are the verdict's sentences, kept apart
    so a report can quote them without knowing the system.  ``time`` is the
    time of the post the rules take a number from (ACW combat, reinforcement
    rolls), as the players wrote it, or ``None``."""

    turn: int
    phase: str
    side: str | None
    kind: EntryKind
    system: str
    summary: str
    order: Mapping[str, Any] = field(default_factory=dict)
    verdict: Mapping[str, Any] = field(default_factory=dict)
    reasons: tuple[str, ...] = ()
    effect: Mapping[str, Any] = field(default_factory=dict)
    time: str | None = None
    prev: str = GENESIS
    hash: str = ""

    def body(self) -> dict[str, Any]:
        """Everything the hash covers: all fields but ``hash`` itself."""
        return {"turn": self.turn, "phase": self.phase, "side": self.side, "kind": self.kind,
                "system": self.system, "summary": self.summary, "order": dict(self.order),
                "verdict": dict(self.verdict), "reasons": list(self.reasons), "effect": dict(self.effect),
                "time": self.time, "prev": self.prev}

    def sealed(self, prev: str) -> Entry:
        """This entry chained after ``prev``, with its hash computed."""
        body = self.body()
        body["prev"] = prev
        return Entry(**{**_fields(self), "prev": prev, "hash": _digest(prev, body)})

    def expected_hash(self) -> str:
        return _digest(self.prev, self.body())

    def to_data(self) -> dict[str, Any]:
        data = self.body()
        data["hash"] = self.hash
        return data

    def label(self, position: int) -> str:
        """How a message names this entry: ``entry 7 (turn 3, order: CS1IN to E4-X4)``."""
        return f"entry {position} (turn {self.turn}, {self.kind}: {self.summary})"


def _fields(e: Entry) -> dict[str, Any]:
    return {"turn": e.turn, "phase": e.phase, "side": e.side, "kind": e.kind, "system": e.system,
            "summary": e.summary, "order": e.order, "verdict": e.verdict, "reasons": e.reasons,
            "effect": e.effect, "time": e.time, "prev": e.prev, "hash": e.hash}


@dataclass(frozen=True)
class BranchOrigin:
    """Where a what-if journal left its original: the original's name (its
    scenario name or file), how many entries it shared, and the hash of the
    last shared entry (so the branch can be matched to its trunk later)."""

    source: str
    entries: int
    head: str

    def to_data(self) -> dict[str, Any]:
        return {"source": self.source, "entries": self.entries, "head": self.head}


class Journal:
    """An append-only, hash-chained list of :class:`Entry`.

    ``append`` seals an entry after the current head; ``pop`` takes the last
    one back (an undo); ``upto(n)`` is the journal of the first ``n`` entries
    (a replay position); ``branch(n, source)`` starts a what-if journal from
    there.  Positions in messages count from 1, as a person counts."""

    def __init__(self, entries: Sequence[Entry] = (), branch_of: BranchOrigin | None = None) -> None:
        self._entries: list[Entry] = []
        self._data: list[dict[str, Any] | None] = []  # each entry's data, made when first needed
        self.branch_of = branch_of
        for e in entries:
            self.append(e)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def __getitem__(self, i: int) -> Entry:
        return self._entries[i]

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    @property
    def head(self) -> str:
        """The hash of the last entry (:data:`GENESIS` when empty)."""
        return self._entries[-1].hash if self._entries else GENESIS

    def append(self, entry: Entry) -> Entry:
        """Seal ``entry`` after the head and keep it; returns the sealed entry."""
        sealed = entry.sealed(self.head)
        self._entries.append(sealed)
        self._data.append(sealed.to_data())
        return sealed

    def pop(self) -> Entry:
        """Take back the last entry (``JournalError`` when there is none)."""
        if not self._entries:
            raise JournalError("the journal is empty: there is no entry to take back")
        self._data.pop()
        return self._entries.pop()

    def upto(self, n: int) -> Journal:
        """The journal of the first ``n`` entries (0 <= n <= len)."""
        if not 0 <= n <= len(self._entries):
            raise JournalError(f"no entry {n}: the journal has {len(self._entries)} entries")
        j = Journal(branch_of=self.branch_of)
        j._entries = list(self._entries[:n])
        j._data = list(self._data[:n])
        return j

    def branch(self, n: int, source: str) -> Journal:
        """A what-if journal sharing the first ``n`` entries, marked as a
        branch of ``source``."""
        shared = self.upto(n)
        j = Journal(branch_of=BranchOrigin(source, n, shared.head))
        j._entries = list(shared._entries)
        j._data = list(shared._data)
        return j

    def turns(self) -> dict[int, list[int]]:
        """Entry positions (0-based) by turn, in order."""
        out: dict[int, list[int]] = {}
        for i, e in enumerate(self._entries):
            out.setdefault(e.turn, []).append(i)
        return out

    def to_data(self, turn: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The journal as plain data.  With ``turn`` (the game's turn state
        after the last entry, ``TurnState.to_data()``) the data is sealed
        (:func:`seal`, format 2); without, it is format 1 (a journal alone)."""
        data: dict[str, Any] = {"format": FORMAT if turn is not None else 1, "count": len(self._entries),
                                "head": self.head}
        if turn is not None:
            data["seal"] = seal(len(self._entries), self.head, turn)
        if self.branch_of is not None:
            data["branch_of"] = self.branch_of.to_data()
        data["entries"] = self._entry_data()
        return data

    def _entry_data(self) -> list[dict[str, Any]]:
        out = []
        for i, d in enumerate(self._data):
            if d is None:
                d = self._data[i] = self._entries[i].to_data()
            out.append(d)
        return out

    @classmethod
    def from_data(cls, data: Any, where: str = "journal", turn: Mapping[str, Any] | None = None) -> Journal:
        """Read and verify a journal; :class:`JournalError` names the first
        entry that was changed, moved or lost, or the field that is malformed.
        A sealed journal (format 2) is checked against ``turn`` (the turn
        state saved beside it), when given: a journal cut short is refused."""
        if not isinstance(data, Mapping):
            raise JournalError(f"{where}: expected an object, got {_kind(data)}")
        fmt = data.get("format")
        if fmt not in FORMATS or isinstance(fmt, bool):
            raise JournalError(f"{where}.format: expected {' or '.join(map(str, FORMATS))}, got {fmt!r}")
        sealed_with = data.get("seal")
        if fmt >= 2 and (not isinstance(sealed_with, str) or len(sealed_with) != 64
                         or sealed_with.strip("0123456789abcdef")):
            raise JournalError(f"{where}.seal: expected a SHA-256 hash (64 hex digits), got {sealed_with!r}")
        raw = data.get("entries")
        if not isinstance(raw, list):
            raise JournalError(f"{where}.entries: expected a list, got {_kind(raw)}")
        count, head = data.get("count"), data.get("head")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise JournalError(f"{where}.count: expected a whole number >= 0, got {count!r}")
        if not isinstance(head, str):
            raise JournalError(f"{where}.head: expected a hash (text), got {_kind(head)}")
        branch_of = _branch(data.get("branch_of"), f"{where}.branch_of")
        entries = [_entry(e, f"{where}.entries[{i}]") for i, e in enumerate(raw)]
        prev = GENESIS
        kept: list[dict[str, Any] | None] = []
        for i, e in enumerate(entries):
            pos = i + 1
            # an entry read exactly as written is hashed (and later saved) as it was read: the same
            # canonical text as its body, without building it again
            same = raw[i] if raw[i].keys() == ENTRY_KEYS else None
            kept.append(same)
            try:
                expected = (_digest(e.prev, {k: v for k, v in same.items() if k != "hash"}) if same is not None
                            else e.expected_hash())
            except ValueError:
                for key in ("order", "verdict", "effect"):
                    _finite(raw[i], key, f"{where}.entries[{i}]")
                raise JournalError(f"{where}.entries[{i}]: holds a number that is not finite") from None
            if e.hash != expected:
                raise JournalError(f"{where}: {e.label(pos)} was changed after it was written "
                                   f"(its content does not match its hash)")
            if e.prev != prev:
                moved = next((j + 1 for j, o in enumerate(entries) if o.hash == e.prev), None)
                how = (f"it follows entry {moved}, not entry {pos - 1}" if moved is not None and pos > 1
                       else "the entry it follows is missing" if pos > 1
                       else "it claims to follow an entry that is not in the journal")
                raise JournalError(f"{where}: {e.label(pos)} is out of order: {how}")
            prev = e.hash
        if count != len(entries) or head != prev:
            if count > len(entries):
                raise JournalError(f"{where}: the journal was cut short: it recorded {count} entries, "
                                   f"{len(entries)} are left (the last {count - len(entries)} are missing)")
            raise JournalError(f"{where}: the journal's count ({count}) and head do not match its "
                               f"{len(entries)} entries: entries were added or removed by hand")
        if fmt >= 2 and turn is not None and sealed_with != seal(count, head, turn):
            raise JournalError(f"{where}.seal: the journal's end does not match its seal: entries were dropped "
                               f"from its end, or its count, head or the turn state were edited by hand")
        j = cls(branch_of=branch_of)
        j._entries = entries
        j._data = kept
        return j


def _kind(v: Any) -> str:
    return "nothing" if v is None else type(v).__name__


def _text(d: Mapping[str, Any], key: str, where: str, optional: bool = False) -> str | None:
    v = d.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, str):
        raise JournalError(f"{where}.{key}: expected text, got {_kind(v)}")
    return v


def _object(d: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    v = d.get(key, {})
    if not isinstance(v, dict):
        raise JournalError(f"{where}.{key}: expected an object, got {_kind(v)}")
    return v


def _finite(d: Mapping[str, Any], key: str, where: str) -> None:
    """Name the field holding NaN or Infinity (only looked for once the
    entry's hash could not be computed: canonical JSON refuses them)."""
    try:
        canonical_json(d.get(key, {}))
    except ValueError:
        raise JournalError(f"{where}.{key}: holds a number that is not finite (NaN or Infinity)") from None


def _entry(d: Any, where: str) -> Entry:
    if not isinstance(d, Mapping):
        raise JournalError(f"{where}: expected an object, got {_kind(d)}")
    turn = d.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool) or not 0 <= turn < 2**31:
        raise JournalError(f"{where}.turn: expected a whole number from 0, got {turn!r}")
    kind = d.get("kind")
    if kind not in KINDS:
        raise JournalError(f"{where}.kind: expected one of {', '.join(KINDS)}, got {kind!r}")
    reasons = d.get("reasons", [])
    if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
        raise JournalError(f"{where}.reasons: expected a list of sentences")
    for key in ("prev", "hash"):
        h = d.get(key)
        if not isinstance(h, str) or len(h) != 64 or h.strip("0123456789abcdef"):
            raise JournalError(f"{where}.{key}: expected a SHA-256 hash (64 hex digits), got {h!r}")
    side = _text(d, "side", where, optional=True)
    return Entry(turn=turn, phase=_text(d, "phase", where) or "", side=side, kind=kind,
                 system=_text(d, "system", where) or "", summary=_text(d, "summary", where) or "",
                 order=_object(d, "order", where), verdict=_object(d, "verdict", where),
                 reasons=tuple(reasons), effect=_object(d, "effect", where),
                 time=_text(d, "time", where, optional=True), prev=d["prev"], hash=d["hash"])


def _branch(d: Any, where: str) -> BranchOrigin | None:
    if d is None:
        return None
    if not isinstance(d, Mapping):
        raise JournalError(f"{where}: expected an object, got {_kind(d)}")
    n = d.get("entries")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise JournalError(f"{where}.entries: expected a whole number >= 0, got {n!r}")
    return BranchOrigin(_text(d, "source", where) or "", n, _text(d, "head", where) or "")
