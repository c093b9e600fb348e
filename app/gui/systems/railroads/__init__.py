"""The editor UI of Module I: Railroads (``engine/rules/railroads/``): the
Rail plan mode (:mod:`.tools`) and, installed in each territory window, its
dock, the off-thread planner (:mod:`.planner`) and Game > Give the Rail
Plan's Orders (:mod:`.kit`)."""

from __future__ import annotations

from ..base import SystemUI
from .kit import install
from .tools import RailPlanTool

UI = SystemUI("railroads", tools=(RailPlanTool,), installs=(install,), help_title="Rules: Module I Railroads",
              position=40, verdict_hint="Rail plan: drag a unit or stack to its destination.")
"""What the editor finds for the ``railroads`` system."""
