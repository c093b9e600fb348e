"""The editor's tools (see :mod:`app.gui.tools.base` for the lifecycle)."""

from __future__ import annotations

from .adjudicate import AdjudicateTool
from .base import EditorState, GridTool, Tool
from .lines import BridgeTool, RailTool, RiverTool, RoadTool
from .paint import BrushTool, BucketTool, ControlTool, EraserTool, EyedropperTool, RectTool
from .places import PlaceTool
from .units import UnitTool, add_unit, delete_unit, edit_unit

TOOL_CLASSES: tuple[type[GridTool], ...] = (
    BrushTool, BucketTool, RectTool, EraserTool, EyedropperTool, RailTool, RoadTool, RiverTool, BridgeTool,
    ControlTool, PlaceTool, UnitTool,
)
"""Editing tools in palette order (Adjudicate is added by the window, with its previews)."""

__all__ = [
    "TOOL_CLASSES", "AdjudicateTool", "BridgeTool", "BrushTool", "BucketTool", "ControlTool", "EditorState", "GridTool",
    "EraserTool", "EyedropperTool", "PlaceTool", "RailTool", "RectTool", "RiverTool", "RoadTool", "Tool", "UnitTool",
    "add_unit", "delete_unit", "edit_unit",
]
