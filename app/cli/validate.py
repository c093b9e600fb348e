"""``adjutant validate FILE...``: check scenario files."""

from __future__ import annotations

import argparse
import sys

from engine.io import iter_problems

from .common import EXIT_FAIL, EXIT_OK, add_json_flag, emit

COMMANDS = {
    "validate": "check scenario files; exit 0 when all are valid",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("validate", help=COMMANDS["validate"],
                       description="Load and check each scenario file. Prints one line per problem, "
                                   "naming the file, the JSON path and what was expected.")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    results = list(iter_problems(args.files))
    ok = all(not probs for _, probs in results)
    data = {"valid": ok, "files": [{"file": f, "valid": not probs, "problems": [str(p) for p in probs]}
                                   for f, probs in results]}

    def text() -> str:
        lines = []
        for f, probs in results:
            lines.append(f"{f}: ok" if not probs else f"{f}: {len(probs)} problem{'s' if len(probs) > 1 else ''}")
            lines.extend(f"  {p}" for p in probs)
        return "\n".join(lines)

    emit(args, data, text)
    if not ok and not args.json:
        sys.stdout.flush()
    return EXIT_OK if ok else EXIT_FAIL
