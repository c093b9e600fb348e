"""The registry of rules systems: :func:`register` (a class decorator),
:func:`get`, :func:`systems`, :func:`for_map_kind`.

The built-in systems (:data:`BUILTIN_MODULES`: every module and package of
``engine/rules/`` but the interface and this registry) are imported the
first time the registry is asked, so importing the engine or running
``adjutant --help`` does not load every system.

Plugins: a pip-installed package adds a system through the entry point
group :data:`PLUGIN_GROUP` (``adjutant.rules``), one entry point per system,
named after it, pointing at the module that registers it or at its class
(``leap = "adjutant_example_rules.system:Leap"``).  :func:`plugins` lists
them from the installed packages' metadata without importing them; a plugin
is imported when it is used: :func:`get` by its name, or :func:`systems`
(every system, for the turn engine and the editor's previews).  A plugin that
fails to import (or registers no system of its name) is recorded as broken
with its reason (:func:`plugins`) and never stops the rest.  The interface a system implements is
:class:`engine.rules.base.RulesSystem`; ``docs/developing.md`` ("How to add a
rules system") has the recipe.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import TYPE_CHECKING, Any, TypeVar

from ..model import ModelError

if TYPE_CHECKING:
    from .base import RulesSystem

MAP_KINDS: frozenset[str] = frozenset({"square", "hex", "territory"})
"""The map kinds a system may name in ``map_kinds``."""

NOT_SYSTEMS = frozenset({"base", "registry"})
"""Modules of ``engine/rules/`` that are not rules systems."""


def _builtin_modules() -> tuple[str, ...]:
    import pkgutil

    from . import __path__ as here

    return tuple(f"{__package__}.{m.name}" for m in sorted(pkgutil.iter_modules(here), key=lambda m: m.name)
                 if m.name not in NOT_SYSTEMS and not m.name.startswith("_"))


BUILTIN_MODULES: tuple[str, ...] = _builtin_modules()
"""The modules and packages of ``engine/rules/`` (each a system that
registers itself on import), listed from the directory without importing
them; the registry imports them the first time it is asked.  A new system
is found by being there: no list to edit."""

_SYSTEMS: dict[str, RulesSystem[Any, Any]] = {}
_loaded = False

PLUGIN_GROUP = "adjutant.rules"
"""The entry point group of rules-system plugins."""


@dataclasses.dataclass(frozen=True)
class Plugin:
    """A rules system offered by an installed package: its entry point
    ``name`` (the system's name) and ``value`` (``module`` or
    ``module:Class``), the package (``dist``) and its ``version``, and its
    ``state``: ``"not loaded"`` (not imported yet), ``"loaded"`` or
    ``"broken"`` (then ``reason`` says why)."""

    name: str
    value: str
    dist: str
    version: str
    state: str = "not loaded"
    reason: str = ""

    @property
    def origin(self) -> str:
        return f"plugin {self.dist} {self.version}"

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "entry_point": self.value, "origin": self.origin, "dist": self.dist,
                "version": self.version, "state": self.state, **({"reason": self.reason} if self.reason else {})}


_PLUGIN_STATE: dict[str, tuple[str, str]] = {}
"""Per plugin name, its state and reason once it was loaded or failed."""


def _entry_points() -> list[Any]:
    """The installed entry points of :data:`PLUGIN_GROUP` (read from the
    packages' metadata; nothing is imported).  Tests replace it."""
    from importlib.metadata import entry_points

    return list(entry_points(group=PLUGIN_GROUP))


def plugins() -> list[Plugin]:
    """Every rules-system plugin installed, by name, with its state; imports
    none of them."""
    out = []
    for ep in sorted(_entry_points(), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        name = getattr(dist, "name", None) or "unknown package"
        version = getattr(dist, "version", None) or "unknown version"
        state, reason = _PLUGIN_STATE.get(ep.name, ("not loaded", ""))
        out.append(Plugin(ep.name, ep.value, str(name), str(version), state, reason))
    return out


def _load_plugin(ep: Any) -> RulesSystem[Any, Any] | None:
    """Import one plugin and return its system, or record why it is broken
    (and return ``None``).  Never raises."""
    if ep.name in _PLUGIN_STATE:
        return _SYSTEMS.get(ep.name)
    _load_builtins()
    if ep.name in _SYSTEMS and is_builtin(_SYSTEMS[ep.name]):
        _PLUGIN_STATE[ep.name] = ("broken", f"the name {ep.name!r} is a built-in system's")
        return None
    try:
        obj = ep.load()
        if isinstance(obj, type) and ep.name not in _SYSTEMS:
            register(obj)
    except Exception as e:  # noqa: BLE001 -- a plugin's failure is reported, never raised
        _PLUGIN_STATE[ep.name] = ("broken", f"{type(e).__name__}: {e}")
        return None
    system = _SYSTEMS.get(ep.name)
    if system is None:
        _PLUGIN_STATE[ep.name] = ("broken", f"{ep.value} registers no rules system named {ep.name!r}")
        return None
    _PLUGIN_STATE[ep.name] = ("loaded", "")
    return system


def _load_plugins() -> None:
    try:
        eps = _entry_points()
    except Exception:  # noqa: BLE001 -- unreadable metadata: no plugins
        return
    for ep in eps:
        _load_plugin(ep)


def origin(system: RulesSystem[Any, Any]) -> str:
    """Where ``system`` comes from: ``built-in``, ``plugin DIST VERSION`` or
    ``registered by MODULE`` (a system a test or a script registered)."""
    if is_builtin(system):
        return "built-in"
    for p in plugins():
        if p.name == system.name and p.state == "loaded":
            return p.origin
    return f"registered by {type(system).__module__}"

S = TypeVar("S", bound="type[RulesSystem[Any, Any]]")


def register(cls: S) -> S:
    """Class decorator: check ``cls`` and add an instance of it to the
    registry under ``cls.name``.  Raises :class:`TypeError` for a class that
    lacks a class attribute or names a map kind not in :data:`MAP_KINDS`, and
    :class:`ValueError` when another class holds the name."""
    for attr in ("name", "title", "map_kinds", "Options", "Order"):
        if not hasattr(cls, attr):
            raise TypeError(f"rules system {cls.__qualname__} has no {attr}")
    for attr in ("Options", "Order"):
        if not dataclasses.is_dataclass(getattr(cls, attr)):
            raise TypeError(f"{cls.__qualname__}.{attr} must be a dataclass")
    bad = set(cls.map_kinds) - MAP_KINDS
    if bad or not cls.map_kinds:
        raise TypeError(f"{cls.__qualname__}.map_kinds must be some of {', '.join(sorted(MAP_KINDS))}, "
                        f"got {sorted(cls.map_kinds)}")
    old = _SYSTEMS.get(cls.name)
    if old is not None and f"{type(old).__module__}.{type(old).__qualname__}" != f"{cls.__module__}.{cls.__qualname__}":
        raise ValueError(f"rules system name {cls.name!r} is taken by {type(old).__qualname__}")
    _SYSTEMS[cls.name] = cls()
    return cls


def unregister(name: str) -> None:
    """Remove a system (tests that register a throw-away system); a plugin
    of that name may be loaded again."""
    _SYSTEMS.pop(name, None)
    _PLUGIN_STATE.pop(name, None)


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True  # first, so a system that asks the registry while it loads does not loop
        try:
            for module in BUILTIN_MODULES:
                importlib.import_module(module)
        except BaseException:
            _loaded = False
            raise


def systems(load_plugins: bool = True) -> list[RulesSystem[Any, Any]]:
    """Every registered system, by name: the built-in ones, every plugin that
    loads (a broken one is left out: :func:`plugins` says why; with
    ``load_plugins`` false, only plugins loaded already) and any registered
    by other code."""
    _load_builtins()
    if load_plugins:
        _load_plugins()
    return [_SYSTEMS[n] for n in sorted(_SYSTEMS)]


def is_builtin(system: RulesSystem[Any, Any]) -> bool:
    """Whether ``system`` ships with Adjutant (its class lives in one of
    :data:`BUILTIN_MODULES` or a module of such a package)."""
    module = type(system).__module__
    return any(module == m or module.startswith(m + ".") for m in BUILTIN_MODULES)


def names() -> list[str]:
    """The registered names, sorted."""
    return [s.name for s in systems()]


def get(name: str) -> RulesSystem[Any, Any]:
    """The system registered as ``name``; raises :class:`ModelError` listing
    the known names.  A built-in system is found by importing its own module
    only (the others may be slow to import: scipy, networkx); every built-in
    module is imported only when the name is not one of theirs, and the
    plugins' entry points are read only when it is not a built-in's."""
    if name not in _SYSTEMS and f"{__package__}.{name}" in BUILTIN_MODULES:
        importlib.import_module(f"{__package__}.{name}")
    if name not in _SYSTEMS:
        _load_builtins()
    if name in _SYSTEMS:
        return _SYSTEMS[name]
    try:
        eps = [ep for ep in _entry_points() if ep.name == name]
    except Exception:  # noqa: BLE001 -- unreadable metadata: no plugins
        eps = []
    if eps:
        system = _load_plugin(eps[0])
        if system is not None:
            return system
        raise ModelError(f"the rules system {name!r} (a plugin) is broken: {_PLUGIN_STATE[name][1]}")
    known = sorted({*_SYSTEMS, *(p.name for p in plugins())})
    raise ModelError(f"no rules system {name!r} (known: {', '.join(known)})")


def for_map_kind(kind: str) -> list[RulesSystem[Any, Any]]:
    """The systems that play on maps of ``kind``, by name."""
    return [s for s in systems() if kind in s.map_kinds]


__all__ = ["BUILTIN_MODULES", "MAP_KINDS", "NOT_SYSTEMS", "PLUGIN_GROUP", "Plugin", "for_map_kind", "get", "is_builtin",
           "names", "origin", "plugins", "register", "systems", "unregister"]
