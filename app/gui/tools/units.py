"""The unit tool: add, select, move (drag), edit and delete units.

* click an empty cell: add a unit there (the unit dialog asks for id, side,
  type, factors and name);
* click a unit: select it (the inspector shows it; clicking the same cell
  again cycles through a stack);
* drag a unit to another cell: move it (one undo step);
* right-click a unit: edit it; shift+right-click: delete it.

:func:`add_unit`, :func:`edit_unit` and :func:`delete_unit` are shared with
the units dock and the Edit menu.
"""

from __future__ import annotations

from typing import Any

from engine.editing import next_unit_id, plan_add_unit, plan_delete_unit, plan_move_unit, plan_update_unit
from engine.grids import Cell
from engine.model import ModelError, Unit

from ..overlay import Marker, Overlay, PathLine
from .base import EditorState, GridTool


def add_unit(state: EditorState, cell: Cell) -> str | None:
    """Ask for a new unit at ``cell`` and add it; its id, or ``None``."""
    s = state.document.scenario
    side = s.sides[state.side].id if 0 <= state.side < len(s.sides) else (s.sides[0].id if s.sides else "")
    kind = s.ruleset.unit_types[0].id if s.ruleset.unit_types else "unit"
    draft = Unit(next_unit_id(s), side, kind, cell)
    while True:
        unit = state.ask_unit(draft, True)
        if unit is None:
            return None
        try:
            edit = plan_add_unit(s, unit)
        except ModelError as e:
            state.say(str(e))
            draft = unit
            continue
        state.document.push(f"Add unit {unit.id}", edit)
        state.select_unit(unit.id)
        return unit.id


def edit_unit(state: EditorState, unit_id: str) -> bool:
    """Ask for new values of a unit and apply them; whether it changed."""
    s = state.document.scenario
    try:
        old = s.unit(unit_id)
    except ModelError as e:
        state.say(str(e))
        return False
    unit = state.ask_unit(old, False)
    if unit is None:
        return False
    try:
        edit = plan_update_unit(s, old.id, id=unit.id, side=unit.side, type=unit.type, at=unit.at,
                                strength=unit.strength, name=unit.name, props=dict(unit.props))
    except ModelError as e:
        state.say(str(e))
        return False
    pushed = state.document.push(f"Edit unit {unit.id}", edit)
    if pushed and state.selected_unit == old.id:
        state.select_unit(unit.id)
    return pushed


def delete_unit(state: EditorState, unit_id: str) -> bool:
    try:
        edit = plan_delete_unit(state.document.scenario, unit_id)
    except ModelError as e:
        state.say(str(e))
        return False
    if state.selected_unit == unit_id:
        state.select_unit(None)
    return state.document.push(f"Delete unit {unit_id}", edit)


class UnitTool(GridTool):
    id = "unit"
    name = "Units"
    shortcut = "U"
    tip = "Units: click an empty cell to add, click a unit to select, drag to move, right-click to edit."
    options = ("side",)

    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self._drag: str | None = None
        self._from: Cell | None = None
        self._over: Cell | None = None

    def press(self, ev: Any) -> None:
        if ev.cell is None:
            return
        s = self.document.scenario
        self.state.select_cell(ev.cell)
        here = s.units_at(ev.cell)
        if ev.button == "right":
            if here:
                uid = self._pick(here)
                if ev.shift:
                    delete_unit(self.state, uid)
                else:
                    self.state.select_unit(uid)
                    edit_unit(self.state, uid)
            return
        if ev.button != "left":
            return
        if not here:
            self.state.select_unit(None)
            add_unit(self.state, ev.cell)
            return
        uid = self._pick(here, cycle=True)
        self.state.select_unit(uid)
        self._drag, self._from, self._over = uid, ev.cell, ev.cell

    def _pick(self, here: list[Unit], cycle: bool = False) -> str:
        ids = [u.id for u in here]
        sel = self.state.selected_unit
        if sel in ids:
            return ids[(ids.index(sel) + 1) % len(ids)] if cycle else sel
        return ids[-1]

    def move(self, ev: Any) -> None:
        if self._drag is None or ev.cell is None or ev.cell == self._over:
            return
        self._over = ev.cell
        assert self._from is not None
        self.state.set_overlay("tool", Overlay((PathLine((self._from, ev.cell), "#ffffff", 2.0, dashed=True),
                                                Marker(ev.cell, "circle", "#ffffff"))))

    def release(self, ev: Any) -> None:
        uid, start = self._drag, self._from
        self._drag = self._from = self._over = None
        self.state.set_overlay("tool", None)
        if uid is None or ev.cell is None or ev.cell == start:
            return
        s = self.document.scenario
        edit = plan_move_unit(s, uid, ev.cell)
        if self.document.push(f"Move {uid} to {s.map.label(ev.cell)}", edit):
            self.state.select_cell(ev.cell)
