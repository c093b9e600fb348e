"""``adjutant import-triplea GAME.xml [--polygons polygons.txt] [--centers
centers.txt] --out FILE [--force]``: a territory scenario from a TripleA map,
written through the one safe writer (:mod:`engine.io.atomic`); ``--out``
naming an input is refused unless ``--force``."""

from __future__ import annotations

import argparse

from engine.io import save_any
from engine.io.triplea import MAX_XML_BYTES, TripleAError, parse_centers, parse_game_xml, parse_polygons, to_scenario

from .common import EXIT_OK, CliError, add_json_flag, emit, writing_scenario

COMMANDS = {
    "import-triplea": "import a TripleA game XML (and its polygons.txt, centers.txt) as a territory map",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "import-triplea", help=COMMANDS["import-triplea"],
        description="Read territories, water flags, connections, production values, initial owners, canals, "
                    "impassable territories, unit types (movement, land/air/sea) and the starting unit placements "
                    "from a TripleA game XML (parsed safely: no entity expansion, no "
                    "external entities), shapes from polygons.txt and label points from centers.txt, and write "
                    "an Adjutant territory scenario.")
    p.add_argument("game", metavar="GAME.xml")
    p.add_argument("--polygons", metavar="polygons.txt")
    p.add_argument("--centers", metavar="centers.txt")
    p.add_argument("--wrap-x", action="store_true", help="the map wraps east-west (a world map)")
    p.add_argument("--rail-sharing", choices=("document", "alliances", "none"), default="document",
                   help="Module I rail-sharing groups: the document's (Germans+Italians; British, French, Americans "
                        "and Chinese; everyone else alone; the default), the game's alliances, or none")
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--force", action="store_true", help="write OUT even when it is one of the input files")
    add_json_flag(p)
    p.set_defaults(func=run)


def _read(path: str, limit: int = MAX_XML_BYTES) -> bytes:
    from engine.io.inputs import read_regular

    return read_regular(path, limit, lambda message: CliError(f"{path}: {message}"))


def _text(path: str) -> str:
    try:
        return _read(path).decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: not UTF-8 text (byte {e.start})") from None


def run(args: argparse.Namespace) -> int:
    with writing_scenario(args.out, "import-triplea", [args.game, args.polygons, args.centers], args.force):
        game = parse_game_xml(_read(args.game), args.game)
        polygons = parse_polygons(_text(args.polygons), args.polygons) if args.polygons else None
        centers = parse_centers(_text(args.centers), args.centers) if args.centers else None
        try:
            result = to_scenario(game, polygons, centers, wrap_x=args.wrap_x, rail_sharing=args.rail_sharing)
        except TripleAError as e:  # names the element or territory; say which file it came from
            raise CliError(f"{args.game}{' with ' + args.polygons if args.polygons else ''}: {e}") from None
        s = result.scenario
        save_any(s, args.out)
    m = s.map
    land = sum(1 for t in m.territories.values() if t.land)
    land_land = sum(1 for e in m.borders() if m.territories[e.a].land and m.territories[e.b].land)
    data = {"out": args.out, "name": s.name, "territories": len(m), "land": land, "sea": len(m) - land,
            "borders": len(m.borders()), "land_borders": land_land,
            "with_polygons": sum(1 for t in m.territories.values() if not t.shape.is_empty),
            "sides": [f.id for f in s.sides],
            "rail_sharing": s.ruleset.option("railroads", "sharing", []), "unit_types": len(s.ruleset.unit_types), "units": len(s.units),
            "warnings": result.warnings}
    emit(args, data, lambda: "\n".join(
        [(f"{args.out}: {data['territories']} territories ({land} land, {data['sea']} sea), "
          f"{data['borders']} borders ({land_land} land-land), {data['with_polygons']} with polygons, "
          f"{len(s.sides)} sides, {len(s.units)} units of {len(s.ruleset.unit_types)} unit types")]
        + [f"  warning: {w}" for w in result.warnings]))
    return EXIT_OK
