"""Tiled's map formats read: TMX (XML) and Tiled JSON.

This module knows Tiled's files, not Adjutant's model: :func:`load_map`
reads a map (and the external tilesets it names) into a
:class:`~engine.io.tiled.model.TiledMap`; :mod:`engine.io.tiled.write`
writes one; :mod:`engine.io.tiled.convert` turns it into a scenario.

(Over 600 lines on purpose: the TMX and the JSON reader share every guard
below -- size checks, bounded decompression, gid ranges, tile counts -- and
keeping them beside those guards keeps the two syntaxes checked alike.)

Reading is defensive, because map files come from anywhere:

* XML is parsed with :mod:`defusedxml`: a file that declares entities (the
  "billion laughs" entity expansion, an external entity) is refused;
* the declared size is checked against :data:`MAX_SIDE` and
  :data:`MAX_CELLS` before any layer is decoded, and decompression stops at
  the size the layer must have;
* every problem raises :class:`TiledError` naming the file and the place in
  it (``layer 'Ground'``, ``$.layers[0].data``, ``tileset 'hex mini'`` …).

Supported: orthogonal and hexagonal orientations; finite maps; layer data as
CSV, base64 (uncompressed, zlib or gzip) or the old ``<tile gid>`` XML
elements; embedded and external tilesets (``.tsx``/``.json``/``.tsj``,
resolved relative to the file that names them, also when only a gzipped
copy ``NAME.gz`` exists, as Debian ships Tiled's examples); tile layers
inside groups.  Refused with a message saying what to change in Tiled:
isometric and staggered orientations, infinite maps, zstd compression.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import warnings
import zlib
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import numpy as np

from ..common import MAX_CELLS, MAX_SIDE
from ..inputs import MAX_XML_DEPTH, inflate_limit, read_regular, xml_markup_problem
from .model import (
    GID_MASK,
    ORIENTATIONS,
    Property,
    PropertyValue,
    Tile,
    TiledError,
    TiledMap,
    TileLayer,
    Tileset,
)

MAX_FILE_BYTES = 256 * 1024 * 1024
"""Largest map or tileset file read, after gunzipping (256 MiB)."""
MAX_TILESETS = 256
"""Most tilesets one map may use."""
MAX_DESCRIBED_TILES = 10_000
"""Most tiles with their own entries (properties, images) in all of a map's
tilesets together: a terrain tileset needs one per terrain type (at most 255)."""
MAX_ATTR_DIGITS = 18
"""Most digits of a whole-number attribute (width, tile size, id, ...) or
number property: more is no size, id or value a map can use."""

# ---------------------------------------------------------------------------
# files

def find_file(path: Path) -> Path | None:
    """``path`` if it exists, else ``path.gz`` if that exists (Debian gzips
    example files but not the references to them), else ``None`` (also
    for a name the system cannot look up, such as one over its length limit)."""
    try:
        if path.is_file():
            return path
        gz = path.with_name(path.name + ".gz")
        return gz if gz.is_file() else None
    except (OSError, ValueError):  # ENAMETOOLONG, or a NUL in the name
        return None


def read_file(path: Path, what: str = "file") -> bytes:
    """The bytes of a file, gunzipped if it is gzipped; raises
    :class:`TiledError` when it is missing, not a regular file, unreadable
    or too large, or when it inflates past :func:`engine.io.inputs.inflate_limit`."""
    src = str(path)
    raw = read_regular(path, MAX_FILE_BYTES, lambda message: TiledError(src, "", message), what)
    if raw[:2] == b"\x1f\x8b":
        raw = _inflate(raw, inflate_limit(len(raw), MAX_FILE_BYTES), 16 + zlib.MAX_WBITS, src, "",
                       f"gzipped {what}")
    return raw


def _inflate(data: bytes, limit: int, wbits: int, source: str, place: str, what: str) -> bytes:
    """Decompress at most ``limit`` bytes (so a small bomb cannot fill memory)."""
    d = zlib.decompressobj(wbits)
    try:
        out = d.decompress(data, limit + 1)
    except zlib.error as e:
        raise TiledError(source, place, f"{what} is not valid {'gzip' if wbits > 16 else 'zlib'} data ({e})") from None
    if len(out) > limit:
        raise TiledError(source, place, f"{what} decompresses to more than {limit} bytes")
    if not d.eof:
        raise TiledError(source, place, f"{what} is truncated (the compressed stream does not end)")
    return out


def load_map(path: str | os.PathLike[str]) -> TiledMap:
    """Read a TMX or Tiled JSON map (gzipped or not) with its external
    tilesets; raises :class:`TiledError`."""
    p = Path(path)
    raw = read_file(p, "map file")
    head = raw.lstrip()[:1]
    if head == b"<":
        return _TmxReader(p).read_map(raw)
    if head in (b"{", b"["):
        return _JsonReader(p).read_map(raw)
    raise TiledError(str(p), "", "neither a TMX map (XML) nor a Tiled JSON map")


# ---------------------------------------------------------------------------
# shared checks

def _check_tilesets(src: str, place: str, n: int) -> None:
    if n > MAX_TILESETS:
        raise TiledError(src, place, f"the map uses {n} tilesets; the limit is {MAX_TILESETS}")


def _check_described_count(src: str, place: str, n: int) -> None:
    if n > MAX_DESCRIBED_TILES:
        raise TiledError(src, place, f"{n} tiles have their own properties or images; the limit is "
                                     f"{MAX_DESCRIBED_TILES} in all of a map's tilesets")


def _check_described(src: str, m: TiledMap) -> None:
    """The running total of described tiles over the tilesets read so far."""
    _check_described_count(src, "tilesets", sum(len(ts.tiles) for ts in m.tilesets))


def _check_size(src: str, place: str, w: int, h: int) -> None:
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_CELLS:
        raise TiledError(src, place, f"the map is {w} x {h} tiles, larger than Adjutant's limit "
                                     f"({MAX_SIDE} per side, {MAX_CELLS} cells)")


def _check_orientation(src: str, place: str, orientation: str) -> None:
    if orientation in ("isometric", "staggered"):
        raise TiledError(src, place, f"orientation '{orientation}' is not supported: Adjutant reads orthogonal "
                                     "(square) and hexagonal maps only")
    if orientation not in ORIENTATIONS:
        raise TiledError(src, place, f"unknown orientation '{orientation}' (expected 'orthogonal' or 'hexagonal')")


def _decode_base64(src: str, place: str, text: str, compression: str, w: int, h: int) -> np.ndarray:
    expected = 4 * w * h
    compact = "".join(text.split())
    try:
        data = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as e:
        raise TiledError(src, place, f"layer data is not valid base64 ({e})") from None
    if compression in ("", "none"):
        pass
    elif compression == "zlib":
        data = _inflate(data, expected, zlib.MAX_WBITS, src, place, "layer data")
    elif compression == "gzip":
        data = _inflate(data, expected, 16 + zlib.MAX_WBITS, src, place, "layer data")
    elif compression == "zstd":
        raise TiledError(src, place, "layer data is compressed with zstd, which Adjutant cannot read; in Tiled "
                                     "set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib "
                                     "compressed) and save again")
    else:
        raise TiledError(src, place, f"unknown compression '{compression}' (expected zlib, gzip or none)")
    if len(data) != expected:
        raise TiledError(src, place, f"layer data holds {len(data) // 4} tile ids"
                                     f"{' and a stray ' + str(len(data) % 4) + ' bytes' if len(data) % 4 else ''}; "
                                     f"a {w} x {h} map needs {w * h}")
    return np.frombuffer(data, "<u4").astype(np.uint32).reshape(h, w)


def _gids_from_ints(src: str, place: str, values: list[Any], w: int, h: int) -> np.ndarray:
    if len(values) != w * h:
        raise TiledError(src, place, f"layer data holds {len(values)} tile ids; a {w} x {h} map needs {w * h}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 0xFFFFFFFF:
            raise TiledError(src, f"{place}, x {i % w} y {i // w}", f"{json.dumps(v)[:40]} is not a tile id")
    return np.array(values, np.uint32).reshape(h, w)


_CSV_CHARS = re.compile(r"[0-9,\t\n\r ]*")


def _decode_csv(src: str, place: str, text: str, w: int, h: int) -> np.ndarray:
    """CSV layer data as a (h, w) array of tile ids.

    Well-formed data is parsed by numpy in one pass (a 1000 x 1000 layer in
    about 60 ms instead of 300 ms item by item).  numpy's text reader is lax
    (a blank item reads as 0, junk stops it early, huge numbers wrap), so it
    only sees data whose items are all 1 to 10 ASCII digits, and its answer
    must have exactly ``w * h`` values below 2**32; anything else is read by
    :func:`_decode_csv_items`, which names the first bad item."""
    s = text.strip()
    if s and _CSV_CHARS.fullmatch(s):
        compact = np.frombuffer(s.encode("ascii").translate(None, b" \t\r\n"), np.uint8)
        commas = np.flatnonzero(compact == ord(","))
        if commas.size == w * h - 1:
            lengths = np.diff(commas, prepend=-1, append=compact.size) - 1
            if lengths.min() >= 1 and lengths.max() <= 10:
                with warnings.catch_warnings():  # numpy warns (and stops early) on text it cannot read
                    warnings.simplefilter("ignore", DeprecationWarning)
                    try:
                        values = np.fromstring(s, dtype=np.uint64, sep=",")
                    except ValueError:
                        values = None
                if values is not None and values.size == w * h and not (values > 0xFFFFFFFF).any():
                    return values.astype(np.uint32).reshape(h, w)
    return _decode_csv_items(src, place, text, w, h)


def _decode_csv_items(src: str, place: str, text: str, w: int, h: int) -> np.ndarray:
    items = [t.strip() for t in text.strip().split(",")] if text.strip() else []
    if len(items) != w * h:
        raise TiledError(src, place, f"layer data holds {len(items)} tile ids; a {w} x {h} map needs {w * h}")
    values: list[int] = []
    for i, t in enumerate(items):
        if not (t.isascii() and t.isdigit()) or int(t) > 0xFFFFFFFF:
            raise TiledError(src, f"{place}, x {i % w} y {i // w}", f"'{t[:40]}' is not a tile id")
        values.append(int(t))
    return np.array(values, np.uint32).reshape(h, w)


def _check_gids(m: TiledMap, layer: TileLayer) -> None:
    """Every non-empty tile must belong to one of the map's tilesets."""
    ids = np.unique(layer.gids & GID_MASK)
    for gid in ids.tolist():
        if gid and m.tileset_of(gid) is None:
            rows, cols = np.nonzero((layer.gids & GID_MASK) == gid)
            raise TiledError(m.source, f"{layer.place}, x {cols[0]} y {rows[0]}",
                             f"tile id {gid} belongs to none of the map's tilesets "
                             f"({', '.join(_gid_range(t) for t in m.tilesets) or 'there are none'})")


