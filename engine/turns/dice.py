"""Dice anyone can verify: commit, roll, reveal.

The game master draws a secret seed and commits to it in the journal (an
entry of kind ``seed`` whose ``effect`` holds ``{"commit": H}``, ``H`` the
SHA-256 of the seed, see :func:`commitment`) before the players' orders of
the turn.  Each orders file may carry a player's ``salt``, kept in the
journal beside the orders it gave (``verdict.source.salt``).  A roll the
rules ask for while that commitment is open is::

    HMAC-SHA256(key=seed, msg=canonical JSON of
                {"commit": H, "salts": [...], "head": PREV, "roll": N, "block": B})

where ``salts`` are the salts of the orders files applied since the
commitment (in order, each once), ``PREV`` the journal head the rolling
entry follows, ``N`` the roll's number within the entry (from 1) and ``B``
the block of HMAC output (from 0).  Each block is read as eight 4-byte
numbers; a number below the largest multiple of ``sides`` under 2**32
gives ``number % sides + 1``, a number above it is rejected and the next
one read, so every face is exactly as likely.  The entry's verdict keeps
``{"dice": {"commit": H, "salts": [...], "rolls": [{"roll": N, "sides": 6,
"value": v, "purpose": "...", "key": "aa", "index": 0}]}}``: what each die
was for and where in the order the rules read it.

At the end of the turn the seed is revealed (an entry of kind ``reveal``,
``{"commit": H, "seed": S}``) and :func:`verify` recomputes every roll:
the seed must hash to its commitment, each roll must be the one the
formula gives and the value the order carried.  Dice the game master typed
(physical dice) are the order's own and are journalled as typed.

Nothing here is secret but the seed before its reveal; the seed is kept
outside the game file by whoever holds it (``app/post_store.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .journal import Entry, canonical_json

SEED_KIND = "seed"
"""The kind of the entry that commits to a seed."""
REVEAL_KIND = "reveal"
"""The kind of the entry that reveals it."""
MAX_SIDES = 1000
"""Most faces a die may have."""

Roll = Callable[[int, str], int]
"""``roll(sides, purpose) -> value``: one die, 1 to ``sides``, recorded with
what it was for."""


def new_seed() -> str:
    """A fresh secret seed (256 random bits, hex)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The hash a seed is committed by (SHA-256 of ``adjutant-dice\\n`` and
    the seed, hex)."""
    return hashlib.sha256(("adjutant-dice\n" + seed).encode("utf-8")).hexdigest()


def roll_value(seed: str, commit: str, salts: Sequence[str], head: str, number: int, sides: int) -> int:
    """Roll ``number`` of an entry following ``head``: a whole number from 1
    to ``sides``, unbiased by rejection sampling (module docstring)."""
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"a die has 2 to {MAX_SIDES} sides, not {sides}")
    limit = (2**32 // sides) * sides
    block = 0
    while True:
        msg = canonical_json({"commit": commit, "salts": list(salts), "head": head, "roll": number,
                              "block": block})
        out = hmac.new(seed.encode("utf-8"), msg.encode("utf-8"), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            x = int.from_bytes(out[k:k + 4], "big")
            if x < limit:
                return x % sides + 1
        block += 1


@dataclass
class Roller:
    """The dice of one entry: rolled from the open commitment's seed, the
    salts so far and the head the entry follows; ``rolls`` keeps each with
    its purpose.  The rules give a roll's ``key`` and ``index`` (where the
    order carries it) through :meth:`at`."""

    seed: str
    commit: str
    salts: tuple[str, ...]
    head: str
    rolls: list[dict[str, Any]] = field(default_factory=list)

    def roll(self, sides: int, purpose: str, key: str = "", index: int = 0) -> int:
        n = len(self.rolls) + 1
        v = roll_value(self.seed, self.commit, self.salts, self.head, n, sides)
        r: dict[str, Any] = {"roll": n, "sides": sides, "value": v, "purpose": purpose}
        if key:
            r.update(key=key, index=index)
        self.rolls.append(r)
        return v

    def record(self) -> dict[str, Any]:
        """What the entry's verdict keeps (``verdict.dice``)."""
        return {"commit": self.commit, "salts": list(self.salts), "rolls": list(self.rolls)}


@dataclass(frozen=True)
class Commitment:
    """A seed committed in the journal: the hash, the position (0-based) of
    its entry, and the seed once revealed (with its entry's position)."""

    commit: str
    at: int
    seed: str | None = None
    revealed_at: int | None = None


