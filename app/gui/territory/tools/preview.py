"""Preview (V): a rules system's live preview on a territory map.

The territory twin of the grid editor's Adjudicate mode: click a unit's
counter to select it, point at a territory, and the current preview (the
first of the systems' territory previews that applies to the scenario,
:func:`app.gui.systems.territory_previews_for`) says what would happen,
drawn as the overlay with its verdict in the status bar.  Right-click drops
the selection.  A click on another territory gives the preview's order
(:meth:`~app.gui.preview.TerritoryPreview.order`): to the game when one is
played, else carried out through the rules system as one undo step
(:class:`SystemMove`); a refused order changes nothing and says why.  The
preview's dock, if it has one, shows while the mode is active."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from engine.editing.territory import RulesMoveEdit
from engine.model import ModelError
from engine.rules import registry
from engine.territory import TerritoryScenario

from ...preview import TerritoryPreview
from ..canvas import TerritoryMouseEvent
from ..overlay import EMPTY, TerritoryOverlay
from .base import TerritoryTool

if TYPE_CHECKING:
    from ...tools.context import TerritoryToolContext


@dataclass
class SystemMove:
    """A unit's move as a rules system carries it out (a
    :class:`~engine.editing.territory.PlannedMove`): ``redo`` applies
    ``order`` through ``system`` (check, then effect) and keeps its record,
    ``undo`` takes the record back."""

    system: Any
    order: Mapping[str, Any]
    unit: str
    start: str
    to: str
    _records: list[Any] = field(default_factory=list)

    def redo(self, s: TerritoryScenario) -> None:
        self._records.append(self.system.apply(s, self.order))

    def undo(self, s: TerritoryScenario) -> None:
        self._records.pop().undo(s)


class PreviewTool(TerritoryTool):
    """Select a unit, hover a territory: the preview's verdict."""

    id = "preview"
    name = "Preview"
    shortcut = "V"
    tip = "Click a unit, point at a territory: what its rules say; right-click deselects"

    def __init__(self, ctx: TerritoryToolContext) -> None:
        super().__init__(ctx)
        from ...systems import territory_previews_for

        self.previews: list[TerritoryPreview] = territory_previews_for()
        """Every territory preview, one instance each (this window's)."""
        self.target: str | None = None
        self._overlay: TerritoryOverlay = EMPTY
        self._docks: dict[int, Any] = {}

    @property
    def preview(self) -> TerritoryPreview | None:
        """The first preview that applies to the scenario (``None``: none does)."""
        s = self.ctx.scenario
        for p in self.previews:
            try:
                if p.applies_to(s):
                    return p
            except Exception:  # noqa: BLE001, S112 (a broken plug-in is left out)
                continue
        return None

    def activate(self) -> None:
        super().activate()
        p = self.preview
        dock = None if p is None else self._dock(p)
        for d in self._docks.values():
            if d is not dock:
                d.hide()
        if dock is not None:
            dock.show()
            dock.raise_()
        if p is None:
            self.say("No rules preview applies to this map's ruleset.")

    def deactivate(self) -> None:
        super().deactivate()
        for d in self._docks.values():
            d.hide()
        self.target = None

    def _dock(self, p: TerritoryPreview) -> Any:
        """``p``'s dock, made on first use and kept for the window's life
        (``None``: it has none, or its widget cannot be built)."""
        key = id(p)
        if key not in self._docks:
            try:
                widget = p.dock()
            except Exception:  # noqa: BLE001 (a broken plug-in dock is left out)
                widget = None
            if widget is None:
                return None
            name = "territoryPreviewDock" + (str(len(self._docks) + 1) if self._docks else "")
            self._docks[key] = self.ctx.add_dock(p.name or "Preview", name, widget,
                                                 Qt.DockWidgetArea.BottomDockWidgetArea)
        return self._docks[key]

    def _unit(self) -> Any:
        uid = self.ctx.selected_unit
        if uid is None:
            return None
        try:
            return self.ctx.scenario.unit(uid)
        except (KeyError, ModelError):
            return None

    def overlay(self) -> TerritoryOverlay:
        """The hovered target's verdict, or what the selected unit shows
        before the mouse moves."""
        p, unit = self.preview, self._unit()
        if p is None:
            return EMPTY
        s = self.ctx.scenario
        try:
            if unit is not None and self.target is not None and self.target != unit.at:
                self._overlay = p.hover(s, unit, self.target)
            else:
                self._overlay = p.select(s, unit)
        except (ModelError, ValueError) as e:
            self._overlay = TerritoryOverlay(message=str(e))
        return self._overlay

    def status(self, tid: str) -> list[str]:
        return [self._overlay.message] if self._overlay.message and tid == self.target else []

    def press(self, ev: TerritoryMouseEvent) -> None:
        if ev.button == "right":
            self.target = None
            self.ctx.select_unit(None)
            return
        if ev.button != "left":
            return
        counter = self.counter_at(ev)
        p = self.preview
        if p is None:
            return
        unit = self._unit()
        if counter is None:
            if unit is not None and ev.territory is not None and ev.territory != unit.at:
                self.give(ev.territory)
            return
        for uid in counter[1]:
            if p.selectable(self.ctx.scenario, self.ctx.scenario.unit(uid)):
                self.target = None
                self.ctx.select_unit(uid)
                return
        self.say("No unit there that this preview can move.")

    def give(self, target: str) -> bool:
        """Give the current preview's order for the selected unit to
        ``target``; whether it was carried out (else the status bar says why)."""
        p, unit = self.preview, self._unit()
        if p is None or unit is None:
            return False
        s = self.ctx.scenario
        order = p.order(s, unit, target)
        if order is None:
            return False
        turns = self.ctx.turns
        if turns is not None and turns.playing():  # a game: the journal records it (app/gui/turns.py)
            ok, why = turns.give(order)
            self.say(why if ok else f"Refused: {why}")
            return bool(ok)
        try:
            system = registry.get(p.system)
            verdict = system.check(s, order)
        except (KeyError, ModelError) as e:
            self.say(str(e))
            return False
        if not verdict.ok:
            self.say("Refused: " + " ".join(verdict.reasons))
            return False
        self.ctx.document.push_edit(RulesMoveEdit(SystemMove(system, dict(order), unit.id, unit.at, target)))
        self.say(" ".join(verdict.reasons))
        return True

    def move(self, ev: TerritoryMouseEvent) -> None:
        if ev.territory != self.target:
            self.target = ev.territory
            self.show_overlay()


__all__ = ["PreviewTool", "SystemMove"]
