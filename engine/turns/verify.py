"""A game's journal checked by the rules: every entry adjudicated again.

The hash chain (:mod:`.journal`) shows that nobody changed an entry without
sealing the chain again, and the replay on load (:meth:`Game._replay`) that
the recorded deltas lead to the saved scenario; neither asks the rules
whether the orders were legal, so a player who edits an entry and
recomputes the hashes can record a move the rules refuse.  :func:`verify`
asks them: from a trusted position (the turn-0 state by default, or a
position the caller vouches for at entry ``k``) it plays the journal again
through the turn engine -- each order given again by the side recorded as
its author, with its post time, each end of phase ended again -- and
compares what the rules do now with what the entry records: its kind
(carried out or refused), verdict and reasons, its effect and data-level
delta, the turn state after it.  Entries made this way are sealed after the
same chain with the recorded entries' salts, so a re-made entry matches its
record exactly when its hash is the recorded hash.

The first entry that does not match is named (:class:`Problem`, position
counted from 1 as a person counts) with what differs; ``None`` means every
entry is what the rules give.  The turn-0 state itself is taken from the
file (the walk back over the recorded deltas): what it says of the set-up is
checked by the system's ``setup_problems`` when the first order is re-given,
not vouched for otherwise.  See ``docs/turns.md`` ("Verifying a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError

from .game import Game
from .journal import RECORD_KINDS, Entry, canonical_json

MADE_BY_END_PHASE = frozenset({"effect", "end_phase", "end_turn"})
"""Entry kinds an end of phase makes (its effects, then the hand-over)."""


@dataclass(frozen=True)
class Problem:
    """The first journal entry the rules do not give: its position (from
    1), its label and what differs."""

    position: int
    label: str
    what: str

    def __str__(self) -> str:
        return f"state.game.journal: {self.label} is not what the rules give: {self.what}"

    def to_data(self) -> dict[str, Any]:
        return {"position": self.position, "entry": self.label, "problem": self.what}


def verify(game: Game, start: int = 0, position: Any | None = None) -> Problem | None:
    """Adjudicate ``game``'s journal again from entry ``start`` (0: the
    turn-0 state) and return the first entry whose record the rules do not
    give, or ``None``.  ``position`` is a scenario the caller trusts as the
    game after entry ``start`` (its ``state.game`` holding the first
    ``start`` entries); by default it is :meth:`Game.at` ``(start)``, and a
    ``start`` inside an end of phase (after its first effect) is moved back
    to that effect: an end of phase is adjudicated whole.
    ``game`` itself is not changed."""
    journal = game.journal
    if not 0 <= start <= len(journal):
        raise ModelError(f"no entry {start}: the journal has {len(journal)} entries")
    while 0 < start < len(journal) and journal[start].kind in MADE_BY_END_PHASE and journal[start - 1].kind == "effect":
        if position is not None:
            raise ModelError(f"entry {start} is inside an end of phase: start from entry {start - 1} or earlier")
        start -= 1  # an end of phase is adjudicated whole: from its first effect
    try:
        base = position if position is not None else game.at(start)
        again = Game(base, game.system)
        again.journal.salts_of = journal  # an entry made again as recorded is sealed to the recorded hash
    except ModelError as err:
        return Problem(start + 1, journal[start].label(start + 1) if start < len(journal) else "the start",
                       f"the position before it cannot be rebuilt: {err}")
    i = start
    while i < len(journal):
        e = journal[i]
        if e.kind in ("order", "refused"):
            made = _give(again, e)
            if isinstance(made, str):
                return Problem(i + 1, e.label(i + 1), made)
            made_entries = [made]
        elif e.kind == "adjust":
            try:
                made_entries = [again.redo_adjust(e)]
            except ModelError as err:
                return Problem(i + 1, e.label(i + 1), f"the game master's adjustment cannot be made again: {err}")
            except (ValueError, TypeError, KeyError, AttributeError) as err:  # a forged record
                return Problem(i + 1, e.label(i + 1), f"the adjustment cannot be made again: {err!r}")
        elif e.kind in RECORD_KINDS:
            made_entries = [again.record(e)]
        elif e.kind in MADE_BY_END_PHASE:
            try:
                made_entries = again.end_phase()
            except ModelError as err:
                return Problem(i + 1, e.label(i + 1), f"the rules refuse to end the phase here: {err}")
            except (ValueError, TypeError, KeyError, AttributeError) as err:  # a forged record the rules trip on
                return Problem(i + 1, e.label(i + 1), f"the end of the phase cannot be adjudicated again: {err!r}")
        else:
            return Problem(i + 1, e.label(i + 1), f"an entry of kind {e.kind!r} is not made by an order or an "
                                                  f"end of phase")
        for k, made_entry in enumerate(made_entries):
            pos = i + k
            if pos >= len(journal):
                return Problem(len(journal), journal[-1].label(len(journal)),
                               f"the rules go on with {made_entry.kind} '{made_entry.summary}', which the journal "
                               f"does not record")
            recorded = journal[pos]
            if made_entry.hash != recorded.hash and _substance(made_entry) != _substance(recorded):
                return Problem(pos + 1, recorded.label(pos + 1), _difference(recorded, made_entry))
        i += len(made_entries)
    if again.turn != game.turn:
        return Problem(len(journal), journal[-1].label(len(journal)) if len(journal) else "the start",
                       f"the turn state the rules reach ({canonical_json(again.turn.to_data())}) is not the "
                       f"file's ({canonical_json(game.turn.to_data())})")
    return None


def _give(game: Game, e: Entry) -> Entry | str:
    """The entry the rules make of ``e``'s order now, or why they cannot."""
    author = e.verdict.get("author") if isinstance(e.verdict, Mapping) else None
    if author is not None and not isinstance(author, str):
        return f"its author must be a side id, got {author!r}"
    try:
        return game.give(dict(e.order), time=e.time, summary=e.summary, side=author)
    except ModelError as err:
        return f"the order cannot be adjudicated again: {err}"
    except (ValueError, TypeError, KeyError, AttributeError) as err:  # a forged order the rules trip on
        return f"the order cannot be adjudicated again: {err!r}"


