"""``adjutant export-vassal FILE --out GAME.vmod [--vassal 3.7|3.8]``: a grid
scenario as a VASSAL module (see ``docs/vassal.md``, :mod:`engine.io.vassal`
and :mod:`app.gui.vassal_export`).  The module is checked against VASSAL's
rules (:mod:`engine.io.vassal_check`) before it replaces ``--out``; a
refused export writes nothing."""

from __future__ import annotations

import argparse

from engine.io import ScenarioError, check_output, load_text_checked

from .common import EXIT_OK, CliError, add_json_flag, emit, gui_app

COMMANDS = {
    "export-vassal": "export a grid scenario as a VASSAL module (.vmod): board, grid and numbering, pieces, set-up",
    "check-vassal": "check VASSAL modules (.vmod) against the rules VASSAL's loader applies",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "export-vassal", help=COMMANDS["export-vassal"],
        description="Write a VASSAL module: the board drawn by Adjutant's renderer, a HexGrid or SquareGrid whose "
                    "cell centres are the drawn centres, the map's numbering as VASSAL's (every cell keeps its "
                    "label, or a warning says how many do not), one counter image per unit, a palette entry per "
                    "side and unit type, a prototype per side, the units at their starting cells and the sides "
                    "as player sides.  Territory maps are refused.  Rules are not exported: VASSAL checks none.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--out", required=True, metavar="GAME.vmod")
    p.add_argument("--vassal", choices=("3.7", "3.8"), default="3.7",
                   help="the VASSAL version to write for (default 3.7; 3.8 adds oblique hex numbering)")
    p.add_argument("--scale", type=int, default=None, metavar="PIXELS",
                   help="board pixels per cell (a square's side, a hex's width across the flats; default 64)")
    p.add_argument("--force", action="store_true", help="write OUT even when it is the input file")
    add_json_flag(p)
    p.set_defaults(func=run)

    p = sub.add_parser(
        "check-vassal", help=COMMANDS["check-vassal"],
        description="Check each module: the archive, moduledata's VassalVersion against the build file's name and "
                    "root, every element's class where it stands, piece-slot ids, piece definitions' escaping and "
                    "prototypes, images present, grids' attributes (docs/vassal.md).  Exit status 1 when any "
                    "module has a problem.")
    p.add_argument("files", nargs="+", metavar="GAME.vmod")
    add_json_flag(p)
    p.set_defaults(func=run_check)


def run(args: argparse.Namespace) -> int:
    check_output(args.out, [args.file], args.force)
    try:
        loaded = load_text_checked(args.file)
    except ScenarioError as e:
        raise CliError(f"{args.file}: cannot load ({len(e.problems)} problem{'s' if len(e.problems) != 1 else ''})",
                       [str(p) for p in e.problems]) from None
    from engine.io.vassal import DEFAULT_SCALE, VassalError, plan_module
    from engine.model import Scenario

    scale = DEFAULT_SCALE if args.scale is None else args.scale
    if not isinstance(loaded, Scenario):
        raise CliError(f"{args.file}: a territory map; nothing written.  VASSAL's module would need a region "
                       "per territory drawn to the territory's exact shape, which this export does not make; "
                       "export a square or hex grid map")
    try:
        plan = plan_module(loaded, scale, args.vassal)
    except VassalError as e:
        raise CliError(f"{args.file}: {e}; nothing written") from None
    app = gui_app()  # noqa: F841  (kept alive while painting)
    from app.gui.vassal_export import module_images
    from engine.io.vassal import write_module

    try:
        write_module(args.out, plan, module_images(loaded, plan))
    except VassalError as e:
        raise CliError(f"{args.out}: {e}; nothing written") from None
    data = dict(plan.to_dict(), file=args.file, out=args.out)

    def text() -> str:
        g = plan.grid
        lines = [f"{args.out}: VASSAL {plan.vassal_version} module, board {plan.width} x {plan.height} px, "
                 f"{'hex' if g.kind == 'hex' else 'square'} grid dx {g.dx:.4f} dy {g.dy:.4f} x0 {g.x0} y0 {g.y0}"
                 + (" sideways" if g.sideways else ""),
                 f"  numbering: {data['numbering']}; {len(plan.pieces)} units placed, {len(plan.palette)} palette "
                 f"entries, sides: {', '.join(plan.sides) or '(none)'}"]
        lines += [f"  warning: {w}" for w in plan.warnings]
        lines += [f"  note: {n}" for n in plan.notes()]
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    from engine.io.vassal_check import module_problems

    results = {f: module_problems(f) for f in args.files}
    bad = {f: p for f, p in results.items() if p}
    if bad:
        raise CliError(f"{len(bad)} of {len(results)} module{'s' if len(results) != 1 else ''} break VASSAL's rules",
                       [f"{f}: {p}" for f, probs in bad.items() for p in probs])
    emit(args, {"files": list(results), "problems": 0},
         "\n".join(f"{f}: passes (VASSAL's loader rules)" for f in results))
    return EXIT_OK
