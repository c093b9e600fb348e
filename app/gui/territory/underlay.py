"""A scan under a territory map, and tracing a territory from it by a click
(issue 20, items 1 and 3; the grid editor's counterpart is
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
    QVBoxLayout,
    QWidget,
)

from engine.editing.territory import MapUnderlayChange
from engine.model import ModelError
from engine.territory import Territory

from ..underlay import PyramidPixels, TilePyramid, UnderlayError

IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.tif *.tiff);;All files (*)"
WINDOW = 4096
"""The side of the square of the scan a click's region is traced within."""
MAX_OVERLAP = 0.01


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
            for w in (self.remove, self.show_box, self.opacity, self.tracing, self.tolerance):
                w.setEnabled(rec is not None)
            if rec is not None:
                self.show_box.setChecked(bool(rec.get("visible", True)))
                self.opacity.setValue(round(100 * float(rec.get("opacity", 1.0))))
            else:
                self.tracing.setChecked(False)
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
        t = image_to_view(rec, c.origin(), c.zoom())
        inv, ok = t.inverted()
        if ok:
            p = inv.map(pos)
            self.trace_at(p.x(), p.y())


class _ClickFilter(QObject):
    """Left clicks on the canvas trace while the button is down."""

    def __init__(self, panel: TerritoryUnderlayPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if not self.panel.tracing.isChecked() or ev.type() not in (
                QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
            return False
        if getattr(ev, "button", lambda: None)() != Qt.MouseButton.LeftButton:
            return False
        if ev.type() == QEvent.Type.MouseButtonRelease:
            self.panel.clicked(ev.position())  # type: ignore[attr-defined]
        return True


__all__ = ["TerritoryUnderlayPanel", "image_to_view"]
