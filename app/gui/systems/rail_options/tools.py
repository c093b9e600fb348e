"""Rail options (O): click a unit to see where it can rail under the
scenario's option (engine ``reach``), click a highlighted territory to move
it there (one undoable ``record_move``; in a game, an order of the side to
move, given in the combat phase when the game is in it and the scenario's
``combat_move`` switch allows rail then); hovering a territory says whether
the move is allowed and why (engine ``judge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.model import ModelError
from engine.rules.rail_options import RailOptionsError

from ...territory.canvas import TerritoryMouseEvent
from ...territory.overlay import Shade, TerritoryOverlay
from ...territory.tools.base import TerritoryTool

if TYPE_CHECKING:
    from ...territory.window import TerritoryWindow

REACH_FILL = "#2e9e4f70"
REACH_OUTLINE = "#1c6b2a"


class RailOptionsTool(TerritoryTool):
    """Select a unit (a click on its counter; again: the next unit of the
    stack), rail it (a click on a destination), drop it (right click)."""

    id = "railoptions"
    name = "Rail options"
    shortcut = "O"
    tip = "Click a unit: where it can rail under the rail option"

    def __init__(self, window: TerritoryWindow) -> None:
        super().__init__(window)
        self._judged: str | None = None

    def activate(self) -> None:
        super().activate()
        self.w.dock_options.show()
        self.w.dock_options.raise_()
        self.w._refresh_options()

    def overlay(self) -> TerritoryOverlay:
        """The selected unit's reach: each destination shaded with its cost,
        the start outlined."""
        r = self.w.reach
        if r is None:
            return TerritoryOverlay()
        shades = [Shade(d.territory, fill=REACH_FILL, outline=REACH_OUTLINE, width=2.5, text=str(d.cost))
                  for d in r.destinations]
        shades.append(Shade(r.start, outline="#ffd21f", width=4.0))
        return TerritoryOverlay(tuple(shades), message=r.reason)

    def status(self, tid: str) -> list[str]:
        r = self.w.reach
        if r is None:
            return []
        hit = next((d for d in r.destinations if d.territory == tid), None)
        if hit is None:
            return []
        m = self.w.scenario.map
        return [f"rail: {hit.cost} space{'s' if hit.cost != 1 else ''} via " + " > ".join(m.label(x) for x in hit.path)]

    def press(self, ev: TerritoryMouseEvent) -> None:
        w = self.w
        if ev.button == "right":
            w.select_unit(None)
            return
        counter = self.counter_at(ev)
        if counter is not None:
            ids = counter[1]
            unit = w.selected_unit
            w.select_unit(ids[(ids.index(unit) + 1) % len(ids)] if unit in ids else ids[0])
        elif ev.territory is not None and w.selected_unit is not None:
            self.rail_to(ev.territory)

    def move(self, ev: TerritoryMouseEvent) -> None:
        w = self.w
        if w.selected_unit is None or ev.territory == self._judged:
            return
        self._judged = ev.territory
        if ev.territory is not None and ev.territory != w.scenario.unit(w.selected_unit).at:
            try:
                v = w.rail_options().judge(w.selected_unit, ev.territory)
            except (RailOptionsError, ModelError) as e:
                self.say(str(e))
                w.show_verdict(False, str(e))
            else:
                self.say(("✔ " if v.allowed else "✘ ") + v.reason)
                w.show_verdict(v.allowed, v.reason)

    def rail_to(self, tid: str) -> bool:
        """Rail the selected unit to ``tid`` if the option allows it (one
        undo step); otherwise the status bar says why."""
        w = self.w
        if w.selected_unit is None:
            return False
        try:
            v = w.rail_options().judge(w.selected_unit, tid)
        except (RailOptionsError, ModelError) as e:
            self.say(str(e))
            return False
        if not v.allowed:
            w.statusBar().showMessage(v.reason, 15000)
            return False
        turns = getattr(w.document, "turns", None)
        kind = turns.move_kind() if turns is not None else "edit"
        if kind == "cancel":
            self.say("Cancelled: the unit did not move.")
            return False
        if kind == "order" and turns is not None:  # a game: the journal records the move (app/gui/turns.py)
            order = {"unit": w.selected_unit, "to": tid}
            if w.rail_phase() == "combat":  # the scenario lets rail be used in the combat move phase
                order["phase"] = "combat"
            ok, why = turns.give(order)
            game = turns.game()
            said = f"{game.order_text(order)}: {why}" if ok and why and game is not None else why or v.reason
            w.statusBar().showMessage(said if ok else f"Refused: {why}", 15000)
            return bool(ok)
        w.document.rail_move(v)
        self.say(("Set-up edit (not an order of the game): " if kind == "setup" else "") + v.reason)
        return True


__all__ = ["REACH_FILL", "REACH_OUTLINE", "RailOptionsTool"]
