"""``adjutant orders FILE --orders ORDERS.json`` and ``adjutant end-turn
FILE``: play a game's turn from the command line.

Both load the scenario and its game (:class:`engine.turns.game.Game`: the
journal's hash chain is verified and the game replayed from its turn-0 state
on load, so a tampered file is refused naming the entry), act for the side to
move, journal every step and write the file back through
:func:`engine.io.save_any` (the one atomic writer), holding the map's lock
(:func:`app.cli.common.rewriting`: one writer at a time, editor or command)
from the read to the write.  A file that another program rewrote meanwhile
is read again and the orders checked again against it; ``end-turn``
refuses such a write.  ``orders`` checks each
order against the state including the orders already applied this turn and
prints each verdict with its reasons; ``--dry-run`` writes nothing.
``end-turn`` runs the system's end-of-phase effects and hands the move to the
next side (``--phase``: ends only the current phase).  An orders file is one
side's (``--side`` or its ``"side"`` key; the side to move when neither) and
is applied order by order: an order that is another side's to give, or that
cannot be carried out, is refused with its reasons and the others go on.
``pending`` lists the choices waiting for a side's answer and, with
``--defaults``, gives the rules' default for each.  See ``docs/cli.md`` ("Turns") and ``docs/turns.md``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from engine.words import counted, joined, side_phrase

from .common import EXIT_FAIL, EXIT_OK, CliError, FileChanged, Rewrite, add_json_flag, emit, rewriting

if TYPE_CHECKING:
    from engine.turns.game import Game
    from engine.turns.journal import Entry
    from engine.turns.orders_file import OrdersFile

COMMANDS = {
    "orders": "check and apply one side's list of orders; journal them and write the file",
    "end-turn": "end the side to move's turn (its end-of-phase effects) and hand the move on",
    "pending": "list the choices waiting for a side's answer; --defaults gives the rules' default for each",
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
    p.add_argument("--side", metavar="SIDE",
                   help="the side giving the orders (default: the file's \"side\" key, else the side to move); "
                        "an order that is another side's to give is refused")
    p.add_argument("--dry-run", action="store_true", help="check and print, but do not write the file")
    p.add_argument("--rebase", action="store_true",
                   help="apply a file planned against an earlier journal head: each order is checked on today's "
                        "position (without it such a file is refused, naming the entries written since)")
    _system_flag(p)
    add_json_flag(p)
    p.set_defaults(func=run_orders)
    p = sub.add_parser(
        "pending", help=COMMANDS["pending"],
        description="List the choices the rules leave to a side that wait for its answer (a defender's retreat, "
                    "a cavalry unit's withdraw or stand), with the order the rules give when it goes unanswered. "
                    "With --defaults, give those orders (journalled as the owning side's) and write the file.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--defaults", action="store_true", help="answer every pending choice with the rules' default")
    p.add_argument("--dry-run", action="store_true", help="print what would happen, but do not write the file")
    _system_flag(p)
    add_json_flag(p)
    p.set_defaults(func=run_pending)
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


def load_game(path: str, system: str | None = None, rewrite: Rewrite | None = None) -> Game:
    """The scenario at ``path`` with its game, or :class:`CliError` naming
    the file and what is wrong (a bad file, a tampered journal); read
    through ``rewrite`` (:class:`app.cli.common.Rewrite`) when the command
    will write the file back."""
    from engine.io import ScenarioError, load_any
    from engine.model import ModelError
    from engine.turns.game import Game

    if rewrite is not None:
        s = rewrite.load()
    else:
        try:
            s = load_any(path)
        except ScenarioError as e:
            n = len(e.problems)
            raise CliError(f"{path}: cannot load ({n} problem{'s' if n != 1 else ''})",
                           [str(p) for p in e.problems]) from None
    try:
        game = Game(s, system)
    except ModelError as e:
        raise CliError(f"{path}: {e}") from None
    from app.post_game import arm_signer

    arm_signer(game)
    return game


def save_game(game: Game, path: str, rewrite: Rewrite | None = None) -> None:
    """Write the game's scenario to ``path``: through ``rewrite`` (refused
    when the file changed since it was read), else straight; then record
    its journal as verified (the next command on the file need not replay
    it again)."""
    from engine.io import save_any

    if game.signing is not None and game.signer is None:
        from engine.turns.signing import handovers, key_id

        key = game.signing.key_at(handovers(game.journal.entries), len(game.journal))
        raise CliError(f"{path}: the game is signed by the game master's key {key_id(key)}, which is not in your "
                       f"config folder: only the game master extends the record (nothing written)")
    if rewrite is not None:
        rewrite.save(game.scenario)
    else:
        save_any(game.scenario, path)
    game.remember()


MAX_ORDERS_BYTES = 16 * 1024 * 1024
"""Largest orders file read (16 MiB)."""
MAX_ORDERS_DEPTH = 32
"""Deepest nesting of lists and objects in an orders file."""


def _too_deep(data: Any) -> bool:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            if depth > MAX_ORDERS_DEPTH:
                return True
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return False


def read_orders(path: str) -> list[dict[str, Any]]:
    """The orders of an orders file: a list of objects, or ``{"orders":
    [...]}``; :class:`CliError` names the file and the bad item."""
    return read_orders_file(path)[0]


def read_orders_file(path: str) -> tuple[list[dict[str, Any]], str | None]:
    """The orders of an orders file and the side it says it is from (its
    ``"side"`` key, or ``None``); see :func:`read_orders_doc`."""
    of = read_orders_doc(path)
    return [dict(o) for o in of.orders], of.side


def read_orders_doc(path: str) -> OrdersFile:
    """An orders file (``engine/turns/orders_file.py``: a planned file
    naming its side, turn, phase and head, or an older list or ``{"side",
    "orders"}``); :class:`CliError` names the file and the bad item.
    Read as every input is (:func:`engine.io.inputs.read_regular`: a regular
    file of at most :data:`MAX_ORDERS_BYTES`); nesting deeper than
    :data:`MAX_ORDERS_DEPTH`, ``NaN``, infinities, numbers too long to read
    and lone surrogates (which no output can print) are refused naming the
    field."""
    from engine.io import ScenarioError
    from engine.io.common import SURROGATES, non_finite_problems, parse_json, text_problems
    from engine.io.inputs import read_regular

    raw = read_regular(path, MAX_ORDERS_BYTES, lambda m: CliError(f"{path}: {m}"), "file", "orders file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: not UTF-8 text (byte {e.start})") from None
    try:
        data = parse_json(text, path)
    except ScenarioError as e:
        raise CliError("; ".join(str(p) for p in e.problems).replace("not a scenario: ", "")) from None
    if _too_deep(data):
        raise CliError(f"{path}: nested more than {MAX_ORDERS_DEPTH} lists or objects deep; an order is one "
                       "object of names and numbers")
    bad = non_finite_problems(data, path) or text_problems(data, path, SURROGATES)
    if bad:
        raise CliError(str(bad[0]))
    from engine.turns.orders_file import OrdersFileError, parse

    try:
        of = parse(data, path, raw)
    except OrdersFileError as e:
        raise CliError(str(e)) from None
    for i, o in enumerate(of.orders):
        t = o.get(POST_TIME)
        if t is not None and not isinstance(t, str):
            raise CliError(f"{path}: order {i + 1}: \"{POST_TIME}\" must be the post's time as text, got {t!r}")
    return of


def entry_line(e: Entry, position: int, game: Game | None = None) -> str:
    """One journal entry as a line a game master reads: the order, its
    verdict, the reasons and (given the ``game``) what it did, in words."""
    if e.kind in ("order", "refused"):
        verdict = "carried out" if e.kind == "order" else "REFUSED"
        said = list(e.reasons)
        result = game.result_text(e) if game is not None else ""
        if result:
            said.append(result)
        why = joined(said)
        return f"{position:>4}. {e.summary}: {verdict}" + (f" - {why}" if why else "")
    return f"{position:>4}. {e.summary}"


def turn_line(game: Game) -> str:
    """Where the game stands (:func:`engine.turns.report.turn_line`)."""
    from engine.turns.report import turn_line as line

    return line(game)


def orders_side(game: Game, named: str | None, in_file: str | None, where: str) -> str | None:
    """The side an orders file is from: ``--side``, else the file's
    ``"side"``, else the side to move; :class:`CliError` for an unknown side
    or a flag and a file that disagree."""
    from engine.model import ModelError

    if named is not None and in_file is not None and named != in_file:
        raise CliError(f"{where}: the file says it is the orders of {in_file!r}, --side says {named!r}")
    side = named if named is not None else in_file
    if side is None:
        return game.turn.side
    try:
        return str(game.scenario.side(side).id)
    except ModelError as e:
        raise CliError(f"{where}: {e}") from None


MAX_RECHECKS = 3
"""How often ``orders`` checks its orders again when the file changed on
disk between its read and its write, before it gives up."""


def run_orders(args: argparse.Namespace) -> int:
    """Apply the file's orders one by one: each is carried out or refused
    (with its reasons, journalled) on its own; a refused order changes
    nothing and does not stop the others."""
    of = read_orders_doc(args.orders)
    if args.dry_run:
        return _orders(args, load_game(args.file, args.system), of, [])
    with rewriting(args.file, "orders") as rw:
        notes: list[str] = []
        for attempt in range(MAX_RECHECKS + 1):
            game = load_game(args.file, args.system, rw)
            try:
                return _orders(args, game, of, notes, rw)
            except FileChanged as e:
                if attempt == MAX_RECHECKS:
                    raise
                notes.append(f"{args.file} changed on disk while the orders were checked "
                             f"({e.message.split(': ', 1)[-1].split(';')[0]}); checked again against the new state")
    raise AssertionError("unreachable")


def _orders(args: argparse.Namespace, game: Game, of: OrdersFile, notes: list[str],
            rw: Rewrite | None = None) -> int:
    """Give the file's orders in ``game`` as the side the file names, write
    it back through ``rw`` (unless ``--dry-run``) and print the verdicts;
    :class:`FileChanged` when the file changed since it was read.  A planned
    file for another side, turn or phase, or planned against another journal
    head (without ``--rebase``), is refused whole."""
    from app.post_game import arm_dice
    from engine.turns.orders_file import refusals

    orders = of.orders
    side = orders_side(game, args.side, of.side, args.orders)
    why = refusals(game, of, side, rebase=getattr(args, "rebase", False))
    if why:
        raise CliError(f"{args.orders}: refused: " + "; ".join(why))
    if of.planned and of.head != game.journal.head:
        notes.append(f"rebased: planned against journal head {str(of.head)[:12]}, each order checked on today's "
                     f"position")
    arm_dice(game)
    source = of.source(side)
    first = len(game.journal)
    for raw in orders:
        order = dict(raw) if game.system.uses_post_time(raw) else {k: v for k, v in raw.items() if k != POST_TIME}
        game.give(order, time=raw.get(POST_TIME), side=side, source=source)
    entries = [game.journal[i] for i in range(first, len(game.journal))]
    refused = sum(e.kind == "refused" for e in entries)
    if not args.dry_run:
        save_game(game, args.file, rw)
    pending = game.pending()
    data = {"file": args.file, "written": not args.dry_run, "system": game.system.name, "side": side,
            "entries": [dict(e.to_data(), position=first + k + 1) for k, e in enumerate(entries)],
            "carried_out": len(entries) - refused, "refused": refused, "turn": game.turn.to_data(),
            "pending": [p.to_data() for p in pending], "notes": notes}

    def text() -> str:
        lines = [f"{args.file}: {game.system.title}, {counted(len(orders), 'order')} "
                 f"of {side_phrase(game.side_name(side))}"]
        lines += [f"  note: {n}" for n in notes]
        lines += [entry_line(e, first + k + 1, game) for k, e in enumerate(entries)]
        lines += [pending_line(p, game) for p in pending]
        lines.append(f"{len(entries) - refused} carried out, {refused} refused; now {turn_line(game)}"
                     + ("; not written (--dry-run)" if args.dry_run else f"; written to {args.file}"))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_FAIL if refused else EXIT_OK


def run_end_turn(args: argparse.Namespace) -> int:
    if args.dry_run:
        return _end_turn(args, load_game(args.file, args.system))
    with rewriting(args.file, "end-turn") as rw:
        return _end_turn(args, load_game(args.file, args.system, rw), rw)


def _end_turn(args: argparse.Namespace, game: Game, rw: Rewrite | None = None) -> int:
    from app.post_game import reveal

    first = len(game.journal)
    before = game.turn.to_data()
    if not args.phase or game.turn.phase == game.phases[-1]:
        reveal(game)  # the open dice seed, when this user holds it: the side's move ends
    if args.phase:
        game.end_phase()
    else:
        game.end_turn()
    entries = [game.journal[i] for i in range(first, len(game.journal))]
    if not args.dry_run:
        save_game(game, args.file, rw)
    data = {"file": args.file, "written": not args.dry_run, "system": game.system.name, "before": before,
            "entries": [dict(e.to_data(), position=first + k + 1) for k, e in enumerate(entries)],
            "turn": game.turn.to_data()}

    def text() -> str:
        lines = [f"{args.file}: {game.system.title}"]
        lines += [entry_line(e, first + k + 1, game) for k, e in enumerate(entries)]
        lines.append(f"now {turn_line(game)}"
                     + ("; not written (--dry-run)" if args.dry_run else f"; written to {args.file}"))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def pending_line(p: Any, game: Game) -> str:
    """A pending choice as a line: whose it is, what, the default."""
    return (f"  waiting for {side_phrase(game.side_name(p.side))}: {p.summary} "
            f"(unanswered, the rules give: {game.order_text(p.default)})")


def run_pending(args: argparse.Namespace) -> int:
    if not args.defaults or args.dry_run:
        return _pending(args, load_game(args.file, args.system))
    with rewriting(args.file, "pending") as rw:
        return _pending(args, load_game(args.file, args.system, rw), rw)


def _pending(args: argparse.Namespace, game: Game, rw: Rewrite | None = None) -> int:
    """List the choices waiting for a side's answer; with ``--defaults``
    give the rules' default orders for them and write the game back through
    ``rw`` (unless ``--dry-run``)."""
    first = len(game.journal)
    waiting = game.pending()
    if args.defaults:
        game.give_defaults()
    entries = [game.journal[i] for i in range(first, len(game.journal))]
    written = bool(entries) and not args.dry_run
    if written:
        save_game(game, args.file, rw)
    refused = sum(e.kind == "refused" for e in entries)
    data = {"file": args.file, "written": written, "system": game.system.name,
            "pending": [p.to_data() for p in waiting],
            "entries": [dict(e.to_data(), position=first + k + 1) for k, e in enumerate(entries)],
            "turn": game.turn.to_data()}

    def text() -> str:
        lines = [f"{args.file}: {game.system.title}, {len(waiting)} choice{'s' if len(waiting) != 1 else ''} "
                 f"waiting"]
        lines += [pending_line(p, game) for p in waiting]
        lines += [entry_line(e, first + k + 1, game) for k, e in enumerate(entries)]
        lines.append(f"now {turn_line(game)}" + (f"; written to {args.file}" if written else ""))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_FAIL if refused else EXIT_OK
