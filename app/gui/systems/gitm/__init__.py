"""The editor UI of GITM tactical movement (``engine/rules/gitm.py``): the
march preview (:mod:`.previews`)."""

from __future__ import annotations

from ..base import SystemUI
from .previews import GitmMarchPreview

UI = SystemUI("gitm", previews=(GitmMarchPreview,), help_title="Rules: GITM Tactical Movement", position=20)
"""What the editor finds for the ``gitm`` system."""
