"""Helpers shared by every ``adjutant`` subcommand: loading a scenario with
clear errors, and printing a result as human text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from engine.io import Problem, ScenarioError, load_any, load_scenario
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


def add_json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _cannot_load(path: str, problems: list[Problem]) -> CliError:
    n = len(problems)
    return CliError(f"{path}: cannot load ({n} problem{'s' if n != 1 else ''})", [str(p) for p in problems])


def load(path: str) -> Scenario:
    """Load a grid scenario or raise :class:`CliError` listing every problem."""
    try:
        return load_scenario(path)
    except ScenarioError as e:
        raise _cannot_load(path, e.problems) from None


def load_territory(path: str, needed_for: str) -> TerritoryScenario:
    """Load a territory scenario, or raise :class:`CliError` listing every
    problem, or saying that a grid map cannot serve ``needed_for``."""
    try:
        s = load_any(path)
    except ScenarioError as e:
        raise _cannot_load(path, e.problems) from None
    if not isinstance(s, TerritoryScenario):
        raise CliError(f"{path}: a {s.map.grid.to_dict()['kind']} grid map; {needed_for} need a territory map")
    return s


def emit(args: argparse.Namespace, data: dict[str, Any], text: str | Callable[[], str]) -> None:
    """Print ``data`` as JSON when ``--json`` was given, else ``text``."""
    if getattr(args, "json", False):
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write((text() if callable(text) else text).rstrip("\n") + "\n")
