"""The turn engine over a toy rules system: only the side to move acts, a
unit moves once a turn, phases, end of turn, refusals journalled, undo of
every kind of entry restores the scenario and the turn exactly."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from engine.grids import Cell, SquareGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType, Unit
from engine.rules.base import PlainVerdict, RulesSystem, register, unregister
from engine.turns import Journal
from engine.turns.game import EffectRecord, Game
from engine.turns.state import TurnState


@dataclass(frozen=True)
class StepOptions:
    reach: int = 1


@dataclass(frozen=True)
class StepOrder:
    unit: str
    to: str


@dataclass(frozen=True)
class StepRecord:
    unit: str
    was: Cell

    def undo(self, scenario: Any) -> None:
        scenario.unit(self.unit).at = self.was

    def to_data(self) -> dict[str, Any]:
        return {"unit": self.unit, "from": [self.was.col, self.was.row]}


@dataclass(frozen=True)
class FlagRecord:
    unit: str

    def undo(self, scenario: Any) -> None:
        scenario.unit(self.unit).props.pop("dug_in", None)

    def to_data(self) -> dict[str, Any]:
        return {"dug_in": self.unit}


class Step(RulesSystem[Scenario, StepOptions]):
    """Units step ``reach`` squares (Chebyshev) a turn; units that did not
    step dig in at the end of their side's move."""

    name = "test_step"
    title = "Step"
    map_kinds = frozenset({"square"})
    Options = StepOptions
    Order = StepOrder
    phases = ("movement", "combat")

    def order_phases(self, order: Mapping[str, Any]) -> tuple[str, ...]:
        return ("movement",)

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> PlainVerdict:
        o = self.read_order(order)
        u = scenario.unit(o.unit)
        to = scenario.map.parse_label(o.to)
        d = max(abs(to.col - u.at.col), abs(to.row - u.at.row))
        reach = self.options(scenario).reach
        if d > reach:
            return PlainVerdict(False, (f"{o.to} is {d} squares away; a unit steps {reach}.",))
        return PlainVerdict(True, (f"{o.unit} steps to {o.to}.",))

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Any) -> StepRecord:
        u = scenario.unit(order["unit"])
        rec = StepRecord(u.id, u.at)
        u.at = scenario.map.parse_label(order["to"])
        return rec

    def end_phase_effects(self, scenario: Scenario, turn: TurnState) -> list[EffectRecord]:
        if turn.phase != "combat":
            return []
        out = []
        for u in scenario.units:
            if u.side == turn.side and not turn.did(u.id, "moved") and not u.props.get("dug_in"):
                u.props["dug_in"] = True
                out.append(EffectRecord(f"{u.id} digs in", FlagRecord(u.id)))
        return out


@pytest.fixture
def step() -> Iterator[Step]:
    register(Step)
    yield Step()
    unregister("test_step")


def scenario() -> Scenario:
    rs = Ruleset("t", [TerrainType("clear", "Clear", ".", "#ffffff")], options={"test_step": {}})
    sides = [Faction("N", "North", "#0000ff", "N"), Faction("S", "South", "#ff0000", "S")]
    m = GridMap(SquareGrid(6, 6), NumericNumbering())
    return Scenario("t", rs, sides, m, [Unit("N1", "N", "IN", Cell(0, 0)), Unit("N2", "N", "IN", Cell(5, 5)),
                                        Unit("S1", "S", "IN", Cell(3, 3))])


def label(s: Scenario, col: int, row: int) -> str:
    return s.map.label(Cell(col, row))


def test_a_unit_moves_once_and_only_the_side_to_move_acts(step: Step) -> None:
    s = scenario()
    g = Game(s)
    assert g.system.name == "test_step" and g.turn.side == "N" and g.turn.phase == "movement"
    e = g.give({"unit": "N1", "to": label(s, 1, 1)})
    assert e.kind == "order" and s.unit("N1").at == Cell(1, 1)
    again = g.give({"unit": "N1", "to": label(s, 2, 2)})
    assert again.kind == "refused" and s.unit("N1").at == Cell(1, 1)
    assert again.reasons == ("N1 has already moved this turn (journal entry 1); a unit moves once a turn.",)
    other = g.give({"unit": "S1", "to": label(s, 3, 4)})
    assert other.kind == "refused" and "It is the North's move: S1 (South) cannot act now." in other.reasons
    far = g.give({"unit": "N2", "to": label(s, 2, 2)})
    assert far.kind == "refused" and far.reasons == (f"{label(s, 2, 2)} is 3 squares away; a unit steps 1.",)


