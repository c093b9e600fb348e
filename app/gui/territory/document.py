"""The open territory scenario, its file and its undo stack.

Like :class:`app.gui.document.Document` for grid maps: every change is one
:class:`QUndoCommand` that changes the model (a territory attribute, a
feature, a border, a new territory, a rail move), and the document re-emits
what changed:

* :attr:`TerritoryDocument.territoriesChanged` ``(ids)`` — territories whose
  attributes, shape or features changed (views repaint them);
* :attr:`TerritoryDocument.bordersChanged` ``()`` — the border graph changed;
* :attr:`TerritoryDocument.unitsChanged` ``(ids)`` — units moved;
* :attr:`TerritoryDocument.edited` ``(what)`` — once per change (previews
  re-run on it);
* :attr:`TerritoryDocument.scenarioReplaced` ``(scenario)`` — a new map.

It offers the signals and methods :class:`app.gui.autosave.Autosave` uses
(``edited``, ``scenarioReplaced``, ``modifiedChanged``, ``is_modified``,
``text``, ``path``, ``scenario.name``), so autosave works unchanged.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand

from engine.model import ModelError
from engine.rules.rail_options import RailVerdict, RecordedMove, record_move, undo_move
from engine.scenario_io import load_any, save_any
from engine.territory import BorderKind, Territory, TerritoryScenario
from engine.territory.io import dumps_territory_scenario

from ..document_base import DocumentBase

TERRITORY_FIELDS = ("name", "value", "sea", "owner", "controller", "control_since", "control_since_side",
                    "impassable", "label_at")
"""Territory attributes the inspector edits (plain dataclass fields)."""


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

    # -- notifications (called by the commands) ----------------------------
    def notify(self, territories: set[str] | None = None, borders: bool = False, units: set[str] | None = None,
               shapes: bool = False) -> None:
        self.revision += 1
        if territories:
            self.territoriesChanged.emit(set(territories))
        if borders:
            self.bordersChanged.emit()
        if units:
            self.unitsChanged.emit(set(units))
        self.edited.emit({"territories": set(territories or ()), "borders": borders, "units": set(units or ()),
                          "shapes": shapes})

    # -- edits -------------------------------------------------------------
    def set_attribute(self, tid: str, field: str, value: Any) -> bool:
        """Set one territory attribute as one undo step; nothing is pushed
        when the value does not change.  Raises :class:`ModelError` for a
        bad value (an empty or duplicate name, an unknown side)."""
        if field not in TERRITORY_FIELDS:
            raise ModelError(f"'{field}' is not a territory attribute the editor changes")
        t = self.scenario.map.territory(tid)
        old = getattr(t, field)
        if old == value:
            return False
        if field == "name":
            value = str(value).strip()
            if not value:
                raise ModelError("a territory needs a name")
            for other in self.scenario.map.territories.values():
                if other.id != t.id and other.name.casefold() == value.casefold():
                    raise ModelError(f"the name '{value}' is already used by territory '{other.id}'")
        if field in ("owner", "controller", "control_since_side") and value is not None:
            value = self.scenario.side(value).id
        if field in ("value", "control_since") and (not isinstance(value, int) or value < 0):
            raise ModelError(f"{field} must be a whole number of 0 or more, got {value!r}")
        self.undo_stack.push(AttributeCommand(self, t.id, field, old, value))
        return True

    def set_feature(self, tid: str, feature: str, value: dict[str, Any] | None, stroke: int | None = None) -> bool:
        """Set (``None``: remove) one feature of a territory, e.g. a rail
        station ``{"damage": 2}``, as one undo step (merged into the
        previous step when it has the same ``stroke``).  Nothing is pushed
        when the value does not change."""
        t = self.scenario.map.territory(tid)
        old = copy.deepcopy(t.features.get(feature))
        if old == value:
            return False
        change = (t.id, feature, old, copy.deepcopy(value))
        top = self.stroke_command(stroke, FeatureCommand)
        if top is not None:
            top.extend([change])
        else:
            self.undo_stack.push(FeatureCommand(self, [change], stroke))
        return True

    def set_border(self, a: str, b: str, kind: BorderKind | None, name: str | None = None) -> bool:
        """Set the border between ``a`` and ``b`` to ``kind`` (``None``:
        remove it) as one undo step."""
        m = self.scenario.map
        a, b = m.territory(a).id, m.territory(b).id
        if a == b:
            raise ModelError("a border needs two different territories")
        old = m.border(a, b)
        old_spec = None if old is None else (old.kind, old.name, dict(old.props))
        new_spec = None if kind is None else (kind, name or None, dict(old.props) if old else {})
        if old_spec == new_spec:
            return False
        self.undo_stack.push(BorderCommand(self, a, b, old_spec, new_spec))
        return True

    def add_territory(self, t: Territory) -> None:
        """Add a new territory (with ordinary borders to every territory its
        shape shares a border with) as one undo step."""
        m = self.scenario.map
        if t.id in m:
            raise ModelError(f"territory id '{t.id}' is already used")
        if any(o.name.casefold() == t.name.casefold() for o in m.territories.values()):
            raise ModelError(f"the name '{t.name}' is already used")
        self.undo_stack.push(AddTerritoryCommand(self, t))

    def rail_move(self, verdict: RailVerdict) -> None:
        """Apply an allowed rail move (engine ``record_move``) as one undo
        step; undo takes it back (``undo_move``)."""
        if not verdict.allowed:
            raise ModelError(verdict.reason)
        self.undo_stack.push(RailMoveCommand(self, verdict))

    # -- files (DocumentBase hooks) ----------------------------------------
    def replace(self, scenario: TerritoryScenario, path: str | None, modified: bool = False) -> None:
        self.revision += 1
        super().replace(scenario, path, modified)

    def _load(self, path: str) -> TerritoryScenario:
        """A territory scenario; ``ScenarioError``, or :class:`ModelError`
        for a grid map."""
        s = load_any(path)
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
# commands: each changes the model and tells the document what it touched


class AttributeCommand(QUndoCommand):
    def __init__(self, doc: TerritoryDocument, tid: str, field: str, old: Any, new: Any) -> None:
        name = doc.scenario.map.label(tid)
        super().__init__(f"{name}: {field.replace('_', ' ')} {_show(old)} → {_show(new)}")
        self.doc, self.tid, self.field, self.old, self.new = doc, tid, field, old, new

    def _set(self, value: Any) -> None:
        setattr(self.doc.scenario.map.territories[self.tid], self.field, value)
        self.doc.notify({self.tid}, shapes=self.field == "label_at")

    def redo(self) -> None:
        self._set(self.new)

    def undo(self) -> None:
        self._set(self.old)


FeatureChange = tuple[str, str, Any, Any]
"""(territory id, feature, old value, new value); ``None``: absent."""

STROKE_ID = 0x7E1
"""QUndoCommand id of feature edits made in one stroke (they merge)."""


class FeatureCommand(QUndoCommand):
    """Set features of territories (a station placed, a marker laid or
    removed): one change, or all the changes of one drag (``stroke``)."""

    def __init__(self, doc: TerritoryDocument, changes: list[FeatureChange], stroke: int | None = None) -> None:
        super().__init__()
        self.doc, self.changes, self.stroke = doc, list(changes), stroke
        self._name()

    def _name(self) -> None:
        m = self.doc.scenario.map
        tid, feature, old, new = self.changes[0]
        what = feature.replace("_", " ")
        if len(self.changes) > 1:
            verbs = {"add" if o is None else ("remove" if n is None else "set") for _, _, o, n in self.changes}
            verb = verbs.pop() if len(verbs) == 1 else "edit"
            self.setText(f"{verb} {what} in {len(self.changes)} territories")
            return
        name = m.label(tid)
        self.setText(f"{name}: remove {what}" if new is None else (f"{name}: add {what}" if old is None
                                                                    else f"{name}: {what} {_show(new)}"))

    def id(self) -> int:
        return STROKE_ID if self.stroke is not None else -1

    def _absorb(self, changes: list[FeatureChange]) -> None:
        """Take later changes of the same stroke into this step: a feature
        changed again keeps its first old value."""
        for tid, feature, old, new in changes:
            i = next((i for i, c in enumerate(self.changes) if c[0] == tid and c[1] == feature), None)
            if i is None:
                self.changes.append((tid, feature, old, new))
            else:
                self.changes[i] = (tid, feature, self.changes[i][2], new)
        self._name()

    def extend(self, changes: list[FeatureChange]) -> None:
        """Carry out more changes of the same step (the next territory of
        a drag); see :meth:`DocumentBase.stroke_command`."""
        self._apply(changes, True)
        self._absorb(changes)

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, FeatureCommand) or other.stroke is None or other.stroke != self.stroke:
            return False
        self._absorb(other.changes)
        other.changes = []  # Qt deletes ``other`` now; PySide keeps its Python object
        return True

    def _apply(self, changes: list[FeatureChange], new: bool) -> None:
        ts = self.doc.scenario.map.territories
        for tid, feature, old, value in (changes if new else reversed(changes)):
            feats = ts[tid].features
            v = value if new else old
            if v is None:
                feats.pop(feature, None)
            else:
                feats[feature] = copy.deepcopy(v)
        self.doc.notify({c[0] for c in changes})

    def _set(self, new: bool) -> None:
        self._apply(self.changes, new)

    def redo(self) -> None:
        self._set(True)

    def undo(self) -> None:
        self._set(False)


BorderSpec = tuple[BorderKind, str | None, dict[str, Any]] | None


class BorderCommand(QUndoCommand):
    def __init__(self, doc: TerritoryDocument, a: str, b: str, old: BorderSpec, new: BorderSpec) -> None:
        m = doc.scenario.map
        what = "no border" if new is None else new[0].value.replace("_", " ")
        super().__init__(f"border {m.label(a)}–{m.label(b)}: {what}")
        self.doc, self.a, self.b, self.old, self.new = doc, a, b, old, new

    def _set(self, spec: BorderSpec) -> None:
        m = self.doc.scenario.map
        if m.graph.has_edge(self.a, self.b):
            m.remove_border(self.a, self.b)
        if spec is not None:
            m.add_border(self.a, self.b, spec[0], spec[1], spec[2])
        self.doc.notify({self.a, self.b}, borders=True)

    def redo(self) -> None:
        self._set(self.new)

    def undo(self) -> None:
        self._set(self.old)


class AddTerritoryCommand(QUndoCommand):
    def __init__(self, doc: TerritoryDocument, t: Territory) -> None:
        super().__init__(f"new territory {t.name}")
        self.doc, self.t = doc, t

    def redo(self) -> None:
        from engine.territory.geometry import shared_border_length

        m = self.doc.scenario.map
        m.add(self.t)
        for other in m.territories.values():
            if other.id != self.t.id and not other.shape.is_empty \
                    and shared_border_length(self.t.shape, other.shape) > 1e-9:
                m.add_border(self.t.id, other.id)
        self.doc.notify({self.t.id}, borders=True, shapes=True)

    def undo(self) -> None:
        self.doc.scenario.map.remove(self.t.id)
        self.doc.notify({self.t.id}, borders=True, shapes=True)


class RailMoveCommand(QUndoCommand):
    def __init__(self, doc: TerritoryDocument, verdict: RailVerdict) -> None:
        m = doc.scenario.map
        super().__init__(f"rail {verdict.unit}: {m.label(verdict.start)} → {m.label(verdict.to)}")
        self.doc, self.verdict = doc, verdict
        self.recorded: RecordedMove | None = None

    def redo(self) -> None:
        self.recorded = record_move(self.doc.scenario, self.verdict)
        self.doc.notify({self.verdict.start, self.verdict.to}, units={self.verdict.unit})

    def undo(self) -> None:
        undo_move(self.doc.scenario, self.verdict.unit, self.recorded)
        self.doc.notify({self.verdict.start, self.verdict.to}, units={self.verdict.unit})


def _show(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {x}" for k, x in v.items()) or "(plain)"
    return str(v)


__all__ = ["TERRITORY_FIELDS", "TerritoryDocument"]
