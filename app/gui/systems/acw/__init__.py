"""The editor UI of "A Short ACW Campaign" (``engine/rules/acw/``): the
move-and-attack preview with its odds plot (:mod:`.previews`, :mod:`.plot`)
and the Combat dock with its Reinforcements tab (:mod:`.combat`,
:mod:`.reinforce`), installed in every grid window and shown while the
window's scenario is an ACW game."""

from __future__ import annotations

from ..base import SystemUI
from .combat import install
from .previews import AcwMovePreview

UI = SystemUI("acw", previews=(AcwMovePreview,), installs=(install,),
              help_title="Rules: A Short ACW Campaign", position=30)
"""What the editor finds for the ``acw`` system."""
