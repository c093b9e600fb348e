"""The game's part of an editor window (:class:`GameUI`): the turn
controller (:class:`app.gui.turns.TurnController`), the Game menu and its
actions, the Journal dock, the turn in the title and the status bar, the
orders plan (:mod:`app.gui.plan_orders`).  Each editor window owns one
(``window.game``) and is, to it, a :class:`GameHost`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject

from .turns import TurnController
from .windows import MANAGER

if TYPE_CHECKING:
    from .docks.journal import JournalPanel
    from .document_base import DocumentBase


class GameHost(Protocol):
    """What :class:`GameUI` uses of the editor window that owns it."""

    @property
    def document(self) -> DocumentBase: ...

    canvas: Any
    settings: Any
    state_dir: Any
    toolbar: Any
    status_yield: list[Any]
    act_export_image: Any

    def make_action(self, text: str, slot: Any = None, shortcut: Any = None, tip: str = "") -> Any: ...

    def make_dock(self, title: str, name: str, widget: Any, area: Any) -> Any: ...

    dock_history: Any
    """The dock the Journal dock is tabbed with."""

    def tabifyDockWidget(self, first: Any, second: Any) -> None: ...

    def menuBar(self) -> Any: ...

    def statusBar(self) -> Any: ...

    def show_error(self, title: str, summary: str, problems: list[str] | tuple[str, ...] = ()) -> Any: ...

    def set_title_note(self, text: str) -> None: ...

    def drop_selection(self) -> None: ...

    def make_status_room(self) -> None: ...


class GameUI(QObject):
    """The game's part of an editor window (grid or territory), owned by
    the window (``window.game``): the controller :attr:`turns` (also
    ``document.turns``, where the tools find it), the actions End Turn
    (Ctrl+E, also on the tool bar) and End Phase (Ctrl+Shift+E) in the Game
    menu (:attr:`menu`), the Journal dock (:attr:`journal_panel`) with
    back/forward (Alt+Left / Alt+Right), the turn in the title and the
    status bar (:attr:`turn_label`), Game Data and Export Report.

    :attr:`owed` is the one hook a rules system's part adds to: functions
    asked, when the rules refuse to end a phase or turn, whether something
    is owed (and then they show it), e.g. ACW's Combat dock."""

    journal_panel: JournalPanel

    def __init__(self, host: GameHost) -> None:
        from PySide6.QtCore import Qt, QTimer
        from PySide6.QtWidgets import QLabel

        from .docks.journal import JournalPanel

        super().__init__(host.document)
        self.host = host
        self.turns = turns = TurnController(host.document)
        host.document.turns = turns
        self.owed: list[Callable[[], bool]] = []
        """Asked in turn when ending a phase or turn is refused: whether
        something is owed (shown by the function itself)."""
        self.game_data_dialog: Any = None
        a = host.make_action
        self.act_end_turn = a("&End Turn", lambda: self.end(False), "Ctrl+E",
                              "End the side to move's turn: its end-of-phase effects, then the next side")
        self.act_end_phase = a("End &Phase", lambda: self.end(True), "Ctrl+Shift+E", "End the current phase only")
        self.act_play = a("Play as a &Game", lambda on: turns.set_playing(on), "Ctrl+Shift+G",
                          "Moves in Adjudicate mode (and rail moves) become orders of the game, "
                          "journalled turn by turn; unchecked a move asks: an order (play starts) or a set-up edit")
        self.act_play.setCheckable(True)
        self.act_game_data = a("Game &Data…", self._game_data, None,
                               "IPCs, points and other numbers the game keeps per side: a set-up edit "
                               "before play, a journalled game master's adjustment during play")
        self.act_export_report = a("Export &Report…", self._export_report, None,
                                   "The game's play-by-post report: Markdown with a map crop of each "
                                   "order (as adjutant journal --markdown --crops)")
        export_image = host.act_export_image
        for menu_action in host.menuBar().actions():  # File > Export Report…, after Export Image…
            menu = menu_action.menu()
            if menu is not None and menu_action.text().replace("&", "") == "File":
                after = menu.actions()
                at = after.index(export_image) + 1 if export_image in after else len(after)
                if at < len(after):
                    menu.insertAction(after[at], self.act_export_report)
                else:
                    menu.addAction(self.act_export_report)
        self.act_journal_back = a("Journal &Back", lambda: self.journal_panel.step(-1), "Alt+Left",
                                  "Show the map one journal entry earlier (read-only)")
        self.act_journal_forward = a("Journal &Forward", lambda: self.journal_panel.step(1), "Alt+Right",
                                     "Show the map one journal entry later")
        self.journal_panel = JournalPanel(turns, self._show, self._branch, self._source)
        self.journal_panel.setObjectName("journalPanel")
        self.dock_journal = host.make_dock("Journal", "journalDock", self.journal_panel,
                                           Qt.DockWidgetArea.RightDockWidgetArea)
        host.tabifyDockWidget(host.dock_history, self.dock_journal)
        menu_bar = host.menuBar()
        self.menu = menu_bar.addMenu("&Game")
        self.menu.addActions([self.act_play, self.act_end_turn, self.act_end_phase, self.act_game_data])
        self.menu.addSeparator()
        self.menu.addActions([self.act_journal_back, self.act_journal_forward, self.dock_journal.toggleViewAction()])
        help_menu = next((m for m in menu_bar.actions() if m.text().replace("&", "") == "Help"), None)
        if help_menu is not None:  # Help stays last
            menu_bar.removeAction(help_menu)
            menu_bar.addAction(help_menu)
        if host.toolbar is not None:
            host.toolbar.addSeparator()
            host.toolbar.addAction(self.act_end_turn)
        self.turn_label = QLabel("")
        self.turn_label.setObjectName("turnStatus")
        self.turn_label.setContentsMargins(8, 0, 8, 0)
        host.statusBar().insertPermanentWidget(0, self.turn_label)
        host.status_yield.insert(1, self.turn_label)  # the turn yields its room to a verdict after the hovered place's
        self._side_seen: Any = None
        self._shown: list[Any] = []

        from .plan_orders import OrdersPlanUI

        self.orders_plan = OrdersPlanUI(host, turns, self.menu)
        """Game > Plan Orders as SIDE, File > Apply Orders File…, the Plan dock."""
        turns.changed.connect(self.update)
        host.document.scenarioReplaced.connect(lambda _s: QTimer.singleShot(0, self.refuse_bad_game))
        QTimer.singleShot(0, self.refuse_bad_game)
        self.update()

    # -- the actions -----------------------------------------------------------
    def end(self, phase_only: bool) -> None:
        """End Phase / End Turn: carried out, or the rules' refusal shown
        (first what is owed, when a system's part has it to show)."""
        host, turns = self.host, self.turns
        if self.journal_panel.replaying is not None:
            self.journal_panel.go(None)
        why = turns.end(phase_only)
        title = "End Phase" if phase_only else "End Turn"
        if why is not None and any(show() for show in self.owed):
            host.show_error(title, "Resolve what is owed in the Combat panel (Game > Combat) first.", [why])
        elif why is not None:
            host.show_error(title, why)
        else:
            host.statusBar().showMessage(turns.status(), 10000)

    def _export_report(self) -> None:
        from .report_export import export_report as write_report

        write_report(self.host)

    def _game_data(self) -> None:
        from .dialogs.game_data import edit_game_data

        self.game_data_dialog = edit_game_data(self.host)

    # -- the journal's callbacks -----------------------------------------------------
    def _show(self, scenario: Any, position: int | None) -> None:
        self.host.canvas.show_position(self.host.document.scenario if scenario is None else scenario)
        self.update()

    def _branch(self, scenario: Any) -> None:
        host = self.host
        window_class: Any = type(host)
        win = window_class(scenario, None, host.settings, host.state_dir)
        MANAGER.track(win, opener=host, role="branch")
        win.document.undo_stack.resetClean()  # untitled work: closing asks to save it
        win.show()

    def _source(self) -> str:
        d = self.host.document
        return str(d.path or d.display_name())

    # -- views ---------------------------------------------------------------------------
    def update(self) -> None:
        """The turn in the status bar and the title, the Game actions enabled
        for a game; a new side to move drops the window's selection."""
        turns, host = self.turns, self.host
        g = turns.game()
        key = (g.turn.turn, g.turn.side) if g is not None and turns.playing() else None
        if key != self._side_seen:
            if self._side_seen is not None and key is not None:  # another side's move: nothing of the last one stays
                host.drop_selection()
            self._side_seen = key
        text = turns.status() or ("Game refused: its journal is not what the rules give" if turns.problem else "")
        self.turn_label.setToolTip(turns.problem or "")
        replay = self.journal_panel.replaying
        if text and replay is not None:
            text += f" · replay after entry {replay} (read-only)"
        if text != self.turn_label.text() or bool(text) == self.turn_label.isHidden():
            self.turn_label.setText(text)
            self.turn_label.setVisible(bool(text))
            host.make_status_room()  # a message showing keeps its room: the fields yield again
        host.set_title_note(f" — {text}" if text else "")
        is_game = turns.game() is not None
        for act in (self.act_play, self.act_end_turn, self.act_end_phase, self.act_journal_back,
                    self.act_journal_forward, self.act_export_report, self.act_game_data):
            act.setEnabled(is_game)
        self.act_play.blockSignals(True)
        self.act_play.setChecked(turns.playing())
        self.act_play.blockSignals(False)

    def replay_blocks(self) -> bool:
        """Whether the window shows a replayed position (read-only): then a
        click on the map edits nothing and the status bar says so."""
        panel = self.journal_panel
        if panel.replaying is None:
            return False
        self.host.statusBar().showMessage(f"Showing the map after journal entry {panel.replaying} (read-only): "
                                          f"press Latest in the Journal dock to edit again", 10000)
        return True

    def refuse_bad_game(self) -> None:
        """Say, when a file opens, that its game is not played and why."""
        turns = self.turns
        problem = turns.problem
        if problem is None or (self._shown and self._shown[-1] is turns.document.scenario):
            return
        self._shown[:] = [turns.document.scenario]
        self.host.show_error("Game", "This file's game is not played: its journal is not what the rules give "
                                     "(or cannot be read).", [problem])
        self.host.statusBar().showMessage(f"Game refused: {problem}", 15000)


__all__ = ["GameHost", "GameUI"]
