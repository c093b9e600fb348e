"""PNG and SVG export of a grid map: the whole map (:func:`export_map`, also
behind ``adjutant render``) or what a canvas shows (:func:`export_view`).

Both paint through :func:`app.gui.render.region.paint_region`, the function
the canvas paints with, so an export looks like the editor.  Export needs a
``QGuiApplication`` (``adjutant render`` creates one on the offscreen
platform); it never needs a window.

``scale`` is screen pixels per cell (a square's side, a hex's width across
the flats).  Images are refused beyond :data:`MAX_PIXELS` pixels or
:data:`MAX_SIDE` pixels a side with an :class:`ExportError` saying which
scale would fit.  Images are painted in memory and written through the one
safe writer (:mod:`engine.io.atomic`): checked (the PNG decodes, the SVG
parses), then renamed over the old file.  SVG files embed the terrain
raster as images (one per band of rows) and draw rivers, links, places,
units and overlays as vectors.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QBuffer, QIODevice, QRect, QSize
from PySide6.QtGui import QImage, QPainter

from app.gui.overlay import Overlay
from engine.io import OutputError, write_atomic
from engine.io.png import check_png, png_from_rgb32
from engine.model import Scenario

from .render import DEFAULT_LAYERS, renderer_for, style
from .render.base import MapRenderer
from .render.region import paint_region

if TYPE_CHECKING:
    from .canvas import MapCanvas

MAX_PIXELS = 64_000_000
"""Largest exported image, in pixels (a 8000 x 8000 PNG; 256 MB of RGB32)."""
MAX_SIDE = 32_000
"""Largest exported image side, in pixels (Qt's painting limit is 32767)."""
DEFAULT_SCALE = 24
"""Pixels per cell when none is given."""
LABEL_SCALE = math.ceil(style.LABEL_MIN_PX)
"""Smallest scale at which coordinate labels are drawn."""
FORMATS = ("png", "svg")


class ExportError(ValueError):
    """An export that cannot be made (format, size, file); ``str`` says why."""


def svg_available() -> bool:
    """True when ``PySide6.QtSvg`` (part of PySide6-Essentials) imports."""
    try:
        from PySide6.QtSvg import QSvgGenerator  # noqa: F401
    except ImportError:
        return False
    return True


def export_format(path: str | Path) -> str:
    """``"png"`` or ``"svg"`` from the file's extension, else ExportError."""
    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in FORMATS:
        raise ExportError(f"{path}: cannot tell the image format from '.{ext}' "
                          f"(use a file name ending in .png or .svg)")
    if ext == "svg" and not svg_available():
        raise ExportError("SVG export needs the PySide6.QtSvg module, which could not be imported; export a .png instead")
    return ext


def image_size(scenario: Scenario, scale: float) -> tuple[int, int]:
    """Pixel size of the whole-map image at ``scale`` pixels per cell."""
    r = renderer_for(scenario)
    return r.scene_size(scale / r.extent)


def check_size(w: int, h: int, scale: float) -> None:
    """Refuse an image over :data:`MAX_PIXELS` or :data:`MAX_SIDE`, naming
    the largest scale that fits."""
    if w * h <= MAX_PIXELS and max(w, h) <= MAX_SIDE:
        return
    k = min(math.sqrt(MAX_PIXELS / max(1, w * h)), MAX_SIDE / max(w, h, 1))
    fit = math.floor(scale * k * 100) / 100
    raise ExportError(f"the image would be {w} x {h} pixels ({w * h / 1e6:.1f} Mpx), over the export limit of "
                      f"{MAX_PIXELS / 1e6:.0f} Mpx and {MAX_SIDE} pixels a side; use --scale {fit:g} or less")


def _layers(labels: bool, layers: frozenset[str] | None) -> frozenset[str]:
    base = DEFAULT_LAYERS if layers is None else frozenset(layers)
    return base | {"labels"} if labels else base - {"labels"}


def png_bytes(img: QImage) -> bytes:
    """``img`` as PNG: an opaque image through :func:`engine.io.png.png_from_rgb32`
    (5x faster than Qt's writer on a rendered map, see its
    ``RENDER_LEVEL``), one with transparency through Qt's writer."""
    if not img.hasAlphaChannel():
        if img.format() != QImage.Format.Format_RGB32:
            img = img.convertToFormat(QImage.Format.Format_RGB32)
        w, h, bpl = img.width(), img.height(), img.bytesPerLine()
        pixels = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)[:, :4 * w]
        return png_from_rgb32(pixels.reshape(h, w, 4))
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = img.save(buf, "PNG")  # type: ignore[call-overload]
    buf.close()
    if not ok:
        raise ExportError("could not encode the PNG image")
    return bytes(buf.data().data())


