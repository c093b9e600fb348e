"""``adjutant trace FILE --image scan.png --samples SAMPLES.json [--points
POINTS.json] [--write]``: classify every cell's terrain from a calibrated
scan (the tracing is :mod:`engine.tracing`).

The calibration is ``--points`` (clicked cells, as ``adjutant calibrate``
reads them) or the one stored in FILE's ``map.underlay``.  SAMPLES.json maps
a terrain id to its samples: pixels clicked on the scan (``[x, y]``) or
colours (``"#rrggbb"``).  Prints the cells per terrain, how many differ from
FILE's terrain and the uncertain cells by label; ``--write`` paints the
trace into FILE (cells whose ring leaves the image are left alone), saved
atomically."""

from __future__ import annotations

import argparse
import os
import re
from typing import Any

from .calibrate import read_points
from .common import EXIT_OK, CliError, Rewrite, add_json_flag, emit, load, rewriting_if

COMMANDS = {
    "trace": "classify each cell's terrain from a calibrated scan, from colour samples (JSON)",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""

MAX_PIXELS = 150_000_000
"""A larger scan is refused (it is read whole: 450 MB of RGB)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("trace", help=COMMANDS["trace"],
                       description="Classify each cell of a square or hex map by its colour on a calibrated scan: "
                                   "the median of a ring round the cell's centre, nearest (CIELAB) to the terrains' "
                                   "samples; cells whose nearest terrain is not clearly nearest are listed as "
                                   "uncertain. Rivers, roads and rail are not traced.")
    p.add_argument("file", metavar="FILE", help="a square or hex grid scenario")
    p.add_argument("--image", required=True, metavar="SCAN", help="the scanned map (PNG, JPEG, TIFF)")
    p.add_argument("--samples", required=True, metavar="SAMPLES.json",
                   help='terrain id -> samples: [x, y] pixels of the scan or "#rrggbb" colours')
    p.add_argument("--points", metavar="POINTS.json",
                   help="clicked points calibrating the scan (as adjutant calibrate); default: FILE's underlay")
    p.add_argument("--piecewise", action="store_true", help="with --points: the piecewise correction")
    p.add_argument("--min-confidence", type=float, default=None, metavar="C",
                   help="cells below this confidence (0-1, default 0.35) are uncertain")
    p.add_argument("--write", action="store_true", help="paint the traced terrain into FILE")
    add_json_flag(p)
    p.set_defaults(func=run)


def read_image(path: str) -> Any:
    """The scan as an (h, w, 3) RGB array (read-only), or CliError.  Read
    with libvips (``pyvips``), which has no image size limit of its own
    (Qt's stops at 256 MB, a 67 Mpx scan as 32-bit pixels): the limit is
    :data:`MAX_PIXELS`, checked from the header before any pixel is
    decoded.  Grey scans become RGB, an alpha channel is dropped and
    16-bit samples are brought to 8 bits."""
    import stat

    import numpy as np
    import pyvips

    from engine.io.inputs import refuse_kind

    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise CliError(f"{path}: no such image file") from None
    except OSError as e:
        raise CliError(f"{path}: cannot read: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise CliError(f"{path}: is a folder, not an image file")
    why = refuse_kind(st.st_mode)
    if why is not None:
        raise CliError(f"{path}: {why}")
    try:
        im = pyvips.Image.new_from_file(path, access="sequential")
        w, h = im.width, im.height
        if w * h > MAX_PIXELS:
            raise CliError(f"{path}: {w} x {h} pixels is more than the {MAX_PIXELS // 1_000_000} Mpx a trace reads")
        if im.interpretation in ("b-w", "grey16", "rgb16") or im.bands < 3:
            im = im.colourspace("srgb")
        if im.bands > 3:
            im = im.extract_band(0, n=3)
        if im.format != "uchar":
            im = im.cast("uchar")
        data = im.write_to_memory()
    except pyvips.Error as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else "unknown error"
        raise CliError(f"{path}: not an image that can be read ({first})") from None
    return np.frombuffer(data, np.uint8).reshape(h, w, 3)


def _samples(data: Any, where: str, s: Any, image: Any) -> dict[int, list[list[float]]]:
    from engine.tracing import TraceError, pixel_samples

    if not isinstance(data, dict):
        raise CliError(f"{where}: must be an object: terrain id -> list of [x, y] pixels or \"#rrggbb\" colours")
    ids = {t.id: i for i, t in enumerate(s.ruleset.terrain)}
    out: dict[int, list[list[float]]] = {}
    for name, items in data.items():
        if name not in ids:
            raise CliError(f"{where}: unknown terrain '{name}' (this map's terrains: {', '.join(ids)})")
        if not isinstance(items, list) or not items:
            raise CliError(f"{where}.{name}: give a non-empty list of [x, y] pixels or \"#rrggbb\" colours")
        colours: list[list[float]] = []
        pixels: list[Any] = []
        for j, it in enumerate(items):
            if isinstance(it, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", it):
                colours.append([int(it[k:k + 2], 16) for k in (1, 3, 5)])
            elif isinstance(it, list) and len(it) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                              for v in it):
                pixels.append(it)
            else:
                raise CliError(f"{where}.{name}[{j}]: {it!r} is neither [x, y] nor \"#rrggbb\"")
        try:
            colours += pixel_samples(image, pixels, f"{where}.{name}")
        except TraceError as e:
            raise CliError(str(e)) from None
        out[ids[name]] = colours
    return out


def run(args: argparse.Namespace) -> int:
    with rewriting_if(bool(args.write), args.file, "trace") as rw:
        return _run(args, rw)


def _run(args: argparse.Namespace, rw: Rewrite | None) -> int:
    import numpy as np

    from engine.calibration import CalibrationError, Underlay, calibrate, points_from_data
    from engine.editing import apply_edits
    from engine.io import save_scenario
    from engine.tracing import MIN_CONFIDENCE, TraceError, plan_trace, trace

    s = load(args.file, rw)
    samples_data = read_points(args.samples)
    try:
        if args.points is not None:
            cal = calibrate(s.map, points_from_data(read_points(args.points), os.path.basename(args.points)),
                            args.piecewise)
        elif s.map.underlay is not None and Underlay.from_dict(s.map.underlay).transform is not None:
            cal = Underlay.from_dict(s.map.underlay).calibration(s.map)
        else:
            raise CliError(f"{args.file} has no calibrated underlay: give --points (see adjutant calibrate)")
    except CalibrationError as e:
        raise CliError(str(e)) from None
    conf = MIN_CONFIDENCE if args.min_confidence is None else args.min_confidence
    if not 0.0 <= conf <= 1.0:
        raise CliError(f"--min-confidence {conf:g}: give a number from 0 to 1")
    image = read_image(args.image)
    samples = _samples(samples_data, os.path.basename(args.samples), s, image)
    try:
        result = trace(image, cal, samples, min_confidence=conf)
    except TraceError as e:
        raise CliError(str(e)) from None
    names = [t.id for t in s.ruleset.terrain]
    counts = result.counts(names)
    changed = int((result.terrain != s.map.terrain).sum())
    if args.write:
        apply_edits(s, plan_trace(s, result))
        rw.save(s) if rw is not None else save_scenario(s, args.file)
    uncertain = [s.map.label(c) for c in result.uncertain]
    data = {"file": args.file, "image": args.image, "cells": int(result.terrain.size), "counts": counts,
            "changed": changed, "uncertain": uncertain, "off_image": [s.map.label(c) for c in result.off_image],
            "mean_confidence": round(float(np.mean(result.confidence)), 4), "written": bool(args.write)}

    def text() -> str:
        lines = [f"{args.file}: {result.terrain.size} cells traced from {args.image}: "
                 + ", ".join(f"{k} {v}" for k, v in counts.items()),
                 f"  {changed} differ from the map{' (written)' if args.write else ''}; "
                 f"{len(uncertain)} uncertain{': ' + ', '.join(uncertain[:40]) if uncertain else ''}"
                 f"{' ...' if len(uncertain) > 40 else ''}"]
        if result.off_image:
            lines.append(f"  {len(result.off_image)} cells lie partly off the image and are left as they are")
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK
