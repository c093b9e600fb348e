"""One home per rules system's UI, found through the rules registry.

Each rules system's editor UI lives in one package and exports one
:class:`SystemUI` named ``UI``: its previews (grid and territory maps), its
territory modes (tools), what it adds to a window (docks, actions: its
``installs``) and where its Help page sits.  The editors never name a
system: they ask :func:`uis_for` for the UIs of the systems the registry
lists for their map kinds and use what those carry.

Where a system's UI is found, by the system's registered name:

1. a :class:`SystemUI` given to :func:`register_ui` (tests, or a plugin that
   registers itself when imported);
2. the built-in package ``app/gui/systems/<name>/`` (its ``UI``);
3. an installed package's entry point in the group ``adjutant.ui`` named
   after the system, pointing at its ``SystemUI`` (read the first time a
   system without a built-in UI is asked about).

A system without a UI is still played and checked by the turn engine and
the CLI; the editor simply offers it no preview.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable
from importlib.metadata import entry_points

from engine.rules import registry

from ..preview import Preview, TerritoryPreview
from .base import EditorHost, SystemPart, SystemUI, TakesClicks

ENTRY_POINT_GROUP = "adjutant.ui"
"""The entry point group a plugin package names its :class:`SystemUI` in."""

GRID_KINDS: tuple[str, ...] = ("square", "hex")
"""The map kinds of the grid editor."""
TERRITORY_KINDS: tuple[str, ...] = ("territory",)
"""The map kinds of the territory editor."""


_REGISTERED: dict[str, SystemUI] = {}
_FOUND: dict[str, SystemUI | None] = {}


def register_ui(ui: SystemUI) -> SystemUI:
    """Make ``ui`` the UI of the system ``ui.system`` (replacing any found
    before); returns it."""
    _REGISTERED[ui.system] = ui
    _FOUND.pop(ui.system, None)
    return ui


def unregister_ui(system: str) -> None:
    """Forget a UI given to :func:`register_ui` (tests clean up with it)."""
    _REGISTERED.pop(system, None)
    _FOUND.pop(system, None)


def _builtin(system: str) -> SystemUI | None:
    name = f"{__name__}.{system}"
    if not system.isidentifier() or importlib.util.find_spec(name) is None:
        return None
    ui = getattr(importlib.import_module(name), "UI", None)
    return ui if isinstance(ui, SystemUI) else None


BROKEN: dict[str, str] = {}
"""Plugins' UIs that failed to load, by system name, with the reason: such
a system is played without a UI, and the editor goes on."""


def _plugin(system: str) -> SystemUI | None:
    try:
        for ep in entry_points(group=ENTRY_POINT_GROUP, name=system):
            ui = ep.load()
            if isinstance(ui, SystemUI) and ui.system == system:
                return ui
            BROKEN[system] = f"its {ENTRY_POINT_GROUP} entry point {ep.value} is not the SystemUI of {system!r}"
    except Exception as e:  # noqa: BLE001 -- a plugin's failure is reported, never raised
        BROKEN[system] = f"{type(e).__name__}: {e}"
    return None


def ui_for(system: str) -> SystemUI | None:
    """The UI of the rules system named ``system`` (``None``: it has none)."""
    if system in _REGISTERED:
        return _REGISTERED[system]
    if system not in _FOUND:
        _FOUND[system] = _builtin(system) or _plugin(system)
    return _FOUND[system]


def uis_for(kinds: Iterable[str]) -> list[SystemUI]:
    """The UIs of every system the registry lists for maps of ``kinds``, by
    :attr:`SystemUI.position`, then name."""
    names = sorted({s.name for kind in kinds for s in registry.for_map_kind(kind)})
    found = [ui for ui in (ui_for(n) for n in names) if ui is not None]
    return sorted(found, key=lambda ui: (ui.position, ui.system))


def previews_for(kinds: Iterable[str] = GRID_KINDS) -> list[Preview]:
    """One instance of every grid preview of the systems for ``kinds``, by
    system name."""
    return [cls() for ui in sorted(uis_for(kinds), key=lambda u: u.system) for cls in ui.previews]


def territory_previews_for(kinds: Iterable[str] = TERRITORY_KINDS) -> list[TerritoryPreview]:
    """One instance of every territory preview of the systems for ``kinds``,
    by system name."""
    return [cls() for ui in sorted(uis_for(kinds), key=lambda u: u.system) for cls in ui.territory_previews]


def help_pages() -> list[tuple[str, str]]:
    """``(menu title, page)`` of every registered system's rule page that
    has a UI, in :attr:`SystemUI.position` order; ``page`` is
    ``RulesSystem.doc`` (a path from the repository's root)."""
    out: list[tuple[str, str]] = []
    systems = {s.name: s for s in registry.systems()}
    for ui in sorted((u for u in (ui_for(n) for n in systems) if u is not None),
                     key=lambda u: (u.position, u.system)):
        system = systems[ui.system]
        if system.doc:
            out.append((ui.help_title or f"Rules: {system.title}", system.doc))
    return out


__all__ = ["BROKEN", "ENTRY_POINT_GROUP", "GRID_KINDS", "TERRITORY_KINDS", "EditorHost", "SystemPart", "SystemUI", "TakesClicks", "help_pages", "previews_for",
           "register_ui", "territory_previews_for", "ui_for", "uis_for", "unregister_ui"]
