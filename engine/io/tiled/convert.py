"""Tiled maps in and out of Adjutant: :func:`import_tiled` and
:func:`export_tiled`.

Geometry.  An orthogonal map becomes a square grid; a hexagonal map a hex
grid, with ``staggeraxis="x"`` meaning *flat-top* hexes (columns are
staggered) and ``staggeraxis="y"`` *pointy-top* (rows are staggered) -- what
Tiled's renderer draws (``hexagonalrenderer.cpp``; the orientation table in
Tiled's manual says the opposite and is wrong) -- and ``staggerindex``
``odd``/``even`` giving the grid's parity (odd: the odd columns/rows are the
shifted ones, :mod:`engine.grids.hexgrid`'s convention).  Tiled's tile ``x``
and ``y`` are Adjutant's column and row.

Terrain.  Each tile id (the global id with its flip bits removed) becomes a
terrain type, looked up in this order:

1. a terrain map file (:func:`load_terrain_map`), keyed by global id
   (``"17"``) or ``"TILESET NAME:LOCAL ID"`` (``"hex mini:4"``), with
   ``"0"`` (or ``"empty"``) for cells without a tile;
2. the tile's ``terrain`` property (a string, the terrain id); its
   ``terrain_name``, ``symbol``, ``color``, ``move_cost``, ``impassable``,
   ``linear`` and ``elevation`` properties, when present, define the type
   (Adjutant's own exports write them all, so a map survives the trip);
3. otherwise a generated terrain type named after the tile
   (``hex-mini-4``: tileset name and local id; ``empty`` for no tile).

Generated types are *reported* in :attr:`ImportReport.unmapped`, never
silently made up; ``strict=True`` refuses the map instead, listing them.

Round trip.  An import keeps what it needs to write the same Tiled map
again in ``scenario.state["tiled"]`` (the tilesets, the original tile of
every cell, tile sizes).  :func:`export_tiled` then writes the original
tilesets, the layer in its original format and, for every cell whose terrain
was not changed, the original tile (flip bits included); a changed cell gets
the most common tile of its new terrain, and terrain types without a tile
of their own get tiles in an appended generated tileset.  Without that record (or with
``generated=True``) the export has one generated tileset: one tile per
terrain type, a square or hex of the terrain's colour, in a PNG written
beside the map.
"""

from __future__ import annotations

import base64
import colorsys
import hashlib
import json
import math
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...grids import Grid, HexGrid, SquareGrid
from ...labels import CcrrNumbering, LabelError, Numbering, NumericNumbering, numbering_from_dict
from ...model import GridMap, ModelError, Ruleset, Scenario, TerrainType
from ..atomic import Output, commit_together, output_target
from ..common import ScenarioError
from ..grid import scenario_from_data, scenario_to_data
from ..png import check_png, parse_color, png_bytes, tileset_image
from .format import (
    FLAG_BITS,
    GID_MASK,
    Property,
    Tile,
    TiledError,
    TiledMap,
    TileLayer,
    Tileset,
    load_map,
    map_format_for,
    read_file,
    to_json,
    to_tmx,
)

TERRAIN_PROPERTY = "terrain"
"""The tile property naming a tile's terrain type."""
STATE_KEY = "tiled"
"""Key in ``scenario.state`` under which an import keeps its Tiled record."""
GENERATED_TILESET = "adjutant-terrain"
"""Name of the tileset Adjutant generates."""
EMPTY_TERRAIN = "empty"
"""Id of the terrain generated for cells without a tile."""
SYMBOLS = "!" + "".join(chr(c) for c in range(ord("#"), ord("[") + 1)) + "".join(
    chr(c) for c in range(ord("]"), ord("~") + 1))
"""Characters the scenario format allows as terrain symbols (92)."""
MAX_TERRAIN = len(SYMBOLS)
DEFAULT_TILE_SIZE = 32
"""Default size in pixels of an exported tile (square side; hex side)."""

_IDENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
_DEFINITION_PROPS = {"terrain_name": "string", "symbol": "string", "color": "color", "move_cost": "int",
                     "impassable": "bool", "linear": "bool", "elevation": "int"}


# ---------------------------------------------------------------------------
# results

