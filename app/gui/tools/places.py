"""The places tool: name a cell (a town, a lettered city)."""

from __future__ import annotations

from typing import Any

from engine.editing import plan_place
from engine.model import ModelError

from .base import GridTool


class PlaceTool(GridTool):
    """Click a cell to name it, rename it or (empty name) remove its place."""

    id = "place"
    name = "Places"
    shortcut = "P"
    tip = "Places: click a cell to name it (an empty name removes the place)."

    def press(self, ev: Any) -> None:
        if ev.cell is None or ev.button != "left":
            return
        s = self.document.scenario
        self.state.select_cell(ev.cell)
        answer = self.state.ask_place(ev.cell, s.map.places.get(ev.cell))
        if answer is None:
            return
        name, code = answer
        try:
            edit = plan_place(s, ev.cell, name, code)
        except ModelError as e:
            self.state.say(str(e))
            return
        text = "Remove place" if edit is not None and edit.after is None else "Name place"
        self.document.push(text, edit)
