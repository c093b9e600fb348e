"""A player's orders in the editor: Game > Plan Orders as SIDE, and the
game master's File > Apply Orders File… (``docs/play-by-post.md``).

While a side plans (:class:`OrdersPlan`), every order the editor's gestures
give (the adjudicate tool, the rail tools, the Combat dock) is checked as
that side's against the position the earlier planned orders leave and
carried out on the map, with every live preview, as a step the plan will
take back: the plan is the list of those orders.  Reordering or removing
one takes the plan back and gives the list again (each order checked
anew).  Save Orders File… writes the planned orders file
(``engine/turns/orders_file.py``: side, turn, phase and the journal head
the plan started from); ending the plan takes every planned order back, so
nothing is applied to the game.

Apply Orders File… reads a side's orders file, refuses it as
``adjutant orders`` does (another side, turn or phase; another journal
head, unless the game master chooses to check each order on today's
position) and gives its orders, each journalled with the file's hash and
sender, one undo step each.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.model import ModelError
from engine.turns.delta import GAME_KEY

TurnController = Any
"""The document's :class:`app.gui.turns.TurnController` (which installs this
module's actions, so this module does not import it)."""


class OrdersPlan(QObject):
    """One side's planned orders (see the module docstring)."""

    changed = Signal()

    def __init__(self, turns: TurnController, side: str) -> None:
        super().__init__(turns)
        game = turns.game()
        if game is None:
            raise ModelError("this scenario is not a game: there are no orders to plan")
        self.turns = turns
        self.side = str(turns.document.scenario.side(side).id)
        state = turns.document.scenario.state
        view = state.get("side_view")
        self.head = (str(view["head"]) if isinstance(view, Mapping) and GAME_KEY not in state
                     else game.journal.head)
        self.turn, self.phase = game.turn.turn, game.turn.phase
        self.start = turns.document.undo_stack.index()
        self.orders: list[dict[str, Any]] = []
        self.said: list[str] = []

    def note(self, order: dict[str, Any]) -> None:
        """An order the side gave (:meth:`TurnController.give`)."""
        self.orders.append(order)
        self.changed.emit()

    def give(self, order: Mapping[str, Any]) -> tuple[bool, str]:
        """Plan ``order``: checked and shown on the map, or refused (why)."""
        ok, why = self.turns.give(dict(order))
        return bool(ok), str(why)

    def _take_back(self) -> None:
        stack = self.turns.document.undo_stack
        if stack.index() > self.start:
            stack.setIndex(self.start)

    def replan(self, orders: list[dict[str, Any]]) -> list[str]:
        """Take the plan back and give ``orders`` in turn; the refusals (an
        order the new order of things no longer allows is dropped)."""
        self._take_back()
        self.orders = []
        refused = []
        for o in orders:
            ok, why = self.turns.give(dict(o))
            if not ok:
                refused.append(f"{_summary(o)}: {why}")
        self.changed.emit()
        return refused

    def remove(self, i: int) -> list[str]:
        return self.replan([o for k, o in enumerate(self.orders) if k != i])

    def move(self, i: int, j: int) -> list[str]:
        orders = list(self.orders)
        if not (0 <= i < len(orders) and 0 <= j < len(orders)):
            return []
        orders.insert(j, orders.pop(i))
        return self.replan(orders)

    def data(self, salt: str | None = None) -> dict[str, Any]:
        """The orders file's data (``docs/turns.md``, "Orders files")."""
        from engine.turns.orders_file import FORMAT, VERSION

        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "side": self.side, "turn": self.turn,
                               "phase": self.phase, "head": self.head}
        if salt:
            out["salt"] = salt
        out["orders"] = [dict(o) for o in self.orders]
        return out

    def save(self, path: str, salt: str | None = None) -> None:
        """Write the orders file (atomically)."""
        from engine.io.atomic import write_text_atomic

        write_text_atomic(path, json.dumps(self.data(salt), indent=2, ensure_ascii=False) + "\n")

    def end(self) -> None:
        """Take every planned order back and stop planning."""
        self._take_back()
        self.forget()

    def forget(self) -> None:
        """Stop planning without touching the game (its scenario was replaced)."""
        if self.turns.plan is self:
            self.turns.plan = None
        self.orders = []
        self.changed.emit()
        self.turns.changed.emit()


