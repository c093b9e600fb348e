"""``adjutant rail FILE --unit ID --to LABEL [--control LABEL=SIDE]...``:
adjudicate a CWOL rail move (``docs/rules/cwol-rail.md``).

Exit 0 for every adjudicated verdict, "no valid path" included; exit 1 for
bad input (unknown unit, label off the map, unknown side, malformed
``--control``).
"""

from __future__ import annotations

import argparse

from engine.grids import Cell
from engine.model import ModelError, Scenario
from engine.rules.cwol_rail import RailMove, rail_move, with_control

from .common import EXIT_FAIL, EXIT_OK, add_json_flag, emit, load, require_system

NOBODY = ("none", "nobody", "-", ".")
"""``--control LABEL=none`` (or ``nobody``, ``-``, ``.``): nobody controls the
square, unless a side has that id or name."""


COMMANDS = {
    "rail": "CWOL rail move: arrive (<=40), stop after 40 (41-80) or stay (no path within 80)",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "rail", help=COMMANDS["rail"],
        description="Find the shortest rail path, held by the unit's side, from the unit to a square and say "
                    "what the CWOL 40/80-square rule makes of it. Exit 0 for any verdict, 1 for bad input.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--unit", required=True, metavar="ID", help="the unit that moves")
    p.add_argument("--to", required=True, metavar="LABEL", help="destination square (label or place name)")
    p.add_argument("--control", action="append", default=[], metavar="LABEL=SIDE",
                   help="for this question only, SIDE (id or name; 'none' for nobody) controls LABEL; repeatable")
    add_json_flag(p)
    p.set_defaults(func=run)


def parse_control(scenario: Scenario, items: list[str]) -> dict[Cell, str | None]:
    """``["E3-X1=Union", ...]`` as cells and side ids; raises
    :class:`ModelError` naming the bad item."""
    out: dict[Cell, str | None] = {}
    for item in items:
        label, sep, side = item.rpartition("=")
        if not sep or not label.strip() or not side.strip():
            raise ModelError(f"--control expects LABEL=SIDE (e.g. E3-X1=Union), got '{item}'")
        try:
            cell = scenario.map.parse_label(label.strip())
        except ModelError as e:
            raise ModelError(f"--control {item}: {e}") from None
        try:
            out[cell] = scenario.side(side.strip()).id
        except ModelError as e:
            if side.strip().casefold() in NOBODY:
                out[cell] = None
            else:
                raise ModelError(f"--control {item}: {e}") from None
    return out


def as_text(s: Scenario, r: RailMove) -> str:
    lab = s.map.label
    lines = [r.headline, f"  reason: {r.reason}"]
    if r.path is not None:
        lines.append("  path:   " + " ".join(lab(c) for c in r.path))
    if r.ties:
        lines.append("  ties:   " + " ".join(lab(c) for c in r.ties) + " (the verdict is not unique)")
    if r.blocked and r.status == "no_valid_path":
        shown = " ".join(lab(c) for c in r.blocked[:12]) + (" …" if len(r.blocked) > 12 else "")
        lines.append(f"  refused rail squares next to the network searched: {shown}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    s = load(args.file)
    require_system(s, "cwol_rail", args.file, "rail")
    unit = s.unit(args.unit)
    dest = s.map.parse_label(args.to)
    changes = parse_control(s, args.control)
    if changes:
        s = with_control(s, changes)
    r = rail_move(s, unit.id, dest)
    emit(args, r.to_data(), lambda: as_text(s, r))
    # like every rules command: 0 when the unit moves, 1 when the rules say no
    return EXIT_FAIL if r.status == "no_valid_path" else EXIT_OK
