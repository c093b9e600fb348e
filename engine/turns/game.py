"""A game run turn by turn through one rules system, every step journalled.

:class:`Game` stands between the game master and a rules system found in the
registry (:mod:`engine.rules.base`).  It adds what no single order can know:

* **only the side to move acts** — an order for a unit of another side is
  refused, naming whose move it is;
* **a unit acts once** — an order whose action (``moved``, ``railed``,
  ``marched``...) the unit already took this turn is refused, naming the
  journal entry where it did (the system says which actions are once a turn);
* **phases** — an order given in a phase its system does not allow it in is
  refused, naming the phases it belongs to;

then asks the system's own ``check`` (which sees the turn state through
``scenario.state["game"]["turn"]``, e.g. Module I capacity spent this round),
applies the order through the system's ``apply`` (a reversible
:class:`~engine.rules.base.Record`) and writes a journal entry: the order, the
verdict with its reasons, the effect.  A refused order is journalled too
(kind ``refused``) and changes nothing else.  ``end_phase`` runs the
system's end-of-phase effects (``end_phase_effects``, optional) and moves to
the next phase; after the last phase the move passes to the next side, and
after the last side the turn number grows and every unit may act again.

``undo`` takes back the last entry (its record, or for an end of phase the
turn state as it was), so the editor's undo and the journal stay one.

A system takes part through the hooks declared, with their defaults, on
:class:`RulesSystem`: ``phases``, ``once_per_turn``, ``action_of``,
``order_phases``, ``side_order``, ``turn_use`` (changes to ``turn.used``; a
key whose count reaches 0 is dropped), ``round_use`` (the ``turn.used`` keys
kept when the move passes to the next side, cleared when the round ends),
``end_phase_refusal``, ``end_phase_effects``, ``order_author`` (the side a
choice belongs to), ``pending_choices`` (choices waiting for a side's
answer, with the rules' defaults) and ``setup_problems`` (a set-up that
refuses the first order).  Before all of that an order's keys are checked
against the system's declaration
(:meth:`~engine.rules.base.RulesSystem.order_key_refusals`) and the side
giving it against its author.  See ``docs/developing.md`` and
``docs/turns.md``.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.io.journal_file import JournalLines, recorded, remember_verified
from engine.model import ModelError
from engine.rules.base import Record, RulesSystem, Verdict, get
from engine.words import possessive, side_phrase

from .delta import (
    GAME_KEY,
    DeltaMismatch,
    Snapshot,
    UnrecordedChange,
    apply_delta,
    apply_turn,
    check_shape,
    diff_turn,
    territory_data,
    unit_data,
)
from .dice import Commitment
from .journal import COMMITTED, RECORD_KINDS, BranchOrigin, Entry, EntryKind, Journal, JournalError, canonical_json
from .signing import Signatures, Signer
from .state import TurnState

VERBS = {"moved": "moves", "railed": "moves by rail", "marched": "marches", "fought": "fights",
         "retreated": "retreats", "fortified": "fortifies", "reinforced": "is reinforced", "bought": "buys",
         "placed": "is placed", "bombed": "bombs", "destroyed": "destroys"}
"""How a reason says that an action is taken once a turn."""


@dataclass(frozen=True)
class TurnVerdict:
    """The verdict on an order in the game: the turn's own reasons (side to
    move, once a turn, phase) and the system's verdict (``None`` when the
    turn's reasons refused the order before the system was asked)."""

    ok: bool
    reasons: tuple[str, ...]
    system: Verdict | None
    author: str | None = None
    """The side that gave the order (its orders file's side), when one was named."""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": self.ok, "reasons": list(self.reasons)}
        if self.system is not None:
            data["verdict"] = self.system.to_data()
        if self.author is not None:
            data["author"] = self.author
        return data


@dataclass(frozen=True)
class Pending:
    """A choice the rules leave to a side that is waiting for its answer
    (a defender's retreat, cavalry's withdraw or stand): the side it
    belongs to, what it is, and the order the rules give when it goes
    unanswered."""

    side: str
    summary: str
    default: Mapping[str, Any]

    def to_data(self) -> dict[str, Any]:
        return {"side": self.side, "summary": self.summary, "default": dict(self.default)}


SETUP_ACCEPTED = "setup_accepted"
"""The key of ``scenario.state`` by which a scenario accepts its set-up as
it stands (``true``): the problems its system's ``setup_problems`` names
no longer refuse the first order (``docs/turns.md``, "Set-up")."""


class EffectRecord(NamedTuple):
    """An end-of-phase effect the system applied: what it says and the
    record that undoes it, and the sentences that explain it.  A system
    may return plain ``(summary, record[, reasons])`` tuples (so it need not
    import this package)."""

    summary: str
    record: Record
    reasons: tuple[str, ...] = ()


