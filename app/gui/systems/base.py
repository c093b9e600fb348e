"""The one object a rules system's UI package exports (:class:`SystemUI`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..preview import Preview, TerritoryPreview


@dataclass(frozen=True)
class SystemUI:
    """What a rules system brings to the editor.

    ``system`` is the registered name of the rules system (``RulesSystem.name``).
    ``previews`` and ``territory_previews`` are preview classes (one instance
    per window); ``tools`` are territory tool classes (modes, in tool-bar
    order), each constructed with the window's tool context; ``installs`` are
    functions called once with a new editor window of a kind the system
    plays on, adding its docks and actions and returning what the window
    keeps (an object with ``press(event) -> bool`` takes a map click before
    the current tool); ``help_title`` is the Help menu entry that opens the
    system's rule page (``RulesSystem.doc``; empty: ``"Rules: " + title``);
    ``position`` orders systems in menus and tool bars (lower first, ties
    by name)."""

    system: str
    previews: tuple[type[Preview], ...] = ()
    territory_previews: tuple[type[TerritoryPreview], ...] = ()
    tools: tuple[type[Any], ...] = ()
    installs: tuple[Callable[[Any], Any], ...] = ()
    help_title: str = ""
    position: int = 100


__all__ = ["SystemUI"]
