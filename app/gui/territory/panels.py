"""Docks of the territory editor: the inspector (territory attributes,
rail features, the border between two selected territories) and painting a
new territory (the rules systems' docks live in their UI packages,
``app/gui/systems/<name>/``).

Panels only show values and turn input into document edits (one undo
command each); they never change the model themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.model import ModelError
from engine.territory import BorderKind, TerritoryScenario

from .document import TerritoryDocument

NONE = "— none —"


def _set_combo(c: QComboBox, data: Any) -> None:
    i = c.findData(data)
    c.setCurrentIndex(max(0, i))


class TerritoryInspector(QWidget):
    """Edits the selected territory; with two selected, their border."""

    message = Signal(str)

    def __init__(self, doc: TerritoryDocument) -> None:
        super().__init__()
        self.doc = doc
        self.tid: str | None = None
        self.pair: tuple[str, str] | None = None
        # the form scrolls inside the dock, so its height never makes the
        # window taller than a 1366 x 768 screen
        inner = QWidget()
        lay = QVBoxLayout(inner)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self.title = QLabel("Click a territory to inspect it; ctrl-click a second one to edit their border.")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)

        self.form_box = QGroupBox("Territory")
        form = QFormLayout(self.form_box)
        self.id_label = QLabel()
        self.name = QLineEdit()
        self.value = QSpinBox()
        self.value.setRange(0, 999)
        self.sea = QCheckBox("sea zone")
        self.impassable = QCheckBox("impassable")
        self.owner = QComboBox()
        self.controller = QComboBox()
        self.since = QSpinBox()
        self.since.setRange(0, 999)
        self.since.setSpecialValueText("before the game")
        self.occupied = QLabel()
        form.addRow("Id", self.id_label)
        form.addRow("Name", self.name)
        form.addRow("Value (IPC)", self.value)
        form.addRow("", self.sea)
        form.addRow("", self.impassable)
        form.addRow("Original owner", self.owner)
        form.addRow("Controller", self.controller)
        form.addRow("Control since turn", self.since)
        form.addRow("", self.occupied)
        lay.addWidget(self.form_box)

        self.rail_box = QGroupBox("Rail (stations and railroad)")
        rf = QFormLayout(self.rail_box)
        self.has_station = QCheckBox("rail station")
        self.damage = QSpinBox()
        self.damage.setRange(0, 6)
        self.station_bought = QSpinBox()
        self.station_bought.setRange(0, 999)
        self.station_bought.setSpecialValueText("at the start")
        self.has_railroad = QCheckBox("railroad marker")
        self.railroad_bought = QSpinBox()
        self.railroad_bought.setRange(0, 999)
        self.railroad_bought.setSpecialValueText("at the start")
        rf.addRow("", self.has_station)
        rf.addRow("Damage markers", self.damage)
        rf.addRow("Station bought on turn", self.station_bought)
        rf.addRow("", self.has_railroad)
        rf.addRow("Railroad bought on turn", self.railroad_bought)
        lay.addWidget(self.rail_box)

        self.units = QListWidget()
        self.units.setMaximumHeight(110)
        lay.addWidget(QLabel("Units here"))
        lay.addWidget(self.units)

        self.border_box = QGroupBox("Border")
        bf = QFormLayout(self.border_box)
        self.border_label = QLabel()
        self.border_kind = QComboBox()
        self.border_kind.addItem("no border", None)
        for k in BorderKind:
            self.border_kind.addItem(k.value.replace("_", " "), k.value)
        self.border_name = QLineEdit()
        self.border_name.setPlaceholderText("e.g. Sahara, Strait of Messina")
        bf.addRow("Between", self.border_label)
        bf.addRow("Kind", self.border_kind)
        bf.addRow("Name", self.border_name)
        lay.addWidget(self.border_box)
        lay.addStretch(1)

        self.name.editingFinished.connect(lambda: self._edit("name", self.name.text()))
        self.value.editingFinished.connect(lambda: self._edit("value", self.value.value()))
        self.sea.clicked.connect(lambda on: self._edit("sea", bool(on)))
        self.impassable.clicked.connect(lambda on: self._edit("impassable", bool(on)))
        self.owner.activated.connect(lambda _i: self._edit("owner", self.owner.currentData()))
        self.controller.activated.connect(lambda _i: self._edit("controller", self.controller.currentData()))
        self.since.editingFinished.connect(lambda: self._edit("control_since", self.since.value()))
        self.has_station.clicked.connect(lambda on: self._feature("rail_station", {} if on else None))
        self.damage.editingFinished.connect(lambda: self._feature_key("rail_station", "damage", self.damage.value()))
        self.station_bought.editingFinished.connect(
            lambda: self._feature_key("rail_station", "purchased", self.station_bought.value() or None))
        self.has_railroad.clicked.connect(lambda on: self._feature("railroad", {} if on else None))
        self.railroad_bought.editingFinished.connect(
            lambda: self._feature_key("railroad", "purchased", self.railroad_bought.value() or None))
        self.border_kind.activated.connect(lambda _i: self._border())
        self.border_name.editingFinished.connect(self._border)
        self.set_selection([])

    def set_selection(self, tids: list[str]) -> None:
        m = self.doc.scenario.map
        tids = [t for t in tids if t in m]
        self.tid = tids[-1] if tids else None
        self.pair = (tids[0], tids[1]) if len(tids) == 2 else None
        self.refresh()

    def refresh(self) -> None:
        s = self.doc.scenario
        m = s.map
        if self.tid is not None and self.tid not in m:
            self.tid = None
        on = self.tid is not None
        self.form_box.setEnabled(on)
        self.rail_box.setEnabled(on)
        self.border_box.setVisible(self.pair is not None)
        if self.owner.count() != len(s.sides) + 1:
            self.set_scenario_sides(s)
        if not on:
            self.title.setText("Click a territory to inspect it; ctrl-click a second one to edit their border.")
            self.units.clear()
            return
        assert self.tid is not None
        t = m.territories[self.tid]
        self.title.setText(f"<b>{t.name}</b>")
        widgets = (self.name, self.value, self.sea, self.impassable, self.owner, self.controller, self.since,
                   self.has_station, self.damage, self.station_bought, self.has_railroad, self.railroad_bought,
                   self.border_kind, self.border_name)
        for w in widgets:
            w.blockSignals(True)
        self.id_label.setText(t.id)
        self.name.setText(t.name)
        self.value.setValue(t.value)
        self.sea.setChecked(t.sea)
        self.impassable.setChecked(t.impassable)
        _set_combo(self.owner, t.owner)
        _set_combo(self.controller, t.controller)
        self.since.setValue(t.control_since)
        self.occupied.setText("occupied (held by a power other than its original owner)" if t.occupied else "")
        st = t.features.get("rail_station")
        rr = t.features.get("railroad")
        self.has_station.setChecked(isinstance(st, dict))
        self.damage.setEnabled(isinstance(st, dict))
        self.station_bought.setEnabled(isinstance(st, dict))
        self.damage.setValue(int(st.get("damage", 0)) if isinstance(st, dict) else 0)
        self.station_bought.setValue(int(st.get("purchased") or 0) if isinstance(st, dict) else 0)
        self.has_railroad.setChecked(isinstance(rr, dict))
        self.railroad_bought.setEnabled(isinstance(rr, dict))
        self.railroad_bought.setValue(int(rr.get("purchased") or 0) if isinstance(rr, dict) else 0)
        if self.pair is not None:
            a, b = self.pair
            border = m.border(a, b)
            self.border_label.setText(f"{m.label(a)} – {m.label(b)}")
            _set_combo(self.border_kind, None if border is None else border.kind.value)
            self.border_name.setText((border.name or "") if border else "")
        for w in widgets:
            w.blockSignals(False)
        self.units.clear()
        for u in s.units_in(t.id):
            item = QListWidgetItem(f"{u.id}: {s.side(u.side).name} {u.type}" + (" (moved)" if u.props.get("moved")
                                                                               else ""))
            item.setData(Qt.ItemDataRole.UserRole, u.id)
            self.units.addItem(item)

    def set_scenario_sides(self, s: TerritoryScenario) -> None:
        for c in (self.owner, self.controller):
            c.blockSignals(True)
            c.clear()
            c.addItem(NONE, None)
            for f in s.sides:
                c.addItem(f.name, f.id)
            c.blockSignals(False)

    def _try(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except ModelError as e:
            self.message.emit(str(e))
            self.refresh()

    def _edit(self, field: str, value: Any) -> None:
        if self.tid is not None:
            tid = self.tid
            self._try(lambda: self.doc.set_attribute(tid, field, value))

    def _feature(self, feature: str, value: dict[str, Any] | None) -> None:
        if self.tid is not None:
            tid = self.tid
            self._try(lambda: self.doc.set_feature(tid, feature, value))

    def _feature_key(self, feature: str, key: str, value: Any) -> None:
        if self.tid is None:
            return
        cur = self.doc.scenario.map.territories[self.tid].features.get(feature)
        if not isinstance(cur, dict):
            return
        new = dict(cur)
        if value is None or (key == "damage" and value == 0):
            new.pop(key, None)
        else:
            new[key] = value
        self._feature(feature, new)

    def _border(self) -> None:
        if self.pair is None:
            return
        a, b = self.pair
        data = self.border_kind.currentData()
        kind = None if data is None else BorderKind(data)
        name = self.border_name.text().strip() or None
        self._try(lambda: self.doc.set_border(a, b, kind, name))


class PaintPanel(QWidget):
    """Paint cells of the backdrop grid, then make them a territory."""

    createRequested = Signal()
    clearRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        form = QFormLayout(self)
        self.help = QLabel("Drag on the map to paint backdrop cells (right-drag erases); the cells become the new "
                           "territory's polygon (shapely union), less what other territories already cover.")
        self.help.setWordWrap(True)
        self.tid = QLineEdit()
        self.tid.setPlaceholderText("e.g. new_land")
        self.name = QLineEdit()
        self.sea = QCheckBox("sea zone")
        self.value = QSpinBox()
        self.value.setRange(0, 999)
        self.count = QLabel("0 cells")
        self.create_button = QPushButton("Create territory")
        self.clear = QPushButton("Clear cells")
        form.addRow(self.help)
        form.addRow("Id", self.tid)
        form.addRow("Name", self.name)
        form.addRow("Value", self.value)
        form.addRow("", self.sea)
        form.addRow("Painted", self.count)
        form.addRow(self.create_button)
        form.addRow(self.clear)
        self.create_button.clicked.connect(self.createRequested.emit)
        self.clear.clicked.connect(self.clearRequested.emit)


__all__ = ["PaintPanel", "TerritoryInspector"]
