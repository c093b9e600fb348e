"""The tool palette: tool buttons, terrain swatches from the ruleset, brush
size, side (control and new units), bridge kind and the rules preview
chooser of Adjudicate mode."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.model import NO_SIDE, Scenario

from ..render import style
from ..tools.base import EditorState


@functools.lru_cache(maxsize=256)
def swatch(color: str, size: int = 18) -> QIcon:
    """A square icon of ``color``.  One per colour and size, shared: the
    units list rebuilds all its rows on every unit change, and an icon made
    per row each time was kept (the soak test's memory grew with units
    times changes; ``docs/reliability.md``)."""
    pm = QPixmap(size, size)
    pm.fill(QColor(color))
    return QIcon(pm)


class ToolPalette(QWidget):
    previewChosen = Signal(int)

    def __init__(self, state: EditorState, actions: Sequence[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        # the palette scrolls inside its dock, so its height never makes the
        # window taller than a 1366 x 768 screen
        inner = QWidget()
        lay = QVBoxLayout(inner)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        lay.setContentsMargins(4, 4, 4, 4)
        tools = QGridLayout()
        tools.setSpacing(2)
        for i, act in enumerate(actions):
            b = QToolButton()
            b.setDefaultAction(act)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setSizePolicy(b.sizePolicy().horizontalPolicy(), b.sizePolicy().verticalPolicy())
            b.setMinimumWidth(92)
            tools.addWidget(b, i // 2, i % 2)
        lay.addLayout(tools)

        self.terrain_box = QGroupBox("Terrain")
        tl = QVBoxLayout(self.terrain_box)
        tl.setContentsMargins(4, 4, 4, 4)
        self.terrain = QListWidget()
        self.terrain.setObjectName("terrainList")
        self.terrain.setIconSize(QSize(18, 18))
        self.terrain.setUniformItemSizes(True)
        self.terrain.currentRowChanged.connect(self._terrain_row)
        tl.addWidget(self.terrain)
        lay.addWidget(self.terrain_box, 1)

        self.options_box = QGroupBox("Options")
        form = QFormLayout(self.options_box)
        form.setContentsMargins(4, 4, 4, 4)
        size_row = QHBoxLayout()
        self.brush_slider = QSlider(Qt.Orientation.Horizontal)
        self.brush_slider.setRange(1, 9)
        self.brush_size = QSpinBox()
        self.brush_size.setRange(1, 9)
        self.brush_slider.valueChanged.connect(self.brush_size.setValue)
        self.brush_size.valueChanged.connect(self.brush_slider.setValue)
        self.brush_size.valueChanged.connect(state.set_brush_size)
        size_row.addWidget(self.brush_slider, 1)
        size_row.addWidget(self.brush_size)
        self.brush_row = QWidget()
        self.brush_row.setLayout(size_row)
        size_row.setContentsMargins(0, 0, 0, 0)
        form.addRow("Brush size", self.brush_row)
        self.side = QComboBox()
        self.side.currentIndexChanged.connect(self._side_index)
        form.addRow("Side", self.side)
        self.bridge = QComboBox()
        self.bridge.addItem("Road bridge", "road")
        self.bridge.addItem("Rail bridge", "rail")
        self.bridge.currentIndexChanged.connect(lambda _i: state.set_bridge_kind(self.bridge.currentData()))
        form.addRow("Bridge", self.bridge)
        self.preview = QComboBox()
        self.preview.setObjectName("previewChooser")
        self.preview.currentIndexChanged.connect(self.previewChosen.emit)
        # on a row of its own, full width: a preview's name ("GITM straight-line
        # march") is not cut off in the dock's default width
        form.addRow(QLabel("Rules preview"))
        form.addRow(self.preview)
        lay.addWidget(self.options_box)

        state.terrainChanged.connect(self._terrain_changed)
        state.brushSizeChanged.connect(self.brush_size.setValue)
        state.sideChanged.connect(self._side_changed)
        self.set_scenario(state.document.scenario)

    # -- model -> widgets ----------------------------------------------------
    def set_scenario(self, s: Scenario) -> None:
        self.terrain.blockSignals(True)
        self.terrain.clear()
        for t in s.ruleset.terrain:
            item = QListWidgetItem(swatch(t.color), t.name)
            item.setToolTip(f"{t.name} ({t.id}, symbol '{t.symbol}', cost {t.move_cost}"
                            + (", impassable" if t.impassable else "") + ")")
            self.terrain.addItem(item)
        self.terrain.setCurrentRow(self.state.terrain)
        self.terrain.blockSignals(False)
        self.side.blockSignals(True)
        self.side.clear()
        for i, f in enumerate(s.sides):
            self.side.addItem(swatch(style.side_color(s.sides, i).name()), f.name, i)
        self.side.addItem("Nobody", NO_SIDE)
        self.side.setCurrentIndex(max(0, self.side.findData(self.state.side)))
        self.side.blockSignals(False)

    def set_previews(self, names: Sequence[str]) -> None:
        self.preview.blockSignals(True)
        self.preview.clear()
        for n in names:
            self.preview.addItem(n)
        if not names:
            self.preview.addItem("(none applies to this scenario)")
        self.preview.setEnabled(bool(names))
        self.preview.blockSignals(False)

    def show_options(self, options: Sequence[str]) -> None:
        """Enable the option widgets the active tool uses."""
        self.terrain_box.setEnabled("terrain" in options)
        self.brush_row.setEnabled("brush" in options)
        self.side.setEnabled("side" in options)
        self.bridge.setEnabled("bridge" in options)

    def _terrain_row(self, row: int) -> None:
        if row >= 0:
            self.state.set_terrain(row)

    def _terrain_changed(self, index: int) -> None:
        if self.terrain.currentRow() != index:
            self.terrain.setCurrentRow(index)

    def _side_index(self, i: int) -> None:
        data = self.side.itemData(i)
        if data is not None:
            self.state.set_side(int(data))

    def _side_changed(self, index: int) -> None:
        i = self.side.findData(index)
        if i >= 0 and i != self.side.currentIndex():
            self.side.setCurrentIndex(i)