@dataclass(frozen=True)
class TileTerrain:
    """How one tile id was imported: which terrain it became and why
    (``how`` is ``"mapping"``, ``"property"`` or ``"generated"``)."""

    gid: int
    tileset: str
    local_id: int
    terrain: str
    how: str
    cells: int

    def describe(self) -> str:
        tile = "no tile (empty cells)" if self.gid == 0 else f"tile {self.gid} ('{self.tileset}' #{self.local_id})"
        return f"{tile} -> {self.terrain} ({self.how}, {self.cells} cell{'s' if self.cells != 1 else ''})"

    def to_dict(self) -> dict[str, Any]:
        return {"gid": self.gid, "tileset": self.tileset, "local_id": self.local_id, "terrain": self.terrain,
                "how": self.how, "cells": self.cells}


@dataclass(frozen=True)
class ImportReport:
    """What an import read and decided."""

    source: str
    orientation: str
    width: int
    height: int
    grid: dict[str, Any]
    layer: str
    tiles: tuple[TileTerrain, ...]
    ignored_layers: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def unmapped(self) -> tuple[TileTerrain, ...]:
        """Tiles that no mapping or property named: imported as generated
        terrain types."""
        return tuple(t for t in self.tiles if t.how == "generated")

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "orientation": self.orientation, "width": self.width,
                "height": self.height, "grid": self.grid, "layer": self.layer,
                "tiles": [t.to_dict() for t in self.tiles], "unmapped": [t.to_dict() for t in self.unmapped],
                "ignored_layers": list(self.ignored_layers), "notes": list(self.notes)}


@dataclass(frozen=True)
class ImportResult:
    scenario: Scenario
    report: ImportReport


@dataclass(frozen=True)
class ExportReport:
    """What an export wrote.  ``layout_size`` is the ``(sx, sy)`` to give
    Adjutant's layout (:class:`~engine.grids.hexgrid.HexLayout` or the
    square side) so that it draws cells exactly where Tiled does."""

    path: str
    format: str
    image: str | None
    orientation: str
    tilewidth: int
    tileheight: int
    hexsidelength: int
    staggeraxis: str
    staggerindex: str
    layout_size: tuple[float, float]
    kept_tiles: bool
    terrain_gids: dict[str, int]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.path, "format": self.format, "image": self.image,
                             "orientation": self.orientation, "tilewidth": self.tilewidth,
                             "tileheight": self.tileheight}
        if self.orientation == "hexagonal":
            d.update({"hexsidelength": self.hexsidelength, "staggeraxis": self.staggeraxis,
                      "staggerindex": self.staggerindex})
        d.update({"layout_size": list(self.layout_size), "kept_tiles": self.kept_tiles,
                  "terrain_gids": self.terrain_gids, "notes": list(self.notes)})
        return d


# ---------------------------------------------------------------------------
# terrain map files

@dataclass
class TerrainMap:
    """A terrain map file: which tiles are which terrain.

    JSON: ``{"tiles": {"17": "forest", "hex mini:4": "water", "0": "clear"},
    "terrain": [{"id": "forest", "name": "Forest", "symbol": "f", "color":
    "#2e7d32", "move_cost": 2}, ...], "neighbours": 4}``.  ``terrain``
    (optional) defines types with the scenario format's fields; ids it does
    not define get a generated name, symbol and colour.  ``neighbours``
    (optional, 4 or 8) is for square grids.
    """

    source: str
    tiles: dict[str, str]
    terrain: list[TerrainType] = field(default_factory=list)
    neighbours: int | None = None


def load_terrain_map(path: str | os.PathLike[str]) -> TerrainMap:
    """Read and check a terrain map file; raises :class:`TiledError`."""
    p = Path(path)
    src = str(path)
    raw = read_file(p, "terrain map file")
    try:
        d = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise TiledError(src, "", f"not a JSON terrain map ({e})") from None
    return terrain_map_from_data(d, src)


