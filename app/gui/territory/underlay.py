"""A scan under a territory map, and tracing a territory from it by a click
(the grid editor's counterpart is
``app/gui/docks/underlay.py``).

The scan is placed by its ``scale`` (pixels per map unit) and ``offset``
(the pixel of the map's origin): a map traced from the scan, or the scan of
an exported map, lines up as added (scale: the image's width over the
map's).  It is cut into tiles once (``app/gui/underlay.py``) and drawn at
its opacity between the territories and the names, units and overlays.

**Trace Region by Clicking**: a click floods the colour clicked on the scan
(``engine.tracing.region_mask``, within the tolerance, the names and symbols
it surrounds filled), within a 4096-pixel square of the scan round the
click; its outline, in map units and snapped onto the outlines of the
territories it meets (``engine.tracing.snap_to``), becomes a new territory
named as asked, with ordinary borders to those it touches: one undo step,
an ordinary territory from then on.  A region reaching the edge of the
square, or overlapping a territory already there, is refused with the
reason.

**Calibrate by Clicking**: a click on the scan, then a click on the same
place of the map (snapped to the nearest territory corner within
:data:`SNAP_PX` pixels of the view), make a pair; from two pairs on, the
scan's scale and offset are their least-squares fit
(``engine.calibration.fit_scale_offset``), and every pair added or removed
is one undo step that stores the pairs in the underlay record with the
placement they give.  The dock lists each pair with how far off the fit
leaves it (map units) and their RMS.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QSlider,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.calibration import CalibrationError, MapPoint, fit_scale_offset, map_points_from_data
from engine.editing.territory import MapUnderlayChange
from engine.model import ModelError
from engine.territory import Territory
from engine.territory.geometry import nearest_corner

from ..underlay import PyramidPixels, TilePyramid, UnderlayError, points_table

IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.tif *.tiff);;All files (*)"
WINDOW = 4096
"""The side of the square of the scan a click's region is traced within."""
MAX_OVERLAP = 0.01
SNAP_PX = 10.0
"""A calibration click on the map snaps to the nearest territory corner
within this many pixels of the view."""


def image_to_view(record: dict[str, Any], origin: tuple[float, float], zoom: float) -> QTransform:
    """Image pixels -> view pixels: map = (pixel - offset) / scale, then the
    canvas's view = origin + zoom * map."""
    k = zoom / float(record.get("scale", 1.0))
    ox, oy = record.get("offset", [0.0, 0.0])
    return QTransform(k, 0.0, 0.0, k, origin[0] - k * ox, origin[1] - k * oy)


