"""A scanned map under the grid: the scan cut into a tile
pyramid once, and painted at the level the zoom needs.

**The pyramid.**  A scan of 20 000 × 15 000 pixels is 1.2 GB as Qt holds an
image, and Qt's PNG reader decodes it whole; so the scan is streamed once
through libvips (``pyvips``, ``access="sequential"``: a few rows in memory
at a time) into a Deep Zoom pyramid of 512-pixel JPEG tiles (``dzsave``:
level ``L`` is the image shrunk ``2**(top - L)`` times, level 0 one pixel)
in the user's cache folder (``platformdirs.user_cache_dir("adjutant")/
underlay``, or ``$ADJUTANT_CACHE_DIR``), keyed by the image's absolute path,
size and modification time.  A pyramid whose ``done.json`` is missing or
does not match is built again; building runs off the GUI thread
(``app/gui/background.py``).  Only the tiles the view shows are read, and at
most :data:`CACHED_TILES` are kept (least recently used first out).

**Painting.**  The calibration maps grid layout coordinates (cell size 1)
to image pixels (``engine/calibration.py``); its inverse, scaled by the
renderer's base size and the zoom, places the image in the scene.  An
uncalibrated scan is shown fitted to the map's width, so the first clicks
can be made on it.  The scan is drawn over the map's cached base (terrain,
grid, rivers, roads, rail) at its opacity (1: only the scan; the dock's
default 0.7 lets the map show through) and under places, units and
overlays; the piecewise correction is not applied to the drawing (it moves
cells by the scan's drift, a pixel or two).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

from engine.calibration import Affine, Underlay

TILE = 512
CACHED_TILES = 96
"""Tiles kept in memory (96 x 512 x 512 x 4 bytes: 96 MB at most)."""
FORMATS = ("png", "jpg", "jpeg", "tif", "tiff")


class UnderlayError(ValueError):
    """An underlay image that cannot be shown, saying why."""


def cache_root() -> Path:
    env = os.environ.get("ADJUTANT_CACHE_DIR")
    if env:
        return Path(env) / "underlay"
    import platformdirs

    return Path(platformdirs.user_cache_dir("adjutant", appauthor=False)) / "underlay"


class TilePyramid:
    """The tiles of one image (see the module docstring)."""

    def __init__(self, folder: Path, width: int, height: int) -> None:
        self.folder, self.width, self.height = folder, width, height
        self.top = max(0, math.ceil(math.log2(max(width, height, 1))))
        self._tiles: OrderedDict[tuple[int, int, int], QImage | None] = OrderedDict()

    @staticmethod
    def key(image: Path) -> str:
        st = image.stat()
        return hashlib.sha1(f"{image.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:20]

    @classmethod
    def cached(cls, image: Path, root: Path | None = None) -> TilePyramid | None:
        """The pyramid already built for ``image``, if any."""
        folder = (root or cache_root()) / cls.key(image)
        try:
            done = json.loads((folder / "done.json").read_text(encoding="utf-8"))
            return cls(folder, int(done["width"]), int(done["height"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    @classmethod
    def build(cls, image: Path, root: Path | None = None,
              cancelled: Callable[[], bool] | None = None) -> TilePyramid:
        """Cut ``image`` into its pyramid (or find it built); raises
        :class:`UnderlayError` naming the file for an image libvips cannot
        read.  ``cancelled`` (asked as libvips reports progress) stops the
        cutting: :class:`UnderlayError` saying so, nothing left behind."""
        import shutil
        import stat

        import pyvips

        from engine.io.inputs import refuse_kind

        try:
            mode = os.stat(image).st_mode
        except OSError as e:
            raise UnderlayError(f"{image.name}: cannot read the image ({e.strerror or e})") from None
        why = refuse_kind(mode) if not stat.S_ISDIR(mode) else "is a folder, not an image"
        if why is not None:  # a FIFO would block the reader forever, a device never end
            raise UnderlayError(f"{image.name}: {why}")
        found = cls.cached(image, root)
        if found is not None:
            return found
        folder = (root or cache_root()) / cls.key(image)
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            im = pyvips.Image.new_from_file(str(image), access="sequential")
            width, height = im.width, im.height
            if im.bands > 3:
                im = im.flatten(background=[255, 255, 255]) if im.hasalpha() else im.extract_band(0, n=3)
            if im.format != "uchar":
                im = im.cast("uchar")
            if cancelled is not None:
                im.set_progress(True)
                im.signal_connect("eval", lambda img, _progress: img.set_kill(True) if cancelled() else None)
            im.dzsave(str(folder / "pyr"), tile_size=TILE, overlap=0, suffix=".jpg[Q=90]", depth="onepixel")
        except pyvips.Error as e:
            shutil.rmtree(folder, ignore_errors=True)
            if cancelled is not None and cancelled():
                raise UnderlayError(f"{image.name}: preparing the scan was cancelled") from None
            first = str(e).strip().splitlines()[0] if str(e).strip() else "unknown error"
            raise UnderlayError(f"{image.name}: cannot read the image ({first})") from None
        (folder / "done.json").write_text(json.dumps({"width": width, "height": height}), encoding="utf-8")
        return cls(folder, width, height)

    def level_for(self, scale: float) -> int:
        """The level to draw at ``scale`` view pixels per image pixel."""
        if scale <= 0:
            return self.top
        return max(0, min(self.top, self.top + math.ceil(math.log2(scale) - 1e-9)))

    def tile(self, level: int, col: int, row: int) -> QImage | None:
        key = (level, col, row)
        if key in self._tiles:
            self._tiles.move_to_end(key)
            return self._tiles[key]
        img = QImage(str(self.folder / "pyr_files" / str(level) / f"{col}_{row}.jpg"))
        found = None if img.isNull() else img
        self._tiles[key] = found
        while len(self._tiles) > CACHED_TILES:
            self._tiles.popitem(last=False)
        return found

    def paint(self, p: QPainter, to_view: QTransform, view: QRectF) -> int:
        """Draw the tiles that show in ``view`` (view pixels) with
        ``to_view`` (image pixels to view pixels); how many were drawn."""
        inv, ok = to_view.inverted()
        if not ok:
            return 0
        seen = inv.mapRect(view).intersected(QRectF(0, 0, self.width, self.height))
        if seen.isEmpty():
            return 0
        scale = math.sqrt(abs(to_view.determinant()))
        level = self.level_for(scale)
        f = 2 ** (self.top - level)  # image pixels per level pixel
        span = TILE * f
        p.save()
        p.setTransform(to_view, True)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        drawn = 0
        for row in range(int(seen.top() // span), int(math.ceil(seen.bottom() / span))):
            for col in range(int(seen.left() // span), int(math.ceil(seen.right() / span))):
                img = self.tile(level, col, row)
                if img is None:
                    continue
                p.drawImage(QRectF(col * span, row * span, img.width() * f, img.height() * f), img)
                drawn += 1
        p.restore()
        return drawn


class PyramidPixels:
    """The full-resolution tiles of a pyramid as an
    :class:`engine.tracing.PixelSource`: a gather reads each tile it needs
    once and keeps none (tracing a map reads every tile under it once).

    Tiles are read with libvips, never with Qt: tracing runs in a worker
    thread, and Qt's image reading there can deadlock against the GUI thread
    (the first read loads Qt's image plugins, which takes a lock the GUI
    thread may hold while it waits for Python's)."""

    def __init__(self, pyramid: TilePyramid) -> None:
        self.pyramid = pyramid
        self.width, self.height = pyramid.width, pyramid.height

    def gather(self, ys: Any, xs: Any) -> Any:
        import numpy as np

        ys, xs = np.asarray(ys, np.intp), np.asarray(xs, np.intp)
        out = np.zeros((*ys.shape, 3), np.uint8)
        key = (ys // TILE) * (self.width // TILE + 2) + xs // TILE
        top = self.pyramid.top
        folder = self.pyramid.folder / "pyr_files" / str(top)
        import pyvips

        for k in np.unique(key):
            ty, tx = divmod(int(k), self.width // TILE + 2)
            tile = folder / f"{tx}_{ty}.jpg"
            if not tile.is_file():
                continue
            try:
                a = pyvips.Image.new_from_file(str(tile)).numpy()
            except pyvips.Error:
                continue
            if a.ndim == 2:
                a = a[:, :, None]
            rgb = a[:, :, :3] if a.shape[2] >= 3 else np.repeat(a[:, :, :1], 3, axis=2)
            h, w = rgb.shape[:2]
            sel = key == k
            out[sel] = rgb[np.clip(ys[sel] - ty * TILE, 0, h - 1), np.clip(xs[sel] - tx * TILE, 0, w - 1)]
        return out


def image_to_layout(record: dict[str, Any], size: tuple[int, int], map_width: float) -> Affine:
    """Image pixels -> grid layout coordinates (cell size 1): the inverse of
    the stored calibration, or, uncalibrated, the image fitted to the map's
    width (``map_width`` in layout units) at its top-left corner."""
    t = Underlay.from_dict(record).transform
    if t is not None:
        return t.inverse()
    k = map_width / max(1, size[0])
    return Affine(k, 0.0, 0.0, 0.0, k, 0.0)


def view_transform(a: Affine, layout_to_view: Callable[[float, float], QPointF]) -> QTransform:
    """Image pixels -> view pixels: ``a`` (image -> layout, cell size 1)
    then the canvas's layout -> view map (affine: a scale and a shift)."""
    o = layout_to_view(0.0, 0.0)
    ex, ey = layout_to_view(1.0, 0.0) - o, layout_to_view(0.0, 1.0) - o
    # view = L @ (A @ img + c) + o, with L = [[ex.x, ey.x], [ex.y, ey.y]]
    m11 = ex.x() * a.a + ey.x() * a.d
    m12 = ex.x() * a.b + ey.x() * a.e
    m21 = ex.y() * a.a + ey.y() * a.d
    m22 = ex.y() * a.b + ey.y() * a.e
    dx = ex.x() * a.c + ey.x() * a.f + o.x()
    dy = ex.y() * a.c + ey.y() * a.f + o.y()
    # QTransform(m11, m12, m21, m22, dx, dy) maps x' = m11 x + m21 y + dx
    return QTransform(m11, m21, m12, m22, dx, dy)


def points_table(headers: list[str]) -> QTableWidget:
    """The read-only table of calibration points both Underlay docks show:
    one row a point, whole rows selected (for Remove Point)."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    return table


__all__ = ["CACHED_TILES", "FORMATS", "TILE", "PyramidPixels", "TilePyramid", "UnderlayError", "cache_root", "points_table", "image_to_layout",
           "view_transform"]
