"""The Underlay dock of the grid editor: a scanned map
under the grid, and its calibration by clicks.

* **Add Image…** (also File > Add Underlay Image…) takes a PNG, JPEG or TIFF
  and stores it in the map's ``map.underlay`` by its path relative to the
  map file (so the map must be saved first); the scan is cut into tiles in
  the background (``app/gui/underlay.py``).  **Show** and **Opacity** change
  how it is drawn; **Remove** takes it away.  Each is one undo step
  (:class:`engine.editing.UnderlayChange`).
* **Calibrate**: while it is down, a click on the map asks for the label of
  the cell clicked (the cell under the pointer is offered) and adds the
  point.  From three points not on one line the grid is fitted to the scan
  (``engine/calibration.py``) and drawn over it; the table gives each
  point's residual (pixels) and the RMS; more points refine the fit; a point
  can be removed; **Piecewise** adds the correction for scans whose hexes
  drift.  A label that names no cell, a cell clicked twice or points on one
  line are refused with the reason, changing nothing.

* **Trace terrain** (``engine/tracing.py``): choose a
  terrain, press **Sample Colours by Clicking** and click the scan where
  it shows that terrain; with two terrains sampled and the scan calibrated,
  **Trace** gives every cell the terrain nearest its colour as one undo step
  (``Trace terrain``) and marks the uncertain cells on the map and in the
  list (double-click: centre the view on one).  Rivers, roads and rail stay
  hand-drawn.

An underlay whose image is missing is reported here; the map opens anyway.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSlider,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.calibration import CalibrationError, ClickedPoint, Underlay, calibrate
from engine.editing import UnderlayChange
from engine.model import ModelError

from ..overlay import CellMarks, Overlay
from ..underlay import PyramidPixels, TilePyramid, UnderlayError, points_table

IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.tif *.tiff);;All files (*)"


class UnderlayPanel(QWidget):
    """The dock's contents; ``window`` is the grid editor it belongs to."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.editor = window
        self.pyramid: TilePyramid | None = None
        self._shown_path: Path | None = None
        self.file = QLabel("No underlay")
        self.file.setWordWrap(True)
        self.add = QPushButton("Add Image…")
        self.add.clicked.connect(lambda: self.add_image())
        self.remove = QPushButton("Remove")
        self.remove.clicked.connect(self.remove_underlay)
        self.show_box = QCheckBox("Show")
        self.show_box.toggled.connect(lambda on: self._change({"visible": bool(on)}, "Show underlay"))
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.sliderReleased.connect(self._opacity_chosen)
        self.calibrating = QPushButton("Calibrate by Clicking")
        self.calibrating.setCheckable(True)
        self.piecewise = QCheckBox("Piecewise (for scans whose hexes drift)")
        self.piecewise.toggled.connect(self._piecewise_toggled)
        self.table = points_table(["Cell", "Pixel", "Residual"])
        self.table.setMinimumHeight(60)
        self.drop = QPushButton("Remove Point")
        self.drop.clicked.connect(self._drop_selected)
        self.rms = QLabel()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setObjectName("underlayMessage")
        row = QHBoxLayout()
        row.addWidget(self.add)
        row.addWidget(self.remove)
        op = QHBoxLayout()
        op.addWidget(self.show_box)
        op.addWidget(QLabel("Opacity"))
        op.addWidget(self.opacity, 1)
        box = QVBoxLayout(self)
        box.addWidget(self.file)
        box.addWidget(self.message)
        box.addLayout(row)
        box.addLayout(op)
        box.addWidget(self.calibrating)
        box.addWidget(self.piecewise)
        box.addWidget(self.table, 1)
        box.addWidget(self.drop)
        box.addWidget(self.rms)
        self.samples: dict[int, list[list[float]]] = {}
        """Colour samples per terrain index, clicked on the scan (not saved)."""
        trace_box = QGroupBox("Trace terrain")
        self.terrain = QComboBox()
        self.sampling = QPushButton("Sample Colours by Clicking")
        self.sampling.setCheckable(True)
        self.sampling.toggled.connect(lambda on: self._exclusive(self.calibrating, on))
        self.calibrating.toggled.connect(lambda on: self._exclusive(self.sampling, on))
        self.sample_text = QLabel()
        self.sample_text.setWordWrap(True)
        clear = QPushButton("Clear Samples")
        clear.clicked.connect(self.clear_samples)
        self.trace_button = QPushButton("Trace")
        self.trace_button.clicked.connect(lambda: self.trace())
        self.uncertain = QListWidget()
        self.uncertain.setMinimumHeight(50)
        self.uncertain.itemDoubleClicked.connect(self._centre_on)
        tb = QVBoxLayout(trace_box)
        tb.addWidget(self.terrain)
        tb.addWidget(self.sampling)
        tb.addWidget(self.sample_text)
        tr = QHBoxLayout()
        tr.addWidget(clear)
        tr.addWidget(self.trace_button)
        tb.addLayout(tr)
        tb.addWidget(self.uncertain, 1)
        box.addWidget(trace_box, 1)
        self._filter = _ClickFilter(self)
        window.canvas.viewport().installEventFilter(self._filter)
        self.refresh()

    # -- the record ----------------------------------------------------------
    def record(self) -> dict[str, Any] | None:
        rec: dict[str, Any] | None = self.editor.document.scenario.map.underlay
        return rec

    def _push(self, after: dict[str, Any] | None, text: str) -> bool:
        before = self.record()
        if before == after:
            return False
        return bool(self.editor.document.push(text, UnderlayChange(None if before is None else dict(before), after)))

    def _change(self, fields: dict[str, Any], text: str) -> None:
        rec = self.record()
        if rec is None or self._filling:
            return
        self._push({**rec, **fields}, text)

    _filling = False

    def _opacity_chosen(self) -> None:
        self._change({"opacity": round(self.opacity.value() / 100, 2)}, "Underlay opacity")

    def image_path(self) -> Path | None:
        """Where the record's image is: beside the map file."""
        rec = self.record()
        doc_path = self.editor.document.path
        if rec is None or not doc_path:
            return None
        return Path(doc_path).parent / str(rec["image"])

    # -- showing -------------------------------------------------------------
    def refresh(self) -> None:
        """Follow the document: the record's widgets, the scan on the canvas."""
        rec = self.record()
        self._filling = True
        try:
            self.remove.setEnabled(rec is not None)
            for w in (self.show_box, self.opacity, self.calibrating, self.piecewise, self.drop):
                w.setEnabled(rec is not None)
            if rec is None:
                self.file.setText("No underlay: add a scan of the map to calibrate and trace.")
                self.table.setRowCount(0)
                self.rms.setText("")
                self.calibrating.setChecked(False)
            else:
                self.show_box.setChecked(bool(rec.get("visible", True)))
                self.opacity.setValue(round(100 * float(rec.get("opacity", 1.0))))
                self.piecewise.setChecked(bool(rec.get("piecewise", False)))
                self._fill_points(rec)
            names = [t.name for t in self.editor.document.scenario.ruleset.terrain]
            if [self.terrain.itemText(i) for i in range(self.terrain.count())] != names:
                self.terrain.clear()
                self.terrain.addItems(names)
                self.samples.clear()
            for t in (self.terrain, self.sampling, self.trace_button):
                t.setEnabled(rec is not None)
            self._show_samples()
        finally:
            self._filling = False
        self._load_scan(rec)

    def _fill_points(self, rec: dict[str, Any]) -> None:
        u = Underlay.from_dict(rec)
        residuals: list[float | None] = [None] * len(u.points)
        self.rms.setText(f"{len(u.points)} point{'s' if len(u.points) != 1 else ''}: three fix the grid")
        if len(u.points) >= 3:
            try:
                cal = u.calibration(self.editor.document.scenario.map)
            except CalibrationError as e:
                self.rms.setText(f"Not calibrated: {e}")
            else:
                residuals = list(cal.residuals)
                self.rms.setText(f"RMS {cal.rms:.2f} px over {len(u.points)} points"
                                 f"{' (piecewise: the points are met exactly)' if cal.piecewise else ''}")
        self.table.setRowCount(len(u.points))
        for i, (p, r) in enumerate(zip(u.points, residuals, strict=True)):
            for j, text in enumerate((p.label, f"{p.x:.1f}, {p.y:.1f}", "—" if r is None else f"{r:.2f} px")):
                self.table.setItem(i, j, QTableWidgetItem(text))

    def _load_scan(self, rec: dict[str, Any] | None) -> None:
        from .. import background

        canvas = self.editor.canvas
        path = self.image_path()
        if rec is None or path is None:
            self.pyramid, self._shown_path = None, None
            canvas.set_underlay(None, None)
            self.message.setText("" if rec is None else "Save the map: the scan is found beside the map file.")
            return
        self.file.setText(f"{rec['image']}")
        if not path.is_file():
            self.pyramid, self._shown_path = None, None
            canvas.set_underlay(None, None)
            self.message.setText(f"The scan is not there: {rec['image']} beside the map file. The map is shown "
                                 f"without it.")
            return
        if self.pyramid is None or self._shown_path != path:
            try:
                self.pyramid = TilePyramid.cached(path) or background.run(
                    self.editor, f"Preparing {path.name}…", TilePyramid.build, path)
            except (UnderlayError, background.Cancelled) as e:
                self.pyramid, self._shown_path = None, None
                canvas.set_underlay(None, None)
                self.message.setText(str(e) or "Preparing the scan was cancelled.")
                return
            self._shown_path = path
        self.file.setText(f"{rec['image']} ({self.pyramid.width} × {self.pyramid.height} px)")
        self.message.setText("")
        canvas.set_underlay(self.pyramid, rec)

    # -- actions -------------------------------------------------------------
    def add_image(self, path: str | None = None) -> bool:
        """Put a scan under the map (one undo step); whether it was added."""
        doc = self.editor.document
        if not doc.path:
            self.editor.show_error("Cannot add an underlay", "Save the map first:",
                                   ["the scan is stored by its path relative to the map file"])
            return False
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.editor, "Add underlay image", str(Path(doc.path).parent),
                                                  IMAGE_FILTER)
            if not path:
                return False
        rel = os.path.relpath(Path(path).resolve(), Path(doc.path).resolve().parent).replace(os.sep, "/")
        if not Path(path).is_file():
            self.editor.show_error("Cannot add an underlay", f"{path} is not a file.", [])
            return False
        rec = self.record()
        keep = {k: v for k, v in (rec or {}).items() if k not in ("image",)}
        return self._push({"opacity": 0.7, "visible": True, **keep, "image": rel}, "Add underlay")

    def remove_underlay(self) -> None:
        self._push(None, "Remove underlay")

    def add_point(self, x: float, y: float, label: str) -> str | None:
        """Add a clicked point (image pixels) and refit; the reason when it
        is refused (nothing changes)."""
        rec = self.record()
        if rec is None:
            return "there is no underlay to calibrate"
        m = self.editor.document.scenario.map
        try:
            m.parse_label(label)
        except (ModelError, ValueError) as e:
            self.message.setText(f"Point not added: {e}")
            return str(e)
        u = Underlay.from_dict(rec)
        points = [*u.points, ClickedPoint(float(x), float(y), label.strip())]
        return self._refit(rec, points, u.piecewise, f"Calibrate at {label.strip()}")

    def _refit(self, rec: dict[str, Any], points: list[ClickedPoint], piecewise: bool, text: str) -> str | None:
        u = Underlay.from_dict(rec)
        m = self.editor.document.scenario.map
        new = Underlay(u.image, u.opacity, u.visible, points, piecewise, None)
        if len(points) >= 3:
            try:
                new = new.calibrated(calibrate(m, points, piecewise))
            except CalibrationError as e:
                self.message.setText(f"Point not added: {e}")
                return str(e)
        self.message.setText("")
        self._push(new.to_dict(), text)
        return None

    def _drop_selected(self) -> None:
        rec = self.record()
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if rec is None or not rows:
            return
        u = Underlay.from_dict(rec)
        points = [p for i, p in enumerate(u.points) if i not in rows]
        self._refit(rec, points, u.piecewise, "Remove calibration point")

    def _piecewise_toggled(self, on: bool) -> None:
        rec = self.record()
        if rec is None or self._filling:
            return
        u = Underlay.from_dict(rec)
        self._refit(rec, u.points, bool(on), "Piecewise calibration" if on else "Affine calibration")

    @staticmethod
    def _exclusive(other: QPushButton, on: bool) -> None:
        """Calibrating and sampling take clicks: one at a time."""
        if on:
            other.setChecked(False)

    # -- tracing -------------------------------------------------------------
    def _show_samples(self) -> None:
        names = [t.name for t in self.editor.document.scenario.ruleset.terrain]
        parts = [f"{names[t]}: {len(c)}" for t, c in sorted(self.samples.items()) if t < len(names)]
        self.sample_text.setText("Samples: " + (", ".join(parts) if parts else "none yet (two terrains at least)"))

    def clear_samples(self) -> None:
        self.samples.clear()
        self._show_samples()

    def add_sample(self, x: float, y: float, terrain: int | None = None) -> str | None:
        """A colour sample of ``terrain`` (default: the one chosen) at
        image pixel (x, y); the reason when it cannot be taken."""
        from engine.tracing import TraceError, pixel_samples

        if self.pyramid is None:
            return "there is no scan to sample"
        t = self.terrain.currentIndex() if terrain is None else terrain
        try:
            colour = pixel_samples(PyramidPixels(self.pyramid), [(x, y)], "sample")[0]
        except TraceError as e:
            self.message.setText(str(e))
            return str(e)
        self.samples.setdefault(t, []).append(colour)
        self._show_samples()
        return None

    def trace(self) -> str | None:
        """Trace every cell (one undo step) and mark the uncertain ones; the
        reason when it cannot."""
        from engine.tracing import TraceError, plan_trace, trace

        from .. import background

        rec = self.record()
        s = self.editor.document.scenario
        if rec is None or self.pyramid is None:
            return self._say("Add a scan first.")
        u = Underlay.from_dict(rec)
        if u.transform is None:
            return self._say("Calibrate the scan first: three cells clicked fix the grid on it.")
        try:
            cal = u.calibration(s.map)
            result = background.run(self.editor, "Tracing…", trace, PyramidPixels(self.pyramid), cal,
                                    dict(self.samples))
        except (CalibrationError, TraceError) as e:
            return self._say(str(e))
        except background.Cancelled:
            return self._say("Tracing was cancelled.")
        self.editor.document.push("Trace terrain", plan_trace(s, result))
        self.uncertain.clear()
        for c in result.uncertain:
            item = QListWidgetItem(s.map.label(c))
            item.setData(Qt.ItemDataRole.UserRole, c)
            self.uncertain.addItem(item)
        marks = CellMarks(tuple(result.uncertain), outline="#e6007e", width=3.0,
                          tooltip="uncertain: check the traced terrain", label=s.map.label)
        n = len(result.uncertain)
        self.editor.canvas.set_overlay("trace", Overlay((marks,), f"{n} cell{'s' if n != 1 else ''} to check")
                                       if n else None)
        return self._say(f"Traced {result.terrain.size} cells; {n} uncertain (marked).", ok=True)

    def _say(self, text: str, ok: bool = False) -> str | None:
        self.message.setText(text)
        return None if ok else text

    def _centre_on(self, item: QListWidgetItem) -> None:
        self.editor.canvas.center_on(item.data(Qt.ItemDataRole.UserRole))

    def clicked(self, pos: QPointF) -> None:
        """A click on the canvas while calibrating (ask the cell's label) or
        sampling (take the colour there)."""
        t = self.editor.canvas.underlay_transform()
        if t is None:
            return
        inv, ok = t.inverted()
        if not ok:
            return
        img = inv.map(pos)
        if self.sampling.isChecked():
            self.add_sample(img.x(), img.y())
            return
        cell = self.editor.canvas.cell_at(pos)
        offer = self.editor.document.scenario.map.label(cell) if cell is not None else ""
        label, ok = QInputDialog.getText(self.editor, "Calibration point",
                                         f"The label of the cell clicked at pixel ({img.x():.0f}, {img.y():.0f}):",
                                         text=offer)
        if ok and label.strip():
            self.add_point(img.x(), img.y(), label)


class _ClickFilter(QObject):
    """Left clicks on the canvas go to the panel while it calibrates or samples."""

    def __init__(self, panel: UnderlayPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        active = self.panel.calibrating.isChecked() or self.panel.sampling.isChecked()
        if not active or ev.type() not in (
                QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
            return False
        if getattr(ev, "button", lambda: None)() != Qt.MouseButton.LeftButton:
            return False
        if ev.type() == QEvent.Type.MouseButtonRelease:
            self.panel.clicked(ev.position())  # type: ignore[attr-defined]
        return True


__all__ = ["UnderlayPanel"]
