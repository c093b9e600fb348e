"""The territory window's tools, one per mode, with the grid tools'
lifecycle (:mod:`.base`): Select, Paint, Rail plan, Rail options, Station
and Railroad."""

from __future__ import annotations

from .base import TerritoryTool
from .paint import PaintTool
from .rail_options import RailOptionsTool
from .rail_pieces import RailPieceTool, RailroadTool, StationTool
from .rail_plan import RailPlanTool
from .select import SelectTool

TOOL_CLASSES: tuple[type[TerritoryTool], ...] = (
    SelectTool, PaintTool, RailPlanTool, RailOptionsTool, StationTool, RailroadTool)
"""The tools in tool-bar order."""
MODES: tuple[str, ...] = tuple(t.id for t in TOOL_CLASSES)
"""Their ids: the window's modes."""

__all__ = ["MODES", "TOOL_CLASSES", "PaintTool", "RailOptionsTool", "RailPieceTool", "RailPlanTool",
           "RailroadTool", "SelectTool", "StationTool", "TerritoryTool"]