def terrain_map_from_data(d: Any, src: str = "<terrain map>") -> TerrainMap:
    """Check decoded terrain-map JSON; raises :class:`TiledError`."""
    if not isinstance(d, dict):
        raise TiledError(src, "$", "expected an object with 'tiles' (and optionally 'terrain', 'neighbours')")
    unknown = sorted(set(d) - {"tiles", "terrain", "neighbours"})
    if unknown:
        raise TiledError(src, "$", f"unknown key {', '.join(repr(k) for k in unknown)} "
                                   "(expected 'tiles', 'terrain', 'neighbours')")
    tiles = d.get("tiles", {})
    if not isinstance(tiles, dict):
        raise TiledError(src, "$.tiles", "expected an object mapping tile ids to terrain ids")
    out: dict[str, str] = {}
    for k, v in tiles.items():
        if not isinstance(v, str) or not _IDENT.match(v):
            raise TiledError(src, f"$.tiles.{k}", f"{json.dumps(v)[:40]} is not a terrain id "
                                                  "(letters, digits, _ . -)")
        if not (k.isdigit() or k == "empty" or (":" in k and k.rsplit(":", 1)[1].isdigit())):
            raise TiledError(src, f"$.tiles.{k}", "keys are global tile ids ('17'), 'TILESET:LOCAL ID' "
                                                  "('hex mini:4') or '0'/'empty' for cells without a tile")
        out[k] = v
    terrain: list[TerrainType] = []
    defs = d.get("terrain", [])
    if not isinstance(defs, list):
        raise TiledError(src, "$.terrain", "expected a list of terrain types")
    for i, t in enumerate(defs):
        terrain.append(_terrain_from_dict(t, src, f"$.terrain[{i}]"))
    neighbours = d.get("neighbours")
    if neighbours is not None and neighbours not in (4, 8):
        raise TiledError(src, "$.neighbours", f"{json.dumps(neighbours)[:20]} (expected 4 or 8)")
    return TerrainMap(src, out, terrain, neighbours)


def _terrain_from_dict(t: Any, src: str, place: str) -> TerrainType:
    if not isinstance(t, dict):
        raise TiledError(src, place, "expected an object")
    allowed = {"id", "name", "symbol", "color", "move_cost", "impassable", "linear", "elevation", "properties"}
    unknown = sorted(set(t) - allowed)
    if unknown:
        raise TiledError(src, place, f"unknown key {', '.join(repr(k) for k in unknown)}")
    tid = t.get("id")
    if not isinstance(tid, str) or not _IDENT.match(tid):
        raise TiledError(src, place + ".id", f"{json.dumps(tid)[:40]} is not a terrain id (letters, digits, _ . -)")
    sym = t.get("symbol")
    if sym is not None and (not isinstance(sym, str) or len(sym) != 1 or sym not in SYMBOLS):
        raise TiledError(src, place + ".symbol", f"{json.dumps(sym)[:20]} is not one printable character "
                                                 "(not a space, quote or backslash)")
    color = t.get("color")
    if color is not None:
        if not isinstance(color, str):
            raise TiledError(src, place + ".color", "expected a colour like '#80c060'")
        try:
            color = "#{:02x}{:02x}{:02x}".format(*parse_color(color))
        except ValueError as e:
            raise TiledError(src, place + ".color", str(e)) from None
    for key in ("move_cost", "elevation"):
        v = t.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or (key == "move_cost" and v < 0)):
            raise TiledError(src, f"{place}.{key}", f"{json.dumps(v)[:20]} is not a whole number"
                                                    f"{' of 0 or more' if key == 'move_cost' else ''}")
    for key in ("impassable", "linear"):
        if key in t and not isinstance(t[key], bool):
            raise TiledError(src, f"{place}.{key}", "expected true or false")
    if "properties" in t and not isinstance(t["properties"], dict):
        raise TiledError(src, place + ".properties", "expected an object")
    return TerrainType(tid, str(t.get("name", tid)), sym or "", color or "", t.get("move_cost", 1),
                       t.get("impassable", False), t.get("linear", False), t.get("elevation", 0),
                       dict(t.get("properties", {})))


# ---------------------------------------------------------------------------
# import

def import_tiled(path: str | os.PathLike[str], terrain_map: TerrainMap | str | os.PathLike[str] | None = None,
                 *, layer: str | None = None, strict: bool = False, keep_tiles: bool = True) -> ImportResult:
    """Read a Tiled map (TMX or JSON) as a new scenario.

    ``layer`` names the tile layer to read; by default the layer named
    ``terrain`` (any case) if there is one, else the first tile layer.
    ``strict`` refuses a map with tiles no mapping or property names.
    ``keep_tiles`` keeps the record :func:`export_tiled` needs to write the
    original tiles back.  Raises :class:`TiledError` (a ``ValueError``)
    naming the file and place of any problem.
    """
    tm = terrain_map if isinstance(terrain_map, TerrainMap) or terrain_map is None else load_terrain_map(terrain_map)
    m = load_map(path)
    return tiled_map_to_scenario(m, tm, layer=layer, strict=strict, keep_tiles=keep_tiles)


def _pick_layer(m: TiledMap, name: str | None) -> TileLayer | None:
    if name is not None:
        for lay in m.layers:
            if lay.name == name:
                return lay
        names = ", ".join(f"'{lay.name}'" for lay in m.layers) or "none"
        raise TiledError(m.source, "", f"no tile layer named '{name}' (tile layers: {names})")
    for lay in m.layers:
        if lay.name.strip().casefold() == "terrain":
            return lay
    return m.layers[0] if m.layers else None


