"""The legend docks of both editors: what the map shows, each
row a small swatch cut from the map itself and painted by the canvas's own
painter (:func:`app.gui.render.region.paint_region`, with only the layers
the row is about; for territory maps
:meth:`~app.gui.render.territory.TerritoryRenderer.render_static` and
:func:`~app.gui.render.counters.paint_counters`), so the legend cannot drift
from the drawing.

:class:`TerritoryLegendPanel` lists who holds land (and nobody's land), sea
zones, land occupied from its original owner, and each side's unit types.

Rows, for what this map has: its terrain types, the sides that control
cells, rivers, rail, roads, bridges, places, the unit types of each side,
and the symbols of the preview now shown (path, stop point, shaded or
marked cells, with their tooltips).  It follows map switches
(:meth:`LegendPanel.set_scenario`) and preview changes
(:meth:`LegendPanel.show_overlay`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from engine.grids import Cell, Edge
from engine.model import NO_SIDE, Scenario
from engine.territory import TerritoryScenario

from ..overlay import CellMark, CellMarks, EdgeMark, Item, Marker, Overlay, PathLine
from ..render import MapRenderer, renderer_for
from ..render.counters import Counter, paint_counters
from ..render.region import paint_region

if TYPE_CHECKING:  # annotations only: a grid map's legend never imports the territory renderer
    from ..render.territory import TerritoryRenderer

SWATCH = 44
"""Swatch side in pixels; a cell is drawn about 30 px across."""


def swatch(renderer: MapRenderer, at: tuple[float, float], layers: Iterable[str],
           overlays: Sequence[Overlay] = (), size: int = SWATCH) -> QImage:
    """A ``size`` square of the map centred on map point ``at``, painted
    with only ``layers`` (and ``overlays``) by the canvas's painter."""
    zoom = 30.0 / max(renderer.cell_px(1.0), 1e-9)
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    origin = (round(size / 2 - at[0] * zoom), round(size / 2 - at[1] * zoom))
    paint_region(p, renderer, zoom, origin, QRect(0, 0, size, size), frozenset(layers), overlays=list(overlays))
    p.end()
    return img


def _first_cell(mask: np.ndarray) -> Cell:
    rows, cols = np.nonzero(mask)
    return Cell(int(cols[0]), int(rows[0]))


def _item_text(it: object) -> str:
    tip = getattr(it, "tooltip", None) or getattr(it, "text", None)
    kind = {PathLine: "path", EdgeMark: "marked side", Marker: "marker", CellMark: "marked cell"}.get(type(it), "mark")
    if isinstance(it, Marker):
        kind = f"{it.shape} marker"
    elif isinstance(it, PathLine) and it.dashed:
        kind = "dashed path"
    elif isinstance(it, CellMark) and it.fill:
        kind = "shaded cell"
    if tip:
        first = str(tip).split("\n")[0]
        if len(first) > 80:  # cut at a word, and say so
            first = first[:80].rsplit(" ", 1)[0] + "…"
        return f"Preview: {kind} — {first}"
    return f"Preview: {kind}"


def _item_key(it: object) -> tuple[object, ...]:
    if isinstance(it, CellMark):
        return ("cell", it.fill, it.outline, it.text is not None)
    if isinstance(it, PathLine):
        return ("path", it.color, it.dashed)
    if isinstance(it, EdgeMark):
        return ("edge", it.color)
    if isinstance(it, Marker):
        return ("marker", it.shape, it.color)
    return (type(it).__name__,)


def unit_kinds(s: Any) -> list[tuple[str, Any]]:
    """One row per side and unit type on the map: its text ("Unit: Infantry
    (Union)") and the first unit of that kind, by id."""
    names = {t.id: t.name for t in s.ruleset.unit_types}
    first: dict[tuple[str, str], Any] = {}
    for u in sorted(s.units, key=lambda u: (u.side, u.type, u.id)):
        first.setdefault((u.side, u.type), u)
    out = []
    for (side_id, type_id), u in first.items():
        try:
            side = s.side(side_id).name
        except ValueError:
            side = side_id
        out.append((f"Unit: {names.get(type_id, type_id)} ({side})", u))
    return out


