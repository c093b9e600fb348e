"""What an edit changes: small frozen records of a change to a scenario,
carried out and back.

:class:`CellValues`, :class:`EdgeSetChange`, :class:`BridgeChange`,
:class:`PlaceChange`, :class:`UnitChange`, :class:`NumberingChange`,
:class:`UnderlayChange` each have ``apply(scenario)`` and
``revert(scenario)``, which mutate the scenario and return a
:class:`Touched` record of what changed (cells per layer, unit ids): what
views repaint.  :func:`apply_edits` and :func:`revert_edits` run a list of
them; the editor's undo commands hold such lists, a whole brush stroke being
the concatenation of its dabs' edits, reverted in reverse order.  The
records are made by the ``plan_*`` functions of :mod:`engine.editing.plans`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..grids import Cell, Edge
from ..model import Place, Scenario, Unit

ArrayLayer = Literal["terrain", "control"]
"""The layers stored as ``[row, col]`` arrays of small integers."""
BULK_CELLS = 20_000
"""Above this many cells an edit reports its layer as changed in bulk
(:attr:`Touched.whole`) instead of listing every cell."""


@dataclass(frozen=True)
class Touched:
    """What an edit changed, for views to repaint: cells per layer
    (``terrain``, ``control``, ``rivers``, ``bridges``, ``rail``, ``road``,
    ``places``, ``units``) and the ids of units changed."""

    cells: dict[str, frozenset[Cell]] = field(default_factory=dict)
    units: frozenset[str] = frozenset()
    whole: frozenset[str] = frozenset()
    """Layers changed in bulk (a fill of more than :data:`BULK_CELLS`
    cells): repaint them entirely rather than cell by cell."""

    def __bool__(self) -> bool:
        return bool(self.cells) or bool(self.units) or bool(self.whole)

    def __or__(self, other: Touched) -> Touched:
        cells = dict(self.cells)
        for k, v in other.cells.items():
            cells[k] = cells.get(k, frozenset()) | v
        return Touched(cells, self.units | other.units, self.whole | other.whole)


@dataclass(frozen=True, eq=False)
class CellValues:
    """New values of some cells of an array layer (``terrain`` or
    ``control``); ``before``/``after`` are aligned with ``rows``/``cols``
    (numpy arrays, so a whole-map fill stays compact)."""

    layer: ArrayLayer
    rows: np.ndarray
    cols: np.ndarray
    before: np.ndarray
    after: np.ndarray

    def __len__(self) -> int:
        return int(self.rows.size)

    def cells(self) -> frozenset[Cell]:
        return frozenset(Cell(int(c), int(r)) for r, c in zip(self.rows.tolist(), self.cols.tolist()))

    def _array(self, s: Scenario) -> np.ndarray:
        return s.map.terrain if self.layer == "terrain" else s.map.control

    def touched(self) -> Touched:
        if len(self) > BULK_CELLS:
            return Touched(whole=frozenset((self.layer,)))
        return Touched({self.layer: self.cells()})

    def apply(self, s: Scenario) -> Touched:
        self._array(s)[self.rows, self.cols] = self.after
        s.map.touch(self.layer)
        return self.touched()

    def revert(self, s: Scenario) -> Touched:
        self._array(s)[self.rows, self.cols] = self.before
        s.map.touch(self.layer)
        return self.touched()


@dataclass(frozen=True)
class EdgeSetChange:
    """Sides added to and removed from an edge layer: ``rivers`` or a link
    kind (``rail``, ``road``)."""

    layer: str
    added: frozenset[Edge] = frozenset()
    removed: frozenset[Edge] = frozenset()

    def _set(self, s: Scenario) -> set[Edge]:
        return s.map.rivers if self.layer == "rivers" else s.map.links.setdefault(self.layer, set())

    def _touched(self) -> Touched:
        cells: set[Cell] = set()
        for e in self.added | self.removed:
            cells.update((e.a, e.b))
        return Touched({self.layer: frozenset(cells)})

    def apply(self, s: Scenario) -> Touched:
        st = self._set(s)
        st -= self.removed
        st |= self.added
        s.map.touch(self.layer)
        return self._touched()

    def revert(self, s: Scenario) -> Touched:
        st = self._set(s)
        st -= self.added
        st |= self.removed
        s.map.touch(self.layer)
        return self._touched()


@dataclass(frozen=True)
class BridgeChange:
    """The bridge on one river side: kind before and after (``None``: no
    bridge)."""

    edge: Edge
    before: str | None
    after: str | None

    def _set(self, s: Scenario, kind: str | None) -> Touched:
        if kind is None:
            s.map.bridges.pop(self.edge, None)
        else:
            s.map.bridges[self.edge] = kind
        return Touched({"bridges": frozenset((self.edge.a, self.edge.b))})

    def apply(self, s: Scenario) -> Touched:
        return self._set(s, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._set(s, self.before)


@dataclass(frozen=True)
class PlaceChange:
    """The place (name, code) of one cell before and after."""

    cell: Cell
    before: Place | None
    after: Place | None

    def _set(self, s: Scenario, place: Place | None) -> Touched:
        if place is None:
            s.map.places.pop(self.cell, None)
        else:
            s.map.places[self.cell] = Place(place.name, place.code)
        return Touched({"places": frozenset((self.cell,))})

    def apply(self, s: Scenario) -> Touched:
        return self._set(s, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._set(s, self.before)


@dataclass(frozen=True)
class UnitChange:
    """One unit before and after (``None`` before: added; ``None`` after:
    deleted); ``index`` is its position in ``scenario.units``.  The records
    hold private copies, so later edits cannot reach into them."""

    index: int
    before: Unit | None
    after: Unit | None

    def _put(self, s: Scenario, old: Unit | None, new: Unit | None) -> Touched:
        if old is not None:
            i = next(i for i, u in enumerate(s.units) if u.id == old.id)
            del s.units[i]
        if new is not None:
            s.units.insert(min(self.index, len(s.units)), copy_unit(new))
        cells = frozenset(u.at for u in (old, new) if u is not None)
        ids = frozenset(u.id for u in (old, new) if u is not None)
        return Touched({"units": cells}, ids)

    def apply(self, s: Scenario) -> Touched:
        return self._put(s, self.before, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._put(s, self.after, self.before)


@dataclass(frozen=True, eq=False)
class NumberingChange:
    """The map's numbering before and after, as their file descriptions
    (:func:`engine.numbering.numbering_from_dict`): every label changes, so the
    labels layer is touched whole."""

    before: dict[str, Any]
    after: dict[str, Any]

    def _set(self, s: Scenario, data: dict[str, Any]) -> Touched:
        from ..numbering import numbering_from_dict

        s.map.numbering = numbering_from_dict(data)
        return Touched(whole=frozenset({"labels"}))

    def apply(self, s: Scenario) -> Touched:
        return self._set(s, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._set(s, self.before)


@dataclass(frozen=True, eq=False)
class UnderlayChange:
    """The map's underlay record (``map.underlay``: the scan, its opacity,
    visibility and calibration; :class:`engine.calibration.Underlay`) before
    and after; ``None``: no underlay."""

    before: dict[str, Any] | None
    after: dict[str, Any] | None

    def _set(self, s: Scenario, data: dict[str, Any] | None) -> Touched:
        s.map.underlay = None if data is None else dict(data)
        return Touched(whole=frozenset({"underlay"}))

    def apply(self, s: Scenario) -> Touched:
        return self._set(s, self.after)

    def revert(self, s: Scenario) -> Touched:
        return self._set(s, self.before)


Edit = CellValues | EdgeSetChange | BridgeChange | PlaceChange | UnitChange | NumberingChange | UnderlayChange


def apply_edits(s: Scenario, edits: Sequence[Edit]) -> Touched:
    """Carry out ``edits`` in order; what they touched."""
    out = Touched()
    for e in edits:
        out = out | e.apply(s)
    return out


def revert_edits(s: Scenario, edits: Sequence[Edit]) -> Touched:
    """Undo ``edits`` (in reverse order); what they touched."""
    out = Touched()
    for e in reversed(edits):
        out = out | e.revert(s)
    return out


def copy_unit(u: Unit) -> Unit:
    """A copy of ``u`` with its own ``props`` dict (records never share one
    with the scenario)."""
    return replace(u, props=dict(u.props))
