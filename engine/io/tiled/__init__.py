"""Tiled maps (TMX and Tiled JSON, orthogonal and hexagonal) in and out of
Adjutant (``docs/tiled.md``).

* :mod:`.model` — Tiled's maps as data (:class:`TiledMap`, tilesets, tiles,
  properties, flip bits) and :class:`TiledError`;
* :mod:`.format` — Tiled's files read, defensively;
* :mod:`.write` — TMX and Tiled JSON text written;
* :mod:`.convert` — a Tiled map to a scenario (:func:`import_tiled`);
* :mod:`.export` — a scenario to a Tiled map (:func:`export_tiled`: the map
  and its tileset image committed together, each checked).
"""

from .convert import (
    DEFAULT_TILE_SIZE,
    EMPTY_TERRAIN,
    GENERATED_TILESET,
    STATE_KEY,
    TERRAIN_PROPERTY,
    ImportReport,
    ImportResult,
    LabelError,
    ModelError,
    TerrainMap,
    TileTerrain,
    import_tiled,
    load_terrain_map,
    terrain_map_from_data,
    tiled_map_to_scenario,
)
from .export import ExportReport, export_geometry, export_tiled, hex_layout_size, tileset_path
from .model import FLAG_BITS, TiledError

__all__ = [
    "DEFAULT_TILE_SIZE", "EMPTY_TERRAIN", "FLAG_BITS", "GENERATED_TILESET", "STATE_KEY", "TERRAIN_PROPERTY",
    "ExportReport", "ImportReport", "ImportResult", "LabelError", "ModelError", "TerrainMap", "TileTerrain",
    "TiledError", "export_geometry", "export_tiled", "hex_layout_size", "import_tiled", "load_terrain_map",
    "terrain_map_from_data", "tiled_map_to_scenario", "tileset_path",
]
