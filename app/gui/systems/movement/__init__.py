"""The editor UI of the movement system configured in the scenario
(``engine/rules/movement/``): the move preview (reach, the cheapest path
with each step's cost) and the line-of-sight preview (:mod:`.previews`)."""

from __future__ import annotations

from ..base import SystemUI
from .previews import MovementPreview, SightPreview

UI = SystemUI("movement", previews=(MovementPreview, SightPreview),
              help_title="Rules: Movement configured in the scenario", position=45)
"""What the editor finds for the ``movement`` system."""
