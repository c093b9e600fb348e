"""Tiled's map formats written: TMX (:func:`to_tmx`) and Tiled JSON
(:func:`to_json`) text of a :class:`~engine.io.tiled.model.TiledMap` with
one tile layer, paths relative to the folder the map goes to.  The text is
committed to disk by :func:`engine.io.tiled.export.export_tiled` through the
one safe writer (see ``docs/tiled.md``).
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import zlib
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from .model import Property, TiledMap, TileLayer


def _rel(path: str | None, folder: Path) -> str:
    """``path`` relative to ``folder`` (forward slashes, as Tiled writes)."""
    if not path:
        return ""
    try:
        return Path(os.path.relpath(path, folder)).as_posix()
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()


def _color_text(p: Property) -> str:
    return str(p.value).lower() if p.type != "bool" else ("true" if p.value else "false")


def to_tmx(m: TiledMap, out_dir: Path) -> str:
    """TMX text for a map with one tile layer (in the layer's format); paths relative to
    ``out_dir``."""
    layer = m.layers[0]
    root = ET.Element("map", {
        "version": "1.8", "tiledversion": "1.8.2", "orientation": m.orientation, "renderorder": "right-down",
        "width": str(m.width), "height": str(m.height), "tilewidth": str(m.tilewidth),
        "tileheight": str(m.tileheight), "infinite": "0",
    })
    if m.orientation == "hexagonal":
        root.set("hexsidelength", str(m.hexsidelength))
        root.set("staggeraxis", m.staggeraxis)
        root.set("staggerindex", m.staggerindex)
    root.set("nextlayerid", "2")
    root.set("nextobjectid", "1")
    _tmx_properties(root, m.properties)
    for ts in m.tilesets:
        if ts.source is not None:
            ET.SubElement(root, "tileset", {"firstgid": str(ts.firstgid), "source": _rel(ts.source, out_dir)})
            continue
        attrs = {"firstgid": str(ts.firstgid), "name": ts.name, "tilewidth": str(ts.tilewidth),
                 "tileheight": str(ts.tileheight)}
        if ts.spacing:
            attrs["spacing"] = str(ts.spacing)
        if ts.margin:
            attrs["margin"] = str(ts.margin)
        if ts.tilecount is not None:
            attrs["tilecount"] = str(ts.tilecount)
        attrs["columns"] = str(ts.columns)
        el = ET.SubElement(root, "tileset", attrs)
        if ts.tileoffset != (0, 0):
            ET.SubElement(el, "tileoffset", {"x": str(ts.tileoffset[0]), "y": str(ts.tileoffset[1])})
        if ts.image:
            img = {"source": _rel(ts.image, out_dir)}
            if ts.transparentcolor:
                img["trans"] = ts.transparentcolor.lstrip("#")
            img.update({"width": str(ts.imagewidth), "height": str(ts.imageheight)})
            ET.SubElement(el, "image", img)
        for tile in sorted(ts.tiles.values(), key=lambda t: t.id):
            tel = ET.SubElement(el, "tile", {"id": str(tile.id)})
            _tmx_properties(tel, tile.properties)
            if tile.image:
                ET.SubElement(tel, "image", {"width": str(tile.imagewidth), "height": str(tile.imageheight),
                                             "source": _rel(tile.image, out_dir)})
    lel = ET.SubElement(root, "layer", {"id": "1", "name": layer.name, "width": str(m.width),
                                        "height": str(m.height)})
    if layer.encoding == "base64":
        attrs = {"encoding": "base64"}
        if layer.compression:
            attrs["compression"] = layer.compression
        data = ET.SubElement(lel, "data", attrs)
        data.text = "\n   " + _encode_base64(layer) + "\n  "
    else:
        data = ET.SubElement(lel, "data", {"encoding": "csv"})
        rows = [",".join(str(int(g)) for g in row) for row in layer.gids]
        data.text = "\n" + ",\n".join(rows) + "\n"
    ET.indent(root, " ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _encode_base64(layer: TileLayer) -> str:
    """The layer's tile ids as Tiled's base64 text, compressed as
    ``layer.compression`` says (``""``, ``zlib`` or ``gzip``)."""
    raw = layer.gids.astype("<u4").tobytes()
    if layer.compression == "zlib":
        raw = zlib.compress(raw, 9)
    elif layer.compression == "gzip":
        raw = gzip.compress(raw, 9, mtime=0)
    return base64.b64encode(raw).decode("ascii")


def _tmx_properties(parent: ET.Element, props: list[Property]) -> None:
    if not props:
        return
    el = ET.SubElement(parent, "properties")
    for p in props:
        attrs = {"name": p.name}
        if p.type != "string":
            attrs["type"] = p.type
        attrs["value"] = _color_text(p) if p.type in ("bool", "color") else str(p.value)
        ET.SubElement(el, "property", attrs)


def to_json(m: TiledMap, out_dir: Path) -> str:
    """Tiled JSON text for a map with one tile layer; paths relative to
    ``out_dir``."""
    layer = m.layers[0]
    d: dict[str, Any] = {
        "compressionlevel": -1, "height": m.height, "infinite": False,
    }
    if m.orientation == "hexagonal":
        d["hexsidelength"] = m.hexsidelength
    ld: dict[str, Any] = {"data": [int(g) for g in layer.gids.ravel()], "height": m.height, "id": 1,
                          "name": layer.name, "opacity": 1, "type": "tilelayer", "visible": True,
                          "width": m.width, "x": 0, "y": 0}
    if layer.encoding == "base64":
        ld["data"] = _encode_base64(layer)
        ld["encoding"] = "base64"
        if layer.compression:
            ld["compression"] = layer.compression
    d["layers"] = [ld]
    d.update({"nextlayerid": 2, "nextobjectid": 1, "orientation": m.orientation})
    if m.properties:
        d["properties"] = [p.to_dict() for p in m.properties]
    d["renderorder"] = "right-down"
    if m.orientation == "hexagonal":
        d["staggeraxis"] = m.staggeraxis
        d["staggerindex"] = m.staggerindex
    d.update({"tiledversion": "1.8.2", "tileheight": m.tileheight})
    tilesets: list[dict[str, Any]] = []
    for ts in m.tilesets:
        if ts.source is not None:
            tilesets.append({"firstgid": ts.firstgid, "source": _rel(ts.source, out_dir)})
            continue
        t: dict[str, Any] = {"columns": ts.columns, "firstgid": ts.firstgid}
        if ts.image:
            t.update({"image": _rel(ts.image, out_dir), "imageheight": ts.imageheight,
                      "imagewidth": ts.imagewidth})
        t.update({"margin": ts.margin, "name": ts.name, "spacing": ts.spacing})
        if ts.tilecount is not None:
            t["tilecount"] = ts.tilecount
        t.update({"tileheight": ts.tileheight, "tilewidth": ts.tilewidth})
        if ts.tileoffset != (0, 0):
            t["tileoffset"] = {"x": ts.tileoffset[0], "y": ts.tileoffset[1]}
        if ts.transparentcolor:
            t["transparentcolor"] = ts.transparentcolor if ts.transparentcolor.startswith("#") \
                else "#" + ts.transparentcolor
        tiles = []
        for tile in sorted(ts.tiles.values(), key=lambda x: x.id):
            td: dict[str, Any] = {"id": tile.id}
            if tile.image:
                td.update({"image": _rel(tile.image, out_dir), "imageheight": tile.imageheight,
                           "imagewidth": tile.imagewidth})
            if tile.properties:
                td["properties"] = [p.to_dict() for p in tile.properties]
            tiles.append(td)
        if tiles:
            t["tiles"] = tiles
        tilesets.append(t)
    d["tilesets"] = tilesets
    d.update({"tilewidth": m.tilewidth, "type": "map", "version": "1.8", "width": m.width})
    return json.dumps(d, indent=1) + "\n"


__all__ = ["to_json", "to_tmx"]
