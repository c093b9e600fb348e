"""The Combat dock of an ACW game: the attack, the cavalry's
choice, the battle, the retreat and the reinforcements, each given as an
order of the game through the window's :class:`~app.gui.turns.TurnController`
(so every step is one journal entry and one undo step, the same entries
``adjutant orders`` writes for the same orders).

The **Battle** tab lists the attacks the side to move can make (the ones a
unit owes, having halted next to the enemy, first), shows both forces with
their factors, each defender's doubling (woods, river, fortification), the
victory number and the odds plot (:class:`~app.gui.systems.acw.plot.OddsPlot`),
takes the post time (``H:MM:SS``; Now reads the clock) and resolves it:
``{"attack": HEX, "defend": HEX, "time": "H:MM:SS"}``.  The result number,
the winner and each unit's casualties are shown after.  Defending cavalry
engaged by infantry is offered its one-hex withdrawal first
(``{"withdraw"}`` / ``{"stand"}``).  A retreat owed is drawn on the map (the
legal hexes, with the half-factor loss where it ends next to the enemy); a
click on one of them, or Retreat, gives ``{"retreat": HEX, "to": HEX}``.
A force with no legal retreat was already dealt with by the engine (option
``no_retreat``): the result says so.

The **Reinforcements** tab is :mod:`.reinforce`; this panel draws the
rail held to the map edge when it refuses a unit off it.

The panel lives as long as its window and reads the document's current
scenario on every refresh; on another map it hides its dock (no widget it
holds is deleted under it).  Rules:
``docs/rules/acw.md``; the editor's guide: ``docs/editor.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QTime, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.grids import Cell
from engine.model import ModelError, Scenario
from engine.rules.acw import SYSTEM, engagement, odds
from engine.rules.acw.options import options_for
from engine.rules.acw.orders import cavalry_choices, owed_combats, pending_retreats
from engine.rules.acw.reinforcement import points, rail_to_edge
from engine.rules.acw.retreat import RetreatPlan, retreat_options
from engine.rules.acw.units import display_name

from ...overlay import CellMark, Marker, Overlay
from .reinforce import ReinforcementTab, label, narrow, time_field

OVERLAY_KEY = "combat"
ATTACK_OUTLINE = "#1b1b1b"
"""The attacking hexes: black, not to be read as a blue river."""
DEFEND_COLOR = "#e0201a"
RETREAT_SAFE = "#2e8b5780"
RETREAT_COSTLY = "#f0ad4e99"
RAIL_OUTLINE = "#7b3294"


@dataclass(frozen=True)
class Candidate:
    """An attack the side to move can make: from ``attack`` on ``defend``
    (labels); ``owed`` when a unit in ``attack`` halted next to the enemy
    this turn and must fight."""

    attack: str
    defend: str
    owed: bool

    def text(self) -> str:
        return f"{self.attack} \u2192 {self.defend}" + (" (owed)" if self.owed else "")


def candidates(scenario: Scenario, side: str) -> list[Candidate]:
    """Every (attacking hex, defended hex) pair of ``side``: hexes holding a
    unit of ``side`` that has not fought, next to an enemy-held hex; owed
    attacks first, then by label."""
    grid, lab = scenario.map.grid, scenario.map.label
    enemy = {u.at for u in scenario.units if not scenario.allied(u.side, side)}
    mine: dict[Cell, bool] = {}
    for u in scenario.units:
        if u.side == side and not u.props.get("fought"):
            mine[u.at] = mine.get(u.at, False) or bool(u.props.get("moved"))
    out = []
    for cell, moved in mine.items():
        for n in grid.neighbours(cell):
            if n in enemy and grid.are_adjacent(cell, n):
                out.append(Candidate(lab(cell), lab(n), moved))
    return sorted(set(out), key=lambda c: (not c.owed, c.attack, c.defend))


def _units_lost(rows: Any) -> str:
    parts = []
    for x in rows or ():
        lost = int(x.get("lost", 0))
        if lost:
            gone = " (eliminated)" if x.get("eliminated") else ""
            parts.append(f"{x.get('name', x.get('unit'))} {x.get('before')}\u2192{x.get('after')}{gone}")
    return ", ".join(parts) or "none"


class CombatPanel(QWidget):
    """The Combat dock's widget (see the module docstring).  ``window`` is a
    grid editor window with ``document``, ``turns``, ``canvas`` and a status
    bar."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.setObjectName("combatPanel")
        self.window_ = window
        self.dock: Any = None
        self._applies: bool | None = None
        self.rail_side: str | None = None
        """Draw this side's rail held to the map edge (after a refused purchase)."""
        self._plan: RetreatPlan | None = None
        self._busy = False
        self._owed = False
        """Whether a combat or retreat was owed at the last refresh."""
        self._said_at: int | None = None
        """The journal's length when the result or reinforcement message was
        written: another step (an order, End Turn, undo) clears them."""
        self._turn_key: tuple[int, str | None] | None = None
        """The turn and side the post times were typed for: another side's
        turn starts with them empty."""

        self.header = label(name="combatHeader")
        self.tabs = QTabWidget()
        self.tabs.setObjectName("combatTabs")
        self.tabs.addTab(self._battle_tab(), "Battle")
        self.reinforcements = ReinforcementTab(self)
        self.tabs.addTab(self.reinforcements, "Reinforcements")
        self.tabs.currentChanged.connect(lambda _i: QTimer.singleShot(0, self, self.fit_fold))
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.header)
        lay.addWidget(self.tabs)
        lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        self._body = body
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(150)
        self._later.timeout.connect(self.refresh)
        window.turns.changed.connect(self.refresh)
        window.document.scenarioReplaced.connect(self._replaced)
        window.document.edited.connect(self._edited)  # set-up edits move units too

    FOLD_MAX = 360
    """The most pixels the dock asks to show at once (the rest scrolls)."""

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        QTimer.singleShot(0, self, self.fit_fold)

    def fit_fold(self) -> None:
        """Ask for the height that shows the current tab's orders down to
        its main button (Battle: Resolve; Reinforcements: Buy), at most
        :data:`FOLD_MAX`, so the dock does not open with them below its
        fold; the rest scrolls."""
        b = self.resolve_btn if self.tabs.currentIndex() == 0 else self.reinforcements.buy_btn
        if not b.isVisible():
            return
        bottom = b.mapTo(self._body, b.rect().bottomLeft()).y() + 8
        want = min(bottom, self.FOLD_MAX)
        if want != self.minimumHeight():
            self.setMinimumHeight(want)

    # -- building -----------------------------------------------------------
    def _battle_tab(self) -> QWidget:
        from .plot import OddsPlot

        tab = QWidget()
        lay = QVBoxLayout(tab)
        lay.setContentsMargins(4, 4, 4, 4)
        self.attack_box = QComboBox()
        self.attack_box.setObjectName("combatAttack")
        self.attack_box.setToolTip("The attacks the side to move can make; '(owed)': a unit halted next to the "
                                   "enemy this turn and must fight")
        self.attack_box.currentIndexChanged.connect(self._attack_chosen)
        lay.addWidget(self.attack_box)
        self.join_list = QListWidget()
        self.join_list.setObjectName("combatJoin")
        self.join_list.setToolTip("Other hexes of the side to move next to the defended hex: checked, their units "
                                  "attack too (every attacking hex behind a river is needed for the river's doubling)")
        self.join_list.setMaximumHeight(self.join_list.fontMetrics().height() * 4)
        self.join_list.itemChanged.connect(self._join_changed)
        lay.addWidget(self.join_list)
        self.forces = label(name="combatForces")
        lay.addWidget(self.forces)

        self.cavalry_group = QGroupBox("Cavalry engaged by infantry")
        cav = QVBoxLayout(self.cavalry_group)
        self.cavalry = label(name="combatCavalry")
        cav.addWidget(self.cavalry)
        row = QHBoxLayout()
        self.withdraw_to = QComboBox()
        self.withdraw_to.setObjectName("combatWithdrawTo")
        self.withdraw_btn = QPushButton("Withdraw")
        self.withdraw_btn.setObjectName("combatWithdraw")
        self.withdraw_btn.clicked.connect(self.withdraw)
        self.stand_btn = QPushButton("Stand")
        self.stand_btn.setObjectName("combatStand")
        self.stand_btn.clicked.connect(self.stand)
        row.addWidget(QLabel("To"))
        row.addWidget(self.withdraw_to, 1)
        cav.addLayout(row)
        row = QHBoxLayout()
        row.addWidget(self.withdraw_btn)
        row.addWidget(self.stand_btn)
        cav.addLayout(row)
        lay.addWidget(self.cavalry_group)

        row = QHBoxLayout()
        row.addWidget(QLabel("Post time"))
        self.time_edit = time_field("H:MM:SS", "23:59:59.9999")
        self.time_edit.setObjectName("combatTime")
        self.time_edit.setToolTip("The time of the post that orders the attack, to the second (H:MM:SS)")
        self.time_edit.returnPressed.connect(self.resolve)
        self.now_btn = QPushButton("Now")
        self.now_btn.setObjectName("combatNow")
        self.now_btn.setToolTip("Use the clock's time now")
        self.now_btn.clicked.connect(lambda: self.time_edit.setText(QTime.currentTime().toString("H:mm:ss")))
        self.resolve_btn = QPushButton("Resolve")
        self.resolve_btn.setObjectName("combatResolve")
        self.resolve_btn.clicked.connect(self.resolve)
        row.addWidget(self.time_edit, 1)
        row.addWidget(self.now_btn)
        lay.addLayout(row)
        lay.addWidget(self.resolve_btn)
        self.result = label(name="combatResult")
        lay.addWidget(self.result)

        self.retreat_group = QGroupBox("Retreat owed")
        ret = QVBoxLayout(self.retreat_group)
        self.retreat_label = label(name="combatRetreatLabel")
        ret.addWidget(self.retreat_label)
        row = QHBoxLayout()
        self.retreat_box = QComboBox()
        self.retreat_box.setObjectName("combatRetreatTo")
        self.retreat_btn = QPushButton("Retreat")
        self.retreat_btn.setObjectName("combatRetreat")
        self.retreat_btn.clicked.connect(lambda: self.retreat(self.retreat_box.currentData()))
        row.addWidget(self.retreat_box, 1)
        row.addWidget(self.retreat_btn)
        ret.addLayout(row)
        lay.addWidget(self.retreat_group)
        self.plot = OddsPlot()
        self.plot.chart.setMinimumHeight(130)
        lay.addWidget(self.plot)
        for combo in (self.attack_box, self.withdraw_to, self.retreat_box):
            narrow(combo)
        return tab

    # -- the game -------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        s: Scenario = self.window_.document.scenario
        return s

    def game(self) -> Any:
        g = self.window_.turns.game()
        return g if g is not None and g.system.name == SYSTEM else None

    def side(self) -> str | None:
        g = self.game()
        return g.turn.side if g is not None else None

    def owes(self) -> bool:
        """Whether a combat or a retreat is owed now."""
        if self.game() is None:
            return False
        s = self.scenario
        return bool(pending_retreats(s) or owed_combats(s))

    def show_if_owed(self) -> bool:
        """Whether a combat or a retreat is owed now; if so the dock shows it
        (End Turn or End Phase was refused: :attr:`app.gui.game.GameUI.owed`)."""
        if not self.owes():
            return False
        self.show_owed()
        return True

    def show_owed(self) -> None:
        """Bring the dock and the Battle tab to the front (End Turn was refused)."""
        if self.dock is not None:
            self.dock.show()
            self.dock.raise_()
            self._grow()

    def _grow(self) -> None:
        """The dock's group takes three fifths of the column's height: the panel is long."""
        win = self.window_
        if self.dock is not None and self.dock.isVisible():
            win.resizeDocks([self.dock], [max(300, win.height() * 3 // 5)], Qt.Orientation.Vertical)
        self.tabs.setCurrentIndex(0)

    def give(self, order: Mapping[str, Any]) -> tuple[bool, str]:
        """Give ``order`` through the window's turn controller (the window
        then plays the game); the outcome is also said in the status bar."""
        if self.window_.game.replay_blocks():
            return False, "the window shows a replayed position (read-only)"
        turns = self.window_.turns
        if not turns.playing():
            turns.set_playing(True)
        ok, why = turns.give(order)
        self.window_.statusBar().showMessage(why if ok else f"Refused: {why}", 10000)
        g = self.game()
        self._said_at = len(g.journal) if g is not None else None
        return ok, why

    def _last_record(self) -> Mapping[str, Any]:
        g = self.game()
        if g is None or not len(g.journal):
            return {}
        rec = g.journal[-1].effect.get("record", {})
        return rec if isinstance(rec, Mapping) else {}

    # -- refresh ----------------------------------------------------------------
    def _edited(self, _touched: Any) -> None:
        self._later.start()  # a brush stroke edits on every mouse move: refresh once it pauses

    def _replaced(self, _scenario: Any) -> None:
        self.result.clear()
        self.reinforcements.message.clear()
        self.rail_side = None
        self.refresh()

    def refresh(self) -> None:
        if self._busy:
            return
        g = self.game()
        applies = g is not None
        if applies != self._applies:
            self._applies = applies
            if self.dock is not None:
                self.dock.setVisible(applies)
                self.dock.toggleViewAction().setEnabled(applies)
        if g is None:
            self.window_.canvas.set_overlay(OVERLAY_KEY, None)
            return
        self._busy = True
        try:
            self._refresh(g)
        finally:
            self._busy = False
        self.draw()
        QTimer.singleShot(0, self, self.fit_fold)  # what the tab shows above its button may have grown
        owes = self.owes()
        if owes and not self._owed and self.window_.turns.playing():
            self.show_owed()  # a unit halted next to the enemy, or a retreat is owed: the panel comes forward
        self._owed = owes

    def _refresh(self, g: Any) -> None:
        s = self.scenario
        if self._said_at is not None and len(g.journal) != self._said_at:
            self.result.clear()
            self.reinforcements.message.clear()
            self._said_at = None
        side = g.turn.side
        key = (g.turn.turn, side)
        if key != self._turn_key:
            if self._turn_key is not None:  # a post time belongs to one side's turn
                self.time_edit.clear()
                self.reinforcements.post_time.clear()
            self._turn_key = key
        over = self.window_.turns.outcome()
        pts = ", ".join(f"{f.name} {points(s, f.id)}" for f in s.sides)
        self.header.setText((f"<b>Game over:</b> {over}" if over else
                             f"Turn {g.turn.turn}: the {g.side_name(side)} to move.") + f"<br>Points banked: {pts}")
        # attacks
        current = self.attack_box.currentData()
        self.attack_box.blockSignals(True)
        self.attack_box.clear()
        for c in candidates(s, side):
            self.attack_box.addItem(c.text(), c)
        index = next((i for i in range(self.attack_box.count()) if self.attack_box.itemData(i) == current), 0)
        self.attack_box.setCurrentIndex(index if self.attack_box.count() else -1)
        self.attack_box.blockSignals(False)
        self._show_attack()
        self._show_retreat()
        self.reinforcements.refresh(s, side, over is not None)

    def _current(self) -> Candidate | None:
        c = self.attack_box.currentData()
        return c if isinstance(c, Candidate) else None

    def joined(self) -> list[str]:
        """The other attacking hexes checked in the list."""
        out = []
        for i in range(self.join_list.count()):
            item = self.join_list.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(str(item.data(Qt.ItemDataRole.UserRole)))
        return out

    def attack_hexes(self) -> list[str]:
        c = self._current()
        return [c.attack, *self.joined()] if c is not None else []

    def _attack_chosen(self, _index: int) -> None:
        self._show_attack()
        if not self._busy:
            self.draw()

    def _join_changed(self, _item: Any) -> None:
        self._show_forces()
        if not self._busy:
            self.draw()

    def _show_attack(self) -> None:
        """A new attack chosen (or the game moved on): the hexes that may
        join it, then both forces."""
        c = self._current()
        keep = set(self.joined())
        self.join_list.blockSignals(True)
        self.join_list.clear()
        if c is not None:
            s = self.scenario
            side = self.side()
            for other in candidates(s, side) if side is not None else []:
                if other.defend == c.defend and other.attack != c.attack:
                    cell = s.map.parse_label(other.attack)
                    names = ", ".join(f"{display_name(u)} {u.strength}" for u in s.units_at(cell))
                    item = QListWidgetItem(f"also from {other.attack}: {names}")
                    item.setData(Qt.ItemDataRole.UserRole, other.attack)
                    item.setToolTip(item.text())
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    item.setCheckState(Qt.CheckState.Checked if other.attack in keep else Qt.CheckState.Unchecked)
                    self.join_list.addItem(item)
        self.join_list.setVisible(self.join_list.count() > 0)
        self.join_list.blockSignals(False)
        self._show_forces()

    def _show_forces(self) -> None:
        from .previews import Attack

        s = self.scenario
        c = self._current()
        blocked = bool(pending_retreats(s)) or self.window_.turns.outcome() is not None
        self.resolve_btn.setEnabled(c is not None and not blocked)
        self.cavalry_group.setVisible(False)
        if c is None:
            self.forces.setText("No attack to make: no unit of the side to move that has not fought stands next "
                                "to the enemy.")
            self.plot.show_attack(None)
            return
        gm = s.map
        a, d = gm.parse_label(c.attack), gm.parse_label(c.defend)
        attack_from = self.attack_hexes()
        try:
            e = engagement(s, [gm.parse_label(h) for h in attack_from], d, options=options_for(s))
        except ModelError as err:
            self.forces.setText(str(err))
            self.plot.show_attack(None)
            return
        o = odds(e.attacker_factors, e.defender_factors, defender_effective=e.defender_effective,
                 options=options_for(s))

        def rows(parts: Any, defending: bool) -> str:
            out = []
            for p in parts:
                extra = ""
                if defending and p.multiplier != 1:
                    extra = f" \u00d7{p.multiplier} ({', '.join(p.advantages)})"
                out.append(f"{p.name} {p.factors}{extra}")
            return "; ".join(out) or "none"

        eff = (f", counting {e.defender_effective}" if e.defender_effective != e.defender_factors else "")
        self.forces.setText(
            f"<b>Attackers</b> in {', '.join(attack_from)} ({e.attacker_factors} factors): {rows(e.attackers, False)}<br>"
            f"<b>Defenders</b> in {c.defend} ({e.defender_factors} factors{eff}): {rows(e.defenders, True)}<br>"
            f"Victory number <b>{o.victory_number}</b>: the attacker wins on 00-{o.victory_number:02d} "
            f"({o.wins} of {len(o.outcomes)})" + (" \u2014 this attack is owed" if c.owed else ""))
        shown = Attack(a, ", ".join(attack_from), d, c.defend, o, o.reason)
        if shown != self.plot.attack:  # the same attack is not plotted again
            self.plot.show_attack(shown)
        choices = cavalry_choices(s, d)
        if choices and not blocked:
            cav, hexes = choices[0]
            self.cavalry_group.setVisible(True)
            self.cavalry.setText(f"{display_name(s.unit(cav))} ({cav}) is cavalry engaged by infantry: its owner "
                                 f"(the {s.side(s.unit(cav).side).name}) may withdraw it 1 hex before the battle, "
                                 f"or stand. The attack waits for this choice.")
            self.withdraw_to.clear()
            for h in hexes:
                self.withdraw_to.addItem(h, (cav, h))
            self.withdraw_btn.setEnabled(bool(hexes))
            self.stand_btn.setProperty("unit", cav)
            self.resolve_btn.setEnabled(False)

    def _show_retreat(self) -> None:
        s = self.scenario
        owed = pending_retreats(s)
        self.retreat_group.setVisible(bool(owed))
        self._plan = None
        self.retreat_box.clear()
        if not owed:
            return
        r = owed[0]
        plan = retreat_options(s, s.map.parse_label(r["hex"]), units=[s.unit(i) for i in r["units"]])
        self._plan = plan
        names = ", ".join(display_name(s.unit(i)) for i in r["units"])
        self.retreat_label.setText(
            f"The {s.side(r['side']).name} must retreat {names} ({plan.factors} factors) from {r['hex']}, 1 or 2 "
            f"hexes: their owner clicks a marked hex on the map or chooses one here. Ending next to the enemy "
            f"costs half the force's factors (orange hexes).")
        for h in plan.hexes:
            cost = f": next to the enemy, loses {h.loss}" if h.loss else ""
            self.retreat_box.addItem(f"{h.label} ({h.distance} hex{'es' if h.distance > 1 else ''}{cost})", h.label)

    def draw(self) -> None:
        """The panel's marks on the map: the retreat hexes owed, else the
        chosen attack, and the rail held to the map edge after a refused
        purchase."""
        s = self.scenario
        items: list[Any] = []
        if self._plan is not None:
            items.append(Marker(self._plan.start, "diamond", DEFEND_COLOR,
                                tooltip=f"retreat from {self._plan.label}"))
            for h in self._plan.hexes:
                items.append(CellMark(h.cell, fill=RETREAT_COSTLY if h.loss else RETREAT_SAFE,
                                      outline=DEFEND_COLOR if h.loss else ATTACK_OUTLINE,
                                      text=f"-{h.loss}" if h.loss else "R", tooltip=h.reason, width=3.0))
        elif (c := self._current()) is not None and self.window_.turns.playing():
            gm = s.map
            for where in self.attack_hexes():
                items.append(CellMark(gm.parse_label(where), outline=ATTACK_OUTLINE, width=3.0,
                                      tooltip=f"attack from {where}"))
            items.append(CellMark(gm.parse_label(c.defend), outline=DEFEND_COLOR, width=3.0,
                                  tooltip=f"attack on {c.defend}"))
        if self.rail_side is not None:
            for cell in sorted(rail_to_edge(s, self.rail_side)):
                items.append(CellMark(cell, outline=RAIL_OUTLINE, width=2.5,
                                      tooltip="rail held all the way to the map edge"))
        self.window_.canvas.set_overlay(OVERLAY_KEY, Overlay(tuple(items)) if items else None)

    # -- orders -------------------------------------------------------------------
    def resolve(self) -> bool:
        """Give the chosen attack with the post time; show the result."""
        c = self._current()
        if c is None:
            return False
        time = self.time_edit.text().strip()
        if not time:
            self.result.setText("Give the post's time (H:MM:SS) first, or press Now.")
            return False
        hexes = self.attack_hexes()
        attack: str | list[str] = hexes if len(hexes) > 1 else c.attack
        ok, why = self.give({"attack": attack, "defend": c.defend, "time": time})
        if not ok:
            self.result.setText(f"Refused: {why}")
            return False
        self.time_edit.clear()  # each attack is its own post
        rec = self._last_record()
        winner = "the attackers" if rec.get("winner") == "attacker" else "the defenders"
        fates = list(rec.get("no_retreat", []))
        retreat = self.retreat_group.isVisible()
        self.result.setText(
            f"Result number <b>{rec.get('result_number')}</b> against victory number {rec.get('victory_number')}: "
            f"<b>{winner} win</b>. Casualties: attacker {rec.get('attacker_casualties')} "
            f"({_units_lost(rec.get('attacker_losses'))}), defender {rec.get('defender_casualties')} "
            f"({_units_lost(rec.get('defender_losses'))})."
            + (" " + " ".join(fates) if fates else "")
            + (" The loser's owner now chooses the retreat." if retreat else ""))
        return True

    def withdraw(self) -> bool:
        data = self.withdraw_to.currentData()
        if not data:
            return False
        cav, to = data
        return self.give({"withdraw": cav, "to": to})[0]

    def stand(self) -> bool:
        cav = self.stand_btn.property("unit")
        return bool(cav) and self.give({"stand": cav})[0]

    def retreat(self, to: str | None) -> bool:
        """Give the retreat owed first, to the hex labelled ``to``."""
        owed = pending_retreats(self.scenario)
        if not owed or not to:
            return False
        ok, why = self.give({"retreat": owed[0]["hex"], "to": to})
        rec = self._last_record() if ok else {}
        self.result.setText(f"Retreat: {why}" if ok else f"Refused: {why}")
        if ok and rec.get("eliminated"):
            self.result.setText(f"Retreat: {why}; eliminated: {', '.join(rec['eliminated'])}")
        return ok

    def press(self, ev: Any) -> bool:
        """A click on the map in Adjudicate mode while a retreat is owed: on
        a legal hex it is the retreat (``True``: the click is used); any
        other click (or tool: painting) is the tool's."""
        win = self.window_
        if self._plan is None or ev.button != "left" or ev.cell is None or self.game() is None \
                or win.tool is not win.adjudicate:
            return False
        for h in self._plan.hexes:
            if h.cell == ev.cell:
                self.retreat(h.label)
                return True
        return False


def install(window: Any) -> CombatPanel:
    """Give a grid editor window its Combat dock (the panel's ``dock``),
    tabbed with the Inspector, listed in the Game menu; shown only while the
    window's scenario is an ACW game.  The window keeps the panel among its
    systems' parts; End Turn asks it what is owed (``window.game.owed``)."""
    panel = CombatPanel(window)
    dock = window.make_dock("Combat", "combatDock", panel, Qt.DockWidgetArea.RightDockWidgetArea)
    inspector = window.dock_inspector
    window.tabifyDockWidget(inspector, dock)
    inspector.raise_()
    panel.dock = dock
    window.game.menu.addAction(dock.toggleViewAction())
    window.game.owed.append(panel.show_if_owed)
    panel.refresh()
    return panel
