"""The editor UI of Module I: Railroads (``engine/rules/railroads/``): the
Rail plan mode (:mod:`.tools`) over the off-thread planner (:mod:`.planner`)."""

from __future__ import annotations

from ..base import SystemUI
from .tools import RailPlanTool

UI = SystemUI("railroads", tools=(RailPlanTool,), help_title="Rules: Module I Railroads", position=40)
"""What the editor finds for the ``railroads`` system."""
