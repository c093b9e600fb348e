"""Rail-plan mode (Module I: Railroads): orders, the live feasibility
preview, and the exact routing off the GUI thread.

:class:`RailPlanner` keeps the orders being planned (they are a plan, not
map data, so they are not on the undo stack).  On every change it

1. runs the engine's fast max-flow check (:func:`engine.rules.railroads.preview`)
   at once on the GUI thread and publishes its overlay (each order as a
   dashed line from start to destination; when a cut rules the orders out,
   the cut outlined);
2. asks for the exact routing (:func:`engine.rules.railroads.plan`, an
   integer program) in a worker thread (``background.submit``; the worker
   makes no Qt call, its result is collected by a timer on the GUI thread),
   on a copy of the scenario without shapes.  Only the latest orders are
   routed: a change cancels the jobs already asked for (one still waiting
   never starts), and while a routing runs (a solver cannot be stopped) no
   other starts: when it ends, the latest orders are copied and routed.  So
   a burst of edits costs one copy and one routing at a time.  Each job
   carries a generation number; a result for older orders is dropped.  The exact result
   replaces the preview: routes through the territories' label points,
   each territory shaded by the share of its capacity used, the bottleneck
   outlined.

The GUI never waits for the solver.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from shapely.geometry import Polygon

from engine.model import ModelError
from engine.rules.railroads import RailOrder, RailPlan, RailRules, plan, preview
from engine.territory import TerritoryMap, TerritoryScenario

from ... import background
from ...territory.overlay import Route, Shade, TerritoryOverlay

ROUTE_COLORS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f5f00", "#c2185b",
                "#2c3e50", "#5d8aa8")
BOTTLENECK = "#e0007a"


def usage_color(used: int, capacity: int) -> str:
    """Green (little used) through yellow to red (full), translucent."""
    share = 1.0 if capacity <= 0 else min(1.0, used / capacity)
    if share < 0.5:
        r, g = int(80 + 350 * share), 190
    else:
        r, g = 255, int(190 - 300 * (share - 0.5))
    return f"#{min(r, 255):02x}{max(g, 0):02x}4078"


def rail_copy(s: TerritoryScenario) -> TerritoryScenario:
    """A copy of ``s`` with everything rail routing reads and no shapes
    (cheap, and safe to hand to another thread)."""
    m = TerritoryMap(s.map.width, s.map.height, s.map.wrap_x, s.map.backdrop_cell)
    empty = Polygon()
    for t in s.map.territories.values():
        m.add(dataclasses.replace(t, shape=empty, features=copy.deepcopy(t.features)))
    for b in s.map.borders():
        m.add_border(b.a, b.b, b.kind, b.name, copy.deepcopy(b.props))
    return TerritoryScenario(s.name, copy.deepcopy(s.ruleset), copy.deepcopy(s.sides), m, copy.deepcopy(s.units),
                             s.turn, s.description, copy.deepcopy(s.state))


def _plan_job(scenario: TerritoryScenario, orders: list[RailOrder]) -> object:
    """The exact routing, in a worker thread: engine code only, no Qt call
    (app/gui/background.py says why); a RailPlan or a message."""
    try:
        return plan(scenario, orders)
    except (ValueError, ArithmeticError) as e:
        return f"the exact routing failed: {e}"


class RailPlanner(QObject):
    """The orders of rail-plan mode and what the engine says about them."""

    overlayChanged = Signal(object)  # TerritoryOverlay
    planChanged = Signal(object)  # RailPlan (preview or exact)
    ordersChanged = Signal()

    def __init__(self, parent: QObject | None = None,
                 submit: Callable[..., Future[object]] | None = None) -> None:
        super().__init__(parent)
        self.scenario: TerritoryScenario | None = None
        self.orders: list[RailOrder] = []
        self.preview_plan: RailPlan | None = None
        self.exact: RailPlan | None = None
        self.generation = 0
        self.running = 0
        self.submit = submit or background.submit
        """Runs a job in a worker (default :func:`app.gui.background.submit`)."""
        self._pending: list[tuple[int, Future[object]]] = []
        self._wanted = False
        """The current orders still need an exact routing (started when no job runs)."""
        # results are collected on the GUI thread: the worker makes no Qt call
        self._poll = QTimer(self)
        self._poll.setInterval(20)
        self._poll.timeout.connect(self._collect)
        self._rules: RailRules | None = None
        self.overlay = TerritoryOverlay()

    def set_scenario(self, s: TerritoryScenario | None, keep_orders: bool = False) -> None:
        """A new or edited scenario: the rules are rebuilt and the plan
        re-run (orders naming units or territories that are gone are
        dropped)."""
        self.scenario = s
        self._rules = None
        if not keep_orders or s is None:
            self.orders = []
        else:
            self.orders = [o for o in self.orders if o.start in s.map and o.to in s.map
                           and (o.unit is None or any(u.id == o.unit and u.at == o.start for u in s.units))]
        self.ordersChanged.emit()
        self.refresh()

    def rules(self) -> RailRules:
        assert self.scenario is not None
        if self._rules is None:
            self._rules = RailRules(self.scenario)
        return self._rules

    # -- orders ------------------------------------------------------------
    def add_units(self, unit_ids: Sequence[str], to: str) -> int:
        """Order each unit to ``to`` (replacing an order it had); returns how
        many orders were added."""
        s = self.scenario
        if s is None:
            return 0
        dest = s.territory(to).id
        raw = [{"unit": uid, "to": dest} for uid in unit_ids if s.unit(uid).at != dest]
        if not raw:
            return 0
        new = self.rules().read_orders(raw)
        ids = {o.unit for o in new}
        self.orders = [o for o in self.orders if o.unit not in ids] + new
        self.ordersChanged.emit()
        self.refresh()
        return len(new)

    def add_orders(self, raw: Sequence[dict[str, Any]]) -> None:
        """Add orders in the ``adjutant railplan`` file form (raises
        :class:`ModelError` naming a bad one)."""
        if self.scenario is None:
            raise ModelError("no scenario")
        self.orders += self.rules().read_orders(raw)
        self.ordersChanged.emit()
        self.refresh()

    def remove(self, index: int) -> None:
        if 0 <= index < len(self.orders):
            del self.orders[index]
            self.ordersChanged.emit()
            self.refresh()

    def clear(self) -> None:
        self.orders = []
        self.ordersChanged.emit()
        self.refresh()

    def describe(self, i: int) -> str:
        return self.rules().describe(self.orders[i])

    # -- the two answers ---------------------------------------------------
    def refresh(self) -> None:
        """Preview now; exact routing in the background."""
        self.generation += 1
        self.exact = None
        for _generation, future in self._pending:
            future.cancel()  # stale: a waiting job never starts, a running one's result is dropped
        s = self.scenario
        if s is None or not self.orders:
            self.preview_plan = None
            self._wanted = False
            self._publish(TerritoryOverlay(), None)
            return
        self.preview_plan = preview(s, self.orders, self.rules())
        self._publish(self._preview_overlay(self.preview_plan), self.preview_plan)
        self._wanted = True
        self._submit_latest()

    def _submit_latest(self) -> None:
        """Start the exact routing of the current orders, unless a routing
        still runs (then :meth:`_collect` starts it when that one ends)."""
        s = self.scenario
        if not self._wanted or s is None:
            return
        if any(not future.done() for _generation, future in self._pending):
            self._poll.start()
            return
        self._wanted = False
        self.running += 1
        try:
            future = self.submit(_plan_job, rail_copy(s), list(self.orders))
        except BaseException:
            self.running -= 1
            raise
        self._pending.append((self.generation, future))
        self._poll.start()

    def _collect(self) -> None:
        """Hand finished routings to :meth:`_done`, drop cancelled ones, and
        start the latest orders' routing once none runs; on the GUI thread."""
        still = []
        for generation, future in self._pending:
            if future.cancelled():
                self.running -= 1
            elif future.done():
                self._done(generation, future.result())
            else:
                still.append((generation, future))
        self._pending = still
        self._submit_latest()
        if not self._pending and not self._wanted:
            self._poll.stop()

    def busy(self) -> bool:
        """Whether an exact routing runs or is still to start."""
        return self.running > 0 or self._wanted

    def _done(self, generation: int, result: object) -> None:
        self.running -= 1
        if generation != self.generation or self.scenario is None:
            return  # stale: the orders changed since
        if isinstance(result, str):
            self._publish(dataclasses.replace(self.overlay, message=result), self.preview_plan)
            return
        assert isinstance(result, RailPlan)
        self.exact = result
        self._publish(self._exact_overlay(result), result)

    def _publish(self, ov: TerritoryOverlay, p: RailPlan | None) -> None:
        self.overlay = ov
        self.overlayChanged.emit(ov)
        self.planChanged.emit(p)

    def _preview_overlay(self, p: RailPlan) -> TerritoryOverlay:
        routes = tuple(Route((o.start, o.to), ROUTE_COLORS[i % len(ROUTE_COLORS)], 2.0, dashed=True, count=o.count)
                       for i, o in enumerate(self.orders))
        shades = tuple(Shade(t, outline=BOTTLENECK, width=4.5) for t in p.bottleneck)
        verdict = "preview: " + ("no capacity limit rules the orders out" if p.feasible else "infeasible")
        return TerritoryOverlay(shades, routes, message=f"{verdict}. {p.reason} Exact routing running…")

    def _exact_overlay(self, p: RailPlan) -> TerritoryOverlay:
        shades = [Shade(u.territory, fill=usage_color(u.used, u.capacity), text=f"{u.used}/{u.capacity}")
                  for u in p.usage]
        bott = set(p.bottleneck)
        shades = [dataclasses.replace(sh, outline=BOTTLENECK, width=4.5) if sh.territory in bott else sh
                  for sh in shades]
        shades += [Shade(t, outline=BOTTLENECK, width=4.5) for t in bott - {u.territory for u in p.usage}]
        routes: list[Route] = []
        for rt in p.routes:
            color = ROUTE_COLORS[rt.order % len(ROUTE_COLORS)]
            for path, n in rt.paths:
                routes.append(Route(path, color, 2.0 + n, count=n))
            if rt.unrouted:
                o = p.orders[rt.order]
                routes.append(Route((o.start, o.to), "#c01010", 2.0, dashed=True, count=rt.unrouted))
        head = "Feasible" if p.feasible else "Not feasible"
        return TerritoryOverlay(tuple(shades), tuple(routes), message=f"{head} (exact): {p.reason}")

    def chart_data(self) -> list[tuple[str, int, int]]:
        """(territory name, used, capacity) along the routes of the exact
        plan, in the order the routes pass them."""
        p = self.exact
        s = self.scenario
        if p is None or s is None:
            return []
        usage = {u.territory: u for u in p.usage}
        seen: list[str] = []
        for rt in p.routes:
            for path, _n in rt.paths:
                for t in path:
                    if t not in seen and t in usage:
                        seen.append(t)
        return [(s.map.label(t), usage[t].used, usage[t].capacity) for t in seen]


__all__ = ["RailPlanner", "rail_copy", "usage_color"]
