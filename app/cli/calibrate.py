"""``adjutant calibrate FILE --points POINTS.json``: fit a grid scenario's
grid to a scanned image from clicked points (the fitting is
:mod:`engine.calibration`).  Prints the transform, the residual per point
and the RMS; ``--write`` stores the calibration in the scenario's
``map.underlay`` record (``--image`` names the scan for a map that has no
underlay yet), saved atomically through :func:`engine.io.save_scenario`."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from engine.calibration import Calibration, CalibrationError, Underlay, calibrate, points_from_data
from engine.io import save_scenario
from engine.io.inputs import read_regular

from .common import EXIT_OK, CliError, Rewrite, add_json_flag, emit, load, rewriting_if

COMMANDS = {
    "calibrate": "fit the grid to a scanned image from clicked points (JSON): transform, residuals, RMS",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""

MAX_POINTS_BYTES = 16 * 1024 * 1024
"""A points file larger than this is refused (a few thousand clicks fit in far less)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("calibrate", help=COMMANDS["calibrate"])
    p.add_argument("file", metavar="FILE", help="a square or hex grid scenario")
    p.add_argument("--points", required=True, metavar="POINTS.json",
                   help='clicked points: a JSON list of {"x": .., "y": .., "label": ".."} (pixels, y down)')
    p.add_argument("--piecewise", action="store_true",
                   help="add the piecewise correction for scans whose hexes drift (see docs/cli.md)")
    p.add_argument("--write", action="store_true", help="store the calibration in FILE's map.underlay record")
    p.add_argument("--image", metavar="PATH",
                   help="with --write: the scan's path relative to FILE (needed when FILE has no underlay yet)")
    add_json_flag(p)
    p.set_defaults(func=run)


def read_points(path: str) -> Any:
    """The decoded JSON of the points file, or :class:`CliError` saying why not."""
    raw = read_regular(path, MAX_POINTS_BYTES, lambda message: CliError(f"{path}: {message}"))
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise CliError(f"{path}: not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise CliError(f"{path}: nested too deeply to be a list of points") from None
    except ValueError as e:  # an integer of more than 4300 digits
        raise CliError(f"{path}: not a list of points: {str(e).split(';')[0]}") from None


def text(cal: Calibration, path: str, written: bool) -> str:
    t = cal.affine
    d = t.describe()
    lines = [f"{path}: {len(cal.points)} points, {'piecewise' if cal.piecewise else 'affine'} fit",
             f"  transform  x' = {t.a:.6g} x + {t.b:.6g} y + {t.c:.6g}",
             f"             y' = {t.d:.6g} x + {t.e:.6g} y + {t.f:.6g}",
             f"  scale {d['scale_x']:.6g} x {d['scale_y']:.6g} px per cell unit, rotation "
             f"{d['rotation_degrees']:.4g} deg, skew {d['skew_degrees']:.4g} deg",
             "  residuals (affine fit, pixels; then the distance from a fit of the other points):"]
    for p, r, lo in zip(cal.points, cal.residuals, cal.leave_one_out()):
        lines.append(f"    {p.label:>8}  ({p.x:g}, {p.y:g})  {r:.3f}  {'-' if lo is None else f'{lo:.3f}'}")
    lines.append(f"  RMS {cal.rms:.3f} px")
    if cal.piecewise:
        lines.append("  piecewise correction on: the clicked points are met exactly")
    if written:
        lines.append(f"  stored in {path} (map.underlay)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    with rewriting_if(bool(args.write), args.file, "calibrate") as rw:
        return _run(args, rw)


def _run(args: argparse.Namespace, rw: Rewrite | None) -> int:
    s = load(args.file, rw)
    try:
        points = points_from_data(read_points(args.points), os.path.basename(args.points))
        cal = calibrate(s.map, points, args.piecewise)
    except CalibrationError as e:
        raise CliError(str(e)) from None
    if args.image is not None and (args.image.startswith(("/", "\\")) or "\\" in args.image
                                   or args.image[1:2] == ":" or not args.image):
        raise CliError(f"--image '{args.image}': give the scan's path relative to {args.file}, with '/' between folders")
    if args.write:
        if s.map.underlay is not None:
            underlay = Underlay.from_dict(s.map.underlay)
            if args.image is not None:
                underlay.image = args.image
        elif args.image is None:
            raise CliError(f"{args.file} has no underlay yet: give the scan's path relative to it with --image")
        else:
            underlay = Underlay(args.image)
        s.map.underlay = underlay.calibrated(cal).to_dict()
        rw.save(s) if rw is not None else save_scenario(s, args.file)
    elif args.image is not None:
        raise CliError("--image is only used with --write")
    data = {"file": args.file, **cal.report(), "written": bool(args.write)}
    emit(args, data, lambda: text(cal, args.file, args.write))
    return EXIT_OK
