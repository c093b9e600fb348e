"""Name a cell: place name and optional short code."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

from engine.grids import Cell
from engine.model import Place, Scenario


class PlaceDialog(QDialog):
    def __init__(self, parent: QWidget | None, scenario: Scenario, cell: Cell, place: Place | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Place at {scenario.map.label(cell)}")
        form = QFormLayout(self)
        self.name = QLineEdit(place.name if place else "")
        self.name.setPlaceholderText("e.g. Richmond (empty: no place)")
        self.code = QLineEdit(place.code or "" if place else "")
        self.code.setPlaceholderText("optional short code, e.g. R")
        self.code.setMaxLength(8)
        form.addRow("Name", self.name)
        form.addRow("Code", self.code)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> tuple[str, str]:
        return self.name.text().strip(), self.code.text().strip()


def ask_place(parent: Any, scenario: Scenario, cell: Cell, place: Place | None) -> tuple[str, str] | None:
    dlg = PlaceDialog(parent if isinstance(parent, QWidget) else None, scenario, cell, place)
    return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None
