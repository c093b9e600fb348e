"""A player's orders file: one side's orders for one turn and phase, planned
against one journal head, as it travels by post to the game master.

The file (``docs/turns.md``, "Orders files") is a JSON object::

    {"format": "adjutant-orders", "version": 1, "side": "union", "turn": 3,
     "phase": "movement", "head": "<the journal head it was planned against>",
     "salt": "<optional: the player's share of the dice>", "orders": [...]}

Older files stay valid: a bare list of orders, or ``{"side", "orders"}``
(``legacy``: no turn, phase or head to check).  :func:`parse` reads the
data; :func:`refusals` says why a game refuses a file (another side, turn or
phase; a head that is not the game's, with the entries written since);
:func:`write_data` makes the data a planner saves.  :func:`digest` is the
SHA-256 of the file's bytes, which the journal keeps beside each order the
file gave (``verdict.source``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.model import ModelError

FORMAT = "adjutant-orders"
"""The ``format`` of an orders file."""
VERSION = 1
"""The version of the layout written."""
KEYS = ("format", "version", "side", "turn", "phase", "head", "salt", "orders")
"""Every key an orders file may have, in the order they are written."""
MAX_SALT = 256
"""Longest player's salt (characters)."""


class OrdersFileError(ModelError):
    """An orders file that cannot be read, or that this game refuses: the
    message names the file and what is wrong."""


@dataclass(frozen=True)
class OrdersFile:
    """One side's orders as a file carries them.  ``turn``, ``phase`` and
    ``head`` are ``None`` in an older file that does not name them."""

    orders: tuple[Mapping[str, Any], ...]
    side: str | None = None
    turn: int | None = None
    phase: str | None = None
    head: str | None = None
    salt: str | None = None
    digest: str = ""
    name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def planned(self) -> bool:
        """Whether the file names where it was planned (turn, phase, head)."""
        return self.head is not None

    def source(self, side: str | None) -> dict[str, Any]:
        """What the journal keeps of this file beside each order it gave:
        its hash, who sent it, and the player's salt."""
        out: dict[str, Any] = {"file": self.digest, "sent_by": side}
        if self.salt is not None:
            out["salt"] = self.salt
        return out


def digest(raw: bytes) -> str:
    """The SHA-256 of an orders file's bytes (hex)."""
    return hashlib.sha256(raw).hexdigest()


def _hash(v: Any) -> bool:
    return isinstance(v, str) and len(v) == 64 and not v.strip("0123456789abcdef")


def parse(data: Any, where: str, raw: bytes = b"") -> OrdersFile:
    """The orders file in ``data`` (parsed JSON); :class:`OrdersFileError`
    names the key that is wrong.  ``raw`` is the file's bytes (its digest)."""
    name = where
    dig = digest(raw) if raw else ""
    if isinstance(data, list):
        return OrdersFile(tuple(_orders(data, where)), digest=dig, name=name)
    if not isinstance(data, dict):
        raise OrdersFileError(f"{where}: expected a list of orders or {{\"orders\": [...]}}")
    extra = sorted(set(data) - set(KEYS))
    if extra:
        raise OrdersFileError(f"{where}: unknown key{'s' if len(extra) > 1 else ''} {', '.join(extra)} "
                              f"(an orders file has {', '.join(KEYS)})")
    orders = data.get("orders")
    if not isinstance(orders, list):
        raise OrdersFileError(f"{where}: expected a list of orders or {{\"orders\": [...]}}")
    side = data.get("side")
    if side is not None and not isinstance(side, str):
        raise OrdersFileError(f"{where}: \"side\" must be a side id, got {side!r}")
    fmt = data.get("format")
    if fmt is not None and fmt != FORMAT:
        raise OrdersFileError(f"{where}: \"format\" must be {FORMAT!r}, got {fmt!r}")
    version = data.get("version")
    if version is not None and version != VERSION:
        raise OrdersFileError(f"{where}: \"version\" {version!r} is not one this Adjutant reads ({VERSION})")
    turn = data.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 1):
        raise OrdersFileError(f"{where}: \"turn\" must be a turn number from 1, got {turn!r}")
    phase = data.get("phase")
    if phase is not None and not isinstance(phase, str):
        raise OrdersFileError(f"{where}: \"phase\" must be a phase name, got {phase!r}")
    head = data.get("head")
    if head is not None and not _hash(head):
        raise OrdersFileError(f"{where}: \"head\" must be a journal head (64 hex digits), got {head!r}")
    planned = [k for k in ("side", "turn", "phase", "head") if data.get(k) is not None]
    if (head is not None or turn is not None or phase is not None) and len(planned) != 4:
        missing = [k for k in ("side", "turn", "phase", "head") if k not in planned]
        raise OrdersFileError(f"{where}: a planned orders file names its side, turn, phase and head; "
                              f"{', '.join(missing)} missing")
    salt = data.get("salt")
    if salt is not None and (not isinstance(salt, str) or not 1 <= len(salt) <= MAX_SALT):
        raise OrdersFileError(f"{where}: \"salt\" must be text of 1 to {MAX_SALT} characters, got {salt!r}")
    return OrdersFile(tuple(_orders(orders, where)), side, turn, phase, head, salt, dig, name)


