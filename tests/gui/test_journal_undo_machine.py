"""Undo of any journal step restores the state and the file exactly (issue
15, "Must hold"), as a state machine: random orders for the side to move
(most refused: wrong hex, already moved), End Phase / End Turn, undo and
redo, through the editor's TurnController and undo stack on the ACW sample.
After every step the document's file text is the one recorded for its
place in the undo stack, and the game's journal replays (a fresh ``Game``
on a copy of the scenario loads it: hash chain and deltas agree)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from app.gui.document import Document
from app.gui.turns import TurnController
from engine.io import load_scenario, loads_any
from engine.turns.game import Game

pytestmark = pytest.mark.gui

SAMPLE = Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json"


class GameUndo(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.doc = Document(load_scenario(SAMPLE), str(SAMPLE))
        self.turns = TurnController(self.doc)
        self.turns.set_playing(True)
        self.texts: dict[int, str] = {0: self.doc.text()}
        """The file text at each index of the undo stack."""

    def _record(self) -> None:
        stack = self.doc.undo_stack
        self.texts = {i: t for i, t in self.texts.items() if i < stack.index()}
        self.texts[stack.index()] = self.doc.text()

    @rule(pick=st.integers(0, 50), dc=st.integers(-2, 2), dr=st.integers(-2, 2))
    def order(self, pick: int, dc: int, dr: int) -> None:
        s = self.doc.scenario
        game = self.turns.game()
        assert game is not None
        mine = [u for u in s.units if u.side == game.turn.side] or s.units
        unit = mine[pick % len(mine)]
        col = min(max(unit.at.col + dc, 0), s.map.grid.width - 1)
        row = min(max(unit.at.row + dr, 0), s.map.grid.height - 1)
        before, n = self.doc.text(), self.doc.undo_stack.count()
        ok, why = self.turns.give({"unit": unit.id, "to": s.map.label(type(unit.at)(col, row))})
        if ok:
            self._record()
        else:
            assert why and self.doc.text() == before and self.doc.undo_stack.count() == n

    @rule(phase_only=st.booleans())
    def end(self, phase_only: bool) -> None:
        before = self.doc.text()
        why = self.turns.end(phase_only)
        if why is None:
            self._record()
        else:
            assert self.doc.text() == before

    @rule()
    def undo(self) -> None:
        self.doc.undo_stack.undo()

    @rule()
    def redo(self) -> None:
        self.doc.undo_stack.redo()

    @invariant()
    def file_text_matches_the_undo_index(self) -> None:
        i = self.doc.undo_stack.index()
        if i in self.texts:
            assert self.doc.text() == self.texts[i], f"undo index {i}"

    @invariant()
    def the_journal_replays(self) -> None:
        s = loads_any(self.doc.text())
        if "game" in s.state:
            game = Game(s)  # raises JournalError naming an entry that does not replay
            live = self.turns.game()
            assert live is not None and game.turn == live.turn


def test_undo_of_any_journal_step_restores_the_file(qapp) -> None:
    machine = GameUndo.TestCase
    machine.settings = settings(max_examples=12, stateful_step_count=15, deadline=None,
                                suppress_health_check=list(HealthCheck))
    machine().runTest()
