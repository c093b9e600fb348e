"""The ``adjutant`` command line.

``adjutant`` alone opens the editor on the bundled sample; ``adjutant FILE``
opens that file; ``adjutant COMMAND ...`` runs a headless command.  Each
command lives in its own module in this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed arguments and returning the exit status).  Modules are
discovered automatically, so adding a command touches no other file.

Start-up stays cheap because a run imports only the module of the command it
runs (never another command's engine code, scipy, networkx or shapely).
For that, each command module states
its commands in a module-level literal, read from the source without
importing the module::

    COMMANDS = {"reach": "ACW: every hex a unit can reach ...", ...}

mapping each command name ``register`` adds to its one-line help (``register``
passes ``help=COMMANDS[name]`` to ``add_parser``, so the text lives once).
``adjutant --help`` lists every command from these literals and imports no
command module; ``adjutant NAME ...`` imports and registers only the module
whose ``COMMANDS`` names NAME.  A module may import what it needs at its top
(``app.cli.common`` itself imports nothing heavy: the loaders import
``engine.io`` when called).  A module without ``COMMANDS`` still works, but
is imported on every run; ``tests/test_cli_startup.py`` requires the literal
to match what ``register`` adds.

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
import ast
import importlib
import os
import re
import sys
from collections.abc import Sequence

from .common import EXIT_FAIL, CliError, printable, strict_json

EXIT_PIPE_CLOSED = 141
"""128 + SIGPIPE: the status of a command whose reader closed the pipe."""
SAMPLE = "acw_short_campaign.json"
"""The bundled scenario ``adjutant`` opens with no arguments."""


_COMMANDS_LITERAL = re.compile(r"^COMMANDS[ \t]*(?::[^=\n]*)?=[ \t]*(\{.*?^\})", re.M | re.S)
"""A module-level ``COMMANDS = {...}`` whose closing brace starts a line."""


def declared_commands(path: str) -> dict[str, str] | None:
    """The ``COMMANDS`` literal of the command module at ``path`` (command
    name -> one-line help), read from its source without importing it; None
    when the module has no such literal (it is then imported to register).
    The literal alone is evaluated when it can be found by its shape (a
    whole module's syntax tree costs more than the rest of a small
    command's start-up); else the module is parsed."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    found = _COMMANDS_LITERAL.findall(source)
    if len(found) == 1:  # the literal alone, without parsing the whole module (every run reads every module)
        try:
            quick = ast.literal_eval(found[0])
        except (ValueError, SyntaxError):
            quick = None
        if isinstance(quick, dict) and quick and all(isinstance(k, str) and isinstance(v, str)
                                                     for k, v in quick.items()):
            return quick
    tree = ast.parse(source, filename=path)
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id == "COMMANDS" for t in targets):
            continue
        try:
            commands = ast.literal_eval(value)
        except ValueError:
            commands = None
        if not (isinstance(commands, dict) and commands
                and all(isinstance(k, str) and isinstance(v, str) for k, v in commands.items())):
            raise SyntaxError(f"{path}: COMMANDS must be a literal dict of command name -> help text")
        return commands
    return None


def command_modules() -> list[tuple[str, dict[str, str] | None]]:
    """Every command module of this package, by name, with its declared
    commands (None: not declared)."""
    folder = __path__[0]
    names = sorted(n[:-3] for n in os.listdir(folder)
                   if n.endswith(".py") and not n.startswith("_") and n != "common.py")
    return [(n, declared_commands(os.path.join(folder, n + ".py"))) for n in names]


def _register(sub: argparse._SubParsersAction, module_name: str) -> None:  # type: ignore[type-arg]
    module = importlib.import_module(f"{__name__}.{module_name}")
    register = getattr(module, "register", None)
    if register is not None:
        register(sub)


def build_parser(command: str | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """The ``adjutant`` parser.  By default every command module is imported
    and registered.  With ``lazy``, only the module declaring ``command`` is
    (when some module declares it): the other declared commands are listed
    by name and help only, enough for ``adjutant --help`` and for telling a
    command from a file name."""
    parser = argparse.ArgumentParser(
        prog="adjutant",
        description="Map editor and movement adjudicator for square, hex and territory wargames. "
                    "Run without a command to open the editor (on FILE, or on a bundled sample).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, declared in command_modules():
        if declared is None or not lazy or command in declared:
            _register(sub, name)
        else:
            for cmd, help_text in declared.items():
                sub.add_parser(cmd, help=help_text)
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


def _single_threaded_blas() -> None:
    """Let numpy's OpenBLAS start one thread, not one per core: starting its
    thread pool costs about 50 ms of CPU at ``import numpy`` (measured
    here: 119 against 70 ms), a fifth of a small ``validate``, and a
    one-shot command does no linear algebra big enough to share (the
    calibration's least squares has six unknowns; Module I's ``linprog`` is
    HiGHS, not BLAS).  A value the user set is kept."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(var, "1")


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        return _open_gui(None)
    if not os.path.isfile(args_list[0]):  # a command, not a file for the editor
        _single_threaded_blas()
    parser = build_parser(args_list[0], lazy=True)
    commands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr, arg-type]
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
    except (CliError, ValueError) as e:  # engine.model.ModelError is a ValueError
        message = printable(e.message if isinstance(e, CliError) else str(e))
        problems = [printable(p) for p in (e.problems if isinstance(e, CliError) else [])]
        if getattr(args, "json", False):
            sys.stdout.write(strict_json({"error": message, "problems": problems}) + "\n")
        print(f"adjutant {args.command}: {message}", file=sys.stderr)
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        return e.code if isinstance(e, CliError) else EXIT_FAIL
    except KeyboardInterrupt:
        return 130
