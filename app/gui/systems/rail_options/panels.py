"""The docks of Rail Options 1-4: the option, where the selected unit can
rail and what capacity is left (:class:`RailOptionsPanel`), and the Station
and Railroad tools' options (:class:`RailToolPanel`).  They only show values
and turn input into requests; they never change the model themselves."""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.rules.rail_options import OPTION_NAMES, NationLoad, RailReach, StationLoad
from engine.territory import TerritoryScenario


def _set_combo(c: QComboBox, data: Any) -> None:
    i = c.findData(data)
    c.setCurrentIndex(max(0, i))


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
        # a long rail path wraps to the dock's width (the window's side column), whole in its tooltip too
        self.reach.setWordWrap(True)
        self.reach.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.reach.setResizeMode(QListWidget.ResizeMode.Adjust)
        lay.addWidget(self.reach, 2)
        lay.addWidget(QLabel("Nations: rail capacity this turn"))
        self.nations = QTableWidget(0, 4)
        self.nations.setHorizontalHeaderLabels(["nation", "used", "limit", "left"])
        self.nations.verticalHeader().setVisible(False)
        lay.addWidget(self.nations, 0)
        lay.addWidget(QLabel("Stations: throughput this turn"))
        self.stations = QTableWidget(0, 4)
        self.stations.setHorizontalHeaderLabels(["station", "used", "limit", "left"])
        self.stations.verticalHeader().setVisible(False)
        lay.addWidget(self.stations, 2)
        for t in (self.nations, self.stations):  # rows as tall as their text, not Qt's roomy default
            t.verticalHeader().setDefaultSectionSize(t.fontMetrics().height() + 6)
        self._fit_nations()
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
            item.setToolTip(item.text())
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
        self._fit_nations()

    NATION_ROWS = 8
    """The most nations' rows the panel keeps in view at once (more scroll)."""

    def _fit_nations(self) -> None:
        """The nations' table exactly as tall as its rows (at most
        :data:`NATION_ROWS`, at least one), so none shows cut; the
        stations' table and the rail list take the height left."""
        t = self.nations
        rows = max(1, min(t.rowCount(), self.NATION_ROWS))
        height = (t.horizontalHeader().sizeHint().height() + rows * t.verticalHeader().defaultSectionSize()
                  + 2 * t.frameWidth())
        t.setMinimumHeight(height)
        t.setMaximumHeight(height if t.rowCount() <= self.NATION_ROWS else 16777215)

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


__all__ = ["RailOptionsPanel", "RailToolPanel"]
