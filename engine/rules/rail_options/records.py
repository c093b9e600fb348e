"""Rail Options: applying a judged move to the scenario and taking it back
exactly (``docs/rules/rail-options.md``, "Moves this turn")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.territory.model import TerritoryScenario

from .config import SYSTEM, RailOptionsError
from .results import RailVerdict


@dataclass(frozen=True)
class RecordedMove:
    """What :func:`record_move` did, for :func:`undo_move` to take back
    exactly: the unit, and whether it created the rail-options state or
    its list of moves (to be removed again once empty)."""

    unit: str
    made_state: bool
    made_moves: bool

    def undo(self, scenario: TerritoryScenario) -> None:
        """Take the move back (:func:`undo_move` given this record)."""
        undo_move(scenario, self.unit, self)

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "made_state": self.made_state, "made_moves": self.made_moves}


def record_move(scenario: TerritoryScenario, verdict: RailVerdict) -> RecordedMove:
    """Apply an allowed move: append it to ``state.rail_options.moves`` and
    move the unit; returns what it did, for :func:`undo_move`.  Raises
    :class:`RailOptionsError` for a refused verdict."""
    if not verdict.allowed:
        raise RailOptionsError(f"cannot apply a refused rail move: {verdict.reason}")
    u = scenario.unit(verdict.unit)
    if u.at != verdict.start:
        raise RailOptionsError(f"unit {u.id} is in {scenario.map.label(u.at)}, not {scenario.map.label(verdict.start)}")
    made_state = SYSTEM not in scenario.state
    st = scenario.state.setdefault(SYSTEM, {})
    made_moves = "moves" not in st
    moves = st.setdefault("moves", [])
    entry: dict[str, Any] = {"unit": u.id, "nation": verdict.nation, "turn": scenario.turn,
                             "option": verdict.option, "path": list(verdict.path)}
    if verdict.station is not None:
        entry["station"] = verdict.station
    moves.append(entry)
    u.at = verdict.to
    return RecordedMove(u.id, made_state, made_moves)


@dataclass(frozen=True)
class PlannedRailMove:
    """An allowed rail move planned for an undo history (an
    :class:`engine.editing.territory.PlannedMove`): ``redo`` records the
    move (:func:`record_move`), ``undo`` takes back exactly what it did
    (``recorded``: what ``record_move`` creates on the state the move was
    planned on, the rail-options state and its list of moves)."""

    verdict: RailVerdict
    recorded: RecordedMove

    @property
    def unit(self) -> str:
        return self.verdict.unit

    @property
    def start(self) -> str:
        return self.verdict.start

    @property
    def to(self) -> str:
        return self.verdict.to

    def redo(self, scenario: TerritoryScenario) -> None:
        record_move(scenario, self.verdict)

    def undo(self, scenario: TerritoryScenario) -> None:
        undo_move(scenario, self.verdict.unit, self.recorded)


def plan_rail_move(scenario: TerritoryScenario, verdict: RailVerdict) -> PlannedRailMove:
    """Plan the allowed rail move ``verdict``; a refused verdict raises its
    reason (:class:`RailOptionsError`, as does a unit not where the verdict
    starts).

    What ``record_move`` creates depends only on the scenario's rail-options
    state, so the plan finds it by recording the move and undoing it at once
    (exact inverses, ``docs/rules/rail-options.md``): the scenario is left as
    it was."""
    if not verdict.allowed:
        raise RailOptionsError(verdict.reason)
    recorded = record_move(scenario, verdict)
    undo_move(scenario, verdict.unit, recorded)
    return PlannedRailMove(verdict, recorded)


def undo_move(scenario: TerritoryScenario, unit_id: str, recorded: RecordedMove | None = None) -> None:
    """Take back the unit's rail move of this turn (the inverse of
    :func:`record_move`).  Given what ``record_move`` returned, it also
    removes the list of moves and the rail-options state that call created,
    once they are empty, so a move and its undo leave the scenario (and its
    file) exactly as they were."""
    u = scenario.unit(unit_id)
    st = scenario.state.get(SYSTEM, {})
    moves = st.get("moves", [])
    for i in range(len(moves) - 1, -1, -1):
        m = moves[i]
        if m.get("unit") == u.id and m.get("turn", scenario.turn) == scenario.turn:
            del moves[i]
            u.at = m["path"][0]
            if recorded is not None and recorded.made_moves and not moves:
                del st["moves"]
            if recorded is not None and recorded.made_state and not st:
                del scenario.state[SYSTEM]
            return
    raise RailOptionsError(f"unit {u.id} has made no rail move this turn")
