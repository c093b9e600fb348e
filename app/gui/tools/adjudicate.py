"""Adjudicate mode: the rules previews of the rules systems' UIs (:mod:`app.gui.systems`) on the map.

Choose a preview (the window lists those that apply to the scenario), click
a unit to select it, move the mouse: every hovered cell asks the preview
what would happen (:meth:`~app.gui.preview.Preview.hover`) and the canvas
draws the answer as the ``preview`` overlay, its verdict in the status bar
and as the tooltip of the target cell.  Shift-click sets (or clears) a
waypoint.  A click on a target applies the move the preview allows
(:meth:`~app.gui.preview.Preview.apply`) as one undoable command; a refused
move changes nothing and says why.  When the scenario is a game
(:mod:`app.gui.turns`) the move is given as an order of the turn instead:
the game's rules system checks it against the turn so far and the journal
records it (one undo step per journal entry).  Right-click drops the selection.  Any
edit of the model while previewing (painting control, cutting a rail)
re-runs the preview at once (:meth:`AdjudicateTool.refresh`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.editing import plan_move_unit
from engine.grids import Cell
from engine.model import ModelError, Unit

from ..overlay import CellMark, Marker, Overlay
from ..preview import MoveOrder, Preview
from .base import EditorState, GridTool

VERDICT_COLORS = {True: "#2fbf4a", False: "#e03c31", None: "#ffffff"}


class AdjudicateTool(GridTool):
    id = "adjudicate"
    name = "Adjudicate"
    shortcut = "A"
    tip = "Adjudicate: click a unit, point at a target, click to move; shift-click sets a waypoint, right-click deselects."

    def __init__(self, state: EditorState, previews: list[Preview] | None = None) -> None:
        super().__init__(state)
        self.all_previews: list[Preview] = list(previews or [])
        self.preview: Preview | None = None
        self.waypoint: Cell | None = None
        self.hover_cell: Cell | None = None
        self.overlay: Overlay | None = None

    # -- which preview ------------------------------------------------------
    def applicable(self) -> list[Preview]:
        """The previews that apply to the current scenario."""
        s = self.document.scenario
        out = []
        for p in self.all_previews:
            try:
                if p.applies_to(s):
                    out.append(p)
            except Exception:  # noqa: BLE001, S112 (a broken plug-in is left out)
                continue
        return out

    def set_preview(self, preview: Preview | None) -> None:
        self.preview = preview
        self.waypoint = None
        self.refresh()

    def unit(self) -> Unit | None:
        uid = self.state.selected_unit
        if uid is None:
            return None
        try:
            return self.document.scenario.unit(uid)
        except ModelError:
            return None

    # -- lifecycle ------------------------------------------------------------
    def activate(self) -> None:
        super().activate()
        if self.preview is None:
            self.state.say("Adjudicate: no rules preview applies to this scenario." if not self.applicable()
                           else self.tip)
        self.refresh()

    def deactivate(self) -> None:
        super().deactivate()
        self.state.set_overlay("preview", None)
        self.overlay = None

    def press(self, ev: Any) -> None:
        if ev.cell is None:
            return
        self.state.select_cell(ev.cell)
        if ev.button == "right":
            self.state.select_unit(None)
            self.waypoint = None
            self.refresh()
            return
        if ev.button != "left" or self.preview is None:
            if self.preview is None:
                self.state.say("Choose a rules preview first.")
            return
        s = self.document.scenario
        unit = self.unit()
        if ev.shift and unit is not None:
            self.waypoint = None if self.waypoint == ev.cell else ev.cell
            self.state.say("Waypoint cleared" if self.waypoint is None else f"Waypoint {s.map.label(ev.cell)}")
            self.refresh()
            return
        if unit is not None and ev.cell != unit.at and self._apply(unit, ev.cell):
            return
        candidates = [u for u in s.units_at(ev.cell) if self._selectable(u)]
        if candidates:
            ids = [u.id for u in candidates]
            cur = self.state.selected_unit
            uid = ids[(ids.index(cur) + 1) % len(ids)] if cur in ids else ids[0]
            self.state.select_unit(uid)
            self.waypoint = None
            self.refresh()
        elif unit is None:
            self.state.say(f"No unit this preview can move at {s.map.label(ev.cell)}.")

    def move(self, ev: Any) -> None:
        if ev.cell != self.hover_cell:
            self.hover_cell = ev.cell
            self.refresh()

    # -- running the preview ------------------------------------------------------
    def _failed(self, e: Exception) -> str:
        """A preview is a plug-in: a bug in one must not take the editor
        down.  Its failure becomes a message; a refusal (``ValueError``)
        reads as it is."""
        if isinstance(e, ValueError):
            return str(e)
        name = self.preview.name if self.preview is not None else "rules"
        return f"The {name} preview failed ({type(e).__name__}: {e})"

    def _selectable(self, unit: Unit) -> bool:
        assert self.preview is not None
        try:
            return bool(self.preview.selectable(self.document.scenario, unit))
        except Exception as e:  # noqa: BLE001 (plug-in boundary, see _failed)
            self.state.say(self._failed(e))
            return False

    def _apply(self, unit: Unit, target: Cell) -> bool:
        assert self.preview is not None
        s = self.document.scenario
        try:
            order = self.preview.apply(s, unit, target, self.waypoint)
        except Exception as e:  # noqa: BLE001 (plug-in boundary, see _failed)
            self.state.say(self._failed(e))
            return True
        if order is None:
            verdict = self.overlay.message if self.overlay is not None and self.hover_cell == target else ""
            if s.units_at(target) and any(self._selectable(u) for u in s.units_at(target)):
                return False  # not a legal target: select the unit there instead
            self.state.say(verdict or f"{unit.id} cannot move to {s.map.label(target)}")
            return True
        turns = getattr(self.document, "turns", None)
        kind = turns.move_kind() if turns is not None else "edit"
        if kind == "order":
            return self._give(turns, order, target)
        if kind == "cancel":
            self.state.say("Cancelled: the unit did not move.")
            return True
        try:
            edit = plan_move_unit(s, order.unit_id, order.to, dict(order.props))
        except ModelError as e:
            self.state.say(str(e))
            return True
        self.waypoint = None
        text = order.description or f"Move {order.unit_id} to {s.map.label(order.to)}"
        setup = "Set-up edit (not an order of the game): " if kind == "setup" else ""
        pushed = self.document.push(setup + text, edit)
        self.refresh()
        if pushed:
            self.state.say(setup + (order.description or text))
        return True

    def _give(self, turns: Any, order: MoveOrder, target: Cell) -> bool:
        """The scenario is a game (:mod:`app.gui.turns`): the click is the
        order ``{"unit", "to"[, "via"]}`` (labels, as ``adjutant orders``
        takes them) for the game's rules system, which journals it as one
        undo step; a refusal (not this side's move, the unit has already
        acted) changes nothing and says why, unless the click was on a unit
        the preview can select (``False``: select it instead)."""
        s = self.document.scenario
        lab = s.map.label
        data: dict[str, Any] = {"unit": order.unit_id, "to": lab(target)}
        if self.waypoint is not None:
            data["via"] = lab(self.waypoint)
        try:
            refused = not turns.check(data).ok
        except ModelError:
            refused = True
        if refused and any(self._selectable(u) for u in s.units_at(target)):
            return False
        ok, why = turns.give(data, order.description or None)
        self.waypoint = None
        self.state.say(order.description or why if ok else f"Refused: {why}")
        self.refresh()
        return True

    def refresh(self) -> None:
        """Recompute the overlay for the selected unit and hovered cell."""
        if not self.active:
            return
        s = self.document.scenario
        unit = self.unit()
        if self.preview is None or unit is None:
            if self.preview is not None:
                try:
                    self.preview.select(s, None)  # no unit: the preview drops what it showed (the odds dock)
                except Exception as e:  # noqa: BLE001 (plug-in boundary, see _failed)
                    self.state.say(self._failed(e))
            self.overlay = None
            self.state.set_overlay("preview", None)
            return
        target = self.hover_cell
        try:
            if target is None or target == unit.at:
                overlay = self.preview.select(s, unit)
            else:
                overlay = self.preview.hover(s, unit, target, self.waypoint)
        except Exception as e:  # noqa: BLE001 (plug-in boundary, see _failed)
            overlay = Overlay(message=self._failed(e), ok=False)
        extra: list[Any] = []
        if target is not None and target != unit.at and overlay.message:
            extra.append(CellMark(target, outline=VERDICT_COLORS.get(overlay.ok, "#ffffff"), width=2.5,
                                  tooltip=overlay.message))
        if self.waypoint is not None:
            extra.append(Marker(self.waypoint, "diamond", "#ffd23f", text="W",
                                tooltip=f"waypoint {s.map.label(self.waypoint)} (shift-click to clear)"))
        if extra:
            overlay = replace(overlay, items=tuple(overlay.items) + tuple(extra))
        self.overlay = overlay
        self.state.set_overlay("preview", overlay)
        if overlay.message:
            self.state.say(overlay.short())  # the whole verdict: the window's verdict panel
