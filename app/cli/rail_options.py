"""``adjutant rail-options FILE --unit ID [--to TERRITORY] [--option N]``
or ``--nation N``: Axis & Allies "Rail Options 1–4" on a territory map.

``--nation N`` reports the nation's rail this turn: capacity and what is
used, Option 4 points, its stations with their damage (usable or why not),
its railroad markers, IPCs held and pieces bought but not placed.

Without ``--to``: every territory the unit can rail to this turn, with the
cost.  With it: the verdict, the path, the capacity the move uses (station,
nation, points) and, when refused, the reason (exit 1).  ``--option`` asks a
what-if under another option than the scenario's; ``--planned UNIT:TERRITORY``
(repeatable) first applies rail moves planned earlier this turn, so their
capacity is spent."""

from __future__ import annotations

import argparse
from typing import Any

from engine.rules.rail_options import OPTION_NAMES, RailOptionsAdjudicator, RailOptionsError, record_move

from .common import EXIT_FAIL, EXIT_OK, CliError, add_json_flag, emit, load_territory, require_system

COMMANDS = {
    "rail-options": "Axis & Allies Rail Options 1-4: where a unit can rail, or whether a rail move is allowed",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "rail-options", help=COMMANDS["rail-options"],
        description="Judge rail movement on a territory map under Axis & Allies 'Rail Options 1-4'. Without --to, "
                    "list every territory the unit can reach by rail this turn with the cost; with --to, the "
                    "verdict, the path and the capacity used (exit 1 when refused).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--unit", metavar="ID", help="the unit to rail (or --nation)")
    p.add_argument("--nation", metavar="N", help="report the nation's rail state instead (capacity, points, "
                                                 "stations and their damage, IPCs)")
    p.add_argument("--to", metavar="TERRITORY", help="destination territory (id or name)")
    p.add_argument("--option", type=int, choices=sorted(OPTION_NAMES), metavar="N",
                   help="rail option 1-4 (default: the scenario's ruleset.options.rail_options.option)")
    p.add_argument("--phase", choices=("noncombat", "combat"), default="noncombat",
                   help="the movement phase (default noncombat; combat needs the combat_move switch)")
    p.add_argument("--planned", action="append", default=[], metavar="UNIT:TERRITORY",
                   help="a rail move made earlier this turn, applied first (repeatable, in order)")
    add_json_flag(p)
    p.set_defaults(func=run)


def _capacity_text(data: dict[str, Any]) -> list[str]:
    out = []
    n = data.get("nation")
    if n is not None:
        out.append(f"  {n['name']} rail capacity: {n['used']} of {n['limit']} {n['unit']} used ({n['basis']})")
    st = data.get("station")
    if st is not None:
        out.append(f"  station {st['territory']}: {st['used']} of {st['limit']} units used")
    return out


def _nation(args: argparse.Namespace, s: Any) -> int:
    from engine.model import ModelError
    from engine.rules.rail_options import config_of
    from engine.rules.rail_options.economy import nation_report

    try:
        cfg = config_of(s.ruleset.options, args.option)
        data = nation_report(s, cfg, s.side(args.nation).id)
    except ModelError as e:
        raise CliError(f"{args.file}: {e}") from None

    def text() -> str:
        ipcs = "not recorded" if data["ipcs"] is None else str(data["ipcs"])
        lines = [f"{OPTION_NAMES[data['option']]}: {data['name']}, turn {data['turn']}: {ipcs} IPCs "
                 f"(income {data['income']})"]
        c = data["capacity"]
        if c is not None:
            lines.append(f"  rail capacity: {c['used']} of {c['limit']} {c['unit']} used ({c['basis']})")
        if data["technology"]:
            lines.append("  rail technology: yes")
        for st in data["stations"]:
            state = "usable" if st["usable"] else f"not usable: {st['reason']}"
            lines.append(f"  station {st['name']}: {st['damage']} damage marker{'s' if st['damage'] != 1 else ''}, "
                         f"{state}")
        lines.append(f"  railroad markers: {len(data['railroad'])}")
        if data["bought"]:
            lines.append("  bought, not placed: " + ", ".join(f"{n} {k}" for k, n in sorted(data["bought"].items())))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    s = load_territory(args.file, "rail options")
    require_system(s, "rail_options", args.file, "rail-options")
    if (args.unit is None) == (args.nation is None):
        raise CliError("give --unit ID (a rail move) or --nation N (the nation's rail state), not both")
    if args.nation is not None:
        return _nation(args, s)
    for i, item in enumerate(args.planned):
        unit, sep, to = item.partition(":")
        if not sep or not unit or not to:
            raise CliError(f"--planned {item!r}: expected UNIT:TERRITORY")
        v = RailOptionsAdjudicator(s, args.option, args.phase).judge(unit, to)
        if not v.allowed:
            raise CliError(f"planned move {i + 1} ({unit} to {to}) is refused: {v.reason}")
        try:
            record_move(s, v)
        except RailOptionsError as e:
            raise CliError(f"planned move {i + 1}: {e}") from None
    rules = RailOptionsAdjudicator(s, args.option, args.phase)
    if args.to is None:
        r = rules.reach(args.unit)
        data = r.to_data()

        def text() -> str:
            head = f"{data['option_name']}: {args.unit} from {data['from']}"
            if not r.destinations:
                return "\n".join([f"{head}: cannot rail: {r.reason}", *_capacity_text(data["capacity"])])
            lim = "any distance" if r.max_cost is None else f"at most {r.max_cost}"
            lines = [f"{head} ({lim}): {len(r.destinations)} territor{'ies' if len(r.destinations) != 1 else 'y'}"]
            width = max(len(d["territory"]) for d in data["destinations"])
            for d in data["destinations"]:
                pts = f", {d['points']} point{'s' if d['points'] != 1 else ''}" if r.option == 4 else ""
                cost = f"{d['cost']} space{'s' if d['cost'] != 1 else ''}{pts}"
                lines.append(f"  {d['territory']:<{width}}  {cost:<18}  " + " > ".join(d["path"]))
            return "\n".join(lines + _capacity_text(data["capacity"]))

        emit(args, data, text)
        return EXIT_OK
    v = rules.judge(args.unit, args.to)
    data = v.to_data()

    def vtext() -> str:
        lines = [f"{data['option_name']}: {'ALLOWED' if v.allowed else 'REFUSED'}: {v.reason}"]
        if data["path"]:
            lines.append("  path: " + " > ".join(data["path"]) + f" ({v.cost} space{'s' if v.cost != 1 else ''})")
        if v.allowed and data["uses"] is not None:
            u = data["uses"]
            lines.append(f"  uses: station {u['station'] or '-'}, {s.side(u['nation']).name}, "
                         f"{u['points']} capacity {'point' if v.option == 4 else 'unit'}"
                         f"{'s' if u['points'] != 1 else ''}")
        return "\n".join(lines + _capacity_text(data["capacity"]))

    emit(args, data, vtext)
    return EXIT_OK if v.allowed else EXIT_FAIL
