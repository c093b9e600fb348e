"""``adjutant orders FILE --orders ORDERS.json`` and ``adjutant end-turn
FILE``: play a game's turn from the command line (issue 15).

Both load the scenario and its game (:class:`engine.turns.game.Game`: the
journal's hash chain is verified and the game replayed from its turn-0 state
on load, so a tampered file is refused naming the entry), act for the side to
move, journal every step and write the file back through
:func:`engine.io.save_any` (the one atomic writer).  ``orders`` checks each
order against the state including the orders already applied this turn and
prints each verdict with its reasons; ``--dry-run`` writes nothing.
``end-turn`` runs the system's end-of-phase effects and hands the move to the
next side (``--phase``: ends only the current phase).  See ``docs/cli.md`` ("Turns") and ``docs/turns.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import EXIT_FAIL, EXIT_OK, CliError, add_json_flag, emit

if TYPE_CHECKING:
    from engine.turns.game import Game
    from engine.turns.journal import Entry

COMMANDS = {
    "orders": "check and apply a list of orders for the side to move; journal them and write the file",
    "end-turn": "end the side to move's turn (its end-of-phase effects) and hand the move on",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""

POST_TIME = "time"
"""The key of an order object giving the time of the post it was made in
(kept in the journal entry, not passed to the rules system)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "orders", help=COMMANDS["orders"],
        description="Check and apply ORDERS.json (a list, or {\"orders\": [...]}, of orders as the game's rules "
                    "system defines them, e.g. {\"unit\": ID, \"to\": HEX}; an order may carry \"time\", the time "
                    "of its post) for the side to move. Every verdict is journalled with its reasons and the file "
                    "is written unless --dry-run. Exit 0 when every order was carried out, 1 when one was refused "
                    "or the input is bad (then nothing is written).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--orders", required=True, metavar="ORDERS.json")
    p.add_argument("--dry-run", action="store_true", help="check and print, but do not write the file")
    _system_flag(p)
    add_json_flag(p)
    p.set_defaults(func=run_orders)
    p = sub.add_parser(
        "end-turn", help=COMMANDS["end-turn"],
        description="End every remaining phase of the side to move: run the rules system's end-of-phase effects "
                    "(e.g. ACW fortification), journal them and hand the move to the next side (after the last "
                    "side, the next turn begins). Writes the file.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--phase", action="store_true",
                   help="end only the current phase (e.g. combat move, so that non-combat orders can be given)")
    p.add_argument("--dry-run", action="store_true", help="print what would happen, but do not write the file")
    _system_flag(p)
    add_json_flag(p)
    p.set_defaults(func=run_end_turn)


def _system_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--system", metavar="NAME",
                   help="the rules system that runs the game (default: the one the file's game or ruleset names)")


def load_game(path: str, system: str | None = None) -> Game:
    """The scenario at ``path`` with its game, or :class:`CliError` naming
    the file and what is wrong (a bad file, a tampered journal)."""
    from engine.io import ScenarioError, load_any
    from engine.model import ModelError
    from engine.turns.game import Game

    try:
        s = load_any(path)
    except ScenarioError as e:
        n = len(e.problems)
        raise CliError(f"{path}: cannot load ({n} problem{'s' if n != 1 else ''})",
                       [str(p) for p in e.problems]) from None
    try:
        return Game(s, system)
    except ModelError as e:
        raise CliError(f"{path}: {e}") from None


def save_game(game: Game, path: str) -> None:
    """Write the game's scenario to ``path`` and record its journal as
    verified (the next command on the file need not replay it again)."""
    from engine.io import save_any

    save_any(game.scenario, path)
    game.remember()


def read_orders(path: str) -> list[dict[str, Any]]:
    """The orders of an orders file: a list of objects, or ``{"orders":
    [...]}``; :class:`CliError` names the file and the bad item."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise CliError(f"{path}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise CliError(f"{path}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    orders = data.get("orders") if isinstance(data, dict) else data
    if not isinstance(orders, list):
        raise CliError(f"{path}: expected a list of orders or {{\"orders\": [...]}}")
    for i, o in enumerate(orders):
        if not isinstance(o, dict):
            raise CliError(f"{path}: order {i + 1}: expected an object like {{\"unit\": ID, \"to\": ...}}, "
                           f"got {json.dumps(o)[:60]}")
        t = o.get(POST_TIME)
        if t is not None and not isinstance(t, str):
            raise CliError(f"{path}: order {i + 1}: \"{POST_TIME}\" must be the post's time as text, got {t!r}")
    return orders


def entry_line(e: Entry, position: int) -> str:
    """One journal entry as a line a game master reads."""
    if e.kind in ("order", "refused"):
        verdict = "carried out" if e.kind == "order" else "REFUSED"
        why = " ".join(e.reasons)
        return f"{position:>4}. {e.summary}: {verdict}" + (f" - {why}" if why else "")
    return f"{position:>4}. {e.summary}"


def turn_line(game: Game) -> str:
    t = game.turn
    return f"turn {t.turn}, {t.phase} phase: the {game.side_name(t.side)} to move"


def run_orders(args: argparse.Namespace) -> int:
    from engine.model import ModelError

    game = load_game(args.file, args.system)
    orders = read_orders(args.orders)
    first = len(game.journal)
    for i, raw in enumerate(orders):
        uses_time = getattr(game.system, "uses_post_time", None)  # e.g. an ACW attack: the time is its input
        order = dict(raw) if callable(uses_time) and uses_time(raw) else {k: v for k, v in raw.items()
                                                                           if k != POST_TIME}
        try:
            game.give(order, time=raw.get(POST_TIME))
        except ModelError as e:
            raise CliError(f"{args.orders}: order {i + 1} ({json.dumps(raw, ensure_ascii=False)[:80]}): {e}; "
                           f"nothing was written") from None
    entries = [game.journal[i] for i in range(first, len(game.journal))]
    refused = sum(e.kind == "refused" for e in entries)
    if not args.dry_run:
        save_game(game, args.file)
    data = {"file": args.file, "written": not args.dry_run, "system": game.system.name,
            "entries": [dict(e.to_data(), position=first + k + 1) for k, e in enumerate(entries)],
            "carried_out": len(entries) - refused, "refused": refused, "turn": game.turn.to_data()}

    def text() -> str:
        lines = [f"{args.file}: {game.system.title}, {len(orders)} order{'s' if len(orders) != 1 else ''}"]
        lines += [entry_line(e, first + k + 1) for k, e in enumerate(entries)]
        lines.append(f"{len(entries) - refused} carried out, {refused} refused; now {turn_line(game)}"
                     + ("; not written (--dry-run)" if args.dry_run else f"; written to {args.file}"))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_FAIL if refused else EXIT_OK


def run_end_turn(args: argparse.Namespace) -> int:
    game = load_game(args.file, args.system)
    first = len(game.journal)
    before = game.turn.to_data()
    if args.phase:
        game.end_phase()
    else:
        game.end_turn()
    entries = [game.journal[i] for i in range(first, len(game.journal))]
    if not args.dry_run:
        save_game(game, args.file)
    data = {"file": args.file, "written": not args.dry_run, "system": game.system.name, "before": before,
            "entries": [dict(e.to_data(), position=first + k + 1) for k, e in enumerate(entries)],
            "turn": game.turn.to_data()}

    def text() -> str:
        lines = [f"{args.file}: {game.system.title}"]
        lines += [entry_line(e, first + k + 1) for k, e in enumerate(entries)]
        lines.append(f"now {turn_line(game)}"
                     + ("; not written (--dry-run)" if args.dry_run else f"; written to {args.file}"))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK
