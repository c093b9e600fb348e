"""``adjutant march FILE --unit ID --to LABEL [--via LABEL]``: a GITM
straight-line tactical move (shared seed 002), checked square by square."""

from __future__ import annotations

import argparse

from engine.grids import Cell
from engine.labels import NumericNumbering
from engine.model import Scenario
from engine.rules.gitm import MarchResult, march

from .common import EXIT_FAIL, EXIT_OK, add_json_flag, emit, load, require_system

PICTURE_MAX = 40
"""Widest/tallest move (in squares) the text output draws as a picture."""


COMMANDS = {
    "march": "GITM tactical move: is a straight-line march blocked by terrain or units?",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("march", help=COMMANDS["march"],
                       description="Check a GITM straight-line march from the unit's square to --to "
                                   "(through --via when given): the squares checked for terrain and units "
                                   "(T/U) and for units only (U), and what blocks it. Exit status 1 when blocked.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--unit", required=True, metavar="ID", help="the unit that marches (it starts where it stands)")
    p.add_argument("--to", required=True, metavar="LABEL", help="destination square (label or place name)")
    p.add_argument("--via", metavar="LABEL", help="optional waypoint: two straight lines, each checked")
    add_json_flag(p)
    p.set_defaults(func=run)


def picture(s: Scenario, r: MarchResult) -> str | None:
    """The move drawn like the document's graphics: the unit at its start,
    ``T/U`` and ``U`` squares, ``X`` on a blocking square, other units in
    lower case where nothing else is marked; ``None`` when the move is too
    large to draw."""
    cells = [r.start, *r.path, *(c.cell for c in r.checks)]
    c0, c1 = min(c.col for c in cells), max(c.col for c in cells)
    r0, r1 = min(c.row for c in cells), max(c.row for c in cells)
    if c1 - c0 >= PICTURE_MAX or r1 - r0 >= PICTURE_MAX:
        return None
    marks: dict[Cell, str] = {c.cell: c.kind for c in r.checks}
    if r.auto_success:
        marks.update({c: "*" for c in r.path[1:]})
    for b in r.blocks:
        for c in b.cells:
            marks[c] = "X"
    marks[r.start] = r.unit_id[:5]
    for v in s.units:  # other units where nothing else is drawn, in lower case
        if c0 <= v.at.col <= c1 and r0 <= v.at.row <= r1:
            marks.setdefault(v.at, v.id[:5].lower())
    num = s.map.numbering
    if isinstance(num, NumericNumbering) and num.order == "col-row":  # the document's layout: numbers on the edges
        col_head = [str(c + num.first) for c in range(c0, c1 + 1)]
        row_head = [str(rw + num.first) for rw in range(r0, r1 + 1)]
    else:  # full labels of the top row and the left column
        col_head = [s.map.label(Cell(c, r0)) for c in range(c0, c1 + 1)]
        row_head = [s.map.label(Cell(c0, rw)) for rw in range(r0, r1 + 1)]
    width = max(5, *(len(h) for h in col_head))
    lead = max(len(h) for h in row_head)
    rows = [" " * (lead + 1) + "".join(h.ljust(width + 1) for h in col_head).rstrip()]
    for head, row in zip(row_head, range(r0, r1 + 1), strict=True):
        line = "".join(marks.get(Cell(c, row), ".").ljust(width + 1) for c in range(c0, c1 + 1))
        rows.append(f"{head:>{lead}} {line}".rstrip())
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    s = load(args.file)
    require_system(s, "gitm", args.file, "march")
    unit = s.unit(args.unit)
    to = s.map.parse_label(args.to)
    via = s.map.parse_label(args.via) if args.via else None
    r = march(s, unit, to, via)
    data = r.to_data()

    def text() -> str:
        lines = [r.reason, "", f"  path:  {' '.join(data['path'])}"]
        for leg in data["legs"]:
            lines.append(f"  line {leg['from']} -> {leg['to']}: {leg['direction']}, {leg['steps']} step{'s' if leg['steps'] != 1 else ''}: "
                         + ", ".join(leg["positions"]))
        if not r.auto_success:
            lines.append("  T/U:   " + (" ".join(c["cell"] for c in data["checks"] if c["kind"] == "T/U") or "-"))
            lines.append("  U:     " + (" ".join(c["cell"] for c in data["checks"] if c["kind"] == "U") or "-"))
        for b in data["blocks"]:
            lines.append(f"  BLOCK {b['cell']} ({b['by']}): {b['reason']}")
        pic = picture(s, r)
        if pic:
            lines += ["", pic]
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_FAIL if r.blocked else EXIT_OK
