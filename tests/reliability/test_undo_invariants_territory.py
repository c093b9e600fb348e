"""Undo invariants on territory maps: stateful property tests of the
territory edit records, without widgets.

A Hypothesis :class:`RuleBasedStateMachine` drives random edits through the
engine's territory edit records (``engine/editing/territory.py``): each edit is
planned by a ``plan_*`` function on a
:class:`~engine.territory.TerritoryScenario` (``None`` for a change that
changes nothing, :class:`~engine.model.ModelError` for a refused value) and
kept in :class:`History`, a widget-free undo history with the rules the
editor's :class:`QUndoStack` follows (a push drops the redo steps; an edit
of the stroke on top joins that step), which applies and reverts the
records.  The edits: territory attributes (including refused values), rail
stations and railroad markers placed, edited and removed (alone or merged
into one stroke, as a drag of the railroad tool does), borders set to every
kind or removed, new territories drawn beside the map, and rail moves the
engine allows under any of the four Rail Options — interleaved with undo,
redo and jumps to any point of the history.

The same machine also runs, shorter, through the editor's
:class:`~app.gui.territory.document.TerritoryDocument` and its
:class:`QUndoStack` of :class:`~app.gui.commands.EditCommand`: the document
plans the same records and its commands apply and revert them.

Invariants, checked after every step:

* save -> load is the identity: the file text of the model in memory loads
  into a scenario that writes the same text again;
* the model at undo index ``i`` equals the model recorded when index ``i``
  was first reached;
* an edit that changes nothing (or is refused) pushes nothing, and a new
  step changes the model;
* applying and reverting a record report the same territories touched;

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

from engine.editing.territory import (
    TERRITORY_FIELDS,
    RulesMoveEdit,
    TerritoryEdit,
    TerritoryTouched,
    apply_edits,
    plan_add_territory,
    plan_attribute,
    plan_border,
    plan_feature,
    revert_edits,
)
from engine.io import load_any
from engine.io.territory import dumps_territory_scenario, loads_territory_scenario
from engine.model import ModelError
from engine.rules import rail_options
from engine.rules.rail_options import RailOptionsError, RailVerdict, judge, reach
from engine.territory import BorderKind, Territory, TerritoryScenario


def plan_rail_move(s: TerritoryScenario, verdict: RailVerdict) -> RulesMoveEdit:
    """Rail Options' planned move as the editor pushes it."""
    return RulesMoveEdit(rail_options.plan_rail_move(s, verdict))

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


class History:
    """A widget-free undo history of territory edit records with the rules
    of the editor's :class:`QUndoStack` (``app/gui/document_base.py``,
    ``stroke_command``): a pushed step drops the redo steps; an edit of the
    stroke whose step is on top (and no redo steps above it) joins that
    step.  It applies every record as it is pushed, and checks that undoing
    and redoing a step touch what its records touched when first applied."""

    def __init__(self, scenario: TerritoryScenario) -> None:
        self.scenario = scenario
        self.steps: list[Step] = []
        self.at = 0
        self._stroke = 0

    def count(self) -> int:
        return len(self.steps)

    def index(self) -> int:
        return self.at

    def new_stroke(self) -> int:
        self._stroke += 1
        return self._stroke

    def push(self, edit: TerritoryEdit | None, stroke: int | None = None) -> bool:
        if edit is None:
            return False
        touched = apply_edits(self.scenario, [edit])
        assert touched.territories, f"{edit!r} touched no territory"
        if stroke is not None and self.at == len(self.steps) and self.steps and self.steps[-1].stroke == stroke:
            top = self.steps[-1]
            top.edits.append(edit)
            top.touched = top.touched | touched
        else:
            del self.steps[self.at:]
            self.steps.append(Step(stroke, [edit], touched))
            self.at += 1
        return True

    def undo(self) -> None:
        self.at -= 1
        step = self.steps[self.at]
        assert revert_edits(self.scenario, step.edits) == step.touched, "undo touched other territories"

    def redo(self) -> None:
        step = self.steps[self.at]
        assert apply_edits(self.scenario, step.edits) == step.touched, "redo touched other territories"
        self.at += 1

    def set_index(self, i: int) -> None:
        while self.at > i:
            self.undo()
        while self.at < i:
            self.redo()


class Step:
    """One undo step of :class:`History`: its stroke key, its records and
    what they touched."""

    def __init__(self, stroke: int | None, edits: list[TerritoryEdit], touched: TerritoryTouched) -> None:
        self.stroke, self.edits, self.touched = stroke, edits, touched


class EngineEditor:
    """The machine's edits as plans of engine records kept in a
    :class:`History` (no Qt)."""

    def __init__(self, scenario: TerritoryScenario) -> None:
        self.history = History(scenario)
        self.scenario = scenario

    def count(self) -> int:
        return self.history.count()

    def index(self) -> int:
        return self.history.index()

    def new_stroke(self) -> int:
        return self.history.new_stroke()

    def set_attribute(self, tid: str, field: str, value: Any) -> bool:
        return self.history.push(plan_attribute(self.scenario, tid, field, value))

    def set_feature(self, tid: str, feature: str, value: dict[str, Any] | None, stroke: int) -> bool:
        return self.history.push(plan_feature(self.scenario, tid, feature, value), stroke)

    def set_border(self, a: str, b: str, kind: BorderKind | None, name: str | None) -> bool:
        return self.history.push(plan_border(self.scenario, a, b, kind, name))

    def add_territory(self, t: Territory) -> bool:
        return self.history.push(plan_add_territory(self.scenario, t))

    def rail_move(self, verdict: RailVerdict) -> bool:
        return self.history.push(plan_rail_move(self.scenario, verdict))

    def undo(self) -> None:
        self.history.undo()

    def redo(self) -> None:
        self.history.redo()

    def set_index(self, i: int) -> None:
        self.history.set_index(i)

    def close(self) -> None:
        pass


class DocumentEditor:
    """The same edits through the editor's document and its undo stack."""

    def __init__(self, scenario: TerritoryScenario) -> None:
        from app.gui.territory.document import TerritoryDocument

        self.doc = TerritoryDocument(scenario)
        self.scenario = scenario
        self.stack = self.doc.undo_stack

    def count(self) -> int:
        return self.stack.count()

    def index(self) -> int:
        return self.stack.index()

    def new_stroke(self) -> int:
        return self.doc.new_stroke()

    def set_attribute(self, tid: str, field: str, value: Any) -> bool:
        return self.doc.set_attribute(tid, field, value)

    def set_feature(self, tid: str, feature: str, value: dict[str, Any] | None, stroke: int) -> bool:
        return self.doc.set_feature(tid, feature, value, stroke)

    def set_border(self, a: str, b: str, kind: BorderKind | None, name: str | None) -> bool:
        return self.doc.set_border(a, b, kind, name)

    def add_territory(self, t: Territory) -> bool:
        self.doc.add_territory(t)
        return True

    def rail_move(self, verdict: RailVerdict) -> bool:
        self.doc.rail_move(verdict)
        return True

    def undo(self) -> None:
        self.stack.undo()

    def redo(self) -> None:
        self.stack.redo()

    def set_index(self, i: int) -> None:
        self.stack.setIndex(i)

    def close(self) -> None:
        self.doc.deleteLater()


Editor = EngineEditor | DocumentEditor