def _slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]+", "-", text.strip().lower()).strip("-")
    return s or "tile"


def _generated_color(key: str) -> str:
    h = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")
    hue = (h % 1000) / 1000.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.45 + (h >> 10) % 30 / 100, 0.70 + (h >> 16) % 25 / 100)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _prop_value(tile: Tile | None, name: str) -> Any:
    p = tile.property(name) if tile is not None else None
    return None if p is None else p.value


def tiled_map_to_scenario(m: TiledMap, terrain_map: TerrainMap | None = None, *, layer: str | None = None,
                          strict: bool = False, keep_tiles: bool = True) -> ImportResult:
    """The scenario a :class:`TiledMap` describes (see :func:`import_tiled`)."""
    src = m.source
    notes: list[str] = []
    lay = _pick_layer(m, layer)
    if lay is None:
        gids = np.zeros((m.height, m.width), np.uint32)
        layer_name = ""
        notes.append("the map has no tile layer: every cell is empty")
    else:
        gids = lay.gids
        layer_name = lay.name
        others = [f"'{x.name}'" for x in m.layers if x is not lay]
        if others:
            notes.append(f"read tile layer '{lay.name}'; other tile layers not read: {', '.join(others)}")
    masked = gids & np.uint32(GID_MASK)
    ids, inverse, counts = np.unique(masked, return_inverse=True, return_counts=True)

    defined: dict[str, TerrainType] = {}
    if terrain_map is not None:
        for t in terrain_map.terrain:
            if t.id in defined:
                raise TiledError(terrain_map.source, "$.terrain", f"terrain '{t.id}' is defined twice")
            defined[t.id] = t
    tiles: list[TileTerrain] = []
    order: list[str] = []  # terrain ids in order of first use
    gid_terrain: dict[int, str] = {}
    generated_ids: set[str] = set()
    for gid, n in zip(ids.tolist(), counts.tolist()):
        ts = m.tileset_of(gid) if gid else None
        local = gid - ts.firstgid if ts is not None else 0
        tile = ts.tiles.get(local) if ts is not None else None
        tsname = ts.name if ts is not None else ""
        terrain_id, how = None, ""
        if terrain_map is not None:
            keys = ["0", "empty"] if gid == 0 else [str(gid), f"{tsname}:{local}"]
            for k in keys:
                if k in terrain_map.tiles:
                    terrain_id, how = terrain_map.tiles[k], "mapping"
                    break
            if terrain_id is not None and terrain_id not in defined:
                # a mapped id the map file does not define: a plain type named after it
                defined[terrain_id] = TerrainType(terrain_id, terrain_id, "", "")
        if terrain_id is None and tile is not None:
            v = _prop_value(tile, TERRAIN_PROPERTY)
            if v is not None:
                if not isinstance(v, str) or not _IDENT.match(v):
                    raise TiledError(src, f"tileset '{tsname}' tile {local}",
                                     f"property '{TERRAIN_PROPERTY}' is {json.dumps(v)[:40]}, not a terrain id "
                                     "(letters, digits, _ . -)")
                terrain_id, how = v, "property"
                if v not in defined:
                    defined[v] = _terrain_from_tile(v, tile, src, f"tileset '{tsname}' tile {local}")
        if terrain_id is None:
            how = "generated"
            if gid == 0:
                terrain_id = EMPTY_TERRAIN
            else:
                terrain_id = f"{_slug(tsname)}-{local}"
                if terrain_id in generated_ids or (terrain_id in defined and terrain_id not in generated_ids):
                    terrain_id = f"{terrain_id}-g{gid}"
            if terrain_id not in defined:
                name = "Empty (no tile)" if gid == 0 else f"{tsname or 'tile'} #{local}"
                defined[terrain_id] = TerrainType(terrain_id, name, "", "#e8e8e8" if gid == 0 else "")
            generated_ids.add(terrain_id)
        gid_terrain[gid] = terrain_id
        if terrain_id not in order:
            order.append(terrain_id)
        tiles.append(TileTerrain(gid, tsname, local, terrain_id, how, n))
    unmapped = [t for t in tiles if t.how == "generated"]
    if strict and unmapped:
        raise TiledError(src, f"layer '{layer_name}'", "tiles without a terrain (give them a 'terrain' property "
                                                       "or list them in a terrain map): "
                         + "; ".join(t.describe() for t in unmapped))
    if len(order) > MAX_TERRAIN:
        raise TiledError(src, f"layer '{layer_name}'",
                         f"the layer uses {len(order)} different terrain types (one per tile that has no "
                         f"'terrain' property), more than the {MAX_TERRAIN} a scenario can hold; give the tiles "
                         "'terrain' properties or a terrain map that groups them")
    terrain = _finish_terrain([defined[t] for t in order])
    index = {t.id: i for i, t in enumerate(terrain)}
    lut = np.array([index[gid_terrain[g]] for g in ids.tolist()], np.uint8)
    terrain_layer = lut[inverse.reshape(-1)].reshape(m.height, m.width)

    grid = _grid_for(m, terrain_map, notes)
    numbering = _numbering_for(m, notes)
    gm = GridMap(grid, numbering, terrain_layer)
    name_prop = m.property("adjutant.name")
    name = str(name_prop.value) if name_prop is not None and str(name_prop.value) else Path(src).name.split(".")[0]
    scenario = Scenario(name or "Imported map", Ruleset(f"Terrain from {Path(src).name}", terrain), [], gm)
    own_export = bool(m.tilesets) and all(ts.name == GENERATED_TILESET for ts in m.tilesets)
    if keep_tiles and lay is not None and not own_export:
        scenario.state[STATE_KEY] = _record(m, lay, gid_terrain, counts_by_terrain(ids, counts, gid_terrain))
        scenario.state[STATE_KEY]["not_kept"] = [f"tile layer '{x.name}'" for x in m.layers if x is not lay] + list(
            m.ignored)
    scenario = _checked(scenario, src)
    report = ImportReport(src, m.orientation, m.width, m.height, grid.to_dict(), layer_name, tuple(tiles),
                          tuple(m.ignored), tuple(notes))
    return ImportResult(scenario, report)


