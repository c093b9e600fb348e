"""File > Print / Export PDF… of both editors: the
cell size (a territory map: the whole map's width), in mm or inches, the
paper, orientation, margin, overlap and coordinate labels, with the page
count the choice gives (or what is wrong with it) shown as the fields
change; OK asks where to write and writes the PDF ``adjutant print`` writes
for the same choice (``app/gui/print_pdf.py``), on the GUI thread under a
wait cursor (it paints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from engine.model import Scenario
from engine.printing import MIN_CELL_MM, MIN_WIDTH_MM, MM_PER_INCH, PAPERS, PrintError, PrintSpec
from engine.territory import TerritoryScenario

PDF_FILTER = "PDF document (*.pdf)"
TERRITORY_WIDTH_MM = 400.0
"""The printed width the dialog first offers for a territory map."""


class PrintDialog(QDialog):
    """The choices of a print; :meth:`spec` reads them."""

    def __init__(self, scenario: Scenario | TerritoryScenario, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Print / Export PDF")
        self.scenario = scenario
        self.territory = isinstance(scenario, TerritoryScenario)
        """A territory map prints at a width of the whole map, not a cell size."""
        form = QFormLayout()
        self.cell_size = QDoubleSpinBox()
        """The cell size, or a territory map's printed width (in :attr:`unit`)."""
        self.cell_size.setDecimals(2)
        self._least_mm, most_mm = (MIN_WIDTH_MM, 5000.0) if self.territory else (MIN_CELL_MM, 300.0)
        self.cell_size.setRange(self._least_mm, most_mm)
        self.unit = QComboBox()
        self.unit.addItems(["mm", "in"])
        row = QHBoxLayout()
        row.addWidget(self.cell_size, 1)
        row.addWidget(self.unit)
        if isinstance(scenario, TerritoryScenario):
            self.cell_size.setValue(TERRITORY_WIDTH_MM)
            form.addRow("Map width:", row)
        else:
            hexes = scenario.map.grid.kind.value == "hex"
            self.cell_size.setValue(16.0 if hexes else 20.0)
            form.addRow("Hex width across flats:" if hexes else "Square side:", row)
        self.paper = QComboBox()
        self.paper.addItems([n.upper() if n[0] == "a" else n.title() for n in PAPERS])
        self.paper.setCurrentIndex(list(PAPERS).index("a4"))
        form.addRow("Paper:", self.paper)
        self.landscape = QCheckBox("Landscape")
        form.addRow("", self.landscape)
        self.margin = QDoubleSpinBox()
        self.margin.setRange(3.0, 50.0)
        self.margin.setValue(10.0)
        self.margin.setSuffix(" mm")
        form.addRow("Margin:", self.margin)
        self.overlap = QDoubleSpinBox()
        self.overlap.setRange(0.0, 100.0)
        self.overlap.setValue(10.0)
        self.overlap.setSuffix(" mm")
        form.addRow("Page overlap:", self.overlap)
        self.labels = QCheckBox("Coordinate label in each cell")
        form.addRow("", self.labels)
        self.coordinates = QCheckBox("Coordinates in the margins")
        form.addRow("", self.coordinates)
        for box_ in (self.labels, self.coordinates):  # a territory map has no cells to label
            box_.setVisible(not self.territory)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setObjectName("printSummary")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Export PDF…")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.summary)
        box.addWidget(self.buttons)
        for w in (self.cell_size, self.margin, self.overlap):
            w.valueChanged.connect(self._update)
        for c in (self.unit, self.paper):
            c.currentIndexChanged.connect(self._update)
        self.landscape.toggled.connect(self._update)
        self.unit.currentIndexChanged.connect(self._unit_changed)
        self._unit = "mm"
        self._update()

    def _unit_changed(self) -> None:
        new = self.unit.currentText()
        if new != self._unit:
            v = self.cell_size.value()
            most = self.cell_size.maximum() * (1 / MM_PER_INCH if new == "in" else MM_PER_INCH)
            self.cell_size.setRange(self._least_mm / MM_PER_INCH if new == "in" else self._least_mm, most)
            self.cell_size.setValue(v / MM_PER_INCH if new == "in" else v * MM_PER_INCH)
            self._unit = new

    def spec(self) -> PrintSpec:
        mm = round(self.cell_size.value() * (MM_PER_INCH if self.unit.currentText() == "in" else 1.0), 4)
        paper, landscape = list(PAPERS)[self.paper.currentIndex()], self.landscape.isChecked()
        if self.territory:
            return PrintSpec(0.0, paper, landscape, self.margin.value(), self.overlap.value(), width_mm=mm)
        return PrintSpec(mm, paper, landscape, self.margin.value(), self.overlap.value(), self.coordinates.isChecked())

    def _update(self) -> None:
        from app.gui.print_pdf import plan_for

        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        try:
            pp = plan_for(self.scenario, self.spec())
        except PrintError as e:
            self.summary.setText(f"Cannot print: {e}")
            self.summary.setStyleSheet("color: #b3261e;")
            ok.setEnabled(False)
            return
        self.summary.setStyleSheet("")
        n = len(pp.pages)
        self.summary.setText(f"{n} page{'s' if n != 1 else ''} ({pp.cols} × {pp.rows}) of {pp.paper_w:g} × "
                             f"{pp.paper_h:g} mm; the map is {pp.map_w:.0f} × {pp.map_h:.0f} mm. Print at 100 %.")
        ok.setEnabled(True)


def print_map(window: Any, path: str | None = None, spec: PrintSpec | None = None, labels: bool = False) -> bool:
    """Ask for the choices (unless ``spec``) and where (unless ``path``),
    then write the window's map as a PDF; whether it was written."""
    from app.gui import background
    from app.gui.print_pdf import print_pdf

    s = window.document.scenario
    if spec is None:
        dlg = PrintDialog(s, window)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return False
        spec, labels = dlg.spec(), dlg.labels.isChecked() and not dlg.territory
    if path is None:
        start = str(Path(window.document.path).with_suffix(".pdf")) if window.document.path else f"{s.name}.pdf"
        path, _ = QFileDialog.getSaveFileName(window, "Export PDF", start, PDF_FILTER)
        if not path:
            return False
        if not path.lower().endswith(".pdf"):
            path += ".pdf"
    try:  # on the GUI thread: it paints (app/gui/background.py)
        pp = background.run_painting(window, f"Printing {Path(path).name}…", print_pdf, s, path, spec, labels)
    except PrintError as e:
        window.show_error("Cannot print", f"{Path(path).name} cannot be written:", [str(e)])
        return False
    at = f"the map {spec.width_mm:g} mm wide" if spec.width_mm is not None else f"{spec.cell_mm:g} mm a cell"
    window.statusBar().showMessage(f"Wrote {path}: {len(pp.pages)} page(s), {at}", 10000)
    return True


__all__ = ["PrintDialog", "print_map"]
