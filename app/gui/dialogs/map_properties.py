"""File > Map Properties… of the grid editor: the map's name, grid and size,
and its **numbering designer**.

A preset picks a scheme real games use (GITM's ``3-1``, CWOL's ``E6-Y4``,
CCRR ``0101``, Squad Leader's lettered columns, Avalon Hill's oblique hex
numbering, board prefixes ``A0101``); the fields below it describe any
``axes`` numbering (:mod:`engine.numbering`: per axis letters or numbers,
start, width, descending; which axis first; separator; oblique; boards),
and changing one makes the choice "Custom".  The preview shows the labels of
the four corners and the centre as the fields change, or what is wrong
(a scheme that cannot label every cell, labels that could be read two ways).
OK replaces the numbering as one undoable edit
(:func:`engine.editing.plan_numbering`), so every label the editor shows —
status bar, inspector, journal, exports — follows; Cancel changes nothing.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.editing import plan_numbering
from engine.grids import Cell
from engine.labels import LabelError, Numbering
from engine.model import Scenario
from engine.numbering import numbering_from_dict

STYLES = {"number": "Numbers", "letters": "Letters (A…Z, AA, BB…)", "alpha": "Letters (A…Z, AA, AB…)"}


def presets(scenario: Scenario) -> dict[str, dict[str, Any] | None]:
    """The designer's presets for this map (``None``: the custom fields)."""
    m = scenario.map
    g = m.grid
    orientation = getattr(g, "orientation", None)
    parity = getattr(getattr(g, "parity", None), "value", "odd")
    slanted = "row" if getattr(orientation, "value", "flat") == "flat" else "col"
    out: dict[str, dict[str, Any] | None] = {
        "This map's numbering": m.numbering.to_dict(),
        "GITM numeric (3-1)": {"scheme": "numeric", "first": 1, "separator": "-", "order": "col-row"},
        "CWOL letter-digit pairs (E6-Y4)": {"scheme": "cwol", "first_col": 0, "first_row": 0},
        "Hex numbers CCRR (0101)": {"scheme": "ccrr", "first": 1, "digits": 2 if max(m.width, m.height) < 100 else 3,
                                    "order": "col-row", "separator": ""},
        "Lettered columns (A1, AA1: Squad Leader)": {
            "scheme": "axes", "col": {"style": "letters", "start": 0}, "row": {"style": "number", "start": 1},
            "first": "col", "separator": ""},
    }
    if g.kind.value == "hex":
        out["Avalon Hill oblique (A1, B1, C2…)"] = {
            "scheme": "axes", "col": {"style": "alpha", "start": 0},
            "row": {"style": "number", "start": 1},
            "first": "col", "separator": "",
            "oblique": {"axis": slanted, "direction": "plus", "parity": parity}}
    out["Boards of 10 × 10 (A0101)"] = {
        "scheme": "axes", "col": {"style": "number", "start": 1, "width": 2},
        "row": {"style": "number", "start": 1, "width": 2}, "first": "col", "separator": "",
        "boards": {"cols": 10, "rows": 10, "across": max(1, -(-m.width // 10))}}
    out["Custom"] = None
    return out


class _AxisFields(QGroupBox):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.style_box = QComboBox()
        for key, text in STYLES.items():
            self.style_box.addItem(text, key)
        self.start = QSpinBox()
        self.start.setRange(-9999, 99999)
        self.digits = QSpinBox()
        self.digits.setRange(0, 6)
        self.digits.setSpecialValueText("no padding")
        self.descending = QCheckBox("Count down from the far edge")
        form = QFormLayout(self)
        form.addRow("Written as:", self.style_box)
        form.addRow("First value:", self.start)
        form.addRow("Digits:", self.digits)
        form.addRow("", self.descending)

    def set(self, d: dict[str, Any]) -> None:
        self.style_box.setCurrentIndex(max(0, self.style_box.findData(d.get("style", "number"))))
        self.start.setValue(int(d.get("start", 1)))
        self.digits.setValue(int(d.get("width", 0)))
        self.descending.setChecked(bool(d.get("descending", False)))

    def data(self, count: int) -> dict[str, Any]:
        d: dict[str, Any] = {"style": self.style_box.currentData(), "start": self.start.value()}
        if d["style"] == "number" and self.digits.value():
            d["width"] = self.digits.value()
        if self.descending.isChecked():
            d.update(descending=True, count=count)
        return d

    def signals(self) -> list[Any]:
        return [self.style_box.currentIndexChanged, self.start.valueChanged, self.digits.valueChanged,
                self.descending.toggled]


class MapPropertiesDialog(QDialog):
    """The map's properties and numbering designer; :meth:`numbering_data`
    is the numbering chosen."""

    def __init__(self, scenario: Scenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Map Properties")
        self.scenario = scenario
        m = scenario.map
        self._presets = presets(scenario)
        info = QFormLayout()
        info.addRow("Name:", QLabel(scenario.name))
        kind = m.grid.kind.value
        orient = getattr(getattr(m.grid, "orientation", None), "value", None)
        info.addRow("Grid:", QLabel(f"{kind}{f' ({orient}-topped)' if orient else ''}, {m.width} columns × "
                                    f"{m.height} rows"))
        self.preset = QComboBox()
        self.preset.addItems(list(self._presets))
        self.col = _AxisFields("Columns")
        self.row = _AxisFields("Rows")
        self.first = QComboBox()
        self.first.addItem("Column, then row", "col")
        self.first.addItem("Row, then column", "row")
        self.separator = QLineEdit()
        self.separator.setMaxLength(3)
        self.separator.setPlaceholderText("none")
        self.oblique = QCheckBox("Oblique (Avalon Hill): number along the slanted hex axis")
        self.oblique.setEnabled(kind == "hex")
        self.slant = QComboBox()
        self.slant.addItem("slanting down", "plus")
        self.slant.addItem("slanting up", "minus")
        self.boards = QCheckBox("Boards:")
        self.board_cols, self.board_rows, self.board_across = QSpinBox(), QSpinBox(), QSpinBox()
        for spin, v in ((self.board_cols, 10), (self.board_rows, 10), (self.board_across, 1)):
            spin.setRange(1, 999)
            spin.setValue(v)
        custom = QGridLayout()
        custom.addWidget(self.col, 0, 0)
        custom.addWidget(self.row, 0, 1)
        more = QFormLayout()
        more.addRow("Order:", self.first)
        more.addRow("Separator:", self.separator)
        ob = QHBoxLayout()
        ob.addWidget(self.oblique, 1)
        ob.addWidget(self.slant)
        more.addRow(ob)
        bd = QHBoxLayout()
        bd.addWidget(self.boards)
        for label, spin in (("columns", self.board_cols), ("rows", self.board_rows), ("across", self.board_across)):
            bd.addWidget(spin)
            bd.addWidget(QLabel(label))
        bd.addStretch(1)
        more.addRow(bd)
        self.preview = QLabel()
        self.preview.setObjectName("numberingPreview")
        self.preview.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(info)
        num = QGroupBox("Numbering")
        nl = QVBoxLayout(num)
        nl.addWidget(self.preset)
        nl.addLayout(custom)
        nl.addLayout(more)
        nl.addWidget(self.preview)
        box.addWidget(num)
        box.addWidget(self.buttons)
        self._filling = False
        self._data: dict[str, Any] | None = m.numbering.to_dict()
        self.preset.currentIndexChanged.connect(self._preset_chosen)
        for sig in [*self.col.signals(), *self.row.signals(), self.first.currentIndexChanged,
                    self.separator.textChanged, self.oblique.toggled, self.slant.currentIndexChanged,
                    self.boards.toggled, self.board_cols.valueChanged, self.board_rows.valueChanged,
                    self.board_across.valueChanged]:
            sig.connect(self._custom_changed)
        self._preset_chosen()

    # -- the choice ------------------------------------------------------------
    def _preset_chosen(self) -> None:
        data = self._presets[self.preset.currentText()]
        if data is None:
            self._custom_changed()
            return
        self._data = data
        if data.get("scheme") == "axes":
            self._fill(data)
        self._show()

    def _fill(self, d: dict[str, Any]) -> None:
        self._filling = True
        try:
            self.col.set(d.get("col", {}))
            self.row.set(d.get("row", {}))
            self.first.setCurrentIndex(0 if d.get("first", "col") == "col" else 1)
            self.separator.setText(d.get("separator", ""))
            ob = d.get("oblique")
            self.oblique.setChecked(ob is not None)
            if ob is not None:
                self.slant.setCurrentIndex(0 if ob.get("direction") == "plus" else 1)
            b = d.get("boards")
            self.boards.setChecked(b is not None)
            if b is not None:
                self.board_cols.setValue(b["cols"])
                self.board_rows.setValue(b["rows"])
                self.board_across.setValue(b["across"])
        finally:
            self._filling = False

    def _custom_changed(self, *_: Any) -> None:
        if self._filling:
            return
        m = self.scenario.map
        d: dict[str, Any] = {"scheme": "axes", "col": self.col.data(m.width), "row": self.row.data(m.height),
                             "first": self.first.currentData(), "separator": self.separator.text()}
        if self.oblique.isChecked():
            g = m.grid
            flat = getattr(getattr(g, "orientation", None), "value", "flat") == "flat"
            d["oblique"] = {"axis": "row" if flat else "col", "direction": self.slant.currentData(),
                            "parity": getattr(getattr(g, "parity", None), "value", "odd")}
        if self.boards.isChecked():
            d["boards"] = {"cols": self.board_cols.value(), "rows": self.board_rows.value(),
                           "across": self.board_across.value()}
        self._data = d
        if self.preset.currentText() != "Custom":
            self.preset.blockSignals(True)
            self.preset.setCurrentText("Custom")
            self.preset.blockSignals(False)
        self._show()

    def numbering(self) -> Numbering:
        """The chosen numbering, checked against the map (LabelError)."""
        if self._data is None:
            raise LabelError("no numbering chosen")
        plan_numbering(self.scenario, self._data)  # every check the edit makes
        return numbering_from_dict(self._data)

    def numbering_data(self) -> dict[str, Any]:
        return self.numbering().to_dict()

    def _show(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        m = self.scenario.map
        try:
            num = self.numbering()
        except LabelError as e:
            self.preview.setText(f"Cannot number this map so: {e}")
            self.preview.setStyleSheet("color: #b3261e;")
            ok.setEnabled(False)
            return
        w, h = m.width - 1, m.height - 1
        corners = [("top left", Cell(0, 0)), ("top right", Cell(w, 0)), ("bottom left", Cell(0, h)),
                   ("bottom right", Cell(w, h)), ("centre", Cell(w // 2, h // 2))]
        self.preview.setStyleSheet("")
        self.preview.setText("  ·  ".join(f"{name} {num.label(c)}" for name, c in corners))
        ok.setEnabled(True)


def edit_map_properties(window: Any, data: dict[str, Any] | None = None) -> bool:
    """Show the dialog (unless ``data`` gives the numbering) and replace the
    map's numbering as one undo step; whether anything changed."""
    s = window.document.scenario
    if data is None:
        dlg = MapPropertiesDialog(s, window)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return False
        data = dlg.numbering_data()
    try:
        edit = plan_numbering(s, data)
    except LabelError as e:
        window.show_error("Cannot change the numbering", "The numbering cannot label this map:", [str(e)])
        return False
    if edit is None:
        return False
    return bool(window.document.push("Change numbering", edit))


__all__ = ["MapPropertiesDialog", "edit_map_properties", "presets"]
