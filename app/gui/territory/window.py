"""The territory-map editor (:class:`TerritoryEditor`) and
:class:`TerritoryWindow`, the editor window preconfigured with it.

Canvas in the middle, the editor's docks around it, in the grid editor's
conventions; menus, files, recent files, autosave and recovery are the
shell's (:class:`app.gui.editor_window.EditorWindow`).  The modes (tool
bar) are tools with the grid tools' lifecycle (:mod:`.tools`): the
editor's own Select (S: inspect territories, ctrl-click a second one to
edit the border) and Paint (P: backdrop cells into a new territory), then
the modes of the rules systems' UIs for territory maps, then Preview when
one of them has a territory preview.  The tools share the editor's tool
context (:class:`.context.TerritoryContext`: selection, selected unit,
current tool); the canvas's mouse events go to the current tool.

The editor names no rules system: each system's UI (:mod:`app.gui.systems`)
brings its modes and installs its docks and services (Rail Options' docks
and judge, Module I's planner) into the window's context, and the editor
calls their :class:`~app.gui.systems.base.SystemPart` hooks when a map is
loaded, the document is edited or the mode changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from engine.editing.territory import TerritoryTouched
from engine.goto import goto_territory, territory_names
from engine.model import ModelError, Ruleset
from engine.territory import TerritoryMap, TerritoryScenario

from ..autosave import INTERVAL_MS
from ..docks.history import HistoryView
from ..docks.legend import TerritoryLegendPanel
from ..docks.verdict import VerdictPanel
from ..editor_window import MAX_RECENT, EditorWindow, default_settings  # noqa: F401 (importable from here as before)
from ..editor_window import SCENARIO_FILTER as FILTER  # noqa: F401
from ..map_editor import MapEditor, register_editor
from ..overlay import Overlay
from ..status_field import StatusField
from ..systems import TERRITORY_KINDS, SystemPart, uis_for
from ..windows import register_window
from .canvas import TerritoryCanvas, TerritoryMouseEvent
from .context import TerritoryContext
from .document import TerritoryDocument, not_a_territory_map
from .panels import PaintPanel, TerritoryInspector
from .tools import PaintTool, TerritoryTool, tool_classes

T = TypeVar("T", bound=TerritoryTool)

VERDICT_HINT = "Preview: click a unit, then point at a territory; the verdict appears here in full."
"""What the Verdict dock says before there is a verdict when no territory
system's UI has a hint of its own (:attr:`app.gui.systems.SystemUI.verdict_hint`)."""


def blank_territory_scenario(like: TerritoryScenario | None = None) -> TerritoryScenario:
    """An empty 400 × 300 territory map with a 10-unit painting grid (the
    ruleset and sides of ``like``, if given)."""
    m = TerritoryMap(400, 300, False, 10)
    if like is None:
        return TerritoryScenario("Untitled", Ruleset("Territory map", []), [], m)
    return TerritoryScenario("Untitled", like.ruleset, list(like.sides), m, [], 1)