def test_phases_end_of_move_effects_and_the_next_turn(step: Step) -> None:
    s = scenario()
    g = Game(s)
    g.give({"unit": "N1", "to": label(s, 1, 0)})
    assert [e.kind for e in g.end_phase()] == ["end_phase"] and g.turn.phase == "combat"
    late = g.give({"unit": "N2", "to": label(s, 4, 4)})
    assert late.kind == "refused" and "movement phase" in late.reasons[0]
    entries = g.end_phase()
    assert [(e.kind, e.summary) for e in entries] == [
        ("effect", "N2 digs in"),
        ("end_turn", "end of the North's move; turn 1: the South to move")]
    assert s.unit("N2").props == {"dug_in": True} and not s.unit("N1").props
    assert g.turn.side == "S" and g.turn.turn == 1 and g.turn.acted == {}
    g.end_turn()
    assert g.turn.side == "N" and g.turn.turn == 2 and s.turn == 2 and s.unit("S1").props == {"dug_in": True}
    assert g.give({"unit": "N1", "to": label(s, 2, 0)}).kind == "order"  # may move again


def test_undo_of_every_entry_restores_scenario_and_turn(step: Step) -> None:
    s = scenario()
    g = Game(s)
    snapshots = [(copy.deepcopy(s.units), g.turn.copy(), s.turn)]
    actions = [lambda: g.give({"unit": "N1", "to": label(s, 1, 1)}),
               lambda: g.give({"unit": "N1", "to": label(s, 2, 2)}),  # refused
               g.end_turn,
               lambda: g.give({"unit": "S1", "to": label(s, 3, 4)}),
               g.end_turn,
               lambda: g.give({"unit": "N1", "to": label(s, 2, 2)})]
    counts = [0]
    for act in actions:
        act()
        counts.append(len(g.journal))
        snapshots.append((copy.deepcopy(s.units), g.turn.copy(), s.turn))
    for i in range(len(actions), 0, -1):
        while len(g.journal) > counts[i - 1]:
            g.undo()
        units, turn, number = snapshots[i - 1]
        assert s.units == units and g.turn == turn and s.turn == number
    assert s.state["game"]["journal"]["count"] == 0


def content(game: dict[str, Any]) -> tuple[Any, ...]:
    """A game's state but its entries' hashes (each entry's salt is its
    own, so two games played alike have the same entries, not the same
    hashes)."""
    journal = game["journal"]
    return ({k: v for k, v in game.items() if k != "journal"}, journal["count"],
            [{k: v for k, v in e.items() if k not in ("hash", "prev", "salt")} for e in journal["entries"]])


def test_the_game_is_kept_in_the_scenario_and_read_back(step: Step) -> None:
    s = scenario()
    g = Game(s)
    g.give({"unit": "N1", "to": label(s, 1, 1)})
    g.end_turn()
    again = Game(s)
    assert again.turn == g.turn and again.journal.to_data() == g.journal.to_data()
    Journal.from_data(s.state["game"]["journal"])
    # a loaded entry is taken back through its delta, exactly (issue 15: undo after load)
    fresh = scenario()
    fresh_game = Game(fresh)
    fresh_game.give({"unit": "N1", "to": label(fresh, 1, 1)})
    while len(again.journal) > 1:
        again.undo()
    assert again.turn == fresh_game.turn and content(s.state["game"]) == content(fresh.state["game"])
    assert [(u.id, u.at, u.props) for u in s.units] == [(u.id, u.at, u.props) for u in fresh.units]
    again.undo()
    assert s.unit("N1").at == Cell(0, 0) and again.turn == TurnState(1, "movement", "N")


def test_unknown_units_and_systems_are_named(step: Step) -> None:
    s = scenario()
    g = Game(s)
    e = g.give({"unit": "X9", "to": "0101"})  # an order that cannot be carried out is refused, naming why
    assert e.kind == "refused" and "X9" in e.reasons[0]
    with pytest.raises(ModelError, match="no rules system 'nope'"):
        Game(scenario(), "nope")
    bad = scenario()
    bad.state["game"] = {"system": "test_step", "turn": {"turn": 0}, "journal": Journal().to_data()}
    with pytest.raises(ModelError, match=r"state.game.turn.turn: expected a whole number from 1"):
        Game(bad)


def test_a_verdict_given_with_the_order_is_not_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Game.give(..., checked=)`` journals the verdict the caller had
    just checked on the same order and side; another side's verdict is
    not taken."""
    from pathlib import Path

    from engine.io import loads_any

    sample = Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json"
    s = loads_any(sample.read_text(encoding="utf-8"), str(sample))
    g = Game(s, "acw")
    calls: list[int] = []
    real = type(g.system).check
    monkeypatch.setattr(type(g.system), "check", lambda self, *a: (calls.append(1), real(self, *a))[1])
    order = {"unit": "US-14", "to": "0311"}
    verdict = g.check(order, "union")
    assert verdict.ok and len(calls) == 1
    g.give(order, side="union", checked=verdict)
    assert len(calls) == 1 and g.journal[-1].kind == "order"
    g.undo()
    g.give(order, side="rebel", checked=verdict)  # not the side it was checked for: checked again (refused by
    assert g.journal[-1].kind == "refused"  # the turn's own reasons, before the system is asked)
    g.undo()
    g.give(order, side="union")
    assert len(calls) == 2 and g.journal[-1].kind == "order"