class LegendPanel(QListWidget):
    """The legend: one row per thing the map (and the current preview)
    shows; see the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setIconSize(QSize(SWATCH, SWATCH))
        self.setWordWrap(True)
        self.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._renderer: MapRenderer | None = None
        self._overlay: Overlay | None = None
        self._map_rows = 0
        self._scenario: Scenario | None = None
        self._preview_keys: tuple[tuple[object, ...], ...] | None = None
        """The symbol kinds the preview rows show now (``None``: none shown
        yet for this map)."""
        self._kinds: tuple[object, ...] | None = None
        """What kinds of thing the map rows show (:func:`map_kinds`)."""
        self._swatches: dict[tuple[object, ...], QIcon] = {}
        """A preview row's swatch by its symbol kind (:func:`_item_key`), kept
        while the map is shown: a hover whose march is blocked, then clear,
        then blocked again switches rows without painting them again."""
        from PySide6.QtCore import QTimer

        self._recheck = QTimer(self)
        self._recheck.setSingleShot(True)
        self._recheck.setInterval(250)
        self._recheck.timeout.connect(self._check_map)

    def map_edited(self) -> None:
        """The map was edited: once edits pause (250 ms, so a brush stroke
        costs nothing per dab), rebuild the map rows if the kinds of thing
        on the map changed (a terrain painted for the first time, the last
        river removed…)."""
        self._recheck.start()

    def _check_map(self) -> None:
        if self._scenario is not None and map_kinds(self._scenario) != self._kinds:
            self.refresh()

    def refresh(self) -> None:
        """Paint every row again (the palette changed), keeping the preview's."""
        if self._scenario is not None:
            overlay = self._overlay
            self.set_scenario(self._scenario)
            self.show_overlay(overlay)

    def set_scenario(self, scenario: Scenario) -> None:
        """Show the legend of ``scenario``'s map (no preview rows until
        :meth:`show_overlay`)."""
        self._scenario = scenario
        self._renderer = renderer_for(scenario)
        self._swatches = {}
        self._overlay = None
        self._preview_keys = None
        self._kinds = map_kinds(scenario)
        self.clear()
        for text, img in self._map_rows_of(scenario):
            self._add(text, img)
        self._map_rows = self.count()

    def show_overlay(self, overlay: Overlay | None) -> None:
        """Replace the preview rows with the symbols of ``overlay``.  It runs
        on every mouse move of a preview: when the overlay shows the same kinds
        of symbol as the rows already do, nothing is redrawn."""
        self._overlay = overlay
        r = self._renderer
        first: dict[tuple[object, ...], Item] = {}
        if overlay is not None and r is not None:
            for it in overlay.items:
                if isinstance(it, CellMarks):  # a batch of cells marked alike: its first cell's mark
                    if not it.cells:
                        continue
                    it = it.mark(it.cells[0])
                first.setdefault(_item_key(it), it)
        keys = tuple(first)
        if keys == self._preview_keys:
            return
        self._preview_keys = keys
        while self.count() > self._map_rows:
            self.takeItem(self.count() - 1)
        if r is None:
            return
        for key, it in first.items():
            icon = self._swatches.get(key)
            if icon is None:
                img = swatch(r, self._item_point(r, it), ("terrain", "grid"), [Overlay((it,))])
                icon = self._swatches[key] = QIcon(QPixmap.fromImage(img))
            QListWidgetItem(icon, _item_text(it), self)

    def texts(self) -> list[str]:
        """Every row's text, top to bottom."""
        return [self.item(i).text() for i in range(self.count())]

    def _add(self, text: str, img: QImage) -> None:
        QListWidgetItem(QIcon(QPixmap.fromImage(img)), text, self)

    @staticmethod
    def _item_point(r: MapRenderer, it: object) -> tuple[float, float]:
        if isinstance(it, (CellMark, Marker)):
            return r.layout.center(it.cell)
        if isinstance(it, PathLine) and it.cells:
            a = r.layout.center(it.cells[0])
            b = r.layout.center(it.cells[min(1, len(it.cells) - 1)])
            return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if isinstance(it, EdgeMark):
            return _edge_mid(r, it.edge)
        return (0.0, 0.0)

    def _map_rows_of(self, s: Scenario) -> list[tuple[str, QImage]]:
        r = self._renderer
        assert r is not None
        m = s.map
        rows: list[tuple[str, QImage]] = []
        lay = r.layout
        for i in sorted(int(v) for v in np.unique(m.terrain)):
            if i < len(s.ruleset.terrain):
                t = s.ruleset.terrain[i]
                rows.append((f"Terrain: {t.name}", swatch(r, lay.center(_first_cell(m.terrain == i)), ("terrain", "grid"))))
        for i in sorted(int(v) for v in np.unique(m.control)):
            if i != NO_SIDE and 0 <= i < len(s.sides):
                at = lay.center(_first_cell(m.control == i))
                rows.append((f"Controlled by {s.sides[i].name}", swatch(r, at, ("terrain", "control", "grid"))))
        if m.rivers:
            rows.append(("River (along cell sides)", swatch(r, _edge_mid(r, min(m.rivers)), ("terrain", "grid", "rivers"))))
        for kind in ("rail", "road"):
            links = m.links.get(kind)
            if links:
                e = min(links)
                a, b = lay.center(e.a), lay.center(e.b)
                rows.append((kind.capitalize(), swatch(r, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), ("terrain", "grid", kind))))
        for kind in sorted(set(m.bridges.values())):
            e = min(k for k, v in m.bridges.items() if v == kind)
            rows.append((f"{kind.capitalize()} bridge", swatch(r, _edge_mid(r, e), ("terrain", "grid", "rivers", kind))))
        if m.places:
            c = min(m.places)
            rows.append(("Place (town or lettered city)", swatch(r, lay.center(c), ("terrain", "grid", "places"))))
        for text, u in unit_kinds(s):
            rows.append((text, swatch(r, lay.center(u.at), ("terrain", "grid", "units"))))
        return rows