def _substance(e: Entry) -> tuple[Any, ...]:
    """What the rules decided in ``e``, without its words: where and whose
    it is, its kind (carried out or refused), the order as given, the post
    time, the author, and of its effect the action, the data-level delta
    and the turn state.  A re-made entry whose wording changed since the
    file was written (a summary, a reason, a verdict's sentence) but whose
    substance is the recorded one is what the rules give."""
    verdict = e.verdict if isinstance(e.verdict, Mapping) else {}
    effect = e.effect if isinstance(e.effect, Mapping) else {}
    return (e.turn, e.phase, e.side, e.kind, e.system, canonical_json(e.order), e.time,
            verdict.get("author"), canonical_json({k: effect.get(k) for k in ("action", "delta", "turn", "seed",
                                                                           "commit", "key", "replaces")}))


FIELDS = ("turn", "phase", "side", "kind", "system", "summary", "order", "time", "reasons", "verdict")
"""The fields of an entry compared, in the order a difference is named
(the effect, the longest, last)."""


def _difference(recorded: Entry, made: Entry) -> str:
    """What differs between the recorded entry and the one the rules make."""
    rec, new = recorded.to_data(), made.to_data()
    if rec["kind"] != new["kind"]:
        why = " ".join(made.reasons)
        verdict = ("the rules refuse it" + (f": {why}" if why else "") if made.kind == "refused"
                   else "the rules carry it out" if made.kind == "order" else f"the rules make a {made.kind}")
        return f"it is recorded as {recorded.kind}, but {verdict}"
    for key in FIELDS:
        if rec[key] != new[key]:
            return f"its {key} is recorded as {_short(rec[key])}, the rules give {_short(new[key])}"
    r_eff, n_eff = rec["effect"], new["effect"]
    for key in sorted(set(r_eff) | set(n_eff)):
        if r_eff.get(key) != n_eff.get(key):
            return f"its effect.{key} is recorded as {_short(r_eff.get(key))}, the rules give {_short(n_eff.get(key))}"
    if rec["prev"] != new["prev"]:
        return "it does not follow the entry before it"
    return "its hash does not match"


def _short(v: Any, n: int = 160) -> str:
    text = canonical_json(v) if not isinstance(v, str) else repr(v)
    return text if len(text) <= n else text[:n - 1] + "…"


def verify_once(game: Game) -> Problem | None:
    """:func:`verify` unless this machine already found every entry of the
    game's journal, ending in its position, to be what the rules give
    (:attr:`Game.adjudicated`, read from the user's cache); a journal that
    passes is recorded so (:meth:`Game.remember`), so a game is adjudicated
    again only for what changed since."""
    if game.adjudicated:
        return None
    problem = verify(game)
    if problem is None:
        game.adjudicated = True
        game.remember()
    return problem


__all__ = ["Problem", "verify", "verify_once"]
