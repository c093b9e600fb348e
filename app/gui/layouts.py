"""Named dock layouts of an editor window: **Designer** and **Game Master**.

A layout says, for a window kind, which docks are shown, in which group of
the window's right-hand column each one sits (the docks of a group are
tabbed, their tabs down the window's edge), which tab is in front, and how
the column is sized: one column of at most :data:`COLUMN_WIDTH` pixels and
no dock above or below the map, so the map keeps at least 60 % of the
window at 1366 x 768 and 1280 x 820, and each group is tall enough for its
tabs' titles.  Docks are named by their ``objectName``; a dock no layout
names (a plug-in's) joins the last group.

Some docks are shown and hidden by the window itself, by what it is doing
(the rules preview's dock while adjudicating, the Combat dock on an ACW
game, the Underlay dock on a map with a scan, the rail plan in its mode):
a layout places them but leaves their visibility to the window
(:data:`CONTEXT`).

The window's choice (View > Layout): a layout picked by name, or
**Follow the Game**: Designer while a map is being set up, Game Master
while its game is played (a file whose game has begun, or Game > Play as a
Game).  A layout is applied when it is chosen, when the window opens or
opens another map, and when Play as a Game is checked or unchecked, never
in response to the pointer, a selection or an order.  The person's own arrangement of each layout
(docks moved, resized, closed) is kept per layout and window kind in the
window's :class:`QSettings` (``<group>/layouts/<name>``) and comes back
when the layout is chosen again; View > Layout > Reset Layout puts the
layout's own arrangement back.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QMenu, QScrollArea, QStyle, QTabBar

DESIGNER = "designer"
GAME_MASTER = "gm"
TITLES = {DESIGNER: "&Designer", GAME_MASTER: "&Game Master"}
VERSION = 1
"""The version of the saved arrangements (``restoreState``): a saved one of
another version is dropped for the layout's own."""
COLUMN_WIDTH = 340
"""The right-hand column's width (the rail options' tables need 330)."""

CONTEXT = ("previewDock*", "territoryPreviewDock*", "combatDock", "underlayDock", "territoryUnderlayDock",
           "ordersPlanDock", "railPlanDock", "paintDock", "railToolsDock")
"""Docks the window shows and hides by what it is doing (a layout places
them, the window decides whether they show)."""

SCROLLED = ("underlayDock", "territoryUnderlayDock")
"""Docks whose panel is taller than a group of the column can be (the
underlay's calibration and tracing, about 490 pixels): the panel scrolls
in its dock."""

SHORT_TITLES = {"previewDock*": "Preview", "territoryPreviewDock*": "Preview", "paintDock": "Paint"}
"""Dock titles a tab down the window's edge has room for; the long title
(a rules preview's name) becomes the dock's tooltip."""


@dataclass(frozen=True)
class Group:
    """Docks tabbed together in one place of the column, in tab order (a
    name may be an ``fnmatch`` pattern); ``front``: the tabs to bring to
    the front, the first one shown wins; ``share``: of the column's height
    left once every group has the height it needs (:func:`group_need`);
    ``hidden``: docks of the group the layout closes (the View menu opens
    them here)."""

    docks: tuple[str, ...]
    share: float = 1.0
    front: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A window kind's layout: its groups from the top of the column down."""

    name: str
    groups: tuple[Group, ...]


