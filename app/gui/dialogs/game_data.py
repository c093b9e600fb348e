"""Game > Game Data…: the numbers a game keeps per side outside its units
and map (Rail Options' IPCs to spend and income, ACW's reinforcement
points; :mod:`engine.editing.game_data`) in a table the game master edits.

Before play starts the change is a set-up edit, one undo step
(:class:`GameDataCommand`); during play (Game > Play as a Game, or a file
that holds a game) it is a game master's adjustment, journalled as an
``adjust`` entry (:meth:`app.gui.turns.TurnController.adjust`), one undo
step too.  Nothing changed: nothing happens."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.editing.game_data import MAX_VALUE, GameNumber, game_numbers, set_game_number
from engine.model import ModelError
from engine.words import possessive

NOT_RECORDED = -1
"""The spin box value that means "not recorded"."""


class GameDataCommand(QUndoCommand):
    """A set-up edit of game data: each touched ``state[system]`` as it was
    and as it becomes, swapped by undo and redo."""

    def __init__(self, turns: Any, text: str, before: dict[str, Any], after: dict[str, Any]) -> None:
        super().__init__(text)
        self.turns = turns
        self.before = before
        self.after = after

    def _set(self, states: dict[str, Any]) -> None:
        state = self.turns.document.scenario.state
        for system, value in states.items():
            if value is None:
                state.pop(system, None)
            else:
                state[system] = copy.deepcopy(value)
        self.turns.state_changed()

    def redo(self) -> None:
        self._set(self.after)

    def undo(self) -> None:
        self._set(self.before)


def describe(scenario: Any, changes: list[tuple[GameNumber, int | None]]) -> str:
    """The changes in words: "Germany's IPCs to spend 29 to 40"."""
    def shown(v: int | None) -> str:
        return "none" if v is None else str(v)

    return "; ".join(f"{possessive(scenario.side(n.side).name)} {n.what} {shown(n.value)} to {shown(v)}"
                     for n, v in changes)


def apply_game_data(window: Any, changes: list[tuple[GameNumber, int | None]]) -> str | None:
    """Carry out ``changes`` (each number and its new value): a journalled
    adjustment during play, an undoable set-up edit before; why not as
    text, else ``None``."""
    changes = [(n, v) for n, v in changes if v != n.value]
    if not changes:
        return None
    turns = window.turns
    scenario = window.document.scenario
    words = describe(scenario, changes)

    def change(s: Any) -> None:
        for n, v in changes:
            set_game_number(s, n.system, n.key, n.side, v)

    if turns.playing():
        return turns.adjust(f"game master's adjustment: {words}", change)  # type: ignore[no-any-return]
    systems = {n.system for n, _ in changes}
    before = {k: copy.deepcopy(scenario.state.get(k)) for k in systems}
    try:
        change(scenario)
    except ModelError as e:
        for k, v in before.items():
            if v is None:
                scenario.state.pop(k, None)
            else:
                scenario.state[k] = v
        return str(e)
    after = {k: copy.deepcopy(scenario.state.get(k)) for k in systems}
    cmd = GameDataCommand(turns, f"Set-up: {words}", before, after)
    window.document.undo_stack.push(cmd)  # its first redo sets what is already set, and tells the views
    return None


class GameDataDialog(QDialog):
    """The table of game numbers (side, what, value); OK applies the
    changes (:func:`apply_game_data`)."""

    def __init__(self, window: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setObjectName("gameDataDialog")
        self.setWindowTitle("Game Data")
        self.window_ = window
        s = window.document.scenario
        self.numbers = game_numbers(s)
        playing = window.turns.playing()
        note = QLabel("During play a change is a game master's adjustment, written in the journal."
                      if playing else "Before play starts a change is an edit of the set-up (Edit > Undo takes it "
                                      "back).")
        note.setWordWrap(True)
        self.table = QTableWidget(len(self.numbers), 3)
        self.table.setObjectName("gameDataTable")
        self.table.setHorizontalHeaderLabels(["Side", "What", "Value"])
        self.table.verticalHeader().hide()
        self.spins: list[QSpinBox] = []
        for row, n in enumerate(self.numbers):
            self.table.setItem(row, 0, QTableWidgetItem(s.side(n.side).name))
            self.table.setItem(row, 1, QTableWidgetItem(n.what))
            spin = QSpinBox()
            spin.setRange(NOT_RECORDED, MAX_VALUE)
            spin.setSpecialValueText("not recorded")
            spin.setValue(NOT_RECORDED if n.value is None else n.value)
            self.table.setCellWidget(row, 2, spin)
            self.spins.append(spin)
        self.table.resizeColumnsToContents()
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c0201a")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept_changes)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(note)
        if not self.numbers:
            lay.addWidget(QLabel("This game keeps no numbers per side."))
        lay.addWidget(self.table, 1)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.resize(560, 360)

    def set_value(self, system: str, key: str, side: str, value: int | None) -> None:
        """Type ``value`` (``None``: not recorded) into the row of that number."""
        for n, spin in zip(self.numbers, self.spins, strict=True):
            if (n.system, n.key, n.side) == (system, key, side):
                spin.setValue(NOT_RECORDED if value is None else value)
                return
        raise KeyError(f"no game number {system}.{key}.{side}")

    def changes(self) -> list[tuple[GameNumber, int | None]]:
        out: list[tuple[GameNumber, int | None]] = []
        for n, spin in zip(self.numbers, self.spins, strict=True):
            v = None if spin.value() == NOT_RECORDED else spin.value()
            if v != n.value:
                out.append((n, v))
        return out

    def accept_changes(self) -> bool:
        why = apply_game_data(self.window_, self.changes())
        if why:
            self.error.setText(why)
            return False
        self.accept()
        return True


def edit_game_data(window: Any) -> GameDataDialog:
    """Game > Game Data…: the dialog (window-modal, returned)."""
    dlg = GameDataDialog(window)
    dlg.open()
    return dlg


__all__ = ["GameDataCommand", "GameDataDialog", "apply_game_data", "describe", "edit_game_data"]
