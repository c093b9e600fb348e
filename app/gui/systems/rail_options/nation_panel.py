"""The per-nation rail panel of a Rail Options game: a
nation's rail this turn — capacity used and left (or Option 4's points),
technology, IPCs and income, its stations with their damage and whether they
can be used, its railroad markers, the pieces bought and not yet placed —
and the economy orders of ``docs/rules/rail-options.md`` ("Buying,
building, bombing"): buy, grant the rail technology, bomb, capture, destroy.

The figures are :func:`engine.rules.rail_options.economy.nation_report`'s,
the same ``adjutant rail-options FILE --nation N --json`` prints.  The panel
never changes the scenario: its buttons emit :attr:`NationRailPanel.orderRequested`
with an order of the turn engine, which the window gives for the side to
move (one journal entry, one undo step, or a refusal with its reason).
Placing a bought piece is the Station and Railroad tools' click while
playing (``app/gui/systems/rail_options/pieces.py``).
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
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

from engine.territory import TerritoryScenario

SIDE_TO_MOVE = ""
"""The nation combo's first entry: follow the side to move."""


def report_html(s: TerritoryScenario, data: dict[str, Any]) -> str:
    """The nation report as the panel shows it."""
    rows = [f"<b>{escape(data['name'])}</b>, Option {data['option']}, turn {data['turn']}"]
    cap = data.get("capacity")
    if cap is None:
        rows.append("Rail capacity: no limit under this option")
    else:
        limit = "no limit" if cap.get("limit") is None else str(cap["limit"])
        left = "" if cap.get("left") is None else f", {cap['left']} left"
        rows.append(f"Rail this turn: {cap.get('used', 0)} {escape(str(cap.get('unit', '')))} of {limit}{left}")
    if data.get("technology"):
        rows.append("Rail technology: yes (capacity raised)")
    ipcs = "not recorded" if data.get("ipcs") is None else str(data["ipcs"])
    rows.append(f"IPCs: {ipcs}; income {data.get('income', 0)}")
    prices = ", ".join(f"{k} {v}" for k, v in sorted(data.get("prices", {}).items()))
    rows.append(f"Prices: {escape(prices) or 'none'}")
    bought = {k: v for k, v in data.get("bought", {}).items() if v}
    rows.append("Bought, not placed: " + (", ".join(f"{v} {k}" for k, v in sorted(bought.items())) or "none"))
    stations = data.get("stations", [])
    if stations:
        rows.append(f"Stations ({len(stations)}):")
        for st in stations:
            state = "usable" if st["usable"] else f"not usable: {escape(st['reason'] or '')}"
            rows.append(f"&nbsp;&nbsp;{escape(st['name'])}: damage {st['damage']}, {state}")
    else:
        rows.append("Stations: none")
    markers = data.get("railroad", [])
    names = [s.map.territories[t].name for t in markers if t in s.map.territories]
    rows.append(f"Railroad markers ({len(names)}): " + (escape(", ".join(names)) if names else "none"))
    return "<br>".join(rows)


