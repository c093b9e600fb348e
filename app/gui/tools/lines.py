"""Tools for what lies between cells: rail and road links (centre to
centre), rivers (on the sides of cells) and bridges (a river side crossed by
a rail or road)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.editing import (
    cells_along,
    line_cells,
    nearest_corner,
    nearest_edge,
    nearest_link,
    plan_bridge,
    plan_links,
    plan_rivers,
    river_walk,
)
from engine.grids import Cell, Edge, Point
from engine.model import ModelError

from ..overlay import EdgeMark, Overlay, PathLine
from .base import GridTool


class LinkTool(GridTool):
    """Lay a rail or road by dragging through cells: each cell entered is
    linked to the one before (they must be link-adjacent, ``grid.can_link``;
    a cell skipped by a fast mouse is filled in along a straight line).
    Shift-click lays a straight line of links from the last cell laid to the
    clicked one.  A click without a drag removes the link nearest the
    cursor; a right-drag removes links along the path."""

    kind: ClassVar[str] = "rail"
    options: ClassVar[tuple[str, ...]] = ()

    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self._path: list[Cell] = []
        self._xy: tuple[float, float] | None = None
        self._stroke: int | None = None
        self._present = True
        self._moved = False
        self._last: Cell | None = None

    def press(self, ev: Any) -> None:
        if ev.cell is None or ev.button not in ("left", "right"):
            return
        self.state.select_cell(ev.cell)
        if ev.shift and ev.button == "left" and self._last is not None and self._last != ev.cell:
            s = self.document.scenario
            line = line_cells(s.map.grid, self._last, ev.cell)
            self.document.push(f"Lay {self.kind}", plan_links(s, self.kind, line))
            self._last = ev.cell
            return
        self._path = [ev.cell]
        self._xy = (ev.x, ev.y)
        self._stroke = self.document.new_stroke()
        self._present = ev.button == "left"
        self._moved = False

    def move(self, ev: Any) -> None:
        if self._stroke is None or self._xy is None:
            self._hover(ev)
            return
        s = self.document.scenario
        grid = s.map.grid
        for c in cells_along(self.state.layout(), grid, self._xy, (ev.x, ev.y)):
            last = self._path[-1]
            if c == last:
                continue
            steps = [last, c] if grid.can_link(last, c) else line_cells(grid, last, c)
            verb = "Lay" if self._present else "Remove"
            try:
                self.document.push(f"{verb} {self.kind}", plan_links(s, self.kind, steps, self._present), self._stroke)
            except ModelError as e:
                self.state.say(str(e))
            self._path.append(c)
            self._moved = True
            if self._present:
                self._last = c
        self._xy = (ev.x, ev.y)
        self._show_path()

    def release(self, ev: Any) -> None:
        if self._stroke is not None and not self._moved:
            self._click(ev)
        self._stroke = None
        self._xy = None
        self._path = []
        self.state.set_overlay("tool", None)

    def _click(self, ev: Any) -> None:
        s = self.document.scenario
        link = nearest_link(s.map, self.state.layout(), self.kind, ev.x, ev.y)
        if link is None:
            self.state.say(f"No {self.kind} here: drag from cell to cell to lay one.")
            return
        self.document.push(f"Remove {self.kind}", plan_links(s, self.kind, [link.a, link.b], present=False))
        self.state.say(f"Removed the {self.kind} {s.map.edge_label(link)}")

    def _show_path(self) -> None:
        if len(self._path) > 1:
            color = "#ffffff" if self._present else "#ff3030"
            self.state.set_overlay("tool", Overlay((PathLine(tuple(self._path), color, 2.0, dashed=True),)))

    def _hover(self, ev: Any) -> None:
        link = nearest_link(self.document.scenario.map, self.state.layout(), self.kind, ev.x, ev.y)
        if link is None:
            self.state.set_overlay("tool", None)
        else:
            self.state.set_overlay("tool", Overlay((PathLine((link.a, link.b), "#ff3030", 3.0,
                                                             tooltip=f"click to remove this {self.kind}"),)))


class RailTool(LinkTool):
    id = "rail"
    name = "Rail"
    shortcut = "L"
    kind = "rail"
    tip = "Rail: drag through cells to lay track; click a track to remove it; right-drag removes."


class RoadTool(LinkTool):
    id = "road"
    name = "Road"
    shortcut = "D"
    kind = "road"
    tip = "Road: drag through cells to lay a road; click a road to remove it; right-drag removes."


class RiverTool(GridTool):
    """Draw rivers along the sides of cells (never in cells): drag along
    sides to lay them; click a river side to remove it; right-drag removes.

    A drag walks from corner to corner (:func:`engine.editing.shapes.river_walk`),
    so the sides it lays always join, whatever the mouse speed."""

    id = "river"
    name = "River"
    shortcut = "V"
    tip = "River: drag along cell sides to draw a river; click a river side to remove it; right-drag removes."

    def __init__(self, state: Any) -> None:
        super().__init__(state)
        self._xy: tuple[float, float] | None = None
        self._first: Edge | None = None
        self._corner: Point | None = None
        self._stroke: int | None = None
        self._present = True
        self._moved = False

    def _edge(self, ev: Any) -> Edge | None:
        return ev.edge if ev.edge is not None else nearest_edge(
            self.state.layout(), self.document.scenario.map.grid, ev.x, ev.y)

    def press(self, ev: Any) -> None:
        if ev.button not in ("left", "right"):
            return
        self._first = self._edge(ev)
        self._corner = nearest_corner(self.state.layout(), self.document.scenario.map.grid, ev.x, ev.y)
        self._xy = (ev.x, ev.y)
        self._stroke = self.document.new_stroke()
        self._present = ev.button == "left"
        self._moved = False

    def move(self, ev: Any) -> None:
        if self._stroke is None or self._xy is None:
            edge = self._edge(ev) if ev.cell is not None else None
            self.state.set_overlay("tool", None if edge is None else Overlay((EdgeMark(edge, "#ffffff", 3.0),)))
            return
        if self._corner is None:
            return
        s = self.document.scenario
        self._corner, edges = river_walk(self.state.layout(), s.map.grid, self._corner, self._xy, (ev.x, ev.y))
        if edges:
            self._moved = True
            self.document.push("Draw river" if self._present else "Remove river",
                               plan_rivers(s, edges, self._present), self._stroke)
        self._xy = (ev.x, ev.y)

    def release(self, ev: Any) -> None:
        if self._stroke is not None and not self._moved and self._first is not None:
            s = self.document.scenario
            e = self._first
            present = self._present and e not in s.map.rivers
            self.document.push("Draw river" if present else "Remove river", plan_rivers(s, [e], present))
        self._stroke = None
        self._xy = None
        self._first = None
        self._corner = None


class BridgeTool(GridTool):
    """Click a river side to put a bridge of the chosen kind on it; click a
    bridge of that kind (or right-click any) to remove it."""

    id = "bridge"
    name = "Bridge"
    shortcut = "K"
    tip = "Bridge: click a river side to bridge it (rail or road); click again or right-click to remove."
    options: ClassVar[tuple[str, ...]] = ("bridge",)

    def press(self, ev: Any) -> None:
        if ev.button not in ("left", "right"):
            return
        s = self.document.scenario
        edge = ev.edge if ev.edge is not None and ev.edge in s.map.rivers else nearest_edge(
            self.state.layout(), s.map.grid, ev.x, ev.y, tolerance=getattr(self.state.layout(), "size", 1.0) / 2)
        if edge is None:
            self.state.say("Click the side of a cell where a river runs.")
            return
        current = s.map.bridges.get(edge)
        kind = None if ev.button == "right" or current == self.state.bridge_kind else self.state.bridge_kind
        try:
            edit = plan_bridge(s, edge, kind)
        except ModelError as e:
            self.state.say(str(e))
            return
        if self.document.push("Remove bridge" if kind is None else f"Add {kind} bridge", edit):
            where = s.map.edge_label(edge)
            self.state.say(f"Removed the bridge at {where}" if kind is None else f"{kind.capitalize()} bridge at {where}")
