"""The rules systems' parts of an editor window, as the tests reach them:
what Rail Options and Module I installed in a territory window's tool
context, and ACW's Combat panel among a grid window's parts."""

from __future__ import annotations

from typing import Any

from app.gui.systems.acw.combat import CombatPanel
from app.gui.systems.rail_options.kit import RailOptionsKit
from app.gui.systems.railroads.kit import RailPlanKit


def rail(w: Any) -> RailOptionsKit:
    """Rail Options' docks, judge and reach in territory window ``w``."""
    return w.context.service(RailOptionsKit)  # type: ignore[no-any-return]


def plan(w: Any) -> RailPlanKit:
    """Module I's dock, planner and action in territory window ``w``."""
    return w.context.service(RailPlanKit)  # type: ignore[no-any-return]


def combat(w: Any) -> CombatPanel:
    """ACW's Combat panel in grid window ``w`` (its dock: ``.dock``)."""
    return next(p for p in w.system_parts if isinstance(p, CombatPanel))
