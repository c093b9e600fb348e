"""The ``adjutant`` command line.

``adjutant`` alone opens the editor on the bundled sample; ``adjutant FILE``
opens that file; ``adjutant COMMAND ...`` runs a headless command.  Each
command lives in its own module in this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed arguments and returning the exit status).  Modules are
discovered automatically, so adding a command touches no other file.

Every command prints human text by default and one JSON object with
``--json``.  Failures print a clear message (and ``{"error": ...}`` under
``--json``) and exit 1; argument errors exit 2; nothing prints a traceback.
JSON output is strict (no ``NaN``/``Infinity``, see
:func:`app.cli.common.strict_json`).  A reader that closes the pipe early
(``adjutant info --json map.json | head -1``) ends the command quietly with
status 141 (128 + SIGPIPE, what a shell reports for a program ended by a
closed pipe).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from engine.model import ModelError

from .common import EXIT_FAIL, CliError, strict_json

EXIT_PIPE_CLOSED = 141
"""128 + SIGPIPE: the status of a command whose reader closed the pipe."""
SAMPLE = "acw_short_campaign.json"
"""The bundled scenario ``adjutant`` opens with no arguments."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="adjutant",
        description="Map editor and movement adjudicator for square, hex and territory wargames. "
                    "Run without a command to open the editor (on FILE, or on a bundled sample).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "common":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def _open_gui(path: str | None) -> int:
    from engine.paths import sample_map

    try:
        from app.gui import run
    except ImportError as e:
        print(f"adjutant: the editor needs PySide6, which could not be imported ({e})", file=sys.stderr)
        return EXIT_FAIL
    return run(path if path is not None else str(sample_map(SAMPLE)))


def _pipe_closed() -> int:
    """stdout's reader is gone: point stdout at the null device (so the
    interpreter's final flush does not fail again) and end quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (tests capture it)
        pass
    return EXIT_PIPE_CLOSED


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``adjutant`` with ``argv`` (default: the process's arguments);
    the exit status."""
    try:
        try:
            status = _main(argv)
        finally:
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except BrokenPipeError:
        return _pipe_closed()
    return status


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    if not args_list:
        return _open_gui(None)
    if args_list[0] not in commands and not args_list[0].startswith("-"):
        if len(args_list) > 1:
            parser.error(f"unknown command '{args_list[0]}' (commands: {', '.join(sorted(commands))})")
        return _open_gui(args_list[0])
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return EXIT_FAIL
    try:
        return int(args.func(args))
    except (CliError, ModelError, ValueError) as e:
        message = e.message if isinstance(e, CliError) else str(e)
        problems = e.problems if isinstance(e, CliError) else []
        if getattr(args, "json", False):
            sys.stdout.write(strict_json({"error": message, "problems": problems}) + "\n")
        print(f"adjutant {args.command}: {message}", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        return e.code if isinstance(e, CliError) else EXIT_FAIL
    except KeyboardInterrupt:
        return 130