class TerritoryUndoMachine(RuleBasedStateMachine):
    sample = SAMPLES[0]
    editor: type[Editor] = EngineEditor

    def __init__(self) -> None:
        super().__init__()
        self.ed: Editor | None = None

    @initialize()
    def start(self) -> None:
        self.ed = self.editor(load_sample(self.sample))
        self.tids = sorted(self.ed.scenario.map.territories)
        self.sides = [s.id for s in self.ed.scenario.sides]
        self.side_names = [s.name for s in self.ed.scenario.sides]
        self.history: list[str] = [text(self.ed.scenario)]
        self.original = self.history[0]
        self.added = 0
        self.stroke: int | None = None

    # -- bookkeeping -----------------------------------------------------------
    def _pushed(self, before_count: int, before_index: int, changed: bool) -> None:
        """After an edit: a change is one new step (or merges into the last
        one); no change pushes nothing and leaves the model as it was."""
        assert self.ed is not None
        now = text(self.ed.scenario)
        if not changed:
            assert (self.ed.count(), self.ed.index()) == (before_count, before_index), "a no-op edit pushed a step"
            assert now == self.history[self.ed.index()], "a no-op or refused edit changed the model"
            return
        i = self.ed.index()
        assert i in (before_index, before_index + 1), "an edit made more than one undo step"
        assert i == before_index or now != self.history[before_index], "a step was pushed for no change"
        del self.history[i:]  # a new step drops the redo steps; a merged one replaces the last
        self.history.append(now)

    def _edit(self, fn: Any) -> None:
        assert self.ed is not None
        count, index = self.ed.count(), self.ed.index()
        try:
            changed = bool(fn(self.ed))
        except ModelError:
            changed = False
        self._pushed(count, index, changed)

    # -- edits -----------------------------------------------------------------
    @rule(t=st.integers(0, 10_000), field=st.sampled_from(TERRITORY_FIELDS), data=st.data())
    def set_attribute(self, t: int, field: str, data: st.DataObject) -> None:
        assert self.ed is not None
        tid = self.tids[t % len(self.tids)]
        side = st.one_of(st.none(), st.sampled_from(self.sides + self.side_names + ["nobody-such"]))
        value: Any = {
            "name": st.one_of(NAMES, st.just(f" {self.ed.scenario.map.label(tid)} ")),  # a padded no-op
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
        self._edit(lambda ed: ed.set_attribute(tid, field, v))

    @rule(t=st.integers(0, 10_000), feature=st.sampled_from(FEATURES), remove=st.booleans(),
          damage=st.integers(0, 6), bought=TURN, merge=st.booleans())
    def set_feature(self, t: int, feature: str, remove: bool, damage: int, bought: int | None, merge: bool) -> None:
        assert self.ed is not None
        tid = self.tids[t % len(self.tids)]
        value: dict[str, Any] | None = None
        if not remove:
            value = {"damage": damage} if feature == "rail_station" else {}
            if bought is not None:
                value["purchased"] = bought
        stroke = self.stroke if merge and self.stroke is not None else self.ed.new_stroke()
        self.stroke = stroke
        self._edit(lambda ed: ed.set_feature(tid, feature, value, stroke))

    @rule(a=st.integers(0, 10_000), b=st.integers(0, 10_000),
          kind=st.one_of(st.none(), st.sampled_from(list(BorderKind))), name=st.sampled_from([None, "Suez", ""]))
    def set_border(self, a: int, b: int, kind: BorderKind | None, name: str | None) -> None:
        ta, tb = self.tids[a % len(self.tids)], self.tids[b % len(self.tids)]
        self._edit(lambda ed: ed.set_border(ta, tb, kind, name))

    @rule(name=NAMES, clash=st.booleans(), value=st.integers(0, 10))
    def add_territory(self, name: str, clash: bool, value: int) -> None:
        """A new territory drawn beside the map (sharing a side with the last
        one added), or one whose id is taken (refused)."""
        assert self.ed is not None
        tid = self.tids[0] if clash else f"new_{self.added}"
        x = 10_000 + 10 * self.added
        t = Territory(tid, name.strip() or f"New {self.added}", shape=box(x, 0, x + 10, 10), value=value)
        self._edit(lambda ed: ed.add_territory(t))
        if tid in self.ed.scenario.map and tid not in self.tids:
            self.added += 1
            self.tids.append(tid)

    @rule(u=st.integers(0, 10_000), option=st.integers(1, 4), pick=st.integers(0, 10_000))
    def rail_move(self, u: int, option: int, pick: int) -> None:
        """A rail move the engine allows (its reach under the option), or
        the verdict on an arbitrary destination, refused when it is not."""
        assert self.ed is not None
        s = self.ed.scenario
        if not s.units:
            return
        unit = s.units[u % len(s.units)]
        try:
            dests = [d.territory for d in reach(s, unit.id, option).destinations] or self.tids
            verdict = judge(s, unit.id, dests[pick % len(dests)], option)
        except (RailOptionsError, ModelError):
            return
        self._edit(lambda ed: ed.rail_move(verdict))

    # -- history ---------------------------------------------------------------
    @precondition(lambda self: self.ed is not None and self.ed.index() > 0)
    @rule()
    def undo(self) -> None:
        assert self.ed is not None
        self.ed.undo()

    @precondition(lambda self: self.ed is not None and self.ed.index() < self.ed.count())
    @rule()
    def redo(self) -> None:
        assert self.ed is not None
        self.ed.redo()

    @rule(i=st.integers(0, 10_000))
    def jump(self, i: int) -> None:
        assert self.ed is not None
        self.ed.set_index(i % (self.ed.count() + 1))

    # -- invariants -------------------------------------------------------------
    @invariant()
    def model_matches_history(self) -> None:
        if self.ed is None:
            return
        i = self.ed.index()
        assert len(self.history) == self.ed.count() + 1
        assert text(self.ed.scenario) == self.history[i], f"the model at undo index {i} differs"

    @invariant()
    def save_load_identity(self) -> None:
        if self.ed is None:
            return
        saved = text(self.ed.scenario)
        assert text(loads_territory_scenario(saved, "roundtrip.json")) == saved

    def teardown(self) -> None:
        if self.ed is None:
            return
        self.ed.set_index(0)
        assert text(self.ed.scenario) == self.original, "undoing everything did not give back the original"
        self.ed.set_index(self.ed.count())
        assert text(self.ed.scenario) == self.history[-1], "redoing everything did not give the final model"
        self.ed.close()


def _run(sample: str, examples: int, steps: int, editor: type[Editor] = EngineEditor) -> None:
    name = f"TerritoryUndoMachine_{Path(sample).stem}_{editor.__name__}"
    run_machine(type(name, (TerritoryUndoMachine,), {"sample": sample, "editor": editor}), examples, steps)


@pytest.mark.parametrize("sample", SAMPLES)
def test_territory_undo_invariants_short(sample: str) -> None:
    _run(sample, 10, 30)


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES)
def test_territory_undo_invariants_long(sample: str) -> None:
    _run(sample, 300, 60)