def check_png_file(path: Path, size: QSize | None = None, encoded: bytes | None = None) -> None:
    """Raise unless ``path`` is a whole PNG (every chunk's CRC right, the
    image data decompressing to exactly its rows: :func:`engine.io.png.check_png`)
    of ``size``, when given: the check made of an exported PNG before it
    replaces the old file.  With ``encoded``, the bytes the encoder made,
    the file must hold exactly those; its chunks are then checked but its
    image data not decompressed again (the encoder's own stream, read back
    unchanged)."""
    data = path.read_bytes()
    if encoded is not None and data != encoded:
        raise ValueError(f"the file holds {len(data)} bytes that are not the {len(encoded)} bytes encoded")
    w, h = check_png(data, inflate=encoded is None)
    if size is not None and (w, h) != (size.width(), size.height()):
        raise ValueError(f"the PNG file is {w} x {h}, expected {size.width()} x {size.height()}")


def check_svg_file(path: Path) -> None:
    """Raise unless ``path`` is well-formed XML with an ``<svg>`` root
    (parsed with defusedxml): the check made of an exported SVG."""
    import defusedxml.ElementTree as SafeET

    root = SafeET.parse(str(path)).getroot()
    if not root.tag.endswith("svg"):
        raise ValueError(f"the root element is <{root.tag}>, not <svg>")


def _write(path: Path, fmt: str, size: QSize, title: str, paint: Callable[[QPainter], None]) -> None:
    """Paint into memory, then write through the one safe writer
    (:func:`engine.io.atomic.write_atomic`: temporary file, check, rename),
    so a failed or interrupted export leaves the old file whole."""
    path = Path(path)
    if fmt == "png":
        img = QImage(size, QImage.Format.Format_RGB32)
        img.fill(style.EXPORT_BACKGROUND)
        p = QPainter(img)
        paint(p)
        p.end()
        data = png_bytes(img)

        def check_png(f: Path, encoded: bytes = data) -> None:
            check_png_file(f, size, encoded)

        check: Callable[[Path], None] = check_png
    else:
        from PySide6.QtSvg import QSvgGenerator

        buf = QBuffer()
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        gen = QSvgGenerator()
        gen.setOutputDevice(buf)
        gen.setSize(size)
        gen.setViewBox(QRect(0, 0, size.width(), size.height()))
        gen.setTitle(title)
        gen.setDescription("Exported by Adjutant")
        p = QPainter()
        if not p.begin(gen):
            raise ExportError(f"{path}: could not write the SVG file")
        paint(p)
        p.end()
        buf.close()
        data = bytes(buf.data().data())
        check = check_svg_file
    try:
        write_atomic(path, data, verify=check)
    except OutputError as e:
        raise ExportError(str(e)) from None


def render_whole(p: QPainter, renderer: MapRenderer, zoom: float, layers: frozenset[str],
                 overlays: Sequence[Overlay] = (), selected: str | None = None) -> None:
    """Paint the whole map at ``zoom`` with its top-left corner at (0, 0)."""
    w, h = renderer.scene_size(zoom)
    paint_region(p, renderer, zoom, (0, 0), QRect(0, 0, w, h), layers, selected=selected, overlays=overlays,
                 background=style.EXPORT_BACKGROUND)


