"""A movement board brought up to date after units move
(:meth:`engine.rules.acw.movement.Board.with_units`) answers every reach
exactly as a board built afresh on the new position, and leaves the board
it came from answering as before."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st
from test_acw_reach_property import H, W, boards

from engine.grids import Cell
from engine.model import Scenario, Unit
from engine.rules.acw.movement import Board, reach


def answers(s: Scenario, board: Board) -> dict[str, tuple[dict[int, int], dict[int, int], list[object]]]:
    """Every US unit's reach on ``board``: costs, parents and hexes."""
    out = {}
    for u in s.units:
        if u.side == "US":
            r = reach(s, u, board)
            out[u.id] = (dict(r.costs), dict(r.parents), r.hexes())
    return out


@settings(max_examples=120, deadline=None)
@given(boards(), st.lists(st.tuples(st.integers(0, 9), st.integers(0, W - 1), st.integers(0, H - 1)),
                          min_size=1, max_size=6), st.data())
def test_an_updated_board_answers_as_a_new_one(drawn: tuple[Scenario, Unit], moves: list[tuple[int, int, int]],
                                               data: st.DataObject) -> None:
    s, _ = drawn
    if data.draw(st.booleans(), label="an enemy arrives"):
        s.units.append(Unit("CS9", "CS", "infantry", Cell(data.draw(st.integers(0, W - 1)), 0), 5))
    board = Board(s, "US")
    before = answers(s, board)  # the step cache filled around every unit
    for k, col, row in moves:
        i = k % len(s.units)
        s.units[i] = dataclasses.replace(s.units[i], at=Cell(col, row))
        if data.draw(st.booleans(), label="a unit removed") and len(s.units) > 1 and s.units[-1].side == "CS":
            s.units.pop()
        board = board.with_units(s)
        assert answers(s, board) == answers(s, Board(s, "US"))
    assert board.scenario is s and before


@settings(max_examples=60, deadline=None)
@given(boards())
def test_the_old_board_is_left_as_it_was(drawn: tuple[Scenario, Unit]) -> None:
    s, unit = drawn
    board = Board(s, "US")
    enemy, near, before = dict(board.enemy), set(board.near_enemy), answers(s, board)
    moved = dataclasses.replace(s, units=[dataclasses.replace(u, at=unit.at) if u.side == "CS" else u
                                          for u in s.units])
    new = board.with_units(moved)
    assert new.scenario is moved and board.scenario is s
    assert board.enemy == enemy and board.near_enemy == near
    assert answers(s, board) == before
