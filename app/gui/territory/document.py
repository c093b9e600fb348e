"""The open territory scenario, its file and its undo stack.

Like :class:`app.gui.document.Document` for grid maps: every change is a
list of engine edit records (:mod:`engine.editing.territory`: a territory
attribute, a feature, a border, a new territory, a rail move) planned by the
engine's ``plan_*`` functions — which refuse bad values with a
:class:`~engine.model.ModelError` and return ``None`` for a change that
changes nothing — and pushed as one generic
:class:`~app.gui.commands.EditCommand`.  The command's redo and undo call
:meth:`TerritoryDocument.apply_edits` / :meth:`TerritoryDocument.revert_edits`,
and the document re-emits the :class:`~engine.editing.territory.TerritoryTouched`
record of what changed:

* :attr:`TerritoryDocument.territoriesChanged` ``(ids)`` — territories whose
  attributes, shape or features changed (views repaint them);
* :attr:`TerritoryDocument.bordersChanged` ``()`` — the border graph changed;
* :attr:`TerritoryDocument.unitsChanged` ``(ids)`` — units moved;
* :attr:`TerritoryDocument.edited` ``(TerritoryTouched)`` — once per change
  (previews re-run on it; ``shapes`` says outlines or labels moved);
* :attr:`TerritoryDocument.scenarioReplaced` ``(scenario)`` — a new map.

It offers the signals and methods :class:`app.gui.autosave.Autosave` uses
(``edited``, ``scenarioReplaced``, ``modifiedChanged``, ``is_modified``,
``text``, ``path``, ``scenario.name``), so autosave works unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from engine.editing.territory import (
    TERRITORY_FIELDS,
    AttributeChange,
    BorderChange,
    FeatureChange,
    MapUnderlayChange,
    RulesMoveEdit,
    TerritoryAdded,
    TerritoryEdit,
    TerritoryTouched,
    apply_edits,
    plan_add_territory,
    plan_attribute,
    plan_border,
    plan_feature,
    revert_edits,
)
from engine.io import load_text_checked, save_any
from engine.io.territory import dumps_territory_scenario
from engine.model import ModelError
from engine.rules.rail_options import RailVerdict, plan_rail_move
from engine.territory import BorderKind, Territory, TerritoryScenario

from ..commands import push_edits
from ..document_base import DocumentBase


class TerritoryDocument(DocumentBase):
    """A territory map's document (file, undo stack and clean state:
    :class:`~app.gui.document_base.DocumentBase`)."""

    territoriesChanged = Signal(object)
    bordersChanged = Signal()
    unitsChanged = Signal(object)

    scenario: TerritoryScenario

    def __init__(self, scenario: TerritoryScenario, path: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(scenario, path, parent)
        self.revision = 0
        """Counts changes; caches of rules objects key on it."""

    # -- notifications ---------------------------------------------------
    def notify(self, territories: set[str] | None = None, borders: bool = False, units: set[str] | None = None,
               shapes: bool = False) -> None:
        """Re-emit a change (for a change made outside the undo stack)."""
        self.emit_touched(TerritoryTouched(frozenset(territories or ()), borders, frozenset(units or ()), shapes))

    def emit_touched(self, touched: TerritoryTouched) -> None:
        """Re-emit what an edit touched as the document's signals."""
        self.revision += 1
        if touched.territories:
            self.territoriesChanged.emit(set(touched.territories))
        if touched.borders:
            self.bordersChanged.emit()
        if touched.units:
            self.unitsChanged.emit(set(touched.units))
        self.edited.emit(touched)

    def apply_edits(self, edits: Sequence[TerritoryEdit]) -> None:
        """Carry out ``edits`` and emit what they touched (a command's redo)."""
        self.emit_touched(apply_edits(self.scenario, edits))

    def revert_edits(self, edits: Sequence[TerritoryEdit]) -> None:
        """Take ``edits`` back and emit what they touched (a command's undo)."""
        self.emit_touched(revert_edits(self.scenario, edits))

    def push_edit(self, edit: TerritoryEdit | None, stroke: int | None = None) -> bool:
        """Carry out ``edit`` as one undo step (merged into the previous step
        when it has the same ``stroke``); nothing is pushed for ``None``.
        Returns whether something was pushed."""
        if edit is None:
            return False
        turns = self.turns
        if turns is not None and isinstance(edit, (AttributeChange, FeatureChange, RulesMoveEdit)) and turns.begun():
            # a set-up edit of what the game keeps while it is on: the game master's adjustment, journalled
            text = describe(self.scenario, [edit]) or "an edit"
            if turns.adjust(f"game master's adjustment: {text}", lambda s: apply_edits(s, [edit])) is None:
                return True
        push_edits(self, "", [edit], stroke)
        return True

    def describe_edits(self, edits: Sequence[TerritoryEdit]) -> str | None:
        return describe(self.scenario, edits)

    # -- edits -------------------------------------------------------------
    def set_attribute(self, tid: str, field: str, value: Any) -> bool:
        """Set one territory attribute as one undo step; nothing is pushed
        when the value does not change.  Raises :class:`ModelError` for a
        bad value (an empty or duplicate name, an unknown side):
        :func:`~engine.editing.territory.plan_attribute`."""
        return self.push_edit(plan_attribute(self.scenario, tid, field, value))

    def set_feature(self, tid: str, feature: str, value: dict[str, Any] | None, stroke: int | None = None) -> bool:
        """Set (``None``: remove) one feature of a territory, e.g. a rail
        station ``{"damage": 2}``, as one undo step (merged into the
        previous step when it has the same ``stroke``).  Nothing is pushed
        when the value does not change."""
        return self.push_edit(plan_feature(self.scenario, tid, feature, value), stroke)

    def set_border(self, a: str, b: str, kind: BorderKind | None, name: str | None = None) -> bool:
        """Set the border between ``a`` and ``b`` to ``kind`` (``None``:
        remove it) as one undo step."""
        return self.push_edit(plan_border(self.scenario, a, b, kind, name))

    def add_territory(self, t: Territory) -> None:
        """Add a new territory (with ordinary borders to every territory its
        shape shares a border with) as one undo step."""
        self.push_edit(plan_add_territory(self.scenario, t))

    def rail_move(self, verdict: RailVerdict) -> None:
        """Apply an allowed rail move (engine ``record_move``) as one undo
        step; undo takes it back (``undo_move``)."""
        self.push_edit(RulesMoveEdit(plan_rail_move(self.scenario, verdict)))

    # -- files (DocumentBase hooks) ----------------------------------------
    def replace(self, scenario: TerritoryScenario, path: str | None, modified: bool = False) -> None:
        self.revision += 1
        super().replace(scenario, path, modified)

    def _load(self, path: str) -> TerritoryScenario:
        """A territory scenario; ``ScenarioError``, or :class:`ModelError`
        for a grid map."""
        s = load_text_checked(path)
        if not isinstance(s, TerritoryScenario):
            raise not_a_territory_map(s, path)
        return s

    def _write(self, path: str) -> None:
        save_any(self.scenario, path)

    def text(self) -> str:
        return dumps_territory_scenario(self.scenario)


