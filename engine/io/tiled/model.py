r"""Tiled's maps as data, without Adjutant's model or any file syntax: a
:class:`TiledMap` with its :class:`Tileset`\ s, :class:`Tile`\ s,
:class:`Property`\ s and one :class:`TileLayer` of global tile ids, the
flip bits of a global id, and :class:`TiledError`.  Read by
:mod:`engine.io.tiled.format`, written by :mod:`engine.io.tiled.write`,
converted to and from scenarios by :mod:`engine.io.tiled.convert` and
:mod:`engine.io.tiled.export` (see ``docs/tiled.md``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
ROTATE_HEX_120 = 0x10000000
FLAG_BITS = FLIP_H | FLIP_V | FLIP_D | ROTATE_HEX_120
"""The high bits of a global tile id that flip or rotate the tile."""
GID_MASK = 0x0FFFFFFF
"""Mask giving the tile's global id without its flip bits."""

ORIENTATIONS = ("orthogonal", "hexagonal")

PropertyValue = str | int | float | bool


class TiledError(ValueError):
    """A Tiled file that cannot be read or written; the message names the
    file and the place in it."""

    def __init__(self, source: str, place: str, message: str) -> None:
        self.source, self.place, self.detail = source, place, message
        where = ": ".join(p for p in (source, place) if p)
        super().__init__(f"{where}: {message}" if where else message)


@dataclass
class Property:
    """A custom property as Tiled stores it: name, type and typed value."""

    name: str
    type: str
    value: PropertyValue

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "value": self.value}


@dataclass
class Tile:
    """Per-tile data of a tileset (only tiles with something to say)."""

    id: int
    properties: list[Property] = field(default_factory=list)
    image: str | None = None
    imagewidth: int = 0
    imageheight: int = 0

    def property(self, name: str) -> Property | None:
        for p in self.properties:
            if p.name == name:
                return p
        return None


@dataclass
class Tileset:
    """A tileset as used by a map.  ``image`` and tile images are absolute
    paths; ``source`` is the absolute path of the external tileset file, or
    ``None`` when the tileset is embedded in the map.  ``tilecount`` is
    ``None`` when neither the file nor its image says how many tiles there
    are."""

    firstgid: int
    name: str
    tilewidth: int
    tileheight: int
    tilecount: int | None
    columns: int = 0
    spacing: int = 0
    margin: int = 0
    image: str | None = None
    imagewidth: int = 0
    imageheight: int = 0
    transparentcolor: str | None = None
    tileoffset: tuple[int, int] = (0, 0)
    tiles: dict[int, Tile] = field(default_factory=dict)
    source: str | None = None

    def end_gid(self) -> int | None:
        """One past this tileset's last global id (``None`` if unknown)."""
        return None if self.tilecount is None else self.firstgid + self.tilecount

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (kept in a scenario to write the tileset again)."""
        return {
            "firstgid": self.firstgid, "name": self.name, "tilewidth": self.tilewidth,
            "tileheight": self.tileheight, "tilecount": self.tilecount, "columns": self.columns,
            "spacing": self.spacing, "margin": self.margin, "image": self.image,
            "imagewidth": self.imagewidth, "imageheight": self.imageheight,
            "transparentcolor": self.transparentcolor, "tileoffset": list(self.tileoffset),
            "tiles": [{"id": t.id, "properties": [p.to_dict() for p in t.properties], "image": t.image,
                       "imagewidth": t.imagewidth, "imageheight": t.imageheight}
                      for t in sorted(self.tiles.values(), key=lambda t: t.id)],
            "source": self.source,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Tileset:
        """Inverse of :meth:`to_dict`; raises ``KeyError``/``TypeError``/
        ``ValueError`` on a malformed dict (callers report it)."""
        tiles = {}
        for t in d.get("tiles", []):
            tiles[int(t["id"])] = Tile(int(t["id"]), [Property(str(p["name"]), str(p["type"]), p["value"])
                                                      for p in t.get("properties", [])],
                                       t.get("image"), int(t.get("imagewidth", 0)), int(t.get("imageheight", 0)))
        off = d.get("tileoffset", [0, 0])
        tc = d.get("tilecount")
        return Tileset(int(d["firstgid"]), str(d["name"]), int(d["tilewidth"]), int(d["tileheight"]),
                       None if tc is None else int(tc), int(d.get("columns", 0)), int(d.get("spacing", 0)),
                       int(d.get("margin", 0)), d.get("image"), int(d.get("imagewidth", 0)),
                       int(d.get("imageheight", 0)), d.get("transparentcolor"), (int(off[0]), int(off[1])),
                       tiles, d.get("source"))


@dataclass
class TileLayer:
    """A tile layer: global tile ids (flip bits included), ``[row, col]``.
    ``encoding`` (``csv`` or ``base64``) and ``compression`` (``""``,
    ``zlib``, ``gzip``) are the layer format read, and the one written."""

    name: str
    gids: np.ndarray
    place: str
    encoding: str = "csv"
    compression: str = ""


@dataclass
class TiledMap:
    """What Adjutant reads from (and writes to) a Tiled map."""

    source: str
    format: str  # "tmx" or "json"
    orientation: str
    width: int
    height: int
    tilewidth: int
    tileheight: int
    hexsidelength: int = 0
    staggeraxis: str = "y"
    staggerindex: str = "odd"
    tilesets: list[Tileset] = field(default_factory=list)
    layers: list[TileLayer] = field(default_factory=list)
    properties: list[Property] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    def tileset_of(self, gid: int) -> Tileset | None:
        """The tileset a global id (flip bits removed) belongs to."""
        best = None
        for ts in self.tilesets:
            if ts.firstgid <= gid and (best is None or ts.firstgid > best.firstgid):
                best = ts
        if best is None:
            return None
        end = best.end_gid()
        return best if end is None or gid < end else None

    def property(self, name: str) -> Property | None:
        for p in self.properties:
            if p.name == name:
                return p
        return None


def map_format_for(path: str | os.PathLike[str]) -> str:
    """``"tmx"`` or ``"json"`` from a file name; raises :class:`TiledError`
    for anything else."""
    name = Path(path).name.lower()
    if name.endswith(".tmx"):
        return "tmx"
    if name.endswith((".json", ".tmj")):
        return "json"
    raise TiledError(str(path), "", "the file name must end in .tmx (TMX) or .json / .tmj (Tiled JSON)")


__all__ = [
    "FLAG_BITS",
    "FLIP_D",
    "FLIP_H",
    "FLIP_V",
    "GID_MASK",
    "ORIENTATIONS",
    "ROTATE_HEX_120",
    "Property",
    "PropertyValue",
    "Tile",
    "TileLayer",
    "TiledError",
    "TiledMap",
    "Tileset",
    "map_format_for",
]
