"""Helpers shared by every ``adjutant`` subcommand: loading a scenario with
clear errors, printing a result as human text or JSON, and rewriting a map
file as one writer at a time (:func:`rewriting`, :func:`writing_scenario`:
the map lock of :mod:`app.locks`, the file re-read under it and a write
refused when the file changed since it was read)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the loaders import engine.io when called: see app/cli/__init__.py on start-up
    from engine.io import Problem
    from engine.io.registry import AnyScenario
    from engine.model import Scenario
    from engine.territory import TerritoryScenario

EXIT_OK = 0
EXIT_FAIL = 1  # invalid input, refused order, failed check
EXIT_USAGE = 2  # argparse's own exit status for bad arguments


class CliError(Exception):
    """A failure to report in one or more lines, without a traceback."""

    def __init__(self, message: str, problems: list[str] | None = None, code: int = EXIT_FAIL) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or []
        self.code = code


def gui_app() -> Any:
    """The Qt application painting needs (Qt's offscreen platform unless
    ``QT_QPA_PLATFORM`` is set), made once; PySide6 is imported only here,
    by the commands that draw (``render``, ``journal --crops``)."""
    import os

    from app.gui import paint_serially

    paint_serially()  # Qt's painting kept on this thread (it also runs when app.gui is imported)

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from PySide6.QtGui import QGuiApplication
    except ImportError as e:
        raise CliError(f"drawing needs PySide6, which could not be imported ({e})") from None
    app = QGuiApplication.instance()
    if app is None:
        app = QGuiApplication([sys.argv[0] if sys.argv else "adjutant"])
    return app


def add_json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _cannot_load(path: str, problems: list[Problem]) -> CliError:
    n = len(problems)
    return CliError(f"{path}: cannot load ({n} problem{'s' if n != 1 else ''})", [str(p) for p in problems])


def load(path: str, rewrite: Rewrite | None = None) -> Scenario:
    """Load a grid scenario or raise :class:`CliError` listing every problem
    (through ``rewrite`` when the command will write it back)."""
    from engine.io import ScenarioError, load_scenario, load_text_checked
    from engine.model import Scenario

    if rewrite is not None:
        loaded = rewrite.load(checked=True)
        if not isinstance(loaded, Scenario):
            raise CliError(f"{path}: a territory map; this command needs a square or hex grid map")
        return loaded
    try:
        s: Scenario = load_text_checked(path, load_scenario)
    except ScenarioError as e:
        raise _cannot_load(path, e.problems) from None
    return s


def require_system(scenario: Any, system: str, path: str, command: str) -> None:
    """Raise :class:`CliError` (exit 1) when ``scenario``'s ruleset does not
    play the rules system ``system``: a rules command on another system's
    map says which systems the map plays instead of answering nonsense."""
    options = getattr(getattr(scenario, "ruleset", None), "options", None) or {}
    if system in options:
        return
    from engine.rules import registry

    titles = {s.name: s.title for s in registry.systems()}
    plays = [f"{titles[n]} ({n})" for n in options if n in titles]
    wanted = titles.get(system, system)
    said = ("this map plays " + " and ".join(plays)) if plays else \
        "this map's ruleset names no rules system (ruleset.options)"
    raise CliError(f"{path}: adjutant {command} is for {wanted} ({system}) maps; {said}")


def load_territory(path: str, needed_for: str, rewrite: Rewrite | None = None) -> TerritoryScenario:
    """Load a territory scenario, or raise :class:`CliError` listing every
    problem, or saying that a grid map cannot serve ``needed_for`` (through
    ``rewrite`` when the command will write it back)."""
    from engine.io import ScenarioError, load_text_checked
    from engine.territory import TerritoryScenario

    try:
        s = rewrite.load(checked=True) if rewrite is not None else load_text_checked(path)
    except ScenarioError as e:
        raise _cannot_load(path, e.problems) from None
    if not isinstance(s, TerritoryScenario):
        raise CliError(f"{path}: a {s.map.grid.to_dict()['kind']} grid map; {needed_for} need a territory map")
    return s


def _non_finite(data: Any, where: str) -> tuple[str, float] | None:
    """The first field of ``data`` holding NaN or an infinity (its path,
    like ``units[3].strength``, and value), or ``None``."""
    if isinstance(data, float):
        return None if math.isfinite(data) else (where, data)
    if isinstance(data, dict):
        items: Any = ((f"{where}.{k}" if where else str(k), v) for k, v in data.items())
    elif isinstance(data, (list, tuple)):
        items = ((f"{where}[{i}]", v) for i, v in enumerate(data))
    else:
        return None
    for path, value in items:
        found = _non_finite(value, path)
        if found is not None:
            return found
    return None


def strict_json(data: Any) -> str:
    """``data`` as strict JSON text (RFC 8259: no ``NaN``/``Infinity``); a
    non-finite number raises :class:`CliError` naming the field."""
    try:
        return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)
    except ValueError:
        found = _non_finite(data, "")
        if found is None:
            raise
        raise CliError(f"cannot print JSON: field '{found[0] or '(top level)'}' is {found[1]}, "
                       "which JSON cannot represent") from None


def printable(text: str) -> str:
    """``text`` as it can be printed: a lone surrogate (half of a UTF-16
    pair, which no UTF-8 output can carry) written as its ``\\udXXX``
    escape, which in JSON text means the same character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def emit(args: argparse.Namespace, data: dict[str, Any], text: str | Callable[[], str]) -> None:
    """Print ``data`` as strict JSON when ``--json`` was given (see
    :func:`strict_json`), else ``text``; lone surrogates are printed as
    escapes (:func:`printable`)."""
    if getattr(args, "json", False):
        write_out(printable(strict_json(data)) + "\n")
    else:
        write_out(printable((text() if callable(text) else text).rstrip("\n")) + "\n")


