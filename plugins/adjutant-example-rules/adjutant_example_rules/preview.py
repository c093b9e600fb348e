"""Leap's live preview in Adjutant's grid editor: the cells a selected unit
may leap to are marked; pointing at a cell says why it may or may not; a
click leaps.  Found through the entry point group ``adjutant.ui`` (its ``UI``)."""

from __future__ import annotations

from app.gui.overlay import CellMark, Marker, Overlay
from app.gui.preview import MoveOrder, Preview
from app.gui.systems.base import SystemUI
from engine.grids import Cell
from engine.model import Scenario, Unit
from engine.rules import registry

from .system import NAME, LeapVerdict


class LeapPreview(Preview):
    name = "Leap (example plugin)"

    def applies_to(self, scenario: Scenario) -> bool:
        return NAME in scenario.ruleset.options

    def _check(self, scenario: Scenario, unit: Unit, target: Cell) -> LeapVerdict:
        v = registry.get(NAME).check(scenario, {"unit": unit.id, "to": scenario.map.label(target)})
        assert isinstance(v, LeapVerdict)
        return v

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        if unit is None:
            return Overlay()
        grid = scenario.map.grid
        opts = registry.get(NAME).options(scenario)
        ring = [c for c in grid.disc(unit.at, opts.distance) if grid.distance(unit.at, c) == opts.distance]
        items = tuple(CellMark(c, fill="#4caf5070" if self._check(scenario, unit, c).ok else "#d9534f40")
                      for c in ring)
        return Overlay((*items, Marker(unit.at, "circle", "#ffd23f")),
                       message=f"{unit.id} leaps exactly {opts.distance} cells: point at one")

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        v = self._check(scenario, unit, target)
        return Overlay((CellMark(target, outline="#1f7a34" if v.ok else "#e0201a", width=4.0),),
                       message=" ".join(v.reasons), ok=v.ok)

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        v = self._check(scenario, unit, target)
        return MoveOrder(unit.id, target, v.reasons[0]) if v.ok and target != unit.at else None


UI = SystemUI("leap", previews=(LeapPreview,), help_title="Rules: Leap (example plugin)")
"""What the editor finds for the ``leap`` system (the ``adjutant.ui`` entry point)."""
