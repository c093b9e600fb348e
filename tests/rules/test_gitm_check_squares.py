"""MarchResult.check_squares() and path_squares() (the arrays the live
preview draws) hold exactly what checks and path hold: the same squares of
each kind in the same order, kinds in the order first met, on random marches
(with and without a waypoint) over a map of flat ground and hills with
enemies, under both diagonal readings."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from engine.grids import Cell, SquareGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit
from engine.rules.gitm import march


def scenario(diagonal_units: str) -> Scenario:
    rs = Ruleset("t", [TerrainType("flat", "flat", ".", "#dddddd"),
                       TerrainType("hills", "hills", "h", "#aa9966", elevation=1)],
                 options={"gitm": {"max_climb": 1, "diagonal_units": diagonal_units}})
    m = GridMap(SquareGrid(60, 60), NumericNumbering())
    rng = np.random.default_rng(5)
    m.terrain[:] = rng.integers(0, 2, size=(60, 60), dtype=np.uint8)
    sides = [Faction("FR", "French", "#0000ff", "F"), Faction("AU", "Austrian", "#ffffff", "A")]
    s = Scenario("t", rs, sides, m, [Unit("FR1", "FR", "IN", Cell(30, 30))])
    for i, (c, r) in enumerate(rng.integers(0, 60, size=(40, 2)).tolist()):
        if (c, r) != (30, 30):
            s.units.append(Unit(f"AU{i}", "AU", "IN", Cell(c, r)))
    return s


@pytest.mark.parametrize("diagonal_units", ["flanks", "adjacent"])
def test_the_arrays_are_the_checks_and_the_path(diagonal_units: str) -> None:
    s = scenario(diagonal_units)
    unit = s.unit("FR1")
    rng = random.Random(diagonal_units)
    seen_kinds = set()
    for n in range(300):
        to = Cell(rng.randrange(60), rng.randrange(60))
        via = Cell(rng.randrange(60), rng.randrange(60)) if n % 3 == 0 else None
        if to == unit.at or via in (unit.at, to):
            continue
        r = march(s, unit, to, via)
        by_kind: dict[str, list[tuple[int, int]]] = {}
        for ch in r.checks:
            by_kind.setdefault(ch.kind, []).append((ch.cell.col, ch.cell.row))
        squares = r.check_squares()
        assert list(squares) == list(by_kind)
        for kind, (cols, rows) in squares.items():
            assert list(zip(cols.tolist(), rows.tolist(), strict=True)) == by_kind[kind]
        seen_kinds.update(squares)
        cols, rows = r.path_squares()
        assert [Cell(c, w) for c, w in zip(cols.tolist(), rows.tolist(), strict=True)] == list(r.path)
    assert seen_kinds == {"T/U", "U"}


def test_an_automatic_success_checks_nothing() -> None:
    s = scenario("flanks")
    s.units = [u for u in s.units if u.side == "FR"]
    r = march(s, s.unit("FR1"), Cell(40, 35))
    assert r.auto_success and r.checks == () and r.check_squares() == {}
    assert dataclasses.is_dataclass(r)