def _summary(order: Mapping[str, Any]) -> str:
    unit, to = order.get("unit"), order.get("to")
    return f"{unit} to {to}" if unit is not None and to is not None else json.dumps(dict(order))


class OrdersPlanPanel(QWidget):
    """The Plan dock: the planned orders in order, with Up, Down, Remove,
    Save Orders File… and End Plan."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window_ = window
        self.label = QLabel("No orders are being planned (Game > Plan Orders as…).")
        self.label.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("planList")
        buttons = QGridLayout()  # two rows: the dock fits the window's side column (340 px)
        self.up = QPushButton("Up")
        self.down = QPushButton("Down")
        self.remove = QPushButton("Remove")
        self.save = QPushButton("Save…")
        self.stop = QPushButton("End Plan")
        for i, b in enumerate((self.up, self.down, self.remove)):
            buttons.addWidget(b, 0, i)
        buttons.addWidget(self.save, 1, 0, 1, 2)
        buttons.addWidget(self.stop, 1, 2)
        lay = QVBoxLayout(self)
        lay.addWidget(self.label)
        lay.addWidget(self.list)
        lay.addLayout(buttons)
        self.up.clicked.connect(lambda: self._move(-1))
        self.down.clicked.connect(lambda: self._move(1))
        self.remove.clicked.connect(self._remove)
        self.save.clicked.connect(lambda: save_plan(window))
        self.stop.clicked.connect(lambda: end_plan(window))
        self.refresh()

    def plan(self) -> OrdersPlan | None:
        turns = self.window_.document.turns
        return turns.plan if turns is not None else None

    def refresh(self) -> None:
        plan = self.plan()
        self.list.clear()
        if plan is None:
            self.label.setText("No orders are being planned (Game > Plan Orders as…).")
        else:
            game = plan.turns.game()
            name = game.side_name(plan.side) if game is not None else plan.side
            self.label.setText(f"The {name} orders for turn {plan.turn}, {plan.phase} phase, planned against "
                               f"journal head {plan.head[:12]}; shown on the map, not applied.")
            self.list.addItems([f"{i + 1}. {_summary(o)}" for i, o in enumerate(plan.orders)])
        for b in (self.up, self.down, self.remove, self.save, self.stop):
            b.setEnabled(plan is not None)

    def _move(self, step: int) -> None:
        plan, i = self.plan(), self.list.currentRow()
        if plan is None or i < 0:
            return
        self._said(plan.move(i, i + step))
        self.list.setCurrentRow(max(0, min(i + step, self.list.count() - 1)))

    def _remove(self) -> None:
        plan, i = self.plan(), self.list.currentRow()
        if plan is not None and i >= 0:
            self._said(plan.remove(i))

    def _said(self, refused: list[str]) -> None:
        if refused:
            self.window_.show_error("Plan Orders", "Orders the new order of things refuses were dropped", refused)


def start_plan(window: Any, side: str) -> OrdersPlan | None:
    """Plan ``side``'s orders (ending a plan under way)."""
    turns: TurnController = window.turns
    if turns.plan is not None:
        turns.plan.end()
    try:
        plan = OrdersPlan(turns, side)
    except ModelError as e:
        window.show_error("Plan Orders", str(e))
        return None
    turns.plan = plan
    turns.set_playing(True)
    ui = window.game.orders_plan
    plan.changed.connect(ui.panel.refresh)
    plan.changed.connect(turns.changed.emit)
    ui.dock.show()
    ui.dock.raise_()
    ui.panel.refresh()
    turns.changed.emit()
    return plan


def end_plan(window: Any) -> None:
    plan = window.turns.plan
    if plan is not None:
        plan.end()
    window.game.orders_plan.panel.refresh()


def save_plan(window: Any, path: str | None = None, salt: str | None = None) -> str | None:
    """Save the plan as an orders file (asking for the path and the
    optional dice salt when not given); the path written."""
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    plan = window.turns.plan
    if plan is None:
        return None
    if path is None:
        path, _ = QFileDialog.getSaveFileName(window, "Save Orders File", f"{plan.side}-turn-{plan.turn}.json",
                                              "Orders files (*.json)")
        if not path:
            return None
        text, ok = QInputDialog.getText(window, "Dice salt", "Your share of the dice (optional; any text):")
        salt = text.strip() or None if ok else None
    try:
        plan.save(path, salt)
    except OSError as e:
        window.show_error("Save Orders File", f"{path}: {e.strerror or e}")
        return None
    window.statusBar().showMessage(f"{len(plan.orders)} orders saved to {path}", 10000)
    return path