class TerritoryEditor(MapEditor):
    """The editor of a territory map in an editor window."""

    kinds = ("territory",)
    scenario_type = TerritoryScenario
    system_kinds = TERRITORY_KINDS
    object_name = "adjutantTerritoryWindow"
    settings_group = "territory"
    default_size = (1360, 860)
    title_suffix = " (territory map)"
    file_noun = "territory scenario"
    new_text, new_tip = "&New Territory Map", "A blank territory map"
    open_tip = "Open a territory scenario"
    save_tip = save_as_tip = ""
    toolbar_name = "territoryToolBar"
    document: TerritoryDocument
    context: TerritoryContext

    def __init__(self, window: EditorWindow, scenario: TerritoryScenario, path: str | None = None) -> None:
        super().__init__(window, scenario, path)
        self.document = TerritoryDocument(scenario, path, window)
        self.canvas = TerritoryCanvas(window)
        self.canvas.setObjectName("territoryCanvas")
        window.setCentralWidget(self.canvas)
        self.context = TerritoryContext(self.document, self.canvas, window._dock, window)
        """What the tools and the rules systems' parts share and may use."""
        self._last_hover: str | None = None
        ctx = self.context
        ctx.tools.update({cls.id: cls(ctx) for cls in tool_classes()})
        self.paint_tool = self._tool("paint", PaintTool)
        ctx.tool = ctx.tools["select"]
        ctx.tool.active = True

    def connect(self) -> None:
        self._connect()
        self._load_scenario(self.document.scenario)

    def installed(self) -> None:
        self.dock_inspector.raise_()

    # ------------------------------------------------------------------
    # construction

    def make_actions(self) -> None:
        self.act_close = self.window._action("&Close", self.window.close, QKeySequence.StandardKey.Close)
        self.mode_group, self.mode_actions = self.window._choice_actions(
            [(t.id, t.name, t.shortcut, t.tip) for t in self.tools.values()], self.set_mode)

    @property
    def tools(self) -> dict[str, TerritoryTool]:
        """The tools by mode, in tool-bar order (the editor's, then the rules systems')."""
        return self.context.tools

    @property
    def tool(self) -> TerritoryTool:
        """The current tool (Select until a mode is chosen or restored)."""
        assert self.context.tool is not None
        return self.context.tool

    @property
    def selection(self) -> list[str]:
        return self.context.selection

    @property
    def selected_unit(self) -> str | None:
        return self.context.selected_unit

    def _tool(self, mode: str, cls: type[T]) -> T:
        tool = self.tools[mode]
        assert isinstance(tool, cls)
        return tool

    def make_docks(self) -> None:
        Left, Right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.inspector = TerritoryInspector(self.document)
        self.paint_panel = self.context.provide(PaintPanel())
        self.history = HistoryView(self.document.undo_stack)
        self.history.setEmptyLabel("<original>")
        self.dock_inspector = self.window._dock("Inspector", "territoryInspectorDock", self.inspector, Right)
        self.dock_history = self.window._dock("History", "territoryHistoryDock", self.history, Right)
        hints = [ui.verdict_hint for ui in uis_for(TERRITORY_KINDS) if ui.verdict_hint]
        self.verdict = VerdictPanel(hint=" ".join(hints) or VERDICT_HINT)
        self.dock_verdict = self.window._dock("Verdict", "territoryVerdictDock", self.verdict, Right)
        # under the tabbed docks (split before they are tabbed: a tabbed dock gets a tab, not a neighbour)
        self.window.splitDockWidget(self.dock_inspector, self.dock_verdict, Qt.Orientation.Vertical)
        self.window.tabifyDockWidget(self.dock_inspector, self.dock_history)
        self.legend = TerritoryLegendPanel()
        self.dock_legend = self.window._dock("Legend", "territoryLegendDock", self.legend, Right)
        self.window.tabifyDockWidget(self.dock_history, self.dock_legend)
        self.dock_inspector.raise_()
        self.dock_paint = self.window._dock("Paint territory", "paintDock", self.paint_panel, Left)
        self.dock_paint.hide()
        from .underlay import TerritoryUnderlayPanel

        self.underlay_panel = TerritoryUnderlayPanel(self.window)
        self.dock_underlay = self.window._dock("Underlay", "territoryUnderlayDock", self.underlay_panel, Left)
        self.dock_underlay.setVisible(self.document.scenario.map.underlay is not None)
        self.window.resizeDocks([self.dock_inspector], [320], Qt.Orientation.Horizontal)
        self.window.resizeDocks([self.dock_verdict], [150], Qt.Orientation.Vertical)
        for dock in (self.dock_inspector, self.dock_paint, self.dock_history, self.dock_legend):
            self.context.keep_dock(dock)

    def make_menus(self, f: QMenu, e: QMenu, v: QMenu) -> None:
        self.act_add_underlay = self.window._action("Add &Underlay Image…", lambda: self._add_underlay(), None,
                                             "Put a scan of the map under it, to trace territories from")
        f.addAction(self.act_add_underlay)
        f.addSeparator()
        f.addActions([self.act_close, self.window.act_quit])
        for d in (self.dock_inspector, self.dock_history, self.dock_paint, self.dock_legend, self.dock_underlay,
                  self.dock_verdict):
            v.addAction(d.toggleViewAction())
        m = self.window.menuBar().addMenu("&Mode")
        m.addActions(list(self.mode_actions.values()))

    def toolbar_actions(self) -> list[QAction]:
        return list(self.mode_actions.values())

    def take_status_field(self, field: StatusField) -> None:
        self.hover_label = field

    def _connect(self) -> None:
        d, c = self.document, self.canvas
        d.territoriesChanged.connect(lambda ids: c.invalidate(ids))
        d.bordersChanged.connect(c.borders_changed)
        d.unitsChanged.connect(lambda _ids: c.viewport().update())
        d.edited.connect(self._edited)
        d.scenarioReplaced.connect(self._load_scenario)
        c.territoryHovered.connect(self._hovered)
        self.inspector.message.connect(lambda t: self.window.statusBar().showMessage(t, 10000))
        self.inspector.units.itemClicked.connect(self._unit_clicked)
        self.paint_panel.createRequested.connect(self.create_painted_territory)
        self.paint_panel.clearRequested.connect(self.paint_tool.clear)
        ctx = self.context
        ctx.message.connect(lambda text, ms: self.window.statusBar().showMessage(text, ms))
        ctx.verdictShown.connect(self.show_verdict)
        ctx.selectionChanged.connect(self.inspector.set_selection)

    # ------------------------------------------------------------------
    # scenario

    def _load_scenario(self, s: TerritoryScenario) -> None:
        self.canvas.set_scenario(s)
        self.underlay_panel.refresh()
        if s.map.underlay is not None:
            self.dock_underlay.show()
        self.legend.set_scenario(s, self.canvas.renderer())
        self.inspector.set_scenario_sides(s)
        self.context.selection = []
        self.context.selected_unit = None
        for tool in self.tools.values():
            tool.new_scenario()
        self.inspector.set_selection([])
        for part in self._parts():
            part.scenario_loaded(s)
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
        for part in self._parts():
            part.edited(what)
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
        self.context.tool = self.tools[mode]
        self.mode_actions[mode].setChecked(True)
        for part in self._parts():
            part.mode_changed(self.tool)
        self.tool.activate()
        if self.tool.judges and self.dock_verdict.toggleViewAction().isChecked():
            self.dock_verdict.raise_()
        self._update_overlay()
        self.window.settings.setValue("territory/mode", mode)

    def select(self, tids: list[str]) -> None:
        """Select territories (:meth:`TerritoryContext.select`)."""
        self.context.select(tids)

    def say(self, text: str) -> None:
        """A message in the status bar."""
        self.window.statusBar().showMessage(text, 10000)

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
        """Select a unit (:meth:`TerritoryContext.select_unit`)."""
        self.context.select_unit(unit_id)

    def drop_selection(self) -> None:
        """Forget the selected unit, its reach and its verdict (the side to
        move changed)."""
        self.select_unit(None)
        self.show_verdict(None, "")

    def _update_overlay(self) -> None:
        self.tool.show_overlay()

    def _parts(self) -> list[SystemPart]:
        """The installed parts that take the editor's hooks."""
        return [p for p in self.window.system_parts if isinstance(p, SystemPart)]

    # ------------------------------------------------------------------
    # mouse: to the current tool

    def press(self, ev: TerritoryMouseEvent) -> None:
        self.tool.press(ev)

    def move(self, ev: TerritoryMouseEvent) -> None:
        self.tool.move(ev)

    def release(self, ev: TerritoryMouseEvent) -> None:
        self.tool.release(ev)

    def _unit_clicked(self, item: Any) -> None:
        """A unit picked in the inspector's list: selected (rail options
        then show where it can rail)."""
        self.select_unit(str(item.data(Qt.ItemDataRole.UserRole)))

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
    # files

    def new_scenario(self) -> TerritoryScenario:
        return blank_territory_scenario(self.document.scenario)

    def open_other_kind(self, scenario: Any, path: str) -> bool:
        """A grid map is refused (it opens in the grid editor)."""
        self.window.show_error("Cannot open", f"{Path(path).name} cannot be opened:",
                        [str(not_a_territory_map(scenario, path))])
        return False

    def palette_changed(self) -> None:
        self.legend.refresh()

    def status_tips(self) -> set[str]:
        return {t.tip for t in self.tools.values()}

    def restore_settings(self, s: QSettings) -> None:
        mode = str(s.value("territory/mode", "select"))
        self.set_mode(mode if mode in self.tools else "select")
        if self.scenario.map.underlay is not None:  # a map with a scan shows its dock, whatever was saved
            self.dock_underlay.show()


register_editor(TerritoryEditor)


class TerritoryWindow(EditorWindow):
    """The editor window hosting a :class:`TerritoryEditor`: the window of a
    territory map, as the callers that make one of a known kind name it.
    Nothing of its own beyond the constructor."""

    editor: TerritoryEditor

    def __init__(self, scenario: TerritoryScenario, path: str | None = None, settings: QSettings | None = None,
                 state_dir: Path | None = None, autosave_ms: int = INTERVAL_MS) -> None:
        super().__init__(TerritoryEditor, scenario, path, settings, state_dir, autosave_ms)


register_window(("territory",), TerritoryWindow)

__all__ = ["TerritoryEditor", "TerritoryWindow", "blank_territory_scenario"]
