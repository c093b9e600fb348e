"""Edit > Go to (Ctrl+G), both editors: type a cell label, a
place name, a territory or a unit id, with completion; the map centres on it
and flashes it.  What a name points at is decided by :mod:`engine.goto`; a
name that points at nothing is said in the dialog, which stays open."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCompleter, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from engine.model import ModelError


class GotoDialog(QDialog):
    """Ask for a name and hand it to ``go``, which centres the map on what it
    names and returns a short line saying what was found, or raises
    :class:`ModelError`; the error's message is shown under the field and
    the dialog stays open to try again."""

    def __init__(self, parent: QWidget | None, names: list[str], go: Callable[[str], str], hint: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Go To")
        self._go = go
        self.found = ""
        self.field = QLineEdit()
        self.field.setPlaceholderText(hint)
        self.completer = QCompleter(names, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.field.setCompleter(self.completer)
        self.message = QLabel(hint)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Go to:"))
        lay.addWidget(self.field)
        lay.addWidget(self.message)
        lay.addWidget(buttons)
        self.setMinimumWidth(360)

    def go(self, text: str) -> bool:
        """Go to ``text``; True when it named something (the dialog may
        close), False with the reason shown in the dialog."""
        try:
            self.found = self._go(text)
        except ModelError as e:
            self.message.setText(str(e))
            self.message.setStyleSheet("color: #b00020")
            return False
        return True

    def accept(self) -> None:
        if self.go(self.field.text()):
            super().accept()
