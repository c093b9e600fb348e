"""The game master's key and dice seed, given to a game the command line
loaded (``app/post_store.py`` keeps them): what ``orders``, ``end-turn``,
``dice`` and ``sign`` share (``docs/play-by-post.md``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.turns.game import Game
    from engine.turns.journal import Entry
    from engine.turns.signing import Signer


def arm_dice(game: Game) -> str | None:
    """Give ``game`` the seed of its open dice commitment when this user
    holds it; returns the commitment's hash (``None``: none open)."""
    from app.post_store import load_seed

    c = game.open_dice_commitment()
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



def arm_signer(game: Game) -> None:
    """Give a signed ``game`` the game master's key in force when this user
    holds it."""
    from app.post_store import load_key
    from engine.turns.signing import Signer, handovers, key_id

    if game.signing is None:
        return
    key = game.signing.key_at(handovers(game.journal.entries), len(game.journal) - 1)
    pem = load_key(key_id(key))
    if pem is not None:
        game.signer = Signer.from_pem(pem)



def user_signer(new: bool = False) -> Signer:
    """This user's signing key (made and kept when there is none, or when
    ``new``)."""
    from app.post_store import folder, load_key, save_key
    from engine.turns.signing import Signer

    current = folder() / "keys" / "current"
    if not new:
        try:
            pem = load_key(current.read_text(encoding="ascii").strip())
        except OSError:
            pem = None
        if pem is not None:
            return Signer.from_pem(pem)
    signer = Signer.generate()
    save_key(signer.id, signer.pem())
    current.write_text(signer.id, encoding="ascii")
    return signer
