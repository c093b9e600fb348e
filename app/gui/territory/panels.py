"""Docks of the territory editor: the inspector (territory attributes,
rail features, the border between two selected territories), rail plan
(orders, verdict, a pyqtgraph chart of capacity along the routes), rail
options (the option, where the selected unit can rail, what capacity is
left) and painting a new territory.

Panels only show values and turn input into document edits (one undo
command each); they never change the model themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.model import ModelError
from engine.rules.rail_options import OPTION_NAMES, NationLoad, RailReach, StationLoad
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


class RailPlanPanel(QWidget):
    """Orders, the verdict, and a bar chart of used against available
    capacity along the routes."""

    removeRequested = Signal(int)
    clearRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        lay = QHBoxLayout(self)
        left = QVBoxLayout()
        self.help = QLabel("Drag a unit (or a stack) to a territory to order it there by rail.")
        self.help.setWordWrap(True)
        self.orders = QListWidget()
        self.verdict = QLabel("")
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        self.remove = QPushButton("Remove order")
        self.clear = QPushButton("Clear orders")
        buttons.addWidget(self.remove)
        buttons.addWidget(self.clear)
        left.addWidget(self.help)
        left.addWidget(self.orders, 1)
        left.addLayout(buttons)
        left.addWidget(self.verdict)
        lay.addLayout(left, 2)
        self.chart = pg.PlotWidget(background="w")
        self.chart.setMinimumHeight(160)
        self.chart.setTitle("Rail capacity along the routes: grey available, blue used, magenta full",
                            color="#222", size="9pt")
        self.chart.showGrid(y=True, alpha=0.3)
        self.chart.setMouseEnabled(x=False, y=False)
        self.chart.hideButtons()
        lay.addWidget(self.chart, 3)
        self._tick_font = self.font()
        self._tick_font.setPixelSize(10)
        self.bars_cap: pg.BarGraphItem | None = None
        self.bars_used: pg.BarGraphItem | None = None
        self.remove.clicked.connect(lambda: self.removeRequested.emit(self.orders.currentRow()))
        self.clear.clicked.connect(self.clearRequested.emit)

    def set_orders(self, texts: list[str]) -> None:
        self.orders.clear()
        for i, t in enumerate(texts):
            self.orders.addItem(f"{i + 1}. {t}")

    def set_verdict(self, text: str, ok: bool | None) -> None:
        color = "#1c6b2a" if ok else ("#a01010" if ok is False else "#333333")
        self.verdict.setText(text)
        self.verdict.setStyleSheet(f"color: {color}")

    def set_chart(self, data: list[tuple[str, int, int]]) -> None:
        """``data``: (territory name, used, capacity) in route order."""
        self.chart.clear()
        if not data:
            self.bars_cap = self.bars_used = None
            self.chart.getAxis("bottom").setTicks(None)  # no names of a previous plan (or map) left behind
            return
        xs = list(range(len(data)))
        cap = [c for _, _, c in data]
        used = [u for _, u, _ in data]
        self.bars_cap = pg.BarGraphItem(x=xs, height=cap, width=0.75, brush=pg.mkBrush("#c9c9c9"),
                                        pen=pg.mkPen("#888888"), name="available")
        brushes = [pg.mkBrush("#e0007a" if u >= c > 0 else "#3b7dd8") for u, c in zip(used, cap, strict=True)]
        self.bars_used = pg.BarGraphItem(x=xs, height=used, width=0.45, brushes=brushes, pen=pg.mkPen("#222222"),
                                         name="used")
        self.chart.addItem(self.bars_cap)
        self.chart.addItem(self.bars_used)
        axis = self.chart.getAxis("bottom")
        axis.setStyle(tickFont=self._tick_font)
        axis.setTicks([[(i, _short(n)) for i, (n, _, _) in enumerate(data)]])
        self.chart.setYRange(0, max(cap + used + [1]) * 1.1)
        self.chart.setXRange(-0.6, len(data) - 0.4)


def _short(name: str) -> str:
    words = name.replace("/", " ").split()
    if len(words) > 1:
        return "".join(w[0].upper() for w in words)
    return name if len(name) <= 7 else name[:6] + "."


class RailOptionsPanel(QWidget):
    """The rail option, where the selected unit can rail, and the capacity
    left: each nation's, each station's, Option 4's points."""

    optionChosen = Signal(int)
    destinationChosen = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Option"))
        self.option = QComboBox()
        for n, name in OPTION_NAMES.items():
            self.option.addItem(name, n)
        row.addWidget(self.option, 1)
        lay.addLayout(row)
        self.unit = QLabel("Click a unit counter to see where it can rail.")
        self.unit.setWordWrap(True)
        lay.addWidget(self.unit)
        self.reach = QListWidget()
        lay.addWidget(self.reach, 2)
        lay.addWidget(QLabel("Nations: rail capacity this turn"))
        self.nations = QTableWidget(0, 4)
        self.nations.setHorizontalHeaderLabels(["nation", "used", "limit", "left"])
        self.nations.verticalHeader().setVisible(False)
        lay.addWidget(self.nations, 2)
        lay.addWidget(QLabel("Stations: throughput this turn"))
        self.stations = QTableWidget(0, 4)
        self.stations.setHorizontalHeaderLabels(["station", "used", "limit", "left"])
        self.stations.verticalHeader().setVisible(False)
        lay.addWidget(self.stations, 2)
        self.option.activated.connect(lambda _i: self.optionChosen.emit(int(self.option.currentData())))
        self.reach.itemActivated.connect(
            lambda it: self.destinationChosen.emit(str(it.data(Qt.ItemDataRole.UserRole))))

    def set_option(self, n: int) -> None:
        self.option.blockSignals(True)
        _set_combo(self.option, n)
        self.option.blockSignals(False)

    def set_reach(self, s: TerritoryScenario, r: RailReach | None, error: str = "") -> None:
        self.reach.clear()
        if r is None:
            self.unit.setText(error or "Click a unit counter to see where it can rail.")
            return
        m = s.map
        head = f"{r.unit} from {m.label(r.start)}"
        if r.max_cost is not None:
            head += f" (at most {r.max_cost})"
        self.unit.setText(head + (f": {r.reason}" if r.reason else f": {len(r.destinations)} territories"))
        for d in r.destinations:
            item = QListWidgetItem(f"{m.label(d.territory)} — {d.cost} space{'s' if d.cost != 1 else ''}: "
                                   + " > ".join(m.label(x) for x in d.path))
            item.setData(Qt.ItemDataRole.UserRole, d.territory)
            self.reach.addItem(item)

    def reachable(self) -> list[str]:
        """Names of the territories listed (as the CLI lists them)."""
        return [self.reach.item(i).text().split(" — ")[0] for i in range(self.reach.count())]

    def set_loads(self, s: TerritoryScenario, nations: list[NationLoad], stations: list[StationLoad]) -> None:
        self.nations.setRowCount(len(nations))
        for i, n in enumerate(nations):
            vals = [s.side(n.nation).name, f"{n.used} {n.unit}", "—" if n.limit is None else str(n.limit),
                    "—" if n.left is None else str(n.left)]
            for j, v in enumerate(vals):
                item = QTableWidgetItem(v)
                if j == 0:
                    item.setToolTip(n.basis)
                self.nations.setItem(i, j, item)
        self.stations.setRowCount(len(stations))
        for i, st in enumerate(stations):
            for j, v in enumerate([s.map.label(st.territory), str(st.used), str(st.limit), str(st.left)]):
                self.stations.setItem(i, j, QTableWidgetItem(v))
        self.nations.resizeColumnsToContents()
        self.stations.resizeColumnsToContents()

    def nation_left(self, name: str) -> str | None:
        for i in range(self.nations.rowCount()):
            item, left = self.nations.item(i, 0), self.nations.item(i, 3)
            if item is not None and left is not None and item.text() == name:
                return left.text()
        return None


