"""The editor UI of Rail Options 1-4 (``engine/rules/rail_options/``): the
Rail options, Station and Railroad modes (:mod:`.tools`, :mod:`.pieces`)
and the per-nation rail panel (:mod:`.nation_panel`)."""

from __future__ import annotations

from ..base import SystemUI
from .pieces import RailroadTool, StationTool
from .tools import RailOptionsTool

UI = SystemUI("rail_options", tools=(RailOptionsTool, StationTool, RailroadTool),
              help_title="Rules: Rail Options 1-4", position=50)
"""What the editor finds for the ``rail_options`` system."""
