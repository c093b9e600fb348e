"""Tiled maps (TMX and Tiled JSON, orthogonal and hexagonal) in and out of
Adjutant (``docs/tiled.md``).

* :mod:`.format` — Tiled's files read (defensively) and written, without
  Adjutant's model;
* :mod:`.convert` — a Tiled map to a scenario (:func:`import_tiled`) and back
  (:func:`export_tiled`, the map and its tileset image committed together).
"""

from .convert import (
    DEFAULT_TILE_SIZE,
    EMPTY_TERRAIN,
    FLAG_BITS,
    GENERATED_TILESET,
    STATE_KEY,
    TERRAIN_PROPERTY,
    ExportReport,
    ImportReport,
    ImportResult,
    LabelError,
    ModelError,
    TerrainMap,
    TiledError,
    TileTerrain,
    export_geometry,
    export_tiled,
    hex_layout_size,
    import_tiled,
    load_terrain_map,
    terrain_map_from_data,
    tiled_map_to_scenario,
    tileset_path,
)

__all__ = [
    "DEFAULT_TILE_SIZE", "EMPTY_TERRAIN", "FLAG_BITS", "GENERATED_TILESET", "STATE_KEY", "TERRAIN_PROPERTY",
    "ExportReport", "ImportReport", "ImportResult", "LabelError", "ModelError", "TerrainMap", "TileTerrain",
    "TiledError", "export_geometry", "export_tiled", "hex_layout_size", "import_tiled", "load_terrain_map",
    "terrain_map_from_data", "tiled_map_to_scenario", "tileset_path",
]
