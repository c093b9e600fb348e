"""Play by post, the game master's side: ``adjutant dice GAME --commit``
(or ``--reveal``) journals a dice seed's commitment (or the seed itself)
for the verifiable dice of ``engine/turns/dice.py``.  The seed lives in the
game master's config folder (``app/post_store.py``), never in the game file,
until its reveal; ``end-turn`` reveals it at the end of the side's move.
See ``docs/play-by-post.md``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .common import EXIT_OK, CliError, add_json_flag, emit, rewriting

if TYPE_CHECKING:
    from engine.turns.game import Game
    from engine.turns.journal import Entry

COMMANDS = {
    "dice": "commit to a secret dice seed in a game's journal (--commit) or reveal it (--reveal)",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "dice", help=COMMANDS["dice"],
        description="The game master's verifiable dice: --commit draws a secret seed, keeps it in your config "
                    "folder and journals its hash before the players' orders; the rules' rolls (Rail Options "
                    "anti-aircraft fire and bombing) then come from it, the players' salts and the journal. "
                    "--reveal journals the seed (end-turn does so at the end of the side's move), after which "
                    "anyone can check every roll with 'adjutant journal GAME --verify-dice'.")
    p.add_argument("file", metavar="GAME")
    act = p.add_mutually_exclusive_group(required=True)
    act.add_argument("--commit", action="store_true", help="draw a seed and journal its commitment")
    act.add_argument("--reveal", action="store_true", help="journal the open commitment's seed")
    add_json_flag(p)
    p.set_defaults(func=run_dice)


def arm_dice(game: Game) -> str | None:
    """Give ``game`` the seed of its open dice commitment when this user
    holds it; returns the commitment's hash (``None``: none open)."""
    from app.post_store import load_seed
    from engine.turns.dice import open_commitment

    c = open_commitment(game.journal.entries)
    if c is None:
        return None
    game.dice_seed = load_seed(c.commit)
    return c.commit


def reveal(game: Game) -> Entry | None:
    """Journal the seed of the open commitment, when this user holds it."""
    from engine.turns.dice import reveal_entry

    commit = arm_dice(game)
    if commit is None or game.dice_seed is None:
        return None
    e = reveal_entry(game.dice_seed, game.turn.turn, game.turn.phase, game.turn.side, game.system.name)
    game.dice_seed = None
    return game.record(e)


def run_dice(args: argparse.Namespace) -> int:
    from app.post_store import save_seed
    from engine.turns.dice import commitment, new_seed, seed_entry

    from .orders import load_game, save_game

    with rewriting(args.file, "dice") as rw:
        game = load_game(args.file, None, rw)
        if args.commit:
            if arm_dice(game) is not None:
                raise CliError(f"{args.file}: a dice seed is already committed and not revealed; reveal it first "
                               f"(adjutant dice {args.file} --reveal)")
            seed = new_seed()
            commit = commitment(seed)
            kept = save_seed(commit, seed)
            e = game.record(seed_entry(commit, game.turn.turn, game.turn.phase, game.turn.side, game.system.name))
            note = f"seed kept in {kept}"
        else:
            commit_open = arm_dice(game)
            if commit_open is None:
                raise CliError(f"{args.file}: no dice seed is committed and unrevealed")
            if game.dice_seed is None:
                raise CliError(f"{args.file}: the seed of commitment {commit_open[:12]} is not in your config folder "
                               f"({_where()}); only the game master who committed it can reveal it")
            got = reveal(game)
            assert got is not None
            e = got
            note = "anyone can now check the rolls: adjutant journal GAME --verify-dice"
        save_game(game, args.file, rw)
    n = len(game.journal)
    emit(args, {"file": args.file, "entry": dict(e.to_data(), position=n)},
         lambda: f"{args.file}: {n}. {e.summary}; {note}")
    return EXIT_OK


def _where() -> str:
    from app.post_store import folder

    return str(folder())