def counts_by_terrain(ids: np.ndarray, counts: np.ndarray, gid_terrain: dict[int, str]) -> dict[str, int]:
    """For each terrain, its most common tile id (ties: the lowest id)."""
    best: dict[str, tuple[int, int]] = {}
    for gid, n in zip(ids.tolist(), counts.tolist()):
        t = gid_terrain[gid]
        if gid and (t not in best or n > best[t][0]):
            best[t] = (n, gid)
    return {t: g for t, (_, g) in best.items()}


def _terrain_from_tile(tid: str, tile: Tile, src: str, place: str) -> TerrainType:
    d: dict[str, Any] = {"id": tid}
    for key, kind in _DEFINITION_PROPS.items():
        v = _prop_value(tile, key)
        if v is None:
            continue
        if kind == "int" and (isinstance(v, bool) or not isinstance(v, int)):
            raise TiledError(src, f"{place} property '{key}'", f"{json.dumps(v)[:20]} is not a whole number")
        if kind == "bool" and not isinstance(v, bool):
            raise TiledError(src, f"{place} property '{key}'", "expected a bool property (true or false)")
        d["name" if key == "terrain_name" else key] = v
    return _terrain_from_dict(d, src, place)


def _finish_terrain(types: list[TerrainType]) -> list[TerrainType]:
    """Give every type a unique symbol and a colour."""
    used: set[str] = set()
    out: list[TerrainType] = []
    for t in types:
        if t.symbol and t.symbol not in used:
            used.add(t.symbol)
    for t in types:
        sym = t.symbol
        if not sym or (sym in used and any(o.symbol == sym for o in out)):
            sym = ""
            candidates = [c for c in (t.name[:1] + t.id[:1]) if c in SYMBOLS]
            candidates += [c.swapcase() for c in candidates] + list(SYMBOLS)
            for c in candidates:
                if c not in used and c != ".":
                    sym = c
                    break
            if not sym:
                sym = next(c for c in SYMBOLS if c not in used)
            used.add(sym)
        out.append(TerrainType(t.id, t.name, sym, t.color or _generated_color(t.id), t.move_cost, t.impassable,
                               t.linear, t.elevation, dict(t.properties)))
    return out


def _grid_for(m: TiledMap, terrain_map: TerrainMap | None, notes: list[str]) -> Grid:
    if m.orientation == "hexagonal":
        return HexGrid(m.width, m.height, "flat" if m.staggeraxis == "x" else "pointy", m.staggerindex)
    neighbours = 8
    prop = m.property("adjutant.neighbours")
    if terrain_map is not None and terrain_map.neighbours is not None:
        neighbours = terrain_map.neighbours
    elif prop is not None and prop.value in (4, 8, "4", "8"):
        neighbours = int(prop.value)
    return SquareGrid(m.width, m.height, 4 if neighbours == 4 else 8)


