"""Undo invariants on territory maps: stateful property tests of the
territory editor's document.

A Hypothesis :class:`RuleBasedStateMachine` drives random edits through
:class:`~app.gui.territory.document.TerritoryDocument`, the object every
territory tool and inspector field pushes its change through: territory
attributes (including values the document refuses), rail stations and
railroad markers placed, edited and removed (alone or merged into one
stroke, as a drag of the railroad tool does), borders set to every kind or
removed, new territories drawn beside the map, and rail moves the engine
allows under any of the four Rail Options — interleaved with undo, redo and
jumps to any point of the history.

Invariants, checked after every step:

* save -> load is the identity: the file text of the model in memory loads
  into a scenario that writes the same text again;
* the model at undo index ``i`` equals the model recorded when index ``i``
  was first reached;
* an edit that changes nothing (or is refused) pushes nothing;

and at the end of every run: undo all == original, redo all == final.

The grid-map counterpart is ``test_undo_invariants.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from shapely.geometry import box
from test_undo_invariants import run_machine

from app.gui.territory.document import TERRITORY_FIELDS, TerritoryDocument
from engine.model import ModelError
from engine.rules.rail_options import RailOptions, RailOptionsError
from engine.scenario_io import load_any
from engine.territory import BorderKind, Territory, TerritoryScenario
from engine.territory.io import dumps_territory_scenario, loads_territory_scenario

pytestmark = pytest.mark.gui

MAPS = Path(__file__).resolve().parents[2] / "maps"
SAMPLES = ("aa_rail_options.json", "railroad_module_europe.json")
FEATURES = ("rail_station", "railroad")
NAMES = st.sampled_from(["Ruhr", "ruhr", "", "  ", "Saxony", "Germany", "Prussia", "Baltic States"])
TURN = st.one_of(st.none(), st.integers(0, 12))


def text(s: TerritoryScenario) -> str:
    """The model as its file text: everything a territory scenario holds."""
    return dumps_territory_scenario(s)


def load_sample(name: str) -> TerritoryScenario:
    s = load_any(MAPS / name)
    assert isinstance(s, TerritoryScenario)
    return s


class TerritoryUndoMachine(RuleBasedStateMachine):
    sample = SAMPLES[0]

    def __init__(self) -> None:
        super().__init__()
        self.doc: TerritoryDocument | None = None

    @initialize()
    def start(self) -> None:
        self.doc = TerritoryDocument(load_sample(self.sample))
        self.tids = sorted(self.doc.scenario.map.territories)
        self.sides = [s.id for s in self.doc.scenario.sides]
        self.history: list[str] = [text(self.doc.scenario)]
        self.original = self.history[0]
        self.added = 0

    # -- bookkeeping -----------------------------------------------------------
    def _pushed(self, before_count: int, before_index: int, changed: bool) -> None:
        """After an edit: a change is one new step (or merges into the last
        one); no change pushes nothing and leaves the model as it was."""
        assert self.doc is not None
        stack = self.doc.undo_stack
        now = text(self.doc.scenario)
        if not changed:
            assert (stack.count(), stack.index()) == (before_count, before_index), "a no-op edit pushed a step"
            assert now == self.history[stack.index()], "a no-op or refused edit changed the model"
            return
        i = stack.index()
        assert i in (before_index, before_index + 1), "an edit made more than one undo step"
        del self.history[i:]  # a new step drops the redo steps; a merged one replaces the last
        self.history.append(now)

    def _edit(self, fn: Any) -> None:
        assert self.doc is not None
        stack = self.doc.undo_stack
        count, index = stack.count(), stack.index()
        try:
            changed = bool(fn())
        except (ModelError, KeyError, ValueError):
            changed = False
        self._pushed(count, index, changed)

    # -- edits -----------------------------------------------------------------
    @rule(t=st.integers(0, 10_000), field=st.sampled_from(TERRITORY_FIELDS), data=st.data())
    def set_attribute(self, t: int, field: str, data: st.DataObject) -> None:
        assert self.doc is not None
        tid = self.tids[t % len(self.tids)]
        side = st.one_of(st.none(), st.sampled_from(self.sides + ["nobody-such"]))
        value: Any = {
            "name": NAMES,
            "value": st.one_of(st.integers(-2, 12), st.just("7")),
            "sea": st.booleans(),
            "owner": side,
            "controller": side,
            "control_since": st.integers(-1, 9),
            "control_since_side": side,
            "impassable": st.booleans(),
            "label_at": st.one_of(st.none(), st.tuples(st.floats(0, 500, allow_nan=False),
                                                       st.floats(0, 500, allow_nan=False))),
        }[field]
        v = data.draw(value)
        self._edit(lambda: self.doc.set_attribute(tid, field, v))  # type: ignore[union-attr]

    @rule(t=st.integers(0, 10_000), feature=st.sampled_from(FEATURES), remove=st.booleans(),
          damage=st.integers(0, 6), bought=TURN, merge=st.booleans())
    def set_feature(self, t: int, feature: str, remove: bool, damage: int, bought: int | None, merge: bool) -> None:
        assert self.doc is not None
        tid = self.tids[t % len(self.tids)]
        value: dict[str, Any] | None = None
        if not remove:
            value = {"damage": damage} if feature == "rail_station" else {}
            if bought is not None:
                value["purchased"] = bought
        stroke = self.stroke if merge and getattr(self, "stroke", None) else self.doc.new_stroke()
        self.stroke = stroke
        self._edit(lambda: self.doc.set_feature(tid, feature, value, stroke))  # type: ignore[union-attr]

    @rule(a=st.integers(0, 10_000), b=st.integers(0, 10_000),
          kind=st.one_of(st.none(), st.sampled_from(list(BorderKind))), name=st.sampled_from([None, "Suez", ""]))
    def set_border(self, a: int, b: int, kind: BorderKind | None, name: str | None) -> None:
        assert self.doc is not None
        ta, tb = self.tids[a % len(self.tids)], self.tids[b % len(self.tids)]
        self._edit(lambda: self.doc.set_border(ta, tb, kind, name))  # type: ignore[union-attr]

    @rule(name=NAMES, clash=st.booleans(), value=st.integers(0, 10))
    def add_territory(self, name: str, clash: bool, value: int) -> None:
        """A new territory drawn beside the map (sharing a side with the last
        one added), or one whose id is taken (refused)."""
        assert self.doc is not None
        tid = self.tids[0] if clash else f"new_{self.added}"
        x = 10_000 + 10 * self.added
        t = Territory(tid, name.strip() or f"New {self.added}", shape=box(x, 0, x + 10, 10), value=value)

        def add() -> bool:
            self.doc.add_territory(t)  # type: ignore[union-attr]
            return True
        self._edit(add)
        if tid in self.doc.scenario.map and tid not in self.tids:
            self.added += 1
            self.tids.append(tid)

    @rule(u=st.integers(0, 10_000), option=st.integers(1, 4), pick=st.integers(0, 10_000))
    def rail_move(self, u: int, option: int, pick: int) -> None:
        """A rail move the engine allows (its reach under the option), or
        the verdict on an arbitrary destination, refused when it is not."""
        assert self.doc is not None
        s = self.doc.scenario
        if not s.units:
            return
        unit = s.units[u % len(s.units)]
        try:
            ro = RailOptions(s, option)
            reach = ro.reach(unit.id)
            dests = [d.territory for d in reach.destinations] or self.tids
            verdict = ro.judge(unit.id, dests[pick % len(dests)])
        except (RailOptionsError, ModelError):
            return

        def move() -> bool:
            self.doc.rail_move(verdict)  # type: ignore[union-attr]
            return True
        self._edit(move)

    # -- history ---------------------------------------------------------------
    @precondition(lambda self: self.doc is not None and self.doc.undo_stack.canUndo())
    @rule()
    def undo(self) -> None:
        assert self.doc is not None
        self.doc.undo_stack.undo()

    @precondition(lambda self: self.doc is not None and self.doc.undo_stack.canRedo())
    @rule()
    def redo(self) -> None:
        assert self.doc is not None
        self.doc.undo_stack.redo()

    @rule(i=st.integers(0, 10_000))
    def jump(self, i: int) -> None:
        assert self.doc is not None
        self.doc.undo_stack.setIndex(i % (self.doc.undo_stack.count() + 1))

    # -- invariants -------------------------------------------------------------
    @invariant()
    def model_matches_history(self) -> None:
        if self.doc is None:
            return
        i = self.doc.undo_stack.index()
        assert len(self.history) == self.doc.undo_stack.count() + 1
        assert text(self.doc.scenario) == self.history[i], f"the model at undo index {i} differs"

    @invariant()
    def save_load_identity(self) -> None:
        if self.doc is None:
            return
        saved = text(self.doc.scenario)
        assert text(loads_territory_scenario(saved, "roundtrip.json")) == saved

    def teardown(self) -> None:
        if self.doc is None:
            return
        stack = self.doc.undo_stack
        stack.setIndex(0)
        assert text(self.doc.scenario) == self.original, "undoing everything did not give back the original"
        stack.setIndex(stack.count())
        assert text(self.doc.scenario) == self.history[-1], "redoing everything did not give the final model"
        self.doc.deleteLater()


def _run(sample: str, examples: int, steps: int) -> None:
    run_machine(type(f"TerritoryUndoMachine_{Path(sample).stem}", (TerritoryUndoMachine,), {"sample": sample}),
                examples, steps)


@pytest.mark.parametrize("sample", SAMPLES)
def test_territory_undo_invariants_short(qapp: Any, sample: str) -> None:
    _run(sample, 25, 30)


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES)
def test_territory_undo_invariants_long(qapp: Any, sample: str) -> None:
    _run(sample, 300, 60)
