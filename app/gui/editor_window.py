"""The editor window: one shell for every map kind, hosting the map
editor of the document's kind.

:class:`EditorWindow` is a :class:`QMainWindow` on one document: files,
recent files, the unsaved-changes prompt, autosave and recovery, window
settings, the menus every window has (File, Edit, View, Help), the main
tool bar, the status bar, the game (:class:`app.gui.game.GameUI`) and the
small helpers that build actions and docks.  What depends on the map kind
(document, canvas, tools, the kind's docks, menus and status field, File >
New, Edit > Go To) is the hosted :class:`app.gui.map_editor.MapEditor`,
chosen by map kind (:func:`app.gui.map_editor.editor_class`):
:class:`app.gui.main_window.GridEditor` for grid maps,
:class:`app.gui.territory.window.TerritoryEditor` for territory maps.  The
order the shell builds a window in is :mod:`app.gui.map_editor`'s.

The editor's attributes (its docks, tools, actions) read through the
window (``window.tools`` is ``window.editor.tools``), so the rules
systems' installs and the game see one window whatever its kind.

Recovery after a crash (every autosave offered, of both kinds) and the map
lock that makes a second Adjutant on the same file open it read-only or as
a copy: :class:`app.gui.window_recovery.RecoveryMixin`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QTabWidget,
    QWidget,
)

from app.locks import describe_holder
from engine.io import ScenarioError, load_text_checked
from engine.model import ModelError

from .autosave import INTERVAL_MS, Autosave, map_holder
from .dialogs.error import ErrorDialog
from .document_base import DocumentBase
from .game import GameUI
from .render import style
from .setup_check import install as install_setup_check
from .status_field import StatusField, make_room
from .systems import TakesClicks, uis_for
from .window_recovery import RecoveryMixin

if TYPE_CHECKING:
    from .layouts import Layouts
    from .map_editor import MapEditor
    from .turns import TurnController

MAX_RECENT = 10
SCENARIO_FILTER = "Adjutant scenarios (*.json);;All files (*)"


def default_settings() -> QSettings:
    return QSettings("Adjutant", "Adjutant")


def shortcut_text(act: QAction) -> str:
    """An action's shortcuts in the platform's words, " or "-joined ("" for none)."""
    return " or ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts() if not k.isEmpty())


def _tooltip_follows_text(act: QAction, keys: str) -> Callable[[], None]:
    def follow() -> None:
        if not shiboken6.isValid(act):  # (a window being deleted may still emit)
            return
        tip = f"{act.text().replace('&', '').rstrip('…')} ({keys})"
        if act.toolTip() != tip:  # (an unchanged tooltip emits nothing: no loop)
            act.setToolTip(tip)

    return follow


def quit_all() -> None:
    """File > Quit: close every top-level window (each asks about unsaved
    changes; one that is kept open keeps the application running)."""
    QApplication.closeAllWindows()


def fitting_size(size: tuple[int, int]) -> tuple[int, int]:
    """``size``, made smaller where the screen's available area (less room
    for the window frame) is smaller: a first window fits a 1366x768 laptop."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return size
    room = screen.availableGeometry()
    return min(size[0], room.width() - 16), min(size[1], room.height() - 48)


DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
"""The repository's documentation (Help menu)."""