def map_kinds(s: Scenario) -> tuple[object, ...]:
    """What kinds of thing a grid map shows — terrain and control values
    present, rivers, rail, road, bridge kinds, places, unit kinds: the
    legend's map rows change exactly when this does."""
    m = s.map
    terrain = tuple(np.flatnonzero(np.bincount(m.terrain.ravel())).tolist())
    control = tuple(np.unique(m.control).tolist()) if m.control.size else ()
    return (terrain, control, bool(m.rivers), bool(m.links.get("rail")), bool(m.links.get("road")),
            tuple(sorted(set(m.bridges.values()))), bool(m.places), tuple(t for t, _ in unit_kinds(s)))


def _edge_mid(r: MapRenderer, e: Edge) -> tuple[float, float]:
    a, b = r.layout.edge_segment(e)
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def territory_swatch(renderer: TerritoryRenderer, tid: str, size: int = SWATCH) -> QImage:
    """A ``size`` square of a territory map around territory ``tid``'s
    label point, its territories and borders painted as the territory
    canvas's static pass paints them
    (:meth:`~app.gui.render.territory.TerritoryRenderer.render_swatch`)."""
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor("#ffffff"))
    t = renderer.s.map.territories[tid]
    x0, y0, x1, y1 = t.shape.bounds if not t.shape.is_empty else (0.0, 0.0, 1.0, 1.0)
    lp = renderer.labels.get(tid) or ((x0 + x1) / 2, (y0 + y1) / 2)
    half = max(1.0, min(x1 - x0, y1 - y0) / 2)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    renderer.render_swatch(p, QRectF(lp[0] - half, lp[1] - half, 2 * half, 2 * half), size / (2 * half))
    p.end()
    return img


def counter_swatch(s: TerritoryScenario, unit_id: str, label: str, font: QFont, size: int = SWATCH) -> QImage:
    """A unit counter as the territory canvas draws it
    (:func:`~app.gui.render.counters.paint_counters`)."""
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    u = s.unit(unit_id)
    paint_counters(p, s, [Counter(QRectF(3, size / 2 - 9, size - 6, 18), u.at, [unit_id], label)], None, font)
    p.end()
    return img


class TerritoryLegendPanel(QListWidget):
    """The territory editor's legend; see the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setIconSize(QSize(SWATCH, SWATCH))
        self.setWordWrap(True)
        self.setSelectionMode(QListWidget.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._shown: tuple[TerritoryScenario, TerritoryRenderer | None] | None = None

    def refresh(self) -> None:
        """Paint every row again (the palette changed)."""
        if self._shown is not None:
            self.set_scenario(*self._shown)

    def set_scenario(self, s: TerritoryScenario, renderer: TerritoryRenderer | None) -> None:
        """Show the legend of ``s`` as ``renderer`` draws it."""
        self._shown = (s, renderer)
        self.clear()
        if renderer is None:
            return
        m = s.map
        held: dict[str | None, str] = {}
        sea: str | None = None
        occupied: str | None = None
        for tid in sorted(m.territories):
            t = m.territories[tid]
            if t.sea:
                sea = sea or tid
                continue
            held.setdefault(t.controller, tid)
            if t.occupied and occupied is None:
                occupied = tid
        for side in s.sides:
            if side.id in held:
                self._add(f"Held by {side.name}", territory_swatch(renderer, held[side.id]))
        if None in held:
            self._add("Held by nobody", territory_swatch(renderer, held[None]))
        if sea is not None:
            self._add("Sea zone", territory_swatch(renderer, sea))
        if occupied is not None:
            self._add("Occupied: held by a side other than its original owner (hatched)",
                      territory_swatch(renderer, occupied))
        for text, tu in unit_kinds(s):
            self._add(text, counter_swatch(s, tu.id, tu.type[:3].upper(), self.font()))

    def texts(self) -> list[str]:
        """Every row's text, top to bottom."""
        return [self.item(i).text() for i in range(self.count())]

    def _add(self, text: str, img: QImage) -> None:
        QListWidgetItem(QIcon(QPixmap.fromImage(img)), text, self)
