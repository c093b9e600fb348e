"""Tiled maps into Adjutant: :func:`import_tiled` (and, in
:mod:`engine.io.tiled.export`, back out: :func:`~engine.io.tiled.export.export_tiled`).

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
every cell, tile sizes).  :func:`~engine.io.tiled.export.export_tiled` then writes the original
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
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...grids import Grid, HexGrid, SquareGrid
from ...labels import CcrrNumbering, LabelError, Numbering, NumericNumbering
from ...model import GridMap, ModelError, Ruleset, Scenario, TerrainType
from ...numbering import numbering_from_dict
from ..common import ScenarioError
from ..grid import scenario_from_data, scenario_to_data
from ..png import parse_color
from .format import load_map, read_file
from .model import GID_MASK, Tile, TiledError, TiledMap, TileLayer

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
    """The imported scenario, the report of what was read, and every file
    the import read (the map, external tilesets, tileset and tile images):
    an output must be none of them."""

    scenario: Scenario
    report: ImportReport
    inputs: tuple[str, ...] = ()


def map_inputs(m: TiledMap) -> tuple[str, ...]:
    """The files a Tiled map names: itself, its external tilesets and every
    tileset or tile image."""
    files = [m.source]
    for ts in m.tilesets:
        files += [f for f in (ts.source, ts.image) if f]
        files += [t.image for t in ts.tiles.values() if t.image]
    return tuple(dict.fromkeys(files))



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
    return ImportResult(scenario, report, map_inputs(m))


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


__all__ = [
    "DEFAULT_TILE_SIZE", "EMPTY_TERRAIN", "GENERATED_TILESET", "STATE_KEY", "TERRAIN_PROPERTY", "ImportReport",
    "ImportResult", "LabelError", "ModelError", "TerrainMap", "TileTerrain", "TiledError", "counts_by_terrain",
    "import_tiled", "load_terrain_map", "terrain_map_from_data", "tiled_map_to_scenario",
]