class NationRailPanel(QWidget):
    """A nation's rail and the economy orders (see the module docstring)."""

    orderRequested = Signal(object)  # a dict (not Signal(dict): Qt would sort its keys, and the journal keeps them)
    nationChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.nation = QComboBox()
        self.nation.setToolTip("Whose rail to show: the side to move, or any nation")
        self.nation.currentIndexChanged.connect(lambda _i: self.nationChosen.emit(self.chosen() or ""))
        self.report = QLabel()
        self.report.setWordWrap(True)
        self.report.setTextFormat(Qt.TextFormat.RichText)
        self.report.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.report.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        economy = QGroupBox("Orders of the side to move")
        form = QFormLayout(economy)
        self.piece = QComboBox()
        self.piece.addItems(["station", "railroad"])
        self.count = QSpinBox()
        self.count.setRange(1, 99)
        buy_row = QHBoxLayout()
        buy_row.addWidget(self.piece)
        buy_row.addWidget(self.count)
        self.buy = QPushButton("Buy")
        self.buy.setToolTip("Buy pieces in the purchase phase, paid from the nation's IPCs")
        buy_row.addWidget(self.buy)
        form.addRow("Piece", buy_row)
        self.tech = QPushButton("Grant rail technology")
        self.tech.setToolTip("The side to move gains the rail technology (purchase phase; the scenario's "
                             "technology switch must be on): its rail capacity rises by tech_bonus")
        form.addRow(self.tech)
        self.aa = QLineEdit()
        self.aa.setPlaceholderText("e.g. 3 5")
        self.aa.setToolTip("Anti-aircraft dice, one a bomber (Options 1-3: the station's built-in AA fires first)")
        self.dice = QLineEdit()
        self.dice.setPlaceholderText("empty: rolled from the seed")
        self.dice.setToolTip("One die for each bomber left after the anti-aircraft fire; leave both empty to roll "
                             "them from the seed (the journal records the seed)")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.bombers = QSpinBox()
        self.bombers.setRange(1, 99)
        form.addRow("Bombers", self.bombers)
        form.addRow("AA dice", self.aa)
        form.addRow("Dice", self.dice)
        form.addRow("Seed", self.seed)
        act_row = QHBoxLayout()
        self.bomb = QPushButton("Bomb")
        self.bomb.setToolTip("A strategic bombing raid on the enemy rail in the selected territory (combat phase)")
        self.capture = QPushButton("Capture")
        self.capture.setToolTip("The side to move takes the selected enemy territory (combat phase)")
        self.destroy_own = QPushButton("Destroy own")
        self.destroy_own.setToolTip("Destroy the side's own piece in the selected territory (Options 2 and 4)")
        for b in (self.bomb, self.capture, self.destroy_own):
            act_row.addWidget(b)
        form.addRow(act_row)
        self.target = QLabel("Select a territory on the map to bomb, capture or destroy in.")
        self.target.setWordWrap(True)
        form.addRow(self.target)

        lay = QVBoxLayout(self)
        lay.addWidget(self.nation)
        lay.addWidget(self.report)
        lay.addWidget(economy)
        lay.addStretch(1)
        self._territory: str | None = None
        self._territory_name: str | None = None
        self.buy.clicked.connect(lambda: self.orderRequested.emit(
            {"action": "buy", "piece": self.piece.currentText(), "count": self.count.value()}))
        self.tech.clicked.connect(lambda: self.orderRequested.emit({"action": "technology"}))
        self.bomb.clicked.connect(self._bomb)
        self.capture.clicked.connect(lambda: self._on_territory({"action": "capture"}))
        self.destroy_own.clicked.connect(lambda: self._on_territory({"action": "destroy",
                                                                 "piece": self.piece.currentText()}))
        self.set_territory(None, None)

    def set_sides(self, s: TerritoryScenario) -> None:
        """The nation combo's entries for ``s`` (kept on the same nation when
        it still exists)."""
        keep = self.chosen()
        self.nation.blockSignals(True)
        self.nation.clear()
        self.nation.addItem("Side to move", SIDE_TO_MOVE)
        for f in s.sides:
            self.nation.addItem(f.name, f.id)
        i = self.nation.findData(keep) if keep else 0
        self.nation.setCurrentIndex(max(0, i))
        self.nation.blockSignals(False)

    def chosen(self) -> str | None:
        """The nation chosen in the combo, ``None`` for the side to move."""
        data = self.nation.currentData()
        return data or None

    def set_report(self, s: TerritoryScenario | None, data: dict[str, Any] | None, problem: str = "") -> None:
        if s is None or data is None:
            self.report.setText(escape(problem) if problem else "No nation's rail to show.")
            return
        self.report.setText(report_html(s, data))

    def set_territory(self, tid: str | None, name: str | None) -> None:
        """The territory the bomb, capture and destroy buttons act on."""
        self._territory, self._territory_name = tid, name
        for b in (self.bomb, self.capture, self.destroy_own):
            b.setEnabled(tid is not None)
        self.target.setText(f"In {name}." if name else "Select a territory on the map to bomb, capture or destroy in.")

    def set_playable(self, on: bool, why: str = "") -> None:
        """Whether the scenario is a Rail Options game (orders possible)."""
        for w in (self.buy, self.tech, self.piece, self.count, self.aa, self.dice, self.seed, self.bombers):
            w.setEnabled(on)
        if not on:
            for b in (self.bomb, self.capture, self.destroy_own):
                b.setEnabled(False)
            self.target.setText(why or "This scenario is not a Rail Options game.")
        else:
            self.set_territory(self._territory, self._territory_name)

    def _on_territory(self, order: dict[str, Any]) -> None:
        if self._territory is not None:
            self.orderRequested.emit({"action": order["action"], "territory": self._territory,
                                      **{k: v for k, v in order.items() if k != "action"}})

    def _bomb(self) -> None:
        order: dict[str, Any] = {"action": "bomb", "bombers": self.bombers.value()}
        def dice(edit: QLineEdit) -> list[Any]:
            return [int(d) if d.isdigit() else d for d in edit.text().replace(",", " ").split()]

        if self.dice.text().strip() or self.aa.text().strip():
            order["dice"] = dice(self.dice)
            if self.aa.text().strip():
                order["aa"] = dice(self.aa)
        else:
            order["seed"] = self.seed.value()
        self._on_territory(order)


