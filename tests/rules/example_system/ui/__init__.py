"""The example system's editor UI, the recipe of "A rules system's UI"
(``docs/developing.md``) proved: a live preview and a dock on grid maps
(Hop) and on territory maps (Hop on territories), each handed to the editor
as one :class:`~app.gui.systems.SystemUI`.

The editor finds a plugin's UI by the system's name, through
:func:`app.gui.systems.register_ui` (as here: :func:`register` is called
by whoever imports the plugin) or an ``adjutant.ui`` entry point; nothing
outside this folder names the example.  The previews ask the rules system
itself (``check``) and only draw its verdict; the dock shows the last one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QLabel

from app.gui.overlay import CellMark, Overlay, PathLine
from app.gui.preview import MoveOrder, Preview, TerritoryPreview
from app.gui.systems import SystemUI, register_ui, unregister_ui
from app.gui.territory.overlay import EMPTY, Route, Shade, TerritoryOverlay
from engine.grids import Cell
from engine.model import ModelError, Scenario, Unit
from engine.rules import registry
from engine.territory import TerritoryScenario, TerritoryUnit

from .. import NAME, Hop
from ..territory import NAME as TERRITORY_NAME
from ..territory import TerritoryHop

OK, NO = "#2fbf4a", "#e03c31"


class VerdictDock(QLabel):
    """The dock: the rules' last verdict, one reason a line."""

    def __init__(self, title: str) -> None:
        super().__init__(f"{title}: select a unit, point at a target.")
        self.setObjectName("exampleHopDock")
        self.setWordWrap(True)

    def show_verdict(self, reasons: tuple[str, ...]) -> None:
        self.setText("\n".join(reasons))


class HopPreview(Preview):
    """Hop on a square map: the squares passed, green when the hop is
    allowed, red when refused; the verdict in the dock."""

    name = "Hop (example)"

    def __init__(self) -> None:
        self.panel: VerdictDock | None = None

    def applies_to(self, scenario: Scenario) -> bool:
        return NAME in scenario.ruleset.options

    def _check(self, scenario: Scenario, unit: Unit, target: Cell) -> Hop:
        verdict = registry.get(NAME).check(scenario, {"unit": unit.id, "to": scenario.map.label(target)})
        assert isinstance(verdict, Hop)
        if self.panel is not None:
            self.panel.show_verdict(verdict.reasons)
        return verdict

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        v = self._check(scenario, unit, target)
        color = OK if v.ok else NO
        path = [scenario.map.parse_label(label) for label in v.path]
        items: tuple[Any, ...] = (CellMark(target, outline=color, width=4.0, tooltip=v.reasons[0]),)
        if path:
            items += (PathLine((unit.at, *path), color),)
        return Overlay(items, message=" ".join(v.reasons), ok=v.ok, reasons=v.reasons)

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        v = self._check(scenario, unit, target)
        return MoveOrder(unit.id, target, v.reasons[0]) if v.ok else None

    def dock(self) -> VerdictDock:
        if self.panel is None:
            self.panel = VerdictDock(self.name)
        return self.panel


class TerritoryHopPreview(TerritoryPreview):
    """Hop on a territory map: the route over land and the target shaded
    green or red; the verdict in the dock."""

    name = "Hop on territories (example)"
    system = TERRITORY_NAME

    def __init__(self) -> None:
        self.panel: VerdictDock | None = None

    def applies_to(self, scenario: TerritoryScenario) -> bool:
        return TERRITORY_NAME in scenario.ruleset.options

    def hover(self, scenario: TerritoryScenario, unit: TerritoryUnit, target: str) -> TerritoryOverlay:
        try:
            v = registry.get(TERRITORY_NAME).check(scenario, {"unit": unit.id, "to": target})
        except ModelError as e:
            return TerritoryOverlay(message=str(e))
        assert isinstance(v, TerritoryHop)
        if self.panel is not None:
            self.panel.show_verdict(v.reasons)
        color = OK if v.ok else NO
        routes = (Route((unit.at, *v.path), color),) if v.path else ()
        return TerritoryOverlay(shades=(Shade(target, outline=color),), routes=routes, message=" ".join(v.reasons))

    def order(self, scenario: TerritoryScenario, unit: TerritoryUnit, target: str) -> dict[str, Any]:
        return {"unit": unit.id, "to": target}

    def select(self, scenario: TerritoryScenario, unit: TerritoryUnit | None) -> TerritoryOverlay:
        if unit is None:
            return EMPTY
        return TerritoryOverlay(shades=(Shade(unit.at, outline="#ffd23f"),),
                                message=f"{unit.id} selected: point at a territory to hop to")

    def dock(self) -> VerdictDock:
        if self.panel is None:
            self.panel = VerdictDock(self.name)
        return self.panel


def rules_dock(system_name: str) -> Callable[[Any], Any]:
    """An install function (:attr:`~app.gui.systems.SystemUI.installs`): a
    dock of the system's own, not a preview's, showing the options the open
    map's ruleset gives it."""

    def install(window: Any) -> Any:
        system = registry.get(system_name)
        try:
            text = f"{system.title}: {system.options(window.document.scenario)}"
        except ModelError as e:
            text = f"{system.title}: {e}"
        label = QLabel(text)
        label.setObjectName("exampleHopRules")
        label.setWordWrap(True)
        return window.add_dock("Hop rules", "exampleHopRulesDock", label)

    return install


UI = SystemUI(NAME, previews=(HopPreview,), installs=(rules_dock(NAME),),
              help_title="Rules: Hop (example)")
"""The UI of Hop on square maps."""
TERRITORY_UI = SystemUI(TERRITORY_NAME, territory_previews=(TerritoryHopPreview,),
                        installs=(rules_dock(TERRITORY_NAME),),
                        help_title="Rules: Hop on Territories (example)")
"""The UI of Hop on territory maps."""


def register() -> None:
    """Give the editor both UIs (the rules systems register themselves on import)."""
    register_ui(UI)
    register_ui(TERRITORY_UI)


def unregister() -> None:
    unregister_ui(NAME)
    unregister_ui(TERRITORY_NAME)
