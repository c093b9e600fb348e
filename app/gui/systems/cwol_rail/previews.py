"""Live preview of a CWOL rail move (shared seed 000, ``docs/rules/cwol-rail.md``).

Select a unit standing on a rail square and point at any square: the
shortest valid rail path is drawn, solid up to where the unit stops this
turn (after 40 squares, or at the destination) and dashed beyond it; the stop
square is marked, every tenth square is numbered, squares where an equally
short path would stop instead are marked as ties, and when there is no valid
path the rail squares the search was refused (enemy-held) are outlined with
their reason.  The verdict in words is the overlay's message (status bar) and
tooltip.  A click moves the unit to its stop square as one undoable command.

Everything the rules decide is :func:`engine.rules.cwol_rail.rail_move`'s;
this module only draws its result.  The rail network snapshot is cached per
map and rebuilt when a link is drawn or cut; control is read live, so
repainting control changes the next hover at once.
"""

from __future__ import annotations

import dataclasses

from engine.grids import Cell
from engine.model import Scenario, Unit
from engine.rules.cwol_rail import SYSTEM, RailMove, RailOptions, rail_move, rail_network

from ...overlay import CellMark, Item, Marker, Overlay, PathLine, counted
from ...preview import MoveOrder, Preview

THIS_TURN = {"arrived": "#1f7a34", "stopped_short": "#d9822b"}
"""Colour of the path the unit rails this turn: green when it arrives, amber
when it stops short."""
BEYOND = "#5a5a5a"
"""The rest of the path (next turn), dashed."""
STOP = "#ffd23f"
TIE = "#b04fd0"
REFUSED = "#e0201a"
START = "#ffffff"

MEASURE_LIMIT = 20_000
"""On maps with more rail squares than this the preview does not measure an
over-limit path for the reason (the verdict is the same; hovering stays fast)."""
MAX_REFUSED_SHOWN = 40
"""At most this many refused rail squares are outlined."""


