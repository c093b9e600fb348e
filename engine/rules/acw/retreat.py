"""Retreat: the loser of a combat must retreat at least one and at most two
hexes; a force that ends its retreat adjacent to an enemy force immediately
loses half its factors.

Decisions (``docs/rules/acw.md``): a retreat ignores movement costs; it may
not enter or pass through an enemy-held hex; it may cross rivers
(``retreat_across_rivers``); it must end where the stacking limit allows the
retreating units.  Half of an odd number of factors is rounded up (the force
loses 3 of 5; option ``retreat_loss_rounding: "down"``).  A force with no
hex to retreat to is eliminated (option ``no_retreat: "halve"``: it stays
and loses half).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.grids import Cell
from engine.model import ModelError, Scenario, Unit

from .combat import LossSpread, spread_losses
from .options import AcwOptions, options_for
from .stacking import stack_of
from .units import display_name


@dataclass(frozen=True)
class RetreatHex:
    """One hex the retreating force may end in."""

    cell: Cell
    label: str
    distance: int
    adjacent_enemies: tuple[str, ...]
    loss: int
    reason: str

    @property
    def adjacent_to_enemy(self) -> bool:
        return bool(self.adjacent_enemies)

    def to_data(self) -> dict[str, object]:
        return {"hex": self.label, "distance": self.distance, "adjacent_to_enemy": self.adjacent_to_enemy,
                "adjacent_enemies": list(self.adjacent_enemies), "loss": self.loss, "reason": self.reason}


@dataclass(frozen=True)
class RetreatPlan:
    """Where the force in ``start`` may retreat to, safest first."""

    start: Cell
    label: str
    side: str
    units: tuple[str, ...]
    factors: int
    hexes: tuple[RetreatHex, ...]
    reason: str

    @property
    def possible(self) -> bool:
        return bool(self.hexes)

    @property
    def safe(self) -> tuple[RetreatHex, ...]:
        return tuple(h for h in self.hexes if not h.adjacent_to_enemy)

    def to_data(self) -> dict[str, object]:
        return {"from": self.label, "side": self.side, "units": list(self.units), "factors": self.factors,
                "possible": self.possible, "hexes": [h.to_data() for h in self.hexes], "reason": self.reason}


def half_loss(factors: int, options: AcwOptions | None = None) -> int:
    """Factors lost by a force of ``factors`` that ends its retreat next to
    the enemy: half, an odd half rounded up by default."""
    o = options or AcwOptions()
    return (factors + 1) // 2 if o.retreat_loss_rounding == "up" else factors // 2


def retreat_options(scenario: Scenario, start: Cell, *, units: Sequence[Unit] | None = None,
                    options: AcwOptions | None = None) -> RetreatPlan:
    """The hexes the force in ``start`` (all its units, or ``units``) may end
    a retreat in, at distance ``retreat_min``..``retreat_max``."""
    o = options or options_for(scenario)
    force = list(units) if units is not None else scenario.units_at(start)
    gm = scenario.map
    if not force:
        raise ModelError(f"no units in {gm.label(start)} to retreat")
    side = force[0].side
    ids = {u.id for u in force}
    enemy_at: dict[Cell, list[Unit]] = {}
    for u in scenario.units:
        if not scenario.allied(u.side, side):
            enemy_at.setdefault(u.at, []).append(u)
    factors = sum(u.strength for u in force)
    grid = gm.grid
    dist = {start: 0}
    frontier = [start]
    for d in range(1, o.retreat_max + 1):
        nxt = []
        for c in frontier:
            for n in grid.neighbours(c):
                if n in dist or n in enemy_at or gm.terrain_at(n) >= len(scenario.ruleset.terrain) or \
                        scenario.ruleset.terrain[gm.terrain_at(n)].impassable:
                    continue
                if not o.retreat_across_rivers and gm.river_between(c, n) and gm.bridge_between(c, n) is None:
                    continue
                dist[n] = d
                nxt.append(n)
        frontier = nxt
    out = []
    for c, d in dist.items():
        if d < o.retreat_min:
            continue
        here = [u for u in scenario.units_at(c) if u.id not in ids]
        stack = stack_of(scenario, c, here + force, o)
        if stack.over:
            continue
        adj = tuple(e.id for n in grid.neighbours(c) for e in enemy_at.get(n, ()))
        loss = half_loss(factors, o) if adj else 0
        label = gm.label(c)
        reason = (f"{label}, {d} hex{'es' if d > 1 else ''} back: next to the enemy "
                  f"({', '.join(adj)}), the force loses half its factors ({loss})" if adj
                  else f"{label}, {d} hex{'es' if d > 1 else ''} back, clear of the enemy")
        out.append(RetreatHex(c, label, d, adj, loss, reason))
    out.sort(key=lambda h: (h.adjacent_to_enemy, h.distance, h.cell))
    label = gm.label(start)
    if out:
        safe = sum(1 for h in out if not h.adjacent_to_enemy)
        reason = (f"the force in {label} must retreat {o.retreat_min}-{o.retreat_max} hexes: {len(out)} hexes "
                  f"possible, {safe} clear of the enemy")
    else:
        fate = ("it is eliminated" if o.no_retreat == "eliminate"
                else f"it stays and loses half its factors ({half_loss(factors, o)})")
        reason = f"the force in {label} has no hex to retreat to (enemy, impassable or full hexes): {fate}"
    return RetreatPlan(start, label, side, tuple(u.id for u in force), factors, tuple(out), reason)


def retreat_losses(scenario: Scenario, plan: RetreatPlan, to: Cell | None,
                   options: AcwOptions | None = None) -> LossSpread:
    """The losses of the force retreating to ``to`` (``None``: it has
    nowhere to go), spread evenly over its units."""
    o = options or options_for(scenario)
    force = [scenario.unit(i) for i in plan.units]
    rows = [(u.id, display_name(u), u.strength) for u in force]
    if to is None:
        if plan.possible:
            raise ModelError(f"the force in {plan.label} can retreat, so it must")
        loss = plan.factors if o.no_retreat == "eliminate" else half_loss(plan.factors, o)
        return spread_losses(rows, loss)
    for h in plan.hexes:
        if h.cell == to:
            return spread_losses(rows, h.loss)
    raise ModelError(f"{scenario.map.label(to)} is not a hex the force in {plan.label} may retreat to")
