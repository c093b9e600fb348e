"""The new-map dialog: name, grid kind and size, hex orientation and
parity (or square neighbours), numbering scheme, and the ruleset (with its
sides) to start from.  :meth:`NewMapDialog.scenario` builds the blank
scenario with :func:`engine.editing.new_scenario`."""

from __future__ import annotations

import copy
from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from engine.editing import new_scenario
from engine.grids import Cell
from engine.io import ScenarioError, load_scenario
from engine.model import Faction, Ruleset, Scenario
from engine.numbering import numbering_from_dict
from engine.paths import MAPS

BUILT_IN = "basic"
CURRENT = "current"
FROM_FILE = "file"


class NewMapDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, current: Scenario | None = None,
                 maps_dir: Path = MAPS) -> None:
        super().__init__(parent)
        self.setWindowTitle("New map")
        self.setObjectName("newMapDialog")
        self.current = current
        form = QFormLayout(self)
        self.name = QLineEdit("Untitled")
        self.kind = QComboBox()
        self.kind.addItem("Hex", "hex")
        self.kind.addItem("Square", "square")
        self.columns = QSpinBox()
        self.columns.setRange(1, 4096)
        self.columns.setValue(30)
        self.rows = QSpinBox()
        self.rows.setRange(1, 4096)
        self.rows.setValue(20)
        self.orientation = QComboBox()
        self.orientation.addItem("Flat-top (columns)", "flat")
        self.orientation.addItem("Pointy-top (rows)", "pointy")
        self.parity = QComboBox()
        self.parity.addItem("Odd columns/rows shoved", "odd")
        self.parity.addItem("Even columns/rows shoved", "even")
        self.neighbours = QComboBox()
        self.neighbours.addItem("8 (diagonals touch)", 8)
        self.neighbours.addItem("4 (sides only)", 4)
        self.scheme = QComboBox()
        self.scheme.addItem("CCRR hex numbers (0101)", "ccrr")
        self.scheme.addItem("Numeric column-row (1-1)", "numeric")
        self.scheme.addItem("CWOL letter-digit pairs (A0-A0)", "cwol")
        self.first = QSpinBox()
        self.first.setRange(0, 259)
        self.first.setValue(1)
        self.example = QLabel()
        self.ruleset = QComboBox()
        self.ruleset.addItem("Basic (built in): clear, forest, hills… two sides", BUILT_IN)
        if current is not None:
            self.ruleset.addItem(f"Same as the current map ({current.ruleset.name})", CURRENT)
        for p in sorted(maps_dir.glob("*.json")) if maps_dir.is_dir() else []:
            self.ruleset.addItem(f"Ruleset and sides of {p.name}", str(p))
        self.ruleset.addItem("From a scenario file…", FROM_FILE)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c0392b")
        self.error.setWordWrap(True)
        form.addRow("Name", self.name)
        form.addRow("Grid", self.kind)
        form.addRow("Columns", self.columns)
        form.addRow("Rows", self.rows)
        form.addRow("Hex orientation", self.orientation)
        form.addRow("Hex parity", self.parity)
        form.addRow("Square neighbours", self.neighbours)
        form.addRow("Numbering", self.scheme)
        form.addRow("First number", self.first)
        form.addRow("Labels", self.example)
        form.addRow("Ruleset", self.ruleset)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._form = form
        self._file_ruleset: tuple[Ruleset, list[Faction]] | None = None
        self._built: Scenario | None = None
        for w in (self.kind, self.scheme, self.orientation, self.parity, self.neighbours):
            w.currentIndexChanged.connect(self._update)
        for s in (self.columns, self.rows, self.first):
            s.valueChanged.connect(self._update)
        self._update()

    # -- the form --------------------------------------------------------
    def set_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def _update(self) -> None:
        hexes = self.kind.currentData() == "hex"
        for w, show in ((self.orientation, hexes), (self.parity, hexes), (self.neighbours, not hexes)):
            w.setEnabled(show)
        self.scheme.setItemText(self.scheme.findData("ccrr"), f"CCRR {'hex' if hexes else 'square'} numbers (0101)")
        self.first.setEnabled(self.scheme.currentData() != "cwol")
        try:
            num = numbering_from_dict(self.numbering())
            last = Cell(self.columns.value() - 1, self.rows.value() - 1)
            self.example.setText(f"{num.label(Cell(0, 0))} … {num.label(last)}")
        except ValueError as e:
            self.example.setText(str(e))

    def grid(self) -> dict[str, object]:
        kind = self.kind.currentData()
        g: dict[str, object] = {"kind": kind, "width": self.columns.value(), "height": self.rows.value()}
        if kind == "hex":
            g.update(orientation=self.orientation.currentData(), parity=self.parity.currentData())
        else:
            g["neighbours"] = self.neighbours.currentData()
        return g

    def numbering(self) -> dict[str, object]:
        scheme = self.scheme.currentData()
        if scheme == "cwol":
            return {"scheme": "cwol"}
        if scheme == "ccrr":
            side = max(self.columns.value(), self.rows.value()) + self.first.value()
            return {"scheme": "ccrr", "first": self.first.value(), "digits": max(2, len(str(side - 1)))}
        return {"scheme": "numeric", "first": self.first.value()}

    def chosen_ruleset(self) -> tuple[Ruleset | None, list[Faction] | None]:
        """The ruleset and sides to start from (``None``: the built-in one).
        Raises :class:`ScenarioError` when the chosen file cannot be loaded."""
        choice = self.ruleset.currentData()
        if choice == BUILT_IN:
            return None, None
        if choice == CURRENT and self.current is not None:
            return copy.deepcopy(self.current.ruleset), copy.deepcopy(self.current.sides)
        if choice == FROM_FILE:
            if self._file_ruleset is None:
                path, _ = QFileDialog.getOpenFileName(self, "Ruleset from scenario", "", "Scenarios (*.json)")
                if not path:
                    raise ValueError("choose a scenario file whose ruleset to use")
                src = load_scenario(path)
                self._file_ruleset = (src.ruleset, src.sides)
            return copy.deepcopy(self._file_ruleset[0]), copy.deepcopy(self._file_ruleset[1])
        src = load_scenario(str(choice))
        return src.ruleset, src.sides

    def scenario(self) -> Scenario:
        """The blank scenario the form describes; raises ``ValueError`` (with
        a message for the person) when it cannot be made."""
        ruleset, sides = self.chosen_ruleset()
        return new_scenario(self.name.text(), self.grid(), self.numbering(), ruleset, sides)

    def _accept(self) -> None:
        try:
            self._built = self.scenario()
        except ScenarioError as e:
            self.error.setText("\n".join(str(p) for p in e.problems[:5]))
            return
        except ValueError as e:
            self.error.setText(str(e))
            return
        self.accept()

    def built(self) -> Scenario | None:
        """The scenario made when the dialog was accepted."""
        return self._built