def commitments(entries: Iterable[Entry]) -> list[Commitment]:
    """Every commitment of the journal, in order, with its reveal if any."""
    out: list[Commitment] = []
    for i, e in enumerate(entries):
        if e.kind == SEED_KIND and isinstance(e.effect.get("commit"), str):
            out.append(Commitment(str(e.effect["commit"]), i))
        elif e.kind == REVEAL_KIND and isinstance(e.effect.get("commit"), str):
            for k, c in enumerate(out):
                if c.commit == e.effect["commit"] and c.seed is None:
                    out[k] = Commitment(c.commit, c.at, str(e.effect.get("seed")), i)
    return out


def open_commitment(entries: Sequence[Entry]) -> Commitment | None:
    """The commitment whose seed is not revealed yet (the last), if any."""
    found = [c for c in commitments(entries) if c.seed is None]
    return found[-1] if found else None


def salts_since(entries: Sequence[Entry], at: int) -> list[str]:
    """The players' salts of the orders files applied after entry ``at``
    (0-based), in order, each once."""
    out: list[str] = []
    for e in entries[at + 1:]:
        src = e.verdict.get("source")
        salt = src.get("salt") if isinstance(src, Mapping) else None
        if isinstance(salt, str) and salt not in out:
            out.append(salt)
    return out


def seed_entry(commit: str, turn: int, phase: str, side: str | None, system: str) -> Entry:
    """The journal entry committing to a seed."""
    return Entry(turn=turn, phase=phase, side=side, kind=SEED_KIND, system=system,  # type: ignore[arg-type]
                 summary=f"the game master commits to a dice seed ({commit[:12]})", effect={"commit": commit})


def reveal_entry(seed: str, turn: int, phase: str, side: str | None, system: str) -> Entry:
    """The journal entry revealing a seed."""
    commit = commitment(seed)
    return Entry(turn=turn, phase=phase, side=side, kind=REVEAL_KIND, system=system,  # type: ignore[arg-type]
                 summary=f"the game master reveals the dice seed of {commit[:12]}",
                 effect={"commit": commit, "seed": seed})


@dataclass(frozen=True)
class DiceCheck:
    """What :func:`verify` found: ``problems`` (each naming the entry and the
    roll), how many rolls were checked, how many wait for their seed's
    reveal, and how many dice were typed by the game master."""

    problems: tuple[str, ...]
    checked: int
    unrevealed: int
    typed: int

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(entries: Sequence[Entry]) -> DiceCheck:
    """Recompute every roll of the journal from its revealed seed."""
    problems: list[str] = []
    by_commit: dict[str, Commitment] = {}
    for c in commitments(entries):
        by_commit[c.commit] = c
        if c.seed is not None and commitment(c.seed) != c.commit:
            assert c.revealed_at is not None
            problems.append(f"{entries[c.revealed_at].label(c.revealed_at + 1)}: the seed revealed does not hash "
                            f"to its commitment {c.commit[:12]} (entry {c.at + 1})")
    checked = unrevealed = typed = 0
    for i, e in enumerate(entries):
        dice = e.verdict.get("dice")
        if not isinstance(dice, Mapping):
            continue
        if dice.get("typed"):
            typed += 1
            continue
        where = e.label(i + 1)
        commit = dice.get("commit")
        rolls = dice.get("rolls")
        found = by_commit.get(commit) if isinstance(commit, str) else None
        if found is None or found.at >= i or not isinstance(rolls, list):
            problems.append(f"{where}: its dice name no commitment made before it")
            continue
        c = found
        salts = salts_since(entries[:i + 1], c.at)
        if list(dice.get("salts", [])) != salts:
            problems.append(f"{where}: its dice name the salts {dice.get('salts')!r}; the orders files applied "
                            f"since the commitment carry {salts!r}")
            continue
        if c.seed is None:
            unrevealed += len(rolls)
            continue
        for n, r in enumerate(rolls, 1):
            ok_shape = (isinstance(r, Mapping) and r.get("roll") == n and isinstance(r.get("sides"), int)
                        and 2 <= r["sides"] <= MAX_SIDES)
            if not ok_shape:
                problems.append(f"{where}: roll {n} is malformed ({r!r})")
                continue
            want = roll_value(c.seed, c.commit, salts, e.prev, n, r["sides"])
            purpose = r.get("purpose", "")
            if r.get("value") != want:
                problems.append(f"{where}: roll {n} ({purpose}) is {r.get('value')!r}; the seed gives {want}")
                continue
            key = r.get("key")
            if isinstance(key, str) and key:
                carried = e.order.get(key)
                idx = r.get("index", 0)
                got = carried[idx] if isinstance(carried, list) and isinstance(idx, int) and 0 <= idx < len(
                    carried) else carried if not isinstance(carried, list) else None
                if got != want:
                    problems.append(f"{where}: roll {n} ({purpose}) is {want}; the order carries {got!r} at "
                                    f"{key}[{idx}]")
                    continue
            checked += 1
    return DiceCheck(tuple(problems), checked, unrevealed, typed)