class RailToolPanel(QWidget):
    """Tool options of the Station and Railroad tools: the turn new pieces
    were bought, and (Station tool) the selected station's damage markers
    and purchase turn."""

    damageEdited = Signal(int)
    boughtEdited = Signal(int)
    removeRequested = Signal()

    HELP: ClassVar[dict[str, str]] = {
        "station": "Click a land territory to place a rail station; click a station to select it and edit it "
                   "below; right-click a station to remove it.",
        "railroad": "Click or drag across land territories to lay railroad markers (one undo step a drag); "
                    "click a marker to remove it; right-click or right-drag removes; shift-click lays markers "
                    "along the shortest land route from the last one laid.",
    }

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        self.help = QLabel(self.HELP["station"])
        self.help.setWordWrap(True)
        lay.addWidget(self.help)
        new_box = QGroupBox("New stations and markers")
        nf = QFormLayout(new_box)
        self.bought = QSpinBox()
        self.bought.setRange(0, 999)
        self.bought.setSpecialValueText("at the start")
        self.bought.setToolTip("The turn new pieces were bought (a piece bought this turn cannot be used "
                               "before next turn); 'at the start' is part of the setup")
        nf.addRow("Bought on turn", self.bought)
        lay.addWidget(new_box)
        self.station_box = QGroupBox("Selected station")
        sf = QFormLayout(self.station_box)
        self.station = QLabel("Click a station to select it.")
        self.station.setWordWrap(True)
        self.damage = QSpinBox()
        self.damage.setRange(0, 6)
        self.damage.setKeyboardTracking(False)
        self.damage.setToolTip("Damage markers on the station (3 or more: inoperable under Options 1 and 3)")
        self.station_bought = QSpinBox()
        self.station_bought.setRange(0, 999)
        self.station_bought.setSpecialValueText("at the start")
        self.station_bought.setKeyboardTracking(False)
        self.remove = QPushButton("Remove station")
        sf.addRow(self.station)
        sf.addRow("Damage markers", self.damage)
        sf.addRow("Bought on turn", self.station_bought)
        sf.addRow(self.remove)
        lay.addWidget(self.station_box)
        lay.addStretch(1)
        self.damage.valueChanged.connect(self.damageEdited.emit)
        self.station_bought.valueChanged.connect(self.boughtEdited.emit)
        self.remove.clicked.connect(self.removeRequested.emit)
        self.show_station(None, None)

    def set_tool(self, tool: str) -> None:
        """Show the options of ``tool`` (``station`` or ``railroad``)."""
        self.help.setText(self.HELP.get(tool, ""))
        self.station_box.setVisible(tool == "station")

    def show_station(self, name: str | None, station: dict[str, Any] | None, top: int = 6) -> None:
        """Show the selected station (``None``: no station selected)."""
        on = station is not None
        for w in (self.damage, self.station_bought):
            w.blockSignals(True)
        self.damage.setMaximum(top)
        self.damage.setValue(int(station.get("damage", 0)) if station is not None else 0)
        bought = station.get("purchased") if station is not None else None
        self.station_bought.setValue(bought if isinstance(bought, int) and not isinstance(bought, bool) else 0)
        for w in (self.damage, self.station_bought):
            w.blockSignals(False)
        self.station.setText(f"<b>{name}</b>" if on and name else "Click a station to select it.")
        for widget in (self.damage, self.station_bought, self.remove):
            widget.setEnabled(on)


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


__all__ = ["PaintPanel", "RailOptionsPanel", "RailPlanPanel", "RailToolPanel", "TerritoryInspector"]
