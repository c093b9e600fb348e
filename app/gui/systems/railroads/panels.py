"""The Rail plan dock of Module I: Railroads (:class:`RailPlanPanel`): the
orders, the verdict and a pyqtgraph chart of capacity along the routes.
It only shows values and turns input into requests; it never changes the
model itself."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class RailPlanPanel(QWidget):
    """Orders, the verdict, and a bar chart of used against available
    capacity along the routes."""

    removeRequested = Signal(int)
    clearRequested = Signal()

    NARROW = 560
    """Narrower than this (a dock in the window's side column) the chart
    goes under the orders, its title on two lines."""
    TITLE = "Rail capacity along the routes:{}grey available, blue used, magenta full"

    def __init__(self) -> None:
        super().__init__()
        self._lay = lay = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
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
        self.chart.setTitle(self.TITLE.format(" "), color="#222", size="9pt")
        self.chart.showGrid(y=True, alpha=0.3)
        self.chart.setMouseEnabled(x=False, y=False)
        self.chart.hideButtons()
        lay.addWidget(self.chart, 3)
        self._tick_font = self.font()
        self._tick_font.setPixelSize(10)
        self.bars_cap: pg.BarGraphItem | None = None
        self.bars_used: pg.BarGraphItem | None = None
        self.remove.clicked.connect(lambda: self.removeRequested.emit(self.orders.currentRow()))
        self.orders.setMinimumHeight(self.orders.fontMetrics().height() * 3)
        self.clear.clicked.connect(self.clearRequested.emit)

    def resizeEvent(self, event: object) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)  # type: ignore[arg-type]
        narrow = self.width() < self.NARROW
        direction = QBoxLayout.Direction.TopToBottom if narrow else QBoxLayout.Direction.LeftToRight
        if self._lay.direction() != direction:
            self._lay.setDirection(direction)
            self.chart.setTitle(self.TITLE.format("<br>" if narrow else " "), color="#222", size="9pt")

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


__all__ = ["RailPlanPanel"]
