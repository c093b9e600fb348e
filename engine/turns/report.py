"""A game's journal as a play-by-post report in Markdown: a heading per
turn and side, every entry numbered as in the journal with its verdict,
reasons and result in words (``adjutant journal --markdown``, and the
editor's File > Export Report…)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.words import side_phrase

if TYPE_CHECKING:
    from .game import Game


def turn_line(game: Game) -> str:
    """Where the game stands: "turn 3, movement phase: the Union to move"."""
    t = game.turn
    return f"turn {t.turn}, {t.phase} phase: {side_phrase(game.side_name(t.side))} to move"


def markdown(game: Game, positions: list[int], title: str, crops: dict[int, str] | None = None) -> str:
    """A play-by-post report of the entries at ``positions``: a heading per
    turn and side, the orders numbered as in the journal with their
    verdicts (carried out or refused) and reasons, the end-of-phase effects
    and hand-overs; ``crops`` (by position: a relative image path) adds the
    map crop of each order under it."""
    lines = [f"# {title}: {game.system.title}", ""]
    if game.journal.branch_of is not None:
        b = game.journal.branch_of
        lines += [f"*A what-if branch of {b.source} after its entry {b.entries}.*", ""]
    turn: int | None = None
    side: str | None | bool = False
    for i in positions:
        e = game.journal[i]
        if e.turn != turn:
            turn, side = e.turn, False
            if lines[-1]:
                lines.append("")
            lines += [f"## Turn {e.turn}", ""]
        if e.side != side:
            side = e.side
            if lines[-1]:
                lines.append("")
            lines += [f"### {side_phrase(game.side_name(e.side), capital=True)}", ""]
        when = f" *(posted {e.time})*" if e.time else ""
        if e.kind == "order":
            lines.append(f"{i + 1}. **{md(e.summary)}**{when} — carried out.")
        elif e.kind == "refused":
            lines.append(f"{i + 1}. ~~{md(e.summary)}~~{when} — **refused**.")
        else:
            lines.append(f"{i + 1}. *{md(e.summary)}*")
        for r in e.reasons:
            lines.append(f"    - {md(r)}")
        result = game.result_text(e)
        if result:
            lines.append(f"    - **Result:** {md(result)}")
        if crops and i in crops:
            lines += ["", f"    ![Entry {i + 1}: {md(e.summary)}]({crops[i]})", ""]
    if not positions:
        lines.append("*No entries.*")
    lines += ["", f"*Now: {turn_line(game)}. Journal: {len(game.journal)} entr{'y' if len(game.journal) == 1 else 'ies'}, head `{game.journal.head[:12]}`.*"]
    return "\n".join(lines)


def md(text: str) -> str:
    """``text`` with the characters Markdown would read as markup escaped."""
    for c in "\\`*_[]<>~|":
        text = text.replace(c, "\\" + c)
    return text


__all__ = ["markdown", "turn_line"]
