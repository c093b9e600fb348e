"""Module I in a territory window (:class:`RailPlanKit`): the Rail plan
dock, the off-thread planner (:class:`~.planner.RailPlanner`) and Game >
Give the Rail Plan's Orders.

The system's UI installs one per territory window
(:attr:`app.gui.systems.SystemUI.installs`); it offers itself to the Rail
plan tool through the window's tool context (``ctx.service(RailPlanKit)``),
and the window calls its :class:`~app.gui.systems.base.SystemPart` hooks.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from engine.territory import TerritoryScenario

from ..base import EditorHost, SystemPart
from .panels import RailPlanPanel
from .planner import RailPlanner

MODE = "railplan"
"""The Rail plan tool's mode (its overlay follows the planner's while it is current)."""


def plan_order(o: Any) -> dict[str, Any]:
    """A Module I rail plan's order (:class:`engine.rules.railroads.rules.RailOrder`)
    as the ``railroads`` system reads it: ``{"unit", "to"}`` or ``{"nation",
    "from", "to", "count"[, "type"]}``."""
    if o.unit:
        return {"unit": o.unit, "to": o.to}
    data: dict[str, Any] = {"nation": o.nation, "from": o.start, "to": o.to, "count": o.count}
    if o.unit_type:
        data["type"] = o.unit_type
    return data


class RailPlanKit(SystemPart):
    """Module I's dock, planner and action in one territory window (see the
    module docstring)."""

    def __init__(self, host: EditorHost) -> None:
        self.host = host
        self.ctx = ctx = host.context
        self.planner = RailPlanner(ctx)
        self.plan_panel = RailPlanPanel()
        self.dock_plan = host.add_dock("Rail plan", "railPlanDock", self.plan_panel,
                                       Qt.DockWidgetArea.BottomDockWidgetArea)
        self.dock_plan.hide()
        host.resizeDocks([self.dock_plan], [230], Qt.Orientation.Vertical)
        self.act_give_plan = host.make_action("&Give the Rail Plan's Orders", self.give_plan, "Ctrl+Shift+Return",
                                              "Give the rail plan's orders to the game, one journal entry and "
                                              "undo step each")
        host.add_game_action(self.act_give_plan)
        ctx.provide(self)
        self.planner.planChanged.connect(self._plan_changed)
        self.planner.ordersChanged.connect(self._orders_changed)
        self.planner.overlayChanged.connect(self._planned)
        self.plan_panel.removeRequested.connect(self.planner.remove)
        self.plan_panel.clearRequested.connect(self.planner.clear)
        turns = ctx.turns
        if turns is not None:
            turns.changed.connect(self._turns_changed)
        self._turns_changed()
        self.planner.set_scenario(ctx.scenario)

    # -- the window's hooks ------------------------------------------------------
    def scenario_loaded(self, scenario: TerritoryScenario) -> None:
        self.planner.set_scenario(scenario)

    def edited(self, what: Any) -> None:
        self.planner.set_scenario(self.ctx.scenario, keep_orders=True)

    # -- the planner's answers -----------------------------------------------------
    def _planned(self, ov: Any) -> None:
        tool = self.ctx.tool
        if tool is not None and tool.id == MODE and tool.active:
            self.ctx.canvas.set_overlay(ov)

    def _plan_changed(self, p: Any) -> None:
        if p is None:
            self.plan_panel.set_verdict("", None)
            self.ctx.show_verdict(None, "")
        else:
            self.plan_panel.set_verdict(self.planner.overlay.message, bool(p.feasible))
            self.ctx.show_verdict(bool(p.feasible), self.planner.overlay.message)
        self.plan_panel.set_chart(self.planner.chart_data())

    def _orders_changed(self) -> None:
        self.plan_panel.set_orders([self.planner.describe(i) for i in range(len(self.planner.orders))])

    def _turns_changed(self) -> None:
        turns = self.ctx.turns
        self.act_give_plan.setEnabled(turns is not None and turns.game() is not None)

    # -- the game ---------------------------------------------------------------------
    def give_plan(self) -> list[str]:
        """Give the rail plan's orders to the game in order, each one journal
        entry and one undo step; stop at the first refusal (it and the orders
        after it stay in the plan, and the refusal is shown).  The sentences
        said, in order."""
        turns = self.ctx.turns
        planner = self.planner
        if turns is None or turns.game() is None:
            return []
        turns.set_playing(True)
        said: list[str] = []
        done: list[Any] = []
        for o in list(planner.orders):
            ok, why = turns.give(plan_order(o))
            said.append(why if ok else f"Refused: {why}")
            if not ok:
                break
            done.append(o)
        given = len(done)
        for o in done:  # giving an order edits the document, and the planner may already have dropped it
            if o in planner.orders:
                planner.remove(planner.orders.index(o))
        if said and said[-1].startswith("Refused"):
            self.host.show_error("Give the Rail Plan's Orders", f"{given} order{'s' if given != 1 else ''} given; "
                                 f"order {given + 1} was refused", said[-1:])
        else:
            self.ctx.say(f"{given} rail order{'s' if given != 1 else ''} given", 10000)
        return said


def install(host: EditorHost) -> RailPlanKit:
    """Give a territory window Module I's dock, planner and action."""
    return RailPlanKit(host)


__all__ = ["MODE", "RailPlanKit", "install", "plan_order"]
