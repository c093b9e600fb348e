"""The rail systems' parts of a territory window, as the tests reach them:
what Rail Options and Module I installed in the window's tool context."""

from __future__ import annotations

from typing import Any

from app.gui.systems.rail_options.kit import RailOptionsKit
from app.gui.systems.railroads.kit import RailPlanKit


def rail(w: Any) -> RailOptionsKit:
    """Rail Options' docks, judge and reach in territory window ``w``."""
    return w.context.service(RailOptionsKit)  # type: ignore[no-any-return]


def plan(w: Any) -> RailPlanKit:
    """Module I's dock, planner and action in territory window ``w``."""
    return w.context.service(RailPlanKit)  # type: ignore[no-any-return]