def _orders(items: Sequence[Any], where: str) -> list[Mapping[str, Any]]:
    for i, o in enumerate(items):
        if not isinstance(o, dict):
            text = repr(o)[:60]
            raise OrdersFileError(f"{where}: order {i + 1}: expected an object like {{\"unit\": ID, \"to\": ...}}, "
                                  f"got {text}")
    return list(items)


def since(game: Any, head: str) -> list[int] | None:
    """The positions (0-based) of the game's entries written after the entry
    whose hash is ``head`` (all of them for the empty journal's head), or
    ``None`` when no entry of the game has that hash."""
    from .journal import GENESIS

    journal = game.journal
    if head == GENESIS:
        return list(range(len(journal)))
    for i in range(len(journal) - 1, -1, -1):
        if journal[i].hash == head:
            return list(range(i + 1, len(journal)))
    return None


def refusals(game: Any, of: OrdersFile, side: str | None, rebase: bool = False) -> list[str]:
    """Why ``game`` refuses the file as a whole (empty: it may be applied).

    A planned file must be for the game's turn and phase and for the side
    to move or a side with a choice pending; planned against a head that is
    not the game's it is refused naming the entries written since (or that
    the head is not in this game's journal), unless ``rebase``: then each
    order is checked on today's position as any order is."""
    if not of.planned:
        return []
    from engine.words import possessive, side_phrase

    out: list[str] = []
    t = game.turn
    if of.turn != t.turn or of.phase != t.phase:
        out.append(f"the file is for turn {of.turn}, {of.phase} phase; the game is in turn {t.turn}, "
                   f"{t.phase} phase")
    waiting = {p.side for p in game.pending()}
    if side is not None and side != t.side and side not in waiting:
        out.append(f"the file holds {possessive(game.side_name(side))} orders; it is "
                   f"{possessive(game.side_name(t.side))} move and no choice waits for {side_phrase(game.side_name(side))}")
    if out:
        return out
    assert of.head is not None
    if of.head != game.journal.head and not rebase:
        after = since(game, of.head)
        if after is None:
            out.append(f"the file was planned against journal head {of.head[:12]}, which is not an entry of this "
                       f"game's journal (another game, or a branch)")
        else:
            what = "; ".join(f"{i + 1}. {game.journal[i].summary}" for i in after[:8])
            more = f"; and {len(after) - 8} more" if len(after) > 8 else ""
            out.append(f"the file was planned against journal head {of.head[:12]} (entry {after[0]}); "
                       f"{len(after)} entr{'y' if len(after) == 1 else 'ies'} written since: {what}{more}. "
                       f"Give --rebase to check each order on today's position")
    return out


def write_data(game: Any, side: str, orders: Sequence[Mapping[str, Any]], salt: str | None = None,
               head: str | None = None) -> dict[str, Any]:
    """The data of a planned orders file for ``side`` at the game's turn,
    phase and journal head (``head`` overrides it)."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "side": side, "turn": game.turn.turn,
                            "phase": game.turn.phase, "head": head or game.journal.head}
    if salt is not None:
        data["salt"] = salt
    data["orders"] = [dict(o) for o in orders]
    return data
