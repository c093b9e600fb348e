"""Game > Check Set-up: what the scenario's rules systems find wrong with the
set-up (their optional ``setup_problems``: for ACW, every unit outside its
side's deployment zone, "within 1 hex of" its deployment cities).  The
same check ``adjutant validate`` prints; the window runs it
when a map is opened and says in the status bar how many problems it found,
and the menu entry lists them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction

from engine.model import ModelError


def setup_problems(scenario: Any) -> list[str]:
    """Each rules system the ruleset names, its set-up problems (prefixed
    with the system's name)."""
    from engine.rules import registry

    state = getattr(scenario, "state", None)
    if isinstance(state, dict) and "side_view" in state:  # a side's file of a game under way: no set-up to check
        return []
    options = getattr(getattr(scenario, "ruleset", None), "options", None) or {}
    out: list[str] = []
    for name in options:
        try:
            system = registry.get(name)
        except (KeyError, ModelError, ValueError):
            continue
        out.extend(f"{name}: {p}" for p in system.setup_problems(scenario))
    return out


def check(window: Any, quiet: bool = False) -> list[str]:
    """Run the check on the window's scenario: a dialog listing the problems
    (``quiet``: only a status-bar line when there are any)."""
    problems = setup_problems(window.document.scenario)
    if problems:
        n = len(problems)
        window.statusBar().showMessage(f"Set-up: {n} problem{'s' if n != 1 else ''} "
                                       f"(Game > Check Set-up lists them)", 15000)
        if not quiet:
            window.show_error("Set-up problems", f"{n} problem{'s' if n != 1 else ''} with the set-up:", problems)
    elif not quiet:
        window.statusBar().showMessage("Set-up: no problem found", 8000)
    return problems


def install(window: Any) -> QAction:
    """Add Game > Check Set-up (the action returned, which the window keeps)
    and check each map as it is opened."""
    act: QAction = window.make_action("Check &Set-up", lambda: check(window), None,
                         "List what the rules find wrong with the set-up (units outside their deployment zones)")
    act.setObjectName("actionCheckSetup")
    window.game.menu.addSeparator()
    window.game.menu.addAction(act)
    window.document.scenarioReplaced.connect(lambda _s: QTimer.singleShot(0, lambda: check(window, quiet=True)))
    QTimer.singleShot(0, lambda: check(window, quiet=True))  # once the window has said its own first words
    return act


__all__ = ["check", "install", "setup_problems"]
