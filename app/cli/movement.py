"""``adjutant move``: the movement system configured in the scenario
(``docs/rules/movement.md``): a unit's reach with the points left, or the
verdict on one move with its cheapest path and cost per step."""

from __future__ import annotations

import argparse

from .common import EXIT_FAIL, EXIT_OK, CliError, add_json_flag, emit, load

COMMANDS = {
    "move": "movement system: a unit's reach with points left, or one move's path, cost per step and verdict",
    "los": "line of sight between two cells: every cell and side the line meets, the first that blocks and why",
}
"""The commands :func:`register` adds, with their one-line help."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("move", help=COMMANDS["move"],
                       description="Under the movement system configured in the scenario "
                                   "(ruleset.options.movement): without --to, every cell the unit can reach this "
                                   "turn with its cost, the points left and where it must stop; with --to, whether "
                                   "it may end its move there, the cheapest path with the cost of each step, and "
                                   "why not. Exit 1 when the move is refused.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--unit", required=True, metavar="ID", help="the moving unit's id")
    p.add_argument("--to", metavar="CELL", help="the cell to move to (a label or place name)")
    add_json_flag(p)
    p.set_defaults(func=run)

    p = sub.add_parser("los", help=COMMANDS["los"],
                       description="Checked line of sight from the centre of one cell to another on a square or hex "
                                   "map, by what ruleset.options.movement.sight says blocks (terrain, side "
                                   "features, heights): every cell and side the line crosses, touches at a corner "
                                   "or runs along (exactly), the first that blocks and why. Exit 1 when blocked.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--from", dest="start", required=True, metavar="CELL", help="the cell seen from")
    p.add_argument("--to", dest="end", required=True, metavar="CELL", help="the cell looked at")
    p.add_argument("--tie", choices=("either", "both"),
                   help="how a line exactly along a side or through a corner is resolved (default: the scenario's)")
    add_json_flag(p)
    p.set_defaults(func=run_los)


def run(args: argparse.Namespace) -> int:
    from engine.model import Scenario
    from engine.rules.movement import check_move, reach

    s = load(args.file)
    if not isinstance(s, Scenario):
        raise CliError(f"{args.file} is a territory map; the movement system plays on square and hex maps")
    u = s.unit(args.unit)
    r = reach(s, u)
    if args.to is None:
        data = r.to_data()

        def text() -> str:
            lines = [f"{u.name or u.id} ({u.id}, class {data['class']}) in {data['from']}: {data['allowance']} "
                     f"movement points, {len(data['reachable'])} cells in reach"]
            for c in data["reachable"]:
                flags = (["STOP"] if c["stop"] else []) + ([] if c["ok"] else [c["reason"]])
                lines.append(f"  {c['cell']}  cost {c['cost']}  left {c['left']}"
                             + (f"  ({'; '.join(flags)})" if flags else ""))
            return "\n".join(lines)

        emit(args, data, text)
        return EXIT_OK
    v = check_move(s, u, s.map.parse_label(args.to), r)
    vdata = v.to_data()

    def verdict_text() -> str:
        lines = [("yes: " if v.ok else "no: ") + "; ".join(v.reasons)]
        lines.extend(f"  {p.label}  +{p.to_data()['cost']} = {p.to_data()['total']}  ({p.why()})"
                     + ("  STOP" if p.stop else "") for p in v.path)
        return "\n".join(lines)

    emit(args, vdata, verdict_text)
    return EXIT_OK if v.ok else EXIT_FAIL


def run_los(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from engine.model import Scenario
    from engine.rules.movement import options_for
    from engine.sight import line_of_sight

    s = load(args.file)
    if not isinstance(s, Scenario):
        raise CliError(f"{args.file} is a territory map; line of sight is for square and hex maps")
    o = options_for(s)
    rules = o.sight.rules()
    if args.tie:
        rules = replace(rules, tie=args.tie)
    v = line_of_sight(s, s.map.parse_label(args.start), s.map.parse_label(args.end), rules, o.hexsides)
    data = v.to_data()

    def text() -> str:
        lines = [v.reason]
        for e in v.elements:
            tie = "" if e.how == "crosses" else f" ({e.how}, {e.ways} way{'s' if e.ways == 'both' else ''})"
            lines.append(f"  {e.kind} {e.label}{tie}" + (f"  BLOCKS: {e.blocks}" if e.blocks else ""))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK if v.clear else EXIT_FAIL
