"""The map editor an editor window hosts: everything of a window that
depends on the map kind, behind one interface.

An :class:`app.gui.editor_window.EditorWindow` (the shell: menus, files,
recent files, Help, the status bar, docks, recovery, settings, the game)
hosts one :class:`MapEditor` for its lifetime: the document, the canvas,
the tools and the tool context, the tools' actions and tool bar entries,
the kind's docks and menus, its status widget, and what the kind does for
File > New, Edit > Go To and a map of another kind.  The editor class for a
map kind is registered in :data:`EDITORS` (:func:`register_editor`, keyed by
map kind as :data:`app.gui.render.RENDERERS` is) and found by
:func:`editor_class`.

The shell builds a window in this order, so the editors' docks, menus and
tool bar are laid out as they always were:

1. ``cls(window, scenario, path, **options)``: the document, the canvas
   (the window's central widget), the tool context and the tools;
2. the shell's file actions, then :meth:`MapEditor.make_actions`;
3. :meth:`MapEditor.make_docks`;
4. the shell's File, Edit and View menus, :meth:`MapEditor.make_menus`
   (adds to them and makes its own), the Help menu, the main tool bar
   with :meth:`MapEditor.toolbar_actions`;
5. the status bar's fields, :meth:`MapEditor.take_status_field`;
6. the document and canvas wired to the shell (title, zoom, mouse to
   :meth:`MapEditor.press` / :meth:`~MapEditor.move` /
   :meth:`~MapEditor.release`), then :meth:`MapEditor.connect`;
7. the game (:class:`app.gui.game.GameUI`), Game > Check Set-up and the
   rules systems' installs for :attr:`MapEditor.system_kinds`, then
   :meth:`MapEditor.installed`; autosave and the saved settings last
   (:meth:`MapEditor.restore_settings`).

A window keeps its editor until it closes: a map of another kind opens in
a window of its own (:meth:`MapEditor.open_other_kind`), so no dock or
canvas is ever replaced under a part that still holds it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from .document_base import DocumentBase
    from .editor_window import EditorWindow
    from .status_field import StatusField


class MapEditor:
    """One map kind's editor inside an editor window (see the module
    docstring for the order the window calls these in).

    Class attributes say what the window edits and how the shell names it:
    ``kinds`` (the map kinds, :func:`app.gui.autosave.map_kind`),
    ``scenario_type``, ``system_kinds`` (the rules systems' map kinds whose
    UIs are installed), ``object_name`` (the window's), ``settings_group``
    (its geometry and dock layout in :class:`QSettings`), ``default_size``,
    ``title_suffix``, ``file_noun`` and the texts of New/Open/Save/Save As.
    """

    kinds: ClassVar[tuple[str, ...]] = ()
    scenario_type: ClassVar[type] = object
    system_kinds: ClassVar[tuple[str, ...]] = ()
    object_name: ClassVar[str] = ""
    settings_group: ClassVar[str] = "window"
    default_size: ClassVar[tuple[int, int]] = (1280, 820)
    title_suffix: ClassVar[str] = ""
    file_noun: ClassVar[str] = "scenario"
    new_text: ClassVar[str] = "&New…"
    new_tip: ClassVar[str] = "Create a new map"
    open_tip: ClassVar[str] = "Open a scenario file"
    save_tip: ClassVar[str] = "Save the scenario"
    save_as_tip: ClassVar[str] = "Save under another name"
    goto_hint: ClassVar[str] = ""
    """What Edit > Go To accepts, said in its dialog."""

    document: DocumentBase
    canvas: Any
    context: Any
    """What the tools and the rules systems' parts share (the tool context)."""

    def __init__(self, window: EditorWindow, scenario: Any, path: str | None = None) -> None:
        """A subclass makes the document on ``scenario`` (read from
        ``path``), the canvas (``window``'s central widget), the tool context
        and the tools; it may take options of its own after ``path``."""
        self.window = window

    # -- building (in the order of the module docstring) -------------------
    def make_actions(self) -> None:
        """The editor's actions (the shell's file actions exist)."""

    def make_docks(self) -> None:
        """The editor's docks, owned by :attr:`window`."""

    def make_menus(self, file: QMenu, edit: QMenu, view: QMenu) -> None:
        """Add to the shell's File, Edit and View menus and make the
        editor's own (before Help)."""

    toolbar_name: ClassVar[str] = "mainToolBar"
    """The main tool bar's object name (kept in the layout settings)."""

    def toolbar_actions(self) -> list[QAction]:
        """What the main tool bar shows after files, undo and zoom."""
        return []

    def take_status_field(self, field: StatusField) -> None:
        """The status bar's field for what the mouse is over."""

    def connect(self) -> None:
        """Wire the document, canvas and context to the editor's parts."""

    def installed(self) -> None:
        """The game and the rules systems' installs are in the window."""

    # -- mouse --------------------------------------------------------------
    def press(self, ev: Any) -> None:
        """A mouse press on the canvas (the game's replay lets it through)."""

    def move(self, ev: Any) -> None:
        """A mouse move on the canvas."""

    def release(self, ev: Any) -> None:
        """A mouse release on the canvas."""

    # -- what the shell asks -----------------------------------------------
    def new_scenario(self) -> Any:
        """The new map File > New makes (``None``: cancelled)."""
        raise NotImplementedError

    def open_other_kind(self, scenario: Any, path: str) -> bool:
        """A map that is not a :attr:`scenario_type` was opened; whether it
        was shown (in a window of its own)."""
        raise NotImplementedError

    def goto_names(self) -> list[str]:
        """The names Edit > Go To completes (engine/goto.py)."""
        raise NotImplementedError

    def go_to(self, text: str) -> str:
        """Centre the map on what ``text`` names and mark it; a short line
        saying what was found; raises :class:`engine.model.ModelError` for
        a name that names nothing."""
        raise NotImplementedError

    def drop_selection(self) -> None:
        """Forget the selection (the side to move changed)."""

    def palette_changed(self) -> None:
        """The sides' palette changed: redraw what shows side colours."""

    def status_tips(self) -> set[str]:
        """The tools' own tips (a status message that is one of them yields
        its room to the permanent status fields)."""
        return set()

    def closing(self) -> None:
        """The window is closing for good (after the prompt and settings)."""

    def save_settings(self, s: QSettings) -> None:
        """The editor's own settings (brush size, layers, tool…)."""

    def restore_settings(self, s: QSettings) -> None:
        """Read back what :meth:`save_settings` wrote."""


EDITOR_MODULES: dict[str, str] = {"grid": "app.gui.main_window", "territory": "app.gui.territory.window"}
"""The module whose import registers the built-in editor of each map kind."""

EDITORS: dict[str, type[MapEditor]] = {}
"""The editor class of each map kind (:func:`register_editor`)."""


def register_editor(cls: type[MapEditor]) -> type[MapEditor]:
    """Make ``cls`` the editor for maps of each of its ``kinds``."""
    for kind in cls.kinds:
        EDITORS[kind] = cls
    return cls


def editor_class(kind: str) -> type[MapEditor]:
    """The editor class for maps of ``kind`` (importing the built-in one
    the first time); :class:`KeyError` naming the kind when none edits it."""
    if kind not in EDITORS and kind in EDITOR_MODULES:
        importlib.import_module(EDITOR_MODULES[kind])
    try:
        return EDITORS[kind]
    except KeyError:
        raise KeyError(f"no map editor for {kind!r} maps") from None


__all__ = ["EDITORS", "MapEditor", "editor_class", "register_editor"]
