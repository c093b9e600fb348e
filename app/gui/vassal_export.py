"""A grid scenario as a VASSAL module: the images, drawn by Adjutant's own
renderer, around the plan of :mod:`engine.io.vassal`.

:func:`board_image` paints the map as ``adjutant render`` does (terrain,
rivers, roads, rail, places, coordinate labels; no units: they are the
module's pieces), shifted by the plan's sub-pixel :attr:`~engine.io.vassal.ModulePlan.shift`
so the grid VASSAL lays over it meets every cell centre.
:func:`counter_images` draws one counter per unit and one per palette
entry with the editor's counter painter
(:meth:`app.gui.render.base.MapRenderer.counter_sprite`).
:func:`export_vassal` plans, draws and writes the module through the one
safe writer (checked by :mod:`engine.io.vassal_check` before the rename).
Needs a ``QGuiApplication``; never a window.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtGui import QImage, QPainter

from engine.grids import Cell
from engine.io.vassal import (
    BOARD_IMAGE,
    DEFAULT_SCALE,
    ModulePlan,
    piece_text,
    plan_module,
    write_module,
)
from engine.model import Scenario, Unit

from .export import png_bytes
from .render import DEFAULT_LAYERS, renderer_for, style
from .render.base import MapRenderer
from .render.region import paint_region

BOARD_LAYERS = (DEFAULT_LAYERS | {"labels"}) - {"units"}
"""What the board image shows: the map without its units (they are pieces)."""


def board_renderer(scenario: Scenario) -> MapRenderer:
    return renderer_for(scenario)


def board_zoom(renderer: MapRenderer, plan: ModulePlan) -> float:
    """The renderer's zoom for ``plan.scale`` pixels per cell."""
    return plan.scale / renderer.extent


def board_image(scenario: Scenario, plan: ModulePlan) -> QImage:
    """The board: the whole map at ``plan.scale``, shifted by ``plan.shift``."""
    r = board_renderer(scenario)
    zoom = board_zoom(r, plan)
    img = QImage(plan.width, plan.height, QImage.Format.Format_RGB32)
    img.fill(style.EXPORT_BACKGROUND)
    p = QPainter(img)
    p.translate(*plan.shift)
    w, h = r.scene_size(zoom)
    paint_region(p, r, zoom, (0, 0), QRect(0, 0, w, h), frozenset(BOARD_LAYERS),
                 background=style.EXPORT_BACKGROUND)
    p.end()
    return img


def counter_size(renderer: MapRenderer, plan: ModulePlan) -> int:
    return max(3, round(renderer.counter_size(board_zoom(renderer, plan))))


def counter_images(scenario: Scenario, plan: ModulePlan) -> dict[str, bytes]:
    """One PNG per unit and per palette entry, named as the plan names them."""
    r = board_renderer(scenario)
    size = counter_size(r, plan)
    out: dict[str, bytes] = {}
    for unit, piece in zip(scenario.units, plan.pieces, strict=True):
        out[piece.image] = png_bytes(r.counter_sprite(unit, 1, size))
    side_id = {piece_text(f.name): f.id for f in scenario.sides}
    for entry in plan.palette:
        sample = Unit(entry.name[:12], side_id.get(entry.side, entry.side), entry.type, Cell(0, 0), entry.strength)
        out[entry.image] = png_bytes(r.counter_sprite(sample, 1, size))
    return out


def module_images(scenario: Scenario, plan: ModulePlan) -> dict[str, bytes]:
    images = {BOARD_IMAGE: png_bytes(board_image(scenario, plan))}
    images.update(counter_images(scenario, plan))
    return images


def export_vassal(scenario: Scenario, path: str | Path, scale: int = DEFAULT_SCALE,
                  version: str = "3.7") -> ModulePlan:
    """Plan, draw and write the module; returns the plan (its warnings say
    what VASSAL will show differently).  Raises :class:`VassalError` (refused:
    nothing written) or :class:`engine.io.OutputError`."""
    plan = plan_module(scenario, scale, version)
    write_module(path, plan, module_images(scenario, plan))
    return plan


__all__ = ["BOARD_LAYERS", "board_image", "counter_images", "export_vassal", "module_images"]
