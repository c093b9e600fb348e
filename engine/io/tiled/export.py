"""Tiled export: :func:`export_tiled` writes a grid scenario as a Tiled map
(TMX or Tiled JSON) with, when needed, a generated tileset image beside it;
a map imported from Tiled gets its own tilesets and tiles back (the round
trip described in :mod:`engine.io.tiled.convert` and ``docs/tiled.md``).

The map and its tileset are committed together or not at all through the
one safe writer (:func:`engine.io.atomic.commit_together`), each checked
after writing: the TMX parses (defusedxml), the JSON parses, the PNG
decodes (:func:`engine.io.png.check_png`).
"""

from __future__ import annotations

import base64
import json
import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...grids import Grid, HexGrid, SquareGrid
from ...model import Scenario, TerrainType
from ..atomic import Output, commit_together, output_target
from ..png import check_png, parse_color, png_bytes, tileset_image
from .convert import DEFAULT_TILE_SIZE, GENERATED_TILESET, STATE_KEY, TERRAIN_PROPERTY
from .model import GID_MASK, Property, Tile, TiledMap, TileLayer, Tileset, map_format_for
from .write import to_json, to_tmx


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
            inflater = zlib.decompressobj()  # at most one byte more than the map needs: a bomb stops there
            raw = inflater.decompress(base64.b64decode(rec["cells"]), 4 * grid.width * grid.height + 1)
            if len(raw) != 4 * grid.width * grid.height or not inflater.eof:
                raise ValueError("cell record has the wrong length")
            rec = dict(rec, gids=np.frombuffer(raw, "<u4").astype(np.uint32).reshape(grid.height, grid.width),
                       tilesets=[Tileset.from_dict(t) for t in rec["tilesets"]],
                       properties=[Property(str(p["name"]), str(p["type"]), p["value"]) for p in rec["properties"]],
                       gid_terrain={int(k): str(v) for k, v in rec["gid_terrain"].items()},
                       terrain_gid={str(k): int(v) for k, v in rec["terrain_gid"].items()})
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, zlib.error) as e:
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


__all__ = ["ExportReport", "check_tiled_json", "check_tmx", "export_geometry", "export_tiled", "hex_layout_size",
           "tileset_path"]
