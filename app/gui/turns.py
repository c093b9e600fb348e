"""The game in the editor: turns, orders and the journal.

:class:`TurnController` stands between an editor window and the turn engine
(:class:`engine.turns.game.Game`, see ``docs/turns.md``).  A scenario is a
*game* when its file already holds one (``state.game``) or its ruleset names
exactly one registered rules system; then

* while it is played (:meth:`TurnController.playing`: the file holds a
  game, or Game > Play as a Game is checked; otherwise Adjudicate mode's
  moves stay plain edits for setting a scenario up), an order given by an
  editor gesture (the adjudicate tool's click) goes
  through :meth:`Game.give`: the system checks it against the turn so far
  (the side to move, a unit acts once a turn, the phase); a carried-out
  order is one journal entry and one undo step
  (:class:`app.gui.commands.GameCommand`); a refused one changes nothing and
  its reasons are said;
* End Turn / End Phase run :meth:`Game.end_turn` / :meth:`Game.end_phase` as
  one undo step; a system's refusal (a combat owed) comes back as text;
* undo of such a step is :meth:`Game.undo` of each entry it made, so the
  editor's undo and the journal stay one.

Nothing is written into the scenario until the first order: a game file
opened and closed without orders saves as it was read, and undoing the
first order removes the game data it added (the file is byte-identical).

:attr:`TurnController.changed` fires after every step (views: title, status
bar, the Journal dock, the spent counters).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from engine.editing import Touched
from engine.model import ModelError
from engine.turns.delta import GAME_KEY
from engine.turns.game import Game, TurnVerdict
from engine.turns.journal import Entry, JournalError
from engine.turns.verify import verify_once
from engine.words import joined

from .render.spent import spent_units

if TYPE_CHECKING:
    from .document_base import DocumentBase


class TurnController(QObject):
    """The game of one document (see the module docstring)."""

    changed = Signal()

    def __init__(self, document: DocumentBase) -> None:
        super().__init__(document)
        self.document = document
        self._game: Game | None = None
        self._fresh = False
        """The scenario had no game data when the game was made: undoing back
        to an empty journal takes the data away again."""
        self._checked: tuple[Game, dict[str, Any], int, TurnVerdict] | None = None
        """The order being given by :meth:`give`, checked: the game, the
        order, the journal's length then and the verdict (:meth:`run` hands
        it to the game, which does not ask the rules again)."""
        self._problem: str | None = None
        self._refused: Any = None
        """The scenario whose game :attr:`problem` refuses (looked at once)."""
        self._play = False
        self.plan: Any = None
        """The orders being planned (:class:`app.gui.plan_orders.OrdersPlan`),
        or ``None``: while planning, an order is checked as that side's and
        kept in the plan; the plan takes it back when it ends."""
        self._setup = False
        """Moves outside play were chosen to be set-up edits (asked once)."""
        self.notifying = False
        """True while the views hear of a game step (carried out or taken
        back): what changed is only what a journal entry records (units, the
        scenario's state, its turn, territories' data), never the map, the
        sides or the ruleset (the autosave relies on it)."""
        document.scenarioReplaced.connect(self._replaced)

    def _replaced(self, _scenario: Any) -> None:
        if self.plan is not None:
            self.plan.forget()
        self._game = None
        self._problem = None
        self._refused = None
        self._play = False
        self._setup = False
        self.changed.emit()

    # -- playing or designing ------------------------------------------------------
    def playing(self) -> bool:
        """Whether editor gestures are orders of the game: the scenario is a
        game and either its file holds a game already (``state.game``) or
        Game > Play as a Game was chosen (or a turn or phase was ended).
        Otherwise a move in Adjudicate mode is a plain edit, as when a
        scenario is being set up."""
        if self.game() is None:
            return False
        state = getattr(self.document.scenario, "state", {})
        return self._play or GAME_KEY in state

    def set_playing(self, on: bool) -> None:
        self._play = bool(on)
        self.changed.emit()

    def ask_play(self) -> str:
        """Ask whether a move on a map with a game, made outside play, is an
        order of the game or an edit of the set-up: ``order``, ``setup`` or
        ``cancel`` (tests replace this)."""
        from PySide6.QtWidgets import QApplication, QMessageBox

        box = QMessageBox(QMessageBox.Icon.Question, "Order or set-up edit?",
                          "This map has a game, and play has not started (Game > Play as a Game).",
                          QMessageBox.StandardButton.Cancel, QApplication.activeWindow())
        box.setInformativeText("Give this move as an order of the game (journalled, and play starts), or move "
                               "the unit as an edit of the set-up (not journalled; asked once)?")
        order = box.addButton("Give as an Order", QMessageBox.ButtonRole.AcceptRole)
        setup = box.addButton("Set-up Edit", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(order)
        box.exec()
        return "order" if box.clickedButton() is order else "setup" if box.clickedButton() is setup else "cancel"

    def move_kind(self) -> str:
        """What a unit move by an editor gesture is: ``order`` (the game is
        played), ``edit`` (the map has no game), ``setup`` (a set-up edit,
        chosen when asked) or ``cancel``.  On a map with a game outside
        play it asks (:meth:`ask_play`) until set-up edits are chosen once;
        choosing an order starts play."""
        if self.game() is None:
            return "edit"
        if self.playing():
            return "order"
        if self._setup:
            return "setup"
        answer = self.ask_play()
        if answer == "order":
            self.set_playing(True)
        elif answer == "setup":
            self._setup = True
        return answer

    def begun(self) -> bool:
        """Whether the game has begun: it is played and its journal holds an entry."""
        g = self.game()
        return g is not None and self.playing() and len(g.journal) > 0

    def adjust(self, summary: str, change: Any) -> str | None:
        """A game master's adjustment during play: ``change(scenario)``
        carried out and journalled as an ``adjust`` entry (one undo step);
        why not (nothing changed, not a game) as text, else ``None``."""
        from .commands import GameCommand

        if self.game() is None:
            return "This scenario is not a game: its ruleset names no rules system."
        cmd = GameCommand(self, "adjust", {"summary": summary, "change": change}, summary)
        try:
            cmd.perform()
        except ModelError as e:
            return str(e)
        self.document.undo_stack.push(cmd)
        return None

    def state_changed(self) -> None:
        """Tell the document's views that the scenario changed outside a
        game step (a set-up edit of its game data)."""
        self._after(self._units())

    # -- the game ------------------------------------------------------------
    def game(self) -> Game | None:
        """The document's game, or ``None`` when its scenario is not one
        (:attr:`problem` then says why, if the file's game data is bad)."""
        s = self.document.scenario
        if self._game is not None and self._game.scenario is s:
            return self._game
        if self._problem is not None and self._refused is s:
            return None
        self._game = None
        state = getattr(s, "state", None)
        if not isinstance(state, dict):
            return None
        had = GAME_KEY in state
        options = getattr(getattr(s, "ruleset", None), "options", None) or {}
        if not had and not options:
            return None
        if not had:
            _side_file_turn(state)
        try:
            game = Game(s)
        except JournalError as e:
            self._problem, self._refused = str(e), s
            return None
        except ModelError:
            return None  # no rules system (or several) for this map: not a game
        if had:
            problem = verify_once(game)
            if problem is not None:  # the journal records what the rules do not give: not played on
                self._problem, self._refused = str(problem), s
                return None
        if not had:
            del state[GAME_KEY]  # written by the first order, not by looking
        from app.post_game import arm_dice, arm_signer

        arm_signer(game)  # the game master's key and dice seed, when this user holds them
        arm_dice(game)
        self._fresh = not had
        self._game = game
        return game

    @property
    def problem(self) -> str | None:
        """Why the file's game is not played: a journal that cannot be
        read or replayed, or an entry the rules do not give when the game is
        adjudicated again (:func:`engine.turns.verify.verify`); ``None`` when
        there is nothing wrong (or no game)."""
        self.game()
        return self._problem

    def status(self) -> str:
        """``Turn 3 · Union to move · movement phase`` (empty: not playing),
        after what a side's file hides and the orders being planned."""
        view = getattr(self.document.scenario, "state", {}).get("side_view")
        side_note = ""
        if isinstance(view, Mapping):
            side_note = (f"The {view.get('side')} side's file: {view.get('hidden', 0)} enemy units hidden, "
                         f"{view.get('markers', 0)} seen but not identified · ")
        g = self.game()
        if g is None or not self.playing():
            return side_note.rstrip(" ·")
        if g.signing is not None and g.signer is None and self.plan is None:
            side_note += "Signed by a key you do not hold: steps taken here are not signed · "
        if self.plan is not None:
            side_note += (f"Planning the {g.side_name(self.plan.side)} orders ({len(self.plan.orders)}, not "
                          f"applied) · ")
        return side_note + self._turn_status(g)

    def _turn_status(self, g: Game) -> str:
        t = g.turn
        over = self.outcome()
        if over:
            return f"Turn {t.turn} · game over: {over}"
        return f"Turn {t.turn} · {g.side_name(t.side)} to move · {t.phase} phase"

    def outcome(self) -> str | None:
        """How the game ended (a side's victory, from the rules system's
        ``outcome`` hook, e.g. ACW's check at the end of every turn), or
        ``None`` while it goes on."""
        g = self.game()
        return g.system.outcome(self.document.scenario) if g is not None else None

    def acted(self) -> Mapping[str, list[str]]:
        """What each unit did this turn (``TurnState.acted``)."""
        g = self.game()
        return g.turn.acted if g is not None else {}

    # -- steps -----------------------------------------------------------------
    def check(self, order: Mapping[str, Any]) -> TurnVerdict:
        g = self.game()
        if g is None:
            raise ModelError("this scenario is not a game (its ruleset names no rules system)")
        given = post_order(g, order)[0]
        return g.check(given, g.author(given))

    def give(self, order: Mapping[str, Any], text: str | None = None) -> tuple[bool, str]:
        """Give ``order`` for the side to move: carried out as one undo step
        (``True`` and the verdict's reasons) or refused, changing nothing
        (``False`` and why).  A malformed order is refused naming what."""
        from .commands import GameCommand

        side = self.plan.side if self.plan is not None else None
        try:
            g = self.game()
            if g is None:
                raise ModelError("this scenario is not a game (its ruleset names no rules system)")
            given = post_order(g, order)[0]
            verdict = g.check(given, side or g.author(given))  # the side the game is given it as (run)
        except ModelError as e:
            return False, str(e)
        if not verdict.ok:
            return False, " ".join(verdict.reasons) or "refused"
        cmd = GameCommand(self, "give", dict(order), text, {"side": side} if side is not None else None)
        self._checked = (g, given, len(g.journal), verdict)
        try:
            cmd.perform()
        finally:
            self._checked = None
        self.document.undo_stack.push(cmd)
        if self.plan is not None:
            self.plan.note(dict(order))
        g = self.game()
        said = list(verdict.reasons)
        if g is not None and len(g.journal):
            said.append(g.result_text(g.journal[-1]))
        return True, joined(said)

    def give_file(self, order: Mapping[str, Any], side: str | None, source: Mapping[str, Any]) -> bool:
        """Give one order of an orders file (File > Apply Orders File…) as
        ``side``'s, journalled with the file's ``source``, carried out or
        refused, as one undo step; whether it was carried out."""
        from .commands import GameCommand

        cmd = GameCommand(self, "give", dict(order), None, {"side": side, "source": dict(source)})
        cmd.perform()
        self.document.undo_stack.push(cmd)
        g = self.game()
        return g is not None and bool(len(g.journal)) and g.journal[-1].kind == "order"

    def end(self, phase_only: bool = False) -> str | None:
        """End the phase (``phase_only``) or the side's turn as one undo
        step; the system's refusal as text (nothing changed), else ``None``."""
        from .commands import GameCommand

        if self.game() is None:
            return "This scenario is not a game: its ruleset names no rules system."
        self._play = True
        cmd = GameCommand(self, "end_phase" if phase_only else "end_turn", {}, None)
        try:
            cmd.perform()
        except ModelError as e:
            return str(e)
        self.document.undo_stack.push(cmd)
        return None

    # -- what GameCommand calls --------------------------------------------------
    def run(self, kind: str, order: Mapping[str, Any], meta: Mapping[str, Any] | None = None) -> list[Entry]:
        """Carry out a step on the game; the entries it journalled.  ``meta``
        gives an order's side and orders file (``side``, ``source``)."""
        g = self.game()
        assert g is not None
        before = self._units()
        if kind == "give":
            given, time = post_order(g, order)
            meta = meta or {}
            checked = self._checked
            verdict = (checked[3] if checked is not None and checked[0] is g and checked[1] == given
                       and checked[2] == len(g.journal) and meta.get("source") is None else None)
            out = [g.give(given, time=time, side=meta.get("side") or g.author(given), source=meta.get("source"),
                          checked=verdict)]
        elif kind == "adjust":
            out = [g.adjust(str(order["summary"]), order["change"])]
        elif kind == "end_phase":
            out = g.end_phase()
        else:
            out = g.end_turn()
        self._after(before)
        return out

    def take_back(self, count: int) -> None:
        """Undo the last ``count`` journal entries."""
        g = self.game()
        assert g is not None
        before = self._units()
        for _ in range(count):
            g.undo()
        if self._fresh and not len(g.journal):
            self.document.scenario.state.pop(GAME_KEY, None)
        self._after(before)

    def _units(self) -> dict[str, tuple[Any, ...]]:
        """What the map shows of each unit, by id: where it is, its fields
        and whether it is spent (acted this turn, ``render/spent.py``)."""
        s = self.document.scenario
        spent = spent_units(s)
        return {u.id: (u.at, u.side, u.type, u.strength, u.name, repr(u.props), u.id in spent)
                for u in s.units}

    def _after(self, before: Mapping[str, tuple[Any, ...]]) -> None:
        """Tell the document's views what changed.  On a grid map a game
        step changes units, the scenario's state and the turn, never the
        map's layers (a delta cannot record them: ``engine/turns/delta.py``),
        so the views hear of the units that moved, changed or became spent
        or fresh, and the cells they left and reached; the map's cached
        tiles stay."""
        self.notifying = True
        try:
            self._notify(before)
        finally:
            self.notifying = False
        self.changed.emit()

    def _notify(self, before: Mapping[str, tuple[Any, ...]]) -> None:
        notify = getattr(self.document, "notify", None)
        if callable(notify) and hasattr(self.document, "cellsChanged"):  # a grid map's Document
            now = self._units()
            ids = frozenset(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
            cells = frozenset(look[0] for k in ids for look in (before.get(k), now.get(k)) if look is not None)
            notify(Touched(cells={"units": cells} if cells else {}, units=ids))
            return
        ids = frozenset(before) | frozenset(u.id for u in self.document.scenario.units)
        if callable(notify):  # a TerritoryDocument: control and rail may change with the units
            notify(territories=set(getattr(self.document.scenario.map, "territories", ())), units=set(ids))
        else:
            self.document.edited.emit(ids)


def _side_file_turn(state: dict[str, Any]) -> None:
    """A side's file (``state.side_view``, ``engine/turns/views.py``) holds
    no game, but its view names the turn, phase and side to move: its game
    starts there (with an empty journal), so orders planned on it are
    checked at that turn and phase."""
    view = state.get("side_view")
    t = view.get("turn") if isinstance(view, Mapping) else None
    if not isinstance(t, Mapping) or not isinstance(view, Mapping):
        return
    from engine.turns.journal import Journal

    turn: dict[str, Any] = {"turn": t.get("turn"), "phase": t.get("phase"), "side": t.get("side"), "acted": {},
                            "used": {}, "banked": {}}
    state[GAME_KEY] = {"system": view.get("system"), "turn": turn, "journal": Journal().to_data(turn)}


__all__ = ["TurnController", "post_order"]

POST_TIME = "time"
"""An order's post time, as ``adjutant orders`` reads it (``app/cli/orders.py``)."""


def post_order(game: Game, order: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The order the game is given and the post's time, exactly as ``adjutant
    orders`` splits them: the ``time`` key is the journal entry's time, and
    it stays in the order only where the system takes its input from it (an
    ACW attack: ``uses_post_time``).  So the editor's entries are the CLI's."""
    raw = dict(order)
    time = raw.get(POST_TIME)
    if not game.system.uses_post_time(raw):
        raw.pop(POST_TIME, None)
    return raw, time if isinstance(time, str) else None
