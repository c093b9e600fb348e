"""The recovery list: every autosave found at start-up, each with its map
name, original file, time, the window kind that opens it and any problem,
and a choice per row — Recover, Later (kept, offered again at the next
start) or Discard (deleted; only ever by this explicit choice).  "Decide
later" keeps them all (``docs/reliability.md``)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..autosave import KIND_NAMES, Recovery, printable

CHOICES: list[tuple[str, bool | None]] = [("Recover", True), ("Later", None), ("Discard", False)]
"""The per-row choices and what :meth:`RecoveryDialog.answers` gives for
each (``True`` recover, ``None`` keep for later, ``False`` discard)."""


@dataclass
class RecoveryRow:
    """One autosave as the list shows it: the recovery, the scenario read
    from it (``None`` when it cannot be read) and what went wrong."""

    recovery: Recovery
    scenario: Any = None
    kind: str | None = None
    problems: list[str] = field(default_factory=list)

    def cells(self) -> list[str]:
        rec = self.recovery
        return [printable(rec.name),
                printable(rec.original) if rec.original else "(never saved)",
                time.strftime("%Y-%m-%d %H:%M", time.localtime(rec.saved_at)) if rec.saved_at else "unknown",
                KIND_NAMES.get(self.kind or "", "unknown (cannot be read)"),
                "; ".join(list(rec.problems) + self.problems)]


class RecoveryDialog(QDialog):
    """The list; :meth:`answers` gives each row's choice by data path."""

    HEADERS: ClassVar[list[str]] = ["Map", "Original file", "Autosaved", "Opens in", "Notes", "Action"]

    def __init__(self, rows: list[RecoveryRow], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recover unsaved work")
        self.rows = rows
        n = len(rows)
        text = QLabel(f"Adjutant did not close normally. {n} autosave{'s were' if n != 1 else ' was'} found; "
                      "choose what to do with each. Nothing is deleted unless you choose Discard; "
                      "work left for later is offered again at the next start.")
        text.setWordWrap(True)
        self.table = QTableWidget(n, len(self.HEADERS), self)
        self.table.setHorizontalHeaderLabels(self.HEADERS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.combos: list[QComboBox] = []
        for r, row in enumerate(rows):
            for c, value in enumerate(row.cells()):
                item = QTableWidgetItem(value)
                item.setToolTip(value)
                self.table.setItem(r, c, item)
            combo = QComboBox(self.table)
            for label, _ in CHOICES:
                combo.addItem(label)
            if row.scenario is None:
                combo.setCurrentIndex(1)  # unreadable: kept unless discarded on purpose
            self.table.setCellWidget(r, len(self.HEADERS) - 1, combo)
            self.combos.append(combo)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(self)
        buttons.addButton("Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton("Decide later", QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(900, 160 + 30 * min(n, 10))

    def set_choice(self, row: int, choice: bool | None) -> None:
        self.combos[row].setCurrentIndex([c for _, c in CHOICES].index(choice))

    def answers(self) -> dict[Path, bool | None]:
        """Each row's choice (accepted dialog) or ``None`` for all (rejected:
        decide later)."""
        accepted = self.result() == QDialog.DialogCode.Accepted
        return {row.recovery.data: CHOICES[combo.currentIndex()][1] if accepted else None
                for row, combo in zip(self.rows, self.combos)}

    @classmethod
    def choose(cls, parent: QWidget | None, rows: list[RecoveryRow]) -> dict[Path, bool | None]:
        dialog = cls(rows, parent)
        dialog.exec()
        return dialog.answers()


__all__ = ["CHOICES", "RecoveryDialog", "RecoveryRow"]
