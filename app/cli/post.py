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

from app.post_game import arm_dice, reveal, user_signer

from .common import EXIT_OK, CliError, add_json_flag, emit, rewriting

if TYPE_CHECKING:
    from engine.turns.game import Game

COMMANDS = {
    "dice": "commit to a secret dice seed in a game's journal (--commit) or reveal it (--reveal)",
    "sign": "sign a game's journal with your key (Ed25519), or hand it over to a new key when yours is lost",
    "export-side": "write one side's file of a game: its own units, the enemy units it sees, the journal redacted",
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
    p = sub.add_parser(
        "sign", help=COMMANDS["sign"],
        description="Sign every entry of GAME's journal with your Ed25519 key (made and kept in your config folder "
                    "when you have none; the game file carries only the public key). From then on only the holder "
                    "of the key extends the record: every command verifies the signatures. --hand-over: your "
                    "key is lost; a new key signs a hand-over entry and every entry after it.")
    p.add_argument("file", metavar="GAME")
    p.add_argument("--hand-over", action="store_true", help="a new key takes over the signing (the old one lost)")
    p.add_argument("--reason", default="", metavar="TEXT", help="with --hand-over: why, for the players to read")
    add_json_flag(p)
    p.set_defaults(func=run_sign)
    p = sub.add_parser(
        "export-side", help=COMMANDS["export-side"],
        description="Write SIDE's file of GAME: the map, the side's own units, the enemy units it sees (as the "
                    "scenario's state.visibility says; a unit seen but not identified is shown as 'a unit'), "
                    "others absent, and the journal with every entry that names a hidden unit withheld (its "
                    "hash kept, so the chain still verifies: adjutant validate SIDE.json). A signed game's export "
                    "is signed.")
    p.add_argument("file", metavar="GAME")
    p.add_argument("--side", required=True, metavar="SIDE")
    p.add_argument("--out", required=True, metavar="SIDE.json")
    add_json_flag(p)
    p.set_defaults(func=run_export_side)


def side_scenario(game: Game, side: str) -> object:
    """``game`` as ``side`` sees it (``engine/turns/views.py``), signed by
    the game master's key when the game is signed and the key is held."""
    from engine.model import ModelError
    from engine.turns.views import side_view

    try:
        return side_view(game, side, game.signer.sign if game.signer is not None else None)
    except ModelError as e:
        raise CliError(f"--side {side}: {e}") from None


def run_export_side(args: argparse.Namespace) -> int:
    import os

    from engine.io import save_any
    from engine.io.atomic import same_file

    from .common import writing_scenario
    from .orders import load_game

    if same_file(args.out, args.file) or os.path.abspath(args.out) == os.path.abspath(args.file):
        raise CliError(f"--out {args.out}: will not write over the game file {args.file}; give a new file")
    game = load_game(args.file)
    if "side_view" in game.scenario.state:
        raise CliError(f"{args.file}: is a side's file already; export from the game master's game file")
    if game.signing is not None and game.signer is None:
        raise CliError(f"{args.file}: the game is signed; only the game master, who holds its key, exports a "
                       f"side's file")
    out = side_scenario(game, args.side)
    with writing_scenario(args.out, "export-side", [args.file]):
        save_any(out, args.out)  # type: ignore[arg-type]
    view = out.state["side_view"]  # type: ignore[attr-defined]
    data = {"file": args.file, "out": args.out, "side": view["side"], "hidden": view["hidden"],
            "markers": view["markers"], "withheld": view["withheld"], "entries": view["count"]}
    emit(args, data, lambda: f"{args.out}: the {game.side_name(view['side'])} side's file of {args.file}: "
                             f"{view['hidden']} enemy unit{'s' if view['hidden'] != 1 else ''} hidden, "
                             f"{view['markers']} shown as 'a unit'; {view['withheld']} of {view['count']} journal "
                             f"entries withheld")
    return EXIT_OK


def run_sign(args: argparse.Namespace) -> int:
    from engine.turns.signing import key_id

    from .orders import load_game, save_game

    with rewriting(args.file, "sign") as rw:
        game = load_game(args.file, None, rw)
        if args.hand_over:
            if game.signing is None:
                raise CliError(f"{args.file}: the game is not signed; sign it (adjutant sign {args.file})")
            e = game.hand_over(user_signer(new=True), args.reason)
            what = f"{len(game.journal)}. {e.summary}"
        else:
            if game.signing is not None:
                raise CliError(f"{args.file}: already signed by key {key_id(game.signing.key)}; a new key takes "
                               f"over with --hand-over")
            game.sign(user_signer())
            what = f"{len(game.journal)} entries signed by key {key_id(game.signing.key if game.signing else '')}"
        save_game(game, args.file, rw)
    assert game.signer is not None
    emit(args, {"file": args.file, "key": game.signer.public, "key_id": game.signer.id,
                "entries": len(game.journal)},
         lambda: f"{args.file}: {what}; private key kept in {_where()}")
    return EXIT_OK


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
