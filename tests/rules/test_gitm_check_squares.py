"""MarchResult.check_squares() and path_squares() (the arrays the live
preview draws) hold exactly what checks and path hold: the same squares of
each kind in the same order, kinds in the order first met, on random marches
(with and without a waypoint) over a map of flat ground and hills with
enemies, under both diagonal readings."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import numpy as np
import pytest

from engine.grids import Cell, SquareGrid
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit
from engine.rules.gitm import MarchResult, march


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


def random_marches(s: Scenario, seed: str, via_every: int) -> Iterator[MarchResult]:
    """300 random marches of FR1 (a waypoint every ``via_every``-th), the
    impossible ones (to where it stands, through its start or end) left out."""
    unit = s.unit("FR1")
    rng = random.Random(seed)
    for n in range(300):
        to = Cell(rng.randrange(60), rng.randrange(60))
        via = Cell(rng.randrange(60), rng.randrange(60)) if n % via_every == 0 else None
        if to == unit.at or via in (unit.at, to):
            continue
        yield march(s, unit, to, via)


@pytest.mark.parametrize("diagonal_units", ["flanks", "adjacent"])
def test_the_arrays_are_the_checks_and_the_path(diagonal_units: str) -> None:
    s = scenario(diagonal_units)
    seen_kinds = set()
    for r in random_marches(s, diagonal_units, 3):
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


UPGRADES: list[int] = []
"""How many U squares :func:`reference_checks` upgraded (the tests check the
case was met)."""


def reference_checks(r) -> list[tuple[tuple[int, int], str, int, int]]:  # type: ignore[no-untyped-def]
    """The checks as the former scalar code listed them (one dict entry per
    square in path order; a square's first check stays, upgraded from U to
    T/U when a later step checks its terrain), from the legs' rounded
    squares and their U squares one by one."""
    if r.auto_success:
        return []
    out: dict[tuple[int, int], list] = {}  # type: ignore[type-arg]
    if r.options.check_start:
        out[(r.start.col, r.start.row)] = ["U", 0, 0]
    w, h = r.map_size
    for k, leg in enumerate(r.legs):
        us = [(i, c.col, c.row) for i, c in leg.u_squares(r.options.diagonal_units, w, h)]
        n, j = len(us), 0
        while j < n and us[j][0] == 0:
            out.setdefault(us[j][1:], ["U", k, 0])
            j += 1
        for i, c in enumerate(leg.rounded[1:], start=1):
            old = out.get((c.col, c.row))
            if old is None:
                out[(c.col, c.row)] = ["T/U", k, i]
            elif old[0] == "U":
                old[0] = "T/U"
                UPGRADES.append(1)
            while j < n and us[j][0] == i:
                out.setdefault(us[j][1:], ["U", k, i])
                j += 1
    return [(sq, kind, leg, step) for sq, (kind, leg, step) in out.items()]


@pytest.mark.parametrize("diagonal_units", ["flanks", "adjacent"])
@pytest.mark.parametrize("check_start", [False, True])
def test_the_checks_are_those_of_the_scalar_rule(diagonal_units: str, check_start: bool) -> None:
    """The array build of the checks (issue 19) gives what the square-by-
    square reading of the rule gives: the same squares, kinds, legs and
    steps in the same order, on random marches with and without waypoints
    (legs that cross and overlap)."""
    s = scenario(diagonal_units)
    s.ruleset.options["gitm"]["check_start"] = check_start
    unit = s.unit("FR1")
    UPGRADES.clear()
    for r in random_marches(s, f"{diagonal_units}{check_start}", 2):
        got = [((c.cell.col, c.cell.row), c.kind, c.leg, c.step) for c in r.checks]
        want = reference_checks(r)
        assert got == want, (r.end, r.via)
        if check_start and not r.auto_success:
            assert got[0][0] == (unit.at.col, unit.at.row) and got[0][2:] == (0, 0)  # T/U if a leg comes back
    assert UPGRADES, "no march met a U square that a later step entered"
