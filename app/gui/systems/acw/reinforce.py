"""The Combat dock's Reinforcements tab (``docs/rules/acw.md``,
"Reinforcements"): the points banked per side, the Rebel reinforcement post
(``{"reinforcement_post": "H:MM:SS.mmm"}``, on the Rebels' move; with
``rebel_gain: "factor"`` it names the unit), factor purchases
(``{"unit", "factors"}``: infantry 1 point a factor, cavalry and artillery
2) and new units (``{"new_unit", "type", "at"}``).  Every order goes
through the owning :class:`~app.gui.systems.acw.combat.CombatPanel` (the turn
engine: one journal entry and one undo step); a refusal is said, and when
the unit or hex is off the rail held to the map edge the panel outlines
that rail on the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from PySide6.QtCore import Qt, QTime
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.model import Scenario
from engine.rules.acw.options import options_for
from engine.rules.acw.reinforcement import points
from engine.rules.acw.units import display_name


class CombatPanel(Protocol):
    """What the tab needs of the panel that owns it
    (:class:`app.gui.systems.acw.combat.CombatPanel` is one): the scenario, the side
    to move, giving an order, and the rail shown held to the edge."""

    rail_side: str | None

    @property
    def scenario(self) -> Scenario: ...

    def side(self) -> str | None: ...

    def give(self, order: Mapping[str, Any]) -> tuple[bool, str]: ...

    def draw(self) -> None: ...


def label(text: str = "", name: str | None = None) -> QLabel:
    """A word-wrapped, selectable label."""
    w = QLabel(text)
    w.setWordWrap(True)
    w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name:
        w.setObjectName(name)
    return w


def narrow(box: QComboBox) -> None:
    """A combo box that does not widen the dock to its longest item."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(8)


def time_field(placeholder: str, sample: str) -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setMinimumWidth(edit.fontMetrics().horizontalAdvance(sample))
    return edit