def export_map(scenario: Scenario, path: str | Path, scale: float = DEFAULT_SCALE, labels: bool = False,
               overlays: Sequence[Overlay] = (), layers: frozenset[str] | None = None,
               selected: str | None = None) -> tuple[int, int]:
    """Write the whole map to ``path`` (``.png`` or ``.svg``) at ``scale``
    pixels per cell, with ``overlays`` on top; returns the image size.
    ``labels`` adds coordinate labels (drawn from :data:`LABEL_SCALE` pixels
    per cell up).  Raises :class:`ExportError` with a reason."""
    if not (math.isfinite(scale) and scale > 0):
        raise ExportError(f"scale must be a positive number of pixels per cell, not {scale}")
    fmt = export_format(path)
    r = renderer_for(scenario)
    zoom = scale / r.extent
    w, h = r.scene_size(zoom)
    check_size(w, h, scale)
    lay = _layers(labels, layers)
    _write(Path(path), fmt, QSize(w, h), scenario.name,
           lambda p: render_whole(p, r, zoom, lay, overlays, selected))
    return w, h


TERRITORY_LONG_SIDE = 2000
"""Default longest side (pixels) of a territory map's image."""


def territory_image_size(scenario: Any, scale: float | None) -> tuple[float, int, int]:
    """(pixels per map unit, width, height) of a territory map's image:
    ``scale`` pixels per map unit, or, by default, the map fitted to
    :data:`TERRITORY_LONG_SIDE` pixels on its longer side."""
    x1, y1 = float(scenario.map.width), float(scenario.map.height)
    if not (x1 > 0 and y1 > 0):
        raise ExportError("the territory map has no shapes to draw")
    z = scale if scale is not None else TERRITORY_LONG_SIDE / max(x1, y1)
    if not (math.isfinite(z) and z > 0):
        raise ExportError(f"scale must be a positive number of pixels per map unit, not {z}")
    w, h = max(1, math.ceil(x1 * z)), max(1, math.ceil(y1 * z))
    check_size(w, h, z)
    return z, w, h


def export_territory_map(scenario: Any, path: str | Path, scale: float | None = None) -> tuple[int, int]:
    """Write a territory map to ``path`` (``.png`` or ``.svg``) as the
    territory editor draws it (its ``TerritoryRenderer``: territories, borders,
    rail, labels, unit counters) at ``scale`` pixels per map unit (default:
    fitted to 2000 pixels); returns the image size.  Raises
    :class:`ExportError` with a reason."""
    from PySide6.QtCore import QRectF

    fmt = export_format(path)
    z, w, h = territory_image_size(scenario, scale)
    r = renderer_for(scenario)
    region = QRectF(0, 0, w / z, h / z)
    _write(Path(path), fmt, QSize(w, h), scenario.name, lambda p: r.paint_map(p, region, z))
    return w, h


def export_view(canvas: MapCanvas, path: str | Path) -> tuple[int, int]:
    """Write what ``canvas`` shows (its viewport, at its zoom, with its
    layers, selection and overlays) to ``path``; returns the image size."""
    r = canvas.renderer()
    if r is None:
        raise ExportError("there is no map to export")
    fmt = export_format(path)
    vp = canvas.viewport()
    w, h = vp.width(), vp.height()
    s = canvas.scenario()
    title = s.name if s is not None else "map"
    _write(Path(path), fmt, QSize(w, h), title,
           lambda p: paint_region(p, r, canvas.zoom(), canvas.origin(), QRect(0, 0, w, h), canvas.layers(),
                                  selected=canvas.selected_unit(), overlays=canvas.overlays(),
                                  background=style.BACKGROUND))
    return w, h


__all__ = ["DEFAULT_SCALE", "MAX_PIXELS", "MAX_SIDE", "ExportError", "export_map", "export_territory_map",
           "export_view", "image_size", "png_bytes", "territory_image_size",
           "svg_available"]
