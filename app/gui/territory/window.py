"""The territory-map editor window.

Canvas in the middle, docks around it, in the grid editor's conventions
(menus, undo stack, QSettings for layout and recent files, autosave and
recovery through :mod:`app.gui.autosave`).  Six modes (tool bar), each a
tool with the grid tools' lifecycle (:mod:`.tools`); the window keeps the
current one and forwards the canvas's mouse events to it:

* **Select** (S): click a territory to inspect it, ctrl-click a second one
  to edit the border between them;
* **Paint** (P): paint backdrop cells (``map.grid.backdrop_cell``) and make
  them a new territory (``engine.territory.polygon_from_cells``);
* **Rail plan** (R): drag units or stacks to destinations to add rail
  orders (Module I); the preview follows at once, the exact routing runs
  off the GUI thread (:mod:`.railplan`);
* **Rail options** (O): click a unit to see where it can rail under the
  scenario's option (engine ``reach``), click a highlighted territory to
  move it there (one undoable ``record_move``); the panel shows each
  nation's and station's capacity left (engine ``loads()``);
* **Station** (T) and **Railroad** (L): place, edit and remove rail stations
  and lay railroad markers (:mod:`.tools.rail_pieces`; tool options in the
  "Rail tools" dock).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence

from engine.editing.territory import TerritoryTouched
from engine.goto import goto_territory, territory_names
from engine.model import ModelError, Ruleset
from engine.rules.rail_options import RailOptionsAdjudicator, RailOptionsError, RailReach, config_of
from engine.rules.rail_options.pieces import max_damage
from engine.territory import TerritoryMap, TerritoryScenario

from ..autosave import INTERVAL_MS
from ..docks.history import HistoryView
from ..docks.journal import replay_blocks
from ..docks.legend import TerritoryLegendPanel
from ..docks.verdict import VerdictPanel
from ..editor_window import MAX_RECENT, EditorWindow, default_settings  # noqa: F401 (importable from here as before)
from ..editor_window import SCENARIO_FILTER as FILTER  # noqa: F401
from ..overlay import Overlay
from ..setup_check import install as install_setup_check
from ..systems import TERRITORY_KINDS, uis_for
from ..systems.rail_options.nation_panel import NationRail
from ..systems.rail_options.panels import RailOptionsPanel, RailToolPanel
from ..systems.rail_options.pieces import RailroadTool, StationTool
from ..systems.rail_options.tools import RailOptionsTool
from ..systems.railroads.panels import RailPlanPanel
from ..systems.railroads.planner import RailPlanner
from ..systems.railroads.tools import RailPlanTool
from ..turns import install as install_turns
from ..windows import register_window
from .canvas import TerritoryCanvas, TerritoryMouseEvent
from .document import TerritoryDocument, not_a_territory_map
from .panels import PaintPanel, TerritoryInspector
from .tools import PaintTool, TerritoryTool, tool_classes

T = TypeVar("T", bound=TerritoryTool)

VERDICT_HINT = ("Rail options: click a unit, then point at a territory; the verdict appears here in full. "
                "Rail plan: drag a unit or stack to its destination.")


def blank_territory_scenario(like: TerritoryScenario | None = None) -> TerritoryScenario:
    """An empty 400 × 300 territory map with a 10-unit painting grid (the
    ruleset and sides of ``like``, if given)."""
    m = TerritoryMap(400, 300, False, 10)
    if like is None:
        return TerritoryScenario("Untitled", Ruleset("Territory map", []), [], m)
    return TerritoryScenario("Untitled", like.ruleset, list(like.sides), m, [], 1)


class TerritoryWindow(EditorWindow):
    """An editor window on one territory scenario (files, recent files,
    prompts, autosave and window settings: :class:`EditorWindow`)."""

    scenario_type = TerritoryScenario
    settings_group = "territory"
    default_size = (1360, 860)
    title_suffix = " (territory map)"
    file_noun = "territory scenario"
    new_text, new_tip = "&New Territory Map", "A blank territory map"
    open_tip = "Open a territory scenario"
    save_tip = save_as_tip = ""
    document: TerritoryDocument

    def __init__(self, scenario: TerritoryScenario, path: str | None = None, settings: QSettings | None = None,
                 state_dir: Path | None = None, autosave_ms: int = INTERVAL_MS) -> None:
        super().__init__(settings, state_dir)
        self.setObjectName("adjutantTerritoryWindow")
        self.document = TerritoryDocument(scenario, path, self)
        self.canvas = TerritoryCanvas(self)
        self.canvas.setObjectName("territoryCanvas")
        self.setCentralWidget(self.canvas)
        self.planner = RailPlanner(self)
        self.selection: list[str] = []
        self.selected_unit: str | None = None
        self.option: int | None = None
        self.reach: RailReach | None = None
        self._judge: tuple[tuple[int, int, int | None, str], RailOptionsAdjudicator] | None = None
        """The rail options judge and the (scenario, revision, option) it answers for."""
        self._last_hover: str | None = None
        self.tools: dict[str, TerritoryTool] = {cls.id: cls(self) for cls in tool_classes()}
        """The tools by mode, in tool-bar order (the editor's, then the rules systems')."""
        self.paint_tool = self._tool("paint", PaintTool)
        self.plan_tool = self._tool("railplan", RailPlanTool)
        self.options_tool = self._tool("railoptions", RailOptionsTool)
        self.station_tool = self._tool("station", StationTool)
        self.railroad_tool = self._tool("railroad", RailroadTool)
        self.tool: TerritoryTool = self.tools["select"]
        """The current tool (Select until a mode is chosen or restored)."""
        self.tool.active = True

        self._make_actions()
        self._make_docks()
        self._make_menus()
        self._make_status_bar()
        self._connect()
        self._load_scenario(scenario)
        self.turns = install_turns(self)  # End Turn, the Journal dock, the turn in title and status bar
        install_setup_check(self)  # Game > Check Set-up (ACW deployment zones)
        self.system_parts: list[Any] = [install(self) for ui in uis_for(TERRITORY_KINDS) for install in ui.installs]
        """What the territory systems' UIs installed (:attr:`app.gui.systems.SystemUI.installs`)."""
        self._start(autosave_ms)

    # ------------------------------------------------------------------
    # construction

    def _make_actions(self) -> None:
        self._make_file_actions()
        self.act_close = self._action("&Close", self.close, QKeySequence.StandardKey.Close)
        self.mode_group, self.mode_actions = self._choice_actions(
            [(t.id, t.name, t.shortcut, t.tip) for t in self.tools.values()], self.set_mode)

    def _tool(self, mode: str, cls: type[T]) -> T:
        tool = self.tools[mode]
        assert isinstance(tool, cls)
        return tool

    def _make_docks(self) -> None:
        Left, Right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        Bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.inspector = TerritoryInspector(self.document)
        self.plan_panel = RailPlanPanel()
        self.options_panel = RailOptionsPanel()
        self.paint_panel = PaintPanel()
        self.rail_tools_panel = RailToolPanel()
        self.history = HistoryView(self.document.undo_stack)
        self.history.setEmptyLabel("<original>")
        self.dock_inspector = self._dock("Inspector", "territoryInspectorDock", self.inspector, Right)
        self.dock_options = self._dock("Rail options", "railOptionsDock", self.options_panel, Right)
        self.dock_history = self._dock("History", "territoryHistoryDock", self.history, Right)
        self.verdict = VerdictPanel(hint=VERDICT_HINT)
        self.dock_verdict = self._dock("Verdict", "territoryVerdictDock", self.verdict, Right)
        # under the tabbed docks (split before they are tabbed: a tabbed dock gets a tab, not a neighbour)
        self.splitDockWidget(self.dock_inspector, self.dock_verdict, Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.dock_inspector, self.dock_options)
        self.tabifyDockWidget(self.dock_options, self.dock_history)
        self.legend = TerritoryLegendPanel()
        self.dock_legend = self._dock("Legend", "territoryLegendDock", self.legend, Right)
        self.tabifyDockWidget(self.dock_history, self.dock_legend)
        self.nation_rail = NationRail(self)  # the per-nation rail panel, tabbed beside Rail options
        self.dock_inspector.raise_()
        self.dock_plan = self._dock("Rail plan", "railPlanDock", self.plan_panel, Bottom)
        self.dock_paint = self._dock("Paint territory", "paintDock", self.paint_panel, Left)
        self.dock_paint.hide()
        self.dock_rail_tools = self._dock("Rail tools", "railToolsDock", self.rail_tools_panel, Left)
        self.dock_rail_tools.hide()
        self.dock_plan.hide()
        from .underlay import TerritoryUnderlayPanel

        self.underlay_panel = TerritoryUnderlayPanel(self)
        self.dock_underlay = self._dock("Underlay", "territoryUnderlayDock", self.underlay_panel, Left)
        self.dock_underlay.setVisible(self.document.scenario.map.underlay is not None)
        self.resizeDocks([self.dock_inspector], [320], Qt.Orientation.Horizontal)
        self.resizeDocks([self.dock_plan], [230], Qt.Orientation.Vertical)
        self.resizeDocks([self.dock_verdict], [150], Qt.Orientation.Vertical)

    def _make_menus(self) -> None:
        f, _e, v = self._make_file_menus()
        self.act_add_underlay = self._action("Add &Underlay Image…", lambda: self._add_underlay(), None,
                                             "Put a scan of the map under it, to trace territories from")
        f.addAction(self.act_add_underlay)
        f.addSeparator()
        f.addActions([self.act_close, self.act_quit])
        for d in (self.dock_inspector, self.dock_options, self.dock_history, self.dock_plan, self.dock_paint,
                  self.dock_rail_tools, self.dock_legend, self.nation_rail.dock, self.dock_underlay,
                  self.dock_verdict):
            v.addAction(d.toggleViewAction())
        m = self.menuBar().addMenu("&Mode")
        m.addActions(list(self.mode_actions.values()))
        self._make_help_menu()
        self._make_toolbar("territoryToolBar", list(self.mode_actions.values()))

    def _make_status_bar(self) -> None:
        self.hover_label = self._make_status_labels()

    def _connect(self) -> None:
        d, c = self.document, self.canvas
        d.territoriesChanged.connect(lambda ids: c.invalidate(ids))
        d.bordersChanged.connect(c.borders_changed)
        d.unitsChanged.connect(lambda _ids: c.viewport().update())
        d.edited.connect(self._edited)
        d.scenarioReplaced.connect(self._load_scenario)
        self._connect_document_and_canvas()
        c.territoryHovered.connect(self._hovered)
        self.inspector.message.connect(lambda t: self.statusBar().showMessage(t, 10000))
        self.inspector.units.itemClicked.connect(self._unit_clicked)
        self.planner.planChanged.connect(self._plan_changed)
        self.planner.ordersChanged.connect(self._orders_changed)
        self.plan_panel.removeRequested.connect(self.planner.remove)
        self.plan_panel.clearRequested.connect(self.planner.clear)
        self.options_panel.optionChosen.connect(self._option_chosen)
        self.options_panel.destinationChosen.connect(self.rail_to)
        self.paint_panel.createRequested.connect(self.create_painted_territory)
        self.paint_panel.clearRequested.connect(self.paint_tool.clear)
        self.rail_tools_panel.damageEdited.connect(lambda v: self.station_tool.set_key("damage", v))
        self.rail_tools_panel.boughtEdited.connect(lambda v: self.station_tool.set_key("purchased", v))
        self.rail_tools_panel.removeRequested.connect(self.station_tool.remove_selected)

    # ------------------------------------------------------------------
    # scenario

    def _load_scenario(self, s: TerritoryScenario) -> None:
        self.canvas.set_scenario(s)
        self.underlay_panel.refresh()
        if s.map.underlay is not None:
            self.dock_underlay.show()
        self.legend.set_scenario(s, self.canvas.renderer())
        self.inspector.set_scenario_sides(s)
        self.selection = []
        self.selected_unit = None
        self.paint_tool.cells.clear()
        self.option = None
        self.inspector.set_selection([])
        self.railroad_tool.last = None
        self._show_station()
        self.planner.set_scenario(s)
        try:
            self.options_panel.set_option(RailOptionsAdjudicator(s).option)
        except RailOptionsError as e:
            self.statusBar().showMessage(str(e), 10000)
        self._refresh_options()
        self._update_overlay()
        QTimer.singleShot(0, self.canvas.fit)

    @property
    def scenario(self) -> TerritoryScenario:
        return self.document.scenario

    def _add_underlay(self) -> None:
        if self.underlay_panel.add_image():
            self.dock_underlay.show()
            self.dock_underlay.raise_()

    def _edited(self, what: TerritoryTouched) -> None:
        if what.shapes:
            self.canvas.shapes_changed()
        self.underlay_panel.refresh()  # the scan follows its record (an undo may add or change it)
        self.inspector.refresh()
        self._show_station()
        self.planner.set_scenario(self.scenario, keep_orders=True)
        self._refresh_options()
        self._update_overlay()
        self._hovered(self._last_hover)

    # ------------------------------------------------------------------
    # modes and selection

    @property
    def mode(self) -> str:
        """The current tool's id."""
        return self.tool.id

    @property
    def paint_cells(self) -> set[tuple[int, int]]:
        """The backdrop cells painted for a new territory (Paint)."""
        return self.paint_tool.cells

    def set_mode(self, mode: str) -> None:
        """Make the tool ``mode`` current (the one before is deactivated)."""
        if mode not in self.tools:
            raise ModelError(f"no mode '{mode}' (modes: {', '.join(self.tools)})")
        self.tool.deactivate()
        self.tool = self.tools[mode]
        self.mode_actions[mode].setChecked(True)
        self.dock_rail_tools.setVisible(self.tool.rail_panel)
        self.tool.activate()
        self._update_overlay()
        self.settings.setValue("territory/mode", mode)

    def select(self, tids: list[str]) -> None:
        self.selection = [t for t in tids if t in self.scenario.map]
        self.canvas.set_selected(self.selection)
        self.inspector.set_selection(self.selection)
        self.nation_rail.set_selection(self.selection)
        self._show_station()

    def _show_station(self) -> None:
        """The Station tool's options show the selected station."""
        tid = self.station_tool.selected
        t = None if tid is None else self.scenario.map.territories[tid]
        self.rail_tools_panel.show_station(None if t is None else t.name,
                                           None if t is None else t.features["rail_station"],
                                           max_damage(self.scenario))

    def say(self, text: str) -> None:
        """A message in the status bar."""
        self.statusBar().showMessage(text, 10000)

    def show_verdict(self, allowed: bool | None, text: str) -> None:
        """The Verdict dock shows ``text`` (green: ``allowed``, red: refused;
        empty: the hint)."""
        self.verdict.show_overlay(Overlay(message=text, ok=allowed) if text else None)

    goto_hint = "A territory name or id, or a unit id"

    def goto_names(self) -> list[str]:
        return territory_names(self.scenario)

    def go_to(self, text: str) -> str:
        """Centre on the territory ``text`` names (a unit id: its territory)
        and select it; raises :class:`ModelError` for a name that names
        nothing (engine/goto.py)."""
        t = goto_territory(self.scenario, text)
        self.canvas.center_on(t.territory)
        self.select([t.territory])
        where = self.scenario.map.label(t.territory)
        return f"Unit {t.name} in {where}" if t.kind == "unit" else f"Territory {where}"

    def select_unit(self, unit_id: str | None) -> None:
        if unit_id != self.selected_unit:
            self.show_verdict(None, "")
        self.selected_unit = unit_id
        self.canvas.set_selected_unit(unit_id)
        self._refresh_options()
        self._update_overlay()

    def drop_selection(self) -> None:
        """Forget the selected unit, its reach and its verdict (the side to
        move changed)."""
        self.select_unit(None)
        self.show_verdict(None, "")

    def _update_overlay(self) -> None:
        self.tool.show_overlay()

    # ------------------------------------------------------------------
    # mouse: to the current tool

    def _press(self, ev: TerritoryMouseEvent) -> None:
        if replay_blocks(self):
            return
        if any(part.press(ev) for part in self.system_parts if hasattr(part, "press")):
            return
        self.tool.press(ev)

    def _move(self, ev: TerritoryMouseEvent) -> None:
        self.tool.move(ev)

    def _release(self, ev: TerritoryMouseEvent) -> None:
        self.tool.release(ev)

    def _unit_clicked(self, item: Any) -> None:
        """A unit picked in the inspector's list: selected (rail options
        then show where it can rail)."""
        self.select_unit(str(item.data(Qt.ItemDataRole.UserRole)))

    def order_units(self, unit_ids: list[str], to: str) -> int:
        """Add rail orders for ``unit_ids`` to ``to`` (rail-plan mode)."""
        return self.plan_tool.order(unit_ids, to)

    def create_painted_territory(self) -> bool:
        """The painted cells become a new territory (:meth:`PaintTool.create`)."""
        return self.paint_tool.create()

    def _hovered(self, tid: str | None) -> None:
        self._last_hover = tid
        self.hover_label.setText(self.territory_status(tid))

    def territory_status(self, tid: str | None) -> str:
        """The status bar's text: name, controller, value, units."""
        s = self.scenario
        if tid is None or tid not in s.map:
            return ""
        t = s.map.territories[tid]
        parts = [t.name + (" (sea)" if t.sea else "")]
        if not t.sea:
            who = s.side(t.controller).name if t.controller else "nobody"
            parts.append(f"controller: {who}" + (" (occupied)" if t.occupied else ""))
            parts.append(f"value {t.value}")
        units = s.units_in(tid)
        if units:
            parts.append("units: " + ", ".join(f"{u.id} ({u.type})" for u in units))
        parts.extend(self.tool.status(tid))
        return "   ·   ".join(parts)

    # ------------------------------------------------------------------
    # rail plan

    def _plan_changed(self, p: Any) -> None:
        if p is None:
            self.plan_panel.set_verdict("", None)
            self.show_verdict(None, "")
        else:
            self.plan_panel.set_verdict(self.planner.overlay.message, bool(p.feasible))
            self.show_verdict(bool(p.feasible), self.planner.overlay.message)
        self.plan_panel.set_chart(self.planner.chart_data())

    def _orders_changed(self) -> None:
        self.plan_panel.set_orders([self.planner.describe(i) for i in range(len(self.planner.orders))])

    # ------------------------------------------------------------------
    # rail options

    def _option_chosen(self, n: int) -> None:
        self.option = n
        self._refresh_options()
        self._update_overlay()

    def rail_options(self) -> RailOptionsAdjudicator:
        """The rail options judge of the map as it is now, one per document
        revision and option: it keeps each unit's routes and explaining
        searches, so a hover over another territory asks no new search.
        Every edit, undo and game step bumps the revision (a new judge)."""
        phase = self.rail_phase()
        key = (id(self.scenario), self.document.revision, self.option, phase)
        if self._judge is None or self._judge[0] != key:
            self._judge = (key, RailOptionsAdjudicator(self.scenario, self.option, phase))
        return self._judge[1]

    def rail_phase(self) -> str:
        """The movement phase a rail move is judged and given in:
        ``"combat"`` while a game is in its combat phase and the scenario
        lets rail be used then (the ``combat_move`` switch), else
        ``"noncombat"``."""
        turns = getattr(self.document, "turns", None)
        game = turns.game() if turns is not None and turns.playing() else None
        if game is None or game.turn.phase != "combat":
            return "noncombat"
        try:
            return "combat" if config_of(self.scenario.ruleset.options, self.option).combat_move else "noncombat"
        except RailOptionsError:
            return "noncombat"

    def _refresh_options(self) -> None:
        s = self.scenario
        self.reach = None
        try:
            ro = self.rail_options()
            if self.selected_unit is not None:
                self.reach = ro.reach(self.selected_unit)
            nations, stations = ro.loads()
        except (RailOptionsError, ModelError) as e:
            self.options_panel.set_reach(s, None, str(e))
            return
        self.options_panel.set_reach(s, self.reach)
        self.options_panel.set_loads(s, nations, stations)

    def rail_to(self, tid: str) -> bool:
        """Rail the selected unit to ``tid`` (:meth:`RailOptionsTool.rail_to`)."""
        return self.options_tool.rail_to(tid)

    # ------------------------------------------------------------------
    # files

    def _new_scenario(self) -> TerritoryScenario:
        return blank_territory_scenario(self.document.scenario)

    def _open_other_kind(self, scenario: Any, path: str) -> bool:
        """A grid map is refused (it opens in the grid editor)."""
        self.show_error("Cannot open", f"{Path(path).name} cannot be opened:",
                        [str(not_a_territory_map(scenario, path))])
        return False

    def _restore_more_settings(self, s: QSettings) -> None:
        mode = str(s.value("territory/mode", "select"))
        self.set_mode(mode if mode in self.tools else "select")
        if self.scenario.map.underlay is not None:  # a map with a scan shows its dock, whatever was saved
            self.dock_underlay.show()


register_window(("territory",), TerritoryWindow)

__all__ = ["TerritoryWindow", "blank_territory_scenario"]
