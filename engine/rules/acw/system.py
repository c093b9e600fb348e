""""A Short ACW Campaign" as a registered rules system
(:class:`engine.rules.base.RulesSystem`).

The move, ``{"unit": ID, "to": HEX}``: :meth:`Acw.check` is
:func:`~.movement.check_move` (cost, halting next to the enemy, stacking,
every "no" with its reason); apply moves the unit, marks it ``moved`` and
gives up its fortifications, as the editor's move preview does, and returns
the record that puts all of it back.  The other orders -- attack, the
cavalry's choice, retreat, the Rebel reinforcement post, purchases and new
units -- are :mod:`.orders`.  The turn hooks: the Union moves first, a side
may not end its move while a combat or a retreat is owed
(:meth:`Acw.end_phase_refusal`), and the end of a side's move fortifies,
gives the Union its point when a new turn begins and checks victory.
:meth:`Acw.setup_problems` names units deployed outside their zones.
Rules: ``docs/rules/acw.md``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.grids import Cell
from engine.model import ModelError, Scenario
from engine.words import counted, side_phrase, verb

from ..base import RulesSystem, Verdict
from ..registry import register
from . import words
from .movement import MoveCheck, check_move
from .options import SYSTEM, AcwOptions, options_for, options_from_raw
from .orders import (
    ACTIONS,
    ORDER_FORMS,
    TURN_PROPS,
    AcwChange,
    AcwVerdict,
    acted,
    apply_order,
    check_order,
    end_refusal,
    kind_of,
    order_author,
    pending_choices,
)
from .reinforcement import city_cell, points
from .turns import end_of_turn, victory

MOVE_PROPS: Mapping[str, Any] = {"moved": True, "fortified": False}
"""Unit properties a move sets: it has moved this turn, and a unit that
moves gives up its fortifications."""

_ABSENT = "<absent>"


@dataclass(frozen=True)
class AcwMoveOrder:
    """``{"unit": ID, "to": HEX}``: move the unit to the hex (a label or
    place name) this turn."""

    unit: str
    to: str


@dataclass(frozen=True)
class AcwMoved:
    """The record of an applied move: where the unit was and the values
    its :data:`MOVE_PROPS` had (``<absent>`` when unset)."""

    unit: str
    before: Cell
    after: Cell
    before_label: str
    after_label: str
    props_before: tuple[tuple[str, Any], ...]

    def undo(self, scenario: Scenario) -> None:
        u = scenario.unit(self.unit)
        if u.at != self.after:
            raise ModelError(f"cannot undo the acw move of {self.unit}: it is at {scenario.map.label(u.at)}, "
                             f"not {self.after_label}; undo the later orders first")
        u.at = self.before
        for key, value in self.props_before:
            if value == _ABSENT:
                u.props.pop(key, None)
            else:
                u.props[key] = value

    def to_data(self) -> dict[str, Any]:
        return {"system": SYSTEM, "moved": [{"unit": self.unit, "from": self.before_label, "to": self.after_label}],
                "props": dict(MOVE_PROPS)}


@dataclass(frozen=True)
class AcwTurnEnded:
    """The record of the end of a side's turn: the properties of each unit
    it changed (fortified or not, ``moved`` cleared) and ``state.acw`` (the
    side to move), as they were before and after, so undo gives back the
    exact data (``docs/rules/acw.md``, "Turns and victory")."""

    units: tuple[tuple[str, tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]], ...]
    state_before: Any
    state_after: Any

    def undo(self, scenario: Scenario) -> None:
        for unit, before, _ in reversed(self.units):
            scenario.unit(unit).props = dict(before)
        if self.state_before is None:
            scenario.state.pop(SYSTEM, None)
        else:
            scenario.state[SYSTEM] = copy.deepcopy(self.state_before)

    def to_data(self) -> dict[str, Any]:
        return {"system": SYSTEM, "units": {u: dict(after) for u, _, after in self.units},
                "state": copy.deepcopy(self.state_after)}


@register
class Acw(RulesSystem[Scenario, AcwOptions]):
    """The ACW rules: hex movement with terrain and river costs, stacking
    and halting next to the enemy."""

    name = SYSTEM
    title = '"A Short ACW Campaign"'
    map_kinds = frozenset({"hex"})
    Options = AcwOptions
    Order = AcwMoveOrder
    order_forms = ORDER_FORMS
    doc = "docs/rules/acw.md"

    phases = ("movement",)
    """The turn rules (``docs/rules/acw.md``, "Turns and victory"): a unit
    moves once a turn (the turn engine's default once-a-turn ``moved``);
    units that did not move fortify at the end of their side's turn."""

    def read_options(self, raw: Mapping[str, Any] | None) -> AcwOptions:
        return options_from_raw(raw)

    def side_order(self, scenario: Scenario) -> list[str]:
        """The Union moves first, then the other sides in file order."""
        union = scenario.side(options_for(scenario).union_side).id
        return [union] + [f.id for f in scenario.sides if f.id != union]

    def end_phase_effects(self, scenario: Scenario, turn: Any) -> list[tuple[str, AcwTurnEnded, tuple[str, ...]]]:
        """The end of ``turn.side``'s turn (:func:`~.turns.end_of_turn`), as
        one effect: units that did not move fortify, units that moved are
        not fortified, every unit's ``moved`` is cleared for its next turn,
        and ``state.acw.phasing`` names the next side to move.  Its reasons
        are a sentence for each unit whose state changed."""
        if turn.side is None:
            return []
        changed = []
        reasons = []
        fortify = 0
        for f in end_of_turn(scenario, turn.side):
            u = scenario.unit(f.unit_id)
            after = {k: v for k, v in u.props.items() if k not in TURN_PROPS}
            after["fortified"] = f.fortified
            if after != u.props or list(after) != list(u.props):
                changed.append((u.id, tuple(u.props.items()), tuple(after.items())))
                reasons.append(f.reason)
                fortify += f.fortified and not u.props.get("fortified")
                u.props = after
        sides = self.side_order(scenario)
        nxt = sides[(sides.index(turn.side) + 1) % len(sides)] if turn.side in sides else sides[0]
        before = scenario.state.get(SYSTEM)
        state = copy.deepcopy(before) if isinstance(before, dict) else {}
        state["phasing"] = nxt
        state.pop("cavalry", None)
        o = options_for(scenario)
        extra = []
        if nxt == sides[0] and nxt == o.union_side and o.union_points_per_turn:
            gain = o.union_points_per_turn
            have = points(scenario, nxt) + gain
            state["points"] = dict(state.get("points", {}), **{nxt: have})
            extra.append(f"a new turn: the Union gains {gain} reinforcement point{'s' if gain != 1 else ''} "
                         f"({have} banked)")
        scenario.state[SYSTEM] = state
        try:
            v = victory(scenario, turn_complete=nxt == sides[0], mover=turn.side)
        except ModelError:  # a map without the objective cities has no victory conditions
            v = None
        if v is not None and v.game_over:
            state["victory"] = v.to_data()
            extra.append(f"VICTORY: {v.reason}")
        name = scenario.side(turn.side).name
        then = scenario.side(nxt).name
        summary = "; ".join([f"{side_phrase(name)} {verb(name, 'fortifies', 'fortify')} {counted(fortify, 'unit')}",
                             f"{side_phrase(then)} {verb(then, 'moves', 'move')} next", *extra])
        return [(summary, AcwTurnEnded(tuple(changed), copy.deepcopy(before), copy.deepcopy(state)),
                 tuple(reasons))]

    def order_text(self, scenario: Scenario, order: Mapping[str, Any]) -> str | None:
        """An attack, retreat, purchase... in words (:func:`.words.order_text`)."""
        return words.order_text(scenario, order)

    def result_text(self, scenario: Scenario, order: Mapping[str, Any], verdict: Mapping[str, Any],
                    record: Mapping[str, Any]) -> str:
        """An attack's casualties unit by unit, a retreat's units eliminated."""
        return words.result_text(order, record)

    once_per_turn = frozenset({"moved", "reinforced"})
    """A unit moves once and is reinforced once a turn."""

    def action_of(self, order: Mapping[str, Any]) -> str:
        """The turn engine's action for the order (``moved``, ``reinforced``...)."""
        return ACTIONS[kind_of(order)]

    def uses_post_time(self, order: Mapping[str, Any]) -> bool:
        """An attack's ``time`` is the rules' input (the result number), not only the post's stamp."""
        return kind_of(order) == "attack"

    def outcome(self, scenario: Scenario) -> str | None:
        """How the game ended: the victory found at the end of a turn
        (``state.acw.victory``, ``docs/rules/acw.md``, "Turns and victory"),
        or ``None`` while it goes on.  The editor shows it in the title and
        status bars."""
        from .orders import game_over

        return game_over(scenario)

    def order_author(self, scenario: Scenario, order: Mapping[str, Any]) -> str | None:
        """The side whose choice the order is: a retreat's, a cavalry
        withdraw's or stand's owner (:func:`~.orders.order_author`)."""
        return order_author(scenario, order)

    def pending_choices(self, scenario: Scenario) -> list[tuple[str, str, dict[str, Any]]]:
        """Retreats owed and cavalry choices waiting for their owner, with
        the rules' defaults (:func:`~.orders.pending_choices`)."""
        return pending_choices(scenario)

    def end_phase_refusal(self, scenario: Scenario, turn: Any) -> str | None:
        """Why the side to move may not end its move: a combat owed by a unit
        that entered a hex next to the enemy, a retreat owed, or the game is over."""
        return end_refusal(scenario)

    def setup_problems(self, scenario: Scenario) -> list[str]:
        """Every unit standing more than ``deploy_distance`` (1) hex from its
        side's deployment cities (Union A, B, C; Rebels E, I, H, G), while
        the game has not started (turn 1, no journal)."""
        if scenario.turn > 1 or _begun(scenario):
            return []
        o = options_for(scenario)
        zones = {o.union_side: o.union_deploy, o.rebel_side: o.rebel_deploy}
        out = []
        grid, lab = scenario.map.grid, scenario.map.label
        for side, codes in zones.items():
            cells = []
            for code in codes:
                try:
                    cells.append(city_cell(scenario, code))
                except ModelError as e:
                    out.append(f"deployment of {side}: {e}")
            for u in scenario.units:
                if u.side == side and cells and min(grid.distance(u.at, c) for c in cells) > o.deploy_distance:
                    out.append(f"units.{u.id}: {u.name or u.id} ({side}) stands in {lab(u.at)}, more than "
                               f"{o.deploy_distance} hex from the deployment cities {', '.join(codes)}")
        return out

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> MoveCheck | AcwVerdict:
        if kind_of(order) != "move":
            return check_order(scenario, order)
        o: AcwMoveOrder = self.read_order(order)
        refusal = _move_refusal(scenario, o.unit)
        if refusal:
            return AcwVerdict("move", False, (refusal,))
        return check_move(scenario, o.unit, scenario.map.parse_label(o.to))

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> AcwMoved | AcwChange:
        if isinstance(verdict, AcwVerdict):
            return apply_order(scenario, verdict)
        assert isinstance(verdict, MoveCheck)
        u = scenario.unit(verdict.unit_id)
        label = scenario.map.label
        record = AcwMoved(u.id, u.at, verdict.target, label(u.at), verdict.label,
                          tuple((k, u.props.get(k, _ABSENT)) for k in MOVE_PROPS))
        u.at = verdict.target
        u.props.update(MOVE_PROPS)
        return record


def _begun(scenario: Scenario) -> bool:
    """Whether the game's journal holds an entry other than a refused order."""
    game = scenario.state.get("game")
    journal = game.get("journal") if isinstance(game, Mapping) else None
    entries = journal.get("entries") if isinstance(journal, Mapping) else None
    quiet = ("refused", "seed", "reveal", "key")  # a refused order and the game master's records change nothing
    lines = getattr(entries, "lines", None)
    if isinstance(lines, (list, tuple)):  # entries as their lines (engine.io.journal_file.JournalLines)
        kinds = (re.search(r'"kind":"(\w+)"', line) for line in lines)
        return any(k is not None and k.group(1) not in quiet for k in kinds)
    return isinstance(entries, list) and any(isinstance(e, Mapping) and e.get("kind") not in quiet for e in entries)


def _move_refusal(scenario: Scenario, unit: str) -> str | None:
    """What stops a unit moving besides the map: the game is over, a
    retreat is owed, it was raised or reinforced this turn."""
    from .orders import game_over, pending_retreats

    over = game_over(scenario)
    if over:
        return f"the game is over: {over}"
    owed = pending_retreats(scenario)
    if owed:
        return f"the retreat of {', '.join(owed[0]['units'])} from {owed[0]['hex']} comes first"
    u = scenario.unit(unit)
    if u.props.get("raised"):
        return f"{u.name or u.id} was raised this turn and starts moving next turn"
    if "reinforced" in acted(scenario, u.id):
        return f"{u.name or u.id} was reinforced this turn: a reinforced unit spends the turn not moving"
    return None
