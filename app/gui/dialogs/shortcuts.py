"""Help > Keyboard Shortcuts: every key of a window, read from its menus
(:meth:`app.gui.editor_window.EditorWindow.shortcut_rows`), so the list
cannot drift from what the keys do, and the map's mouse gestures
(:data:`app.gui.map_view.MOUSE_GESTURES`)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..map_view import MOUSE_GESTURES

HEADERS = ("Menu", "Command", "Keys")


class ShortcutsDialog(QDialog):
    """A table of ``(menu, command, keys)`` rows, then the mouse gestures;
    selectable, and "Copy" puts it on the clipboard as text."""

    def __init__(self, parent: QWidget | None, rows: Sequence[tuple[str, str, str]]) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.setObjectName("shortcutsDialog")
        self.rows = [*rows, *MOUSE_GESTURES]
        table = QTableWidget(len(self.rows), len(HEADERS))
        table.setHorizontalHeaderLabels(list(HEADERS))
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setWordWrap(True)
        for r, row in enumerate(self.rows):
            for c, text in enumerate(row):
                table.setItem(r, c, QTableWidgetItem(text))
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        table.setMinimumSize(520, 360)
        self.table = table
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("Copy")
        copy.clicked.connect(self.copy)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(table)
        lay.addWidget(buttons)

    def text(self) -> str:
        """The table as text, one "menu: command — keys" line a row."""
        return "\n".join(f"{m}: {c} \u2014 {k}" for m, c, k in self.rows)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