def _gid_range(t: Tileset) -> str:
    end = t.end_gid()
    return f"'{t.name}' {t.firstgid}..{end - 1 if end is not None else '?'}"


def _tilecount(tilecount: int | None, tw: int, th: int, iw: int, ih: int, spacing: int, margin: int,
               columns: int) -> tuple[int | None, int]:
    """Tile count and columns of an image tileset, computed from the image
    when the file does not say (old Tiled versions)."""
    if iw and ih and tw and th:
        cols = max(0, (iw - 2 * margin + spacing) // (tw + spacing))
        rows = max(0, (ih - 2 * margin + spacing) // (th + spacing))
        return (cols * rows if tilecount is None else tilecount), (columns or cols)
    return tilecount, columns


def _resolve(base: Path, ref: str) -> str:
    return str((base / ref).resolve()) if ref else ref


# ---------------------------------------------------------------------------
# TMX

class _TmxReader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.src = str(path)

    def parse(self, raw: bytes, src: str) -> ET.Element:
        from defusedxml import DefusedXmlException
        from defusedxml import ElementTree as DET

        too_many = xml_markup_problem(raw)
        if too_many:
            raise TiledError(src, "", too_many)
        try:
            root: ET.Element = DET.fromstring(raw, forbid_dtd=False, forbid_entities=True, forbid_external=True)
        except DefusedXmlException as e:
            raise TiledError(src, "", "refused: the file declares XML entities or external references "
                                      f"({type(e).__name__}); Tiled never writes them, and they can make a "
                                      "reader expand text without limit (\"billion laughs\") or read other files"
                             ) from None
        except ET.ParseError as e:
            line, col = e.position
            raise TiledError(src, f"line {line}, column {col + 1}", "not well-formed XML (truncated or damaged?)"
                             ) from None
        except (LookupError, ValueError) as e:  # e.g. an XML declaration with an unknown encoding
            raise TiledError(src, "line 1", f"cannot read the XML ({e})") from None
        return root

    def int_attr(self, el: ET.Element, name: str, place: str, default: int | None = None,
                 minimum: int | None = 0, src: str | None = None) -> int:
        text = el.get(name)
        if text is None:
            if default is None:
                raise TiledError(src or self.src, place, f"missing attribute '{name}'")
            return default
        digits = text.strip()
        if len(digits.lstrip("+-")) > MAX_ATTR_DIGITS:
            raise TiledError(src or self.src, place, f"{name}=\"{digits[:20]}…\" is a number of {len(digits)} "
                             f"digits; at most {MAX_ATTR_DIGITS}")
        try:
            v = int(digits)
        except ValueError:
            raise TiledError(src or self.src, place, f"{name}=\"{text[:40]}\" is not a whole number") from None
        if minimum is not None and v < minimum:
            raise TiledError(src or self.src, place, f"{name}={v} must be at least {minimum}")
        return v

    def read_map(self, raw: bytes) -> TiledMap:
        root = self.parse(raw, self.src)
        if root.tag != "map":
            raise TiledError(self.src, "", f"not a Tiled map (the root element is <{root.tag}>, expected <map>)")
        orientation = root.get("orientation", "orthogonal")
        _check_orientation(self.src, "<map>", orientation)
        w = self.int_attr(root, "width", "<map>", minimum=1)
        h = self.int_attr(root, "height", "<map>", minimum=1)
        _check_size(self.src, "<map>", w, h)
        if root.get("infinite", "0") == "1":
            raise TiledError(self.src, "<map>", "infinite maps are not supported; in Tiled untick Map > Map "
                                                "Properties > Infinite and save again")
        m = TiledMap(self.src, "tmx", orientation, w, h,
                     self.int_attr(root, "tilewidth", "<map>", minimum=1),
                     self.int_attr(root, "tileheight", "<map>", minimum=1))
        if orientation == "hexagonal":
            m.hexsidelength = self.int_attr(root, "hexsidelength", "<map>", default=0)
            m.staggeraxis = root.get("staggeraxis", "y")
            m.staggerindex = root.get("staggerindex", "odd")
            if m.staggeraxis not in ("x", "y"):
                raise TiledError(self.src, "<map>", f"staggeraxis=\"{m.staggeraxis}\" (expected x or y)")
            if m.staggerindex not in ("odd", "even"):
                raise TiledError(self.src, "<map>", f"staggerindex=\"{m.staggerindex}\" (expected odd or even)")
        base = self.path.resolve().parent
        sets = root.findall("tileset")
        _check_tilesets(self.src, "<map>", len(sets))
        for i, el in enumerate(sets):
            m.tilesets.append(self.tileset_ref(el, i, base))
            _check_described(self.src, m)
        m.properties = self.properties(root.find("properties"), "<map> properties", self.src)
        self.layers(root, m, "")
        for layer in m.layers:
            _check_gids(m, layer)
        return m

    def tileset_ref(self, el: ET.Element, i: int, base: Path) -> Tileset:
        place = f"tileset {i + 1}"
        firstgid = self.int_attr(el, "firstgid", place, minimum=1)
        source = el.get("source")
        if source is None:
            return self.tileset(el, firstgid, base, self.src, f"tileset '{el.get('name', i + 1)}'")
        found = find_file(base / source)
        if found is None:
            raise TiledError(self.src, place, f"external tileset '{source}' not found (looked in {base})")
        ts = load_tileset(found, firstgid)
        ts.source = str((base / source).resolve())
        return ts

    def tileset(self, el: ET.Element, firstgid: int, base: Path, src: str, place: str) -> Tileset:
        tw = self.int_attr(el, "tilewidth", place, minimum=1, src=src)
        th = self.int_attr(el, "tileheight", place, minimum=1, src=src)
        spacing = self.int_attr(el, "spacing", place, default=0, src=src)
        margin = self.int_attr(el, "margin", place, default=0, src=src)
        tc_text = el.get("tilecount")
        tilecount = None if tc_text is None else self.int_attr(el, "tilecount", place, src=src)
        columns = self.int_attr(el, "columns", place, default=0, src=src)
        ts = Tileset(firstgid, el.get("name", ""), tw, th, tilecount, columns, spacing, margin)
        off = el.find("tileoffset")
        if off is not None:
            ts.tileoffset = (self.int_attr(off, "x", place, default=0, minimum=None, src=src),
                             self.int_attr(off, "y", place, default=0, minimum=None, src=src))
        img = el.find("image")
        if img is not None:
            ts.image = _resolve(base, img.get("source", ""))
            ts.imagewidth = self.int_attr(img, "width", place + " <image>", default=0, src=src)
            ts.imageheight = self.int_attr(img, "height", place + " <image>", default=0, src=src)
            ts.transparentcolor = img.get("trans")
        max_id = -1
        tiles = el.findall("tile")
        _check_described_count(src, place, len(tiles))
        for t in tiles:
            tid = self.int_attr(t, "id", place + " <tile>", src=src)
            max_id = max(max_id, tid)
            tile = Tile(tid, self.properties(t.find("properties"), f"{place} tile {tid} properties", src))
            timg = t.find("image")
            if timg is not None:
                tile.image = _resolve(base, timg.get("source", ""))
                tile.imagewidth = self.int_attr(timg, "width", f"{place} tile {tid}", default=0, src=src)
                tile.imageheight = self.int_attr(timg, "height", f"{place} tile {tid}", default=0, src=src)
            ts.tiles[tid] = tile
        ts.tilecount, ts.columns = _tilecount(ts.tilecount, tw, th, ts.imagewidth, ts.imageheight, spacing,
                                              margin, columns)
        if ts.tilecount is None and ts.image is None and max_id >= 0:
            ts.tilecount = max_id + 1  # a collection of images without a count (old files)
        return ts

    def properties(self, el: ET.Element | None, place: str, src: str) -> list[Property]:
        out: list[Property] = []
        if el is None:
            return out
        for p in el.findall("property"):
            name = p.get("name")
            if name is None:
                raise TiledError(src, place, "a <property> has no name")
            ptype = p.get("type", "string")
            text = p.get("value")
            if text is None:
                text = p.text or ""
            out.append(Property(name, ptype, _typed_value(src, f"{place} '{name}'", ptype, text)))
        return out

    def layers(self, parent: ET.Element, m: TiledMap, prefix: str, depth: int = 0) -> None:
        if depth > MAX_XML_DEPTH:
            raise TiledError(self.src, prefix.rstrip(" >"), f"layer groups nested more than {MAX_XML_DEPTH} deep")
        for el in parent:
            name = el.get("name", "")
            if el.tag == "layer":
                m.layers.append(self.tile_layer(el, m, f"{prefix}layer '{name}'"))
            elif el.tag == "group":
                self.layers(el, m, f"{prefix}group '{name}' > ", depth + 1)
            elif el.tag in ("objectgroup", "imagelayer"):
                kind = "object layer" if el.tag == "objectgroup" else "image layer"
                m.ignored.append(f"{prefix}{kind} '{name}'")

    def tile_layer(self, el: ET.Element, m: TiledMap, place: str) -> TileLayer:
        w = self.int_attr(el, "width", place, default=m.width, minimum=1)
        h = self.int_attr(el, "height", place, default=m.height, minimum=1)
        if (w, h) != (m.width, m.height):
            raise TiledError(self.src, place, f"the layer is {w} x {h} but the map is {m.width} x {m.height}")
        data = el.find("data")
        if data is None:
            raise TiledError(self.src, place, "the layer has no <data>")
        if data.find("chunk") is not None:
            raise TiledError(self.src, place, "layer data in chunks (an infinite map) is not supported; in Tiled "
                                              "untick Map > Map Properties > Infinite and save again")
        encoding = data.get("encoding")
        compression = data.get("compression", "")
        if encoding is None:
            tiles = data.findall("tile")
            values: list[Any] = []
            for i, t in enumerate(tiles):
                values.append(self.int_attr(t, "gid", f"{place} <tile> {i + 1}", default=0))
            gids = _gids_from_ints(self.src, place, values, w, h)
        elif encoding == "csv":
            gids = _decode_csv(self.src, place, data.text or "", w, h)
        elif encoding == "base64":
            gids = _decode_base64(self.src, place, data.text or "", compression, w, h)
        else:
            raise TiledError(self.src, place, f"unknown layer encoding '{encoding}' (expected csv or base64)")
        if encoding == "base64":
            return TileLayer(el.get("name", ""), gids, place, "base64", compression if compression != "none" else "")
        return TileLayer(el.get("name", ""), gids, place)


def _typed_value(src: str, place: str, ptype: str, text: Any) -> PropertyValue:
    most = {"int": MAX_ATTR_DIGITS + 1, "float": 64}.get(ptype)
    if most is not None and isinstance(text, str) and len(text.strip()) > most:
        raise TiledError(src, place, f"an {ptype} property of {len(text.strip())} characters; at most {most}")
    try:
        if ptype == "int":
            return int(text)
        if ptype == "float":
            return float(text)
        if ptype == "bool":
            if isinstance(text, bool):
                return text
            if str(text) not in ("true", "false"):
                raise ValueError
            return str(text) == "true"
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int property of Infinity (JSON)
        raise TiledError(src, place, f"'{str(text)[:40]}' is not a valid {ptype}") from None
    if isinstance(text, (dict, list)):
        return json.dumps(text)  # class-typed values: kept as text, never read
    return text if isinstance(text, (str, int, float)) else str(text)


def load_tileset(path: Path, firstgid: int) -> Tileset:
    """Read an external tileset (``.tsx`` XML or Tiled JSON, gzipped or not)."""
    raw = read_file(path, "tileset file")
    src = str(path)
    base = path.resolve().parent
    head = raw.lstrip()[:1]
    if head == b"<":
        reader = _TmxReader(path)
        root = reader.parse(raw, src)
        if root.tag != "tileset":
            raise TiledError(src, "", f"not a Tiled tileset (the root element is <{root.tag}>)")
        return reader.tileset(root, firstgid, base, src, f"tileset '{root.get('name', '')}'")
    if head == b"{":
        return _JsonReader(path).tileset(_json_loads(raw, src), firstgid, base, src, "$")
    raise TiledError(src, "", "neither a TSX tileset (XML) nor a Tiled JSON tileset")


# ---------------------------------------------------------------------------
# JSON

def _json_loads(raw: bytes, src: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise TiledError(src, "", f"not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise TiledError(src, f"line {e.lineno}, column {e.colno}", f"not valid JSON ({e.msg})") from None
    except RecursionError:
        raise TiledError(src, "", "JSON nested too deeply") from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise TiledError(src, "", f"not readable JSON ({e})") from None


class _JsonReader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.src = str(path)

    def obj(self, v: Any, place: str, src: str | None = None) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise TiledError(src or self.src, place, f"expected an object, got {type(v).__name__}")
        return v

    def int_key(self, d: dict[str, Any], key: str, place: str, default: int | None = None,
                minimum: int | None = 0, src: str | None = None) -> int:
        if key not in d:
            if default is None:
                raise TiledError(src or self.src, place, f"missing '{key}'")
            return default
        v = d[key]
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise TiledError(src or self.src, f"{place}.{key}", f"{json.dumps(v)[:40]} is not a whole number")
        if minimum is not None and v < minimum:
            raise TiledError(src or self.src, f"{place}.{key}", f"{v} must be at least {minimum}")
        return v

    def str_key(self, d: dict[str, Any], key: str, place: str, default: str) -> str:
        v = d.get(key, default)
        if not isinstance(v, str):
            raise TiledError(self.src, f"{place}.{key}", f"{json.dumps(v)[:40]} is not text")
        return v

    def read_map(self, raw: bytes) -> TiledMap:
        d = self.obj(_json_loads(raw, self.src), "$")
        if d.get("type", "map") != "map":
            raise TiledError(self.src, "$.type", f"not a Tiled map (type is {json.dumps(d.get('type'))[:40]})")
        orientation = self.str_key(d, "orientation", "$", "orthogonal")
        _check_orientation(self.src, "$.orientation", orientation)
        w = self.int_key(d, "width", "$", minimum=1)
        h = self.int_key(d, "height", "$", minimum=1)
        _check_size(self.src, "$", w, h)
        if d.get("infinite") is True:
            raise TiledError(self.src, "$.infinite", "infinite maps are not supported; in Tiled untick Map > Map "
                                                     "Properties > Infinite and save again")
        m = TiledMap(self.src, "json", orientation, w, h, self.int_key(d, "tilewidth", "$", minimum=1),
                     self.int_key(d, "tileheight", "$", minimum=1))
        if orientation == "hexagonal":
            m.hexsidelength = self.int_key(d, "hexsidelength", "$", default=0)
            m.staggeraxis = self.str_key(d, "staggeraxis", "$", "y")
            m.staggerindex = self.str_key(d, "staggerindex", "$", "odd")
            if m.staggeraxis not in ("x", "y"):
                raise TiledError(self.src, "$.staggeraxis", f"'{m.staggeraxis}' (expected x or y)")
            if m.staggerindex not in ("odd", "even"):
                raise TiledError(self.src, "$.staggerindex", f"'{m.staggerindex}' (expected odd or even)")
        base = self.path.resolve().parent
        tilesets = d.get("tilesets", [])
        if not isinstance(tilesets, list):
            raise TiledError(self.src, "$.tilesets", "expected a list")
        _check_tilesets(self.src, "$.tilesets", len(tilesets))
        for i, t in enumerate(tilesets):
            place = f"$.tilesets[{i}]"
            t = self.obj(t, place)
            firstgid = self.int_key(t, "firstgid", place, minimum=1)
            if "source" in t:
                source = self.str_key(t, "source", place, "")
                found = find_file(base / source)
                if found is None:
                    raise TiledError(self.src, place, f"external tileset '{source}' not found (looked in {base})")
                ts = load_tileset(found, firstgid)
                ts.source = str((base / source).resolve())
            else:
                ts = self.tileset(t, firstgid, base, self.src, place)
            m.tilesets.append(ts)
            _check_described(self.src, m)
        m.properties = self.properties(d, "$", self.src)
        layers = d.get("layers", [])
        if not isinstance(layers, list):
            raise TiledError(self.src, "$.layers", "expected a list")
        self.layers(layers, m, "$.layers", "")
        for layer in m.layers:
            _check_gids(m, layer)
        return m

    def properties(self, d: dict[str, Any], place: str, src: str) -> list[Property]:
        props = d.get("properties")
        out: list[Property] = []
        if props is None:
            return out
        if isinstance(props, dict):  # before Tiled 1.2: {"name": value} with "propertytypes"
            types = d.get("propertytypes", {}) if isinstance(d.get("propertytypes"), dict) else {}
            for name, value in props.items():
                ptype = str(types.get(name, "string"))
                out.append(Property(str(name), ptype, _typed_value(src, f"{place}.properties.{name}", ptype, value)))
            return out
        if not isinstance(props, list):
            raise TiledError(src, f"{place}.properties", "expected a list")
        for i, p in enumerate(props):
            p = self.obj(p, f"{place}.properties[{i}]", src)
            name, ptype = p.get("name"), p.get("type", "string")
            if not isinstance(name, str) or not isinstance(ptype, str):
                raise TiledError(src, f"{place}.properties[{i}]", "a property needs a name and a type")
            out.append(Property(name, ptype, _typed_value(src, f"{place}.properties[{i}]", ptype, p.get("value", ""))))
        return out

    def tileset(self, t: dict[str, Any], firstgid: int, base: Path, src: str, place: str) -> Tileset:
        t = self.obj(t, place, src)
        tw = self.int_key(t, "tilewidth", place, minimum=1, src=src)
        th = self.int_key(t, "tileheight", place, minimum=1, src=src)
        spacing = self.int_key(t, "spacing", place, default=0, src=src)
        margin = self.int_key(t, "margin", place, default=0, src=src)
        tilecount = self.int_key(t, "tilecount", place, src=src) if "tilecount" in t else None
        columns = self.int_key(t, "columns", place, default=0, src=src)
        name = t.get("name", "")
        ts = Tileset(firstgid, name if isinstance(name, str) else str(name), tw, th, tilecount, columns, spacing,
                     margin)
        off = t.get("tileoffset")
        if isinstance(off, dict):
            ts.tileoffset = (self.int_key(off, "x", place + ".tileoffset", 0, None, src),
                             self.int_key(off, "y", place + ".tileoffset", 0, None, src))
        if isinstance(t.get("image"), str) and t["image"]:
            ts.image = _resolve(base, t["image"])
            ts.imagewidth = self.int_key(t, "imagewidth", place, default=0, src=src)
            ts.imageheight = self.int_key(t, "imageheight", place, default=0, src=src)
            trans = t.get("transparentcolor")
            ts.transparentcolor = trans if isinstance(trans, str) else None
        tiles = t.get("tiles", [])
        if isinstance(tiles, dict):  # before Tiled 1.2: {"id": {...}}
            tiles = [dict(v, id=int(k)) for k, v in tiles.items()
                     if isinstance(v, dict) and str(k).isascii() and str(k).isdigit()]
        if not isinstance(tiles, list):
            raise TiledError(src, place + ".tiles", "expected a list")
        old_props = t.get("tileproperties")
        _check_described_count(src, place, len(tiles) + (len(old_props) if isinstance(old_props, dict) else 0))
        for i, td in enumerate(tiles):
            tp = f"{place}.tiles[{i}]"
            td = self.obj(td, tp, src)
            tid = self.int_key(td, "id", tp, src=src)
            tile = Tile(tid, self.properties(td, tp, src))
            if isinstance(td.get("image"), str) and td["image"]:
                tile.image = _resolve(base, td["image"])
                tile.imagewidth = self.int_key(td, "imagewidth", tp, default=0, src=src)
                tile.imageheight = self.int_key(td, "imageheight", tp, default=0, src=src)
            ts.tiles[tid] = tile
        old = t.get("tileproperties")  # before Tiled 1.2
        if isinstance(old, dict):
            types = t.get("tilepropertytypes", {}) if isinstance(t.get("tilepropertytypes"), dict) else {}
            for k, props in old.items():
                if str(k).isascii() and str(k).isdigit() and isinstance(props, dict):
                    tile = ts.tiles.setdefault(int(k), Tile(int(k)))
                    tt = types.get(k, {}) if isinstance(types.get(k), dict) else {}
                    for name, value in props.items():
                        ptype = str(tt.get(name, "string"))
                        tile.properties.append(Property(str(name), ptype, _typed_value(
                            src, f"{place}.tileproperties.{k}.{name}", ptype, value)))
        ts.tilecount, ts.columns = _tilecount(ts.tilecount, tw, th, ts.imagewidth, ts.imageheight, spacing,
                                              margin, columns)
        if ts.tilecount is None and ts.image is None and ts.tiles:
            ts.tilecount = max(ts.tiles) + 1
        return ts

    def layers(self, layers: list[Any], m: TiledMap, path: str, prefix: str, depth: int = 0) -> None:
        if depth > MAX_XML_DEPTH:
            raise TiledError(self.src, path, f"layer groups nested more than {MAX_XML_DEPTH} deep")
        for i, layer in enumerate(layers):
            place = f"{path}[{i}]"
            layer = self.obj(layer, place)
            kind = layer.get("type")
            name = str(layer.get("name", ""))
            if kind == "tilelayer":
                m.layers.append(self.tile_layer(layer, m, place, f"{prefix}layer '{name}'"))
            elif kind == "group":
                sub = layer.get("layers", [])
                if not isinstance(sub, list):
                    raise TiledError(self.src, place + ".layers", "expected a list")
                self.layers(sub, m, place + ".layers", f"{prefix}group '{name}' > ", depth + 1)
            elif kind in ("objectgroup", "imagelayer"):
                m.ignored.append(f"{prefix}{'object' if kind == 'objectgroup' else 'image'} layer '{name}'")
            else:
                raise TiledError(self.src, place + ".type", f"unknown layer type {json.dumps(kind)[:40]}")

    def tile_layer(self, layer: dict[str, Any], m: TiledMap, place: str, label: str) -> TileLayer:
        where = f"{place} ({label})"
        if "chunks" in layer:
            raise TiledError(self.src, where, "layer data in chunks (an infinite map) is not supported; in Tiled "
                                              "untick Map > Map Properties > Infinite and save again")
        w = self.int_key(layer, "width", place, default=m.width, minimum=1)
        h = self.int_key(layer, "height", place, default=m.height, minimum=1)
        if (w, h) != (m.width, m.height):
            raise TiledError(self.src, where, f"the layer is {w} x {h} but the map is {m.width} x {m.height}")
        data = layer.get("data")
        encoding = layer.get("encoding", "csv")
        if isinstance(data, list) and encoding == "csv":
            gids = _gids_from_ints(self.src, where + ".data", data, w, h)
        elif isinstance(data, str) and encoding == "base64":
            compression = layer.get("compression", "")
            gids = _decode_base64(self.src, where + ".data", data, str(compression), w, h)
            comp = str(compression) if str(compression) != "none" else ""
            return TileLayer(str(layer.get("name", "")), gids, label, "base64", comp)
        else:
            raise TiledError(self.src, where + ".data", f"expected a list of tile ids or base64 text "
                                                        f"(encoding {json.dumps(encoding)[:20]})")
        return TileLayer(str(layer.get("name", "")), gids, label)
