"""``adjutant import-tiled FILE [--terrain-map MAP.json] --out SCENARIO.json``
and ``adjutant export-tiled SCENARIO.json --out FILE.tmx|FILE.json``: Tiled
maps in and out (see ``docs/tiled.md`` and :mod:`engine.io.tiled`).  Both
write through the one safe writer (:mod:`engine.io.atomic`; a map and its
tileset together or not at all) and refuse ``--out`` naming an input unless
``--force``."""

from __future__ import annotations

import argparse

from engine.io import check_output, save_scenario
from engine.io.tiled import DEFAULT_TILE_SIZE, export_tiled, import_tiled, tileset_path
from engine.model import Scenario

from .common import EXIT_OK, CliError, add_json_flag, emit, load, writing_scenario

COMMANDS = {
    "import-tiled": "import a Tiled map (TMX or JSON; orthogonal or hexagonal) as a scenario",
    "export-tiled": "export a grid scenario as a Tiled map (TMX or JSON) with a generated tileset",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "import-tiled", help=COMMANDS["import-tiled"],
        description="Read a Tiled map (TMX, parsed safely, or Tiled JSON) and write an Adjutant scenario: an "
                    "orthogonal map becomes a square grid, a hexagonal map a hex grid (staggeraxis x: flat-top, "
                    "y: pointy-top; staggerindex: parity).  Tiles become terrain through a terrain map file or "
                    "the tiles' 'terrain' property; tiles neither names are reported.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--terrain-map", metavar="MAP.json", help="which tile ids are which terrain (docs/tiled.md)")
    p.add_argument("--layer", metavar="NAME", help="the tile layer to read (default: 'terrain', else the first)")
    p.add_argument("--strict", action="store_true", help="refuse a map with tiles no mapping or property names")
    p.add_argument("--out", required=True, metavar="SCENARIO.json")
    p.add_argument("--force", action="store_true", help="write OUT even when it is one of the input files")
    add_json_flag(p)
    p.set_defaults(func=run_import)

    p = sub.add_parser(
        "export-tiled", help=COMMANDS["export-tiled"],
        description="Write the scenario's map as a Tiled map: TMX for .tmx, Tiled JSON for .json/.tmj.  A "
                    "tileset image FILE-terrain.png (one tile per terrain type, each tile carrying a 'terrain' "
                    "property) is written beside it.  A map imported from Tiled keeps its own tilesets and "
                    "tiles, except for cells whose terrain changed.")
    p.add_argument("scenario", metavar="SCENARIO.json")
    p.add_argument("--out", required=True, metavar="FILE.tmx|FILE.json")
    p.add_argument("--tile-size", type=int, default=DEFAULT_TILE_SIZE, metavar="PIXELS",
                   help=f"square side or hex side of generated tiles (default {DEFAULT_TILE_SIZE})")
    p.add_argument("--generated", action="store_true",
                   help="always write the generated tileset, even for a map imported from Tiled")
    p.add_argument("--force", action="store_true", help="write OUT even when it is one of the input files")
    add_json_flag(p)
    p.set_defaults(func=run_export)


def run_import(args: argparse.Namespace) -> int:
    check_output(args.out, [args.file, args.terrain_map], args.force)
    with writing_scenario(args.out, "import-tiled", [args.file, args.terrain_map], args.force):
        result = import_tiled(args.file, args.terrain_map, layer=args.layer, strict=args.strict)
        check_output(args.out, result.inputs, args.force)
        save_scenario(result.scenario, args.out)
    r = result.report
    data = dict(r.to_dict(), out=args.out, terrain=[t.id for t in result.scenario.ruleset.terrain])

    def text() -> str:
        g = r.grid
        kind = (f"hex grid ({g['orientation']}-top, {g['parity']} parity)" if g["kind"] == "hex"
                else f"square grid ({g['neighbours']} neighbours)")
        lines = [(f"{args.out}: {r.width} x {r.height} {kind} from {r.orientation} Tiled map {args.file}, "
                  f"{len(result.scenario.ruleset.terrain)} terrain types")]
        lines += [f"  {t.describe()}" for t in r.tiles if t.how != "generated"]
        if r.unmapped:
            lines.append(f"  {len(r.unmapped)} tile id{'s' if len(r.unmapped) != 1 else ''} not mapped to a "
                         "terrain (no 'terrain' property, not in a terrain map); imported as new terrain types:")
            lines += [f"    {t.describe()}" for t in r.unmapped]
        lines += [f"  ignored: {x}" for x in r.ignored_layers] + [f"  note: {n}" for n in r.notes]
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    for out in (args.out, tileset_path(args.out)):
        check_output(out, [args.scenario], args.force)
    s = load(args.scenario)
    if not isinstance(s, Scenario):
        raise CliError(f"{args.scenario}: a territory map; Tiled export is for square and hex grids")
    if args.tile_size < 1 or args.tile_size > 1024:
        raise CliError(f"--tile-size {args.tile_size}: expected 1 to 1024 pixels")
    rep = export_tiled(s, args.out, tile_size=args.tile_size, generated=args.generated)
    data = rep.to_dict()
    emit(args, data, lambda: "\n".join(
        [f"{rep.path}: {rep.orientation} Tiled map ({rep.format.upper()}), {s.map.grid.width} x "
         f"{s.map.grid.height} tiles of {rep.tilewidth} x {rep.tileheight} px"
         + (f", staggeraxis {rep.staggeraxis}, staggerindex {rep.staggerindex}"
            if rep.orientation == "hexagonal" else "")]
        + ([f"  tileset image {rep.image}"] if rep.image else [])
        + (["  kept the tilesets and tiles of the Tiled import"] if rep.kept_tiles else [])
        + [f"  note: {n}" for n in rep.notes]))
    return EXIT_OK