LAYOUTS: dict[str, dict[str, Layout]] = {
    "window": {  # the grid map editor (app/gui/main_window.py)
        DESIGNER: Layout(DESIGNER, (
            Group(("toolsDock", "previewDock*", "combatDock", "layersDock", "historyDock", "underlayDock"), 0.9,
                  front=("toolsDock",)),
            Group(("inspectorDock", "unitsDock", "legendDock", "verdictDock", "journalDock", "ordersPlanDock"), 0.1,
                  front=("inspectorDock",), hidden=("journalDock",)),
        )),
        GAME_MASTER: Layout(GAME_MASTER, (
            Group(("combatDock", "previewDock*", "inspectorDock", "unitsDock", "legendDock"), 0.6,
                  front=("combatDock", "previewDock*", "inspectorDock")),
            Group(("verdictDock", "journalDock", "historyDock", "ordersPlanDock", "toolsDock", "layersDock",
                   "underlayDock"), 0.4, front=("verdictDock",), hidden=("toolsDock", "layersDock")),
        )),
    },
    "territory": {  # the territory map editor (app/gui/territory/window.py)
        DESIGNER: Layout(DESIGNER, (
            Group(("territoryInspectorDock", "railOptionsDock", "railPlanDock", "paintDock", "railToolsDock",
                   "territoryUnderlayDock", "territoryLegendDock"), 0.5, front=("territoryInspectorDock",)),
            Group(("territoryVerdictDock", "territoryHistoryDock", "territoryPreviewDock*", "nationRailDock",
                   "journalDock", "ordersPlanDock"), 0.5,
                  front=("territoryVerdictDock",), hidden=("nationRailDock", "journalDock")),
        )),
        GAME_MASTER: Layout(GAME_MASTER, (
            Group(("railOptionsDock", "nationRailDock", "territoryInspectorDock", "railPlanDock",
                   "territoryPreviewDock*", "railToolsDock", "paintDock"), 0.75, front=("railOptionsDock",)),
            Group(("territoryVerdictDock", "journalDock", "territoryLegendDock", "ordersPlanDock",
                   "territoryHistoryDock", "territoryUnderlayDock"), 0.25, front=("territoryVerdictDock",),
                  hidden=("territoryHistoryDock",)),
        )),
    },
}
"""Each window kind's layouts, by its ``settings_group``."""


HANDLE = 6
"""The splitter between two groups of the column (pixels, with margin)."""


def tab_length(dock: QDockWidget) -> int:
    """The length a tab of ``dock`` needs to show its title whole."""
    style = dock.style()
    pad = style.pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, dock)
    return dock.fontMetrics().horizontalAdvance(dock.windowTitle()) + pad + 2


def least_height(dock: QDockWidget, front: bool = False) -> int:
    """The least height ``dock`` takes: its minimum; in front of its group,
    also the most its widget says it will ask for as its contents change (a
    ``FOLD_MAX``, as the Combat dock's, which grows to keep its buttons
    above its fold) with the dock's title."""
    least = dock.minimumSizeHint().height()
    fold = getattr(dock.widget(), "FOLD_MAX", None)
    if front and isinstance(fold, int):
        widget = dock.widget()
        title = least - max(widget.minimumSizeHint().height(), widget.minimumHeight())
        least = max(least, fold + max(0, title))
    return least


def group_need(docks: list[QDockWidget], front: QDockWidget | None = None) -> int:
    """The height a group of tabbed ``docks`` needs: its tabs' titles down
    the window's edge, and the tallest of its docks' least heights
    (``front``: the one in front)."""
    tabs = sum(tab_length(d) for d in docks) if len(docks) > 1 else 0
    return max(tabs, max(least_height(d, d is front) for d in docks))


