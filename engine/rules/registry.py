"""The registry of rules systems: :func:`register` (a class decorator),
:func:`get`, :func:`systems`, :func:`for_map_kind`.

The built-in systems (:data:`BUILTIN_MODULES`: every module and package of
``engine/rules/`` but the interface and this registry) are imported the
first time the registry is asked, so importing the engine or running
``adjutant --help`` does not load every system.  The interface a system implements is
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
    """Remove a system (tests that register a throw-away system)."""
    _SYSTEMS.pop(name, None)


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


def systems() -> list[RulesSystem[Any, Any]]:
    """Every registered system, by name."""
    _load_builtins()
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
    module is imported only when the name is not one of theirs."""
    if name not in _SYSTEMS and f"{__package__}.{name}" in BUILTIN_MODULES:
        importlib.import_module(f"{__package__}.{name}")
    if name not in _SYSTEMS:
        _load_builtins()
    try:
        return _SYSTEMS[name]
    except KeyError:
        raise ModelError(f"no rules system {name!r} (known: {', '.join(sorted(_SYSTEMS))})") from None


def for_map_kind(kind: str) -> list[RulesSystem[Any, Any]]:
    """The systems that play on maps of ``kind``, by name."""
    return [s for s in systems() if kind in s.map_kinds]


__all__ = ["BUILTIN_MODULES", "MAP_KINDS", "NOT_SYSTEMS", "for_map_kind", "get", "is_builtin", "names", "register",
           "systems", "unregister"]
