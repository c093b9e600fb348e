"""An error dialog that lists every problem (e.g. a loader's messages) in a
selectable, copyable list: never a traceback."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class ErrorDialog(QDialog):
    """``summary`` in bold, then ``problems`` one per line."""

    def __init__(self, parent: QWidget | None, title: str, summary: str, problems: Sequence[str] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("errorDialog")
        self.summary = summary
        self.problems = [str(p) for p in problems]
        lay = QVBoxLayout(self)
        head = QLabel(f"<b>{_escape(summary)}</b>")
        head.setWordWrap(True)
        lay.addWidget(head)
        if self.problems:
            box = QPlainTextEdit("\n".join(self.problems))
            box.setReadOnly(True)
            box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # a long problem wraps, never scrolls away
            box.setMinimumSize(560, min(320, 40 + 18 * len(self.problems)))
            lay.addWidget(box)
            self.text = box
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("Copy")
        copy.clicked.connect(self.copy)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        lay.addWidget(buttons)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText("\n".join([self.summary, *self.problems]))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
