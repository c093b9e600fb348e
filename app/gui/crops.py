"""PNG crops of the map for a play-by-post report: the area each verdict
concerns.

For each order the journal carried out or refused, :func:`entry_crop` finds
what the entry concerns — every cell label or territory named anywhere in
its order or verdict, and the place of every unit it names, before and after
the entry — and draws that part of the map *as it was after the entry*
(:meth:`engine.turns.game.Game.at`), the concerned cells outlined (green:
carried out; vermilion: refused; Okabe–Ito colours) or the concerned
territories selected.  ``adjutant journal --markdown --crops DIR`` links
them from the report (``app/cli/journal.py``).

Grid maps are drawn by the editor's own painters (``paint_region``), territory
maps by ``TerritoryRenderer``; the PNG goes through the one safe writer
(``engine/io/atomic.py``), decoded before it replaces anything.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, QRectF, QSize
from PySide6.QtGui import QImage, QPainter

from engine.grids import Cell
from engine.io.atomic import OutputError, write_atomic
from engine.model import ModelError, Scenario
from engine.territory import TerritoryScenario
from engine.turns.journal import Entry

from .export import ExportError, check_png_file, png_bytes
from .overlay import CellMark, Overlay
from .render import renderer_for, style
from .render.base import DEFAULT_LAYERS
from .render.region import paint_region

CARRIED_OUT = "#009E73"
REFUSED = "#D55E00"
CELL_PX = 36.0
"""Pixels per cell (grid) of a crop, before it is shrunk to fit."""
MAX_SIDE = 720
"""Longest side of a crop, in pixels."""


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):
        for v in data.values():
            yield from _strings(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            yield from _strings(v)


def concerned(entry: Entry, before: Any, after: Any) -> set[Any]:
    """The cells (grid) or territory ids (territory map) ``entry`` concerns:
    named in its order or verdict, or where a unit it names stood before or
    after it."""
    out: set[Any] = set()
    texts = set(_strings(entry.order)) | set(_strings(entry.verdict))
    for s in (before, after):
        units = {u.id: u.at for u in s.units}
        for text in texts:
            if text in units:
                out.add(units[text])
    for text in texts:
        if isinstance(after, TerritoryScenario):
            if text in after.map.territories:
                out.add(text)
        elif len(text) <= 12:
            try:
                out.add(after.map.parse_label(text))
            except (ModelError, ValueError):
                pass
    return out


def _grid_image(s: Scenario, cells: set[Cell], ok: bool) -> QImage | None:
    r = renderer_for(s)
    zoom = CELL_PX / r.extent
    rect = r.cells_scene_rect(cells, zoom, pad_cells=2.5)
    if rect is None:
        return None
    w0, h0 = r.scene_size(zoom)
    rect = rect.intersected(QRect(0, 0, w0, h0))
    if rect.width() > MAX_SIDE or rect.height() > MAX_SIDE:
        zoom *= MAX_SIDE / max(rect.width(), rect.height())
        rect = r.cells_scene_rect(cells, zoom, pad_cells=2.5)
        assert rect is not None
        w0, h0 = r.scene_size(zoom)
        rect = rect.intersected(QRect(0, 0, w0, h0))
        rect.setWidth(min(rect.width(), MAX_SIDE))  # the padding rounds up by a pixel or two
        rect.setHeight(min(rect.height(), MAX_SIDE))
    if rect.isEmpty():
        return None
    img = QImage(QSize(rect.width(), rect.height()), QImage.Format.Format_ARGB32)
    img.fill(style.EXPORT_BACKGROUND)
    colour = CARRIED_OUT if ok else REFUSED
    marks = Overlay(tuple(CellMark(c, outline=colour, width=3.0) for c in sorted(cells)))
    p = QPainter(img)
    try:
        paint_region(p, r, zoom, (-rect.x(), -rect.y()), QRect(0, 0, rect.width(), rect.height()),
                     DEFAULT_LAYERS - {"labels"},
                     overlays=(marks,), background=style.EXPORT_BACKGROUND)
    finally:
        p.end()
    return img


def _territory_image(s: TerritoryScenario, tids: set[str]) -> QImage | None:
    shapes = [s.map.territories[t].shape for t in tids if not s.map.territories[t].shape.is_empty]
    if not shapes:
        return None
    x0 = min(g.bounds[0] for g in shapes)
    y0 = min(g.bounds[1] for g in shapes)
    x1 = max(g.bounds[2] for g in shapes)
    y1 = max(g.bounds[3] for g in shapes)
    pad = max(x1 - x0, y1 - y0) * 0.25 + 10
    region = QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)
    z = min(MAX_SIDE / region.width(), MAX_SIDE / region.height(), 4.0)
    w, h = max(1, int(region.width() * z)), max(1, int(region.height() * z))
    r = renderer_for(s)
    img = QImage(QSize(w, h), QImage.Format.Format_ARGB32)
    img.fill(style.EXPORT_BACKGROUND)
    p = QPainter(img)
    try:
        r.paint_map(p, region, z, set(tids))
    finally:
        p.end()
    return img


def entry_crop(game: Any, index: int) -> QImage | None:
    """The crop of journal entry ``index`` (0-based), or ``None`` when the
    entry is no order or concerns nothing on the map."""
    e = game.journal[index]
    if e.kind not in ("order", "refused"):
        return None
    before, after = game.at(index), game.at(index + 1)
    what = concerned(e, before, after)
    if not what:
        return None
    if isinstance(after, TerritoryScenario):
        return _territory_image(after, {t for t in what if isinstance(t, str)})
    return _grid_image(after, {c for c in what if isinstance(c, Cell)}, e.kind == "order")


def write_crops(game: Any, positions: list[int], folder: Path, prefix: str) -> dict[int, str]:
    """Write the crops of the entries at ``positions`` into ``folder`` as
    ``<prefix>-<n>.png`` (n: the entry's number in the journal, from 1);
    the file name of each, by position.  Raises :class:`ExportError`."""
    out: dict[int, str] = {}
    for i in positions:
        img = entry_crop(game, i)
        if img is None:
            continue
        if not out:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise ExportError(f"cannot make the folder ({e.strerror or e})") from None
        name = f"{prefix}-{i + 1}.png"
        size = img.size()

        data = png_bytes(img)

        def check(f: Path, size: QSize = size, data: bytes = data) -> None:
            check_png_file(f, size, data)

        try:
            write_atomic(folder / name, data, verify=check)
        except OutputError as e:
            raise ExportError(str(e)) from None
        out[i] = name
    return out


__all__ = ["concerned", "entry_crop", "write_crops"]
