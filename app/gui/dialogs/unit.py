"""Add or edit a unit: id, side, type, factors (strength), name, cell."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from engine.model import ModelError, Scenario, Unit


class UnitDialog(QDialog):
    def __init__(self, parent: QWidget | None, scenario: Scenario, unit: Unit, new: bool) -> None:
        super().__init__(parent)
        self.scenario = scenario
        self.unit = unit
        self.setWindowTitle("Add unit" if new else f"Edit unit {unit.id}")
        form = QFormLayout(self)
        self.id = QLineEdit(unit.id)
        self.name = QLineEdit(unit.name or "")
        self.name.setPlaceholderText("optional, e.g. 1st Brigade")
        self.side = QComboBox()
        for f in scenario.sides:
            self.side.addItem(f.name, f.id)
        i = self.side.findData(unit.side)
        self.side.setCurrentIndex(max(0, i))
        self.type = QComboBox()
        self.type.setEditable(not scenario.ruleset.unit_types)
        for t in scenario.ruleset.unit_types:
            self.type.addItem(t.name, t.id)
        j = self.type.findData(unit.type)
        if j >= 0:
            self.type.setCurrentIndex(j)
        elif self.type.isEditable():
            self.type.setEditText(unit.type)
        self.strength = QSpinBox()
        self.strength.setRange(0, 99999)
        self.strength.setValue(unit.strength)
        self.at = QLineEdit(scenario.map.label(unit.at))
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c0392b")
        form.addRow("Id", self.id)
        form.addRow("Name", self.name)
        form.addRow("Side", self.side)
        form.addRow("Type", self.type)
        form.addRow("Factors", self.strength)
        form.addRow("Cell", self.at)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def result_unit(self) -> Unit:
        """The unit as entered; raises :class:`ModelError` for a bad cell."""
        at = self.scenario.map.parse_label(self.at.text())
        type_id = self.type.currentData() if not self.type.isEditable() else self.type.currentText().strip()
        return Unit(self.id.text().strip(), str(self.side.currentData() or ""), str(type_id or ""), at,
                    self.strength.value(), self.name.text().strip() or None, dict(self.unit.props))

    def _accept(self) -> None:
        try:
            self.result_unit()
        except ModelError as e:
            self.error.setText(str(e))
            return
        self.accept()


def ask_unit(parent: Any, scenario: Scenario, unit: Unit, new: bool) -> Unit | None:
    dlg = UnitDialog(parent if isinstance(parent, QWidget) else None, scenario, unit, new)
    return dlg.result_unit() if dlg.exec() == QDialog.DialogCode.Accepted else None
