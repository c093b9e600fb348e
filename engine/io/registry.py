"""Which reader reads a scenario file: ``{map.grid.kind: reader}``.

A scenario file says its map kind in ``map.grid.kind``; :data:`READERS`
maps each kind to the function that validates decoded JSON of that kind and
builds the scenario (:mod:`engine.io.grid` for ``square`` and ``hex``,
:mod:`engine.io.territory` for ``territory``).  :func:`load_any` reads a
file of any kind; a file whose kind no reader claims goes to the grid reader,
whose schema check names what is wrong.  :data:`WRITERS` is the same for
saving.  See ``docs/file-format.md`` and ``docs/file-format-territory.md``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeAlias

from ..model import Scenario
from . import grid
from .common import SURROGATES, Problem, ScenarioError, capped, grid_kind, parse_json, read_text, text_problems

if TYPE_CHECKING:
    from ..territory.model import TerritoryScenario

AnyScenario: TypeAlias = "Scenario | TerritoryScenario"
"""A grid or a territory scenario (a name for annotations: the territory
model, with networkx and shapely behind it, is imported only when a file or
a scenario of that kind turns up, so start-up stays cheap)."""

TERRITORY_KIND = "territory"
"""``map.grid.kind`` of a territory file (:data:`engine.io.territory.KIND`)."""


def _read_territory(data: Any, source: str) -> TerritoryScenario:
    from . import territory

    return territory.territory_scenario_from_data(data, source)


def _save_territory(s: TerritoryScenario, path: str | os.PathLike[str]) -> None:
    from . import territory

    territory.save_territory_scenario(s, path)


def _territory_class() -> type:
    from ..territory.model import TerritoryScenario

    return TerritoryScenario

Reader = Callable[[Any, str], AnyScenario]
"""Decoded JSON and its source name -> the scenario, or ScenarioError."""

READERS: dict[str, Reader] = {
    "square": grid.scenario_from_data,
    "hex": grid.scenario_from_data,
    TERRITORY_KIND: _read_territory,
}
"""The reader of each ``map.grid.kind``."""

WRITERS: dict[str, Callable[[Any, str | os.PathLike[str]], None]] = {
    "grid": grid.save_scenario,
    TERRITORY_KIND: _save_territory,
}
"""The atomic writer of each kind of scenario: ``grid`` for a
:class:`Scenario`, ``territory`` for a territory scenario."""


def reader_for(data: Any) -> Reader:
    """The reader for decoded JSON (the grid reader when the kind is
    missing or unknown: its schema check reports it)."""
    return READERS.get(grid_kind(data) or "", grid.scenario_from_data)


def loads_any(text: str, source: str = "<string>") -> AnyScenario:
    """Parse scenario JSON text of any map kind (see :func:`load_any`)."""
    data = parse_json(text, source)
    return reader_for(data)(data, source)


def load_any(path: str | os.PathLike[str]) -> AnyScenario:
    """Read and validate a scenario file of any map kind: a grid
    :class:`Scenario` or, when ``map.grid.kind`` is ``"territory"``, a
    :class:`engine.territory.TerritoryScenario`; raises :class:`ScenarioError`."""
    return loads_any(read_text(path), str(path))


def save_any(s: AnyScenario, path: str | os.PathLike[str]) -> None:
    """Save a grid or territory scenario atomically (the written file is
    loaded back before it replaces the old one); raises
    :class:`engine.io.atomic.OutputError`."""
    if isinstance(s, Scenario):
        WRITERS["grid"](s, path)
    elif isinstance(s, _territory_class()):
        WRITERS[TERRITORY_KIND](s, path)
    else:
        raise TypeError(f"not a scenario: {type(s).__name__}")


def dumps_any(s: AnyScenario) -> str:
    """The file text of a grid or territory scenario."""
    if isinstance(s, Scenario):
        return grid.dumps_scenario(s)
    from . import territory

    return territory.dumps_territory_scenario(s)


def load_text_checked(path: str | os.PathLike[str],
                      loader: Callable[[str | os.PathLike[str]], Any] | None = None) -> Any:
    """:func:`load_any`, also refusing lone surrogates (half of a UTF-16 pair,
    written as a ``\\udXXX`` escape) in any string, named by JSON path: the
    commands print and export names, which must encode as UTF-8.  The
    surrogates are looked for first, so no other problem's message carries
    one.  The editor's File > Open reads through here too; only its
    recovery of an autosave accepts them (``app/gui/window_recovery.py``),
    so work is never refused on the way back.  ``loader`` (default
    :func:`load_any`) reads the file after that check."""
    surrogate_check(read_text(path), str(path))
    return (loader or load_any)(path)


def loads_text_checked(text: str, source: str) -> AnyScenario:
    """:func:`load_text_checked` of file text already read."""
    surrogate_check(text, source)
    return loads_any(text, source)


def surrogate_check(text: str, source: str) -> None:
    """:class:`ScenarioError` naming each string of the JSON ``text`` that
    holds a lone surrogate (see :func:`load_text_checked`)."""
    if "\\ud" in text.lower():
        try:
            data = parse_json(text, source)
        except ScenarioError:
            return  # not JSON: the loader says where
        problems = text_problems(data, source, SURROGATES)
        if problems:
            raise ScenarioError(capped(problems, source))


def iter_problems(paths: list[str]) -> Iterator[tuple[str, list[Problem]]]:
    """For each path, the problems loading it finds (empty when valid;
    lone surrogates included, see :func:`load_text_checked`)."""
    for p, _, problems in iter_loaded(paths):
        yield p, problems


def iter_loaded(paths: list[str]) -> Iterator[tuple[str, AnyScenario | None, list[Problem]]]:
    """For each path, the scenario (``None`` when it does not load) and the
    problems loading it finds, so a caller that checks more (``adjutant
    validate``: the rules systems' set-up) reads each file once."""
    for p in paths:
        try:
            s = load_text_checked(p)
        except ScenarioError as e:
            yield p, None, e.problems
        else:
            yield p, s, []


__all__ = ["READERS", "WRITERS", "AnyScenario", "dumps_any", "iter_loaded", "iter_problems", "load_any", "load_text_checked", "loads_any", "loads_text_checked", "reader_for",
           "save_any"]