def apply_orders_file(window: Any, path: str | None = None, rebase: bool | None = None) -> list[str]:
    """File > Apply Orders File…: give a side's orders file to the game;
    the lines said (each order's verdict, or why the file is refused)."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from engine.io import ScenarioError
    from engine.io.common import parse_json
    from engine.turns.orders_file import parse, refusals

    turns: TurnController = window.turns
    game = turns.game()
    if game is None:
        window.show_error("Apply Orders File", "This scenario is not a game: its ruleset names no rules system.")
        return []
    if path is None:
        path, _ = QFileDialog.getOpenFileName(window, "Apply Orders File", "", "Orders files (*.json)")
        if not path:
            return []
    try:
        with open(path, "rb") as f:
            raw = f.read(16 * 1024 * 1024 + 1)
        of = parse(parse_json(raw.decode("utf-8"), path), path, raw)
        side = str(game.scenario.side(of.side).id) if of.side is not None else game.turn.side
    except (OSError, UnicodeDecodeError, ValueError, ModelError, ScenarioError) as e:
        problems = [str(p) for p in e.problems] if isinstance(e, ScenarioError) else [str(e)]
        window.show_error("Apply Orders File", f"{path}: cannot be read", problems)
        return []
    why = refusals(game, of, side)
    if why and of.planned and of.head != game.journal.head and len(why) == 1 and "planned against" in why[0]:
        if rebase is None:
            answer = QMessageBox.question(window, "Apply Orders File", why[0].replace(
                "Give --rebase to", "Apply it anyway, and") + "?")
            rebase = answer == QMessageBox.StandardButton.Yes
        why = [] if rebase else why
    if why:
        window.show_error("Apply Orders File", f"{path} is refused", why)
        return why
    from app.post_game import arm_dice

    arm_dice(game)
    turns.set_playing(True)
    said = []
    for order in of.orders:
        ok = turns.give_file(order, side, of.source(side))
        last = game.journal[-1]
        said.append(f"{last.summary}: " + ("carried out" if ok else "refused — " + " ".join(last.reasons)))
    refused = sum(1 for s in said if ": refused" in s)
    if refused:
        window.show_error("Apply Orders File", f"{len(said) - refused} carried out, {refused} refused", said)
    else:
        window.statusBar().showMessage(f"{len(said)} orders of the {game.side_name(side)} carried out", 10000)
    return said


class OrdersPlanUI:
    """Game > Plan Orders as ▸ SIDE, Save Orders File…, End Plan; File >
    Apply Orders File…; the Plan dock (:attr:`panel`, :attr:`dock`): the
    orders plan's part of an editor window, owned by its
    :class:`~app.gui.game.GameUI` (``window.game.orders_plan``).
    ``window`` is the editor window the functions of this module are given."""

    def __init__(self, window: Any, turns: TurnController, game_menu: Any) -> None:
        self.panel = OrdersPlanPanel(window)
        self.panel.setObjectName("ordersPlanPanel")
        self.dock = window.make_dock("Orders Plan", "ordersPlanDock", self.panel, Qt.DockWidgetArea.RightDockWidgetArea)
        self.dock.hide()
        self.menu = menu = game_menu.addMenu("Plan &Orders as")

        def fill() -> None:
            menu.clear()
            game = turns.game()
            for side in game.sides() if game is not None else []:
                act = menu.addAction(game.side_name(side))
                act.setCheckable(True)
                act.setChecked(turns.plan is not None and turns.plan.side == side)
                act.triggered.connect(lambda _on=False, s=side: start_plan(window, s))

        menu.aboutToShow.connect(fill)
        self.act_save_plan = window.make_action("&Save Orders File…", lambda: save_plan(window), None,
                                                "Save the planned orders as an orders file to post to the game master")
        self.act_end_plan = window.make_action("E&nd Plan", lambda: end_plan(window), None,
                                               "Take the planned orders back and stop planning")
        game_menu.addActions([self.act_save_plan, self.act_end_plan])
        self.act_apply_orders = window.make_action("Apply &Orders File…", lambda: apply_orders_file(window), None,
                                                   "Give a side's orders file to the game (the game master's inbox)")
        file_menu = next((a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "File"), None)
        if file_menu is not None:
            file_menu.addAction(self.act_apply_orders)
        turns.changed.connect(self.panel.refresh)