__all__ = ["NationRailPanel", "report_html"]


class NationRail:
    """The panel's dock in a territory window, kept current, and the one
    place the window gives Rail Options economy orders (the panel's buttons,
    the Station and Railroad tools while playing).  ``ctx`` is the window's
    tool context, ``host`` the window as an install sees it, ``rail`` what
    holds the option chosen (its ``option``)."""

    def __init__(self, ctx: Any, host: Any, rail: Any) -> None:
        from PySide6.QtCore import Qt as _Qt

        self.ctx = ctx
        self.rail = rail
        self.panel = NationRailPanel()
        self.dock = host.add_dock("Nation rail", "nationRailDock", self.panel, _Qt.DockWidgetArea.RightDockWidgetArea,
                                  tab_with="railOptionsDock")
        self.panel.orderRequested.connect(self.give)
        self.panel.nationChosen.connect(lambda _n: self.refresh())
        self.dock.visibilityChanged.connect(lambda shown: self.refresh() if shown else None)
        ctx.document.edited.connect(lambda *_: self.refresh())
        ctx.document.scenarioReplaced.connect(self._replaced)
        self._replaced(ctx.scenario)

    def _replaced(self, s: TerritoryScenario) -> None:
        self.panel.set_sides(s)
        self.panel.set_territory(None, None)
        self.refresh()

    def is_game(self) -> bool:
        """Whether the scenario is a Rail Options game (its ruleset names
        the system)."""
        from engine.rules.rail_options import SYSTEM

        return SYSTEM in self.ctx.scenario.ruleset.options

    def playing(self) -> bool:
        """Whether the map tools' placements are orders of the game."""
        return self.is_game() and self.ctx.turns.playing()

    def nation(self) -> str | None:
        from engine.rules.rail_options.economy import side_to_move

        s = self.ctx.scenario
        return self.panel.chosen() or side_to_move(s) or (s.sides[0].id if s.sides else None)

    def refresh(self) -> None:
        """Show the chosen nation's rail (only while the dock is shown: the
        report searches the whole map)."""
        from engine.model import ModelError
        from engine.rules.rail_options import RailOptionsError, config_of
        from engine.rules.rail_options.economy import nation_report

        self.panel.set_playable(self.is_game(), "" if self.is_game() else
                                "This scenario is not a Rail Options game: its ruleset has no rail_options.")
        if not self.dock.isVisible():
            return
        s = self.ctx.scenario
        nation = self.nation()
        if nation is None:
            self.panel.set_report(None, None, "The scenario has no sides.")
            return
        try:
            data = nation_report(s, config_of(s.ruleset.options, self.rail.option), nation)
        except (RailOptionsError, ModelError) as e:
            self.panel.set_report(None, None, str(e))
            return
        self.panel.set_report(s, data)

    def set_selection(self, tids: list[str]) -> None:
        t = self.ctx.scenario.map.territories.get(tids[-1]) if tids else None
        self.panel.set_territory(None if t is None else t.id, None if t is None else t.name)

    def give(self, order: dict[str, Any]) -> bool:
        """Give an economy order for the side to move (one journal entry
        and undo step); say what the rules answered.  Whether it was carried
        out."""
        from engine.rules.rail_options.economy import side_to_move

        if not self.is_game():
            self.ctx.say("This scenario is not a Rail Options game: there is no rail economy to play.")
            return False
        nation = side_to_move(self.ctx.scenario) or self.nation()
        full = {"action": order["action"], "nation": nation, **{k: v for k, v in order.items() if k != "action"}}
        self.ctx.turns.set_playing(True)
        ok, text = self.ctx.turns.give(full)
        game = self.ctx.turns.game()
        what = game.order_text(full) if game is not None else str(order["action"])
        self.ctx.say(f"{what}: {text}" if ok and text else (f"{what}: carried out" if ok else
                                                           f"Refused ({what}): {text}"))
        return bool(ok)