def not_a_territory_map(s: Any, path: str) -> ModelError:
    """The refusal for a grid map met where a territory map is wanted."""
    return ModelError(f"{Path(path).name} is a {s.map.grid.kind.value} grid map, not a territory map; "
                      f"open it with the grid editor (adjutant FILE)")


# ---------------------------------------------------------------------------
# undo texts


def describe(s: TerritoryScenario, edits: Sequence[TerritoryEdit]) -> str:
    """The undo text of a step made of ``edits`` (names as they are now):
    e.g. ``Ruhr: value 3 → 5``, ``Ruhr: add rail station``, ``add railroad
    in 4 territories``, ``border Ruhr–Saxony: strait``, ``new territory
    Ruhr``, ``rail inf1: Ruhr → Saxony``."""
    m = s.map
    if edits and all(isinstance(e, FeatureChange) for e in edits):
        return _describe_features(s, [e for e in edits if isinstance(e, FeatureChange)])
    e = edits[0] if edits else None
    if isinstance(e, AttributeChange):
        return f"{m.label(e.tid)}: {e.field.replace('_', ' ')} {_show(e.before)} → {_show(e.after)}"
    if isinstance(e, BorderChange):
        what = "no border" if e.after is None else e.after.kind.value.replace("_", " ")
        return f"border {m.label(e.a)}–{m.label(e.b)}: {what}"
    if isinstance(e, TerritoryAdded):
        return f"new territory {e.territory.name}"
    if isinstance(e, RulesMoveEdit):
        v = e.move
        return f"rail {v.unit}: {m.label(v.start)} → {m.label(v.to)}"
    if isinstance(e, MapUnderlayChange):
        return "add underlay" if e.before is None else ("remove underlay" if e.after is None else "underlay")
    return "edit territories"


def _describe_features(s: TerritoryScenario, edits: list[FeatureChange]) -> str:
    """One feature change, or the changes of a stroke: each territory's
    feature counted once, from its first value to its last."""
    first: dict[tuple[str, str], tuple[Any, Any]] = {}
    for e in edits:
        key = (e.tid, e.feature)
        first[key] = (first[key][0] if key in first else e.before, e.after)
    (tid, feature), (old, new) = next(iter(first.items()))
    what = feature.replace("_", " ")
    if len(first) > 1:
        verbs = {"add" if o is None else ("remove" if n is None else "set") for o, n in first.values()}
        verb = verbs.pop() if len(verbs) == 1 else "edit"
        return f"{verb} {what} in {len(first)} territories"
    name = s.map.label(tid)
    return f"{name}: remove {what}" if new is None else (f"{name}: add {what}" if old is None
                                                         else f"{name}: {what} {_show(new)}")


def _show(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {x}" for k, x in v.items()) or "(plain)"
    return str(v)


__all__ = ["TERRITORY_FIELDS", "TerritoryDocument"]
