"""Minimal PNG writers (RGBA for tilesets; RGB from 32-bit pixel memory for
rendered maps) in Python with numpy and zlib, the check the safe writer
makes of a written PNG, and the drawing of Adjutant's generated Tiled
tilesets: one tile per terrain type, a square or a hex filled with the
terrain's colour.

No palettes, no interlacing; the only reading is :func:`check_png`, the
check the safe writer makes of a written PNG (:mod:`engine.io.atomic`).
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Sequence

import numpy as np

Rgb = tuple[int, int, int]


def parse_color(text: str) -> Rgb:
    """``"#rrggbb"`` (or Tiled's ``"#aarrggbb"``) as an RGB triple; raises
    :class:`ValueError` naming the text."""
    t = text.strip()
    if t.startswith("#") and len(t) in (7, 9) and all(c in "0123456789abcdefABCDEF" for c in t[1:]):
        v = t[-6:]
        return int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16)
    raise ValueError(f"'{text}' is not a colour like '#80c060'")


def png_bytes(rgba: np.ndarray) -> bytes:
    """Encode a ``uint8`` array of shape ``(height, width, 4)`` as PNG."""
    if rgba.dtype != np.uint8 or rgba.ndim != 3 or rgba.shape[2] != 4:
        raise ValueError(f"expected a (h, w, 4) uint8 array, got {rgba.dtype} {rgba.shape}")
    h, w = rgba.shape[:2]
    raw = np.zeros((h, 1 + 4 * w), np.uint8)  # filter byte 0 (None) on every scanline
    raw[:, 1:] = rgba.reshape(h, 4 * w)
    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)) + _chunk(b"IEND", b""))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


RENDER_LEVEL = 1
"""zlib level of :func:`png_from_rgb32`.  A rendered map is mostly flat
colour: on the 4000 x 4000 px render of ``bench/peers.py``, level 1 with no
scanline filter took 0.15 s of CPU for 0.95 MB where Qt's PNG writer
(libpng's adaptive filters, zlib's default level) took 0.76 s for 0.65 MB."""

BAND_ROWS = 256
"""Rows converted and compressed at a time (memory stays a few MB whatever
the image's size)."""


def png_from_rgb32(pixels: np.ndarray, level: int = RENDER_LEVEL) -> bytes:
    """Encode 32-bit pixels as an 8-bit RGB PNG (colour type 2, no filter).
    ``pixels`` is a ``(height, width, 4)`` ``uint8`` array (a strided view
    is fine) holding each pixel as the native-endian integer ``0xffRRGGBB``
    — Qt's ``QImage.Format_RGB32``; the fourth byte is ignored."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 4:
        raise ValueError(f"expected a (h, w, 4) uint8 array, got {pixels.dtype} {pixels.shape}")
    h, w = pixels.shape[:2]
    r, g, b = (2, 1, 0) if sys.byteorder == "little" else (1, 2, 3)
    z = zlib.compressobj(level)
    parts = []
    band = np.zeros((min(h, BAND_ROWS), 1 + 3 * w), np.uint8)  # column 0: filter byte 0 (None)
    for top in range(0, h, BAND_ROWS):
        src = pixels[top:top + BAND_ROWS]
        n = src.shape[0]
        rgb = band[:n, 1:].reshape(n, w, 3)
        rgb[..., 0] = src[..., r]
        rgb[..., 1] = src[..., g]
        rgb[..., 2] = src[..., b]
        parts.append(z.compress(band[:n].data))
    parts.append(z.flush())
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(parts)) + _chunk(b"IEND", b"")


_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
"""Samples per pixel of each PNG colour type."""


def check_png(data: bytes, inflate: bool = True) -> tuple[int, int]:
    """The (width, height) of a whole, decodable PNG (non-interlaced);
    :class:`ValueError` saying what is wrong otherwise: the signature, a
    chunk's length or CRC, the header, the image data's size, a missing end.
    ``inflate=False`` checks everything but the image data's size (its
    stream is not decompressed): the check of a file known to hold bytes
    an encoder produced, where only the writing is in question."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG file (bad signature)")
    pos, idat, header = 8, [], None
    while True:
        if pos + 12 > len(data):
            raise ValueError(f"cut short at byte {pos} (no IEND chunk)")
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if len(body) != n or pos + 12 + n > len(data):
            raise ValueError(f"chunk {kind!r} at byte {pos} is cut short")
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if crc != zlib.crc32(kind + body) & 0xFFFFFFFF:
            raise ValueError(f"chunk {kind!r} at byte {pos} has a bad CRC")
        pos += 12 + n
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None or header[3] not in _CHANNELS or header[6] != 0:
        raise ValueError("missing or unsupported IHDR chunk")
    w, h, depth, ctype = header[:4]
    if not inflate:
        if not idat:
            raise ValueError("no image data (no IDAT chunk)")
        return w, h
    want = h * (1 + (w * _CHANNELS[ctype] * depth + 7) // 8)
    got = 0
    d = zlib.decompressobj()
    try:  # in pieces of at most 4 MB: the whole image is never held
        for body in idat:
            pending = body
            while pending and got <= want:
                got += len(d.decompress(pending, 1 << 22))
                pending = d.unconsumed_tail
        if got <= want:
            got += len(d.flush())
    except zlib.error as e:
        raise ValueError(f"image data does not decompress ({e})") from None
    if got != want:
        raise ValueError(f"image data is {'over ' if got > want else ''}{got} bytes, expected {want} for {w} x {h}")
    if not d.eof:
        raise ValueError("image data is cut short (its compressed stream does not end)")
    return w, h


def hex_corners(width: int, height: int, side: int, flat: bool) -> list[tuple[float, float]]:
    """The six corners of Tiled's hex tile of ``width`` x ``height`` pixels
    with side length ``side`` along its stagger axis (the shape Tiled's
    hexagonal renderer outlines), clockwise from the west (flat) or north
    (pointy) corner."""
    if flat:
        o = (width - side) / 2
        return [(0.0, height / 2), (o, 0.0), (o + side, 0.0), (float(width), height / 2),
                (o + side, float(height)), (o, float(height))]
    o = (height - side) / 2
    return [(width / 2, 0.0), (float(width), o), (float(width), o + side), (width / 2, float(height)),
            (0.0, o + side), (0.0, o)]


def _inside(poly: Sequence[tuple[float, float]], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Even-odd point-in-polygon test for arrays of points."""
    inside = np.zeros(xs.shape, bool)
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if y1 == y2:
            continue
        crosses = (ys >= min(y1, y2)) & (ys < max(y1, y2))
        xi = x1 + (ys - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (xs < xi)
    return inside


def tile_mask(width: int, height: int, hex_side: int | None, flat: bool) -> tuple[np.ndarray, np.ndarray]:
    """Boolean ``(height, width)`` masks of a tile's fill and its one-pixel
    outline: the whole square for square tiles, Tiled's hex shape otherwise."""
    ys, xs = np.mgrid[0:height, 0:width].astype(float) + 0.5
    if hex_side is None:
        fill = np.ones((height, width), bool)
    else:
        fill = _inside(hex_corners(width, height, hex_side, flat), xs, ys)
    # outline: filled pixels with an unfilled (or off-tile) 4-neighbour
    padded = np.pad(fill, 1, constant_values=False)
    interior = padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
    return fill, fill & ~interior


def tileset_image(colors: Sequence[Rgb], tile_width: int, tile_height: int, hex_side: int | None,
                  flat: bool, columns: int) -> np.ndarray:
    """An RGBA image of ``len(colors)`` tiles laid out ``columns`` to a row:
    tile ``i`` is filled with ``colors[i]`` and outlined in a darker shade;
    outside a hex tile's shape the image is transparent."""
    rows = max(1, math.ceil(len(colors) / columns))
    img = np.zeros((rows * tile_height, columns * tile_width, 4), np.uint8)
    fill, outline = tile_mask(tile_width, tile_height, hex_side, flat)
    for i, (r, g, b) in enumerate(colors):
        y0, x0 = (i // columns) * tile_height, (i % columns) * tile_width
        tile = img[y0:y0 + tile_height, x0:x0 + tile_width]
        tile[fill] = (r, g, b, 255)
        tile[outline] = (r * 3 // 5, g * 3 // 5, b * 3 // 5, 255)
    return img
