"""The editor UI of Rail Options 1-4 (``engine/rules/rail_options/``): the
Rail options, Station and Railroad modes (:mod:`.tools`, :mod:`.pieces`),
and, installed in each territory window, the Rail options, Rail tools and
Nation rail docks with the rail judge (:mod:`.kit`, :mod:`.nation_panel`)."""

from __future__ import annotations

from ..base import SystemUI
from .kit import install
from .pieces import RailroadTool, StationTool
from .tools import RailOptionsTool

UI = SystemUI("rail_options", tools=(RailOptionsTool, StationTool, RailroadTool), installs=(install,),
              help_title="Rules: Rail Options 1-4", position=50,
              verdict_hint="Rail options: click a unit, then point at a territory; the verdict appears here in full.")
"""What the editor finds for the ``rail_options`` system."""
