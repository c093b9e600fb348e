"""Undo invariants: stateful property tests of the editor's tools.

A Hypothesis :class:`RuleBasedStateMachine` drives random gestures (press,
moves through cells with random offsets, release; left or right button, with
or without Shift) with random choices (terrain, brush size 1-9, side, bridge
kind, place names, unit dialogs answered, cancelled or given a clashing id)
of *every* editing tool (brush, bucket, rect, eraser, eyedropper, rail, road,
river, bridge, control, place, unit) through the editor's own objects: an
:class:`~app.gui.tools.base.EditorState` on a
:class:`~app.gui.document.Document`, whose :class:`QUndoStack` holds the
:class:`~app.gui.commands.EditCommand` of each change.  Interleaved with
undo, redo and jumps to any point of the history.

Invariants, checked after every step:

* save -> load is the identity: the scenario's file text loads into a model
  equal to the one in memory and writes the same text again;
* the model at undo index ``i`` equals the model recorded when index ``i``
  was first reached (so undoing everything gives back the original exactly,
  and redoing everything gives the final model);

and at the end of every run: undo all == original, redo all == final.

Square (8 and 4 neighbours) and hex (flat/odd, pointy/even) maps; territory
maps have their own machine in ``test_undo_invariants_territory.py``.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from app.gui.canvas import MapMouseEvent
from app.gui.document import Document
from app.gui.tools import TOOL_CLASSES, EditorState
from engine.editing import new_scenario
from engine.grids import Cell, Edge
from engine.io import dumps_scenario, loads_scenario
from engine.model import NO_SIDE, Scenario, Unit

pytestmark = pytest.mark.gui

W, H = 11, 8
GRIDS = {
    "square8": {"kind": "square", "width": W, "height": H, "neighbours": 8},
    "square4": {"kind": "square", "width": W, "height": H, "neighbours": 4},
    "hexflat": {"kind": "hex", "width": W, "height": H, "orientation": "flat", "parity": "odd"},
    "hexpointy": {"kind": "hex", "width": W, "height": H, "orientation": "pointy", "parity": "even"},
}
TOOLS = tuple(cls.id for cls in TOOL_CLASSES)


def snapshot(s: Scenario) -> tuple[Any, ...]:
    """Everything a grid scenario's map and units hold, comparable exactly
    (link kinds with no links are left out: the file format does not keep them)."""
    m = s.map
    return (
        m.terrain.dtype.str, m.terrain.tobytes(), m.control.dtype.str, m.control.tobytes(),
        tuple(sorted(map(repr, m.rivers))), tuple(sorted(repr(kv) for kv in m.bridges.items())),
        tuple(sorted((k, tuple(sorted(map(repr, v)))) for k, v in m.links.items() if v)),
        tuple(sorted(repr(kv) for kv in m.places.items())),
        tuple((u.id, u.side, u.type, repr(u.at), u.strength, u.name, json.dumps(u.props, sort_keys=True))
              for u in s.units),
    )


def starting_scenario(kind: str, seed: int) -> Scenario:
    """A small map with something of every layer on it, so removals have work."""
    s = new_scenario("Undo", GRIDS[kind], {"scheme": "ccrr"})
    rng = np.random.default_rng(seed)
    s.map.terrain[:] = rng.integers(0, len(s.ruleset.terrain), size=s.map.terrain.shape)
    s.map.control[2:5, 3:7] = 0
    grid = s.map.grid
    a, b = Cell(2, 2), Cell(3, 2)
    s.map.rivers.add(Edge.between(a, b))
    s.map.links["rail"].add(Edge.between(Cell(5, 5), grid.neighbours(Cell(5, 5))[0]))
    s.units.append(Unit("u1", s.sides[0].id, s.ruleset.unit_types[0].id if s.ruleset.unit_types else "unit",
                        Cell(4, 4)))
    return s


CELL = st.tuples(st.integers(-1, W), st.integers(-1, H))
OFFSET = st.tuples(st.floats(-0.45, 0.45), st.floats(-0.45, 0.45))


class UndoMachine(RuleBasedStateMachine):
    kind = "square8"

    def __init__(self) -> None:
        super().__init__()
        self.doc: Document | None = None

    @initialize(seed=st.integers(0, 2**16))
    def start(self, seed: int) -> None:
        self.scenario0 = starting_scenario(self.kind, seed)
        self.doc = Document(self.scenario0)
        self.state = EditorState(self.doc)
        self.tools = {cls.id: cls(self.state) for cls in TOOL_CLASSES}
        self.tool = self.tools["brush"]
        self.tool.activate()
        self.layout = self.state.layout()
        self.history: list[tuple[Any, ...] | None] = [snapshot(self.doc.scenario)]
        self.original = self.history[0]
        self.answers: list[Any] = []
        self.place_answers: list[Any] = []
        self.state.ask_place = (  # type: ignore[method-assign]
            lambda cell, place: self.place_answers.pop(0) if self.place_answers else None)
        self.state.ask_unit = lambda unit, new: self._unit_answer(unit)  # type: ignore

    # -- the person's answers ------------------------------------------------
    def _unit_answer(self, unit: Unit) -> Unit | None:
        if not self.answers:
            return None
        how = self.answers.pop(0)
        s = self.doc.scenario  # type: ignore[union-attr]
        if how == "accept":
            return unit
        if how == "clash" and s.units:
            return replace(unit, id=s.units[0].id)  # refused (id in use) unless it is this unit
        if how == "strength":
            return replace(unit, strength=unit.strength + 2, name="Brigade", props={"fortified": True})
        if how == "side" and len(s.sides) > 1:
            return replace(unit, side=s.sides[-1].id)
        if how == "rename":
            return replace(unit, id=unit.id + "x")
        return None

    # -- gestures ------------------------------------------------------------
    def _event(self, cell: tuple[int, int], off: tuple[float, float], button: str | None, shift: bool,
               ) -> MapMouseEvent:
        """What the canvas sends for the mouse at ``cell`` + ``off`` (in cell sizes)."""
        cx, cy = self.layout.center(Cell(*cell))
        x, y = cx + off[0] * 32.0, cy + off[1] * 32.0
        grid = self.doc.scenario.map.grid  # type: ignore[union-attr]
        picked = self.layout.pick(x, y)
        on = picked if grid.contains(picked) else None
        edge = None
        if on is not None:
            best = None
            for e in grid.edges_of(on):
                (ax, ay), (bx, by) = self.layout.edge_segment(e)
                d = _segment_distance(x, y, ax, ay, bx, by)
                if best is None or d < best[0]:
                    best = (d, e)
            edge = None if best is None else best[1]
        return MapMouseEvent(x, y, on, edge, button, shift, False, False)

    @rule(tool=st.sampled_from(TOOLS), button=st.sampled_from(("left", "left", "right")), shift=st.booleans(),
          path=st.lists(st.tuples(CELL, OFFSET), min_size=1, max_size=6),
          terrain=st.integers(0, 9), brush=st.integers(1, 9), side=st.integers(-1, 2),
          bridge=st.sampled_from(("road", "rail")),
          answers=st.lists(st.sampled_from(("accept", "clash", "strength", "side", "rename", "cancel")), max_size=3),
          places=st.lists(st.none() | st.tuples(st.sampled_from(("Richmond", "", "  ", "Fort Pillow", "A" * 60)),
                                                st.sampled_from(("", "RI", "X"))), max_size=2))
    def gesture(self, tool: str, button: str, shift: bool, path: list[Any], terrain: int, brush: int, side: int,
                bridge: str, answers: list[Any], places: list[Any]) -> None:
        doc = self.doc
        assert doc is not None
        if self.tool.id != tool:
            self.tool.deactivate()
            self.tool = self.tools[tool]
            self.tool.activate()
        self.state.set_terrain(terrain)
        self.state.set_brush_size(brush)
        self.state.set_side(side if side < len(doc.scenario.sides) else NO_SIDE)
        self.state.set_bridge_kind(bridge)
        self.answers = list(answers)
        self.place_answers = list(places)
        before = doc.undo_stack.index()
        first, *rest = path
        self.tool.move(self._event(first[0], first[1], None, shift))  # hover
        self.tool.press(self._event(first[0], first[1], button, shift))
        for cell, off in rest:
            self.tool.move(self._event(cell, off, button, shift))
        last = path[-1]
        self.tool.release(self._event(last[0], last[1], button, shift))
        self._record(before)

    def _record(self, before: int) -> None:
        doc = self.doc
        assert doc is not None
        after = doc.undo_stack.index()
        if after == before:  # nothing pushed: the redo history (if any) stays
            assert snapshot(doc.scenario) == self.history[after], "nothing was pushed, yet the model changed"
            return
        assert doc.undo_stack.count() == after, "a new edit must drop the redo history"
        assert after > before
        self.history = self.history[:before + 1] + [None] * (after - before - 1) + [snapshot(doc.scenario)]

    @precondition(lambda self: self.doc is not None and self.doc.undo_stack.canUndo())
    @rule()
    def undo(self) -> None:
        self.doc.undo_stack.undo()  # type: ignore[union-attr]

    @precondition(lambda self: self.doc is not None and self.doc.undo_stack.canRedo())
    @rule()
    def redo(self) -> None:
        self.doc.undo_stack.redo()  # type: ignore[union-attr]

    @precondition(lambda self: self.doc is not None)
    @rule(where=st.floats(0, 1))
    def jump(self, where: float) -> None:
        stack = self.doc.undo_stack  # type: ignore[union-attr]
        stack.setIndex(round(where * stack.count()))

    # -- invariants ----------------------------------------------------------
    @invariant()
    def matches_history(self) -> None:
        if self.doc is None:
            return
        i = self.doc.undo_stack.index()
        assert i < len(self.history)
        if self.history[i] is not None:
            assert snapshot(self.doc.scenario) == self.history[i], f"the model at undo index {i} differs"

    @invariant()
    def save_load_identity(self) -> None:
        if self.doc is None:
            return
        text = dumps_scenario(self.doc.scenario)
        again = loads_scenario(text, "roundtrip.json")
        assert snapshot(again) == snapshot(self.doc.scenario)
        assert dumps_scenario(again) == text

    def teardown(self) -> None:
        if self.doc is None:
            return
        stack = self.doc.undo_stack
        final = self.history[-1]
        stack.setIndex(0)
        assert snapshot(self.doc.scenario) == self.original, "undoing everything did not give back the original"
        stack.setIndex(stack.count())
        if final is not None:
            assert snapshot(self.doc.scenario) == final, "redoing everything did not give the final model"
        self.tool.deactivate()
        self.doc.deleteLater()


def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return float((qx * qx + qy * qy) ** 0.5)


def run_machine(machine: type[RuleBasedStateMachine], examples: int, steps: int) -> None:
    """Run a stateful undo machine (this file's or the territory one's)."""
    run_state_machine_as_test(machine, settings=settings(
        max_examples=examples, stateful_step_count=steps, deadline=None, database=None,
        # shrinking a failing run of GUI steps can take many minutes: off unless asked (ADJUTANT_SHRINK=1);
        # the failure still prints the whole sequence of steps
        phases=tuple(Phase) if os.environ.get("ADJUTANT_SHRINK") else (Phase.explicit, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))


def _run(kind: str, examples: int, steps: int) -> None:
    run_machine(type(f"UndoMachine_{kind}", (UndoMachine,), {"kind": kind}), examples, steps)


@pytest.mark.parametrize("kind", list(GRIDS))
def test_undo_invariants_short(qapp: Any, kind: str) -> None:
    _run(kind, 25, 30)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(GRIDS))
def test_undo_invariants_long(qapp: Any, kind: str) -> None:
    _run(kind, 300, 60)