def _numbering_for(m: TiledMap, notes: list[str]) -> Numbering:
    prop = m.property("adjutant.numbering")
    if prop is not None:
        try:
            data = json.loads(str(prop.value))
            numbering = numbering_from_dict(data if isinstance(data, dict) else {})
            numbering.check_fits(m.width, m.height)
            return numbering
        except (ValueError, TypeError) as e:
            notes.append(f"map property 'adjutant.numbering' ignored ({e})")
    if m.orientation == "hexagonal":
        return CcrrNumbering(first=1, digits=max(2, len(str(max(m.width, m.height)))))
    return NumericNumbering()


def _record(m: TiledMap, lay: TileLayer, gid_terrain: dict[int, str], terrain_gid: dict[str, int]) -> dict[str, Any]:
    return {
        "source": str(Path(m.source).resolve()), "layer": lay.name, "orientation": m.orientation,
        "width": m.width, "height": m.height, "tilewidth": m.tilewidth, "tileheight": m.tileheight,
        "hexsidelength": m.hexsidelength, "staggeraxis": m.staggeraxis, "staggerindex": m.staggerindex,
        "properties": [p.to_dict() for p in m.properties],
        "tilesets": [ts.to_dict() for ts in m.tilesets],
        "gid_terrain": {str(g): t for g, t in gid_terrain.items()},
        "terrain_gid": terrain_gid,
        "encoding": lay.encoding, "compression": lay.compression,
        "cells": base64.b64encode(zlib.compress(lay.gids.astype("<u4").tobytes(), 9)).decode("ascii"),
    }


def _checked(s: Scenario, src: str) -> Scenario:
    """Pass the scenario through the file format's own validation, so an
    import can always be saved and loaded again."""
    try:
        return scenario_from_data(json.loads(json.dumps(scenario_to_data(s))), src)
    except ScenarioError as e:
        raise TiledError(src, "", "the imported scenario does not validate: " + "; ".join(
            str(p) for p in e.problems[:5])) from None


# ---------------------------------------------------------------------------
# export

def hex_layout_size(tilewidth: int, tileheight: int, hexsidelength: int, staggeraxis: str) -> tuple[float, float]:
    """The ``(sx, sy)`` circumradii for :class:`~engine.grids.hexgrid.HexLayout`
    that put hex centres exactly where Tiled's renderer does, for Tiled's
    regular-along-the-stagger-axis hexes (``hexsidelength`` half the tile's
    extent along that axis, as Adjutant exports them)."""
    if staggeraxis == "x":
        return (tilewidth + hexsidelength) / 3.0, tileheight / math.sqrt(3.0)
    return tilewidth / math.sqrt(3.0), (tileheight + hexsidelength) / 3.0


def export_geometry(grid: Grid, tile_size: int = DEFAULT_TILE_SIZE) -> tuple[int, int, int]:
    """Tile width, tile height and hex side length of a generated export.

    Squares are ``tile_size`` wide.  Hexes have side ``tile_size`` (made
    even, at least 4): flat-top hexes are ``2 * side`` wide and the even
    number nearest ``sqrt(3) * side`` high; pointy-top the other way round.
    Even sizes matter: Tiled's hexagonal renderer rounds odd tile sizes
    down."""
    if isinstance(grid, HexGrid):
        s = max(4, 2 * round(tile_size / 2))
        across = 2 * round(math.sqrt(3.0) * s / 2)
        if grid.orientation.value == "flat":
            return 2 * s, across, s
        return across, 2 * s, s
    s = max(1, int(tile_size))
    return s, s, 0


