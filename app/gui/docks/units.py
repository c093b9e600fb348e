"""The units list: every unit with side, type, factors and cell; selecting
one selects it on the map; double-click centres the map on it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..tools.base import EditorState
from ..tools.units import add_unit, delete_unit, edit_unit
from .palette import swatch


class UnitsPanel(QWidget):
    def __init__(self, state: EditorState, canvas: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.canvas = canvas
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.tree = QTreeWidget()
        self.tree.setObjectName("unitTree")
        self.tree.setHeaderLabels(["Id", "Side", "Type", "Factors", "Cell"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSortingEnabled(True)
        self.tree.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.tree.itemSelectionChanged.connect(self._selected)
        self.tree.itemDoubleClicked.connect(self._centre)
        lay.addWidget(self.tree)
        row = QHBoxLayout()
        self.add_button = QPushButton("Add…")
        self.edit_button = QPushButton("Edit…")
        self.delete_button = QPushButton("Delete")
        self.add_button.setToolTip("Add a unit at the selected cell")
        self.add_button.clicked.connect(self._add)
        self.edit_button.clicked.connect(lambda: state.selected_unit and edit_unit(state, state.selected_unit))
        self.delete_button.clicked.connect(lambda: state.selected_unit and delete_unit(state, state.selected_unit))
        for b in (self.add_button, self.edit_button, self.delete_button):
            row.addWidget(b)
        lay.addLayout(row)
        state.document.unitsChanged.connect(self._units_changed)
        state.document.scenarioReplaced.connect(lambda _s: self.rebuild())
        state.selectedUnitChanged.connect(self._select)
        self._updating = False
        self.rebuild()

    def _units_changed(self, ids: Any) -> None:
        """Units changed: their rows are written again, or the whole list
        when units came or went."""
        s = self.state.document.scenario
        rows: dict[Any, QTreeWidgetItem] = {}
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None:
                rows[item.data(0, Qt.ItemDataRole.UserRole)] = item
        by_id = {u.id: u for u in s.units}
        if rows.keys() != by_id.keys() or not isinstance(ids, (set, frozenset, list, tuple)):
            self.rebuild()
            return
        self._updating = True
        for uid in ids:
            if uid in by_id:
                self._fill(rows[uid], by_id[uid])
        self._updating = False

    def _fill(self, item: QTreeWidgetItem, u: Any) -> None:
        """Write unit ``u``'s row."""
        s = self.state.document.scenario
        side = next((f for f in s.sides if f.id == u.side), None)
        for col, text in enumerate((u.id, side.name if side is not None else u.side, u.type, str(u.strength),
                                    s.map.label(u.at))):
            if item.text(col) != text:
                item.setText(col, text)
        item.setIcon(1, swatch(side.color if side is not None else "#888888", 12))
        item.setData(0, Qt.ItemDataRole.UserRole, u.id)
        item.setToolTip(0, u.name or "")

    def rebuild(self) -> None:
        self._updating = True
        s = self.state.document.scenario
        self.tree.setSortingEnabled(False)
        self.tree.clear()
        for u in s.units:
            item = QTreeWidgetItem()
            self._fill(item, u)
            self.tree.addTopLevelItem(item)
        self.tree.setSortingEnabled(True)
        for i in range(5):
            self.tree.resizeColumnToContents(i)
        self._updating = False
        self._select(self.state.selected_unit)

    def _selected(self) -> None:
        if self._updating:
            return
        items = self.tree.selectedItems()
        if items:
            self.state.select_unit(items[0].data(0, Qt.ItemDataRole.UserRole))

    def _select(self, unit_id: str | None) -> None:
        self._updating = True
        self.tree.clearSelection()
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == unit_id:
                item.setSelected(True)
                self.tree.scrollToItem(item)
        self._updating = False
        self.edit_button.setEnabled(unit_id is not None)
        self.delete_button.setEnabled(unit_id is not None)

    def _centre(self, item: QTreeWidgetItem) -> None:
        try:
            unit = self.state.document.scenario.unit(item.data(0, Qt.ItemDataRole.UserRole))
        except ValueError:
            return
        self.canvas.center_on(unit.at)

    def _add(self) -> None:
        cell = self.state.selected_cell
        if cell is None:
            self.state.say("Select a cell on the map first (or use the unit tool).")
            return
        add_unit(self.state, cell)
