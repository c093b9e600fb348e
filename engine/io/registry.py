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

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ..model import Scenario
from . import grid
from .atomic import write_text_atomic
from .common import (
    SURROGATES,
    Problem,
    ScenarioError,
    capped,
    dumps_compact,
    grid_kind,
    parse_json,
    read_text,
    text_problems,
)
from .journal_file import JournalLines, append_in_place, file_stamp, file_stat, journal_parts, quiet, undo_path

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
    return _load_text(path)[0]


def _load_text(path: str | os.PathLike[str]) -> tuple[AnyScenario, str]:
    """:func:`load_any`, and the text it read."""
    before = file_stat(path)
    text = read_text(path)
    s = loads_any(text, str(path))
    remember_origin(s, path, before)
    return s, text


def remember_origin(s: AnyScenario, path: str | os.PathLike[str], before: Any) -> None:
    """Note in a game's journal the file ``s`` was read from, so that a save
    may append to it (:func:`save_any`): only when the file's
    :func:`~engine.io.journal_file.file_stat` is still ``before``, the one
    taken before it was read (the text read is the file's at that time)."""
    lines = _journal_lines(s)
    if lines is not None:
        after = file_stat(path)
        o = lines.origin
        o.set(os.path.realpath(path) if after == before else "", after, o.prefix, o.tail, lines)
        stamp = (file_stamp(path) if after == before and after is not None and not undo_path(path).exists()
                 else None)  # (an append under way: the text read may be the file's before it)
        lines.stamp = stamp if stamp is not None and tuple(stamp[1:5]) == after and quiet(stamp) else None


def _journal_lines(s: Any) -> JournalLines | None:
    state = getattr(s, "state", None)
    game = state.get("game") if isinstance(state, dict) else None
    journal = game.get("journal") if isinstance(game, dict) else None
    entries = journal.get("entries") if isinstance(journal, dict) else None
    return entries if isinstance(entries, JournalLines) else None


def save_any(s: AnyScenario, path: str | os.PathLike[str]) -> None:
    """Save a grid or territory scenario atomically (the written file is
    loaded back before it replaces the old one); raises
    :class:`engine.io.atomic.OutputError`."""
    if _append_game(s, path):
        return
    if isinstance(s, Scenario):
        WRITERS["grid"](s, path)
    elif isinstance(s, _territory_class()):
        WRITERS[TERRITORY_KIND](s, path)
    else:
        raise TypeError(f"not a scenario: {type(s).__name__}")


def _append_game(s: AnyScenario, path: str | os.PathLike[str]) -> bool:
    """Save a game by appending its new journal entries to the file it was
    read from (:func:`engine.io.journal_file.append_in_place`), when that
    file is unchanged and only what orders change did; whether it did.
    After a whole write, the written file becomes the one a next save
    appends to."""
    lines = _journal_lines(s)
    if lines is None:
        return False
    if isinstance(s, Scenario):
        parts = journal_parts(grid.scenario_to_data(s), dumps_compact)
        verify: Callable[[Path], None] = grid.check_loads
    else:
        from . import territory

        parts = journal_parts(territory.territory_scenario_to_data(s), territory.dumps_territory_data)
        verify = territory.check_loads
    if parts is None:
        return False
    prefix, entries, tail = parts
    tail += "\n"

    def check(doc: str) -> None:
        data = json.loads(doc)
        reader_for(data)(data, str(path))  # the new document must load, as a whole write's must

    try:
        if append_in_place(path, prefix, entries, tail, check):
            return True
    except (OSError, ValueError):
        pass
    write_text_atomic(path, prefix + entries.region() + tail, verify=verify)
    entries.origin.set(os.path.realpath(path), file_stat(path), prefix, tail, entries)
    return True


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
    if loader is not None:
        surrogate_check(read_text(path), str(path))
        return loader(path)
    before = file_stat(path)
    text = read_text(path)
    surrogate_check(text, str(path))
    s = loads_any(text, str(path))
    remember_origin(s, path, before)
    return s


def loads_text_checked(text: str, source: str) -> AnyScenario:
    """:func:`load_text_checked` of file text already read."""
    surrogate_check(text, source)
    return loads_any(text, source)


def surrogate_check(text: str, source: str) -> None:
    """:class:`ScenarioError` naming each string of the JSON ``text`` that
    holds a lone surrogate (see :func:`load_text_checked`)."""
    if "\\" in text and "\\ud" in text.lower():  # a surrogate is written as an escape: most files have none
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