def _kept_record(s: Scenario, notes: list[str]) -> dict[str, Any] | None:
    rec = s.state.get(STATE_KEY)
    if rec is None:
        return None
    grid = s.map.grid
    why = None
    try:
        if not isinstance(rec, dict):
            raise TypeError("not an object")
        if (rec["width"], rec["height"]) != (grid.width, grid.height):
            why = f"the map was {rec['width']} x {rec['height']} when imported, now {grid.width} x {grid.height}"
        elif rec["orientation"] == "hexagonal":
            if not isinstance(grid, HexGrid) or (grid.orientation.value, grid.parity.value) != (
                    "flat" if rec["staggeraxis"] == "x" else "pointy", rec["staggerindex"]):
                why = "the grid's kind, orientation or parity changed since the import"
        elif not isinstance(grid, SquareGrid):
            why = "the grid's kind changed since the import"
        if why is None:
            raw = zlib.decompress(base64.b64decode(rec["cells"]), bufsize=4 * grid.width * grid.height)
            if len(raw) != 4 * grid.width * grid.height:
                raise ValueError("cell record has the wrong length")
            rec = dict(rec, gids=np.frombuffer(raw, "<u4").astype(np.uint32).reshape(grid.height, grid.width),
                       tilesets=[Tileset.from_dict(t) for t in rec["tilesets"]],
                       properties=[Property(str(p["name"]), str(p["type"]), p["value"]) for p in rec["properties"]],
                       gid_terrain={int(k): str(v) for k, v in rec["gid_terrain"].items()},
                       terrain_gid={str(k): int(v) for k, v in rec["terrain_gid"].items()})
    except (KeyError, TypeError, ValueError, zlib.error) as e:
        why = f"the record is damaged ({type(e).__name__}: {e})"
    if why is not None:
        notes.append(f"the tiles kept from the Tiled import were not used: {why}; wrote a generated tileset")
        return None
    return rec


def export_tiled(s: Scenario, path: str | os.PathLike[str], *, tile_size: int = DEFAULT_TILE_SIZE,
                 generated: bool = False) -> ExportReport:
    """Write the scenario's map as a Tiled map (TMX for ``.tmx``, Tiled
    JSON for ``.json``/``.tmj``), with a generated tileset image
    ``<stem>-terrain.png`` beside it when one is needed.

    With ``generated=False`` and a record of a Tiled import in
    ``scenario.state["tiled"]`` that still fits the map, the original
    tilesets and tiles are written back (see the module docstring).
    The map and its tileset image are written together or not at all
    (:func:`engine.io.atomic.commit_together`), each checked after writing.
    Raises :class:`TiledError` for an unsupported file name and
    :class:`engine.io.atomic.OutputError` when the files cannot be written.
    """
    out = Path(path)
    fmt = map_format_for(out)
    notes: list[str] = []
    grid = s.map.grid
    rec = None if generated else _kept_record(s, notes)
    terrain = s.ruleset.terrain
    if rec is not None:
        tw, th, side = int(rec["tilewidth"]), int(rec["tileheight"]), int(rec["hexsidelength"])
        tilesets: list[Tileset] = list(rec["tilesets"])
        terrain_gid = {t: g for t, g in rec["terrain_gid"].items() if any(x.id == t for x in terrain)}
        properties: list[Property] = list(rec["properties"])
        layer_name = str(rec["layer"])
        enc, comp = rec.get("encoding", "csv"), rec.get("compression", "")
        layer_format = (enc, comp) if enc == "base64" and comp in ("", "zlib", "gzip") else ("csv", "")
        not_kept = rec.get("not_kept") or []
        if isinstance(not_kept, list) and not_kept:
            notes.append("the Tiled import's other layers are not written (Adjutant keeps one tile layer): "
                         + ", ".join(str(x) for x in not_kept))
        next_gid = max([ts.end_gid() or ts.firstgid + max(ts.tiles, default=0) + 1 for ts in tilesets] + [1])
    else:
        tw, th, side = export_geometry(grid, tile_size)
        tilesets, terrain_gid, properties, layer_name, next_gid = [], {}, [], "terrain", 1
        layer_format = ("csv", "")
        properties = [Property("adjutant.name", "string", s.name),
                      Property("adjutant.numbering", "string", json.dumps(s.map.numbering.to_dict()))]
        if isinstance(grid, SquareGrid):
            properties.append(Property("adjutant.neighbours", "int", grid.neighbour_count))
    hexagonal = isinstance(grid, HexGrid)
    flat = hexagonal and grid.orientation.value == "flat"  # type: ignore[attr-defined]
    staggeraxis = "x" if flat else "y"
    staggerindex = grid.parity.value if hexagonal else "odd"  # type: ignore[attr-defined]

    missing = [t for t in terrain if t.id not in terrain_gid]
    image_path: Path | None = None
    if missing:
        columns = min(len(missing), 8)
        image_path = tileset_path(out)
        colors = [parse_color(t.color) for t in missing]
        img = tileset_image(colors, tw, th, side if hexagonal else None, flat, columns)
        gen = Tileset(next_gid, GENERATED_TILESET, tw, th, len(missing), columns,
                      image=str(image_path.resolve()), imagewidth=img.shape[1], imageheight=img.shape[0])
        for i, t in enumerate(missing):
            gen.tiles[i] = Tile(i, _terrain_properties(t))
            terrain_gid[t.id] = next_gid + i
        tilesets.append(gen)
    lut = np.array([terrain_gid[t.id] for t in terrain], np.uint32)
    gids = lut[s.map.terrain.astype(np.intp)]
    if rec is not None:
        orig: np.ndarray = rec["gids"]
        gid_terrain: dict[int, str] = rec["gid_terrain"]
        ids = [t.id for t in terrain]
        orig_masked = orig & np.uint32(GID_MASK)
        uniq, inv = np.unique(orig_masked, return_inverse=True)
        # the terrain index each original tile was imported as (-1: that terrain is gone)
        was = np.array([ids.index(gid_terrain[g]) if gid_terrain.get(g) in ids else -1 for g in uniq.tolist()],
                       np.int64)[inv.reshape(-1)].reshape(orig.shape)
        same = was == s.map.terrain.astype(np.int64)
        gids = np.where(same, orig, gids).astype(np.uint32)
        changed = int((~same).sum())
        if changed:
            notes.append(f"{changed} cell{'s' if changed != 1 else ''} changed since the import got the most "
                         "common tile of their new terrain")
    m = TiledMap(str(out), fmt, "hexagonal" if hexagonal else "orthogonal", grid.width, grid.height, tw, th,
                 side if hexagonal else 0, staggeraxis, staggerindex, tilesets,
                 [TileLayer(layer_name, gids, "", *layer_format)], properties)
    out_dir = output_target(out).parent
    text = to_tmx(m, out_dir) if fmt == "tmx" else to_json(m, out_dir)
    outputs = [] if image_path is None else [Output(image_path, png_bytes(img), _check_png_file)]
    commit_together(outputs + [Output(out, text.encode("utf-8"), check_tmx if fmt == "tmx" else check_tiled_json)])
    if hexagonal:
        size = hex_layout_size(tw, th, side, staggeraxis)
    else:
        size = (float(tw), float(th))
    return ExportReport(str(out), fmt, None if image_path is None else str(image_path), m.orientation, tw, th,
                        m.hexsidelength, staggeraxis, staggerindex, size, rec is not None,
                        {t.id: terrain_gid[t.id] for t in terrain}, tuple(notes))


