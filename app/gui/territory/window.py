"""The territory-map editor window.

Canvas in the middle, docks around it, in the grid editor's conventions
(menus, undo stack, QSettings for layout and recent files, autosave and
recovery through :mod:`app.gui.autosave`).  Six modes (tool bar):

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
  and lay railroad markers (:mod:`.railtools`; tool options in the "Rail
  tools" dock).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QUndoView

from engine.model import ModelError, Ruleset
from engine.rules.rail_options import RailOptions, RailOptionsError, RailReach
from engine.scenario_io import ScenarioError, load_any
from engine.territory import GeometryError, Territory, TerritoryMap, TerritoryScenario, polygon_from_cells
from engine.territory.edits import TerritoryTouched

from ..autosave import INTERVAL_MS, find_recoveries
from ..editor_window import MAX_RECENT, EditorWindow, default_settings  # noqa: F401 (importable from here as before)
from ..editor_window import SCENARIO_FILTER as FILTER  # noqa: F401
from .canvas import TerritoryCanvas, TerritoryMouseEvent
from .document import TerritoryDocument, not_a_territory_map
from .overlay import Route, Shade, TerritoryOverlay
from .panels import PaintPanel, RailOptionsPanel, RailPlanPanel, RailToolPanel, TerritoryInspector
from .railplan import RailPlanner
from .railtools import RailroadTool, StationTool, max_damage

MODES = ("select", "paint", "railplan", "railoptions", "station", "railroad")
REACH_FILL = "#2e9e4f70"
REACH_OUTLINE = "#1c6b2a"


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
        self.mode = "select"
        self.selection: list[str] = []
        self.selected_unit: str | None = None
        self.option: int | None = None
        self.reach: RailReach | None = None
        self.paint_cells: set[tuple[int, int]] = set()
        self._drag: tuple[str, list[str]] | None = None
        self._painting: str | None = None
        self._last_hover: str | None = None
        self._judged: str | None = None
        self.station_tool = StationTool(self)
        self.railroad_tool = RailroadTool(self)
        self.tools: dict[str, StationTool | RailroadTool] = {"station": self.station_tool,
                                                             "railroad": self.railroad_tool}

        self._make_actions()
        self._make_docks()
        self._make_menus()
        self._make_status_bar()
        self._connect()
        self._load_scenario(scenario)
        self._start(autosave_ms)

    # ------------------------------------------------------------------
    # construction

    def _make_actions(self) -> None:
        self._make_file_actions()
        self.act_close = self._action("&Close", self.close, QKeySequence.StandardKey.Close)
        self.mode_group, self.mode_actions = self._choice_actions((
                ("select", "Select", "S", "Inspect territories; ctrl-click a second one to edit the border"),
                ("paint", "Paint", "P", "Paint backdrop cells into a new territory"),
                ("railplan", "Rail plan", "R", "Drag units to destinations: rail orders, capacity, bottleneck"),
                ("railoptions", "Rail options", "O", "Click a unit: where it can rail under the rail option"),
                ("station", "Station", "T", ("Station tool: click land to place a rail station, click a station to "
                                             "edit its damage and purchase turn, right-click a station to remove it")),
                ("railroad", "Railroad", "L", ("Railroad tool: click or drag across land to lay railroad markers; "
                                               "click a marker to remove it; right-drag removes; shift-click lays "
                                               "a route from the last marker"))), self.set_mode)

    def _make_docks(self) -> None:
        Left, Right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        Bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.inspector = TerritoryInspector(self.document)
        self.plan_panel = RailPlanPanel()
        self.options_panel = RailOptionsPanel()
        self.paint_panel = PaintPanel()
        self.rail_tools_panel = RailToolPanel()
        self.history = QUndoView(self.document.undo_stack)
        self.history.setEmptyLabel("<original>")
        self.dock_inspector = self._dock("Inspector", "territoryInspectorDock", self.inspector, Right)
        self.dock_options = self._dock("Rail options", "railOptionsDock", self.options_panel, Right)
        self.dock_history = self._dock("History", "territoryHistoryDock", self.history, Right)
        self.tabifyDockWidget(self.dock_inspector, self.dock_options)
        self.tabifyDockWidget(self.dock_options, self.dock_history)
        self.dock_inspector.raise_()
        self.dock_plan = self._dock("Rail plan", "railPlanDock", self.plan_panel, Bottom)
        self.dock_paint = self._dock("Paint territory", "paintDock", self.paint_panel, Left)
        self.dock_paint.hide()
        self.dock_rail_tools = self._dock("Rail tools", "railToolsDock", self.rail_tools_panel, Left)
        self.dock_rail_tools.hide()
        self.dock_plan.hide()
        self.resizeDocks([self.dock_inspector], [320], Qt.Orientation.Horizontal)
        self.resizeDocks([self.dock_plan], [230], Qt.Orientation.Vertical)

    def _make_menus(self) -> None:
        f, _e, v = self._make_file_menus()
        f.addSeparator()
        f.addAction(self.act_close)
        for d in (self.dock_inspector, self.dock_options, self.dock_history, self.dock_plan, self.dock_paint,
                  self.dock_rail_tools):
            v.addAction(d.toggleViewAction())
        m = self.menuBar().addMenu("&Mode")
        m.addActions(list(self.mode_actions.values()))
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
        self.planner.overlayChanged.connect(self._plan_overlay)
        self.planner.planChanged.connect(self._plan_changed)
        self.planner.ordersChanged.connect(self._orders_changed)
        self.plan_panel.removeRequested.connect(self.planner.remove)
        self.plan_panel.clearRequested.connect(self.planner.clear)
        self.options_panel.optionChosen.connect(self._option_chosen)
        self.options_panel.destinationChosen.connect(self.rail_to)
        self.paint_panel.createRequested.connect(self.create_painted_territory)
        self.paint_panel.clearRequested.connect(self._clear_paint)
        self.rail_tools_panel.damageEdited.connect(lambda v: self.station_tool.set_key("damage", v))
        self.rail_tools_panel.boughtEdited.connect(lambda v: self.station_tool.set_key("purchased", v))
        self.rail_tools_panel.removeRequested.connect(self.station_tool.remove_selected)

    # ------------------------------------------------------------------
    # scenario

    def _load_scenario(self, s: TerritoryScenario) -> None:
        self.canvas.set_scenario(s)
        self.inspector.set_scenario_sides(s)
        self.selection = []
        self.selected_unit = None
        self.paint_cells.clear()
        self.option = None
        self.inspector.set_selection([])
        self.railroad_tool.last = None
        self._show_station()
        self.planner.set_scenario(s)
        try:
            self.options_panel.set_option(RailOptions(s).option)
        except RailOptionsError as e:
            self.statusBar().showMessage(str(e), 10000)
        self._refresh_options()
        self._update_overlay()
        QTimer.singleShot(0, self.canvas.fit)

    @property
    def scenario(self) -> TerritoryScenario:
        return self.document.scenario

    def _edited(self, what: TerritoryTouched) -> None:
        if what.shapes:
            self.canvas.shapes_changed()
        self.inspector.refresh()
        self._show_station()
        self.planner.set_scenario(self.scenario, keep_orders=True)
        self._refresh_options()
        self._update_overlay()
        self._hovered(self._last_hover)

    # ------------------------------------------------------------------
    # modes and selection

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ModelError(f"no mode '{mode}' (modes: {', '.join(MODES)})")
        self.mode = mode
        self.mode_actions[mode].setChecked(True)
        self._drag = None
        self.dock_rail_tools.setVisible(mode in self.tools)
        if mode in self.tools:
            self.rail_tools_panel.set_tool(mode)
            self._show_station()
        if mode == "railplan":
            self.dock_plan.show()
            self.dock_plan.raise_()
        elif mode == "railoptions":
            self.dock_options.show()
            self.dock_options.raise_()
            self._refresh_options()
        elif mode == "paint":
            self.dock_paint.show()
            if self.scenario.map.backdrop_cell <= 0:
                self.statusBar().showMessage("This map has no painting grid (map.grid.backdrop_cell is 0).", 10000)
        else:
            self.dock_inspector.raise_()
        self._update_overlay()
        self.settings.setValue("territory/mode", mode)

    def select(self, tids: list[str]) -> None:
        self.selection = [t for t in tids if t in self.scenario.map]
        self.canvas.set_selected(self.selection)
        self.inspector.set_selection(self.selection)
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

    def select_unit(self, unit_id: str | None) -> None:
        self.selected_unit = unit_id
        self.canvas.set_selected_unit(unit_id)
        self._refresh_options()
        self._update_overlay()

    def _update_overlay(self) -> None:
        if self.mode == "railplan":
            self.canvas.set_overlay(self.planner.overlay)
        elif self.mode == "railoptions":
            self.canvas.set_overlay(self._options_overlay())
        elif self.mode == "paint":
            self.canvas.set_overlay(TerritoryOverlay(cells=tuple(sorted(self.paint_cells)), grid=True))
            self.paint_panel.count.setText(f"{len(self.paint_cells)} cells")
        else:
            self.canvas.set_overlay(None)

    # ------------------------------------------------------------------
    # mouse

    def _press(self, ev: TerritoryMouseEvent) -> None:
        if self.mode in self.tools:
            self.tools[self.mode].press(ev)
            return
        counter = self.canvas.units_at_view(QPointF(*ev.view))
        if self.mode == "paint":
            self._painting = "add" if ev.button == "left" else "remove"
            self._paint_at(ev)
            return
        if self.mode == "railplan" and ev.button == "left":
            if counter is not None:
                tid, ids = counter
                self._drag = (tid, ids)
            elif ev.territory is not None:
                ordered = {o.unit for o in self.planner.orders}
                ids = [u.id for u in self.scenario.units_in(ev.territory) if u.id not in ordered] \
                    or [u.id for u in self.scenario.units_in(ev.territory)]
                self._drag = (ev.territory, ids) if ids else None
            return
        if self.mode == "railoptions":
            if ev.button == "right":
                self.select_unit(None)
            elif counter is not None:
                ids = counter[1]
                nxt = ids[(ids.index(self.selected_unit) + 1) % len(ids)] if self.selected_unit in ids else ids[0]
                self.select_unit(nxt)
            elif ev.territory is not None and self.selected_unit is not None:
                self.rail_to(ev.territory)
            return
        if ev.button == "left":
            if ev.territory is None:
                self.select([])
            elif ev.ctrl and self.selection and ev.territory not in self.selection:
                self.select([self.selection[-1], ev.territory])
            else:
                self.select([ev.territory])

    def _unit_clicked(self, item: Any) -> None:
        """A unit picked in the inspector's list: selected (rail options
        then show where it can rail)."""
        self.select_unit(str(item.data(Qt.ItemDataRole.UserRole)))

    def _move(self, ev: TerritoryMouseEvent) -> None:
        if self.mode in self.tools:
            self.tools[self.mode].move(ev)
            return
        if self.mode == "railoptions" and self.selected_unit is not None and ev.territory != self._judged:
            self._judged = ev.territory
            if ev.territory is not None and ev.territory != self.scenario.unit(self.selected_unit).at:
                try:
                    v = self.rail_options().judge(self.selected_unit, ev.territory)
                except (RailOptionsError, ModelError) as e:
                    self.statusBar().showMessage(str(e), 10000)
                else:
                    self.statusBar().showMessage(("✔ " if v.allowed else "✘ ") + v.reason, 10000)
        if self.mode == "paint" and self._painting:
            self._paint_at(ev)
        elif self.mode == "railplan" and self._drag is not None:
            start, ids = self._drag
            routes = (Route((start, ev.territory), "#202020", 2.5, dashed=True),) \
                if ev.territory and ev.territory != start else ()
            self.canvas.set_overlay(TerritoryOverlay(self.planner.overlay.shades,
                                                     self.planner.overlay.routes + routes))
            if ev.territory:
                self.statusBar().showMessage(f"order {len(ids)} unit{'s' if len(ids) != 1 else ''} from "
                                             f"{self.scenario.map.label(start)} to "
                                             f"{self.scenario.map.label(ev.territory)}", 3000)

    def _release(self, ev: TerritoryMouseEvent) -> None:
        self._painting = None
        if self.mode in self.tools:
            self.tools[self.mode].release(ev)
            return
        if self.mode == "railplan" and self._drag is not None:
            start, ids = self._drag
            self._drag = None
            if ev.territory is not None and ev.territory != start:
                self.order_units(ids, ev.territory)
            else:
                self._update_overlay()

    def order_units(self, unit_ids: list[str], to: str) -> int:
        """Add rail orders for ``unit_ids`` to ``to`` (rail-plan mode)."""
        try:
            n = self.planner.add_units(unit_ids, to)
        except ModelError as e:
            self.statusBar().showMessage(str(e), 10000)
            return 0
        return n

    def _paint_at(self, ev: TerritoryMouseEvent) -> None:
        c = self.scenario.map.backdrop_cell
        if c <= 0 or not (0 <= ev.x < self.scenario.map.width and 0 <= ev.y < self.scenario.map.height):
            return
        cell = (int(ev.x // c), int(ev.y // c))
        if self._painting == "add":
            self.paint_cells.add(cell)
        else:
            self.paint_cells.discard(cell)
        self._update_overlay()

    def _clear_paint(self) -> None:
        self.paint_cells.clear()
        self._update_overlay()

    def create_painted_territory(self) -> bool:
        """The painted cells (less what other territories cover) become a
        new territory named in the paint panel: one undo step."""
        m = self.scenario.map
        p = self.paint_panel
        tid = p.tid.text().strip() or p.name.text().strip().lower().replace(" ", "_")
        name = p.name.text().strip() or tid
        try:
            if not tid:
                raise ModelError("give the new territory an id or a name")
            shape = polygon_from_cells(self.paint_cells, m.backdrop_cell)
            for t in m.territories.values():
                if not t.shape.is_empty and t.shape.intersects(shape):
                    shape = shape.difference(t.shape)
            if shape.is_empty or shape.area <= 0:
                raise ModelError("the painted cells are all covered by other territories already")
            from engine.territory.geometry import _polygonal

            self.document.add_territory(Territory(tid, name, sea=p.sea.isChecked(), shape=_polygonal(shape),
                                                  value=p.value.value()))
        except (ModelError, GeometryError) as e:
            self.statusBar().showMessage(str(e), 10000)
            return False
        self.paint_cells.clear()
        self.select([tid])
        self._update_overlay()
        self.statusBar().showMessage(f"created territory {name}", 5000)
        return True

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
        if self.mode == "railplan" and self.planner.exact is not None:
            use = next((u for u in self.planner.exact.usage if u.territory == tid), None)
            if use is not None:
                parts.append(f"rail: {use.used} of {use.capacity} used")
        if self.mode == "railoptions" and self.reach is not None:
            hit = next((d for d in self.reach.destinations if d.territory == tid), None)
            if hit is not None:
                parts.append(f"rail: {hit.cost} space{'s' if hit.cost != 1 else ''} via "
                             + " > ".join(s.map.label(x) for x in hit.path))
        return "   ·   ".join(parts)

    # ------------------------------------------------------------------
    # rail plan

    def _plan_overlay(self, ov: TerritoryOverlay) -> None:
        if self.mode == "railplan":
            self.canvas.set_overlay(ov)

    def _plan_changed(self, p: Any) -> None:
        if p is None:
            self.plan_panel.set_verdict("", None)
        else:
            self.plan_panel.set_verdict(self.planner.overlay.message, bool(p.feasible))
        self.plan_panel.set_chart(self.planner.chart_data())

    def _orders_changed(self) -> None:
        self.plan_panel.set_orders([self.planner.describe(i) for i in range(len(self.planner.orders))])

    # ------------------------------------------------------------------
    # rail options

    def _option_chosen(self, n: int) -> None:
        self.option = n
        self._refresh_options()
        self._update_overlay()

    def rail_options(self) -> RailOptions:
        return RailOptions(self.scenario, self.option)

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

    def _options_overlay(self) -> TerritoryOverlay:
        r = self.reach
        if r is None:
            return TerritoryOverlay()
        shades = [Shade(d.territory, fill=REACH_FILL, outline=REACH_OUTLINE, width=2.5, text=str(d.cost))
                  for d in r.destinations]
        shades.append(Shade(r.start, outline="#ffd21f", width=4.0))
        return TerritoryOverlay(tuple(shades), message=r.reason)

    def rail_to(self, tid: str) -> bool:
        """Rail the selected unit to ``tid`` if the option allows it (one
        undo step); otherwise the status bar says why."""
        if self.selected_unit is None:
            return False
        try:
            v = self.rail_options().judge(self.selected_unit, tid)
        except (RailOptionsError, ModelError) as e:
            self.statusBar().showMessage(str(e), 10000)
            return False
        if not v.allowed:
            self.statusBar().showMessage(v.reason, 15000)
            return False
        self.document.rail_move(v)
        self.statusBar().showMessage(v.reason, 10000)
        return True

    # ------------------------------------------------------------------
    # files

    def _new_scenario(self) -> TerritoryScenario:
        return blank_territory_scenario(self.document.scenario)

    def _open_other_kind(self, scenario: Any, path: str) -> bool:
        """A grid map is refused (it opens in the grid editor)."""
        self.show_error("Cannot open", f"{Path(path).name} cannot be opened:",
                        [str(not_a_territory_map(scenario, path))])
        return False

    def check_recovery(self) -> bool:
        """Offer the newest autosave of a territory map left by a crash
        (grid maps' and unreadable autosaves are left for the grid editor)."""
        for rec in find_recoveries(self.state_dir):
            try:
                s = load_any(rec.data)
            except ScenarioError:
                continue
            if not isinstance(s, TerritoryScenario):
                continue
            if self.ask_recover(rec):
                rec.discard()
                self._take_recovered(s, rec.original)
                self.statusBar().showMessage(f"Recovered {rec.describe()}", 10000)
                return True
            rec.discard()
        return False

    def _restore_more_settings(self, s: QSettings) -> None:
        mode = str(s.value("territory/mode", "select"))
        self.set_mode(mode if mode in MODES else "select")


__all__ = ["TerritoryWindow", "blank_territory_scenario"]
