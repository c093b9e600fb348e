"""``QPainterPath`` s made from numpy arrays in one step.

A path of hundreds of segments or cells built call by call (``moveTo``,
``lineTo``) costs a Python call per point; here the points are written into
Qt's own serialised form of a path (``QDataStream``: the element count, then
per element its type, x and y, big-endian; then the start of the current
subpath and the fill rule: ``qpainterpath.cpp``, ``operator>>``) and read
back in one call, as pyqtgraph's ``arrayToQPath`` does.  A test checks the
result against the path built call by call."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QIODevice, Qt
from PySide6.QtGui import QPainterPath, QPolygonF

_ELEMENT = np.dtype([("type", ">i4"), ("x", ">f8"), ("y", ">f8")])
_MOVE, _LINE = 0, 1  # QPainterPath.ElementType


def _elements(n: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The buffer of a path of ``n`` elements in Qt's serialised form (the
    count written, the rest to be filled) and its elements' records, a view
    into it."""
    buf = np.empty(4 + _ELEMENT.itemsize * n + 8, np.uint8)
    buf[:4].view(">i4")[0] = n
    return buf, buf[4:4 + _ELEMENT.itemsize * n].view(_ELEMENT)


def _read(buf: np.ndarray[Any, Any], start: int, fill: Qt.FillRule) -> QPainterPath:
    """The path serialised in ``buf`` (:func:`_elements`, its records
    filled), ``start`` the index of its last subpath's first element."""
    buf[-8:].view(">i4")[:] = (start, 1 if fill == Qt.FillRule.WindingFill else 0)
    path = QPainterPath()
    data = QByteArray(buf.tobytes())  # held here while the stream reads it
    stream = QDataStream(data, QIODevice.OpenModeFlag.ReadOnly)
    stream >> path
    return path


def _path(types: np.ndarray[Any, Any], xs: np.ndarray[Any, Any], ys: np.ndarray[Any, Any],
          fill: Qt.FillRule) -> QPainterPath:
    n = len(types)
    if n == 0:
        path = QPainterPath()
        path.setFillRule(fill)
        return path
    buf, rec = _elements(n)
    rec["type"], rec["x"], rec["y"] = types, xs, ys
    return _read(buf, int(np.flatnonzero(types == _MOVE)[-1]), fill)


def segments_path(x0: Any, y0: Any, x1: Any, y1: Any) -> QPainterPath:
    """Line segments (arrays of their ends) as one path, a subpath each."""
    n = len(x0)
    if n == 0:
        return _path(np.zeros(0, np.int32), np.zeros(0), np.zeros(0), Qt.FillRule.OddEvenFill)
    buf, rec = _elements(2 * n)
    rec["type"][0::2], rec["type"][1::2] = _MOVE, _LINE
    rec["x"][0::2], rec["x"][1::2] = x0, x1
    rec["y"][0::2], rec["y"][1::2] = y0, y1
    return _read(buf, 2 * n - 2, Qt.FillRule.OddEvenFill)


def polygons_path(xs: Any, ys: Any) -> QPainterPath:
    """Closed polygons (rows of ``xs`` and ``ys``: a polygon's corners) as
    one path with the winding fill rule: cells that touch are filled as one
    shape, with no seam between them."""
    xs, ys = np.asarray(xs, np.float64), np.asarray(ys, np.float64)
    n, k = xs.shape
    types = np.full((n, k + 1), _LINE, np.int32)
    types[:, 0] = _MOVE
    return _path(types.reshape(-1), np.concatenate([xs, xs[:, :1]], axis=1).reshape(-1),
                 np.concatenate([ys, ys[:, :1]], axis=1).reshape(-1), Qt.FillRule.WindingFill)


_POLYGON_HEAD = ">u4"


def polygons(corners: Any) -> list[QPolygonF]:
    """Each row of ``corners`` (``x0, y0, x1, y1, ...``) as a ``QPolygonF``,
    read from Qt's serialised form of a polygon (its point count, then
    each point's x and y as big-endian doubles), so no ``QPointF`` is made
    per corner: the same polygons, point for point."""
    corners = np.asarray(corners, np.float64)
    n, m = corners.shape
    if n == 0:
        return []
    rec = np.empty(n, np.dtype([("count", _POLYGON_HEAD), ("xy", ">f8", (m,))]))
    rec["count"], rec["xy"] = m // 2, corners
    buf = QByteArray(rec.tobytes())  # held here while the stream reads it
    stream = QDataStream(buf, QIODevice.OpenModeFlag.ReadOnly)
    out = []
    for _ in range(n):
        poly = QPolygonF()
        stream >> poly
        out.append(poly)
    return out


__all__ = ["polygons", "polygons_path", "segments_path"]
