"""The ACW preview's dock: a pyqtgraph plot of a pending attack over the 100
result numbers 0-99 (who wins, the casualties each side takes).  Imported
only when the dock is first shown."""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from engine.rules.acw import Odds


class Attack(Protocol):
    """The attack the plot shows (:class:`app.gui.systems.acw.previews.Attack` is
    one): where it comes from, the hex attacked, its odds."""

    @property
    def from_label(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def odds(self) -> Odds: ...

ATTACKER_BRUSH = "#3b6fb6"
DEFENDER_BRUSH = "#d9822b"
WIN_REGION = (60, 170, 90, 45)
LOSE_REGION = (220, 60, 50, 35)


class OddsPlot(QWidget):
    """Bars above the axis: the attacker's casualties; below: the
    defender's.  The green band covers the result numbers the attacker wins
    (0 to the victory number), the red one those the defender wins."""

    def __init__(self, fold_when_empty: bool = False) -> None:
        super().__init__()
        self.setObjectName("acwOddsPlot")
        self.fold_when_empty = fold_when_empty
        """With no attack to show, only the one-line hint shows and the
        widget is no taller than it (a dock of its own then gives its room
        to the map); the plot comes back with the next attack."""
        self.title = QLabel("Point at a hex next to the enemy to see the attack's odds.")
        self.title.setWordWrap(True)
        self.chart = pg.PlotWidget(background="w")
        self.chart.setMinimumHeight(160)
        self.chart.setLabel("bottom", "result number (00-99)")
        self.chart.setLabel("left", "casualties (factors)")
        self.chart.showGrid(x=False, y=True, alpha=0.3)
        self.chart.setXRange(-0.5, 99.5, padding=0.01)
        # the legend is a line of its own above the plot, never over the bars
        # (pyqtgraph's in-plot legend covered the first results' bars)
        self.legend = QLabel(
            f'<span style="color:{ATTACKER_BRUSH}">&#9632;</span> attacker\'s casualties (above the axis) &nbsp; '
            f'<span style="color:{DEFENDER_BRUSH}">&#9632;</span> defender\'s casualties (below) &nbsp; '
            f'<span style="color:rgb{WIN_REGION[:3]}">&#9632;</span> attacker wins &nbsp; '
            f'<span style="color:rgb{LOSE_REGION[:3]}">&#9632;</span> defender wins')
        self.legend.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.legend)
        layout.addWidget(self.chart)
        self.attack: Attack | None = None
        self._fold(True)

    def _fold(self, empty: bool) -> None:
        if not self.fold_when_empty:
            return
        self.legend.setVisible(not empty)
        self.chart.setVisible(not empty)
        lay = self.layout()
        m = lay.contentsMargins() if lay is not None else None
        pad = (m.top() + m.bottom()) if m is not None else 8
        self.setMaximumHeight(self.title.sizeHint().height() + pad if empty else 16777215)

    def show_attack(self, attack: Attack | None) -> None:
        """Plot ``attack`` (``None``: clear the plot)."""
        if attack is self.attack:
            return
        self.attack = attack
        self.chart.clear()
        self._fold(attack is None)
        if attack is None:
            self.title.setText("Point at a hex next to the enemy to see the attack's odds.")
            return
        o = attack.odds
        vn = o.victory_number
        xs = np.arange(len(o.outcomes), dtype=float)
        att = np.array([x.attacker_casualties for x in o.outcomes], dtype=float)
        dfn = np.array([x.defender_casualties for x in o.outcomes], dtype=float)
        edge = min(max(vn + 0.5, -0.5), len(o.outcomes) - 0.5)
        win = pg.LinearRegionItem((-0.5, edge), movable=False, brush=pg.mkBrush(WIN_REGION),
                                  pen=pg.mkPen(None))
        lose = pg.LinearRegionItem((edge, len(o.outcomes) - 0.5), movable=False, brush=pg.mkBrush(LOSE_REGION),
                                   pen=pg.mkPen(None))
        for region in (win, lose):
            region.setZValue(-10)
            self.chart.addItem(region)
        self.chart.addItem(pg.BarGraphItem(x=xs, height=att, width=0.8, brush=pg.mkBrush(ATTACKER_BRUSH),
                                           pen=pg.mkPen(None), name="attacker's casualties"))
        self.chart.addItem(pg.BarGraphItem(x=xs, height=-dfn, width=0.8, brush=pg.mkBrush(DEFENDER_BRUSH),
                                           pen=pg.mkPen(None), name="defender's casualties (below)"))
        line = pg.InfiniteLine(edge, angle=90, pen=pg.mkPen("#1b1b1b", width=2, style=pg.QtCore.Qt.PenStyle.DashLine),
                               label=f"victory number {vn}", labelOpts={"position": 0.92, "color": "#1b1b1b"})
        self.chart.addItem(line)
        top = max(float(att.max()), float(dfn.max()), 1.0)
        self.chart.setYRange(-top - 0.5, top + 0.5, padding=0.05)
        self.chart.setXRange(-0.5, 99.5, padding=0.01)
        self.title.setText(f"Attack from {attack.from_label} on {attack.label}: victory number {vn}; the attacker "
                           f"wins on results 00-{vn:02d} ({o.wins} of {len(o.outcomes)}, {o.wins}%), the defender "
                           f"on the rest.")
