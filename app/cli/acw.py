"""``adjutant reach``, ``adjutant stacking`` and ``adjutant combat``: the
rules of "A Short ACW Campaign" (``docs/rules/acw.md``)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

from engine.rules.acw import (
    AcwOptions,
    battle,
    default_options,
    options_for,
    over_limit,
    reach,
    resolve,
)
from engine.rules.acw.combat import DEFENDER_TERRAINS, defence_multiplier, fmt
from engine.rules.acw.options import READINGS
from engine.rules.acw.units import display_name

from .common import EXIT_FAIL, EXIT_OK, CliError, add_json_flag, emit, load, require_system

COMMANDS = {
    "reach": "ACW: every hex a unit can reach this turn, its cost, and where it must halt",
    "stacking": "ACW: every hex over the stacking limit, with its units",
    "combat": "ACW: resolve a combat by the post-time procedure",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("reach", help=COMMANDS["reach"],
                       description="List the hexes a unit can move to this turn under the ACW rules: terrain and "
                                   "river costs, bridges, and the hexes next to the enemy where it must halt.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--unit", required=True, metavar="ID", help="the moving unit's id")
    add_json_flag(p)
    p.set_defaults(func=run_reach)

    p = sub.add_parser("stacking", help=COMMANDS["stacking"],
                       description="Check the stacking limit (3 infantry or cavalry per hex; artillery and HQ "
                                   "stack on top). Exit 1 when some hex is over the limit.")
    p.add_argument("file", metavar="FILE")
    add_json_flag(p)
    p.set_defaults(func=run_stacking)

    p = sub.add_parser("combat", help=COMMANDS["combat"],
                       description="Resolve a combat from factors (--attacker, --defender) or from a scenario "
                                   "(FILE --attack HEX --defend HEX), at the attack post's time.")
    p.add_argument("file", metavar="FILE", nargs="?", help="scenario; with --attack/--defend the units there fight")
    p.add_argument("--attacker", type=int, metavar="N", help="attacking factors (without FILE)")
    p.add_argument("--defender", type=int, metavar="N", help="defending factors as they stand (without FILE)")
    p.add_argument("--defender-terrain", choices=DEFENDER_TERRAINS, default="open",
                   help="what the defender is in or behind (without FILE): woods and river double, fort x1.5")
    p.add_argument("--attack", action="append", metavar="HEX", help="an attacking hex (FILE; may be repeated)")
    p.add_argument("--defend", metavar="HEX", help="the defended hex (FILE)")
    p.add_argument("--withdraw", action="append", default=[], metavar="ID",
                   help="defending cavalry that takes its option to retreat 1 hex before the battle")
    p.add_argument("--time", required=True, metavar="H:MM:SS", help="the attack post's time, e.g. 9:51:45")
    p.add_argument("--reading", choices=sorted(READINGS),
                   help="decimal places of the square root: 'example' (9th and 10th, default) or 'text' "
                        "(8th and 9th)")
    p.add_argument("--victory-quotient", choices=("exact", "one_decimal"),
                   help="round 100/total to one decimal before multiplying (as the example writes 3.7)")
    p.add_argument("--apply", action="store_true",
                   help="(FILE) give the attack as an order of the game: casualties taken, the loser's retreat "
                        "owed, journalled, the file written (as adjutant orders does)")
    add_json_flag(p)
    p.set_defaults(func=run_combat)


# ---------------------------------------------------------------------------

def run_reach(args: argparse.Namespace) -> int:
    s = load(args.file)
    require_system(s, "acw", args.file, "reach")
    u = s.unit(args.unit)
    r = reach(s, u)
    lab = s.map.label
    data = r.to_data()
    hexes: list[dict[str, Any]] = data["reachable"]

    def text() -> str:
        lines = [f"{display_name(u)} ({u.id}) in {lab(u.at)}: {r.allowance} movement points, "
                 f"{len(hexes)} hexes in reach" + (" (moving gives up its fortifications)"
                                                   if u.props.get("fortified") else "")]
        for h in hexes:
            flags = []
            if h["halt"]:
                flags.append("HALT: next to the enemy")
            flags.extend(f"{c['kind']} into {c['into']}" for c in h["crossings"])
            if not h["ok"]:
                flags.append(h["reason"])
            lines.append(f"  {h['hex']}  cost {h['cost']}  left {h['left']}" + (f"  ({'; '.join(flags)})"
                                                                                  if flags else ""))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def run_stacking(args: argparse.Namespace) -> int:
    s = load(args.file)
    require_system(s, "acw", args.file, "stacking")
    over = over_limit(s)
    limit = options_for(s).stack_limit
    data = {"ok": not over, "limit": limit,
            "over": [{**st.to_data(), "units": [{"id": i, "name": display_name(s.unit(i))}
                                                  for i in st.counted + st.on_top]} for st in over]}

    def text() -> str:
        if not over:
            return f"stacking: every hex holds at most {limit} infantry/cavalry units"
        lines = [f"stacking: {len(over)} hex{'es' if len(over) > 1 else ''} over the limit of {limit}"]
        for st in over:
            lines.append(f"  {st.reason}")
            lines.extend(f"    {i}  {display_name(s.unit(i))}" for i in st.counted + st.on_top)
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK if not over else EXIT_FAIL


def _with_flags(o: AcwOptions, args: argparse.Namespace) -> AcwOptions:
    if args.reading:
        o = replace(o, result_places=READINGS[args.reading])
    if args.victory_quotient:
        o = replace(o, victory_quotient=args.victory_quotient)
    return o


def _combat_text(d: dict[str, Any]) -> list[str]:
    return [(f"Victory number {d['victory_number']}, result number {d['result_number']:02d}: the {d['winner']} wins "
            f"(difference {d['difference']})."),
            (f"Casualties: winner {d['winner_casualties']}, loser {d['loser_casualties']} "
            f"(row {d['casualty_row']['difference']}: W{d['casualty_row']['winner_rate']} "
            f"L{d['casualty_row']['loser_rate']}; basic rate {d['basic_casualty_rate']})."),
            *(f"  {st}" for st in d["steps"])]


def run_combat(args: argparse.Namespace) -> int:
    if args.file is None:
        if args.attack or args.defend:
            raise CliError("--attack and --defend need a scenario FILE")
        if args.attacker is None or args.defender is None:
            raise CliError("give --attacker N and --defender N (or a scenario FILE with --attack and --defend)")
        if args.withdraw:
            raise CliError("--withdraw needs a scenario FILE")
        o = _with_flags(default_options(), args)
        mult = defence_multiplier([args.defender_terrain], o)
        c = resolve(args.attacker, args.defender, args.time, multiplier=mult, options=o)
        data: dict[str, Any] = c.to_data()
        data["defender_terrain"] = args.defender_terrain
        data["multiplier"] = fmt(Fraction(mult))
        emit(args, data, lambda: "\n".join(_combat_text(data)))
        return EXIT_OK
    if args.attacker is not None or args.defender is not None or args.defender_terrain != "open":
        raise CliError("with a scenario FILE the factors come from the units: use --attack HEX and --defend HEX "
                       "instead of --attacker/--defender/--defender-terrain")
    if not args.attack or not args.defend:
        raise CliError("with a scenario FILE give --attack HEX (one or more) and --defend HEX")
    if args.apply:
        return _apply_combat(args)
    s = load(args.file)
    require_system(s, "acw", args.file, "combat")
    o = _with_flags(options_for(s), args)
    attack = [s.map.parse_label(h) for h in args.attack]
    defend = s.map.parse_label(args.defend)
    b = battle(s, attack, defend, args.time, withdrawn=args.withdraw, options=o)
    data = cast(dict[str, Any], b.to_data())

    def text() -> str:
        lines = [f"Attack from {', '.join(data['attack'])} on {data['defend']}"]
        for key, title in (("attackers", "attackers"), ("defenders", "defenders")):
            lines.append(f"  {title}: " + ", ".join(
                f"{p['name']} {p['factors']}" + (f" x{p['multiplier']} ({'+'.join(p['advantages'])})"
                                                  if p["multiplier"] != "1" else "")
                for p in data[key]))
        for c in data["cavalry_options"]:
            lines.append(f"  OPTION: {c['reason']}")
        if data["withdrawn"]:
            lines.append(f"  withdrawn before the battle: {', '.join(data['withdrawn'])}")
        if b.combat is None:
            lines.append(data["reason"])
            return "\n".join(lines)
        lines.extend(_combat_text(data))
        for key in ("attacker_losses", "defender_losses"):
            for x in data[key]:
                if x["lost"]:
                    lines.append(f"  {x['name']}: {x['before']} -> {x['after']}"
                                 + (" (eliminated)" if x["eliminated"] else ""))
        for r in data["retreats"]:
            lines.append(f"  retreat: {r['reason']}")
            lines.extend(f"    {h['reason']}" for h in r["hexes"])
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def _apply_combat(args: argparse.Namespace) -> int:
    """``--apply``: the attack given to the game through the same path as
    ``adjutant orders`` (checked, journalled, the file written)."""
    from .common import rewriting
    from .orders import entry_line, load_game, save_game, turn_line

    if args.withdraw or args.reading or args.victory_quotient:
        raise CliError("--apply plays by the file's rules: --withdraw, --reading and --victory-quotient are for a "
                       "preview (a cavalry's withdrawal is its own order: {\"withdraw\": ID, \"to\": HEX})")
    with rewriting(args.file, "acw-combat") as rw:
        game = load_game(args.file, rewrite=rw)
        require_system(game.scenario, "acw", args.file, "combat --apply")
        hexes = list(args.attack)  # one hex as a text, as an orders file and the editor give it
        order = {"attack": hexes[0] if len(hexes) == 1 else hexes, "defend": args.defend, "time": args.time}
        position = len(game.journal) + 1
        entry = game.give(order, time=args.time, side=game.turn.side)  # the attack is the side to move's, as in its orders
        if entry.kind == "order":
            save_game(game, args.file, rw)
    data = {"file": args.file, "written": entry.kind == "order", "entry": dict(entry.to_data(), position=position),
            "turn": game.turn.to_data()}

    def text() -> str:
        return "\n".join([entry_line(entry, position, game),
                          f"now {turn_line(game)}" + (f"; written to {args.file}" if entry.kind == "order"
                                                      else "; nothing written")])

    emit(args, data, text)
    return EXIT_OK if entry.kind == "order" else EXIT_FAIL

