"""Helpers shared by every ``adjutant`` subcommand: loading a scenario with
clear errors, and printing a result as human text or JSON."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the loaders import engine.io when called: see app/cli/__init__.py on start-up
    from engine.io import Problem
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


def load(path: str) -> Scenario:
    """Load a grid scenario or raise :class:`CliError` listing every problem."""
    from engine.io import ScenarioError, load_scenario, load_text_checked

    try:
        s: Scenario = load_text_checked(path, load_scenario)
    except ScenarioError as e:
        raise _cannot_load(path, e.problems) from None
    return s


def load_territory(path: str, needed_for: str) -> TerritoryScenario:
    """Load a territory scenario, or raise :class:`CliError` listing every
    problem, or saying that a grid map cannot serve ``needed_for``."""
    from engine.io import ScenarioError, load_text_checked
    from engine.territory import TerritoryScenario

    try:
        s = load_text_checked(path)
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


def emit(args: argparse.Namespace, data: dict[str, Any], text: str | Callable[[], str]) -> None:
    """Print ``data`` as strict JSON when ``--json`` was given (see
    :func:`strict_json`), else ``text``."""
    if getattr(args, "json", False):
        sys.stdout.write(strict_json(data) + "\n")
    else:
        sys.stdout.write((text() if callable(text) else text).rstrip("\n") + "\n")
