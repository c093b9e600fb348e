"""The grid-map editor (:class:`GridEditor`) and :class:`MainWindow`, the
editor window preconfigured with it.

The editor wires the grid parts and owns no editing logic:

* document signals -> canvas (``invalidate_cells``, ``set_scenario``) and
  docks; every edit is an undo command on the document's stack;
* canvas mouse signals -> the active tool (:mod:`app.gui.tools`);
* the hovered cell -> the status bar (label, terrain, control, units);
* File > New (dialog), Map Properties, the underlay, the previews' docks;
* brush size, visible layers and the tool live in :class:`QSettings`.

Files, recent files, the unsaved-changes prompt, autosave and recovery,
the game and window layout are the shell's
(:class:`app.gui.editor_window.EditorWindow`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QMenu

from engine.goto import goto_cell, grid_names
from engine.grids import Cell
from engine.model import ModelError, Scenario

from . import collector
from .autosave import INTERVAL_MS
from .canvas import MapCanvas
from .dialogs.new_map import NewMapDialog
from .docks.history import HistoryView
from .docks.inspector import InspectorPanel
from .docks.layers import LayersPanel
from .docks.legend import LegendPanel
from .docks.palette import ToolPalette
from .docks.units import UnitsPanel
from .docks.verdict import VerdictPanel
from .document import Document
from .editor_window import MAX_RECENT, SCENARIO_FILTER, EditorWindow, default_settings  # noqa: F401 (importable from here as before)
from .map_editor import MapEditor, register_editor
from .overlay import CellMark, Overlay
from .preview import Preview
from .status_field import StatusField
from .systems import GRID_KINDS
from .tools import TOOL_CLASSES, AdjudicateTool, EditorState, Tool, delete_unit, edit_unit
from .windows import MANAGER, register_window


class GridEditor(MapEditor):
    """The editor of a grid map (square or hex) in an editor window.

    ``previews`` defaults to every grid preview of the rules systems' UIs
    (:func:`app.gui.systems.previews_for`).
    """

    kinds = ("grid",)
    scenario_type = Scenario
    system_kinds = GRID_KINDS
    object_name = "adjutantMainWindow"
    settings_group = "window"
    default_size = (1280, 820)
    toolbar_name = "mainToolBar"
    document: Document
    context: EditorState

    def __init__(self, window: EditorWindow, scenario: Scenario, path: str | None = None,
                 previews: list[Preview] | None = None) -> None:
        super().__init__(window, scenario, path)
        self.document = Document(scenario, path, window)
        self.canvas = MapCanvas(window)
        self.canvas.setObjectName("mapCanvas")
        self.canvas.set_scenario(scenario)
        window.setCentralWidget(self.canvas)
        self.state = EditorState(self.document, self.canvas, window)
        self.context = self.state
        """The grid tools' context (:class:`~app.gui.tools.base.EditorState`), as the rules systems' parts see it."""

        if previews is None:
            previews = self._discover_previews()
        self.tools: dict[str, Tool] = {cls.id: cls(self.state) for cls in TOOL_CLASSES}
        self.adjudicate = AdjudicateTool(self.state, previews)
        self.tools[self.adjudicate.id] = self.adjudicate
        self.tool: Tool | None = None
        self._previous_tool = "brush"

    def connect(self) -> None:
        self._connect()
        self._refresh_previews()

    # ------------------------------------------------------------------
    # construction

    def _discover_previews(self) -> list[Preview]:
        from .systems import previews_for

        try:
            return previews_for(GRID_KINDS)
        except Exception as e:  # noqa: BLE001 (a broken rules module must not keep the editor from starting)
            self._preview_error = f"rules previews unavailable: {e}"
            return []

    def make_actions(self) -> None:
        Std = QKeySequence.StandardKey
        self.act_edit_unit = self.window._action("&Edit Selected Unit…", self._edit_selected_unit, "Return")
        self.act_delete_unit = self.window._action("&Delete Selected Unit", self._delete_selected_unit, Std.Delete)
        self.act_brush_bigger = self.window._action("Bigger Brush", lambda: self.state.set_brush_size(
            self.state.brush_size + 1), "]")
        self.act_brush_smaller = self.window._action("Smaller Brush", lambda: self.state.set_brush_size(
            self.state.brush_size - 1), "[")
        self.window.act_zoom_in.setIconText("Zoom +")
        self.window.act_zoom_out.setIconText("Zoom \u2212")
        self.window.act_fit.setIconText("Fit")
        self.tool_group, self.tool_actions = self.window._choice_actions(
            ((tid, t.name, t.shortcut or None, t.tip) for tid, t in self.tools.items()), self.set_tool)

    def make_docks(self) -> None:
        Left, Right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.tool_palette = ToolPalette(self.state, list(self.tool_actions.values()))
        self.tool_palette.previewChosen.connect(self._preview_chosen)
        self.layers = LayersPanel(self.canvas)
        self.units = UnitsPanel(self.state, self.canvas)
        self.inspector = InspectorPanel(self.state)
        self.history = HistoryView(self.document.undo_stack)
        self.history.setEmptyLabel("<original>")
        self.history.setObjectName("undoView")
        self.verdict = VerdictPanel()
        self.legend = LegendPanel()
        self.legend.set_scenario(self.document.scenario)
        self.dock_palette = self.window._dock("Tools", "toolsDock", self.tool_palette, Left)
        self.dock_layers = self.window._dock("Layers", "layersDock", self.layers, Left)
        self.dock_inspector = self.window._dock("Inspector", "inspectorDock", self.inspector, Right)
        self.dock_units = self.window._dock("Units", "unitsDock", self.units, Right)
        self.dock_history = self.window._dock("History", "historyDock", self.history, Right)
        self.dock_verdict = self.window._dock("Verdict", "verdictDock", self.verdict, Right)
        self.window.tabifyDockWidget(self.dock_units, self.dock_history)
        self.window.tabifyDockWidget(self.dock_history, self.dock_verdict)
        self.dock_legend = self.window._dock("Legend", "legendDock", self.legend, Right)
        from .docks.underlay import UnderlayPanel

        self.underlay_panel = UnderlayPanel(self.window)
        self.dock_underlay = self.window._dock("Underlay", "underlayDock", self.underlay_panel, Left)
        self.window.tabifyDockWidget(self.dock_layers, self.dock_underlay)
        self.dock_layers.raise_()
        # shown when a map has a scan (or from the View menu): most maps have none
        self.dock_underlay.setVisible(self.document.scenario.map.underlay is not None)
        # the legend shares the Inspector's place: five tabs in one place cut
        # every tab title short on a 1366 px screen
        self.window.tabifyDockWidget(self.dock_inspector, self.dock_legend)
        self.dock_inspector.raise_()
        self.dock_units.raise_()
        self.dock_preview: QDockWidget | None = None
        self.preview_docks: dict[int, QDockWidget] = {}
        """Every preview's dock this window made, by ``id`` of the preview
        (the previews live as long as the window)."""
        self.window.resizeDocks([self.dock_palette], [230], Qt.Orientation.Horizontal)
        self.window.resizeDocks([self.dock_inspector], [300], Qt.Orientation.Horizontal)
        self.window.resizeDocks([self.dock_palette, self.dock_layers], [520, 200], Qt.Orientation.Vertical)

    def _add_underlay(self) -> None:
        if self.underlay_panel.add_image():
            self.dock_underlay.show()
            self.dock_underlay.raise_()

    def _map_properties(self) -> None:
        from .dialogs.map_properties import edit_map_properties

        edit_map_properties(self.window)

    def make_menus(self, m: QMenu, e: QMenu, v: QMenu) -> None:
        self.act_map_properties = self.window._action("Map &Properties…", self._map_properties, None,
                                               "The map's name, grid and numbering (labels: presets and a designer)")
        m.addAction(self.act_map_properties)
        self.act_add_underlay = self.window._action("Add &Underlay Image…", lambda: self._add_underlay(), None,
                                             "Put a scan of the map under the grid, to calibrate and trace")
        m.addAction(self.act_add_underlay)
        self._add_interop_actions(m)
        m.addSeparator()
        m.addAction(self.window.act_quit)
        e.addSeparator()
        e.addActions([self.act_edit_unit, self.act_delete_unit])
        for d in (self.dock_palette, self.dock_layers, self.dock_underlay, self.dock_inspector, self.dock_units,
                  self.dock_history, self.dock_verdict, self.dock_legend):
            v.addAction(d.toggleViewAction())
        mb = self.window.menuBar()
        t = mb.addMenu("&Tools")
        t.addActions(list(self.tool_actions.values()))
        t.addSeparator()
        t.addActions([self.act_brush_smaller, self.act_brush_bigger])

    def toolbar_actions(self) -> list[QAction]:
        return [self.tool_actions[tid] for tid in (
            "brush", "bucket", "rect", "eraser", "rail", "road", "river", "control", "unit", "adjudicate")]

    def _add_interop_actions(self, menu: Any) -> None:
        """File > Import/Export entries of the Tiled interop module, when it
        is installed (``app/gui/interop_actions.py``)."""
        try:
            from . import interop_actions
        except ImportError:
            return
        add = getattr(interop_actions, "add_actions", None)
        if add is not None:
            menu.addSeparator()
            add(self.window, menu)

    def take_status_field(self, field: StatusField) -> None:
        self.cell_label = field
        self.cell_label.setObjectName("cellStatus")

    def _connect(self) -> None:
        d, c = self.document, self.canvas
        d.cellsChanged.connect(self._cells_changed)
        d.layerChanged.connect(lambda _layer: self.canvas.invalidate_all())
        d.scenarioReplaced.connect(self._scenario_replaced)
        d.layerChanged.connect(lambda layer: self.underlay_panel.refresh() if layer == "underlay" else None)
        d.pathChanged.connect(lambda _path: self.underlay_panel.refresh())
        d.edited.connect(self._edited)
        c.cellHovered.connect(self._hovered)
        c.overlayChanged.connect(self._overlay_changed)
        self.state.message.connect(lambda text: self.window.statusBar().showMessage(text, 10000))
        self.state.toolRequested.connect(lambda tid: self.set_tool(tid or self._previous_tool))
        self.state.selectedUnitChanged.connect(lambda _u: self._update_unit_actions())
        self._update_unit_actions()

    # ------------------------------------------------------------------
    # tools and mouse

    def set_tool(self, tool_id: str) -> None:
        """Make ``tool_id`` the active tool (``ModelError`` if unknown)."""
        if tool_id not in self.tools:
            raise ModelError(f"no tool '{tool_id}' (tools: {', '.join(self.tools)})")
        new = self.tools[tool_id]
        if self.tool is new:
            return
        if self.tool is not None:
            self.tool.deactivate()
            if self.tool.id not in ("eyedropper",):
                self._previous_tool = self.tool.id
        self.tool = new
        self.tool_actions[tool_id].setChecked(True)
        self.tool_palette.show_options(new.options)
        new.activate()
        self._show_preview_dock()
        self.window.settings.setValue("tool", tool_id)

    def drop_selection(self) -> None:
        """Forget the selected unit, its waypoint, the preview's overlay and
        the verdict (the side to move changed)."""
        self.state.select_unit(None)
        self.adjudicate.waypoint = None
        self.adjudicate.refresh()
        self.verdict.show_overlay(None)

    def _show_preview_dock(self) -> None:
        """A preview's dock (e.g. the ACW odds plot) is shown only while
        adjudicating, in front of its tabs; painting keeps the whole window
        for the map.  The verdict panel comes to the front of its tabs while
        adjudicating (if the person has not closed it)."""
        if self.dock_preview is not None:
            self.dock_preview.setVisible(self.tool is self.adjudicate)
            if self.tool is self.adjudicate:
                self.dock_preview.raise_()
        if self.tool is self.adjudicate and self.dock_verdict.toggleViewAction().isChecked():
            self.dock_verdict.raise_()

    def _overlay_changed(self, key: str, overlay: Any) -> None:
        if key == "preview":
            self.verdict.show_overlay(overlay)
            self.legend.show_overlay(overlay)

    def press(self, ev: Any) -> None:
        if self.tool is not None and ev.button in ("left", "right"):
            self.tool.press(ev)

    def move(self, ev: Any) -> None:
        if self.tool is not None:
            self.tool.move(ev)

    def release(self, ev: Any) -> None:
        if self.tool is not None:
            self.tool.release(ev)

    def _hovered(self, cell: Cell | None) -> None:
        self._last_hover = cell
        self.cell_label.setText(self.cell_status(cell))

    def cell_status(self, cell: Cell | None) -> str:
        """The status bar's text for a cell: label, terrain, control, units."""
        s = self.document.scenario
        if cell is None or not s.map.grid.contains(cell):
            return ""
        t = s.ruleset.terrain[s.map.terrain_at(cell)]
        ctrl = s.controller(cell)
        parts = [s.map.label(cell)]
        place = s.map.places.get(cell)
        if place:
            parts[0] += f" {place.name}"
        parts.append(t.name)
        parts.append(f"control: {ctrl.name if ctrl else 'nobody'}")
        units = s.units_at(cell)
        if units:
            parts.append("units: " + ", ".join(f"{u.id} ({u.side} {u.type} {u.strength})" for u in units))
        return "   ·   ".join(parts)

    # ------------------------------------------------------------------
    # document -> views

    def _cells_changed(self, layer: str, cells: Any) -> None:
        self.canvas.invalidate_cells(cells, layer)

    def _scenario_replaced(self, scenario: Scenario) -> None:
        self.canvas.set_scenario(scenario)
        self.underlay_panel.refresh()
        if scenario.map.underlay is not None:
            self.dock_underlay.show()
        self.tool_palette.set_scenario(scenario)
        self.legend.set_scenario(scenario)
        self._refresh_previews()
        if self.tool is not None:
            self.tool.refresh()
        QTimer.singleShot(0, self.canvas.fit)

    def _edited(self, touched: Any) -> None:
        self.legend.map_edited()
        if self.tool is not None:
            self.tool.refresh()
        self._hovered(getattr(self, "_last_hover", None))

    def _update_unit_actions(self) -> None:
        has = self.state.selected_unit is not None
        self.act_edit_unit.setEnabled(has)
        self.act_delete_unit.setEnabled(has)

    def _edit_selected_unit(self) -> None:
        if self.state.selected_unit is not None:
            edit_unit(self.state, self.state.selected_unit)

    def _delete_selected_unit(self) -> None:
        if self.state.selected_unit is not None:
            delete_unit(self.state, self.state.selected_unit)

    # ------------------------------------------------------------------
    # go to (Edit > Go To, engine/goto.py)

    goto_hint = "A cell label (as the map numbers its cells), a place name or code, or a unit id"

    def goto_names(self) -> list[str]:
        return grid_names(self.document.scenario)

    def go_to(self, text: str) -> str:
        """Centre on the cell ``text`` names and flash it for 1.5 s; raises
        :class:`ModelError` for a name that names nothing."""
        t = goto_cell(self.document.scenario, text)
        self.canvas.center_on(t.cell)
        flash = Overlay((CellMark(t.cell, outline="#ffd400", width=5.0, tooltip=t.name),))
        self.canvas.set_overlay("goto", flash)
        QTimer.singleShot(1500, self.canvas, lambda: self.canvas.set_overlay("goto", None))
        return f"{t.kind.capitalize()} {t.name} at {self.document.scenario.map.label(t.cell)}"

    # ------------------------------------------------------------------
    # adjudicate mode

    def _refresh_previews(self) -> None:
        self._previews = self.adjudicate.applicable()
        self.tool_palette.set_previews([p.name or type(p).__name__ for p in self._previews])
        self._preview_chosen(0 if self._previews else -1)
        if getattr(self, "_preview_error", None):
            self.window.statusBar().showMessage(self._preview_error, 15000)

    def _preview_chosen(self, index: int) -> None:
        """Make the ``index``-th applicable preview the current one and show
        its dock.  Each preview's dock is built once and owned by this
        window until it closes: switching maps or previews only shows and
        hides docks, so no widget a preview still holds (the ACW odds plot)
        is ever deleted under it."""
        preview = self._previews[index] if 0 <= index < len(self._previews) else None
        if preview is self.adjudicate.preview and preview is not None:
            return
        self.adjudicate.set_preview(preview)
        self.dock_preview = self._preview_dock(preview) if preview is not None else None
        for dock in self.preview_docks.values():
            if dock is not self.dock_preview:
                dock.hide()
        self._show_preview_dock()

    def _preview_dock(self, preview: Preview) -> QDockWidget | None:
        """``preview``'s dock, made on first use (``None``: it has none, or
        its widget cannot be built)."""
        key = id(preview)
        if key in self.preview_docks:
            return self.preview_docks[key]
        try:
            widget = preview.dock()
        except Exception:  # noqa: BLE001 (a broken plug-in dock is left out)
            widget = None
        if widget is None:
            return None
        name = "previewDock" if not self.preview_docks else f"previewDock{len(self.preview_docks) + 1}"
        dock = self.window._dock(preview.name or "Preview", name, widget, Qt.DockWidgetArea.BottomDockWidgetArea)
        # a quarter of the window at most, so the map keeps the room (the
        # person can drag the splitter for more)
        self.window.resizeDocks([dock], [max(160, self.window.height() // 4)], Qt.Orientation.Vertical)
        self.preview_docks[key] = dock
        return dock

    # ------------------------------------------------------------------
    # files

    def new_scenario(self) -> Scenario | None:
        dlg = NewMapDialog(self.window, self.document.scenario)
        if dlg.exec() != NewMapDialog.DialogCode.Accepted:
            return None
        return dlg.built()

    def open_other_kind(self, scenario: Any, path: str) -> bool:
        """Open a territory scenario in a territory editor window beside
        this one (the current grid map stays as it is)."""
        w = self.window
        win = MANAGER.open("territory", scenario, path, w.settings, w.state_dir, opener=w)
        win.show()
        if path:
            w.add_recent(path)
        QTimer.singleShot(0, win.canvas.fit)
        return True

    # -- what the shell asks ----------------------------------------------
    def palette_changed(self) -> None:
        self.legend.refresh()
        self.tool_palette.set_scenario(self.document.scenario)  # the side chooser shows side colours

    def status_tips(self) -> set[str]:
        return {t.tip for t in self.tools.values()}

    def closing(self) -> None:
        if self.tool is not None:
            self.tool.deactivate()

    def save_settings(self, s: QSettings) -> None:
        s.setValue("brushSize", self.state.brush_size)
        s.setValue("layers", [k for k, v in self.layers.visible_layers().items() if v])

    def restore_settings(self, s: QSettings) -> None:
        if self.document.scenario.map.underlay is not None:  # a map with a scan shows its dock, whatever was saved
            self.dock_underlay.show()
        try:
            self.state.set_brush_size(int(str(s.value("brushSize", 1))))
        except (TypeError, ValueError):
            pass
        layers = s.value("layers")
        if isinstance(layers, str):
            layers = [layers]
        if isinstance(layers, list) and layers:
            for key in self.layers.visible_layers():
                self.layers.set_visible(key, key in layers)
        tool = str(s.value("tool", "brush"))
        self.set_tool(tool if tool in self.tools else "brush")


register_editor(GridEditor)


class MainWindow(EditorWindow):
    """The editor window hosting a :class:`GridEditor`: the window of a
    grid map, as the callers that make one of a known kind (``app.gui.run``,
    tests, scripts) name it.  Nothing of its own beyond the constructor."""

    editor: GridEditor

    def __init__(self, scenario: Scenario, path: str | None = None, settings: QSettings | None = None,
                 state_dir: Path | None = None, previews: list[Preview] | None = None,
                 autosave_ms: int = INTERVAL_MS) -> None:
        super().__init__(GridEditor, scenario, path, settings, state_dir, autosave_ms, previews=previews)


register_window(("grid",), MainWindow)


def ensure_app() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication([])
    assert isinstance(app, QApplication)
    app.setApplicationName("Adjutant")
    app.setOrganizationName("Adjutant")
    collector.install()  # Python's cycle collection on the GUI thread only, from the start
    return app
