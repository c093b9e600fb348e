"""The PNG writer of rendered maps (``engine.io.png.png_from_rgb32``) and the
check the safe writer makes of every PNG it writes (``check_png``): the
pixels come back exactly (read by zlib here and by Qt's decoder), and a cut,
a flipped byte or a wrong size is refused, naming what is wrong."""

from __future__ import annotations

import struct
import sys
import zlib

import numpy as np
import pytest

from engine.io.png import BAND_ROWS, check_png, png_from_rgb32


def rgb32(rgb: np.ndarray) -> np.ndarray:
    """(h, w, 3) RGB as Qt's Format_RGB32 memory (native-endian 0xffRRGGBB)."""
    h, w, _ = rgb.shape
    v = (0xFF << 24) | (rgb[..., 0].astype(np.uint32) << 16) | (rgb[..., 1].astype(np.uint32) << 8) | rgb[..., 2]
    return v.astype(np.uint32).view(np.uint8).reshape(h, w, 4)


def decode(data: bytes) -> np.ndarray:
    """The RGB pixels of a filter-0, colour-type-2 PNG (what the writer makes)."""
    pos, idat = 8, b""
    w = h = 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert (depth, ctype) == (8, 2)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 1 + 3 * w)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(h, w, 3)


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (BAND_ROWS + 5, 11), (2 * BAND_ROWS, 2)])
def test_pixels_come_back_exactly(shape: tuple[int, int]) -> None:
    rgb = np.random.default_rng(sum(shape)).integers(0, 256, size=(*shape, 3), dtype=np.uint8)
    data = png_from_rgb32(rgb32(rgb))
    assert check_png(data) == (shape[1], shape[0])
    assert (decode(data) == rgb).all()


def test_a_strided_view_of_wider_rows_is_read_as_its_pixels() -> None:
    """Qt pads rows (bytesPerLine); the writer takes the view without them."""
    rgb = np.random.default_rng(1).integers(0, 256, size=(9, 5, 3), dtype=np.uint8)
    padded = np.zeros((9, 6, 4), np.uint8)
    padded[:, :5] = rgb32(rgb)
    assert (decode(png_from_rgb32(padded[:, :5])) == rgb).all()


def test_qt_decodes_it_to_the_same_pixels(qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    rgb = np.random.default_rng(2).integers(0, 256, size=(40, 30, 3), dtype=np.uint8)
    img = QImage()
    assert img.loadFromData(png_from_rgb32(rgb32(rgb)), "PNG")  # type: ignore[call-overload]
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    back = np.frombuffer(img.constBits(), np.uint8, count=img.bytesPerLine() * 40).reshape(40, -1)[:, :120]
    order = [2, 1, 0] if sys.byteorder == "little" else [1, 2, 3]
    assert (back.reshape(40, 30, 4)[..., order] == rgb).all()


def test_a_damaged_file_is_refused_naming_the_damage() -> None:
    rgb = np.random.default_rng(3).integers(0, 256, size=(20, 20, 3), dtype=np.uint8)
    data = png_from_rgb32(rgb32(rgb))
    with pytest.raises(ValueError, match="no IEND|cut short"):
        check_png(data[:-20])
    flipped = bytearray(data)
    flipped[60] ^= 0xFF
    with pytest.raises(ValueError, match="bad CRC"):
        check_png(bytes(flipped))
    with pytest.raises(ValueError, match="signature"):
        check_png(b"GIF89a" + data[6:])


def _with_idat(data: bytes, body: bytes) -> bytes:
    """``data`` with its image data replaced by ``body`` (CRCs right)."""
    start = data.index(b"IDAT") - 4
    (n,) = struct.unpack(">I", data[start:start + 4])
    chunk = struct.pack(">I", len(body)) + b"IDAT" + body + struct.pack(">I", zlib.crc32(b"IDAT" + body) & 0xFFFFFFFF)
    return data[:start] + chunk + data[start + 12 + n:]


def test_image_data_of_the_wrong_size_or_unfinished_is_refused() -> None:
    rgb = np.zeros((10, 10, 3), np.uint8)
    data = png_from_rgb32(rgb32(rgb))
    short = zlib.compress(bytes(10 * 31 - 1))
    with pytest.raises(ValueError, match="309 bytes, expected 310 for 10 x 10"):
        check_png(_with_idat(data, short))
    long = zlib.compress(bytes(10 * 31 * 100))
    with pytest.raises(ValueError, match="over .* expected 310"):
        check_png(_with_idat(data, long))
    z = zlib.compressobj()
    unfinished = z.compress(bytes(310)) + z.flush(zlib.Z_SYNC_FLUSH)
    with pytest.raises(ValueError, match="does not end"):
        check_png(_with_idat(data, unfinished))


def test_without_inflating_the_chunks_are_still_checked() -> None:
    """``inflate=False`` (the check of a file read back as the encoder's own
    bytes) skips only the image data's decompression."""
    rgb = np.random.default_rng(4).integers(0, 256, size=(12, 9, 3), dtype=np.uint8)
    data = png_from_rgb32(rgb32(rgb))
    assert check_png(data, inflate=False) == (9, 12)
    with pytest.raises(ValueError, match="no IEND|cut short"):
        check_png(data[:-20], inflate=False)
    flipped = bytearray(data)
    flipped[60] ^= 0xFF
    with pytest.raises(ValueError, match="bad CRC"):
        check_png(bytes(flipped), inflate=False)
    no_idat = data[:data.index(b"IDAT") - 4] + data[-12:]
    with pytest.raises(ValueError, match="no image data"):
        check_png(no_idat, inflate=False)


def test_an_exported_file_must_hold_the_bytes_encoded(qapp, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSize

    from app.gui.export import check_png_file

    rgb = np.random.default_rng(5).integers(0, 256, size=(6, 8, 3), dtype=np.uint8)
    data = png_from_rgb32(rgb32(rgb))
    f = tmp_path / "a.png"
    f.write_bytes(data)
    check_png_file(f, QSize(8, 6), data)
    other = png_from_rgb32(rgb32(255 - rgb))
    with pytest.raises(ValueError, match="not the .* bytes encoded"):
        check_png_file(f, QSize(8, 6), other)
    with pytest.raises(ValueError, match="8 x 6, expected 6 x 8"):
        check_png_file(f, QSize(6, 8), data)
