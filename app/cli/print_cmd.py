"""``adjutant print FILE --hex-mm 16 --paper a4 --out map.pdf``: print a map
to PDF at exact scale, tiled over pages with overlap, registration crosses,
cut ticks and page labels (the plan is
:mod:`engine.printing`, the drawing :mod:`app.gui.print_pdf`).  A grid map
prints at a cell size (``--hex-mm``, ``--square-mm``, ``--cell-in``), a
territory map at a width of the whole map (``--width-mm``, ``--width-in``).
Written through the one safe writer; ``--out`` naming the input file is
refused unless ``--force``."""

from __future__ import annotations

import argparse

from engine.io import ScenarioError, check_output, load_text_checked
from engine.printing import PAPERS, PrintError, PrintSpec, cell_mm_from

from .common import EXIT_OK, CliError, add_json_flag, emit, gui_app

COMMANDS = {
    "print": "print a map to PDF at an exact hex or square size (territory maps: width), tiled over pages",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("print", help=COMMANDS["print"],
                       description="Print a square or hex map to a PDF at an exact cell size: a hex's width across "
                                   "its flats, or a square's side; a territory map at the printed width of the whole "
                                   "map. The map is tiled over pages of the chosen paper; "
                                   "neighbouring pages overlap, with registration crosses on the line where they "
                                   "join and cut ticks in the margins. Print the PDF at 100 % (no 'fit to page').")
    p.add_argument("file", metavar="FILE")
    size = p.add_mutually_exclusive_group(required=True)
    size.add_argument("--hex-mm", type=float, metavar="MM", help="hex width across the flats, in mm")
    size.add_argument("--square-mm", type=float, metavar="MM", help="square side, in mm")
    size.add_argument("--cell-in", type=float, metavar="IN", help="hex width across the flats or square side, in inches")
    size.add_argument("--width-mm", type=float, metavar="MM", help="territory maps: the whole map's printed width, in mm")
    size.add_argument("--width-in", type=float, metavar="IN",
                      help="territory maps: the whole map's printed width, in inches")
    p.add_argument("--paper", default="a4", metavar="PAPER",
                   help=f"paper: {', '.join(PAPERS)} or WIDTHxHEIGHT in mm (default a4)")
    p.add_argument("--landscape", action="store_true", help="pages in landscape")
    p.add_argument("--margin-mm", type=float, default=10.0, metavar="MM", help="blank margin round each page (10)")
    p.add_argument("--overlap-mm", type=float, default=10.0, metavar="MM", help="overlap of neighbouring pages (10)")
    p.add_argument("--labels", action="store_true", help="draw each cell's coordinate label")
    p.add_argument("--coordinates", action="store_true",
                   help="a coordinate margin: the labels of the cells along each page's top and left edges")
    p.add_argument("--out", required=True, metavar="OUT", help="the PDF file to write")
    p.add_argument("--force", action="store_true", help="write OUT even when it is one of the input files")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_output(args.out, [args.file], args.force)
    if not args.out.lower().endswith(".pdf"):
        raise CliError(f"--out {args.out}: the file name must end in .pdf")
    try:
        loaded = load_text_checked(args.file)
    except ScenarioError as e:
        raise CliError(f"{args.file}: cannot load ({len(e.problems)} problem{'s' if len(e.problems) != 1 else ''})",
                       [str(p) for p in e.problems]) from None
    from engine.model import Scenario

    width = args.width_mm if args.width_mm is not None else (
        cell_mm_from(args.width_in, "in") if args.width_in is not None else None)
    if not isinstance(loaded, Scenario):
        if width is None:
            raise CliError(f"{args.file} is a territory map: it has no cells; give the whole map's printed width "
                           f"(--width-mm or --width-in)")
        if args.labels or args.coordinates:
            raise CliError(f"{args.file} is a territory map: it has no cells to label (--labels, --coordinates); "
                           f"its territories' names are printed anyway")
        spec = PrintSpec(0.0, args.paper, args.landscape, args.margin_mm, args.overlap_mm, width_mm=width)
        kind = "territory"
    else:
        kind = loaded.map.grid.kind.value
        if width is not None:
            raise CliError(f"{args.file} is a {kind} map: it prints at a cell size; give "
                           f"{'--hex-mm' if kind == 'hex' else '--square-mm'} (or --cell-in), not --width-mm/--width-in")
        if args.hex_mm is not None and kind != "hex":
            raise CliError(f"{args.file} is a {kind} map: give --square-mm (or --cell-in), not --hex-mm")
        if args.square_mm is not None and kind != "square":
            raise CliError(f"{args.file} is a {kind} map: give --hex-mm (or --cell-in), not --square-mm")
        cell = args.hex_mm if args.hex_mm is not None else args.square_mm
        if cell is None:
            cell = cell_mm_from(args.cell_in, "in")
        spec = PrintSpec(cell, args.paper, args.landscape, args.margin_mm, args.overlap_mm, args.coordinates)
    app = gui_app()  # noqa: F841  (kept alive while painting)
    from app.gui.print_pdf import print_pdf

    try:
        pp = print_pdf(loaded, args.out, spec, labels=args.labels)
    except PrintError as e:
        raise CliError(str(e)) from None
    data = {"file": args.file, "out": args.out, "pages": len(pp.pages), "columns": pp.cols, "rows": pp.rows,
            "grid": kind, "paper": [round(pp.paper_w, 2), round(pp.paper_h, 2)],
            "map_mm": [round(pp.map_w, 1), round(pp.map_h, 1)], "overlap_mm": spec.overlap_mm,
            "margin_mm": spec.margin_mm}
    if kind == "territory":
        data.update(width_mm=spec.width_mm, mm_per_unit=round(pp.mm_per_unit, 6))
        at = f"{spec.width_mm:g} mm wide ({pp.mm_per_unit:.4g} mm a map unit)"
    else:
        data.update(cell_mm=spec.cell_mm)
        at = f"{spec.cell_mm:g} mm a {'hex' if kind == 'hex' else 'square'}"
    emit(args, data, f"{args.out}: {len(pp.pages)} page{'s' if len(pp.pages) != 1 else ''} ({pp.cols} x {pp.rows}) "
                     f"of {pp.paper_w:g} x {pp.paper_h:g} mm; the map is {pp.map_w:.0f} x {pp.map_h:.0f} mm at {at}")
    return EXIT_OK
