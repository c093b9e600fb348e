"""Territory map edits, decided and carried out without a window.

Beside the grid edits (:mod:`engine.editing.edits`), their territory counterpart: small
frozen records of one change to a :class:`~engine.territory.TerritoryScenario`
—

* :class:`AttributeChange` — one plain attribute of a territory (name, value,
  sea, owner, controller, control since, impassable, label point);
* :class:`FeatureChange` — one feature of a territory (a ``rail_station`` or
  ``railroad`` dict, see ``docs/rules/rail-options.md``) set or removed; a
  drag of the railroad tool is a list of them;
* :class:`BorderChange` — the border between two territories (kind, name,
  props) set or removed;
* :class:`TerritoryAdded` — a new territory with ordinary borders to every
  territory its shape shares a side with;
* :class:`RulesMoveEdit` — a unit's move a rules system allowed and planned
  (a :class:`PlannedMove`, e.g. Rail Options' ``plan_rail_move``): editing
  never imports a rules system, the system's record carries itself out.

The ``plan_*`` functions look at the scenario and return the record that
would make a change, ``None`` when nothing would change (so the editor
pushes no empty undo step), or raise :class:`~engine.model.ModelError` with a
message naming the refused value; they leave the scenario as it was.
:func:`apply_edits` and :func:`revert_edits` carry records out and back (in
reverse order) and return a :class:`TerritoryTouched` of what changed, which
the editor's document re-emits for its views.

A record is planned against the scenario as it is and is only ever applied
to that state (the undo history guarantees it: a record is redone right
after the records before it and undone right after the ones after it).
Records hold private copies of the values they put in, so later edits of the
scenario cannot reach into them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..model import ModelError
from ..territory.geometry import shared_border_length
from ..territory.model import BorderKind, Territory, TerritoryScenario

TERRITORY_FIELDS = ("name", "value", "sea", "owner", "controller", "control_since", "control_since_side",
                    "impassable", "label_at")
"""Territory attributes :func:`plan_attribute` changes (plain dataclass fields)."""

SIDE_FIELDS = ("owner", "controller", "control_since_side")
"""Attributes that name a side (``None``: nobody)."""

COUNT_FIELDS = ("value", "control_since")
"""Attributes that hold a whole number of 0 or more."""


@dataclass(frozen=True, slots=True)
class TerritoryTouched:
    """What an edit changed, for views to repaint: the ``territories`` whose
    attributes, shape or features changed, whether the border graph changed
    (``borders``), the ``units`` moved, and whether territory shapes or label
    points changed (``shapes``: a territory added or removed, a label moved),
    so outlines and labels are laid out again."""

    territories: frozenset[str] = frozenset()
    borders: bool = False
    units: frozenset[str] = frozenset()
    shapes: bool = False

    def __bool__(self) -> bool:
        return bool(self.territories) or self.borders or bool(self.units) or self.shapes

    def __or__(self, other: TerritoryTouched) -> TerritoryTouched:
        return TerritoryTouched(self.territories | other.territories, self.borders or other.borders,
                                self.units | other.units, self.shapes or other.shapes)


# ---------------------------------------------------------------------------
# records


@dataclass(frozen=True, slots=True)
class AttributeChange:
    """One attribute (a name in :data:`TERRITORY_FIELDS`) of territory
    ``tid`` before and after; the values are immutable (str, int, bool,
    a point tuple or ``None``)."""

    tid: str
    field: str
    before: Any
    after: Any

    def _set(self, s: TerritoryScenario, value: Any) -> TerritoryTouched:
        setattr(s.map.territories[self.tid], self.field, value)
        return TerritoryTouched(frozenset((self.tid,)), shapes=self.field == "label_at")

    def apply(self, s: TerritoryScenario) -> TerritoryTouched:
        return self._set(s, self.after)

    def revert(self, s: TerritoryScenario) -> TerritoryTouched:
        return self._set(s, self.before)


@dataclass(frozen=True, slots=True)
class FeatureChange:
    """One feature of territory ``tid`` before and after (``None``: absent),
    e.g. a rail station ``{"damage": 2}``.  The dicts are the record's own
    copies; the scenario receives copies of them."""

    tid: str
    feature: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    def _set(self, s: TerritoryScenario, value: dict[str, Any] | None) -> TerritoryTouched:
        feats = s.map.territories[self.tid].features
        if value is None:
            feats.pop(self.feature, None)
        else:
            feats[self.feature] = copy.deepcopy(value)
        return TerritoryTouched(frozenset((self.tid,)))

    def apply(self, s: TerritoryScenario) -> TerritoryTouched:
        return self._set(s, self.after)

    def revert(self, s: TerritoryScenario) -> TerritoryTouched:
        return self._set(s, self.before)


@dataclass(frozen=True, slots=True)
class BorderSpec:
    """A border's kind, name (``None``: unnamed) and props (the record's own
    copy)."""

    kind: BorderKind
    name: str | None = None
    props: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BorderChange:
    """The border between territories ``a`` and ``b`` before and after
    (``None``: no border)."""

    a: str
    b: str
    before: BorderSpec | None
    after: BorderSpec | None

    def _set(self, s: TerritoryScenario, spec: BorderSpec | None) -> TerritoryTouched:
        m = s.map
        if m.graph.has_edge(self.a, self.b):
            m.remove_border(self.a, self.b)
        if spec is not None:
            m.add_border(self.a, self.b, spec.kind, spec.name, copy.deepcopy(spec.props))
        return TerritoryTouched(frozenset((self.a, self.b)), borders=True)

    def apply(self, s: TerritoryScenario) -> TerritoryTouched:
        return self._set(s, self.after)

    def revert(self, s: TerritoryScenario) -> TerritoryTouched:
        return self._set(s, self.before)


@dataclass(frozen=True, slots=True)
class TerritoryAdded:
    """A new territory and the territories it gets an ordinary border to
    (``neighbours``: those its shape shares a side with, found when
    planned).  Applying adds a copy of ``territory``."""

    territory: Territory
    neighbours: tuple[str, ...] = ()

    def apply(self, s: TerritoryScenario) -> TerritoryTouched:
        m = s.map
        m.add(_copy_territory(self.territory))
        for other in self.neighbours:
            m.add_border(self.territory.id, other)
        return self._touched()

    def revert(self, s: TerritoryScenario) -> TerritoryTouched:
        s.map.remove(self.territory.id)
        return self._touched()

    def _touched(self) -> TerritoryTouched:
        return TerritoryTouched(frozenset((self.territory.id,)), borders=True, shapes=True)


class PlannedMove(Protocol):
    """A unit's move a rules system allowed, planned against the scenario as
    it is: ``redo`` carries it out, ``undo`` takes back exactly what ``redo``
    did.  ``unit`` moves from territory ``start`` to ``to``."""

    @property
    def unit(self) -> str: ...

    @property
    def start(self) -> str: ...

    @property
    def to(self) -> str: ...

    def redo(self, s: TerritoryScenario) -> None: ...

    def undo(self, s: TerritoryScenario) -> None: ...


@dataclass(frozen=True, slots=True)
class RulesMoveEdit:
    """A rules system's planned move (``move``) as an edit: applied by its
    ``redo``, reverted by its ``undo``; touches the unit and both ends."""

    move: PlannedMove

    def _touched(self) -> TerritoryTouched:
        m = self.move
        return TerritoryTouched(frozenset((m.start, m.to)), units=frozenset((m.unit,)))

    def apply(self, s: TerritoryScenario) -> TerritoryTouched:
        self.move.redo(s)
        return self._touched()

    def revert(self, s: TerritoryScenario) -> TerritoryTouched:
        self.move.undo(s)
        return self._touched()


@dataclass(frozen=True, eq=False)
class MapUnderlayChange:
    """The territory map's underlay record (a scan under the map,
    ``docs/file-format-territory.md``) before and after; ``None``: none.
    Touches nothing a territory view lays out: the window follows the
    record on every edit."""

    before: dict[str, Any] | None
    after: dict[str, Any] | None

    def apply(self, s: TerritoryScenario) -> TerritoryTouched:
        s.map.underlay = None if self.after is None else dict(self.after)
        return TerritoryTouched()

    def revert(self, s: TerritoryScenario) -> TerritoryTouched:
        s.map.underlay = None if self.before is None else dict(self.before)
        return TerritoryTouched()


TerritoryEdit = AttributeChange | FeatureChange | BorderChange | TerritoryAdded | RulesMoveEdit | MapUnderlayChange


def apply_edits(s: TerritoryScenario, edits: Sequence[TerritoryEdit]) -> TerritoryTouched:
    """Carry out ``edits`` in order; what they touched."""
    out = TerritoryTouched()
    for e in edits:
        out = out | e.apply(s)
    return out


def revert_edits(s: TerritoryScenario, edits: Sequence[TerritoryEdit]) -> TerritoryTouched:
    """Undo ``edits`` (in reverse order); what they touched."""
    out = TerritoryTouched()
    for e in reversed(edits):
        out = out | e.revert(s)
    return out


def _copy_territory(t: Territory) -> Territory:
    """A copy sharing only the (immutable) shape."""
    return replace(t, features=copy.deepcopy(t.features))


# ---------------------------------------------------------------------------
# plans


def plan_attribute(s: TerritoryScenario, tid: str, field: str, value: Any) -> AttributeChange | None:
    """Set attribute ``field`` of territory ``tid`` (an id or name) to
    ``value``.  A name is stripped and must be non-empty and unused by
    another territory (case-insensitive); a side (owner, controller,
    control since side) is given by id or name and stored as its id, or
    ``None``; value and control since are whole numbers of 0 or more.
    ``None`` when the value (once normalised) is the current one."""
    if field not in TERRITORY_FIELDS:
        raise ModelError(f"'{field}' is not a territory attribute the editor changes")
    t = s.map.territory(tid)
    old = getattr(t, field)
    if old == value:
        return None
    if field == "name":
        value = str(value).strip()
        if not value:
            raise ModelError("a territory needs a name")
        for other in s.map.territories.values():
            if other.id != t.id and other.name.casefold() == value.casefold():
                raise ModelError(f"the name '{value}' is already used by territory '{other.id}'")
    if field in SIDE_FIELDS and value is not None:
        value = s.side(value).id
    if field in COUNT_FIELDS and (not isinstance(value, int) or value < 0):
        raise ModelError(f"{field} must be a whole number of 0 or more, got {value!r}")
    if old == value:
        return None
    return AttributeChange(t.id, field, old, value)


def plan_feature(s: TerritoryScenario, tid: str, feature: str,
                 value: dict[str, Any] | None) -> FeatureChange | None:
    """Set feature ``feature`` of territory ``tid`` (an id or name) to a copy
    of ``value`` (``None``: remove it); ``None`` when it already is."""
    t = s.map.territory(tid)
    old = t.features.get(feature)
    new = copy.deepcopy(value)
    if old == new:
        return None
    return FeatureChange(t.id, feature, copy.deepcopy(old), new)


def plan_border(s: TerritoryScenario, a: str, b: str, kind: BorderKind | None,
                name: str | None = None) -> BorderChange | None:
    """Set the border between territories ``a`` and ``b`` (ids or names) to
    ``kind`` named ``name`` (empty: unnamed), keeping its props, or remove it
    (``kind`` ``None``); ``None`` when it already is so."""
    m = s.map
    a, b = m.territory(a).id, m.territory(b).id
    if a == b:
        raise ModelError("a border needs two different territories")
    old = m.border(a, b)
    before = None if old is None else BorderSpec(old.kind, old.name, copy.deepcopy(dict(old.props)))
    after = None if kind is None else BorderSpec(kind, name or None,
                                                 copy.deepcopy(dict(old.props)) if old is not None else {})
    if before == after:
        return None
    return BorderChange(a, b, before, after)


def plan_add_territory(s: TerritoryScenario, t: Territory) -> TerritoryAdded:
    """Add territory ``t`` (a copy) with ordinary borders to every territory
    its shape shares a side with.  Its id and name (case-insensitive) must
    be unused."""
    m = s.map
    if t.id in m:
        raise ModelError(f"territory id '{t.id}' is already used")
    if any(o.name.casefold() == t.name.casefold() for o in m.territories.values()):
        raise ModelError(f"the name '{t.name}' is already used")
    neighbours = tuple(o.id for o in m.territories.values()
                       if not o.shape.is_empty and shared_border_length(t.shape, o.shape) > 1e-9)
    return TerritoryAdded(_copy_territory(t), neighbours)


__all__ = ["COUNT_FIELDS", "SIDE_FIELDS", "TERRITORY_FIELDS", "AttributeChange", "BorderChange", "BorderSpec",
           "FeatureChange", "PlannedMove", "RulesMoveEdit", "TerritoryAdded", "TerritoryEdit", "TerritoryTouched",
           "apply_edits", "plan_add_territory", "plan_attribute", "plan_border", "plan_feature", "revert_edits"]
