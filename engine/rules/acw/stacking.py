"""Stacking: at most ``stack_limit`` (3) infantry or cavalry units in a hex;
artillery and HQ units stack on top of that limit in any number.

Which units count is ruleset data (the unit type's ``stacks`` property, by
default true for infantry and cavalry, false for artillery and HQ).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.grids import Cell
from engine.model import Scenario, Unit

from .options import AcwOptions, options_for
from .units import counts_for_stacking, display_name


@dataclass(frozen=True)
class Stack:
    """The units in one hex, split into those that count towards the limit
    and those that stack on top; ``over`` when the counted ones exceed it."""

    cell: Cell
    label: str
    counted: tuple[str, ...]
    on_top: tuple[str, ...]
    limit: int
    reason: str

    @property
    def count(self) -> int:
        return len(self.counted)

    @property
    def over(self) -> bool:
        return self.count > self.limit

    def to_data(self) -> dict[str, object]:
        return {"hex": self.label, "count": self.count, "limit": self.limit, "over": self.over,
                "counted": list(self.counted), "on_top": list(self.on_top), "reason": self.reason}


def stack_of(scenario: Scenario, cell: Cell, units: list[Unit], options: AcwOptions) -> Stack:
    counted = [u for u in units if counts_for_stacking(scenario, u)]
    on_top = [u for u in units if not counts_for_stacking(scenario, u)]
    label = scenario.map.label(cell)
    n, limit = len(counted), options.stack_limit
    names = ", ".join(display_name(u) for u in counted) or "none"
    extra = f"; {len(on_top)} artillery/HQ stack on top" if on_top else ""
    if n > limit:
        reason = (f"{label} holds {n} infantry/cavalry units ({names}); the limit is {limit}{extra}")
    else:
        reason = f"{label} holds {n} of at most {limit} infantry/cavalry units{extra}"
    return Stack(cell, label, tuple(u.id for u in counted), tuple(u.id for u in on_top), limit, reason)


def stack_at(scenario: Scenario, cell: Cell, *, arriving: Unit | None = None,
             options: AcwOptions | None = None) -> Stack:
    """The stack in ``cell``, as it would be if ``arriving`` moved in (a unit
    already there is not counted twice)."""
    opts = options or options_for(scenario)
    c, r = cell.col, cell.row  # plain int comparisons (Scenario.units_at says why)
    units = [u for u in scenario.units if u.at.col == c and u.at.row == r and (arriving is None or u.id != arriving.id)]
    if arriving is not None:
        units.append(arriving)
    return stack_of(scenario, cell, units, opts)


def over_limit(scenario: Scenario, options: AcwOptions | None = None) -> tuple[Stack, ...]:
    """Every hex whose stack exceeds the limit, in hex order."""
    opts = options or options_for(scenario)
    out = []
    for cell, units in sorted(scenario.unit_cells().items()):
        s = stack_of(scenario, cell, units, opts)
        if s.over:
            out.append(s)
    return tuple(out)
