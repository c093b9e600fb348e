"""``adjutant journal FILE`` and ``adjutant branch FILE --entry K --out
NEW.json``: read a game's record, and start a what-if from any point of
it.

``journal`` prints the journal (all of it, or one turn with ``--turn``) as
text, as one JSON object (``--json``) or as a Markdown play-by-post report
(``--markdown``): per turn and side, the orders with their verdicts and
reasons, the effects of the end of each phase, ready to paste into a forum
post.  Loading verifies the hash chain and replays the game, so a tampered
file is refused naming the entry.  ``branch`` writes the scenario as it was
after entry K, its journal marked as a branch of FILE; it never writes over
its input.  See ``docs/cli.md`` ("Turns") and ``docs/turns.md``.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from engine.turns.report import markdown, md
from engine.words import counted, side_phrase

from .common import EXIT_FAIL, EXIT_OK, CliError, add_json_flag, emit, gui_app
from .orders import entry_line, load_game, turn_line

if TYPE_CHECKING:
    from engine.turns.game import Game

COMMANDS = {
    "journal": "print a game's journal (or one turn) as text, JSON or a Markdown play-by-post report",
    "branch": "write the scenario as it was after a journal entry, as a what-if branch of the game",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "journal", help=COMMANDS["journal"],
        description="Print the game's journal: every order with its verdict and reasons, every end-of-phase "
                    "effect, in order. The hash chain is verified and the game replayed on load.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--turn", type=int, metavar="N", help="only the entries of turn N")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--markdown", action="store_true", help="a play-by-post report in Markdown")
    fmt.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--crops", metavar="DIR",
                   help="with --markdown: write a PNG crop of the map each order concerns into DIR (as it was after "
                        "the order, the concerned cells outlined) and link it from the report")
    p.add_argument("--side", metavar="SIDE",
                   help="with --markdown: the report as SIDE sees it (entries naming units it does not see "
                        "withheld)")
    p.add_argument("--verify-dice", action="store_true",
                   help="recompute every roll from its revealed seed and name any that does not match (exit 1)")
    p.set_defaults(func=run_journal)
    p = sub.add_parser(
        "branch", help=COMMANDS["branch"],
        description="Write the scenario as it was after journal entry K (0: before the first) to NEW.json, "
                    "its journal marked as a branch of FILE, for a what-if. Never writes over FILE.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--entry", type=int, required=True, metavar="K")
    p.add_argument("--out", required=True, metavar="NEW.json")
    add_json_flag(p)
    p.set_defaults(func=run_branch)


def _positions(game: Game, turn: int | None, path: str) -> list[int]:
    if turn is None:
        return list(range(len(game.journal)))
    by_turn = game.journal.turns()
    if turn not in by_turn:
        have = sorted(by_turn)
        known = f"turns {have[0]} to {have[-1]}" if have else "no entries"
        raise CliError(f"{path}: --turn {turn}: the journal has no entry in turn {turn} ({known})")
    return by_turn[turn]


def side_markdown(game: Game, side: str, title: str) -> str:
    """The play-by-post report as ``side`` sees it: the entries of its
    file, a withheld entry as one line."""
    from .post import side_scenario

    view = side_scenario(game, side).state["side_view"]  # type: ignore[attr-defined]
    lines = [f"# {title}: {game.system.title}, as the {game.side_name(view['side'])} see it", "",
             f"*{view['hidden']} enemy units hidden, {view['markers']} seen but not identified; "
             f"{view['withheld']} entries withheld.*", ""]
    turn: object = None
    for i, d in enumerate(view["entries"]):
        if d["turn"] != turn:
            turn = d["turn"]
            lines += [f"## Turn {turn}", ""]
        if "summary" not in d:
            lines.append(f"{i + 1}. *(withheld: the {md(game.side_name(d['side']))}'s {d['kind']}, not seen)*")
            continue
        more = " *(details withheld)*" if d.get("withheld") else ""
        if d["kind"] == "order":
            lines.append(f"{i + 1}. **{md(d['summary'])}** — carried out.{more}")
        elif d["kind"] == "refused":
            lines.append(f"{i + 1}. ~~{md(d['summary'])}~~ — **refused**.{more}")
        else:
            lines.append(f"{i + 1}. *{md(d['summary'])}*{more}")
        lines += [f"    - {md(r)}" for r in d.get("reasons", [])]
    lines += ["", f"*Journal: {view['count']} entries, head `{view['head'][:12]}`.*"]
    return "\n".join(lines)


def _crops(game: Game, positions: list[int], path: str, folder: str) -> dict[int, str]:
    """Write the crops (``app/gui/crops.py``) into ``folder``; their paths as
    the report links them (relative to the folder's parent, where the report
    is meant to sit beside it)."""
    from pathlib import Path

    _app = gui_app()  # noqa: F841 (fonts and images need one, kept while painting)
    from app.gui.crops import write_crops
    from app.gui.export import ExportError

    out = Path(folder)
    prefix = Path(path).stem
    try:
        names = write_crops(game, positions, out, prefix)
    except ExportError as e:
        raise CliError(f"{folder}: {e}") from None
    return {i: f"{out.name}/{name}" for i, name in names.items()}


def run_journal(args: argparse.Namespace) -> int:
    game = load_game(args.file)
    if args.verify_dice:
        return _verify_dice(args, game)
    positions = _positions(game, args.turn, args.file)
    data: dict[str, Any] = {"file": args.file, "system": game.system.name, "turn": game.turn.to_data(),
                            "count": len(game.journal), "head": game.journal.head,
                            "entries": [dict(game.journal[i].to_data(), position=i + 1) for i in positions]}
    if game.journal.branch_of is not None:
        data["branch_of"] = game.journal.branch_of.to_data()
    if args.crops is not None and not args.markdown:
        raise CliError("--crops goes with --markdown (the report links the crops)")
    if args.side is not None:
        if not args.markdown or args.crops is not None or args.turn is not None:
            raise CliError("--side goes with --markdown, without --crops or --turn (a side's report is its whole "
                           "file's journal)")
        print(side_markdown(game, args.side, os.path.basename(args.file)))
        return EXIT_OK
    if args.markdown:
        crops = None
        if args.crops is not None:
            crops = _crops(game, positions, args.file, args.crops)
        print(markdown(game, positions, os.path.basename(args.file)
                       + (f", turn {args.turn}" if args.turn is not None else ""), crops))
        return EXIT_OK

    def text() -> str:
        lines = [f"{args.file}: {game.system.title}, {counted(len(game.journal), 'journal entry', 'journal entries')}; "
                 f"now {turn_line(game)}"]
        turn = None
        for i in positions:
            e = game.journal[i]
            if e.turn != turn:
                turn = e.turn
                lines.append(f"turn {turn}")
            lines.append(entry_line(e, i + 1, game))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK


def _verify_dice(args: argparse.Namespace, game: Game) -> int:
    from engine.turns.dice import commitments, verify

    found = verify(game.journal.entries)
    commits = commitments(game.journal.entries)
    data = {"file": args.file, "ok": found.ok, "problems": list(found.problems), "checked": found.checked,
            "unrevealed": found.unrevealed, "typed": found.typed, "commitments": len(commits),
            "revealed": sum(c.seed is not None for c in commits)}

    def text() -> str:
        lines = [f"{args.file}: dice: {found.checked} roll{'s' if found.checked != 1 else ''} checked against "
                 f"{data['revealed']} revealed seed{'s' if data['revealed'] != 1 else ''}"
                 + (f", {found.unrevealed} waiting for their seed's reveal" if found.unrevealed else "")
                 + (f", {found.typed} entr{'y' if found.typed == 1 else 'ies'} with dice typed by the game master"
                    if found.typed else "")]
        lines += [f"  DOES NOT MATCH: {p}" for p in found.problems]
        lines.append("every roll matches" if found.ok else f"{len(found.problems)} problem"
                     f"{'s' if len(found.problems) != 1 else ''}")
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK if found.ok else EXIT_FAIL


def run_branch(args: argparse.Namespace) -> int:
    from engine.io import save_any
    from engine.io.atomic import same_file

    from .common import writing_scenario

    if same_file(args.out, args.file) or os.path.abspath(args.out) == os.path.abspath(args.file):
        raise CliError(f"--out {args.out}: will not write over the input file {args.file}; give a new file")
    with writing_scenario(args.out, "branch", [args.file]):
        game = load_game(args.file)
        n = len(game.journal)
        if not 0 <= args.entry <= n:
            raise CliError(f"{args.file}: --entry {args.entry}: the journal has entries 1 to {n} "
                           f"(0 branches from before the first)")
        branch = game.branch(args.entry, os.path.basename(args.file))
        save_any(branch, args.out)
    turn = branch.state["game"]["turn"]
    data = {"file": args.file, "out": args.out, "entry": args.entry,
            "branch_of": branch.state["game"]["journal"]["branch_of"], "turn": turn}
    where = f"after entry {args.entry}" if args.entry else "before the first entry"
    emit(args, data, f"{args.out}: a branch of {args.file} {where} (turn {turn['turn']}, {turn['phase']} phase, "
                     f"{side_phrase(game.side_name(turn['side']))} to move)")
    return EXIT_OK
