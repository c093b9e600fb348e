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
``scenario.state["game"]["turn"]``, e.g. Module I capacity spent this turn),
applies the order through the system's ``apply`` (a reversible
:class:`~engine.rules.base.Record`) and writes a journal entry: the order, the
verdict with its reasons, the effect.  A refused order is journalled too
(kind ``refused``) and changes nothing else.  ``end_phase`` runs the
system's end-of-phase effects (``end_phase_effects``, optional) and moves to
the next phase; after the last phase the move passes to the next side, and
after the last side the turn number grows and every unit may act again.

``undo`` takes back the last entry (its record, or for an end of phase the
turn state as it was), so the editor's undo and the journal stay one.

A system takes part by setting, beside the :class:`RulesSystem` interface:
``phases`` (tuple of phase names; default one phase, ``"orders"``),
``once_per_turn`` (actions a unit takes at most once a turn; default moved,
railed, marched), ``action_of(order)`` (default ``"moved"``),
``order_phases(order)`` (default: every phase), ``side_order(scenario)``
(default: the scenario's sides in file order),
``end_phase_effects(scenario, turn)`` (default: none),
``order_author(scenario, order)`` (the side a choice belongs to; default:
the side to move), ``pending_choices(scenario)`` (choices waiting for a
side's answer, with the rules' defaults) and ``setup_problems(scenario)``
(a set-up that refuses the first order).  Before all of that an order's
keys are checked against the system's declaration
(:meth:`~engine.rules.base.RulesSystem.order_key_refusals`) and the side
giving it against its author.  See ``docs/developing.md`` and
``docs/turns.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.model import ModelError
from engine.rules.base import Record, RulesSystem, Verdict, get

from .delta import GAME_KEY, DeltaMismatch, Snapshot, apply_delta, apply_turn, diff_turn
from .journal import BranchOrigin, Entry, EntryKind, Journal, JournalError
from .state import TurnState

DEFAULT_ONCE = frozenset({"moved", "railed", "marched"})

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
        if isinstance(data, Mapping):
            self.turn = TurnState.from_data(data.get("turn", {}), f"state.{GAME_KEY}.turn")
            self.journal = Journal.from_data(data.get("journal", {}), f"state.{GAME_KEY}.journal")
            self._records = [None] * len(self.journal)
            self._replay()
        else:
            sides = self.sides()
            self.turn = TurnState(turn=max(1, int(getattr(scenario, "turn", 1))), phase=self.phases[0],
                                  side=sides[0] if sides else None)
            self.journal = Journal()
        if self.turn.phase not in self.phases:
            raise JournalError(f"state.{GAME_KEY}.turn.phase: {self.turn.phase!r} is not a phase of "
                               f"{self.system.title} ({', '.join(self.phases)})")
        self._save()

    # ------------------------------------------------------------------
    # what the system says about turns

    @property
    def phases(self) -> tuple[str, ...]:
        phases = getattr(self.system, "phases", None)
        return tuple(phases) if phases else ("orders",)

    def sides(self) -> list[str]:
        order = getattr(self.system, "side_order", None)
        if callable(order):
            return list(order(self.scenario))
        return [s.id for s in self.scenario.sides]

    def _once(self) -> frozenset[str]:
        return frozenset(getattr(self.system, "once_per_turn", DEFAULT_ONCE))

    def _action(self, order: Mapping[str, Any]) -> str:
        f = getattr(self.system, "action_of", None)
        return str(f(order)) if callable(f) else "moved"

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
        as the system's optional ``order_author(scenario, order)`` says."""
        hook = getattr(self.system, "order_author", None)
        side = hook(self.scenario, order) if callable(hook) else None
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
            reasons.append(f"This order is the {_possessive(self.side_name(author))} to give; these orders are "
                           f"the {_possessive(self.side_name(side))}.")
        phases_of = getattr(self.system, "order_phases", None)
        allowed = phases_of(order) if callable(phases_of) else None
        if allowed and self.turn.phase not in allowed:
            reasons.append(f"This order belongs to the {' or '.join(allowed)} phase; "
                           f"the game is in the {self.turn.phase} phase.")
        nation = order.get("nation")
        if isinstance(nation, str) and self.turn.side is not None:
            who = self.scenario.side(nation).id  # ModelError names an unknown side
            if who != self.turn.side:
                reasons.append(f"It is the {_possessive(self.side_name(self.turn.side))} move: "
                               f"{self.side_name(who)} cannot act now.")
        unit_id = order.get("unit")
        if isinstance(unit_id, str):
            unit = self.scenario.unit(unit_id)  # ModelError names an unknown unit
            if self.turn.side is not None and unit.side != self.turn.side:
                reasons.append(f"It is the {_possessive(self.side_name(self.turn.side))} move: {unit_id} "
                               f"({self.side_name(unit.side)}) cannot act now.")
            action = self._action(order)
            if action in self._once() and self.turn.did(unit_id, action):
                verb = VERBS.get(action, action)
                reasons.append(f"{unit_id} has already {action} this turn ({self._where(unit_id, action)}); "
                               f"a unit {verb} once a turn.")
        return reasons

    def setup_refusal(self) -> str | None:
        """Why no order may be carried out yet: the set-up problems the
        system's optional ``setup_problems`` names, while the game has not
        begun (no entry but refused orders) and the scenario does not accept
        its set-up (``state.setup_accepted``)."""
        problems = getattr(self.system, "setup_problems", None)
        if not callable(problems) or self.scenario.state.get(SETUP_ACCEPTED) is True:
            return None
        if any(e.kind != "refused" for e in self.journal):
            return None
        found = list(problems(self.scenario))
        if not found:
            return None
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return (f"The set-up is not the rules': {found[0]}{more}; correct it, or accept it by setting "
                f"state.{SETUP_ACCEPTED} to true in the scenario.")

    def pending(self) -> list[Pending]:
        """The choices the rules leave to a side that are waiting for its
        answer (the system's optional ``pending_choices(scenario)``)."""
        hook = getattr(self.system, "pending_choices", None)
        if not callable(hook):
            return []
        return [p if isinstance(p, Pending) else Pending(*p) for p in hook(self.scenario)]

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
                          summary=f"{_summary(p.default)} (unanswered: the rules' default)")
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
             side: str | None = None) -> Entry:
        """Check ``order`` and carry it out, or refuse it; either way the
        journal gets an entry, which is returned (``kind`` ``"order"`` or
        ``"refused"``).  ``time`` is the time of the post where the rules
        take a number from it; ``side`` the side giving the order (see
        :meth:`check`), kept in the entry's verdict as ``author``.  An
        applied order's ``effect`` holds the action, the system's record and
        the data-level ``delta``."""
        verdict = self.check(order, side)
        text = summary or _summary(order)
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
                                       verdict=verdict.to_data(), reasons=verdict.reasons, time=time), None)
            return entry
        assert verdict.system is not None and snap is not None
        before = self.turn.copy()
        action = self._action(order)
        who = order.get("unit")
        if isinstance(who, str):
            self.turn.record(who, action)
        spends = getattr(self.system, "turn_use", None)
        if callable(spends):
            for key, n in dict(spends(self.scenario, order, verdict.system)).items():
                self.turn.used[key] = self.turn.used.get(key, 0) + int(n)
        delta = Snapshot.take(self.scenario).delta(self.scenario, snap)
        game = diff_turn(before.to_data(), self.turn.to_data())
        if game:
            delta["game"] = game
        effect = {"action": action, "record": record.to_data(), "delta": delta}
        try:
            return self._append(Entry(turn=before.turn, phase=before.phase, side=before.side, kind="order",
                                      system=self.system.name, summary=text, order=dict(order),
                                      verdict=verdict.to_data(), reasons=verdict.reasons, effect=effect,
                                      time=time), record)
        except (ValueError, TypeError):
            record.undo(self.scenario)
            self.turn = before
            self._save()
            raise

    def end_phase(self) -> list[Entry]:
        """Run the system's end-of-phase effects, journal them, and move on:
        to the next phase, or (after the last) to the next side's first
        phase, or (after the last side) to the next turn.  A system's
        ``end_phase_refusal(scenario, turn)`` (optional) may refuse: the
        :class:`ModelError` carries its sentence and nothing changes."""
        refusal = getattr(self.system, "end_phase_refusal", None)
        why = self.setup_refusal() or (refusal(self.scenario, self.turn) if callable(refusal) else None)
        if why:
            raise ModelError(f"the {self.turn.phase} phase cannot end: {why}")
        before = self.turn.copy()
        start = Snapshot.take(self.scenario)
        hook = getattr(self.system, "end_phase_effects", None)
        effects = [EffectRecord(*fx) for fx in hook(self.scenario, self.turn)] if callable(hook) else []
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
            if nxt >= len(sides):
                nxt = 0
                self.turn.turn += 1
                self.scenario.turn = self.turn.turn
            self.turn.side = sides[nxt] if sides else None
            self.turn.phase = self.phases[0]
            self.turn.acted = {}
            self.turn.used = {}
            kind = "end_turn"
            text = (f"end of the {_possessive(self.side_name(before.side))} move; "
                    f"turn {self.turn.turn}: the {self.side_name(self.turn.side)} to move")
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
        deltas = [snaps[i + 1].delta(self.scenario, snaps[i]) for i in range(len(effects))]
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
        if entry.kind != "refused" and not isinstance(delta, Mapping):
            raise JournalError(f"{where} has no record of what it changed; it cannot be taken back")
        turn = self.turn
        if isinstance(delta, Mapping):
            try:
                turn = TurnState.from_data(apply_turn(self.turn.to_data(), delta.get("game", {}), False, where))
                if held is not None:
                    held.undo(self.scenario)
                else:
                    apply_delta(self.scenario, delta, False, where)
            except DeltaMismatch as e:
                raise JournalError(str(e)) from None
        self.journal.pop()
        self._records.pop()
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
                if e.kind == "refused":
                    continue
                raise JournalError(f"state.{GAME_KEY}.journal: {e.label(i + 1)} has no record of what it "
                                   f"changed (effect.delta); the game cannot be replayed")
            where = f"state.{GAME_KEY}.journal: {e.label(i + 1)} does not match the scenario"
            try:
                turn = apply_turn(turn, delta.get("game", {}), forward, where)
                apply_delta(scenario, delta, forward, where, check=not forward)  # the walk back checked them
            except DeltaMismatch as err:
                raise JournalError(str(err)) from None
        return turn

    def at(self, n: int) -> Any:
        """A copy of the scenario as it was after entry ``n`` (0: before the
        first), with its game data (turn state, the first ``n`` entries) as
        they were then: the editor's read-only replay."""
        if not 0 <= n <= len(self.journal):
            raise JournalError(f"no entry {n}: the journal has {len(self.journal)} entries (0 to "
                               f"{len(self.journal)})")
        full = self.scenario.state
        self.scenario.state = {k: v for k, v in full.items() if k != GAME_KEY}
        try:
            copy = self.scenario.copy()  # without the journal: copying it would cost more than the replay
        finally:
            self.scenario.state = full
        turn = self._walk(copy, len(self.journal), n, self.turn.to_data())
        copy.state[GAME_KEY] = {"system": self.system.name, "turn": turn,
                                "journal": self.journal.upto(n).to_data()}
        return copy

    def branch(self, n: int, source: str) -> Any:
        """A new scenario at entry ``n`` for a what-if, its journal marked as
        a branch of ``source`` (the original's name or file) at entry ``n``."""
        copy = self.at(n)
        journal = self.journal.branch(n, source)
        copy.state[GAME_KEY]["journal"] = journal.to_data()
        return copy

    @property
    def branch_of(self) -> BranchOrigin | None:
        return self.journal.branch_of

    # ------------------------------------------------------------------

    def _append(self, entry: Entry, record: Record | None) -> Entry:
        sealed = self.journal.append(entry)
        self._records.append(record)
        self._save()
        return sealed

    def _save(self) -> None:
        self.scenario.state[GAME_KEY] = {"system": self.system.name, "turn": self.turn.to_data(),
                                         "journal": self.journal.to_data()}


def _possessive(name: str) -> str:
    """``the Union's move``, ``the Rebels' move``."""
    return name + ("'" if name.endswith("s") else "'s")


def _summary(order: Mapping[str, Any]) -> str:
    unit, to = order.get("unit"), order.get("to")
    if isinstance(unit, str) and to is not None:
        return f"{unit} to {to}"
    return ", ".join(f"{k} {v}" for k, v in order.items())


def _resolve(scenario: Any, system: RulesSystem[Any, Any] | str | None) -> RulesSystem[Any, Any]:
    if isinstance(system, RulesSystem):
        return system
    if isinstance(system, str):
        return get(system)
    from engine.rules.base import systems

    options = getattr(getattr(scenario, "ruleset", None), "options", {}) or {}
    found = [s for s in systems() if s.name in options]
    if len(found) == 1:
        return found[0]
    names = ", ".join(s.name for s in (found or systems()))
    raise ModelError(f"which rules system runs this game? the ruleset names "
                     f"{'none' if not found else 'several'} (candidates: {names}); give one")