class TerritoryUnderlayPanel(QWidget):
    """The Underlay dock of a territory window (``editor``)."""

    def __init__(self, editor: Any) -> None:
        super().__init__()
        self.editor = editor
        self.pyramid: TilePyramid | None = None
        self._shown_path: Path | None = None
        self._filling = False
        self.file = QLabel()
        self.file.setWordWrap(True)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setObjectName("underlayMessage")
        add = QPushButton("Add Image…")
        add.clicked.connect(lambda: self.add_image())
        self.remove = QPushButton("Remove")
        self.remove.clicked.connect(lambda: self._push(None, "Remove underlay"))
        self.show_box = QCheckBox("Show")
        self.show_box.toggled.connect(lambda on: self._change({"visible": bool(on)}))
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.sliderReleased.connect(lambda: self._change({"opacity": round(self.opacity.value() / 100, 2)}))
        self.tracing = QPushButton("Trace Region by Clicking")
        self.tracing.setCheckable(True)
        self.tolerance = QDoubleSpinBox()
        self.tolerance.setRange(1.0, 60.0)
        self.tolerance.setValue(8.0)
        self.tolerance.setPrefix("Colour tolerance ΔE ")
        self.calibrating = QPushButton("Calibrate by Clicking")
        self.calibrating.setCheckable(True)
        self.calibrating.setToolTip("Click a place on the scan, then the same place on the map (a corner snaps); "
                                    "two pairs or more place the scan")
        self.tracing.toggled.connect(self._tracing_toggled)
        self.calibrating.toggled.connect(self._calibrating_toggled)
        self.points = points_table(["scan px", "map point", "off by"])
        self.points.setMaximumHeight(150)
        self.remove_point = QPushButton("Remove Point")
        self.remove_point.clicked.connect(self._remove_selected)
        self.rms = QLabel()
        self.rms.setWordWrap(True)
        self._pending: tuple[float, float] | None = None
        """The scan pixel of a pair whose map point is still to be clicked."""
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(self.remove)
        op = QHBoxLayout()
        op.addWidget(self.show_box)
        op.addWidget(QLabel("Opacity"))
        op.addWidget(self.opacity, 1)
        box = QVBoxLayout(self)
        for w in (self.file, self.message):
            box.addWidget(w)
        box.addLayout(row)
        box.addLayout(op)
        box.addWidget(self.tracing)
        box.addWidget(self.tolerance)
        box.addWidget(self.calibrating)
        box.addWidget(self.points)
        cal = QHBoxLayout()
        cal.addWidget(self.rms, 1)
        cal.addWidget(self.remove_point)
        box.addLayout(cal)
        box.addStretch(1)
        self._filter = _ClickFilter(self)
        editor.canvas.viewport().installEventFilter(self._filter)
        self.refresh()

    def record(self) -> dict[str, Any] | None:
        rec: dict[str, Any] | None = self.editor.scenario.map.underlay
        return rec

    def _push(self, after: dict[str, Any] | None, text: str) -> bool:
        before = self.record()
        if before == after:
            return False
        self.editor.document.push_edit(MapUnderlayChange(None if before is None else dict(before), after))
        return True

    def _change(self, fields: dict[str, Any]) -> None:
        rec = self.record()
        if rec is not None and not self._filling:
            self._push({**rec, **fields}, "Underlay")

    def image_path(self) -> Path | None:
        rec, doc_path = self.record(), self.editor.document.path
        if rec is None or not doc_path:
            return None
        return Path(doc_path).parent / str(rec["image"])

    def refresh(self) -> None:
        """Follow the document's record: the widgets and the scan shown."""
        from .. import background

        rec = self.record()
        self._filling = True
        try:
            for w in (self.remove, self.show_box, self.opacity, self.tracing, self.tolerance, self.calibrating,
                      self.points):
                w.setEnabled(rec is not None)
            if rec is not None:
                self.show_box.setChecked(bool(rec.get("visible", True)))
                self.opacity.setValue(round(100 * float(rec.get("opacity", 1.0))))
            else:
                self.tracing.setChecked(False)
                self.calibrating.setChecked(False)
            self._show_points()
        finally:
            self._filling = False
        canvas = self.editor.canvas
        path = self.image_path()
        if rec is None or path is None or not path.is_file():
            self.pyramid, self._shown_path = None, None
            canvas.set_underlay(None, None)
            self.file.setText("No underlay: add a scan of the map to trace territories from."
                              if rec is None else str(rec["image"]))
            self.message.setText("" if rec is None else
                                 f"The scan is not there: {rec['image']} beside the map file. The map is shown "
                                 f"without it.")
            return
        if self.pyramid is None or self._shown_path != path:
            try:
                self.pyramid = TilePyramid.cached(path) or background.run(
                    self.editor, f"Preparing {path.name}…", TilePyramid.build, path)
            except (UnderlayError, background.Cancelled) as e:
                self.pyramid = None
                canvas.set_underlay(None, None)
                self.message.setText(str(e) or "Preparing the scan was cancelled.")
                return
            self._shown_path = path
        self.file.setText(f"{rec['image']} ({self.pyramid.width} × {self.pyramid.height} px)")
        self.message.setText("")
        canvas.set_underlay(self.pyramid, rec)

    def add_image(self, path: str | None = None) -> bool:
        """Put a scan under the map, fitted to its width (one undo step)."""
        from .. import background

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
        if not Path(path).is_file():
            self.editor.show_error("Cannot add an underlay", f"{path} is not a file.", [])
            return False
        try:
            pyr = TilePyramid.cached(Path(path)) or background.run(
                self.editor, f"Preparing {Path(path).name}…", TilePyramid.build, Path(path))
        except (UnderlayError, background.Cancelled) as e:
            self.editor.show_error("Cannot add an underlay", f"{Path(path).name}:", [str(e) or "cancelled"])
            return False
        rel = os.path.relpath(Path(path).resolve(), Path(doc.path).resolve().parent).replace(os.sep, "/")
        scale = pyr.width / max(1e-9, float(self.editor.scenario.map.width))
        return self._push({"image": rel, "opacity": 0.7, "visible": True, "scale": scale, "offset": [0, 0]},
                          "Add underlay")

    # -- tracing -------------------------------------------------------------
    def trace_at(self, x: float, y: float, name: str | None = None) -> str | None:
        """Trace the region round image pixel (x, y) into a new territory
        (asking its name unless given); the reason when it cannot."""
        from engine.tracing import TraceError, mask_polygon, region_mask, snap_to

        rec, pyr = self.record(), self.pyramid
        if rec is None or pyr is None:
            return self._say("Add a scan first.")
        cx, cy = int(round(x)), int(round(y))
        if not (0 <= cx < pyr.width and 0 <= cy < pyr.height):
            return self._say(f"Pixel ({cx}, {cy}) is off the {pyr.width} × {pyr.height} scan.")
        x0, y0 = max(0, cx - WINDOW // 2), max(0, cy - WINDOW // 2)
        x1, y1 = min(pyr.width, x0 + WINDOW), min(pyr.height, y0 + WINDOW)
        ys, xs = np.mgrid[y0:y1, x0:x1]
        window = PyramidPixels(pyr).gather(ys, xs)
        try:
            mask = region_mask(window, cx - x0, cy - y0, self.tolerance.value())
        except TraceError as e:
            return self._say(str(e))
        at_edge = (mask[0].any() and y0 > 0) or (mask[-1].any() and y1 < pyr.height) \
            or (mask[:, 0].any() and x0 > 0) or (mask[:, -1].any() and x1 < pyr.width)
        if at_edge:
            return self._say(f"The region reaches past {WINDOW} pixels of the scan round the click: a border "
                             f"may be open, or the tolerance too wide.")
        import shapely.affinity

        k, (ox, oy) = float(rec.get("scale", 1.0)), rec.get("offset", [0.0, 0.0])
        shape = shapely.affinity.affine_transform(mask_polygon(mask), [1 / k, 0, 0, 1 / k, (x0 - ox) / k,
                                                                       (y0 - oy) / k])
        m = self.editor.scenario.map
        shape = snap_to(shape, [t.shape for t in m.territories.values()], 2.0 / k)
        over = {t.name: t.shape.intersection(shape).area for t in m.territories.values()
                if not t.shape.is_empty and t.shape.intersects(shape)}
        over = {n: a for n, a in over.items() if a > 0}
        if sum(over.values()) > MAX_OVERLAP * shape.area:
            return self._say(f"The region overlaps {', '.join(over)}: click inside an untraced region.")
        if name is None:
            name, ok = QInputDialog.getText(self.editor, "New territory", "Name of the traced territory:")
            if not ok or not name.strip():
                return self._say("Not added.")
        tid = re.sub(r"[^a-z0-9]+", "_", name.strip().casefold()).strip("_") or "territory"
        base, n = tid, 2
        while tid in m:
            tid, n = f"{base}_{n}", n + 1
        try:
            self.editor.document.add_territory(Territory(tid, name.strip(), shape=shape))
        except ModelError as e:
            return self._say(str(e))
        self._say(f"Added {name.strip()}: {shape.area:.4g} map units².")
        return None

    def _say(self, text: str) -> str:
        self.message.setText(text)
        return text

    def clicked(self, pos: QPointF) -> None:
        rec = self.record()
        if rec is None:
            return
        c = self.editor.canvas
        if self.calibrating.isChecked() and self._pending is not None:
            mx, my = c.view_to_map(pos)
            self.add_point(self._pending, self.snap_corner(mx, my, SNAP_PX / c.zoom()))
            return
        t = image_to_view(rec, c.origin(), c.zoom())
        inv, ok = t.inverted()
        if not ok:
            return
        p = inv.map(pos)
        if self.calibrating.isChecked():
            self.take_scan_point(p.x(), p.y())
        else:
            self.trace_at(p.x(), p.y())

    # -- calibrating ---------------------------------------------------------
    def pairs(self) -> list[MapPoint]:
        """The click pairs stored in the underlay record."""
        rec = self.record()
        try:
            return map_points_from_data(rec.get("points", []) if rec else [])
        except CalibrationError:
            return []

    def _tracing_toggled(self, on: bool) -> None:
        if on:
            self.calibrating.setChecked(False)

    def _calibrating_toggled(self, on: bool) -> None:
        self._pending = None
        if on:
            self.tracing.setChecked(False)
            self._say("Click a place on the scan you can find on the map (a corner of a border is best).")
        elif not self._filling:
            self._say("")

    def take_scan_point(self, x: float, y: float) -> str | None:
        """The first click of a pair: scan pixel (x, y); the reason when it
        cannot be taken."""
        pyr = self.pyramid
        if pyr is not None and not (0 <= x < pyr.width and 0 <= y < pyr.height):
            return self._say(f"Pixel ({x:.0f}, {y:.0f}) is off the {pyr.width} × {pyr.height} scan: click on it.")
        self._pending = (x, y)
        self._say(f"Scan point ({x:.0f}, {y:.0f}): now click the same place on the map (a corner within "
                  f"{SNAP_PX:g} px snaps).")
        return None

    def snap_corner(self, x: float, y: float, radius: float) -> tuple[float, float]:
        """The territory corner nearest map point (x, y) within ``radius``
        (map units), or the point itself."""
        shapes = (t.shape for t in self.editor.scenario.map.territories.values())
        return nearest_corner(shapes, x, y, radius) or (x, y)

    def add_point(self, pixel: tuple[float, float], at: tuple[float, float]) -> str | None:
        """Add the pair (scan ``pixel``, map point ``at``) and place the scan
        by the fit of all pairs once there are two: one undo step; the
        reason when the pairs cannot place it (nothing changes then)."""
        self._pending = None
        rec = self.record()
        if rec is None:
            return self._say("Add a scan first.")
        pairs = [*self.pairs(), MapPoint(pixel[0], pixel[1], (at[0], at[1]))]
        after = self._placed(rec, pairs)
        if isinstance(after, str):
            return self._say(f"Not added: {after}. Click a place on the scan again.")
        self._push(after, "Calibrate underlay")
        n = len(pairs)
        self._say(f"Pair {n}: scan ({pixel[0]:.0f}, {pixel[1]:.0f}) on map ({at[0]:.4g}, {at[1]:.4g})."
                  + (" Click one more pair to place the scan." if n < 2 else " Click another pair to refine."))
        return None

    def remove_point_at(self, i: int) -> str | None:
        """Remove pair ``i`` (one undo step); the reason when the rest cannot
        place the scan."""
        rec = self.record()
        pairs = self.pairs()
        if rec is None or not 0 <= i < len(pairs):
            return None
        after = self._placed(rec, pairs[:i] + pairs[i + 1:])
        if isinstance(after, str):
            return self._say(f"Not removed: {after}.")
        self._push(after, "Remove calibration point")
        return None

    def _remove_selected(self) -> None:
        if self.points.currentRow() >= 0:
            self.remove_point_at(self.points.currentRow())

    @staticmethod
    def _placed(rec: dict[str, Any], pairs: list[MapPoint]) -> dict[str, Any] | str:
        """The record with ``pairs`` and, from two on, the placement they fit."""
        out = {**rec, "points": [p.to_dict() for p in pairs]}
        if not pairs:
            del out["points"]
        if len(pairs) >= 2:
            try:
                fit = fit_scale_offset(pairs)
            except CalibrationError as e:
                return str(e)
            out["scale"], out["offset"] = fit.scale, [fit.offset[0], fit.offset[1]]
        return out

    def _show_points(self) -> None:
        pairs = self.pairs()
        residuals: tuple[float, ...] = ()
        if len(pairs) >= 2:
            try:
                fit = fit_scale_offset(pairs)
                residuals = fit.residuals
                self.rms.setText(f"RMS {fit.rms:.2f} map units; {fit.scale:.4g} px a map unit")
            except CalibrationError as e:
                self.rms.setText(str(e))
        else:
            self.rms.setText("Two pairs place the scan." if self.record() is not None else "")
        self.points.setRowCount(len(pairs))
        for r, p in enumerate(pairs):
            cells = [f"{p.x:.0f}, {p.y:.0f}", f"{p.at[0]:.4g}, {p.at[1]:.4g}",
                     f"{residuals[r]:.2f}" if residuals else "—"]
            for c, text in enumerate(cells):
                self.points.setItem(r, c, QTableWidgetItem(text))
        self.remove_point.setEnabled(bool(pairs))


class _ClickFilter(QObject):
    """Left clicks on the canvas trace, or calibrate, while its button is down."""

    def __init__(self, panel: TerritoryUnderlayPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if not (self.panel.tracing.isChecked() or self.panel.calibrating.isChecked()) or ev.type() not in (
                QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
            return False
        if getattr(ev, "button", lambda: None)() != Qt.MouseButton.LeftButton:
            return False
        if ev.type() == QEvent.Type.MouseButtonRelease:
            self.panel.clicked(ev.position())  # type: ignore[attr-defined]
        return True


__all__ = ["TerritoryUnderlayPanel", "image_to_view"]
