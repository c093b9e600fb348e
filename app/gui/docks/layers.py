"""Layer visibility: one check box per canvas layer."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QVBoxLayout, QWidget

LAYER_NAMES = {
    "terrain": "Terrain", "control": "Control", "rivers": "Rivers and bridges", "rail": "Rail", "road": "Roads",
    "places": "Places", "units": "Units", "grid": "Grid lines", "labels": "Coordinate labels",
}


class LayersPanel(QWidget):
    def __init__(self, canvas: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.canvas = canvas
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.list = QListWidget()
        self.list.setObjectName("layerList")
        for key, name in LAYER_NAMES.items():
            item = QListWidgetItem(name)
            item.setData(Qt.ItemDataRole.UserRole, key)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if canvas.layer_visible(key) else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.list.itemChanged.connect(self._changed)
        lay.addWidget(self.list)
        zoom_changed = getattr(canvas, "zoomChanged", None)
        if zoom_changed is not None:
            zoom_changed.connect(lambda _z: self.note_labels())
        self.note_labels()

    def _changed(self, item: QListWidgetItem) -> None:
        self.canvas.set_layer_visible(item.data(Qt.ItemDataRole.UserRole),
                                      item.checkState() == Qt.CheckState.Checked)
        if item.data(Qt.ItemDataRole.UserRole) == "labels":
            self.note_labels()

    def labels_hidden_by_zoom(self) -> bool:
        """Whether coordinate labels are too small to draw at this zoom."""
        from app.gui.render import style

        renderer = self.canvas.renderer() if hasattr(self.canvas, "renderer") else None
        return renderer is not None and renderer.cell_px(self.canvas.zoom()) < style.LABEL_MIN_PX

    def note_labels(self) -> None:
        """Say on the "Coordinate labels" row why it shows nothing: labels
        are drawn from cells of 40 pixels up."""
        from app.gui.render import style

        hidden = self.labels_hidden_by_zoom()
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == "labels":
                self.list.blockSignals(True)
                item.setText(LAYER_NAMES["labels"] + (" (zoom in to see them)" if hidden else ""))
                item.setToolTip(f"Each cell's label, drawn once cells are {style.LABEL_MIN_PX:g} pixels or more"
                                + (" — zoom in: the cells are smaller now" if hidden else ""))
                self.list.blockSignals(False)

    def set_visible(self, key: str, visible: bool) -> None:
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == key:
                item.setCheckState(Qt.CheckState.Checked if visible else Qt.CheckState.Unchecked)

    def visible_layers(self) -> dict[str, bool]:
        return {self.list.item(i).data(Qt.ItemDataRole.UserRole):
                self.list.item(i).checkState() == Qt.CheckState.Checked for i in range(self.list.count())}
