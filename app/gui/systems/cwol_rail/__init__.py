"""The editor UI of CWOL rail movement (``engine/rules/cwol_rail.py``): the
rail-move preview (:mod:`.previews`)."""

from __future__ import annotations

from ..base import SystemUI
from .previews import CwolRailPreview

UI = SystemUI("cwol_rail", previews=(CwolRailPreview,), help_title="Rules: CWOL Moving by Rail", position=10)
"""What the editor finds for the ``cwol_rail`` system."""
