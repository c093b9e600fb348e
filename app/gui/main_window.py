"""The editor's main window: canvas in the middle, docks around it, menus,
tool bar and status bar in Qt's conventions.

The window wires the parts and owns no editing logic:

* document signals -> canvas (``invalidate_cells``, ``set_scenario``) and
  docks; every edit is an undo command on the document's stack;
* canvas mouse signals -> the active tool (:mod:`app.gui.tools`);
* the hovered cell -> the status bar (label, terrain, control, units);
* files: new (dialog), open, save (atomic), save as, recent files, an
  unsaved-changes prompt on close, autosave and recovery after a crash;
* window layout, recent files and tool choices live in :class:`QSettings`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QUndoView,
    QWidget,
)

from engine.grids import Cell
from engine.model import ModelError, Scenario
from engine.scenario_io import ScenarioError, load_any

from .autosave import INTERVAL_MS, Autosave, Recovery, find_recoveries
from .canvas import MapCanvas
from .dialogs.error import ErrorDialog
from .dialogs.new_map import NewMapDialog
from .docks.inspector import InspectorPanel
from .docks.layers import LayersPanel
from .docks.palette import ToolPalette
from .docks.units import UnitsPanel
from .document import Document
from .previews import Preview
from .tools import TOOL_CLASSES, AdjudicateTool, EditorState, Tool, delete_unit, edit_unit

MAX_RECENT = 10
SCENARIO_FILTER = "Adjutant scenarios (*.json);;All files (*)"


def default_settings() -> QSettings:
    return QSettings("Adjutant", "Adjutant")


class MainWindow(QMainWindow):
    """One editor window on one document.

    ``settings`` and ``state_dir`` (autosave folder) default to the user's;
    tests point them at a temporary folder.  ``previews`` defaults to every
    preview found in :mod:`app.gui.previews`.
    """

    def __init__(self, scenario: Scenario, path: str | None = None, settings: QSettings | None = None,
                 state_dir: Path | None = None, previews: list[Preview] | None = None,
                 autosave_ms: int = INTERVAL_MS) -> None:
        super().__init__()
        self.setObjectName("adjutantMainWindow")
        self.settings = settings if settings is not None else default_settings()
        self.state_dir = state_dir
        self.document = Document(scenario, path, self)
        self.canvas = MapCanvas(self)
        self.canvas.setObjectName("mapCanvas")
        self.canvas.set_scenario(scenario)
        self.setCentralWidget(self.canvas)
        self.state = EditorState(self.document, self.canvas, self)
        self.error_dialog: ErrorDialog | None = None

        if previews is None:
            previews = self._discover_previews()
        self.tools: dict[str, Tool] = {cls.id: cls(self.state) for cls in TOOL_CLASSES}
        self.adjudicate = AdjudicateTool(self.state, previews)
        self.tools[self.adjudicate.id] = self.adjudicate
        self.tool: Tool | None = None
        self._previous_tool = "brush"

        self._make_actions()
        self._make_docks()
        self._make_menus()
        self._make_status_bar()
        self._connect()
        self.autosave = Autosave(self.document, state_dir, autosave_ms, self)
        self._refresh_previews()
        self._restore_settings()
        self._update_title()

    # ------------------------------------------------------------------
    # construction

    def _discover_previews(self) -> list[Preview]:
        from .previews import available

        try:
            return available()
        except Exception as e:  # noqa: BLE001 (a broken rules module must not keep the editor from starting)
            self._preview_error = f"rules previews unavailable: {e}"
            return []

    def _action(self, text: str, slot: Any = None, shortcut: Any = None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                act.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        if slot is not None:
            act.triggered.connect(slot)
        return act

    def _make_actions(self) -> None:
        Std = QKeySequence.StandardKey
        self.act_new = self._action("&New…", self.new_map, Std.New, "Create a new map")
        self.act_open = self._action("&Open…", lambda: self.open_file(), Std.Open, "Open a scenario file")
        self.act_save = self._action("&Save", self.save, Std.Save, "Save the scenario")
        self.act_save_as = self._action("Save &As…", self.save_as, "Ctrl+Shift+S", "Save under another name")
        self.act_quit = self._action("&Quit", self.close, Std.Quit)
        stack = self.document.undo_stack
        self.act_undo = stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence(Std.Undo))
        self.act_redo = stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_edit_unit = self._action("&Edit Selected Unit…", self._edit_selected_unit, "Return")
        self.act_delete_unit = self._action("&Delete Selected Unit", self._delete_selected_unit, Std.Delete)
        self.act_zoom_in = self._action("Zoom &In", lambda: self.canvas.zoom_in(), ["+", "=", "Ctrl++"])
        self.act_zoom_out = self._action("Zoom &Out", lambda: self.canvas.zoom_out(), ["-", "Ctrl+-"])
        self.act_fit = self._action("&Fit to Window", lambda: self.canvas.fit(), "F")
        self.act_brush_bigger = self._action("Bigger Brush", lambda: self.state.set_brush_size(
            self.state.brush_size + 1), "]")
        self.act_brush_smaller = self._action("Smaller Brush", lambda: self.state.set_brush_size(
            self.state.brush_size - 1), "[")
        style = self.style()
        SP = style.StandardPixmap
        for act, pix in ((self.act_new, SP.SP_FileIcon), (self.act_open, SP.SP_DialogOpenButton),
                         (self.act_save, SP.SP_DialogSaveButton), (self.act_undo, SP.SP_ArrowBack),
                         (self.act_redo, SP.SP_ArrowForward)):
            act.setIcon(style.standardIcon(pix))
        self.act_zoom_in.setIconText("Zoom +")
        self.act_zoom_out.setIconText("Zoom \u2212")
        self.act_fit.setIconText("Fit")
        self.tool_group = QActionGroup(self)
        self.tool_group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for tool_id, tool in self.tools.items():
            act = self._action(tool.name, None, tool.shortcut or None, tool.tip)
            act.setCheckable(True)
            act.setData(tool_id)
            act.triggered.connect(lambda _checked=False, t=tool_id: self.set_tool(t))
            self.tool_group.addAction(act)
            self.tool_actions[tool_id] = act

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _make_docks(self) -> None:
        Left, Right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.palette = ToolPalette(self.state, list(self.tool_actions.values()))
        self.palette.previewChosen.connect(self._preview_chosen)
        self.layers = LayersPanel(self.canvas)
        self.units = UnitsPanel(self.state, self.canvas)
        self.inspector = InspectorPanel(self.state)
        self.history = QUndoView(self.document.undo_stack)
        self.history.setEmptyLabel("<original>")
        self.history.setObjectName("undoView")
        self.dock_palette = self._dock("Tools", "toolsDock", self.palette, Left)
        self.dock_layers = self._dock("Layers", "layersDock", self.layers, Left)
        self.dock_inspector = self._dock("Inspector", "inspectorDock", self.inspector, Right)
        self.dock_units = self._dock("Units", "unitsDock", self.units, Right)
        self.dock_history = self._dock("History", "historyDock", self.history, Right)
        self.tabifyDockWidget(self.dock_units, self.dock_history)
        self.dock_units.raise_()
        self.dock_preview: QDockWidget | None = None
        self.resizeDocks([self.dock_palette], [230], Qt.Orientation.Horizontal)
        self.resizeDocks([self.dock_inspector], [300], Qt.Orientation.Horizontal)
        self.resizeDocks([self.dock_palette, self.dock_layers], [520, 200], Qt.Orientation.Vertical)

    def _make_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addActions([self.act_new, self.act_open])
        self.recent_menu = m.addMenu("Open &Recent")
        m.addSeparator()
        m.addActions([self.act_save, self.act_save_as])
        self._add_interop_actions(m)
        m.addSeparator()
        m.addAction(self.act_quit)
        e = mb.addMenu("&Edit")
        e.addActions([self.act_undo, self.act_redo])
        e.addSeparator()
        e.addActions([self.act_edit_unit, self.act_delete_unit])
        v = mb.addMenu("&View")
        v.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        v.addSeparator()
        for d in (self.dock_palette, self.dock_layers, self.dock_inspector, self.dock_units, self.dock_history):
            v.addAction(d.toggleViewAction())
        t = mb.addMenu("&Tools")
        t.addActions(list(self.tool_actions.values()))
        t.addSeparator()
        t.addActions([self.act_brush_smaller, self.act_brush_bigger])
        h = mb.addMenu("&Help")
        h.addAction(self._action("&About Adjutant", self._about))
        self._rebuild_recent_menu()

        tb = self.addToolBar("Main")
        tb.setObjectName("mainToolBar")
        tb.addActions([self.act_new, self.act_open, self.act_save])
        tb.addSeparator()
        tb.addActions([self.act_undo, self.act_redo])
        tb.addSeparator()
        tb.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        tb.addSeparator()
        for tid in ("brush", "bucket", "rect", "eraser", "rail", "road", "river", "control", "unit", "adjudicate"):
            tb.addAction(self.tool_actions[tid])
        self.toolbar = tb

    def _add_interop_actions(self, menu: Any) -> None:
        """File > Import/Export entries of the Tiled interop module, when it
        is installed (``app/gui/interop_actions.py``)."""
        try:
            from . import interop_actions  # type: ignore[attr-defined]
        except ImportError:
            return
        add = getattr(interop_actions, "add_actions", None)
        if add is not None:
            menu.addSeparator()
            add(self, menu)

    def _make_status_bar(self) -> None:
        sb = self.statusBar()
        self.cell_label = QLabel("")
        self.cell_label.setObjectName("cellStatus")
        self.cell_label.setContentsMargins(16, 0, 8, 0)
        self.zoom_label = QLabel("")
        sb.addPermanentWidget(self.cell_label)
        sb.addPermanentWidget(self.zoom_label)

    def _connect(self) -> None:
        d, c = self.document, self.canvas
        d.cellsChanged.connect(self._cells_changed)
        d.layerChanged.connect(lambda _layer: self.canvas.invalidate_all())
        d.scenarioReplaced.connect(self._scenario_replaced)
        d.edited.connect(self._edited)
        d.modifiedChanged.connect(lambda _m: self._update_title())
        d.pathChanged.connect(lambda _p: self._update_title())
        c.mousePressed.connect(self._press)
        c.mouseMoved.connect(self._move)
        c.mouseReleased.connect(self._release)
        c.cellHovered.connect(self._hovered)
        c.zoomChanged.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f}%"))
        self.state.message.connect(lambda text: self.statusBar().showMessage(text, 10000))
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
        self.palette.show_options(new.options)
        new.activate()
        self._show_preview_dock()
        self.settings.setValue("tool", tool_id)

    def _show_preview_dock(self) -> None:
        """A preview's dock (e.g. the ACW odds plot) is shown only while
        adjudicating; painting keeps the whole window for the map."""
        if self.dock_preview is not None:
            self.dock_preview.setVisible(self.tool is self.adjudicate)

    def _press(self, ev: Any) -> None:
        if self.tool is not None and ev.button in ("left", "right"):
            self.tool.press(ev)

    def _move(self, ev: Any) -> None:
        if self.tool is not None:
            self.tool.move(ev)

    def _release(self, ev: Any) -> None:
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
        self.palette.set_scenario(scenario)
        self._refresh_previews()
        if self.tool is not None:
            self.tool.refresh()
        QTimer.singleShot(0, self.canvas.fit)

    def _edited(self, touched: Any) -> None:
        if self.tool is not None:
            self.tool.refresh()
        self._hovered(getattr(self, "_last_hover", None))

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.document.display_name()}[*] — Adjutant")
        self.setWindowModified(self.document.is_modified())

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
    # adjudicate mode

    def _refresh_previews(self) -> None:
        self._previews = self.adjudicate.applicable()
        self.palette.set_previews([p.name or type(p).__name__ for p in self._previews])
        self._preview_chosen(0 if self._previews else -1)
        if getattr(self, "_preview_error", None):
            self.statusBar().showMessage(self._preview_error, 15000)

    def _preview_chosen(self, index: int) -> None:
        preview = self._previews[index] if 0 <= index < len(self._previews) else None
        if preview is self.adjudicate.preview and preview is not None:
            return
        self.adjudicate.set_preview(preview)
        if self.dock_preview is not None:
            self.removeDockWidget(self.dock_preview)
            self.dock_preview.setWidget(None)  # type: ignore[arg-type]
            self.dock_preview.deleteLater()
            self.dock_preview = None
        widget = None
        if preview is not None:
            try:
                widget = preview.dock()
            except Exception:  # noqa: BLE001 (a broken plug-in dock is left out)
                widget = None
        if widget is not None:
            self.dock_preview = self._dock(preview.name or "Preview", "previewDock", widget,
                                           Qt.DockWidgetArea.BottomDockWidgetArea)
            self._show_preview_dock()

    # ------------------------------------------------------------------
    # files

    def show_error(self, title: str, summary: str, problems: list[str] | tuple[str, ...] = ()) -> ErrorDialog:
        """Show an error dialog (window-modal, does not block) and return it."""
        if self.error_dialog is not None:
            self.error_dialog.close()
        dlg = ErrorDialog(self, title, summary, list(problems))
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.error_dialog = dlg
        dlg.open()
        return dlg

    def new_map(self) -> bool:
        if not self.maybe_save():
            return False
        dlg = NewMapDialog(self, self.document.scenario)
        if dlg.exec() != NewMapDialog.DialogCode.Accepted or dlg.built() is None:
            return False
        self.document.replace(dlg.built(), None)  # type: ignore[arg-type]
        return True

    def open_file(self, path: str | None = None, ask: bool = True) -> bool:
        """Open ``path`` (or ask for one).  A file that cannot be loaded
        shows the loader's problems and leaves the current document as it
        was; a territory map opens in a territory editor window beside this
        one.  ``ask=False`` skips the unsaved-changes prompt."""
        if path is None:
            start = str(Path(self.document.path).parent) if self.document.path else ""
            path, _ = QFileDialog.getOpenFileName(self, "Open scenario", start, SCENARIO_FILTER)
            if not path:
                return False
        try:
            loaded = load_any(path)
        except ScenarioError as e:
            n = len(e.problems)
            self.show_error("Cannot open", f"{Path(path).name} cannot be opened ({n} problem{'s' if n != 1 else ''}):",
                            [str(p) for p in e.problems])
            return False
        if not isinstance(loaded, Scenario):  # a territory map: its own editor window
            return self._open_territory(loaded, str(path))
        if ask and not self.maybe_save():
            return False
        self.document.replace(loaded, str(path))
        self.add_recent(str(path))
        self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    def _open_territory(self, scenario: Any, path: str) -> bool:
        """Open a territory scenario in a territory editor window beside
        this one (the current grid map stays as it is)."""
        from .territory import TerritoryWindow

        win = TerritoryWindow(scenario, path, self.settings, self.state_dir)
        win.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self._other_windows = [w for w in getattr(self, "_other_windows", []) if w.isVisible()] + [win]
        win.show()
        if path:
            self.add_recent(path)
        QTimer.singleShot(0, win.canvas.fit)
        return True

    def save(self) -> bool:
        if not self.document.path:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self, path: str | None = None) -> bool:
        if path is None:
            start = self.document.path or f"{self.document.scenario.name}.json"
            path, _ = QFileDialog.getSaveFileName(self, "Save scenario as", start, SCENARIO_FILTER)
            if not path:
                return False
            if not Path(path).suffix:
                path += ".json"
        return self._save_to(path)

    def _save_to(self, path: str) -> bool:
        try:
            self.document.save(path)
        except (OSError, ValueError) as e:
            self.show_error("Cannot save", f"{path} could not be written:", [getattr(e, "strerror", None) or str(e)])
            return False
        self.add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    # -- recent files ----------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def add_recent(self, path: str) -> None:
        full = str(Path(path).resolve())
        files = [full] + [p for p in self.recent_files() if p != full]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for i, p in enumerate(files):
            act = self.recent_menu.addAction(f"&{(i + 1) % 10} {Path(p).name}")
            act.setToolTip(p)
            act.setStatusTip(p)
            act.triggered.connect(lambda _c=False, p=p: self.open_file(p))
        if files:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear Menu", self._clear_recent)
        self.recent_menu.setEnabled(bool(files))

    def _clear_recent(self) -> None:
        self.settings.setValue("recentFiles", [])
        self._rebuild_recent_menu()

    # -- closing ---------------------------------------------------------
    def ask_unsaved(self) -> str:
        """Ask what to do with unsaved changes: ``save``, ``discard`` or
        ``cancel`` (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Unsaved changes",
                          f"Save the changes to {self.document.display_name()}?",
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setInformativeText("Your changes will be lost if you don't save them.")
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        return {QMessageBox.StandardButton.Save: "save",
                QMessageBox.StandardButton.Discard: "discard"}.get(QMessageBox.StandardButton(answer), "cancel")

    def maybe_save(self) -> bool:
        """Whether it is fine to drop the current document (saved, or the
        person chose to discard it)."""
        if not self.document.is_modified():
            return True
        answer = self.ask_unsaved()
        if answer == "save":
            return self.save()
        return answer == "discard"

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.save_settings()
        if self.error_dialog is not None:
            self.error_dialog.close()
        if self.tool is not None:
            self.tool.deactivate()
        self.autosave.close()
        event.accept()

    # -- recovery --------------------------------------------------------
    def ask_recover(self, recovery: Recovery) -> bool:
        """Ask whether to recover unsaved work (tests replace this)."""
        answer = QMessageBox.question(
            self, "Recover unsaved work",
            f"Adjutant did not close normally last time.\n\nRecover the unsaved work on {recovery.describe()}?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        return answer == QMessageBox.StandardButton.Yes

    def check_recovery(self) -> bool:
        """Offer the newest autosave left by a run that crashed; whether
        work was recovered.  Declined or unreadable autosaves are removed."""
        recovered = False
        for rec in find_recoveries(self.state_dir):
            if not recovered and self.ask_recover(rec):
                try:
                    scenario = load_any(rec.data)
                except ScenarioError as e:
                    self.show_error("Cannot recover", "The autosaved work cannot be read:",
                                    [str(p) for p in e.problems])
                else:
                    if isinstance(scenario, Scenario):
                        self.document.replace(scenario, rec.original, modified=True)
                        self.autosave.save_now()
                    else:  # a territory map's autosave: recover it in its own window
                        self._open_territory(scenario, rec.original or "")
                        win = self._other_windows[-1]
                        win.document.replace(scenario, rec.original, modified=True)
                        win.autosave.save_now()
                    recovered = True
                    self.statusBar().showMessage(f"Recovered {rec.describe()}", 10000)
            rec.discard()
        return recovered

    # -- settings --------------------------------------------------------
    def save_settings(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        s.setValue("brushSize", self.state.brush_size)
        s.setValue("layers", [k for k, v in self.layers.visible_layers().items() if v])
        s.sync()

    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 820)
        state = s.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        try:
            self.state.set_brush_size(int(s.value("brushSize", 1)))
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

    def _about(self) -> None:
        QMessageBox.about(self, "About Adjutant",
                          "<b>Adjutant</b><br>Map editor and movement adjudicator for square-grid, "
                          "hex-grid and territory wargames.")


def ensure_app() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication([])
    assert isinstance(app, QApplication)
    app.setApplicationName("Adjutant")
    app.setOrganizationName("Adjutant")
    return app