def tileset_path(path: str | os.PathLike[str]) -> Path:
    """Where :func:`export_tiled` writes the generated tileset image of a
    map written to ``path``: ``<stem>-terrain.png`` beside it."""
    out = Path(path)
    return out.with_name(out.name.split(".")[0] + "-terrain.png")


def _check_png_file(path: Path) -> None:
    check_png(path.read_bytes())


def check_tmx(path: Path) -> None:
    """Raise unless ``path`` is well-formed XML with a ``<map>`` root
    (parsed with :mod:`defusedxml`; the check the export makes of what it wrote)."""
    import defusedxml.ElementTree as SafeET

    root = SafeET.parse(str(path)).getroot()
    if root.tag != "map":
        raise ValueError(f"the root element is <{root.tag}>, not <map>")


def check_tiled_json(path: Path) -> None:
    """Raise unless ``path`` is JSON of a Tiled map (an object with ``layers``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "layers" not in data:
        raise ValueError("not a Tiled map object")


def _terrain_properties(t: TerrainType) -> list[Property]:
    r, g, b = parse_color(t.color)
    props = [Property(TERRAIN_PROPERTY, "string", t.id), Property("terrain_name", "string", t.name),
             Property("symbol", "string", t.symbol), Property("color", "color", f"#ff{r:02x}{g:02x}{b:02x}"),
             Property("move_cost", "int", t.move_cost), Property("impassable", "bool", t.impassable),
             Property("linear", "bool", t.linear), Property("elevation", "int", t.elevation)]
    return sorted(props, key=lambda p: p.name)


__all__ = [
    "DEFAULT_TILE_SIZE", "EMPTY_TERRAIN", "FLAG_BITS", "GENERATED_TILESET", "STATE_KEY", "TERRAIN_PROPERTY",
    "ExportReport", "ImportReport", "ImportResult", "LabelError", "ModelError", "TerrainMap", "TileTerrain",
    "TiledError", "export_geometry", "export_tiled", "hex_layout_size", "import_tiled", "load_terrain_map",
    "terrain_map_from_data", "tiled_map_to_scenario", "tileset_path",
]