def _matches(name: str, patterns: tuple[str, ...] | list[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def _short_title(name: str) -> str | None:
    return next((t for p, t in SHORT_TITLES.items() if fnmatch.fnmatchcase(name, p)), None)


class Layouts(QObject):
    """The layouts of one window (``window.layouts``): the View > Layout
    menu, the chosen layout, the person's saved arrangements.  Made by
    :func:`install`."""

    def __init__(self, window: QMainWindow, group: str, settings: QSettings,
                 playing: Callable[[], bool]) -> None:
        super().__init__(window)
        self.window_ = window
        self.playing = playing
        """Whether the window's game is in play (Follow the Game's question)."""
        self.group = group
        self.settings = settings
        self.layouts = LAYOUTS.get(group, LAYOUTS["window"])
        self.current: str | None = None
        """The layout applied now (``None`` before the first)."""
        self.follow = _bool(settings.value(f"{group}/layout/follow", True))
        """Whether the layout follows the game (Designer while setting up,
        Game Master while playing)."""
        chosen = str(settings.value(f"{group}/layout/name", DESIGNER))
        self.chosen = chosen if chosen in self.layouts else DESIGNER
        """The layout picked by name (used when not following the game)."""
        self._sizes_due = False
        self._fronts: list[tuple[Group, list[QDockWidget]]] = []
        """Each group of the layout applied last and its docks."""
        self._switch_due = False
        self.actions: dict[str, QAction] = {}
        self.act_follow: QAction | None = None
        self.act_reset: QAction | None = None
        self._refit_due = False
        self._context_docks: list[QDockWidget] = []
        """Mode docks shown since the last look (:meth:`_context_shown`)."""
        self._live = False
        """Whether the window has been shown (docks shown with it are not a mode's)."""
        self._arranging = False
        window.installEventFilter(self)

    # -- which layout ------------------------------------------------------------
    def wanted(self) -> str:
        """The layout the window should have now."""
        if not self.follow:
            return self.chosen
        return GAME_MASTER if self.playing() else DESIGNER

    def choose(self, name: str) -> None:
        """View > Layout > NAME: that layout from now on (no longer following
        the game), remembered in the settings."""
        if name not in self.layouts:
            raise ValueError(f"no layout '{name}' (layouts: {', '.join(self.layouts)})")
        self.follow = False
        self.chosen = name
        self.settings.setValue(f"{self.group}/layout/follow", False)
        self.settings.setValue(f"{self.group}/layout/name", name)
        self.apply(name)

    def set_follow(self, on: bool) -> None:
        """View > Layout > Follow the Game."""
        self.follow = bool(on)
        self.settings.setValue(f"{self.group}/layout/follow", self.follow)
        self.apply(self.wanted())

    def game_changed(self) -> None:
        """Game > Play as a Game was chosen or another map was opened: when
        following the game, the layout for it, once the mouse is released
        (a layout never moves the map under a pressed button).  An order
        that starts play (the Combat dock's, a move answered "Give as an
        Order") leaves the layout as it is: the map stays where the
        pointer is."""
        if not self.follow or self.wanted() == self.current or self._switch_due:
            return
        if QApplication.mouseButtons() == Qt.MouseButton.NoButton:
            self.apply(self.wanted())
            return
        self._switch_due = True
        QTimer.singleShot(100, self, self._switch)

    def _switch(self) -> None:
        if QApplication.mouseButtons() != Qt.MouseButton.NoButton:
            QTimer.singleShot(100, self, self._switch)
            return
        self._switch_due = False
        if self.follow and self.wanted() != self.current:
            self.apply(self.wanted())

    # -- applying --------------------------------------------------------------------
    def apply(self, name: str, saved: bool = True) -> None:
        """Make ``name`` the window's layout: the person's arrangement of it
        if one is saved (and ``saved``), else the layout's own.  The
        arrangement of the layout before is kept first."""
        if self.current is not None and self.current != name:
            self.store()
        self.current = name
        w = self.window_
        for d in self.docks():
            self._adopt(d)
        self._fronts = self._members(self.layouts[name])
        context = {d: not d.isHidden() for d in self.docks() if _matches(d.objectName(), CONTEXT)}
        state = self.settings.value(self._key(name)) if saved else None
        size = w.size()
        w.setMinimumSize(1, 1)  # docks moving one by one would stretch the window past the screen meanwhile
        self._arranging = True  # the docks shown now are the layout's, not a mode's
        if not (isinstance(state, QByteArray) and not state.isEmpty() and w.restoreState(state, VERSION)):
            self.arrange(self.layouts[name])
        for dock, shown in context.items():
            dock.setVisible(shown)
        self._arranging = False
        if w.isVisible():  # the window's size and the layout's sizes once the docks have settled
            QTimer.singleShot(0, self, lambda: self._settled(size))
        else:
            w.setMinimumSize(0, 0)  # the layout's own minimum again
        for key, act in self.actions.items():
            act.setChecked(key == name)
        if self.act_follow is not None:
            self.act_follow.setChecked(self.follow)

    def reset(self) -> None:
        """View > Layout > Reset Layout: the current layout's own arrangement."""
        name = self.current or self.wanted()
        self.settings.remove(self._key(name))
        self.apply(name, saved=False)

    def store(self) -> None:
        """Keep the person's arrangement of the current layout."""
        if self.current is not None:
            self.settings.setValue(self._key(self.current), self.window_.saveState(VERSION))

    def _key(self, name: str) -> str:
        return f"{self.group}/layouts/{name}"

    def docks(self) -> list[QDockWidget]:
        """The window's own docks."""
        return [d for d in self.window_.findChildren(QDockWidget) if d.parent() is self.window_]

    def _members(self, layout: Layout) -> list[tuple[Group, list[QDockWidget]]]:
        """Each group of ``layout`` with the window's docks it takes, in
        the layout's tab order (docks it does not name last, as they came)."""
        by_group: list[list[QDockWidget]] = [[] for _ in layout.groups]
        for d in self.docks():
            by_group[self._group_of(d.objectName(), layout)].append(d)
        for g, members in zip(layout.groups, by_group, strict=True):
            order = {p: k for k, p in enumerate(g.docks)}
            members.sort(key=lambda d, o=order: min((k for p, k in o.items()  # type: ignore[misc]
                                                     if fnmatch.fnmatchcase(d.objectName(), p)), default=99))
        return list(zip(layout.groups, by_group, strict=True))

    def _adopt(self, dock: QDockWidget) -> None:
        """A dock of the window: its short title, its panel in a scroll area
        (:data:`SCROLLED`), watched for its showing."""
        self._title(dock)
        panel = dock.widget()
        if _matches(dock.objectName(), SCROLLED) and panel is not None and not isinstance(panel, QScrollArea):
            scroll = QScrollArea()
            scroll.setObjectName(f"{dock.objectName()}Scroll")
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            dock.setWidget(scroll)
            scroll.setWidget(panel)
        dock.removeEventFilter(self)
        dock.installEventFilter(self)

    def _group_of(self, name: str, layout: Layout) -> int:
        for i, g in enumerate(layout.groups):
            if _matches(name, g.docks):
                return i
        return len(layout.groups) - 1

    def arrange(self, layout: Layout) -> None:
        """Put every dock where ``layout`` says (see the module docstring)."""
        w = self.window_
        Right = Qt.DockWidgetArea.RightDockWidgetArea
        docks = self.docks()
        self._fronts = self._members(layout)
        animated = w.isAnimated()
        w.setAnimated(False)  # the docks are in their places when this returns
        for d in docks:
            d.setFloating(False)
            w.removeDockWidget(d)
        for _g, members in self._fronts:
            if not members:
                continue
            first = members[0]
            w.addDockWidget(Right, first, Qt.Orientation.Vertical)
            for d in members[1:]:
                w.tabifyDockWidget(first, d)
        for g, members in self._fronts:
            for d in members:
                d.setVisible(not _matches(d.objectName(), g.hidden) or _matches(d.objectName(), CONTEXT))
        self._sizes_due = True
        w.setAnimated(animated)

    def _settled(self, size: QSize) -> None:
        """After :meth:`apply` on a shown window, in the next turn of the
        event loop (Qt puts the docks moved in their places then): the
        layout's own minimum size again, the window's size as it was, and
        the layout's sizes when its own arrangement was made."""
        w = self.window_
        w.setMinimumSize(0, 0)  # the layout's own minimum again
        lay = w.layout()
        if lay is not None:
            lay.activate()
        if w.size() != size:
            w.resize(size)
        if self._sizes_due:
            self.fit()

    def fit(self, fronts: bool = True) -> None:
        """The layout's sizes for the window's size now: the column's width;
        each group as tall as its tabs' titles (or its docks) need, and the
        height left shared by the groups' shares; with ``fronts``, each
        group's front tab comes to the front (else the tab in front stays)."""
        w = self.window_
        self._sizes_due = False
        heads, needs, shares = [], [], []
        for g, members in self._fronts:
            shown = [d for d in members if not d.isHidden()]
            if not shown:
                continue
            if fronts:
                front = next((d for p in g.front for d in shown if fnmatch.fnmatchcase(d.objectName(), p)), None)
                if front is not None:
                    front.raise_()
            else:
                front = next((d for d in shown if not d.visibleRegion().isEmpty()), None)
            heads.append(shown[0])
            needs.append(group_need(shown, front))
            shares.append(g.share)
        if not heads:
            return
        w.resizeDocks([heads[0]], [COLUMN_WIDTH], Qt.Orientation.Horizontal)
        central = w.centralWidget()
        column = (central.height() if central is not None else w.height()) - HANDLE * (len(heads) - 1)
        spare = max(0, column - sum(needs))
        total = sum(shares) or 1.0
        heights = [n + int(spare * s / total) for n, s in zip(needs, shares, strict=True)]
        w.resizeDocks(heads, heights, Qt.Orientation.Vertical)

    def _title(self, d: QDockWidget) -> None:
        short = _short_title(d.objectName())
        if short is not None and d.windowTitle() != short:
            d.setToolTip(d.windowTitle())
            d.setWindowTitle(short)

    def place(self, dock: QDockWidget) -> None:
        """A dock made after the layout was applied (a rules preview's, on
        first use): into its layout's group, tabbed, its visibility kept."""
        if self.current is None:
            return
        self._adopt(dock)
        layout = self.layouts[self.current]
        i = self._group_of(dock.objectName(), layout)
        mates = [d for d in self.docks() if d is not dock and self._group_of(d.objectName(), layout) == i
                 and self.window_.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
        shown = not dock.isHidden()
        if mates:
            self.window_.tabifyDockWidget(mates[0], dock)
        else:
            self.window_.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock, Qt.Orientation.Vertical)
        dock.setVisible(shown)
        self._fronts = self._members(layout)

    def cut_tabs(self) -> bool:
        """Whether a tab of the window's docks shows its title cut short."""
        for bar in self.window_.findChildren(QTabBar):
            if bar.parent() is not self.window_ or not bar.isVisible() or bar.count() < 2:
                continue
            vertical = bar.shape() in (QTabBar.Shape.RoundedEast, QTabBar.Shape.RoundedWest,
                                       QTabBar.Shape.TriangularEast, QTabBar.Shape.TriangularWest)
            pad = bar.style().pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, bar)
            for i in range(bar.count()):
                rect = bar.tabRect(i)
                if (rect.height() if vertical else rect.width()) < bar.fontMetrics().horizontalAdvance(
                        bar.tabText(i)) + pad:
                    return True
        return False

    def _context_shown(self) -> None:
        """Docks the window shows by what it does (a mode's) came into their
        groups: each comes to the front of its tabs (the mode's panel shows,
        not the tab beside it), and when a group is now shorter than its
        tabs' titles, the layout's sizes again (never for a pointer or a
        selection)."""
        self._refit_due = False
        shown, self._context_docks = self._context_docks, []
        for dock in shown:
            if shiboken6.isValid(dock) and dock.isVisible() and not dock.isFloating():
                dock.raise_()
        if self.window_.isVisible() and self.cut_tabs():
            self.fit(fronts=False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.window_ and event.type() == QEvent.Type.Show:
            if self._sizes_due:
                layout = self.window_.layout()
                if layout is not None:
                    layout.activate()
                self.fit()
            self._live = True  # (the docks shown with the window had their Show first)
        elif event.type() == QEvent.Type.Show and isinstance(watched, QDockWidget) and self._live \
                and not event.spontaneous() and not self._arranging and _matches(watched.objectName(), CONTEXT):
            self._context_docks.append(watched)
            if not self._refit_due:
                self._refit_due = True
                QTimer.singleShot(0, self, self._context_shown)
        return False

    # -- the menu ----------------------------------------------------------------
    def make_menu(self, view: QMenu) -> QMenu:
        """View > Layout: Designer, Game Master, Follow the Game, Reset Layout."""
        menu = view.addMenu("&Layout")
        menu.setObjectName("layoutMenu")
        group = QActionGroup(self)
        for name in self.layouts:
            act = menu.addAction(TITLES[name])
            act.setCheckable(True)
            act.setStatusTip("Docks for designing a map: tools, layers and the inspector beside the map"
                             if name == DESIGNER else
                             "Docks for running a game: combat, the rules preview, the verdict and the journal")
            act.triggered.connect(lambda _c=False, n=name: self.choose(n))
            group.addAction(act)
            self.actions[name] = act
        menu.addSeparator()
        self.act_follow = menu.addAction("&Follow the Game")
        self.act_follow.setCheckable(True)
        self.act_follow.setChecked(self.follow)
        self.act_follow.setStatusTip("Designer while the map is set up, Game Master while its game is played")
        self.act_follow.triggered.connect(self.set_follow)
        self.act_reset = menu.addAction("&Reset Layout")
        self.act_reset.setStatusTip("Put this layout's docks back where the layout has them")
        self.act_reset.triggered.connect(self.reset)
        return menu


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.lower() not in ("false", "0", "no", "")
    return bool(value)


def install(window: Any, settings: QSettings, group: str) -> Layouts:
    """An editor window's layouts (it keeps them as ``window.layouts``) and View >
    Layout, and apply the layout it should have (the person's saved
    arrangement of it, if any).  Called when the window is built, after
    its docks."""
    layouts = Layouts(window, group, settings, lambda: bool(window.turns.playing()))
    view = next((m for m in window.menuBar().findChildren(QMenu) if m.title().replace("&", "") == "View"), None)
    if view is not None:
        layouts.make_menu(view)
    settings.remove(f"{group}/state")  # the one arrangement kept before layouts were named
    layouts.apply(layouts.wanted())
    def game_changed(*_args: Any) -> None:
        if shiboken6.isValid(layouts):
            layouts.game_changed()

    window.game.act_play.triggered.connect(game_changed)  # Game > Play as a Game, chosen by the person
    window.document.scenarioReplaced.connect(game_changed)  # another map opened in the window
    return layouts


__all__ = ["DESIGNER", "GAME_MASTER", "LAYOUTS", "Group", "Layout", "Layouts", "install"]
