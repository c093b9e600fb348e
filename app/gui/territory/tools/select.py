"""Select (S): click a territory to inspect it, ctrl-click a second one to
edit the border between them (the inspector shows both)."""

from __future__ import annotations

from ..canvas import TerritoryMouseEvent
from .base import TerritoryTool


class SelectTool(TerritoryTool):
    """Select and inspect territories."""

    id = "select"
    name = "Select"
    shortcut = "S"
    tip = "Inspect territories; ctrl-click a second one to edit the border"

    def activate(self) -> None:
        super().activate()
        self.ctx.dock("territoryInspectorDock").raise_()

    def press(self, ev: TerritoryMouseEvent) -> None:
        if ev.button != "left":
            return
        sel = self.ctx.selection
        if ev.territory is None:
            self.ctx.select([])
        elif ev.ctrl and sel and ev.territory not in sel:
            self.ctx.select([sel[-1], ev.territory])
        else:
            self.ctx.select([ev.territory])


__all__ = ["SelectTool"]