class EditorWindow(RecoveryMixin, QMainWindow):
    """An editor window on one document, hosting the map editor ``editor``
    (a :class:`~app.gui.map_editor.MapEditor` class, built here with
    ``options``); see the module docstring.

    ``settings`` and ``state_dir`` (autosave folder) default to the user's;
    tests point them at a temporary folder.
    """

    file_filter = SCENARIO_FILTER

    editor: MapEditor
    """The map editor this window hosts, for its lifetime."""
    document: DocumentBase
    canvas: Any
    autosave: Autosave
    game: GameUI
    """The window's game (turns, the Game menu, the Journal dock)."""
    turns: TurnController
    """``game.turns``, the document's game controller."""
    layouts: Layouts
    """View > Layout and the docks' arrangement (:mod:`app.gui.layouts`), from :meth:`_start` on."""

    def __init__(self, editor: type[MapEditor], scenario: Any, path: str | None = None,
                 settings: QSettings | None = None, state_dir: Path | None = None,
                 autosave_ms: int = INTERVAL_MS, **options: Any) -> None:
        super().__init__()
        self.settings = settings if settings is not None else default_settings()
        self.state_dir = state_dir
        self.error_dialog: ErrorDialog | None = None
        self.title_note = ""
        """What the title says after the window's kind (:meth:`set_title_note`)."""
        # tabbed docks on the right show their tabs down the window's edge,
        # so every title reads whole however many docks share the place
        # (six in a territory game at 1366 x 768)
        self.setTabPosition(Qt.DockWidgetArea.RightDockWidgetArea, QTabWidget.TabPosition.East)
        # and they keep the window's whole height when a bottom dock (the
        # rail plan, a rules preview) opens: it spans the map only
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self._init_recovery()
        self.system_parts: list[Any] = []
        """What the rules systems' UIs installed (:attr:`app.gui.systems.SystemUI.installs`; ACW: the
        Combat panel, Rail Options: its docks and judge), filled once the editor is built."""
        self.setObjectName(editor.object_name)
        self.editor = ed = editor(self, scenario, path, **options)
        self.document = ed.document
        self.canvas = ed.canvas
        self.context = ed.context
        """The tool context of the hosted editor, as the rules systems' parts see it."""
        self._make_file_actions()
        ed.make_actions()
        ed.make_docks()
        f, e, v = self._make_file_menus()
        ed.make_menus(f, e, v)
        self._make_help_menu()
        self._make_toolbar(ed.toolbar_name, ed.toolbar_actions())
        ed.take_status_field(self._make_status_labels())
        self._connect_document_and_canvas()
        ed.connect()
        self.game = GameUI(self)  # End Turn, the Journal dock, the turn in title and status bar
        self.turns = self.game.turns
        self.act_check_setup = install_setup_check(self)  # Game > Check Set-up (ACW deployment zones)
        self.system_parts.extend(install(self) for ui in uis_for(ed.system_kinds) for install in ui.installs)
        ed.installed()
        self._start(autosave_ms)

    def __getattr__(self, name: str) -> Any:
        """An attribute of the hosted editor (its docks, tools, actions),
        read through the window."""
        editor = self.__dict__.get("editor")
        if editor is None or name.startswith("__"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        try:
            return getattr(editor, name)
        except AttributeError:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None

    def _start(self, autosave_ms: int) -> None:
        """The end of construction: autosave, saved settings, title."""
        self.autosave = Autosave(self.document, self.state_dir, autosave_ms, self)
        self.document.pathChanged.connect(self._path_changed)
        self._path_changed(self.document.path)
        self._restore_settings()
        self._update_title()
        self._shortcuts_in_tooltips()

    # ------------------------------------------------------------------
    # construction helpers

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

    def _choice_actions(self, choices: Iterable[tuple[str, str, Any, str]],
                        choose: Callable[[str], Any]) -> tuple[QActionGroup, dict[str, QAction]]:
        """Checkable actions of which one is checked at a time (tools,
        modes), from ``(key, text, shortcut, tip)``; triggering one calls
        ``choose(key)``.  The group and the actions by key."""
        group = QActionGroup(self)
        group.setExclusive(True)
        actions: dict[str, QAction] = {}
        for key, text, shortcut, tip in choices:
            act = self._action(text, None, shortcut, tip)
            act.setCheckable(True)
            act.setData(key)
            act.triggered.connect(lambda _checked=False, k=key: choose(k))
            group.addAction(act)
            actions[key] = act
        return group, actions

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        layouts = getattr(self, "layouts", None)
        if layouts is not None:  # made after the layout was applied: into the layout's place for it
            layouts.place(dock)
        return dock

    def add_dock(self, title: str, name: str, widget: QWidget,
                 area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea,
                 tab_with: str | None = None) -> QDockWidget:
        """A dock of a rules system's UI (:attr:`app.gui.systems.SystemUI.installs`):
        ``widget`` in a dock named ``name`` (kept in the window's layout
        settings) on ``area``, listed in the View menu, tabbed with the dock
        named ``tab_with`` when there is one."""
        dock = self._dock(title, name, widget, area)
        view = self._menu("View")
        if view is not None:
            view.addAction(dock.toggleViewAction())
        beside = self.findChild(QDockWidget, tab_with) if tab_with else None
        if beside is not None:
            self.tabifyDockWidget(beside, dock)
        return dock

    def _menu(self, title: str) -> QMenu | None:
        """The menu bar's menu ``title`` (``None``: none yet)."""
        return next((m for m in self.menuBar().findChildren(QMenu) if m.title().replace("&", "") == title), None)

    def make_dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        """A dock of this window named ``name`` (kept in its layout
        settings), not listed in the View menu (as :meth:`_dock`)."""
        return self._dock(title, name, widget, area)

    def make_action(self, text: str, slot: Any = None, shortcut: Any = None, tip: str = "") -> QAction:
        """An action of this window, for a rules system's UI (as :meth:`_action`)."""
        return self._action(text, slot, shortcut, tip)

    def add_game_action(self, action: QAction) -> None:
        """Put ``action`` in the Game menu, at the end of the turn's actions
        (before its first separator)."""
        game = self.game.menu
        first_separator = next((a for a in game.actions() if a.isSeparator()), None)
        if first_separator is None:
            game.addAction(action)
        else:
            game.insertAction(first_separator, action)

    def _make_file_actions(self) -> None:
        """New, Open, Save, Save As, Undo, Redo, Zoom In/Out and Fit."""
        Std = QKeySequence.StandardKey
        self.act_new = self._action(self.editor.new_text, self.new_map, Std.New, self.editor.new_tip)
        self.act_open = self._action("&Open…", lambda: self.open_file(), Std.Open, self.editor.open_tip)
        self.act_save = self._action("&Save", self.save, Std.Save, self.editor.save_tip)
        self.act_save_as = self._action("Save &As…", lambda: self.save_as(), "Ctrl+Shift+S", self.editor.save_as_tip)
        stack = self.document.undo_stack
        self.act_undo = stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence(Std.Undo))
        self.act_redo = stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.act_zoom_in = self._action("Zoom &In", lambda: self.canvas.zoom_in(), ["+", "=", "Ctrl++"])
        self.act_zoom_out = self._action("Zoom &Out", lambda: self.canvas.zoom_out(), ["-", "Ctrl+-"])
        self.act_fit = self._action("&Fit to Window", lambda: self.canvas.fit(), "F")
        self.act_goto = self._action("&Go To…", self.show_goto, "Ctrl+G",
                                     "Centre the map on a cell, place, territory or unit, named or completed")
        self.act_quit = self._action("&Quit", quit_all, QKeySequence.keyBindings(Std.Quit) or ["Ctrl+Q"],
                                     "Close every Adjutant window (each asks about unsaved changes) and quit")
        self.act_shortcuts = self._action("&Keyboard Shortcuts", self.show_shortcuts, Std.HelpContents,
                                          "Every key of this window, read from its menus")
        self.act_about = self._action("&About Adjutant", self._about)
        style = self.style()
        SP = style.StandardPixmap
        for act, pix in ((self.act_new, SP.SP_FileIcon), (self.act_open, SP.SP_DialogOpenButton),
                         (self.act_save, SP.SP_DialogSaveButton), (self.act_undo, SP.SP_ArrowBack),
                         (self.act_redo, SP.SP_ArrowForward)):
            act.setIcon(style.standardIcon(pix))

    def _print(self) -> None:
        from .dialogs.print_dialog import print_map

        print_map(self)

    def _make_file_menus(self) -> tuple[QMenu, QMenu, QMenu]:
        """The File menu (new, open, recent, save, save as, import, export,
        print), the Edit menu
        (undo, redo) and the View menu (zoom, fit, a separator); the
        editor adds the rest to each."""
        mb = self.menuBar()
        f = mb.addMenu("&File")
        f.addActions([self.act_new, self.act_open])
        self.recent_menu = f.addMenu("Open &Recent")
        f.addSeparator()
        f.addActions([self.act_save, self.act_save_as])
        f.addSeparator()
        from .file_actions import add_actions as add_file_actions

        self.act_import_triplea, self.act_export_image = add_file_actions(self, f)
        self.act_print = self._action("&Print / Export PDF…", self._print, "Ctrl+P",
                                      "Print the map to a PDF at an exact scale (a hex or square size, or a "
                                      "territory map's width), tiled over pages")
        f.addAction(self.act_print)
        e = mb.addMenu("&Edit")
        e.addActions([self.act_undo, self.act_redo])
        e.addSeparator()
        e.addAction(self.act_goto)
        v = mb.addMenu("&View")
        v.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        pal = v.addMenu("&Palette")
        self.palette_actions: dict[str, QAction] = {}
        group = QActionGroup(self)
        for name in style.PALETTES:
            act = pal.addAction(name)
            act.setCheckable(True)
            act.setChecked(name == style.palette())
            act.setStatusTip("Side colours: " + ("Okabe-Ito, told apart under colour-vision deficiencies"
                                                 if name == style.PALETTES[0] else "as each scenario file gives them"))
            group.addAction(act)
            act.triggered.connect(lambda _checked=False, n=name: self.set_palette(n))
            self.palette_actions[name] = act
        v.addSeparator()
        self._rebuild_recent_menu()
        return f, e, v

    def set_palette(self, name: str) -> None:
        """View > Palette: draw sides in palette ``name`` (one of
        :data:`app.gui.render.style.PALETTES`) in every editor window; kept
        in the settings for the next start."""
        style.set_palette(name)
        self.settings.setValue("view/palette", name)
        for w in QApplication.topLevelWidgets():
            if isinstance(w, EditorWindow) and shiboken6.isValid(w) and hasattr(w, "palette_actions"):
                w.palette_actions[name].setChecked(True)
                w._palette_changed()

    def _palette_changed(self) -> None:
        invalidate = getattr(self.canvas, "invalidate_all", None) or self.canvas.invalidate
        invalidate()
        self.editor.palette_changed()

    def show_goto(self) -> None:
        """Edit > Go to: ask for a name (completing :meth:`goto_names`) and
        let :meth:`go_to` centre the map on it (app/gui/dialogs/goto.py)."""
        from .dialogs.goto import GotoDialog

        GotoDialog(self, self.goto_names(), self._go_and_say, self.editor.goto_hint).exec()

    def _go_and_say(self, text: str) -> str:
        found: str = self.go_to(text)
        self.statusBar().showMessage(found, 5000)
        return found

    DOCS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("&User Guide", "editor.md"), ("&Command Line", "cli.md"), ("Turns and the &Journal", "turns.md"))
    """Help menu entries before the rule pages: the ``docs/`` pages they open."""
    FORMAT_DOCS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("&File Format", "file-format.md"), ("Territory File Format", "file-format-territory.md"),
        ("Re&liability", "reliability.md"))
    """Help menu entries after the rule pages."""

    @staticmethod
    def rule_docs() -> list[tuple[str, str]]:
        """The rule pages of the rules systems with an editor UI, from the
        registry (``RulesSystem.doc``, :func:`app.gui.systems.help_pages`),
        as pages of ``docs/`` (a page outside it: a path up from there)."""
        from .systems import help_pages

        out = []
        for title, doc in help_pages():
            out.append((title, doc[len("docs/"):] if doc.startswith("docs/") else f"../{doc}"))
        return out

    def _make_help_menu(self) -> QMenu:
        """The Help menu: the documentation pages (the rules systems' from
        the registry), keyboard shortcuts and about."""
        h = self.menuBar().addMenu("&Help")
        self.doc_actions: dict[str, QAction] = {}
        for title, page in (*self.DOCS, *self.rule_docs(), *self.FORMAT_DOCS):
            act = h.addAction(title)
            act.setStatusTip(f"Open docs/{page}")
            act.triggered.connect(lambda _checked=False, p=page: self.open_doc(p))
            self.doc_actions[page] = act
        h.addSeparator()
        h.addActions([self.act_shortcuts, self.act_about])
        return h

    def open_doc(self, page: str) -> bool:
        """Open ``docs/<page>`` with the desktop's viewer for it; whether it
        was found and handed over (a message says where it was looked for)."""
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        path = DOCS_DIR / page
        if not path.is_file():
            self.show_error("Documentation not found", f"docs/{page} is not installed beside the program:",
                            [f"looked for {path}"])
            return False
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            self.statusBar().showMessage(f"No viewer opened {path}; open it by hand", 10000)
            return False
        return True

    def shortcut_rows(self) -> list[tuple[str, str, str]]:
        """``(menu, action, keys)`` for every action with a shortcut, in
        menu order, read from the menus themselves so the list cannot drift
        from what the keys do; keys in the platform's words ("Ctrl+S")."""
        rows: list[tuple[str, str, str]] = []
        seen: set[int] = set()

        def walk(menu: QMenu, where: str) -> None:
            for act in menu.actions():
                sub = act.menu()
                if isinstance(sub, QMenu):
                    walk(sub, f"{where} > {sub.title().replace('&', '')}")
                elif id(act) not in seen and not act.isSeparator():
                    seen.add(id(act))
                    keys = shortcut_text(act)
                    if keys:
                        rows.append((where, act.text().replace("&", "").rstrip("…"), keys))

        for top in self.menuBar().actions():
            menu = top.menu()
            if isinstance(menu, QMenu):
                walk(menu, top.text().replace("&", ""))
        return rows

    def show_shortcuts(self) -> Any:
        """Help > Keyboard Shortcuts: the dialog (window-modal, returned)."""
        from .dialogs.shortcuts import ShortcutsDialog

        dlg = ShortcutsDialog(self, self.shortcut_rows())
        dlg.open()
        return dlg

    def _shortcuts_in_tooltips(self) -> None:
        """Every tooltip of an action with a shortcut names its keys, e.g.
        "Save the scenario (Ctrl+S)" (tool bar and tool palette buttons
        show these tooltips)."""
        for act in self.findChildren(QAction):
            keys = shortcut_text(act)
            if not keys or act.toolTip().endswith(f"({keys})"):
                continue
            if act.statusTip():  # a tip of its own (``_action``): it stays
                act.setToolTip(f"{act.toolTip()} ({keys})")
            else:  # named by its text, which may change ("Undo Paint"): follow it
                follow = _tooltip_follows_text(act, keys)
                follow()
                act.changed.connect(follow)

    def _about(self) -> None:
        QMessageBox.about(self, "About Adjutant",
                          "<b>Adjutant</b><br>Map editor and movement adjudicator for square-grid, "
                          "hex-grid and territory wargames.")

    def _make_toolbar(self, name: str, actions: list[QAction]) -> None:
        """The main tool bar: files, undo/redo, zoom, then ``actions``."""
        tb = self.addToolBar("Main")
        tb.setObjectName(name)
        tb.addActions([self.act_new, self.act_open, self.act_save])
        tb.addSeparator()
        tb.addActions([self.act_undo, self.act_redo])
        tb.addSeparator()
        tb.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        tb.addSeparator()
        tb.addActions(actions)
        self.toolbar = tb

    def _make_status_labels(self) -> StatusField:
        """The status bar's permanent labels: what the mouse is over
        (returned; a fixed-size field, so a mouse move does not lay out the
        window again: :mod:`app.gui.status_field`) and the zoom
        (``zoom_label``)."""
        hover = StatusField("", margins=(16, 0, 8, 0))
        self.zoom_label = StatusField("")
        self.statusBar().addPermanentWidget(hover)
        self.statusBar().addPermanentWidget(self.zoom_label)
        self.status_yield: list[QWidget] = [hover, self.zoom_label]
        """The permanent status fields in the order they yield their room to
        a status message (a verdict): :func:`app.gui.status_field.make_room`."""
        self.statusBar().messageChanged.connect(lambda _m: self.make_status_room())
        return hover

    def make_status_room(self) -> None:
        """Narrow or empty the permanent status fields so the status
        message reads whole (:func:`app.gui.status_field.make_room`); a
        tool's own tip, shown while it is the tool in hand, yields to them
        instead (what the mouse is over is worth more than the reminder)."""
        message = self.statusBar().currentMessage()
        tips = self.editor.status_tips()
        make_room(self.statusBar(), self.status_yield, "" if message in tips else message)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if hasattr(self, "status_yield"):
            self.make_status_room()

    def _connect_document_and_canvas(self) -> None:
        """Title follows the document's path and modified state; canvas
        mouse events go to ``_press``/``_move``/``_release``; the zoom label
        follows the canvas."""
        d, c = self.document, self.canvas
        d.modifiedChanged.connect(lambda _m: self._update_title())
        d.pathChanged.connect(lambda _p: self._update_title())
        c.mousePressed.connect(self._press)
        c.mouseMoved.connect(self.editor.move)
        c.mouseReleased.connect(self.editor.release)
        c.zoomChanged.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f}%"))

    def _press(self, ev: Any) -> None:
        """A mouse press on the canvas: to the rules systems' parts that
        take clicks (ACW: a retreat hex owed), else to the editor; none
        while the game shows a past position."""
        if self.game.replay_blocks():
            return
        if any(part.press(ev) for part in self.system_parts if isinstance(part, TakesClicks)):
            return
        self.editor.press(ev)

    def set_title_note(self, text: str) -> None:
        """What the title says after the window's kind (the game's turn)."""
        self.title_note = text
        self._update_title()

    def drop_selection(self) -> None:
        """Forget the selection (the side to move changed): the editor's
        :meth:`~app.gui.map_editor.MapEditor.drop_selection`."""
        self.editor.drop_selection()

    def _update_title(self) -> None:
        ro = " (read-only)" if self.read_only else ""
        self.setWindowTitle(f"{self.document.display_name()}{ro}[*] — Adjutant{self.editor.title_suffix}{self.title_note}")
        self.setWindowModified(self.document.is_modified())

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
        scenario = self.editor.new_scenario()
        if scenario is None:
            return False
        self.document.replace(scenario, None)
        return True

    def goto_names(self) -> list[str]:
        """The names Edit > Go To completes (the editor's)."""
        return self.editor.goto_names()

    def go_to(self, text: str) -> str:
        """Centre the map on what ``text`` names and mark it (the editor's
        :meth:`~app.gui.map_editor.MapEditor.go_to`)."""
        return self.editor.go_to(text)

    def open_file(self, path: str | None = None, ask: bool = True) -> bool:
        """Open ``path`` (or ask for one).  A file that cannot be loaded
        shows the loader's problems and leaves the current document as it
        was; a map of another kind goes to the editor's
        :meth:`~app.gui.map_editor.MapEditor.open_other_kind`.
        ``ask=False`` skips the unsaved-changes prompt."""
        if path is None:
            start = str(Path(self.document.path).parent) if self.document.path else ""
            path, _ = QFileDialog.getOpenFileName(self, f"Open {self.editor.file_noun}", start, self.file_filter)
            if not path:
                return False
        from . import background

        try:
            loaded = background.run(self, f"Opening {Path(path).name}…", load_text_checked, path)
        except background.Cancelled:
            self.statusBar().showMessage(f"Opening {Path(path).name} cancelled; nothing changed", 5000)
            return False
        except ScenarioError as e:
            n = len(e.problems)
            self.show_error("Cannot open", f"{Path(path).name} cannot be opened ({n} problem{'s' if n != 1 else ''}):",
                            [str(p) for p in e.problems])
            return False
        except (ModelError, OSError) as e:
            self.show_error("Cannot open", f"{Path(path).name} cannot be opened:", [str(e)])
            return False
        if not isinstance(loaded, self.editor.scenario_type):
            return self.editor.open_other_kind(loaded, str(path))
        if ask and not self.maybe_save():
            return False
        self.document.replace(loaded, str(path))
        self.add_recent(str(path))
        self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    def save(self) -> bool:
        if not self.document.path or self.read_only:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self, path: str | None = None) -> bool:
        if path is None:
            start = self.document.path or f"{self.document.scenario.name}.json"
            path, _ = QFileDialog.getSaveFileName(self, f"Save {self.editor.file_noun} as", start, self.file_filter)
            if not path:
                return False
            if not Path(path).suffix:
                path += ".json"
        return self._save_to(path)

    def _save_to(self, path: str) -> bool:
        plan = getattr(getattr(self, "turns", None), "plan", None)
        if plan is not None:  # app/gui/plan_orders.py: the planned orders are on the map, not in the game
            self.show_error("Cannot save", "Orders are being planned: they are shown on the map but are not the "
                            "game's.", ["Save them with Game > Save Orders File…, then Game > End Plan takes them "
                                        "back; the file can be saved then."])
            return False
        holder = map_holder(self.state_dir, path)
        if holder is not None:
            self.show_error("Cannot save", f"{path} is open in {describe_holder(holder)}:",
                            ["Saving here would overwrite the work of that editor; save under another name."])
            return False
        if self.document.path and os.path.abspath(path) == os.path.abspath(self.document.path) \
                and not self.check_disk(before_save=True):
            return False
        try:
            self.document.save(path)
        except (OSError, ValueError) as e:
            self.show_error("Cannot save", f"{path} could not be written:", [getattr(e, "strerror", None) or str(e)])
            return False
        self.stamp_disk()
        self.add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    # -- recent files (shared by both kinds of window) ---------------------
    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value] if isinstance(value, list) else []

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

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.WindowActivate:  # look at the file once the activation is over
            QTimer.singleShot(0, self, self.check_disk)
        return super().event(e)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_save():
            event.ignore()
            return
        self.save_settings()
        if self.error_dialog is not None:
            self.error_dialog.close()
        self.editor.closing()
        self.autosave.close()
        self._release_map()
        event.accept()

    # -- settings --------------------------------------------------------
    def save_settings(self) -> None:
        s = self.settings
        s.setValue(f"{self.editor.settings_group}/geometry", self.saveGeometry())
        self.layouts.store()
        self.editor.save_settings(s)
        s.sync()

    def _restore_settings(self) -> None:
        s = self.settings
        group = self.editor.settings_group
        geometry = s.value(f"{group}/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(*fitting_size(self.editor.default_size))
        from .layouts import install as install_layouts

        self.layouts = install_layouts(self, s, group)  # View > Layout; the layout's docks (app/gui/layouts.py)
        palette = s.value("view/palette")
        if palette in style.PALETTES and palette != style.palette():
            # at start-up, before this window has painted: set the palette and
            # tick it here only (set_palette repaints every window, and this
            # one is still being built)
            style.set_palette(str(palette))
            self.palette_actions[str(palette)].setChecked(True)
        self.editor.restore_settings(s)


__all__ = ["MAX_RECENT", "SCENARIO_FILTER", "EditorWindow", "default_settings"]