@pytest.mark.gui
@pytest.mark.parametrize("sample", SAMPLES)
def test_territory_undo_invariants_through_the_document(qapp: Any, sample: str) -> None:
    """The editor's document and undo stack keep the same invariants."""
    _run(sample, 8, 30, DocumentEditor)


@pytest.mark.gui
def test_the_document_pushes_the_engine_records(qapp: Any) -> None:
    """Each document edit is one :class:`EditCommand` holding exactly the
    record the engine plans; its redo and undo emit what the engine's
    apply and revert report; a stroke grows one command."""
    from app.gui.commands import EditCommand, MergeId
    from app.gui.territory.document import TerritoryDocument

    doc = TerritoryDocument(load_sample(SAMPLES[0]))
    twin = load_sample(SAMPLES[0])  # planned on alongside, without Qt
    emitted: list[Any] = []
    doc.edited.connect(emitted.append)
    stack = doc.undo_stack
    steps: list[tuple[Any, Any, str]] = [
        (lambda: doc.set_attribute("germany", "value", 9), lambda: plan_attribute(twin, "germany", "value", 9),
         "Germany: value 12 → 9"),
        (lambda: doc.set_feature("belgium", "rail_station", {"damage": 2}),
         lambda: plan_feature(twin, "belgium", "rail_station", {"damage": 2}), "Belgium: add rail station"),
        (lambda: doc.set_border("egypt", "syria", BorderKind.STRAIT),
         lambda: plan_border(twin, "egypt", "syria", BorderKind.STRAIT), "border Egypt–Syria: strait"),
        (lambda: doc.add_territory(Territory("isle", "Isle", shape=box(9000, 0, 9010, 10))),
         lambda: plan_add_territory(twin, Territory("isle", "Isle", shape=box(9000, 0, 9010, 10))),
         "new territory Isle"),
        (lambda: doc.rail_move(judge(doc.scenario, "ger_inf", "smolensk", 1)), lambda: plan_rail_move(twin, judge(twin, "ger_inf", "smolensk", 1)),
         "rail ger_inf: Germany → Smolensk"),
    ]
    for n, (edit, plan, label) in enumerate(steps):
        record = plan()
        touched = apply_edits(twin, [record])
        edit()
        command = stack.command(n)
        assert isinstance(command, EditCommand) and command.id() == MergeId.NONE
        assert command.edits == [record] and command.text() == label
        assert emitted[-1] == touched
        stack.undo()
        assert emitted[-1] == revert_edits(twin, [record]) == touched
        stack.redo()
        apply_edits(twin, [record])
    assert text(doc.scenario) == text(twin)
    assert doc.set_attribute("germany", "value", 9) is False and stack.count() == len(steps)

    stroke = doc.new_stroke()
    for tid in ("france", "belgium", "austria"):
        doc.set_feature(tid, "railroad", None, stroke)
    top = stack.command(stack.count() - 1)
    assert stack.count() == len(steps) + 1 and isinstance(top, EditCommand) and top.id() == MergeId.STROKE
    assert [(e.tid, e.after) for e in top.edits] == [("france", None), ("belgium", None), ("austria", None)]
    assert top.text() == "remove railroad in 3 territories"
    stack.setIndex(0)
    assert text(doc.scenario) == text(load_sample(SAMPLES[0]))
    doc.deleteLater()
