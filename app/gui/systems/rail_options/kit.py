"""Rail Options in a territory window (:class:`RailOptionsKit`): the Rail
options, Rail tools and Nation rail docks, the rail judge of the map as it
is now, the chosen option and the selected unit's reach.

The system's UI installs one per territory window
(:attr:`app.gui.systems.SystemUI.installs`); it offers itself to the tools
through the window's tool context (``ctx.service(RailOptionsKit)``), and the
window calls its :class:`~app.gui.systems.base.SystemPart` hooks.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from engine.model import ModelError
from engine.rules.rail_options import STATION, RailOptionsAdjudicator, RailOptionsError, RailReach, config_of
from engine.rules.rail_options.pieces import max_damage, station_with
from engine.territory import TerritoryScenario

from ..base import EditorHost, SystemPart
from .nation_panel import NationRail
from .panels import RailOptionsPanel, RailToolPanel

PIECE_MODES = ("station", "railroad")
"""The modes that show the Rail tools dock."""


class RailOptionsKit(SystemPart):
    """Rail Options' docks, judge and selection state in one territory
    window (see the module docstring)."""

    def __init__(self, host: EditorHost) -> None:
        Right, Left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea
        self.ctx = ctx = host.context
        self.option: int | None = None
        """The option chosen in the Rail options dock (``None``: the scenario's)."""
        self.reach: RailReach | None = None
        """Where the selected unit can rail (``None``: no unit, or no answer)."""
        self._judge: tuple[tuple[int, int, int | None, str], RailOptionsAdjudicator] | None = None
        """The rail options judge and the (scenario, revision, option, phase) it answers for."""
        self.options_panel = RailOptionsPanel()
        self.rail_tools_panel = RailToolPanel()
        self.dock_options = host.add_dock("Rail options", "railOptionsDock", self.options_panel, Right,
                                          tab_with="territoryInspectorDock")
        self.dock_rail_tools = host.add_dock("Rail tools", "railToolsDock", self.rail_tools_panel, Left)
        self.dock_rail_tools.hide()
        self.nation_rail = NationRail(ctx, host, self)
        ctx.provide(self)
        self.options_panel.optionChosen.connect(self._option_chosen)
        self.options_panel.destinationChosen.connect(self.rail_to)
        self.rail_tools_panel.damageEdited.connect(lambda v: self.set_station_key("damage", v))
        self.rail_tools_panel.boughtEdited.connect(lambda v: self.set_station_key("purchased", v))
        self.rail_tools_panel.removeRequested.connect(self.remove_selected_station)
        ctx.selectionChanged.connect(self._selection_changed)
        ctx.unitSelected.connect(lambda _u: self.refresh())
        self.scenario_loaded(ctx.scenario)

    @property
    def scenario(self) -> TerritoryScenario:
        return self.ctx.scenario  # type: ignore[no-any-return]

    # -- the window's hooks ------------------------------------------------------
    def scenario_loaded(self, scenario: TerritoryScenario) -> None:
        self.option = None
        self.show_station()
        try:
            self.options_panel.set_option(RailOptionsAdjudicator(scenario).option)
        except RailOptionsError as e:
            self.ctx.say(str(e))
        self.refresh()

    def edited(self, what: Any) -> None:
        self.show_station()
        self.refresh()

    def mode_changed(self, tool: Any) -> None:
        self.dock_rail_tools.setVisible(tool.id in PIECE_MODES)

    def _selection_changed(self, tids: list[str]) -> None:
        self.nation_rail.set_selection(tids)
        self.show_station()

    # -- the option and the judge ------------------------------------------------
    def _option_chosen(self, n: int) -> None:
        self.option = n
        self.refresh()
        self.ctx.update_overlay()

    def rail_options(self) -> RailOptionsAdjudicator:
        """The rail options judge of the map as it is now, one per document
        revision and option: it keeps each unit's routes and explaining
        searches, so a hover over another territory asks no new search.
        Every edit, undo and game step bumps the revision (a new judge)."""
        phase = self.rail_phase()
        key = (id(self.scenario), self.ctx.document.revision, self.option, phase)
        if self._judge is None or self._judge[0] != key:
            self._judge = (key, RailOptionsAdjudicator(self.scenario, self.option, phase))
        return self._judge[1]

    def rail_phase(self) -> str:
        """The movement phase a rail move is judged and given in:
        ``"combat"`` while a game is in its combat phase and the scenario
        lets rail be used then (the ``combat_move`` switch), else
        ``"noncombat"``."""
        turns = self.ctx.turns
        game = turns.game() if turns is not None and turns.playing() else None
        if game is None or game.turn.phase != "combat":
            return "noncombat"
        try:
            return "combat" if config_of(self.scenario.ruleset.options, self.option).combat_move else "noncombat"
        except RailOptionsError:
            return "noncombat"

    def refresh(self) -> None:
        """The selected unit's reach and the loads left, in the Rail options dock."""
        s = self.scenario
        self.reach = None
        try:
            ro = self.rail_options()
            if self.ctx.selected_unit is not None:
                self.reach = ro.reach(self.ctx.selected_unit)
            nations, stations = ro.loads()
        except (RailOptionsError, ModelError) as e:
            self.options_panel.set_reach(s, None, str(e))
            return
        self.options_panel.set_reach(s, self.reach)
        self.options_panel.set_loads(s, nations, stations)

    def rail_to(self, tid: str) -> bool:
        """Rail the selected unit to ``tid`` if the option allows it (one
        undo step; in a game, an order of the side to move, given in the
        combat phase when the game is in it and the scenario lets rail be
        used then); otherwise the status bar says why."""
        ctx = self.ctx
        unit = ctx.selected_unit
        if unit is None:
            return False
        try:
            v = self.rail_options().judge(unit, tid)
        except (RailOptionsError, ModelError) as e:
            ctx.say(str(e))
            return False
        if not v.allowed:
            ctx.say(v.reason, 15000)
            return False
        turns = ctx.turns
        kind = turns.move_kind() if turns is not None else "edit"
        if kind == "cancel":
            ctx.say("Cancelled: the unit did not move.")
            return False
        if kind == "order" and turns is not None:  # a game: the journal records the move (app/gui/turns.py)
            order = {"unit": unit, "to": tid}
            if self.rail_phase() == "combat":  # the scenario lets rail be used in the combat move phase
                order["phase"] = "combat"
            ok, why = turns.give(order)
            game = turns.game()
            said = f"{game.order_text(order)}: {why}" if ok and why and game is not None else why or v.reason
            ctx.say(said if ok else f"Refused: {why}", 15000)
            return bool(ok)
        ctx.document.rail_move(v)
        ctx.say(("Set-up edit (not an order of the game): " if kind == "setup" else "") + v.reason)
        return True

    # -- stations (the Station tool's options) ---------------------------------
    def selected_station(self) -> str | None:
        """The territory of the station being edited (the selected
        territory, when it has a station)."""
        sel = self.ctx.selection
        if not sel:
            return None
        t = self.scenario.map.territories.get(sel[-1])
        return t.id if t is not None and isinstance(t.features.get(STATION), dict) else None

    def show_station(self) -> None:
        """The Rail tools dock shows the selected station."""
        tid = self.selected_station()
        t = None if tid is None else self.scenario.map.territories[tid]
        self.rail_tools_panel.show_station(None if t is None else t.name,
                                           None if t is None else t.features["rail_station"],
                                           max_damage(self.scenario))

    def remove_station(self, tid: str) -> bool:
        """Remove the station in ``tid`` (in a game: a ``destroy`` order)."""
        t = self.scenario.map.territories[tid]
        if not isinstance(t.features.get(STATION), dict):
            self.ctx.say(f"{t.name} has no rail station")
            return False
        if self.nation_rail.playing():
            return self.nation_rail.give({"action": "destroy", "piece": "station", "territory": tid})
        self.ctx.document.set_feature(tid, STATION, None)
        self.ctx.say(f"removed the rail station in {t.name}")
        return True

    def remove_selected_station(self) -> bool:
        tid = self.selected_station()
        return tid is not None and self.remove_station(tid)

    def set_station_key(self, key: str, value: int) -> bool:
        """Set the selected station's ``damage`` or ``purchased`` (0
        removes the key): one undo step, nothing when it does not change."""
        tid = self.selected_station()
        if tid is None:
            return False
        cur = self.scenario.map.territories[tid].features[STATION]
        try:
            return bool(self.ctx.document.set_feature(tid, STATION, station_with(cur, key, value,
                                                                                 max_damage(self.scenario))))
        except ModelError as e:
            self.ctx.say(str(e))
            return False


def install(host: EditorHost) -> RailOptionsKit:
    """Give a territory window Rail Options' docks and services."""
    return RailOptionsKit(host)


__all__ = ["PIECE_MODES", "RailOptionsKit", "install"]