class Game:
    """One scenario's game under one rules system (see the module docstring).

    ``system`` is a registered name or instance; ``None`` picks the only
    registered system whose options the scenario's ruleset sets and whose map
    kinds include the map's (a :class:`ModelError` names the candidates when
    there is not exactly one)."""

    def __init__(self, scenario: Any, system: RulesSystem[Any, Any] | str | None = None) -> None:
        self.scenario = scenario
        data = scenario.state.get(GAME_KEY)
        if system is None and isinstance(data, Mapping) and isinstance(data.get("system"), str):
            system = data["system"]
        self.system: RulesSystem[Any, Any] = _resolve(scenario, system)
        self._records: list[Record | None] = []
        self._anchors: dict[int, _Anchor] = {}
        self._dice_scan: tuple[int, str, int] = (0, "", -1)  # entries looked through, the last one's hash, the last
        # seed or reveal found among them (-1: none)
        self.signing: Signatures | None = None
        """The game master's signatures (``engine/turns/signing.py``);
        ``None``: an unsigned game."""
        self.signer: Signer | None = None
        """The game master's key, when this user holds it: each entry
        appended is signed by it (an entry appended without it is unsigned,
        which loading the file finds)."""
        self.dice_seed: str | None = None
        """The game master's seed of the open dice commitment, when the
        game master holds it (never saved in the file)."""
        if isinstance(data, Mapping):
            self.turn = TurnState.from_data(data.get("turn", {}), f"state.{GAME_KEY}.turn")
            journal = data.get("journal", {})
            lines = journal.get("entries") if isinstance(journal, Mapping) else None
            fmt = journal.get("format") if isinstance(journal, Mapping) else None
            position = _cache_key(self.position(), fmt) if isinstance(lines, JournalLines) else ""
            record = recorded(lines, position) if position and isinstance(lines, JournalLines) else None
            trusted = record is not None
            if record is not None and isinstance(lines, JournalLines) and type(record.get("count")) is int:
                lines.known_count(record["count"])  # the record is of this very text: its count need not be found
            self.journal = Journal.from_data(journal, f"state.{GAME_KEY}.journal", self.turn.to_data(),
                                             trusted=trusted)
            self._records = [None] * len(self.journal)
            self.signing = self._signatures(data.get("signing"), journal)
            if record is not None:
                self._dice_known(record.get("dice"))
            else:
                self._replay()
                if position and isinstance(lines, JournalLines):
                    remember_verified(lines, position, facts=self._facts())
            self.adjudicated = len(self.journal) == 0 or (record is not None and record.get("adjudicated") is True)
        else:
            sides = self.sides()
            self.turn = TurnState(turn=max(1, int(getattr(scenario, "turn", 1))), phase=self.phases[0],
                                  side=sides[0] if sides else None)
            self.journal = Journal()
            self.adjudicated = True
        if self.turn.phase not in self.phases:
            raise JournalError(f"state.{GAME_KEY}.turn.phase: {self.turn.phase!r} is not a phase of "
                               f"{self.system.title} ({', '.join(self.phases)})")
        self._save()

    # ------------------------------------------------------------------
    # what the system says about turns

    @property
    def phases(self) -> tuple[str, ...]:
        return tuple(self.system.phases) or ("orders",)

    def sides(self) -> list[str]:
        return list(self.system.side_order(self.scenario))

    def _once(self) -> frozenset[str]:
        return frozenset(self.system.once_per_turn)

    def _action(self, order: Mapping[str, Any]) -> str:
        return str(self.system.action_of(order))

    def side_name(self, side: str | None) -> str:
        if side is None:
            return "nobody"
        try:
            return str(self.scenario.side(side).name)
        except ModelError:
            return side

    # ------------------------------------------------------------------
    # orders

    def author(self, order: Mapping[str, Any]) -> str | None:
        """The side whose order ``order`` is: the side to move, or for a
        choice the rules give another side (a defender's retreat) that side,
        as the system's ``order_author(scenario, order)`` says."""
        side = self.system.order_author(self.scenario, order)
        return str(side) if side is not None else self.turn.side

    def check(self, order: Mapping[str, Any], side: str | None = None) -> TurnVerdict:
        """The verdict on ``order`` now, with the orders already applied this
        turn counted.  ``side`` is the side giving it (its orders file's);
        ``None`` is the game master, who may give any side's order.  An
        order that cannot be carried out -- a key its system's orders do not
        have, an unknown unit, a malformed value -- is refused with the
        reason.  Never changes anything."""
        if not isinstance(order, Mapping):
            raise ModelError(f"an order must be an object of keys and values, got {order!r}")
        reasons = self.system.order_key_refusals(self.scenario, order)
        if reasons:
            return TurnVerdict(False, tuple(reasons), None, side)
        try:
            reasons = self._turn_reasons(order, side)
            if reasons:
                return TurnVerdict(False, tuple(reasons), None, side)
            verdict = self.system.check(self.scenario, order)
        except ModelError as e:
            return TurnVerdict(False, (str(e),), None, side)
        return TurnVerdict(bool(verdict.ok), tuple(verdict.reasons), verdict, side)

    def _turn_reasons(self, order: Mapping[str, Any], side: str | None) -> list[str]:
        """The turn's reasons against ``order``: its author, the side to
        move, the phase, once a turn, the set-up."""
        reasons: list[str] = []
        setup = self.setup_refusal()
        if setup:
            reasons.append(setup)
        author = self.author(order)
        if side is not None and author is not None and side != author:
            reasons.append(f"This order is {possessive(self.side_name(author))} to give; these orders are "
                           f"{possessive(self.side_name(side))}.")
        allowed = self.system.order_phases(order)
        if allowed and self.turn.phase not in allowed:
            reasons.append(f"This order belongs to the {' or '.join(allowed)} phase; "
                           f"the game is in the {self.turn.phase} phase.")
        nation = order.get("nation")
        if isinstance(nation, str) and self.turn.side is not None:
            who = self.scenario.side(nation).id  # ModelError names an unknown side
            if who != self.turn.side:
                reasons.append(f"It is {possessive(self.side_name(self.turn.side))} move: "
                               f"{self.side_name(who)} cannot act now.")
        unit_id = order.get("unit")
        if isinstance(unit_id, str):
            unit = self.scenario.unit(unit_id)  # ModelError names an unknown unit
            if self.turn.side is not None and unit.side != self.turn.side:
                reasons.append(f"It is {possessive(self.side_name(self.turn.side))} move: {unit_id} "
                               f"({self.side_name(unit.side)}) cannot act now.")
            action = self._action(order)
            if action in self._once() and self.turn.did(unit_id, action):
                verb = VERBS.get(action, action)
                reasons.append(f"{unit_id} has already {action} this turn ({self._where(unit_id, action)}); "
                               f"a unit {verb} once a turn.")
        return reasons

    def setup_refusal(self) -> str | None:
        """Why no order may be carried out yet: the set-up problems the
        system's ``setup_problems`` names, while the game has not
        begun (no entry but refused orders) and the scenario does not accept
        its set-up (``state.setup_accepted``)."""
        if self.scenario.state.get(SETUP_ACCEPTED) is True:
            return None
        if any(e.kind not in ("refused", "adjust") and e.kind not in RECORD_KINDS for e in self.journal):
            return None
        found = list(self.system.setup_problems(self.scenario))
        if not found:
            return None
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return (f"The set-up is not the rules': {found[0]}{more}; correct it, or accept it by setting "
                f"state.{SETUP_ACCEPTED} to true in the scenario.")

    def pending(self) -> list[Pending]:
        """The choices the rules leave to a side that are waiting for its
        answer (the system's ``pending_choices(scenario)``)."""
        return [p if isinstance(p, Pending) else Pending(*p) for p in self.system.pending_choices(self.scenario)]

    def give_defaults(self, time: str | None = None) -> list[Entry]:
        """Answer every pending choice with the rules' default, each as an
        order of the side it belongs to, journalled as any order is.  Stops
        at a default the rules refuse (its refusal is journalled)."""
        out: list[Entry] = []
        seen: set[str] = set()
        while True:
            waiting = [p for p in self.pending() if p.summary not in seen]
            if not waiting:
                return out
            p = waiting[0]
            seen.add(p.summary)
            e = self.give(p.default, time=time, side=p.side,
                          summary=f"{self.order_text(p.default)} (unanswered: the rules' default)")
            out.append(e)
            if e.kind == "refused":
                return out

    def _where(self, unit_id: str, action: str) -> str:
        for i in range(len(self.journal) - 1, -1, -1):
            e = self.journal[i]
            if e.turn != self.turn.turn:
                break
            if e.kind == "order" and e.order.get("unit") == unit_id and e.effect.get("action") == action:
                return f"journal entry {i + 1}"
        return "this turn"

    def give(self, order: Mapping[str, Any], time: str | None = None, summary: str | None = None,
             side: str | None = None, source: Mapping[str, Any] | None = None,
             checked: TurnVerdict | None = None) -> Entry:
        """Check ``order`` and carry it out, or refuse it; either way the
        journal gets an entry, which is returned (``kind`` ``"order"`` or
        ``"refused"``).  ``time`` is the time of the post where the rules
        take a number from it; ``side`` the side giving the order (see
        :meth:`check`), kept in the entry's verdict as ``author``.  An
        applied order's ``effect`` holds the action, the system's record and
        the data-level ``delta``.  ``source`` (the orders file's hash, its
        sender and salt, :meth:`engine.turns.orders_file.OrdersFile.source`)
        is kept in the verdict as ``source``; the dice the rules need are
        rolled from the open commitment when :attr:`dice_seed` holds its
        seed (``engine/turns/dice.py``), kept in the verdict as ``dice``,
        and the order is journalled carrying them.  ``checked`` is the
        verdict :meth:`check` gave on this very order and ``side`` with the
        game as it is now (the caller vouches that nothing changed since): it
        is not asked for again, unless dice are rolled for the order."""
        text = summary or self.order_text(order)
        order, dice = self._dice(order, source)
        verdict = checked if checked is not None and dice is None and checked.author == side else self.check(order, side)
        extra: dict[str, Any] = {}
        if source is not None:
            extra["source"] = dict(source)
        if dice is not None:
            extra["dice"] = dice
        snap = Snapshot.take(self.scenario) if verdict.ok else None
        record: Record | None = None
        if snap is not None:
            assert verdict.system is not None
            try:
                record = self.system.effect(self.scenario, order, verdict.system)
            except ModelError as e:  # it cannot be carried out after all: nothing of it stays
                apply_delta(self.scenario, Snapshot.take(self.scenario).delta(self.scenario, snap), False,
                            "an order that could not be carried out")
                verdict = TurnVerdict(False, (str(e),), None, side)
        if record is None:
            entry = self._append(Entry(turn=self.turn.turn, phase=self.turn.phase, side=self.turn.side,
                                       kind="refused", system=self.system.name, summary=text, order=dict(order),
                                       verdict={**verdict.to_data(), **extra}, reasons=verdict.reasons,
                                       time=time), None)
            return entry
        assert verdict.system is not None and snap is not None
        before = self.turn.copy()
        action = self._action(order)
        who = order.get("unit")
        if isinstance(who, str):
            self.turn.record(who, action)
        for key, n in dict(self.system.turn_use(self.scenario, order, verdict.system)).items():
            total = self.turn.used.get(key, 0) + int(n)
            if total:
                self.turn.used[key] = total
            else:
                self.turn.used.pop(key, None)
        try:
            delta = Snapshot.take(self.scenario).delta(self.scenario, snap)
            game = diff_turn(before.to_data(), self.turn.to_data())
            if game:
                delta["game"] = game
            effect = {"action": action, "record": record.to_data(), "delta": delta}
            return self._append(Entry(turn=before.turn, phase=before.phase, side=before.side, kind="order",
                                      system=self.system.name, summary=text, order=dict(order),
                                      verdict={**verdict.to_data(), **extra}, reasons=verdict.reasons, effect=effect,
                                      time=time), record)
        except (ValueError, TypeError) as e:
            record.undo(self.scenario)
            self.turn = before
            self._save()
            if isinstance(e, UnrecordedChange):
                raise UnrecordedChange(f"{self.system.title}: {e}; the order was taken back") from None
            raise

    def _dice(self, order: Mapping[str, Any],
              source: Mapping[str, Any] | None) -> tuple[Mapping[str, Any], dict[str, Any] | None]:
        """``order`` carrying the dice its rules need, and what the verdict
        keeps of them (``None``: no dice)."""
        from .dice import Roller, commitment, open_commitment, salts_since

        if not isinstance(order, Mapping):
            return order, None
        roller = None
        if self.dice_seed is not None:
            start = self._last_dice_record()
            entries = [self.journal[i] for i in range(start, len(self.journal))]
            c = open_commitment(entries)
            if c is not None and commitment(self.dice_seed) == c.commit:
                salts = salts_since(entries, c.at)
                salt = source.get("salt") if source is not None else None
                if isinstance(salt, str) and salt not in salts:
                    salts.append(salt)
                roller = Roller(self.dice_seed, c.commit, tuple(salts), self.journal.head)
        try:
            got = self.system.roll_dice(self.scenario, order, roller.roll if roller is not None else None)
        except ModelError:
            return order, None
        if got is None:
            return order, None
        how, filled = got
        if how == "typed":
            return order, {"typed": True}
        assert roller is not None
        return filled, roller.record()

    def open_dice_commitment(self) -> Commitment | None:
        """The dice commitment not revealed yet
        (:class:`engine.turns.dice.Commitment`, its position counted in
        the whole journal), or ``None``."""
        from .dice import open_commitment

        start = self._last_dice_record()
        c = open_commitment([self.journal[i] for i in range(start, len(self.journal))])
        return None if c is None else Commitment(c.commit, c.at + start)

    def _last_dice_record(self) -> int:
        """The position (0-based) of the last seed or reveal entry, found
        from the entries' lines without decoding the others; the journal's
        length when there is none (no entry before it can hold an open
        commitment)."""
        n = len(self.journal)
        seen, last, found = self._dice_scan
        if not 0 < seen <= n or self.journal.hash_at(seen - 1) != last:
            seen, found = 0, -1  # a new journal, or entries taken back: looked for from the start
        lines = self.journal.lines.after(seen) if n > seen else []
        for i in range(n - 1, seen - 1, -1):
            line = lines[i - seen]
            if ('"kind":"seed"' in line or '"kind":"reveal"' in line) and self.journal[i].kind in ("seed", "reveal"):
                found = i
                break
        if n:
            self._dice_scan = (n, self.journal.hash_at(n - 1), found)
        return found if found >= 0 else n

    def record(self, entry: Entry) -> Entry:
        """Journal one of the game master's records (a dice seed committed or
        revealed, a key handed over: :data:`RECORD_KINDS`), at the present
        turn, phase and side; nothing else changes."""
        if entry.kind not in RECORD_KINDS:
            raise ModelError(f"a {entry.kind} entry is not a record of the game master's")
        return self._append(Entry(turn=self.turn.turn, phase=self.turn.phase, side=self.turn.side,
                                  kind=entry.kind, system=self.system.name, summary=entry.summary,
                                  effect=dict(entry.effect)), None)

    def order_text(self, order: Mapping[str, Any]) -> str:
        """``order`` in words: its system's (``order_text``), else its keys
        and values in plain words ("US-14 to 0410")."""
        try:
            words = self.system.order_text(self.scenario, order)
        except (ModelError, KeyError, TypeError, ValueError):
            words = None
        return words or _summary(order)

    def result_text(self, entry: Entry) -> str:
        """What the carried-out order of ``entry`` did, in its system's words
        (empty for another kind of entry, or when its reasons say it)."""
        if entry.kind != "order":
            return ""
        verdict = entry.verdict.get("verdict", {})
        record = entry.effect.get("record", {})
        try:
            return self.system.result_text(self.scenario, entry.order, verdict if isinstance(verdict, Mapping)
                                           else {}, record if isinstance(record, Mapping) else {})
        except (ModelError, KeyError, TypeError, ValueError):
            return ""

    def adjust(self, summary: str, change: Callable[[Any], None], reasons: Sequence[str] = ()) -> Entry:
        """A game master's adjustment outside the rules: ``change(scenario)``
        edits the scenario (IPCs or points set, a unit moved or set right)
        and the journal gets an ``adjust`` entry saying ``summary`` whose
        delta undoes it.  A change that changes nothing is refused with a
        :class:`ModelError`; one that raises leaves the scenario as it was."""
        snap = Snapshot.take(self.scenario)
        try:
            change(self.scenario)
        except Exception:
            apply_delta(self.scenario, Snapshot.take(self.scenario).delta(self.scenario, snap), False,
                        "a failed adjustment")
            raise
        delta = Snapshot.take(self.scenario).delta(self.scenario, snap)
        if not delta:
            raise ModelError(f"the adjustment \"{summary}\" changes nothing")
        return self._append(Entry(turn=self.turn.turn, phase=self.turn.phase, side=self.turn.side, kind="adjust",
                                  system=self.system.name, summary=summary, reasons=tuple(reasons),
                                  effect={"delta": delta}), None)

    def redo_adjust(self, entry: Entry) -> Entry:
        """Make again the game master's adjustment ``entry`` records (its
        delta applied forwards), as a re-adjudication of the journal does
        with an entry no rule makes: the entry made is the recorded one when
        the game stands where it stood then."""
        delta = entry.effect.get("delta")
        if entry.kind != "adjust" or not isinstance(delta, Mapping):
            raise JournalError(f"{entry.summary!r} is not a game master's adjustment with a recorded delta")
        where = f"the adjustment {entry.summary!r}"
        try:
            check_shape(self.scenario, delta, where)
        except DeltaMismatch as e:
            raise JournalError(str(e)) from None

        def change(s: Any) -> None:
            try:
                apply_delta(s, delta, True, where)
            except DeltaMismatch as e:
                raise JournalError(str(e)) from None

        self.journal.next_salt = entry.salt  # made again where it stood: the recorded entry, its hash
        try:
            return self.adjust(entry.summary, change, entry.reasons)
        finally:
            self.journal.next_salt = ""

    def end_phase(self) -> list[Entry]:
        """Run the system's end-of-phase effects, journal them, and move on:
        to the next phase, or (after the last) to the next side's first
        phase, or (after the last side) to the next turn.  A system's
        ``end_phase_refusal(scenario, turn)`` (optional) may refuse: the
        :class:`ModelError` carries its sentence and nothing changes."""
        why = self.setup_refusal() or self.system.end_phase_refusal(self.scenario, self.turn)
        if why:
            raise ModelError(f"The {self.turn.phase} phase cannot end: {why.rstrip('.')}.")
        before = self.turn.copy()
        start = Snapshot.take(self.scenario)
        effects = [EffectRecord(*fx) for fx in self.system.end_phase_effects(self.scenario, self.turn)]
        out = []
        for fx, delta in zip(effects, self._effect_deltas(effects, start), strict=True):
            out.append(self._append(Entry(turn=before.turn, phase=before.phase, side=before.side, kind="effect",
                                          system=self.system.name, summary=fx.summary, reasons=tuple(fx.reasons),
                                          effect={"record": fx.record.to_data(), "delta": delta}), fx.record))
        before_move = self.turn.copy()
        snap = Snapshot.take(self.scenario)
        last_phase = self.turn.phase == self.phases[-1]
        if not last_phase:
            self.turn.phase = self.phases[self.phases.index(self.turn.phase) + 1]
            kind: EntryKind = "end_phase"
            text = f"end of the {before.phase} phase; the {self.turn.phase} phase begins"
        else:
            sides = self.sides()
            i = sides.index(self.turn.side) if self.turn.side in sides else -1
            nxt = i + 1
            new_round = nxt >= len(sides)
            if new_round:
                nxt = 0
                self.turn.turn += 1
                self.scenario.turn = self.turn.turn
            self.turn.side = sides[nxt] if sides else None
            self.turn.phase = self.phases[0]
            self.turn.acted = {}
            self.turn.used = {k: v for k, v in self.turn.used.items()
                              if not new_round and self.system.round_use(k)}
            kind = "end_turn"
            text = (f"end of {possessive(self.side_name(before.side))} move; "
                    f"turn {self.turn.turn}: {side_phrase(self.side_name(self.turn.side))} to move")
        delta = Snapshot.take(self.scenario).delta(self.scenario, snap)
        delta["game"] = diff_turn(before_move.to_data(), self.turn.to_data())
        out.append(self._append(Entry(turn=before.turn, phase=before.phase, side=before.side, kind=kind,
                                      system=self.system.name, summary=text,
                                      effect={"turn": self.turn.to_data(), "delta": delta}), None))
        return out

    def _effect_deltas(self, effects: Sequence[EffectRecord], start: Snapshot) -> list[dict[str, Any]]:
        """One delta per end-of-phase effect.  The hook applied them all;
        their records are undone one by one (last first) to see what each
        changed, then the deltas are applied forwards again, which leaves the
        scenario exactly as the hook left it."""
        if not effects:
            return []
        snaps = [Snapshot.take(self.scenario)]
        for fx in reversed(effects):
            fx.record.undo(self.scenario)
            snaps.append(Snapshot.take(self.scenario))
        snaps.reverse()
        if snaps[0] != start:
            raise ModelError(f"{self.system.title}: undoing its end-of-phase effects does not give back the "
                             f"scenario as it was before them")
        try:
            deltas = [snaps[i + 1].delta(self.scenario, snaps[i]) for i in range(len(effects))]
        except UnrecordedChange as e:  # the scenario is as it was before the effects
            raise UnrecordedChange(f"{self.system.title}, at the end of the phase: {e}; nothing was carried "
                                   f"out") from None
        for d in deltas:
            apply_delta(self.scenario, d, True, "an end-of-phase effect")
        return deltas

    def end_turn(self) -> list[Entry]:
        """End every remaining phase of the side to move."""
        side, turn = self.turn.side, self.turn.turn
        out: list[Entry] = []
        while self.turn.side == side and self.turn.turn == turn:
            out.extend(self.end_phase())
        return out

    def undo(self) -> Entry:
        """Take back the last journal entry and its effect: through the
        system's record when the entry was made in this session, else (an
        entry loaded from the file) by applying its delta backwards."""
        if not len(self.journal):
            raise JournalError("nothing to take back: the journal is empty")
        n = len(self.journal)
        entry = self.journal[-1]
        held = self._records[-1]
        delta = entry.effect.get("delta")
        where = entry.label(n)
        if entry.kind != "refused" and entry.kind not in RECORD_KINDS and not isinstance(delta, Mapping):
            raise JournalError(f"{where} has no record of what it changed; it cannot be taken back")
        turn = self.turn
        if isinstance(delta, Mapping):
            try:
                check_shape(self.scenario, delta, where)
                turn = TurnState.from_data(apply_turn(self.turn.to_data(), delta.get("game", {}), False, where))
                if held is not None:
                    held.undo(self.scenario)
                else:
                    apply_delta(self.scenario, delta, False, where)
            except DeltaMismatch as e:
                raise JournalError(str(e)) from None
        self.journal.pop()
        self._records.pop()
        if self.signing is not None and self.signing.signatures:
            self.signing.signatures.pop()
        self._anchors.pop(n, None)
        self.turn = turn
        self._save()
        return entry

    # ------------------------------------------------------------------
    # replay

    def _replay(self) -> None:
        """Check that the journal reproduces the saved scenario: undo every
        entry's delta (last first) to reach the turn-0 state, then apply them
        all forwards again.  A :class:`JournalError` names the first entry
        (walking back from the end) whose record does not match."""
        start = self._walk(self.scenario, len(self.journal), 0, self.turn.to_data())
        self._walk(self.scenario, 0, len(self.journal), start)

    def _walk(self, scenario: Any, frm: int, to: int, turn: dict[str, Any]) -> dict[str, Any]:
        """Move ``scenario`` from entry ``frm`` (where the turn state's data
        is ``turn``) to entry ``to``; returns the turn state's data there."""
        forward = to > frm
        rng = range(frm, to) if forward else range(frm - 1, to - 1, -1)
        for i in rng:
            e = self.journal[i]
            delta = e.effect.get("delta")
            if not isinstance(delta, Mapping):
                if e.kind == "refused" or e.kind in RECORD_KINDS:
                    continue
                raise JournalError(f"state.{GAME_KEY}.journal: {e.label(i + 1)} has no record of what it "
                                   f"changed (effect.delta); the game cannot be replayed")
            where = f"state.{GAME_KEY}.journal: {e.label(i + 1)} does not match the scenario"
            try:
                if not forward:  # the walk back has checked what the walk forwards reads
                    check_shape(scenario, delta, f"state.{GAME_KEY}.journal: {e.label(i + 1)}")
                turn = apply_turn(turn, delta.get("game", {}), forward, where)
                apply_delta(scenario, delta, forward, where, check=not forward)  # the walk back checked them
            except DeltaMismatch as err:
                raise JournalError(str(err)) from None
        return turn

    def at(self, n: int) -> Any:
        """A copy of the scenario as it was after entry ``n`` (0: before the
        first), with its game data (turn state, the first ``n`` entries) as
        they were then: the editor's read-only replay.

        The walk starts from the nearest position already reached (the
        present, a position asked for before, or a checkpoint kept every
        :data:`ANCHOR_EVERY` entries on the way), so stepping one entry
        back or forwards costs one entry, and any position at most
        :data:`ANCHOR_EVERY` entries once the journal has been walked."""
        if not 0 <= n <= len(self.journal):
            raise JournalError(f"no entry {n}: the journal has {len(self.journal)} entries (0 to "
                               f"{len(self.journal)})")
        full = self.scenario.state
        self.scenario.state = {k: v for k, v in full.items() if k != GAME_KEY}
        try:
            copy = self.scenario.copy()  # without the journal: copying it would cost more than the replay
        finally:
            self.scenario.state = full
        end = len(self.journal)
        self._anchors = {k: a for k, a in self._anchors.items() if k < end}
        frm = min([end, *self._anchors], key=lambda k: (abs(k - n), k != end))
        if frm == end:
            turn = self.turn.to_data()
        else:
            turn = self._anchors[frm].restore(copy)
        step = -1 if n < frm else 1
        while frm != n:
            nxt = (frm // ANCHOR_EVERY + (1 if step > 0 else 0)) * ANCHOR_EVERY
            if step < 0 and nxt == frm:
                nxt -= ANCHOR_EVERY
            nxt = min(nxt, n) if step > 0 else max(nxt, n)
            turn = self._walk(copy, frm, nxt, turn)
            frm = nxt
            if frm % ANCHOR_EVERY == 0 or frm == n:
                self._anchors[frm] = _Anchor.take(copy, turn)
        recent = [k for k in self._anchors if k % ANCHOR_EVERY]
        for k in recent[:-2]:  # keep the checkpoints and the last two positions asked for
            del self._anchors[k]
        copy.state[GAME_KEY] = {"system": self.system.name, "turn": turn,
                                "journal": self.journal.upto(n).to_data(turn)}
        return copy

    def position(self) -> str:
        """A digest of where the game stands: the turn state, every unit,
        the scenario's state (but the game's own), its turn number, its
        territories and the map's cells' names; what a replay of the
        journal must end in (:func:`engine.io.journal_file.verified`).
        Empty when the scenario holds data with no canonical text."""
        s = self.scenario
        territories = getattr(s.map, "territories", None)
        grid = {} if territories is not None else {"grid": s.map.grid.to_dict(),
                                                   "numbering": s.map.numbering.to_dict()}
        data = {"system": self.system.name, "turn": self.turn.to_data(), "scenario_turn": s.turn, "map": grid,
                "units": [[u.id, unit_data(s, u)] for u in s.units],
                "state": {k: v for k, v in s.state.items() if k != GAME_KEY},
                "territories": {tid: territory_data(t) for tid, t in (territories or {}).items()}}
        try:
            text = canonical_json(data)
        except (ValueError, TypeError):
            return ""
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def remember(self) -> None:
        """Record this game's journal and position as verified (after the
        file holding them was written), so the next read of the file need
        not verify and replay the journal again; and as adjudicated when
        :attr:`adjudicated` (the journal it was read with was, and every
        entry since was made by the rules here)."""
        position = _cache_key(self.position(), self.journal.format)
        if position:
            remember_verified(self.journal.lines, position, adjudicated=self.adjudicated, facts=self._facts())

    def _facts(self) -> dict[str, Any]:
        """What the record of a verified journal keeps besides (see
        :func:`~engine.io.journal_file.remember_verified`): the position of
        its last dice record, -1 for none."""
        k = self._last_dice_record()
        return {"dice": k if k < len(self.journal) else -1}

    def _dice_known(self, k: Any) -> None:
        """Take the position of the journal's last dice record from its
        verification record (the next look starts after the entries it
        covers), when it is one."""
        n = len(self.journal)
        if n and isinstance(k, int) and not isinstance(k, bool) and -1 <= k < n and (
                k < 0 or self.journal[k].kind in ("seed", "reveal")):
            self._dice_scan = (n, self.journal.hash_at(n - 1), k)

    def branch(self, n: int, source: str) -> Any:
        """A new scenario at entry ``n`` for a what-if, its journal marked as
        a branch of ``source`` (the original's name or file) at entry ``n``."""
        copy = self.at(n)
        journal = self.journal.branch(n, source)
        copy.state[GAME_KEY]["journal"] = journal.to_data(copy.state[GAME_KEY]["turn"])
        return copy

    @property
    def branch_of(self) -> BranchOrigin | None:
        return self.journal.branch_of

    # ------------------------------------------------------------------

    def _append(self, entry: Entry, record: Record | None) -> Entry:
        sealed = self.journal.append(entry)
        self._records.append(record)
        if self.signing is not None:
            self.signing.signatures.append(self.signer.sign(sealed.hash) if self.signer is not None else "")
        self._save()
        return sealed

    def _save(self) -> None:
        data: dict[str, Any] = {"system": self.system.name, "turn": self.turn.to_data(),
                                "journal": self.journal.to_data(self.turn.to_data())}
        if self.signing is not None:
            if self.signer is not None:
                self.signing.seal = self.signer.sign(data["journal"]["seal"])
            data["signing"] = self.signing.to_data()
        self.scenario.state[GAME_KEY] = data

    # ------------------------------------------------------------------
    # signatures

    def verify_signatures(self) -> None:
        """Check every entry's signature one by one, besides the seal's
        (loading checks the seal's, which vouches for the record):
        :class:`~engine.turns.signing.SignatureError` names the first entry
        whose signature is not the game master's."""
        if self.signing is not None:
            data = self.scenario.state.get(GAME_KEY, {})
            self._signatures(self.signing.to_data(), data.get("journal"), every=True)

    def _signatures(self, raw: Any, journal: Any, every: bool = False) -> Signatures | None:
        """The file's signatures, verified against the journal (a
        :class:`~engine.turns.signing.SignatureError` names the first entry
        that is not the game master's)."""
        if raw is None:
            return None
        from .signing import verify

        where = f"state.{GAME_KEY}.signing"
        sig = Signatures.from_data(raw, where)
        lines = self.journal.lines.lines
        handed = {i: str(self.journal[i].effect.get("key")) for i, line in enumerate(lines)
                  if '"kind":"key"' in line and self.journal[i].kind == "key"}
        seal = journal.get("seal") if isinstance(journal, Mapping) else None
        verify(sig, [JournalLines.hash_of(line) for line in lines], lambda i: self.journal[i].label(i + 1), handed,
               seal if isinstance(seal, str) else None, where, every)
        return sig

    @property
    def signed(self) -> bool:
        return self.signing is not None

    def sign(self, signer: Signer) -> None:
        """Sign every entry of an unsigned game with ``signer``, which
        signs every entry from now on."""
        if self.signing is not None:
            raise ModelError("the game is already signed; a new key takes over by a hand-over entry")
        self.signer = signer
        self.signing = Signatures(signer.public, [signer.sign(e) for e in
                                                  (JournalLines.hash_of(x) for x in self.journal.lines.lines)])
        self._save()

    def hand_over(self, signer: Signer, reason: str = "") -> Entry:
        """Hand the signing of the record to a new key (the old one lost):
        a ``key`` entry naming both, signed by the new key, which signs every
        entry after it."""
        if self.signing is None:
            raise ModelError("the game is not signed: sign it, no hand-over is needed")
        old = self.signing.key_at({i: str(self.journal[i].effect.get("key")) for i in range(len(self.journal))
                                   if self.journal[i].kind == "key"}, len(self.journal))
        from .signing import key_id

        self.signer = signer
        why = f": {reason}" if reason else ""
        return self.record(Entry(turn=self.turn.turn, phase=self.turn.phase, side=self.turn.side, kind="key",
                                 system=self.system.name,
                                 summary=f"the game master's key {key_id(signer.public)} takes over from "
                                         f"{key_id(old)}{why}",
                                 effect={"key": signer.public, "replaces": old}))


def _cache_key(position: str, fmt: Any) -> str:
    """What the cache of verified journals keys a journal's lines with
    besides their text: the position they end in, and for format 3 the
    format (the same lines are hashed another way in another format)."""
    return f"{position}\nformat {COMMITTED}" if position and fmt == COMMITTED else position


ANCHOR_EVERY = 256
"""Entries between the checkpoints :meth:`Game.at` keeps as it walks."""


@dataclass(frozen=True)
class _Anchor:
    """What entries change, as it was at one position of the journal (the
    rest of a scenario is taken from the present: entries never change
    it)."""

    units: list[Any]
    state: dict[str, Any]
    scenario_turn: int
    territories: dict[str, dict[str, Any]]
    turn: dict[str, Any]

    @classmethod
    def take(cls, s: Any, turn: dict[str, Any]) -> _Anchor:
        territories = getattr(s.map, "territories", None) or {}
        return cls(copy.deepcopy(s.units), copy.deepcopy({k: v for k, v in s.state.items() if k != GAME_KEY}),
                   s.turn, {tid: territory_data(t) for tid, t in territories.items()}, copy.deepcopy(turn))

    def restore(self, s: Any) -> dict[str, Any]:
        """Set ``s`` (a copy of the present scenario) to this position;
        returns the turn state's data there."""
        s.units[:] = copy.deepcopy(self.units)
        s.state = copy.deepcopy(self.state)
        s.turn = self.scenario_turn
        territories = getattr(s.map, "territories", None) or {}
        for tid, data in self.territories.items():
            t = territories.get(tid)
            if t is not None:
                for f, v in data.items():
                    setattr(t, f, copy.deepcopy(v))
        return copy.deepcopy(self.turn)


def _summary(order: Mapping[str, Any]) -> str:
    unit, to = order.get("unit"), order.get("to")
    if isinstance(unit, str) and to is not None:
        return f"{unit} to {to}"
    return ", ".join(f"{k} {_value(v)}" for k, v in order.items())


def _value(v: Any) -> str:
    """A value of an order in plain words: a list's items joined."""
    if isinstance(v, (list, tuple)):
        return " and ".join(_value(x) for x in v) if len(v) < 3 else ", ".join(_value(x) for x in v)
    return str(v)


def _resolve(scenario: Any, system: RulesSystem[Any, Any] | str | None) -> RulesSystem[Any, Any]:
    if isinstance(system, RulesSystem):
        return system
    if isinstance(system, str):
        return get(system)
    from engine.rules.base import BUILTIN_MODULES, systems

    options = getattr(getattr(scenario, "ruleset", None), "options", {}) or {}
    named = [name for name in options if isinstance(name, str) and f"engine.rules.{name}" in BUILTIN_MODULES]
    if len(named) == 1 and len(options) == 1:  # the one system the ruleset names: import its module only
        return get(named[0])
    found = [s for s in systems() if s.name in options]
    if len(found) == 1:
        return found[0]
    names = ", ".join(s.name for s in (found or systems()))
    raise ModelError(f"which rules system runs this game? the ruleset names "
                     f"{'none' if not found else 'several'} (candidates: {names}); give one")