def write_out(text: str) -> None:
    """Write ``text`` to standard output whole, or raise
    :class:`BrokenPipeError` when the reader is gone (the command then ends
    with status 141, see :mod:`app.cli`): written to the file descriptor in
    a loop, since a pipe's reader closing mid-write makes the write return
    short and Python's buffered stream would drop the rest unseen."""
    out = sys.stdout
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test captures it)
        out.write(text)
        return
    out.flush()
    view = memoryview(text.encode(getattr(out, "encoding", None) or "utf-8", getattr(out, "errors", None) or "strict"))
    while view:
        view = view[os.write(fd, view):]


# ---------------------------------------------------------------------------
# one writer at a time

class FileChanged(CliError):
    """The file changed on disk since the command read it; nothing was
    written."""


class Rewrite:
    """A command's rewrite of the map file at :attr:`path`, made while the
    map's lock is held (see :func:`rewriting`): :meth:`load` reads the file
    and remembers what it read; :meth:`save` writes only when the file is
    still what was read, else raises :class:`FileChanged` saying what
    changed."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._read: bytes | None = None  # the file's bytes as read (compared, not hashed)
        self._written: tuple[int, int, int, int] | None = None
        """The file's ``(device, inode, size, mtime)`` after this rewrite's
        save (how an append in place tells a file it wrote is unchanged)."""

    def load(self, checked: bool = False) -> AnyScenario:
        """The scenario in the file (``checked``: lone surrogates refused
        too, as :func:`engine.io.load_text_checked`), parsed from the very
        bytes :meth:`save` compares the file with; raises :class:`CliError`
        listing every problem."""
        from engine.io import ScenarioError, loads_any
        from engine.io.common import decode_text, read_bytes
        from engine.io.journal_file import file_stat
        from engine.io.registry import loads_text_checked, remember_origin

        try:
            before = file_stat(self.path)
            raw = read_bytes(self.path)
            self._read, self._written = raw, None
            text = decode_text(raw, self.path)
            s = loads_text_checked(text, self.path) if checked else loads_any(text, self.path)
            remember_origin(s, self.path, before)
            return s
        except ScenarioError as e:
            raise _cannot_load(self.path, e.problems) from None

    def changed(self) -> str | None:
        """What changed in the file since :meth:`load` read it, or ``None``."""
        from engine.io import ScenarioError
        from engine.io.common import read_bytes
        from engine.io.journal_file import file_stat

        if self._written is not None:  # saved by this rewrite: the file as it was left
            now_stat = file_stat(self.path)
            if now_stat == self._written:
                return None
            size, now_size, how = self._written[2], now_stat[2] if now_stat else 0, "written"
        elif self._read is None:
            return None
        else:
            size, how = len(self._read), "read"
            try:
                now = read_bytes(self.path)
            except ScenarioError as e:
                return "; ".join(p.message for p in e.problems)
            if now == self._read:
                return None
            now_size = len(now)
        try:
            when = time.strftime("%H:%M:%S", time.localtime(os.stat(self.path).st_mtime))
        except OSError:
            when = "meanwhile"
        return f"another program rewrote it at {when} ({size} bytes when {how}, {now_size} bytes now)"

    def save(self, scenario: AnyScenario) -> None:
        """Write ``scenario`` over the file (:func:`engine.io.save_any`)
        unless the file changed since it was read."""
        from engine.io import save_any
        from engine.io.journal_file import file_stat

        why = self.changed()
        if why is not None:
            raise FileChanged(f"{self.path} changed on disk since this command read it: {why}; nothing was "
                              "written (run the command again on the new file)")
        save_any(scenario, self.path)
        self._read, self._written = None, file_stat(self.path)


@contextmanager
def rewriting(path: str, command: str) -> Iterator[Rewrite]:
    """Hold the map lock of ``path`` (:func:`app.locks.hold_map`) for the
    command ``command`` (``"orders"``) while the block reads and rewrites
    it through the :class:`Rewrite` it is given; a map open in an editor, or
    held by another command for too long, is :class:`CliError`."""
    from app.locks import MapBusy, hold_map

    try:
        with hold_map(path, f"adjutant {command}"):
            yield Rewrite(path)
    except MapBusy as e:
        raise CliError(str(e)) from None


@contextmanager
def rewriting_if(write: bool, path: str, command: str) -> Iterator[Rewrite | None]:
    """:func:`rewriting` when ``write`` (the command will write ``path``
    back), else nothing held: yields ``None``."""
    if not write:
        yield None
        return
    with rewriting(path, command) as rw:
        yield rw


@contextmanager
def writing_scenario(out: str, command: str, inputs: list[str | None] | None = None,
                     force: bool = False) -> Iterator[None]:
    """Check ``out`` as an output (:func:`engine.io.check_output`: a regular
    file or a new one, none of ``inputs`` unless ``force``) and hold its map
    lock while the block writes a scenario there: a map open in an editor is
    refused (that editor would save over it)."""
    from app.locks import MapBusy, hold_map
    from engine.io import check_output

    check_output(out, inputs or [], force)
    try:
        with hold_map(out, f"adjutant {command}"):
            yield
    except MapBusy as e:
        raise CliError(str(e)) from None
