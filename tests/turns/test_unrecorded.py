"""A journal entry records units, state, the turn and territories' data;
an order or an end-of-phase effect that changes anything else (a grid map's
control or terrain, a territory's label point) is refused with a message
naming what, and leaves the scenario, the journal and the turn as they were."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.grids import Cell, SquareGrid
from engine.io import load_any
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit
from engine.rules.base import PlainVerdict, RulesSystem, TurnView, register, unregister
from engine.territory import TerritoryScenario
from engine.turns.delta import UnrecordedChange
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class NoOptions:
    pass


@dataclass(frozen=True)
class SeizeOrder:
    unit: str


@dataclass(frozen=True)
class CellRecord:
    """Puts one cell's control (or terrain) and the unit's props back."""

    layer: str
    cell: Cell
    was: int
    unit: str | None = None

    def undo(self, scenario: Any) -> None:
        getattr(scenario.map, self.layer)[self.cell.row, self.cell.col] = self.was
        if self.unit is not None:
            scenario.unit(self.unit).props.pop("seized", None)

    def to_data(self) -> dict[str, Any]:
        return {self.layer: [self.cell.col, self.cell.row]}


class Seize(RulesSystem[Scenario, NoOptions]):
    """A unit seizes its cell: the cell's control becomes its side's (and
    the unit is marked); at the end of a phase the first cell turns to
    terrain 1.  Neither map change is something a journal records."""

    name = "test_seize"
    title = "Seize"
    map_kinds = frozenset({"square"})
    Options = NoOptions
    Order = SeizeOrder

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> PlainVerdict:
        self.read_order(order)
        return PlainVerdict(True)

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Any) -> CellRecord:
        u = scenario.unit(order["unit"])
        was = int(scenario.map.control[u.at.row, u.at.col])
        scenario.map.control[u.at.row, u.at.col] = scenario.side_index(u.side)
        u.props["seized"] = True
        return CellRecord("control", u.at, was, u.id)

    def end_phase_effects(self, scenario: Scenario, turn: TurnView) -> list[tuple[str, CellRecord]]:
        cell = Cell(0, 0)
        was = int(scenario.map.terrain[0, 0])
        scenario.map.terrain[0, 0] = 1
        return [("the ground turns", CellRecord("terrain", cell, was))]


@pytest.fixture
def seize() -> Iterator[Seize]:
    register(Seize)
    yield Seize()
    unregister("test_seize")


def scenario() -> Scenario:
    rs = Ruleset("t", [TerrainType("clear", "Clear", ".", "#ffffff"), TerrainType("mud", "Mud", "m", "#996633")],
                 options={"test_seize": {}})
    sides = [Faction("N", "North", "#0000ff", "N"), Faction("S", "South", "#ff0000", "S")]
    return Scenario("t", rs, sides, GridMap(SquareGrid(4, 4), NumericNumbering()), [Unit("N1", "N", "IN", Cell(1, 1))])


def test_an_order_that_changes_control_is_refused_and_taken_back(seize: Seize) -> None:
    s = scenario()
    g = Game(s)
    control, state, turn = s.map.control.copy(), dict(s.state), g.turn.to_data()
    with pytest.raises(UnrecordedChange, match=r"^Seize: the step changed the map's control, which a journal "
                                               r"entry cannot record .*; the order was taken back$"):
        g.give({"unit": "N1"})
    assert np.array_equal(s.map.control, control) and s.unit("N1").props == {}
    assert len(g.journal) == 0 and g.turn.to_data() == turn and s.state == state


def test_an_end_of_phase_effect_that_changes_terrain_is_refused(seize: Seize) -> None:
    s = scenario()
    g = Game(s)
    terrain, turn = s.map.terrain.copy(), g.turn.to_data()
    with pytest.raises(UnrecordedChange, match=r"^Seize, at the end of the phase: the step changed the map's "
                                               r"terrain.*nothing was carried out$"):
        g.end_phase()
    assert np.array_equal(s.map.terrain, terrain) and len(g.journal) == 0 and g.turn.to_data() == turn


@dataclass(frozen=True)
class LabelRecord:
    territory: str
    was: tuple[float, float] | None

    def undo(self, scenario: Any) -> None:
        scenario.territory(self.territory).label_at = self.was

    def to_data(self) -> dict[str, Any]:
        return {"label": self.territory}


@dataclass(frozen=True)
class MarkOrder:
    territory: str


class Mark(RulesSystem[TerritoryScenario, NoOptions]):
    """Moves a territory's label point: not something a journal records."""

    name = "test_mark"
    title = "Mark"
    map_kinds = frozenset({"territory"})
    Options = NoOptions
    Order = MarkOrder

    def check(self, scenario: TerritoryScenario, order: Mapping[str, Any]) -> PlainVerdict:
        self.read_order(order)
        return PlainVerdict(True)

    def effect(self, scenario: TerritoryScenario, order: Mapping[str, Any], verdict: Any) -> LabelRecord:
        t = scenario.territory(order["territory"])
        rec = LabelRecord(t.id, t.label_at)
        t.label_at = (1.0, 2.0)
        return rec


def test_a_territory_order_that_moves_a_label_point_is_refused() -> None:
    register(Mark)
    try:
        s = load_any(ROOT / "maps" / "aa_rail_options.json")
        assert isinstance(s, TerritoryScenario)
        tid = next(iter(s.map.territories))
        before = s.territory(tid).label_at
        g = Game(s, "test_mark")
        with pytest.raises(UnrecordedChange, match="territories' shapes or label points"):
            g.give({"territory": tid})
        assert s.territory(tid).label_at == before and len(g.journal) == 0
    finally:
        unregister("test_mark")
