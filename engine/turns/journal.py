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

Hashes are taken over canonical JSON text (sorted keys, no spaces, UTF-8,
no NaN), so they are the same on every machine and Python version.  In
formats 1 and 2 an entry's hash is over the text of the whole entry.  In
format 3 it commits to its parts: each part (the summary, the reasons, the
time, and each key of the order, the verdict and the effect) has a
commitment, the SHA-256 of the part's path and canonical text with a salt
of its own (derived from the entry's random ``salt``), and the hash is over
the entry's public fields (turn, phase, side, kind, system, ``prev``) and
those commitments (:func:`commitment`, :func:`commit_text`).  A side's
file (``engine/turns/views.py``) can then show an entry with some parts
replaced by their commitments and the chain still computes the same hash;
the salts keep a withheld part (a hex label, a unit id) from being guessed
by hashing candidates.  :meth:`Journal.from_data` refuses a broken chain
with a :class:`JournalError` naming the first entry that does not fit.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from engine.io.journal_file import JournalLines, LineList, Origin, appended_text
from engine.model import ModelError

FORMAT = 3
"""Version of the journal's data layout: 3 hashes each entry over
commitments to its parts (module docstring), each entry carrying its
``salt``; 2 adds the ``seal`` (written by a game, which knows its turn
state); 1, without it, is still read.  A journal read in format 1 or 2 is
extended and written in format 2."""

FORMATS = (1, 2, 3)
"""The journal layouts read."""

COMMITTED = 3
"""The first format whose entries' hashes commit to their parts."""

GENESIS = "0" * 64
"""The ``prev`` of the first entry: the hash of "nothing before it"."""

EntryKind = Literal["order", "refused", "effect", "end_phase", "end_turn", "branch", "adjust", "seed", "reveal", "key"]
"""What an entry records: an order applied, an order refused (with the
verdict's reasons), an effect the rules applied on their own (fortification at
the end of a turn, a reinforcement roll), the end of a phase or of a turn,
the start of a branch (the first entry of a what-if journal), a game
master's adjustment outside the rules (IPCs or points set, a unit set
right); and the game master's records that change nothing on the map: a
dice seed committed (``seed``) or revealed (``reveal``,
``engine/turns/dice.py``), a signing key handed over (``key``,
``engine/turns/signing.py``)."""

RECORD_KINDS = ("seed", "reveal", "key")
"""The kinds of entry that record the game master's acts and change nothing
in the scenario or the turn state."""

KINDS: tuple[str, ...] = get_args(EntryKind)

ENTRY_KEYS = frozenset({"turn", "phase", "side", "kind", "system", "summary", "order", "verdict", "reasons", "effect",
                        "time", "prev", "hash"})
"""The keys of an entry's data (:meth:`Entry.to_data`) in formats 1 and 2."""

SALT_KEY = "salt"
ENTRY_KEYS_COMMITTED = ENTRY_KEYS | {SALT_KEY}
"""The keys of an entry's data in format 3: its ``salt`` besides."""

PUBLIC = ("turn", "phase", "side", "kind", "system")
"""The fields a format-3 hash takes as they are (with ``prev``): never withheld."""
WHOLE_PARTS = ("summary", "reasons", "time")
"""The fields a format-3 hash commits to whole, one part each."""
KEYED_PARTS = ("order", "verdict", "effect")
"""The fields (objects) a format-3 hash commits to key by key, a part per key."""


class JournalError(ModelError):
    """A journal that cannot be trusted or read: the message names the entry
    (by its position, counting from 1, and its turn) and what is wrong."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_json(data: Any) -> str:
    """The one text hashes are taken over: sorted keys, no spaces, no NaN or
    Infinity (refused with ``ValueError``), non-ASCII kept as UTF-8."""
    return _CANONICAL.encode(data)


def compact_json(data: Mapping[str, Any], leave_out: str = "") -> str:
    """The text an entry's line holds its fields in: no spaces, keys in
    the order they were made (the order a unit's or a state's fields are
    given back in on undo and replay), ``leave_out`` left out."""
    return json.dumps({k: v for k, v in data.items() if k != leave_out} if leave_out else dict(data),
                      separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def seal(count: int, head: str, turn: Mapping[str, Any]) -> str:
    """The hash that commits the end of a journal: its count, its head and
    the turn state after its last entry (``TurnState.to_data()``).  Dropping
    entries from the end (even a refused order, which changes nothing else)
    and copying an earlier hash into ``head`` leaves a seal that no longer
    fits; making one that fits takes hashing, as forging the chain does."""
    text = f"seal\n{count}\n{head}\n" + canonical_json(dict(turn))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _digest(prev: str, body: Mapping[str, Any]) -> str:
    return _digest_text(prev, canonical_json(body))


def new_salt() -> str:
    """A format-3 entry's salt: 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


def part_salt(salt: str, path: str) -> str:
    """The salt of one part of an entry (``path``: ``summary``,
    ``order.to``...): derived from the entry's salt, so a side's file can
    give it for a part it shows without giving away the others'."""
    return hashlib.sha256(f"part\n{salt}\n{path}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def commitment(salt_of_part: str, path: str, text: str) -> str:
    """What a format-3 hash commits to for one part: the SHA-256 of the
    part's salt, its path and its canonical JSON ``text``."""
    return hashlib.sha256(f"{salt_of_part}\n{path}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()


def commitments(body: Mapping[str, Any], salt: str) -> dict[str, list[str]]:
    """The commitments of every part of an entry's ``body`` (its data), by
    field; a keyed field's sorted (so a side's file shows them without the
    keys they are for).  ``ValueError`` for a number that is not finite."""
    base = hashlib.sha256(f"part\n{salt}\n".encode("utf-8", "surrogatepass"))
    encode = _CANONICAL.encode
    sha256 = hashlib.sha256

    def commit(path: str, value: Any) -> str:
        h = base.copy()
        h.update(path.encode("utf-8", "surrogatepass"))  # part_salt(salt, path), from the hashed prefix
        return sha256(f"{h.hexdigest()[:32]}\n{path}\n{encode(value)}".encode("utf-8", "surrogatepass")).hexdigest()

    out: dict[str, list[str]] = {name: [commit(name, body.get(name))] for name in WHOLE_PARTS}
    for name in KEYED_PARTS:
        value = body.get(name) or {}
        out[name] = sorted([commit(f"{name}.{k}", v) for k, v in value.items()])
    return out


def commit_text(public: Mapping[str, Any], prev: str, parts: Mapping[str, Sequence[str]]) -> str:
    """The text a format-3 entry's hash is taken over (after ``prev``): its
    :data:`PUBLIC` fields, ``prev`` and its parts' commitments by field."""
    return canonical_json({**{k: public.get(k) for k in PUBLIC}, "prev": prev,
                           "parts": {k: list(parts.get(k, ())) for k in WHOLE_PARTS + KEYED_PARTS}})


def entry_hash(prev: str, body: Mapping[str, Any]) -> str:
    """The hash of an entry whose data (but its ``hash``) is ``body``,
    chained after ``prev``: over its parts' commitments when it has a
    ``salt`` (format 3), else over its whole text."""
    salt = body.get(SALT_KEY)
    if isinstance(salt, str):
        return _digest_text(prev, commit_text(body, prev, commitments(body, salt)))
    return _digest(prev, body)


def _digest_text(prev: str, text: str) -> str:
    return hashlib.sha256((prev + "\n" + text).encode("utf-8", "surrogatepass")).hexdigest()


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
    salt: str = ""
    """The random salt of a format-3 entry (:func:`new_salt`); empty in
    formats 1 and 2."""

    def body(self) -> dict[str, Any]:
        """Everything the hash covers: all fields but ``hash`` itself."""
        body = {"turn": self.turn, "phase": self.phase, "side": self.side, "kind": self.kind,
                "system": self.system, "summary": self.summary, "order": dict(self.order),
                "verdict": dict(self.verdict), "reasons": list(self.reasons), "effect": dict(self.effect),
                "time": self.time, "prev": self.prev}
        if self.salt:
            body[SALT_KEY] = self.salt
        return body

    def sealed(self, prev: str, fmt: int = FORMAT) -> Entry:
        """This entry chained after ``prev``, with its hash computed."""
        return self.sealed_line(prev, fmt)[0]

    def sealed_line(self, prev: str, fmt: int = FORMAT, salt: str = "") -> tuple[Entry, str]:
        """This entry chained after ``prev``, with its hash computed, and its
        line (:class:`~engine.io.journal_file.JournalLines`).  In format 3
        it keeps its salt, else takes ``salt``, else a new one; in formats 1
        and 2 it has none."""
        salt = (self.salt or salt or new_salt()) if fmt >= COMMITTED else ""
        body = self.body()
        body["prev"] = prev
        body.pop(SALT_KEY, None)
        if salt:
            body[SALT_KEY] = salt
        text = commit_text(body, prev, commitments(body, salt)) if salt else canonical_json(body)
        h = _digest_text(prev, text)
        return Entry(**{**_fields(self), "prev": prev, "hash": h, "salt": salt}), JournalLines.line(compact_json(body), h)

    def expected_hash(self) -> str:
        return entry_hash(self.prev, self.body())

    def to_data(self) -> dict[str, Any]:
        data = self.body()
        data["hash"] = self.hash
        return data

    def label(self, position: int) -> str:
        """How a message names this entry: ``entry 7 (turn 3, order: CS1IN to E4-X4)``."""
        return f"entry {position} (turn {self.turn}, {self.kind}: {self.summary})"


def _event(e: Entry) -> str:
    """What ``e`` records, without its place in the chain (prev, hash, salt)."""
    try:
        return canonical_json({**e.body(), "prev": "", SALT_KEY: ""})
    except (ValueError, TypeError):
        return f"not comparable {id(e)}"


def _fields(e: Entry) -> dict[str, Any]:
    return {"turn": e.turn, "phase": e.phase, "side": e.side, "kind": e.kind, "system": e.system,
            "summary": e.summary, "order": e.order, "verdict": e.verdict, "reasons": e.reasons,
            "effect": e.effect, "time": e.time, "prev": e.prev, "hash": e.hash, "salt": e.salt}


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
    there.  Positions in messages count from 1, as a person counts.

    Each entry's line (:class:`~engine.io.journal_file.JournalLines`: the
    text it is hashed over, with its hash) is made once, when it is sealed
    or read, and written as it is; an entry read from a file is decoded
    from its line the first time it is asked for."""

    def __init__(self, entries: Sequence[Entry] = (), branch_of: BranchOrigin | None = None) -> None:
        self._entries: list[Entry | None] = []  # None: not decoded from its line yet
        self._lines = LineList()
        self._origin = Origin()  # the file the lines were read from or written to (shared with their writer)
        self._hasher: Any = None  # a SHA-256 state over the lines' text, kept up as entries are added
        self._hashed = 0
        self._read: JournalLines | None = None  # the lines it was read with, all still its first ones
        self.branch_of = branch_of
        self.where = "journal"
        self.format = FORMAT
        """The layout its entries are hashed in and it is written in: 3, or
        2 for a journal read in format 1 or 2."""
        self.salts_of: Journal | None = None
        """A journal whose entries' salts new entries take, position by
        position (a re-adjudication of it: entries made again as they were
        are sealed to the same hashes)."""
        self.next_salt = ""
        """The salt the next entry appended takes (an entry made again from
        its record: :meth:`~engine.turns.game.Game.redo_adjust`)."""
        self._undone: list[Entry] = []  # entries taken back, the last on top: one made again takes its salt
        for e in entries:
            self.append(e)

    def __len__(self) -> int:
        return len(self._lines)

    def __iter__(self) -> Iterator[Entry]:
        return (self[i] for i in range(len(self._lines)))

    def __getitem__(self, i: int) -> Entry:
        e = self._entries[i]
        if e is None:
            n = i if i >= 0 else len(self._lines) + i
            e = self._entries[n] = _decode(self._lines[n], f"{self.where}.entries[{n}]", self.format >= COMMITTED)
        return e

    def hash_at(self, i: int) -> str:
        """The hash of entry ``i`` (0-based), without decoding it."""
        return JournalLines.hash_of(self._lines[i])

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self)

    @property
    def lines(self) -> JournalLines:
        """Every entry's line, as a file holds them, with the file they
        were read from or last written to."""
        hasher = self._hasher.copy() if self._hasher is not None and self._hashed == len(self._lines) else None
        return JournalLines(self._lines, self._origin, hasher=hasher,
                            basis=self._read if hasher is None else None)

    @property
    def head(self) -> str:
        """The hash of the last entry (:data:`GENESIS` when empty)."""
        last = self._lines.last()
        return GENESIS if last is None else JournalLines.hash_of(last)

    def append(self, entry: Entry) -> Entry:
        """Seal ``entry`` after the head and keep it; returns the sealed entry."""
        n = len(self._lines)
        reuse = self.salts_of[n].salt if self.salts_of is not None and n < len(self.salts_of) else self.next_salt
        self.next_salt = ""
        if self._undone:
            undone = self._undone.pop()
            if not reuse and undone.prev == self.head and _event(undone) == _event(entry):
                reuse = undone.salt  # the entry taken back, made again (a redo): the same hash
            else:
                self._undone.clear()
        sealed, line = entry.sealed_line(self.head, self.format, reuse)
        if self._hasher is not None and self._hashed == len(self._lines):
            self._hasher.update(appended_text(len(self._lines), [line]).encode("utf-8", "surrogatepass"))
            self._hashed += 1
        self._entries.append(sealed)
        self._lines.append(line)
        return sealed

    def pop(self) -> Entry:
        """Take back the last entry (``JournalError`` when there is none)."""
        if not len(self._lines):
            raise JournalError("the journal is empty: there is no entry to take back")
        e = self[-1]
        self._lines.pop()
        self._entries.pop()
        if e.salt:
            self._undone.append(e)
        self._hasher = None
        if self._read is not None and len(self._lines) < len(self._read):
            self._read = None
        if len(self._lines) < self._origin.count:
            self._origin.forget()
        return e

    def upto(self, n: int) -> Journal:
        """The journal of the first ``n`` entries (0 <= n <= len)."""
        if not 0 <= n <= len(self._lines):
            raise JournalError(f"no entry {n}: the journal has {len(self._lines)} entries")
        j = Journal(branch_of=self.branch_of)
        j._entries = self._entries[:n]
        j._lines = LineList(self._lines.after(0)[:n]) if n < len(self._lines) else self._lines.copy()
        j.where = self.where
        j.format = self.format
        return j

    def branch(self, n: int, source: str) -> Journal:
        """A what-if journal sharing the first ``n`` entries, marked as a
        branch of ``source``."""
        j = self.upto(n)
        j.branch_of = BranchOrigin(source, n, j.head)
        return j

    def turns(self) -> dict[int, list[int]]:
        """Entry positions (0-based) by turn, in order."""
        out: dict[int, list[int]] = {}
        for i, e in enumerate(self):
            out.setdefault(e.turn, []).append(i)
        return out

    def to_data(self, turn: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The journal as plain data.  With ``turn`` (the game's turn state
        after the last entry, ``TurnState.to_data()``) the data is sealed
        (:func:`seal`, format 3, or 2 for a journal read in 1 or 2) and its
        entries are their lines (a
        :class:`~engine.io.journal_file.JournalLines`, as the file writers
        write them); without, it has each entry's data (a journal alone:
        format 1, or 3 without a seal)."""
        fmt = self.format if turn is not None or self.format >= COMMITTED else 1
        data: dict[str, Any] = {"format": fmt, "count": len(self._lines), "head": self.head}
        if turn is not None:
            data["seal"] = seal(len(self._lines), self.head, turn)
        if self.branch_of is not None:
            data["branch_of"] = self.branch_of.to_data()
        data["entries"] = self.lines if turn is not None else [e.to_data() for e in self]
        return data

    @classmethod
    def from_data(cls, data: Any, where: str = "journal", turn: Mapping[str, Any] | None = None,
                  trusted: bool = False) -> Journal:
        """Read and verify a journal; :class:`JournalError` names the first
        entry that was changed, moved or lost, or the field that is malformed.
        A sealed journal (format 2 or 3) is checked against ``turn`` (the
        turn state saved beside it), when given: a journal cut short is
        refused, and so is a format-3 journal without its seal.
        ``trusted`` (entries given as lines that were verified before, see
        :func:`engine.io.journal_file.verified`) checks only the count, head
        and seal; the entries are decoded when asked for."""
        if not isinstance(data, Mapping):
            raise JournalError(f"{where}: expected an object, got {_kind(data)}")
        fmt = data.get("format")
        if fmt not in FORMATS or isinstance(fmt, bool):
            raise JournalError(f"{where}.format: expected {' or '.join(map(str, FORMATS))}, got {fmt!r}")
        sealed_with = data.get("seal")
        if fmt >= COMMITTED and sealed_with is None and turn is not None:
            raise JournalError(f"{where}.seal: a game's journal is sealed; this one has no seal (its end cannot "
                               f"be checked)")
        if (fmt == 2 or sealed_with is not None) and fmt >= 2 and (
                not isinstance(sealed_with, str) or len(sealed_with) != 64 or sealed_with.strip("0123456789abcdef")):
            raise JournalError(f"{where}.seal: expected a SHA-256 hash (64 hex digits), got {sealed_with!r}")
        raw = data.get("entries")
        if not isinstance(raw, (list, JournalLines)):
            raise JournalError(f"{where}.entries: expected a list, got {_kind(raw)}")
        count, head = data.get("count"), data.get("head")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise JournalError(f"{where}.count: expected a whole number >= 0, got {count!r}")
        if not isinstance(head, str):
            raise JournalError(f"{where}.head: expected a hash (text), got {_kind(head)}")
        branch_of = _branch(data.get("branch_of"), f"{where}.branch_of")
        if isinstance(raw, JournalLines) and trusted:
            entries: list[Entry | None] = [None] * len(raw)
            lines = raw.store()
            prev = raw.last_hash() or GENESIS
        elif isinstance(raw, JournalLines):
            entries, lines, prev = _verify_lines(raw, where, fmt)
        else:
            entries, lines, prev = _verify_data(raw, where, fmt)
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
        j._lines = lines
        j.where = where
        j.format = COMMITTED if fmt >= COMMITTED else 2
        if isinstance(raw, JournalLines):
            j._origin = raw.origin
            j._read = raw  # its digest (and hash state) taken from the lines read, when asked
        return j


def _out_of_order(where: str, e: Entry, pos: int, hashes: Sequence[str]) -> JournalError:
    moved = next((j + 1 for j, h in enumerate(hashes) if h == e.prev), None)
    how = (f"it follows entry {moved}, not entry {pos - 1}" if moved is not None and pos > 1
           else "the entry it follows is missing" if pos > 1
           else "it claims to follow an entry that is not in the journal")
    return JournalError(f"{where}: {e.label(pos)} is out of order: {how}")


def _verify_data(raw: list[Any], where: str, fmt: int = 1) -> tuple[list[Entry | None], LineList, str]:
    """Entries given as data: each read, hashed and chained; their lines."""
    salted = fmt >= COMMITTED
    entries = [_entry(e, f"{where}.entries[{i}]", salted) for i, e in enumerate(raw)]
    prev = GENESIS
    lines: list[str] = []
    for i, e in enumerate(entries):
        pos = i + 1
        # an entry read exactly as written is hashed as it was read: the same canonical text as its body
        same = raw[i] if raw[i].keys() == (ENTRY_KEYS_COMMITTED if salted else ENTRY_KEYS) else None
        try:
            if salted:
                text = commit_text(e.body(), e.prev, commitments(same if same is not None else e.body(), e.salt))
            else:
                text = canonical_json({k: v for k, v in same.items() if k != "hash"} if same is not None
                                      else e.body())
        except ValueError:
            for key in ("order", "verdict", "effect"):
                _finite(raw[i], key, f"{where}.entries[{i}]")
            raise JournalError(f"{where}.entries[{i}]: holds a number that is not finite") from None
        if e.hash != _digest_text(e.prev, text):
            raise JournalError(f"{where}: {e.label(pos)} was changed after it was written "
                               f"(its content does not match its hash)")
        if e.prev != prev:
            raise _out_of_order(where, e, pos, [o.hash for o in entries])
        prev = e.hash
        lines.append(JournalLines.line(compact_json(same if same is not None else e.body(), "hash"), e.hash))
    return list(entries), LineList(lines), prev


def _verify_lines(raw: JournalLines, where: str, fmt: int = 2) -> tuple[list[Entry | None], LineList, str]:
    """Entries given as lines: each decoded, its text checked to be its
    canonical body, hashed and chained."""
    try:
        lines = list(raw.lines)
    except ValueError as err:
        raise JournalError(f"{where}.entries: {err}") from None
    entries: list[Entry | None] = []
    prev = GENESIS
    salted = fmt >= COMMITTED
    keys = ENTRY_KEYS_COMMITTED if salted else ENTRY_KEYS
    for i, line in enumerate(lines):
        try:
            d = json.loads(line)
        except (ValueError, RecursionError):
            raise JournalError(f"{where}.entries[{i}]: not an entry's JSON text") from None
        e = _entry(d, f"{where}.entries[{i}]", salted)
        pos = i + 1
        if d.keys() != keys or JournalLines.hash_of(line) != e.hash:
            raise JournalError(f"{where}.entries[{i}]: not written as the journal writes an entry (its hash "
                               f"first, then its fields: {', '.join(sorted(keys))})")
        try:
            text = (commit_text(d, e.prev, commitments(d, e.salt)) if salted
                    else canonical_json({k: v for k, v in d.items() if k != "hash"}))
        except ValueError:
            for key in ("order", "verdict", "effect"):
                _finite(d, key, f"{where}.entries[{i}]")
            raise JournalError(f"{where}.entries[{i}]: holds a number that is not finite") from None
        if e.hash != _digest_text(e.prev, text):
            raise JournalError(f"{where}: {e.label(pos)} was changed after it was written "
                               f"(its content does not match its hash)")
        if e.prev != prev:
            hashes = [JournalLines.hash_of(x) for x in lines]
            raise _out_of_order(where, e, pos, hashes)
        prev = e.hash
        entries.append(e)
    return entries, LineList(lines), prev


def _decode(line: str, where: str, salted: bool = False) -> Entry:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        raise JournalError(f"{where}: not an entry's JSON text") from None
    return _entry(data, where, salted)


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


def _entry(d: Any, where: str, salted: bool = False) -> Entry:
    """The entry ``d`` holds; with ``salted`` (format 3) its ``salt`` too."""
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
    salt = ""
    if salted:
        given = d.get(SALT_KEY)
        if not isinstance(given, str) or len(given) != 32 or given.strip("0123456789abcdef"):
            raise JournalError(f"{where}.{SALT_KEY}: expected the entry's salt (32 hex digits), got {given!r}")
        salt = given
    side = _text(d, "side", where, optional=True)
    return Entry(turn=turn, phase=_text(d, "phase", where) or "", side=side, kind=kind,
                 system=_text(d, "system", where) or "", summary=_text(d, "summary", where) or "",
                 order=_object(d, "order", where), verdict=_object(d, "verdict", where),
                 reasons=tuple(reasons), effect=_object(d, "effect", where),
                 time=_text(d, "time", where, optional=True), prev=d["prev"], hash=d["hash"], salt=salt)


def _branch(d: Any, where: str) -> BranchOrigin | None:
    if d is None:
        return None
    if not isinstance(d, Mapping):
        raise JournalError(f"{where}: expected an object, got {_kind(d)}")
    n = d.get("entries")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise JournalError(f"{where}.entries: expected a whole number >= 0, got {n!r}")
    return BranchOrigin(_text(d, "source", where) or "", n, _text(d, "head", where) or "")
