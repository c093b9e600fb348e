"""``adjutant validate FILE...``: check scenario files: the file, the game it
holds (the journal's hash chain, its replay, and every entry adjudicated
again by the rules: :mod:`engine.turns.verify`), and the set-up problems its
rules system names."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.io.registry import AnyScenario, iter_loaded

from .common import EXIT_FAIL, EXIT_OK, add_json_flag, emit

COMMANDS = {
    "validate": "check scenario files; exit 0 when all are valid",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("validate", help=COMMANDS["validate"],
                       description="Load and check each scenario file, and the game it holds: the journal's "
                                   "hash chain and replay, and every entry adjudicated again by the rules from "
                                   "the turn-0 state (the first entry the rules do not give is named). Prints one "
                                   "line per problem, naming the file, the JSON path and what was expected.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--head", metavar="HASH",
                   help="for a side's file: a journal head the game master gave out (a post, the game file, the "
                        "other side's file); the side's journal must pass through it (an unsigned side's file "
                        "proves its entries only against such a head)")
    add_json_flag(p)
    p.set_defaults(func=run)


def _rules_problems(s: AnyScenario | None) -> list[str]:
    """What the rules systems the scenario's ruleset names find at set-up
    (their optional ``setup_problems``, e.g. ACW deployment zones)."""
    import importlib

    from engine.rules.base import BUILTIN_MODULES, RulesSystem

    state = getattr(s, "state", None)
    if isinstance(state, dict) and "side_view" in state:  # a side's file of a game under way: no set-up to check
        return []
    options = getattr(getattr(s, "ruleset", None), "options", None) or {}
    out: list[str] = []
    for name in options:
        module = f"engine.rules.{name}"
        if module not in BUILTIN_MODULES:  # only the named system's module: the others may be slow to import
            continue
        for cls in vars(importlib.import_module(module)).values():
            if isinstance(cls, type) and issubclass(cls, RulesSystem) and getattr(cls, "name", None) == name:
                system: RulesSystem[Any, Any] = cls()
                out.extend(f"{name}: {p}" for p in system.setup_problems(s))
                break
    return out


def _positions(ns: list[int]) -> str:
    """``5-7, 9``: entry positions in few words."""
    runs: list[list[int]] = []
    for n in ns:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _side_note(view: dict[str, Any], found: Any) -> str:
    """What validating a side's file found, besides its problems: what it
    hides, which entries it shows redacted, what its chain proves and that
    the rules do not adjudicate it again."""
    out = (f"a side's file ({view.get('side')}): {view.get('hidden')} enemy units hidden, "
           f"{view.get('withheld')} journal entries withheld")
    if found.redacted:
        out += f"; entries {_positions(found.redacted)} redacted, their chain checked"
    if found.unchecked:
        out += (f"; entries {_positions(found.unchecked)} withheld whole fields of a format-2 game: their hashes "
                f"are taken as given")
    if view.get("signing"):
        out += "; signed by the game master"
    elif found.head_at is not None:
        out += f"; unsigned, its first {found.head_at} entries match the game master's head"
    else:
        out += ("; unsigned: its chain holds, but it is the game master's only as far as a head the game master gave out "
                "(--head HASH)")
    return out + ("; not adjudicated again by the rules: a side's file does not hold what it withholds")


def _game_problems(f: str, s: AnyScenario | None, head: str | None = None) -> list[str]:
    """What is wrong with the game the file holds (``state.game``): a
    journal whose hash chain, seal, signatures or replay fails, or an entry
    the rules do not give when the game is adjudicated again
    (:func:`engine.turns.verify.verify_once`); for a side's file, its own
    checks (:func:`engine.turns.views.check_side_view`); nothing for a file
    without a game."""
    if s is not None and isinstance(getattr(s, "state", None), dict) and "side_view" in s.state:
        from engine.turns.views import side_check

        found = side_check(s, head)
        if not found.problems:
            NOTES[f] = _side_note(s.state["side_view"], found)
        return [f"{f}: {p}" for p in found.problems]
    if s is None or not isinstance(getattr(s, "state", None), dict) or "game" not in s.state:
        return []
    from engine.model import ModelError
    from engine.turns.game import Game
    from engine.turns.verify import verify_once
    from engine.turns.views import visibility

    try:
        game = Game(s)
        game.verify_signatures()  # each entry's, besides the seal's that loading checks
        visibility(s)
    except ModelError as e:
        return [f"{f}: {e}"]
    problem = verify_once(game)
    if problem is not None:
        return [f"{f}: {problem}"]
    if game.signing is None:
        NOTES[f] = ("its journal is unsigned: anyone who recomputes the hashes can rewrite it "
                    "(adjutant sign FILE signs it)")
    else:
        from engine.turns.signing import handovers, key_id

        key = game.signing.key_at(handovers(game.journal.entries), len(game.journal))
        NOTES[f] = f"its journal is signed by the game master's key {key_id(key)}"
    return []


NOTES: dict[str, str] = {}
"""What validating a file found that is not a problem (a game unsigned)."""


def run(args: argparse.Namespace) -> int:
    head = getattr(args, "head", None)
    if head is not None and (len(head) != 64 or head.strip("0123456789abcdef")):
        from .common import CliError

        raise CliError(f"--head {head}: expected a journal head (64 hex digits)")
    results = [(f, probs or _game_problems(f, s, head) or _rules_problems(s))
               for f, s, probs in iter_loaded(args.files)]
    ok = all(not probs for _, probs in results)
    data = {"valid": ok, "files": [{"file": f, "valid": not probs, "problems": [str(p) for p in probs],
                                    **({"note": NOTES[f]} if f in NOTES else {})} for f, probs in results]}

    def text() -> str:
        lines = []
        for f, probs in results:
            lines.append((f"{f}: ok" + (f" ({NOTES[f]})" if f in NOTES else "")) if not probs
                         else f"{f}: {len(probs)} problem{'s' if len(probs) > 1 else ''}")
            lines.extend(f"  {p}" for p in probs)
        return "\n".join(lines)

    emit(args, data, text)
    if not ok and not args.json:
        sys.stdout.flush()
    return EXIT_OK if ok else EXIT_FAIL