class CwolRailPreview(Preview):
    """CWOL rail movement: where does this unit get to by rail this turn?"""

    name = "CWOL rail move"

    def applies_to(self, scenario: Scenario) -> bool:
        """Maps whose ruleset has ``cwol_rail`` options or a CWOL numbering."""
        return SYSTEM in scenario.ruleset.options or scenario.map.numbering.scheme == "cwol"

    def _network_size(self, scenario: Scenario) -> int:
        kind = RailOptions.from_ruleset(scenario.ruleset).link_kind
        return len(rail_network(scenario.map, kind))

    def selectable(self, scenario: Scenario, unit: Unit) -> bool:
        """Units standing on a rail square."""
        kind = RailOptions.from_ruleset(scenario.ruleset).link_kind
        return rail_network(scenario.map, kind).on_rail(unit.at)

    def select(self, scenario: Scenario, unit: Unit | None) -> Overlay:
        if unit is None:
            return Overlay()
        where = scenario.map.label(unit.at)
        if not self.selectable(scenario, unit):
            return Overlay((Marker(unit.at, "cross", REFUSED, tooltip=f"{unit.id} at {where} is not on a rail line"),),
                           message=f"{unit.id} at {where} is not on a rail line, so it cannot move by rail.", ok=False)
        return Overlay((Marker(unit.at, "circle", START, tooltip=f"{unit.id} rails from {where}"),),
                       message=f"{unit.id} selected at {where}: point at a square to rail to.")

    def result(self, scenario: Scenario, unit: Unit, target: Cell) -> RailMove:
        """The engine's verdict, measuring over-limit paths only on maps
        small enough to do it at hover speed."""
        measure = None if self._network_size(scenario) <= MEASURE_LIMIT else False
        return rail_move(scenario, unit, target, measure_long_paths=measure)

    def hover(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> Overlay:
        """Rail paths have no waypoint: ``waypoint`` is ignored."""
        return overlay_for(scenario, self.result(scenario, unit, target))

    def apply(self, scenario: Scenario, unit: Unit, target: Cell, waypoint: Cell | None = None) -> MoveOrder | None:
        """Move to the stop square (the destination, or 40 squares along);
        ``None`` when there is no valid path or nothing to move."""
        r = self.result(scenario, unit, target)
        if r.status == "no_valid_path" or r.moved == 0:
            return None
        lab = scenario.map.label
        if r.status == "arrived":
            text = f"{unit.id} rails {counted(r.moved, 'square')} to {lab(r.stop)}"
        else:
            text = f"{unit.id} rails {r.moved} of {r.path_length} squares towards {lab(target)}, stops at {lab(r.stop)}"
        return MoveOrder(unit.id, r.stop, text)


def overlay_for(scenario: Scenario, r: RailMove) -> Overlay:
    """The overlay drawing ``r``: the path this turn and beyond, the stop,
    ties, refused squares; the reason as message and tooltips."""
    lab = scenario.map.label
    items: list[Item] = [Marker(r.start, "circle", START, size=0.35, tooltip=f"{r.unit_id} starts at {lab(r.start)}")]
    if r.path is not None:
        n = len(r.path) - 1
        m = r.moved
        color = THIS_TURN.get(r.status, THIS_TURN["arrived"])
        if m > 0:
            items.append(PathLine(r.path[:m + 1], color, width=4.0,
                                  tooltip=f"this turn: {counted(m, 'square')}, {lab(r.start)} to {lab(r.stop)}"))
        if m < n:
            items.append(PathLine(r.path[m:], BEYOND, width=3.0, dashed=True,
                                  tooltip=f"beyond the stop: {counted(n - m, 'more square', 'more squares')} to {lab(r.destination)} "
                                          f"next turn, if the path stays valid"))
        for k in range(10, n, 10):
            if k != m:
                items.append(CellMark(r.path[k], text=str(k), tooltip=f"{k} squares along the path"))
        items.append(Marker(r.stop, "star" if r.status == "arrived" else "diamond", STOP, text=str(m), size=0.9,
                            tooltip=f"stop: {lab(r.stop)} after {counted(m, 'square')}"))
        for t in r.ties:
            items.append(Marker(t, "diamond", TIE, text="=", size=0.5,
                                tooltip=f"tie: an equally short path would stop {r.unit_id} at {lab(t)} instead"))
    else:
        items.append(Marker(r.destination, "cross", REFUSED, size=0.5,
                            tooltip=f"no valid rail path to {lab(r.destination)}"))
        for c in r.blocked[:MAX_REFUSED_SHOWN]:
            holder = scenario.controller(c)
            why = f"held by {holder.name if holder is not None else 'nobody'}"
            if holder is not None and scenario.allied(holder.id, r.side):
                enemies = [u.id for u in scenario.units_at(c) if not scenario.allied(u.side, r.side)]
                why = f"enemy unit {', '.join(enemies)} there" if enemies else why
            items.append(CellMark(c, outline=REFUSED, width=3.0, tooltip=f"refused: rail at {lab(c)}, {why}"))
    return Overlay(tuple(items), message=r.reason, ok=r.status != "no_valid_path",
                   summary=summary_of(scenario, r), reasons=reasons_of(scenario, r),
                   details={"status": r.status, "path_length": r.path_length, "moved": r.moved,
                            "stop": lab(r.stop), "ties": [lab(c) for c in r.ties], "searched": r.searched})


def summary_of(scenario: Scenario, r: RailMove) -> str:
    """The verdict's short form for the status bar: the engine's headline
    (:attr:`~engine.rules.cwol_rail.RailMove.headline`, the command line's
    first line too), squares as ``scenario``'s map labels them."""
    return dataclasses.replace(r, label=scenario.map.label).headline


def reasons_of(scenario: Scenario, r: RailMove) -> tuple[str, ...]:
    """What the verdict panel lists under the verdict: the path, ties,
    refused squares and the engine's notes."""
    lab = scenario.map.label
    out: list[str] = []
    if r.path is not None:
        out.append(f"path ({counted(len(r.path) - 1, 'square')}): " + " ".join(lab(c) for c in r.path))
    if r.ties:
        out.append("an equally short path would stop at: " + ", ".join(lab(c) for c in r.ties))
    if r.blocked and r.status == "no_valid_path":
        shown = " ".join(lab(c) for c in r.blocked[:MAX_REFUSED_SHOWN])
        more = " …" if len(r.blocked) > MAX_REFUSED_SHOWN else ""
        out.append(f"refused rail squares next to the network searched: {shown}{more}")
    out.extend(r.notes)
    return tuple(out)


PREVIEWS = (CwolRailPreview,)
