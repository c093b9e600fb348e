"""``adjutant render FILE --out map.png|map.svg [--force]``: draw the whole
map headless, with the editor's own renderers (:mod:`app.gui.export`).  The
image is written through the one safe writer (:mod:`engine.io.atomic`);
``--out`` naming the input file is refused unless ``--force``."""

from __future__ import annotations

import argparse
from typing import Any

from engine.io import ScenarioError, check_output, load_text_checked

from .common import EXIT_OK, CliError, add_json_flag, emit, gui_app

COMMANDS = {
    "render": "draw a map (grid or territory) to a PNG or SVG file",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("render", help=COMMANDS["render"],
                       description="Draw the whole map of a scenario to an image, as the editor draws it: a "
                                   "square or hex grid (terrain, control, rivers, roads, rail, places, units) or a "
                                   "territory map (territories, borders, rail, labels, units). "
                                   "Needs no display (uses Qt's offscreen platform unless QT_QPA_PLATFORM is set). "
                                   "Images over 64 Mpx or 32000 pixels a side are refused.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--out", required=True, metavar="OUT", help="output file, ending in .png or .svg")
    p.add_argument("--scale", type=float, default=None, metavar="N",
                   help="pixels per cell (default 24; 40 with --labels); on a territory map pixels per map unit "
                        "(default: the map fitted to 2000 pixels)")
    p.add_argument("--labels", action="store_true", help="draw each cell's coordinate label (needs --scale 40 or more)")
    p.add_argument("--force", action="store_true", help="write OUT even when it is one of the input files")
    add_json_flag(p)
    p.set_defaults(func=run)


MAX_SCALE = 4096
"""Largest --scale (pixels per cell) read; the image size limits apply after it."""


def run(args: argparse.Namespace) -> int:
    check_output(args.out, [args.file], args.force)
    if args.scale is not None and not 0 < args.scale <= MAX_SCALE:  # also NaN and infinities
        raise CliError(f"--scale {args.scale:g}: pixels per cell must be more than 0 and at most {MAX_SCALE}")
    try:
        loaded = load_text_checked(args.file)
    except ScenarioError as e:
        raise CliError(f"{args.file}: cannot load ({len(e.problems)} problem{'s' if len(e.problems) != 1 else ''})",
                       [str(p) for p in e.problems]) from None
    from engine.model import Scenario

    app = gui_app()  # noqa: F841  (kept alive while painting)
    from app.gui import export

    if not isinstance(loaded, Scenario):
        return _territory(args, loaded, export)

    scale = args.scale
    if scale is None:
        scale = export.LABEL_SCALE if args.labels else export.DEFAULT_SCALE
    if args.labels and scale < export.LABEL_SCALE:
        raise CliError(f"--labels needs --scale {export.LABEL_SCALE} or more (labels are not legible below "
                       f"{export.LABEL_SCALE} pixels per cell); --scale is {scale:g}")
    try:
        w, h = export.export_map(loaded, args.out, scale, labels=args.labels)
    except export.ExportError as e:
        raise CliError(str(e)) from None
    m = loaded.map
    data = {"file": args.file, "out": args.out, "format": export.export_format(args.out), "width": w, "height": h,
            "scale": scale, "labels": bool(args.labels), "grid": m.grid.kind.value,
            "columns": m.width, "rows": m.height}
    emit(args, data, f"{args.out}: {w} x {h} pixels ({m.width} x {m.height} {m.grid.kind.value} map, "
                     f"{scale:g} px per cell)")
    return EXIT_OK


def _territory(args: argparse.Namespace, loaded: Any, export: Any) -> int:
    """``render`` of a territory map (``app.gui.export.export_territory_map``)."""
    if args.labels:
        raise CliError(f"{args.file}: --labels is for grid maps (a territory map's names are always drawn)")
    try:
        w, h = export.export_territory_map(loaded, args.out, args.scale)
    except export.ExportError as e:
        raise CliError(str(e)) from None
    data = {"file": args.file, "out": args.out, "format": export.export_format(args.out), "width": w, "height": h,
            "scale": w / loaded.map.width, "territories": len(loaded.map), "map": "territory"}
    emit(args, data, f"{args.out}: {w} x {h} pixels (territory map of {len(loaded.map)} territories)")
    return EXIT_OK
