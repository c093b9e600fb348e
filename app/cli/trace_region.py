"""``adjutant trace-region FILE --image scan.png --at X,Y [--new ID --name NAME
--write]``: trace a territory's outline from a scan by flood fill of the
colour clicked (territory maps; :func:`engine.tracing.trace_region`),
as TripleA's polygon grabber does.

The scan's pixels map to map units by ``--scale`` (pixels per map unit;
default: the image's width over the map's) and ``--offset`` (the pixel of
the map's origin; default 0,0).  The outline is snapped onto the outlines of
the territories within 2 pixels of it (the fill stops half a border line
short of them).  Prints the outline's area, bounds, number
of corners and the territories it overlaps; ``--new ID --name NAME``
adds it as a new land territory (``--sea``: a sea zone) with ordinary
borders to the territories it touches, saved with ``--write``: an ordinary
territory from then on, edited like any other."""

from __future__ import annotations

import argparse
from typing import Any

from .common import EXIT_OK, CliError, Rewrite, add_json_flag, emit, load_territory, rewriting_if

COMMANDS = {
    "trace-region": "trace a territory's outline from a scan by flood fill of the colour clicked",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""

MAX_OVERLAP = 0.01
"""A new territory may overlap the others by at most this share of its area."""


def _pair(text: str, what: str) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in text.split(","))
    except ValueError:
        raise CliError(f"{what} '{text}': give two numbers as X,Y") from None
    return a, b


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("trace-region", help=COMMANDS["trace-region"],
                       description="Flood-fill the colour at a pixel of a scanned territory map (within a colour "
                                   "tolerance in CIELAB, holes such as printed names filled) and give its outline "
                                   "in map units; add it as a new territory with --new and --write.")
    p.add_argument("file", metavar="FILE", help="a territory scenario")
    p.add_argument("--image", required=True, metavar="SCAN", help="the scanned map (PNG, JPEG, TIFF)")
    p.add_argument("--at", required=True, metavar="X,Y", help="the pixel clicked inside the region")
    p.add_argument("--scale", type=float, default=None, metavar="PX",
                   help="image pixels per map unit (default: the image's width over the map's)")
    p.add_argument("--offset", default="0,0", metavar="X,Y", help="the image pixel of the map's origin (0,0)")
    p.add_argument("--tolerance", type=float, default=None, metavar="DE",
                   help="colour difference (CIE76 delta E) still counted as the region's (default 8)")
    p.add_argument("--new", metavar="ID", help="add the outline as a new territory with this id")
    p.add_argument("--name", metavar="NAME", help="with --new: its name")
    p.add_argument("--sea", action="store_true", help="with --new: a sea zone")
    p.add_argument("--write", action="store_true", help="with --new: save FILE")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with rewriting_if(bool(args.write and args.new), args.file, "trace-region") as rw:
        return _run(args, rw)


def _run(args: argparse.Namespace, rw: Rewrite | None) -> int:
    from engine.editing.territory import apply_edits as apply_territory_edits
    from engine.editing.territory import plan_add_territory
    from engine.io import save_any
    from engine.model import ModelError
    from engine.territory import Territory
    from engine.tracing import REGION_TOLERANCE, TraceError, snap_to, trace_region

    from .trace import read_image

    s = load_territory(args.file, "traced territories", rw)
    if args.write and not args.new:
        raise CliError("--write saves a new territory: give --new ID and --name NAME")
    if args.new and not args.name:
        raise CliError("--new needs --name NAME")
    image = read_image(args.image)
    h, w = image.shape[:2]
    scale = args.scale if args.scale is not None else w / max(1e-9, float(s.map.width))
    if not scale > 0:
        raise CliError(f"--scale {scale:g}: give a positive number of pixels per map unit")
    ox, oy = _pair(args.offset, "--offset")
    x, y = _pair(args.at, "--at")
    tol = REGION_TOLERANCE if args.tolerance is None else args.tolerance
    if not 0 < tol <= 100:
        raise CliError(f"--tolerance {tol:g}: give a colour difference from 0 to 100")
    try:
        shape = trace_region(image, x, y, (1 / scale, 0.0, -ox / scale, 0.0, 1 / scale, -oy / scale), tol)
    except TraceError as e:
        raise CliError(f"{args.image}: {e}") from None
    # onto the neighbours' outlines within 2 pixels (the border line the fill stopped at)
    shape = snap_to(shape, [t.shape for t in s.map.territories.values()], 2.0 / scale)
    overlaps = {t.name: round(float(shape.intersection(t.shape).area), 3) for t in s.map.territories.values()
                if not t.shape.is_empty and shape.intersects(t.shape) and shape.intersection(t.shape).area > 0}
    corners = sum(len(g.exterior.coords) - 1 for g in getattr(shape, "geoms", [shape]))
    data: dict[str, Any] = {"file": args.file, "image": args.image, "at": [x, y], "area": round(float(shape.area), 3),
                            "bounds": [round(v, 3) for v in shape.bounds], "corners": corners,
                            "overlaps": overlaps, "added": None, "written": False}
    if args.new:
        over = sum(overlaps.values())
        if over > MAX_OVERLAP * shape.area:
            raise CliError(f"the traced region overlaps {', '.join(overlaps)} by {over:.3g} map units² "
                           f"({100 * over / shape.area:.0f} % of it): trace inside an untraced region")
        try:
            edit = plan_add_territory(s, Territory(args.new, args.name, sea=args.sea, shape=shape))
        except ModelError as e:
            raise CliError(str(e)) from None
        apply_territory_edits(s, [edit])
        data["added"] = {"id": args.new, "name": args.name, "neighbours": list(edit.neighbours)}
        if args.write:
            rw.save(s) if rw is not None else save_any(s, args.file)
            data["written"] = True

    def text() -> str:
        lines = [f"{args.image} at ({x:g}, {y:g}): a region of {data['area']:g} map units², {corners} corners, "
                 f"bounds {data['bounds']}"]
        if overlaps:
            lines.append("  overlaps " + ", ".join(f"{k} ({v:g})" for k, v in overlaps.items()))
        if data["added"]:
            nb = data["added"]["neighbours"]
            lines.append(f"  added territory {args.new} '{args.name}' bordering {', '.join(nb) or 'none'}"
                         f"{'; saved' if data['written'] else ' (not saved: --write)'}")
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK
