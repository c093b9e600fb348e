"""How a game's journal sits in a scenario file: one entry per line, at the
end of the file, each line the entry's own text, written once and reused
(``docs/file-format.md``, "The game journal").

A scenario file with a game (``state.game``) is still one JSON document.  The
writer puts ``state`` last in it, ``game`` last in ``state``, ``journal``
last in ``game`` and ``entries`` last in the journal, so the entries are the
file's tail::

    "journal": {"format": 2, "count": 3, "head": "…", "seal": "…", "entries": [
    {"hash":"…","effect":{…},"kind":"order",…,"prev":"…",…}
    ,{"hash":"…",…}
    ,{"hash":"…",…}
    ]}}}
    }

Each entry's line is ``{"hash":"<64 hex digits>",`` followed by its other
fields without spaces, keys in the order they were made (the order replay
and undo give a unit's or a state's fields back in); the line is made once,
when the entry is sealed, and written as it is every time after.  A reader splits the entries off
(:func:`split_entries`) and decodes only the rest of the document; the
entries stay text (:class:`JournalLines`) until one is asked for.  A file in
any other layout (an older file, one re-indented by another program) is read
as a whole, as before.

:func:`verified` and :func:`remember_verified` keep a per-user record of the
journals already verified (their text's digest with the digest of the
position they end in), so a command that reads a long game checks its chain
and replays it once, not on every run (``$ADJUTANT_CACHE_DIR/journals``, or
the user's cache folder).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

MARKER = '"entries": [\n'
"""The text that opens the entries of a journal written one per line (a
canonical line has no space after a colon, so no entry holds it)."""

_CLOSE = re.compile(r"\n\]\s*(?:\}\s*){4}\Z")
"""What follows the last entry: the array's end, then the journal, game,
state and document closed, with nothing else."""

LINE_HEAD = len('{"hash":"') + 64 + len('",')
"""Length of a line's opening: ``{"hash":"<64 hex digits>",``."""


class JournalLines:
    """The entries of a journal as their lines (see the module docstring),
    decoded one at a time when asked.  Immutable; a copy is itself."""

    __slots__ = ("_digest", "lines")

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines: tuple[str, ...] = tuple(lines)
        self._digest: str | None = None

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self) -> Iterator[Any]:
        return (json.loads(line) for line in self.lines)

    def __deepcopy__(self, memo: Any) -> JournalLines:
        return self

    def __copy__(self) -> JournalLines:
        return self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, JournalLines):
            return self.lines == other.lines
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def digest(self) -> str:
        """SHA-256 of the lines (each ending in a newline)."""
        if self._digest is None:
            h = hashlib.sha256()
            for line in self.lines:
                h.update(line.encode("utf-8", "surrogatepass"))
                h.update(b"\n")
            self._digest = h.hexdigest()
        return self._digest

    @staticmethod
    def line(body: str, entry_hash: str) -> str:
        """An entry's line from the JSON text of its other fields and its hash."""
        return '{"hash":"' + entry_hash + '",' + body[1:]

    @staticmethod
    def hash_of(line: str) -> str:
        """The hash a line states (its first field)."""
        return line[9:73]


def split_entries(text: str) -> tuple[str, JournalLines] | None:
    """``(document, entries)``: the file's text with its journal's entries
    replaced by an empty list, and the entries as lines; ``None`` when the
    text is not in the one-entry-per-line layout (then it is read whole)."""
    start = text.rfind(MARKER)
    if start < 0:
        return None
    end = text.rfind("\n]")
    if end < start + len(MARKER) - 1:
        return None
    close = _CLOSE.search(text, end)
    if close is None or close.start() != end:
        return None
    region = text[start + len(MARKER):end]
    if not region:
        lines: list[str] = []
    else:
        lines = region.split("\n")
        for i in range(1, len(lines)):
            if not lines[i].startswith(","):
                return None
            lines[i] = lines[i][1:]
        for line in (lines[0], lines[-1]):
            if not _line_shaped(line):
                return None
    return text[:start] + '"entries": []' + text[end + 2:], JournalLines(lines)


def _line_shaped(line: str) -> bool:
    return (len(line) > LINE_HEAD and line.startswith('{"hash":"') and line[73:LINE_HEAD] == '",'
            and line.endswith("}"))


def entries_region(lines: Sequence[str]) -> str:
    """The text between :data:`MARKER` and the closing ``\\n]``."""
    return "\n,".join(lines)


def dumps_with_journal(data: dict[str, Any], dumps: Callable[[Any], str]) -> str | None:
    """The file text of scenario ``data`` whose ``state.game.journal.entries``
    is a :class:`JournalLines` (or a list of entry data), written by
    ``dumps`` (the format's layout) with the entries one per line at the
    end; ``None`` when ``data`` has no such journal."""
    state = data.get("state")
    game = state.get("game") if isinstance(state, dict) else None
    journal = game.get("journal") if isinstance(game, dict) else None
    entries = journal.get("entries") if isinstance(journal, dict) else None
    if not isinstance(entries, (JournalLines, list)):
        return None
    if isinstance(entries, list):
        if not all(isinstance(e, dict) and isinstance(e.get("hash"), str) and len(e["hash"]) == 64
                   for e in entries):
            return None
        entries = lines_of(entries)
    assert isinstance(state, dict) and isinstance(game, dict) and isinstance(journal, dict)
    out = {k: v for k, v in data.items() if k != "state"}
    out["state"] = {k: v for k, v in state.items() if k != "game"}
    out["state"]["game"] = {k: v for k, v in game.items() if k != "journal"}
    out["state"]["game"]["journal"] = {k: v for k, v in journal.items() if k != "entries"}
    out["state"]["game"]["journal"]["entries"] = []
    text = dumps(out)
    at = text.rfind('"entries": []')
    tail = text[at + len('"entries": []'):]
    region = entries_region(entries.lines)
    return text[:at] + MARKER + region + "\n]" + tail


def lines_of(entries: Sequence[dict[str, Any]]) -> JournalLines:
    """Lines of entries given as data (each with its ``hash``)."""
    return JournalLines([JournalLines.line(json.dumps({k: v for k, v in e.items() if k != "hash"},
                                                      separators=(",", ":"), ensure_ascii=False), e["hash"])
                         for e in entries])


# ---------------------------------------------------------------------------
# journals already verified

def cache_folder() -> Path:
    env = os.environ.get("ADJUTANT_CACHE_DIR")
    if env:
        return Path(env) / "journals"
    import platformdirs

    return Path(platformdirs.user_cache_dir("adjutant", appauthor=False)) / "journals"


def _key(lines: JournalLines, position: str) -> str:
    return hashlib.sha256(f"{lines.digest()}\n{position}".encode()).hexdigest()


def verified(lines: JournalLines, position: str) -> bool:
    """Whether these entries, ending in ``position`` (a digest of the game's
    state after the last entry, the map's numbering included), were verified
    and replayed before by :func:`remember_verified`."""
    try:
        return (cache_folder() / _key(lines, position)).is_file()
    except OSError:
        return False


def remember_verified(lines: JournalLines, position: str) -> None:
    """Record that these entries were verified and replayed to ``position``
    (a lost record only costs a verification again; an unwritable cache
    folder is not an error)."""
    folder = cache_folder()
    name = _key(lines, position)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{name}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"count": len(lines)}), encoding="utf-8")
        os.replace(tmp, folder / name)
    except OSError:
        pass


__all__ = ["MARKER", "JournalLines", "cache_folder", "dumps_with_journal", "entries_region", "lines_of",
           "remember_verified", "split_entries", "verified"]