class ReinforcementTab(QWidget):
    """See the module docstring; ``panel`` gives the orders and draws the rail."""

    def __init__(self, panel: CombatPanel) -> None:
        super().__init__()
        self.panel = panel
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.points_label = label(name="combatPoints")
        lay.addWidget(self.points_label)

        self.post_group = QGroupBox("Rebel post")
        form = QFormLayout(self.post_group)
        row = QHBoxLayout()
        self.post_time = time_field("H:MM:SS.mmm", "23:59:59.9999")
        self.post_time.setObjectName("combatPostTime")
        self.post_time.setToolTip("The post's time with its milliseconds: milliseconds mod 6 against the "
                                  "cities E, G, I, O, M, L the Rebels hold")
        self.post_now = QPushButton("Now")
        self.post_now.clicked.connect(lambda: self.post_time.setText(QTime.currentTime().toString("H:mm:ss.zzz")))
        row.addWidget(self.post_time, 1)
        row.addWidget(self.post_now)
        form.addRow("Time", row)
        self.post_unit = QComboBox()
        self.post_unit.setObjectName("combatPostUnit")
        self.post_unit.setToolTip("With rebel_gain 'factor' the post names the unit that gains the factor")
        form.addRow("Unit", self.post_unit)
        self._post_form = form
        self.post_btn = QPushButton("Post")
        self.post_btn.setObjectName("combatPost")
        self.post_btn.clicked.connect(self.post)
        form.addRow(self.post_btn)
        lay.addWidget(self.post_group)

        box = QGroupBox("Buy factors")
        form = QFormLayout(box)
        self.buy_unit = QComboBox()
        self.buy_unit.setObjectName("combatBuyUnit")
        form.addRow("Unit", self.buy_unit)
        self.buy_factors = QSpinBox()
        self.buy_factors.setObjectName("combatBuyFactors")
        self.buy_factors.setRange(1, 20)
        form.addRow("Factors", self.buy_factors)
        self.buy_btn = QPushButton("Buy")
        self.buy_btn.setObjectName("combatBuy")
        self.buy_btn.setToolTip("Infantry 1 point a factor, cavalry and artillery 2; the unit must not move this "
                                "turn and stand in or next to a rail hex held to the map edge")
        self.buy_btn.clicked.connect(self.buy)
        form.addRow(self.buy_btn)
        lay.addWidget(box)

        box = QGroupBox("New unit")
        form = QFormLayout(box)
        self.new_id = QLineEdit()
        self.new_id.setObjectName("combatNewId")
        form.addRow("Id", self.new_id)
        self.new_type = QComboBox()
        self.new_type.setObjectName("combatNewType")
        form.addRow("Type", self.new_type)
        self.new_at = QLineEdit()
        self.new_at.setObjectName("combatNewAt")
        self.new_at.setPlaceholderText("hex, e.g. 0410")
        form.addRow("Hex", self.new_at)
        self.new_btn = QPushButton("Raise")
        self.new_btn.setObjectName("combatRaise")
        self.new_btn.clicked.connect(self.raise_unit)
        form.addRow(self.new_btn)
        lay.addWidget(box)
        self.message = label(name="combatReinforceMessage")
        lay.addWidget(self.message)
        lay.addStretch(1)  # the tab is as tall as the Battle tab: its forms stay at the top
        for combo in (self.post_unit, self.buy_unit, self.new_type):
            narrow(combo)

    def refresh(self, s: Scenario, side: str | None, over: bool) -> None:
        """Show ``s`` with ``side`` to move (``over``: the game has ended)."""
        o = options_for(s)
        pts = ", ".join(f"{f.name} {points(s, f.id)}" for f in s.sides)
        self.points_label.setText(f"Reinforcement points banked: {pts}. The Union gains "
                                  f"{o.union_points_per_turn} a turn; the Rebels roll with a post.")
        rebel_move = side == o.rebel_side
        self.post_group.setEnabled(rebel_move and not over)
        self.post_group.setTitle("Rebel post" + ("" if rebel_move else " (Rebels' move)"))
        self._post_form.setRowVisible(self.post_unit, o.rebel_gain == "factor")
        mine = sorted((u for u in s.units if u.side == side), key=lambda u: u.id)
        for box in (self.buy_unit, self.post_unit):
            keep = box.currentData()
            box.clear()
            for u in mine:
                box.addItem(f"{u.id} ({u.strength}, {s.map.label(u.at)})", u.id)
                box.setItemData(box.count() - 1, f"{display_name(u)}: {u.strength} factors in {s.map.label(u.at)}",
                                Qt.ItemDataRole.ToolTipRole)
            found = box.findData(keep)
            box.setCurrentIndex(found if found >= 0 else 0)
        keep_type = self.new_type.currentText()
        self.new_type.clear()
        self.new_type.addItems([t.id for t in s.ruleset.unit_types])
        if keep_type:
            self.new_type.setCurrentText(keep_type)

    # -- orders ---------------------------------------------------------------
    def post(self) -> bool:
        time = self.post_time.text().strip()
        if not time:
            self.message.setText("Give the post's time (H:MM:SS.mmm) first, or press Now.")
            return False
        order: dict[str, Any] = {"reinforcement_post": time}
        if options_for(self.panel.scenario).rebel_gain == "factor":
            order["unit"] = self.post_unit.currentData()
        return self._give(order)

    def buy(self) -> bool:
        uid = self.buy_unit.currentData()
        if not uid:
            return False
        return self._give({"unit": uid, "factors": self.buy_factors.value()})

    def raise_unit(self) -> bool:
        uid, at = self.new_id.text().strip(), self.new_at.text().strip()
        if not uid or not at:
            self.message.setText("A new unit needs an id and a hex.")
            return False
        return self._give({"new_unit": uid, "type": self.new_type.currentText(), "at": at})

    def _give(self, order: dict[str, Any]) -> bool:
        panel = self.panel
        panel.rail_side = None
        ok, why = panel.give(order)
        if not ok and "rail" in why and panel.side() is not None:
            panel.rail_side = panel.side()  # show where the rail is held to the edge
            why += " (the rail hexes held to the map edge are outlined on the map)"
            panel.draw()
        self.message.setText(why if ok else f"Refused: {why}")
        return ok
