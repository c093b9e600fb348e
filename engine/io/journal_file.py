"""How a game's journal sits in a scenario file: one entry per line, each
line the entry's own text, made once and reused; what orders change after
the entries, so a save appends (``docs/file-format.md``, "The game journal").

A scenario file with a game (``state.game``) is still one JSON document.  Its
writer (:func:`journal_parts`) puts first what orders never change (the
header, the map), then the journal's entries, then what orders change (the
journal's count, head and seal, the turn state, the rest of ``state``, the
units, the turn)::

    "state": {
      "game": {
        "system": "acw",
        "journal": {"format": 2, "entries": [
    {"hash":"…","turn":1,"phase":"movement",…,"prev":"…"}
    ,{"hash":"…",…}
    ], "count": 2, "head": "…", "seal": "…"},
        "turn": {…}
      },
      "acw": {…}
    },
    "units": [ … ],
    "turn": 3
    }

Each entry's line is ``{"hash":"<64 hex digits>",`` followed by its other
fields without spaces, keys in the order they were made (the order replay
and undo give a unit's or a state's fields back in).  A reader splits the
entries off (:func:`split_entries`), decodes the rest of the document with a
random stand-in for them (so the entries taken out are the ones the JSON
means) and keeps the entries as text (:class:`JournalLines`) until one is
asked for.  A file in any other layout (an older file, one re-indented by
another program) is read as a whole, as before.

A save of a game read from (or last written to) a file that is unchanged
since, whose text before the entries is the same, appends in place
(:func:`append_in_place`): only the new entries and the new end are
written, behind an undo record that the next read (:func:`recover`) uses to
finish or take back an append a crash cut short.

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
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from .atomic import fsync_folder

MARKER = '"entries": [\n'
"""The text that opens the entries of a journal written one per line (a
line has no space after a colon, so no entry holds it)."""

LINE_HEAD = len('{"hash":"') + 64 + len('",')
"""Length of a line's opening: ``{"hash":"<64 hex digits>",``."""

_HASH_CHUNK = 1 << 18
"""Characters of the entries' text encoded at a time to hash them."""

UNDO_SUFFIX = ".journal-undo"
"""The record an append in place leaves beside the file until it is done
(``.NAME.journal-undo``): how to put the file back as it was."""


class Origin:
    """Where a journal's lines were read from or last written to: the file
    (its real path and ``(device, inode, size, mtime)`` then), the text
    before the entries, the text after them and how many there were.  A
    save that finds the file as it was and the text before the entries
    unchanged appends the new entries in place (:func:`append_in_place`)."""

    __slots__ = ("_count", "_of", "last", "path", "prefix", "stat", "tail")

    def __init__(self) -> None:
        self.path = ""
        self.stat: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.prefix = ""
        self.tail = ""
        self._count = 0
        self._of: JournalLines | None = None  # lines whose count is the file's, counted when asked
        self.last = ""
        """The hash of the last entry the file holds (it commits to every one before)."""

    @property
    def count(self) -> int:
        """How many entries the file holds."""
        if self._of is not None:
            self._count, self._of = len(self._of), None
        return self._count

    def set(self, path: str, stat: tuple[int, int, int, int] | None, prefix: str, tail: str,
            lines: JournalLines | Sequence[str]) -> None:
        """Now the file at ``path`` (``""``: none), as ``stat`` says, holding
        ``lines`` between ``prefix`` and ``tail``."""
        self.path, self.stat = (path, stat) if stat is not None else ("", (0, 0, 0, 0))
        self.prefix, self.tail = prefix, tail
        if isinstance(lines, JournalLines):  # its count may not be known before its lines are split
            self._of, self.last = lines, lines.last_hash()
        else:
            self._of, self._count = None, len(lines)
            self.last = JournalLines.hash_of(lines[-1]) if lines else ""

    def holds_start_of(self, lines: JournalLines | Sequence[str]) -> bool:
        """Whether the entries the file holds are the first of ``lines``."""
        count = self.count
        if len(lines) < count:
            return False
        last = (lines.line_at(count - 1) if isinstance(lines, JournalLines) else lines[count - 1]) if count else ""
        return count == 0 or JournalLines.hash_of(last) == self.last

    def forget(self) -> None:
        """No file holds these lines as they are (an entry was taken back)."""
        self.path = ""


class LineList:
    """A journal's lines, in order: the first ones as the text a file holds
    them in (lines joined by ``"\n,"``), split into lines only when one
    before the last of them is asked for, and the rest as lines.  Appending
    and asking for the last line, the count (once it is known) or the lines
    after the text do not split it; a count not known is found by splitting."""

    __slots__ = ("_count", "_more", "_text")

    def __init__(self, lines: Sequence[str] = (), text: str = "", count: int | None = None) -> None:
        self._text = text
        self._count: int | None = count if text else 0
        self._more: list[str] = list(lines)

    def copy(self) -> LineList:
        return LineList(self._more, self._text, self._count)

    def known_count(self, n: int) -> None:
        """Take ``n`` as the number of lines of the text (from a record of
        this very text: :func:`recorded`), so that it need not be split to
        be counted."""
        if self._text and self._count is None:
            self._count = n

    def _split(self) -> None:
        if self._text:
            lines = split_lines(self._text)
            if self._count is not None and len(lines) != self._count:
                raise ValueError(f"the journal's text holds {len(lines)} entries, not the {self._count} recorded")
            self._more[:0] = lines
        self._text, self._count = "", 0

    def _head(self) -> int:
        if self._count is None:
            self._split()
        return self._count or 0

    def __len__(self) -> int:
        return self._head() + len(self._more)

    def __iter__(self) -> Iterator[str]:
        self._split()
        return iter(self._more)

    def last(self) -> str | None:
        """The last line (``None`` when there is none), without counting."""
        if self._more:
            return self._more[-1]
        return self._text_last() if self._text else None

    def _text_last(self) -> str:
        at = self._text.rfind("\n,")  # the last line's start, found from the end
        return self._text[at + 2:] if at >= 0 else self._text

    def __getitem__(self, i: int) -> str:
        if i == -1:
            last = self.last()
            if last is None:
                raise IndexError(i)
            return last
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        head = self._count or 0
        if i >= head:
            return self._more[i - head]
        if i == head - 1:
            return self._text_last()
        if i == 0:
            at = self._text.find("\n,")  # the first line, found from the start
            return self._text[:at]
        self._peel(head - i)
        return self[i]

    def _peel(self, k: int) -> None:
        """Split the last ``k`` lines off the text (found from its end: the
        text before them is not looked at), or all of it when they are not
        lines as the journal writes them."""
        parts = self._text.rsplit("\n,", k) if k < (self._count or 0) else []
        if len(parts) != k + 1 or not all(_line_shaped(x) and "\n" not in x for x in parts[1:]):
            self._split()
            return
        self._text = parts[0]
        self._count = (self._count or 0) - k
        self._more[:0] = parts[1:]

    def after(self, k: int) -> list[str]:
        """The lines from the ``k``-th (0-based) on."""
        head = self._head()
        if 0 < k < head:
            self._peel(head - k)
        elif k < head:
            self._split()
        return self._more[k - (self._count or 0):]

    def append(self, line: str) -> None:
        self._more.append(line)

    def pop(self) -> str:
        if not self._more:
            if self._head() > 1:
                self._peel(1)
            else:
                self._split()
        return self._more.pop()

    def text(self) -> str:
        """The lines' text as a file holds them (:func:`entries_region`)."""
        if not self._more:
            return self._text
        return self._text + "\n," + entries_region(self._more) if self._text else entries_region(self._more)

    def as_tuple(self) -> tuple[str, ...]:
        self._split()
        return tuple(self._more)


def split_lines(text: str) -> list[str]:
    """The lines of entries' text (:func:`entries_region`).  Text that is
    not one entry a line (a line break inside an entry, as another program
    may lay it out) is read as the JSON array it is and its entries given
    their lines (:func:`lines_of`); ``ValueError`` when it is not one."""
    lines = text.split("\n,")
    if text.count("\n") == len(lines) - 1 and all(map(_line_shaped, (lines[0], lines[-1]))):
        return lines
    try:
        data = json.loads("[" + text + "]")
    except (ValueError, RecursionError):
        raise ValueError("the journal's entries are not a list of entries") from None
    if not all(isinstance(e, dict) and isinstance(e.get("hash"), str) and len(e["hash"]) == 64 for e in data):
        raise ValueError("the journal's entries are not a list of entries, each with its hash")
    return list(lines_of(data).lines)


class JournalLines:
    """The entries of a journal as their lines (see the module docstring),
    decoded one at a time when asked, and where they came from
    (:class:`Origin`, or None).  The lines read from a file are kept as its
    text until one before the last is asked for (:class:`LineList`).
    Immutable but for its origin (and the count of its lines, once known);
    a copy is itself."""

    __slots__ = ("_all", "_basis", "_digest", "_hasher", "_lines", "origin", "stamp")

    def __init__(self, lines: Sequence[str] | LineList = (), origin: Origin | None = None,
                 hasher: Any = None, basis: JournalLines | None = None) -> None:
        self._lines = lines.copy() if isinstance(lines, LineList) else LineList(lines)
        self._all: tuple[str, ...] | None = None
        self._digest: str | None = None
        self._hasher = hasher  # a SHA-256 state over exactly the lines' text, when one was kept
        self._basis = basis  # lines whose text begins this one's (the journal as read): hashed from theirs
        self.origin = origin if origin is not None else Origin()
        self.stamp: tuple[Any, ...] | None = None
        """The file these lines were read from, as :func:`file_stamp` gave
        it before and after the read, when it was unchanged for
        :data:`QUIET_S` seconds: the digest recorded for that file is
        theirs (:func:`recorded`)."""

    @classmethod
    def from_text(cls, text: str) -> JournalLines:
        """The lines of entries' text as a file holds it (:func:`entries_region`), not split yet."""
        return cls(LineList(text=text))

    @property
    def lines(self) -> tuple[str, ...]:
        """Every line (the text split, when it was not)."""
        if self._all is None:
            self._all = self._lines.as_tuple()
        return self._all

    def store(self) -> LineList:
        """A copy of the lines to keep adding to (:class:`LineList`)."""
        return self._lines.copy()

    def known_count(self, n: int) -> None:
        """See :meth:`LineList.known_count`."""
        self._lines.known_count(n)

    def line_at(self, i: int) -> str:
        return self._lines[i]

    def last_hash(self) -> str:
        """The hash of the last line (``""`` when there is none)."""
        last = self._lines.last()
        return "" if last is None else self.hash_of(last)

    def after(self, k: int) -> list[str]:
        """The lines from the ``k``-th (0-based) on."""
        return self._lines.after(k)

    def region(self) -> str:
        """The lines' text as a file holds them (:func:`entries_region`)."""
        return self._lines.text()

    def __len__(self) -> int:
        return len(self._lines)

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
        """SHA-256 of the lines' text as a file holds them
        (:func:`entries_region`)."""
        if self._digest is None:
            if self._basis is not None and len(self) == len(self._basis):
                self._digest = self._basis.digest()
            else:
                self._digest = self._stamped() or self.hasher().hexdigest()
        return self._digest

    def _stamped(self) -> str | None:
        """The digest recorded for the file these lines were read from, as
        it is (:attr:`stamp`), or ``None``."""
        if self.stamp is None:
            return None
        try:
            data = json.loads((cache_folder() / _stamp_name(self.stamp)).read_text(encoding="utf-8"))
        except (OSError, ValueError, AttributeError):
            return None
        digest = data.get("digest") if isinstance(data, dict) else None
        return digest if isinstance(digest, str) and len(digest) == 64 else None

    def hasher(self) -> Any:
        """The SHA-256 state over the lines' text (a copy may be extended
        by the text :func:`appended_text` adds for more lines)."""
        if self._hasher is None and self._basis is not None and len(self) >= len(self._basis):
            n = len(self._basis)
            self._hasher = self._basis.hasher().copy()
            added = self._lines.after(n)
            if added:
                self._hasher.update(appended_text(n, added).encode("utf-8", "surrogatepass"))
        if self._hasher is None:
            text = self._lines.text()
            self._hasher = hashlib.sha256()
            for at in range(0, len(text), _HASH_CHUNK):  # encoded a piece at a time: no second copy of it all
                self._hasher.update(text[at:at + _HASH_CHUNK].encode("utf-8", "surrogatepass"))
        return self._hasher

    @staticmethod
    def line(body: str, entry_hash: str) -> str:
        """An entry's line from the JSON text of its other fields and its hash."""
        return '{"hash":"' + entry_hash + '",' + body[1:]

    @staticmethod
    def hash_of(line: str) -> str:
        """The hash a line states (its first field)."""
        return line[9:73]


def split_entries(text: str) -> tuple[str, str, JournalLines, str] | None:
    """``(prefix, tail, entries, nonce)``: the text before the journal's
    entries (up to and including :data:`MARKER`), the text after them (from
    the ``\\n]`` that closes them), the entries as lines, and a random text
    to stand for them in the document to decode (:func:`document`).  ``None``
    when the text is not in the one-entry-per-line layout (then it is read
    whole).  The entries' text is not split or counted here, only its first
    and last lines looked at: :class:`LineList` splits it when a line before
    the last is asked for."""
    start = text.find(MARKER)
    if start < 0:
        return None
    at = start + len(MARKER)
    end = text.rfind("\n]", at)  # the writer's only line that starts with "]": found from the end, which is near
    if end >= 0:
        before = text.rfind("\n", at, end)
        if not _line_shaped(text[before + 1 if before >= 0 else at:end].removeprefix(",")):
            end = text.find("\n]", at)  # another layout: the first such line closes the entries, if any
    if end < 0:
        return None
    region = text[at:end]
    if region:
        first = region.find("\n,")
        last = region.rfind("\n,")
        if not (_line_shaped(region[:first] if first >= 0 else region)
                and _line_shaped(region[last + 2:] if last >= 0 else region)):
            return None
    nonce = uuid.uuid4().hex
    return text[:at], text[end:], JournalLines.from_text(region), nonce


def document(prefix: str, tail: str, nonce: str) -> str:
    """The document :func:`split_entries` describes, the entries replaced
    by the text ``nonce``."""
    return prefix[:-len(MARKER)] + f'"entries": "{nonce}"' + tail[2:]


def _line_shaped(line: str) -> bool:
    return (len(line) > LINE_HEAD and line.startswith('{"hash":"') and line[73:LINE_HEAD] == '",'
            and line.endswith("}"))


def entries_region(lines: Sequence[str]) -> str:
    """The text between :data:`MARKER` and the ``\\n]`` that closes the entries."""
    return "\n,".join(lines)


GAME_KEYS_FIRST = ("system", "journal")
"""The keys of ``state.game`` written before its others (the turn state)."""
JOURNAL_KEYS_FIRST = ("format", "branch_of", "entries")
"""The keys of a journal written before its others (count, head, seal)."""


def journal_parts(data: dict[str, Any], dumps: Callable[[Any], str]) -> tuple[str, JournalLines, str] | None:
    """``(prefix, entries, tail)`` of the file text of scenario ``data``
    whose ``state.game.journal.entries`` is a :class:`JournalLines` (or a
    list of entry data): ``dumps`` (the format's layout) writes the rest,
    with every key a game order can change after the entries (the file
    then ends in what changes, see :func:`append_in_place`); ``None`` when
    ``data`` has no such journal."""
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
    nonce = uuid.uuid4().hex
    j = {k: journal[k] for k in JOURNAL_KEYS_FIRST if k in journal}
    j["entries"] = nonce
    j.update((k, v) for k, v in journal.items() if k not in JOURNAL_KEYS_FIRST)
    g = {k: game[k] for k in GAME_KEYS_FIRST if k in game}
    g["journal"] = j
    g.update((k, v) for k, v in game.items() if k not in GAME_KEYS_FIRST)
    st = {"game": g, **{k: v for k, v in state.items() if k != "game"}}
    changing = ("state", "units", "turn")
    out = {k: v for k, v in data.items() if k not in changing}
    out["state"] = st
    out.update((k, data[k]) for k in changing[1:] if k in data)
    text = dumps(out)
    at = text.find(f'"entries": "{nonce}"')
    return text[:at] + MARKER, entries, "\n]" + text[at + len(f'"entries": "{nonce}"'):]


def journal_tail(changing: dict[str, Any], dumps: Callable[[Any], str]) -> str | None:
    """The tail :func:`journal_parts` gives (the text after the entries) of
    a scenario whose keys a game order can change (``state``, ``units``,
    ``turn``: the ones written after the entries) are ``changing``, made
    without the rest of the scenario: the layouts write each key's value
    whatever came before it, and a stand-in first key keeps the document
    laid out over lines as a whole scenario is.  ``None`` when there is no
    game journal."""
    parts = journal_parts({"_": [0, 0, 0], **changing}, dumps)
    return None if parts is None else parts[2]


def dumps_with_journal(data: dict[str, Any], dumps: Callable[[Any], str]) -> str | None:
    """The file text of scenario ``data`` (see :func:`journal_parts`);
    ``None`` when it has no game journal."""
    parts = journal_parts(data, dumps)
    if parts is None:
        return None
    prefix, entries, tail = parts
    return prefix + entries.region() + tail


def lines_of(entries: Sequence[dict[str, Any]]) -> JournalLines:
    """Lines of entries given as data (each with its ``hash``)."""
    return JournalLines([JournalLines.line(json.dumps({k: v for k, v in e.items() if k != "hash"},
                                                      separators=(",", ":"), ensure_ascii=False), e["hash"])
                         for e in entries])


# ---------------------------------------------------------------------------
# appending in place

def file_stat(path: str | os.PathLike[str]) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def undo_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(f".{p.name}{UNDO_SUFFIX}")


def append_in_place(path: str | os.PathLike[str], prefix: str, lines: JournalLines, tail: str,
                    check: Callable[[str], None]) -> bool:
    """Write the file ``path`` as ``prefix`` + ``lines`` + ``tail`` by
    appending to it in place, when it is still the file ``lines`` came
    from (:class:`Origin`: the same file, unchanged since, the same text
    before the entries and no entry of it taken back); whether it did.

    Only the new entries and the tail are written.  First a record of how
    to put the file back (:func:`undo_path`: where the entries ended, the
    old tail, and the size and digest of the new end) is written and
    synced; then the new end is written over the old tail and synced; then
    the record is removed.  A crash between leaves the record, and the next
    read (:func:`recover`) finishes the write or takes it back: the whole
    old file or the whole new one.  ``check(document)`` is called on the
    new document before anything is written (it raises to refuse)."""
    origin = lines.origin
    real = os.path.realpath(path)
    if (not origin.path or origin.path != real or origin.prefix != prefix or not origin.holds_start_of(lines)
            or file_stat(real) != origin.stat or undo_path(real).exists()):
        return False
    nonce = uuid.uuid4().hex
    check(document(prefix, tail, nonce))
    new = lines.after(origin.count)
    old_end = origin.tail.encode("utf-8")
    offset = origin.stat[2] - len(old_end)
    text = appended_text(origin.count, new) + tail
    data = text.encode("utf-8")  # a lone surrogate raises: the caller writes the file whole
    record = {"offset": offset, "old": origin.tail, "old_size": origin.stat[2],
              "new_size": offset + len(data), "new_sha256": hashlib.sha256(data).hexdigest()}
    fd = os.open(real, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) != origin.stat:
            return False  # changed since it was read (or replaced): written whole instead
        undo = _claim_undo(undo_path(real), json.dumps(record).encode("ascii"))
        if undo is None:
            return False  # another append is under way
        try:
            os.pwrite(fd, data, offset)
            os.ftruncate(fd, offset + len(data))
            os.fsync(fd)
            os.unlink(undo_path(real))
        finally:
            os.close(undo)  # its lock goes with it
    finally:
        os.close(fd)
    origin.set(real, file_stat(real), prefix, tail, lines)
    return True


def _claim_undo(path: Path, data: bytes) -> int | None:
    """Write the undo record at ``path`` whole and synced, locked for as
    long as the returned descriptor is open (a reader then knows an append
    is under way, not cut short); ``None`` when a record is there already."""
    tmp = path.with_name(path.name + f".{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
        _lock(fd, True)
        try:
            os.link(tmp, path)  # fails when a record is there: one append at a time
        except FileExistsError:
            os.close(fd)
            return None
        fsync_folder(path.parent)
        return fd
    except BaseException:
        try:
            os.close(fd)
        except OSError:
            pass
        raise
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _lock(fd: int, wait: bool) -> bool:
    """An exclusive lock on ``fd`` (``flock``; always granted where there is
    none); whether it was granted."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    return True


def appended_text(origin_count: int, new: Sequence[str]) -> str:
    """The text :func:`append_in_place` puts after the entries a file held
    (``origin_count`` of them) for the ``new`` ones, before the tail."""
    return entries_region(new) if origin_count == 0 else "".join("\n," + line for line in new)


def recover(path: str | os.PathLike[str]) -> bytes | None:
    """After an append in place that did not finish (its record is still
    there and no writer holds it), put the file at ``path`` back whole: the
    new end when all of it was written, else the old end.  Returns ``None``
    when the file on disk can be read as it is (nothing to do, or done);
    else the bytes of the whole old file, to be read instead of it (an
    append under way in another process, or a file that cannot be
    written)."""
    undo = undo_path(path)
    try:
        fd = os.open(undo, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        in_progress = not _lock(fd, False)
        try:
            record = json.loads(os.read(fd, 1 << 24).decode("ascii"))
            offset, old, old_size = int(record["offset"]), str(record["old"]), int(record["old_size"])
            new_size, new_sha = int(record["new_size"]), str(record["new_sha256"])
            raw = Path(path).read_bytes()
        except (OSError, ValueError, KeyError, TypeError):
            return None
        old_whole = raw[:offset] + old.encode("utf-8")
        if in_progress:
            return old_whole if len(old_whole) == old_size else None
        if len(raw) == new_size and hashlib.sha256(raw[offset:]).hexdigest() == new_sha:
            pass  # the new end is all there: the append is done but for dropping its record
        elif len(old_whole) == old_size:
            try:
                wfd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
                try:
                    os.pwrite(wfd, old_whole[offset:], offset)
                    os.ftruncate(wfd, len(old_whole))
                    os.fsync(wfd)
                finally:
                    os.close(wfd)
            except OSError:
                return old_whole
        else:
            return None
        try:
            os.unlink(undo)
        except OSError:
            pass
        return None
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------
# journals already verified

def cache_folder() -> Path:
    env = os.environ.get("ADJUTANT_CACHE_DIR")
    if env:
        return Path(env) / "journals"
    import platformdirs

    return Path(platformdirs.user_cache_dir("adjutant", appauthor=False)) / "journals"


QUIET_S = 2.0
"""How long a file must have been left unchanged (by its change time) for
its identity and times to stand for its content in the record of journals
verified (:func:`file_stamp`): a write in the same tick of the clock as a
read could otherwise leave them as they were."""


def file_stamp(path: str | os.PathLike[str]) -> tuple[Any, ...] | None:
    """``(real path, device, inode, size, modification time, change time)``
    of the file at ``path`` (nanoseconds), or ``None``.  Every write to a
    file, and every change of its times, sets its change time to the
    present, which no user can set back (short of the system's clock):
    while the stamp is the same, so is the file's content."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def quiet(stamp: tuple[Any, ...] | None) -> bool:
    """Whether the file ``stamp`` describes was last changed at least
    :data:`QUIET_S` seconds ago (and its system keeps change times)."""
    return (stamp is not None and os.name == "posix" and stamp[5] > 0
            and stamp[5] <= time.time_ns() - int(QUIET_S * 1e9))


def _stamp_name(stamp: tuple[Any, ...]) -> str:
    return "stamp-" + hashlib.sha256(json.dumps(list(stamp)).encode("utf-8", "surrogatepass")).hexdigest()


def _key(lines: JournalLines, position: str) -> str:
    return hashlib.sha256(f"{lines.digest()}\n{position}".encode()).hexdigest()


def recorded(lines: JournalLines, position: str) -> dict[str, Any] | None:
    """The record :func:`remember_verified` left of these entries ending in
    ``position`` (``adjudicated``, and the facts it was given), or ``None``
    when they were not verified before on this machine."""
    try:
        data = json.loads((cache_folder() / _key(lines, position)).read_text(encoding="utf-8"))
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(data, dict):
        return None
    try:
        _remember_stamp(lines, cache_folder())  # read again unchanged: found by its stamp next time
    except OSError:
        pass
    return data


def verified(lines: JournalLines, position: str, adjudicated: bool = False) -> bool:
    """Whether these entries, ending in ``position`` (a digest of the game's
    state after the last entry, the map's numbering included), were verified
    and replayed before by :func:`remember_verified`; with ``adjudicated``,
    whether every entry was also found to be what the rules give
    (:func:`engine.turns.verify.verify`, or made by the rules themselves
    after such a journal)."""
    try:
        path = cache_folder() / _key(lines, position)
        if not adjudicated:
            return path.is_file()
        return bool(json.loads(path.read_text(encoding="utf-8")).get("adjudicated") is True)
    except (OSError, ValueError, AttributeError):
        return False


def _remember_stamp(lines: JournalLines, folder: Path) -> None:
    """Record the digest of lines read from a quiet file by its stamp."""
    if lines.stamp is None or not quiet(lines.stamp):
        return
    name = _stamp_name(lines.stamp)
    if (folder / name).is_file():
        return
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"digest": lines.digest()}), encoding="utf-8")
    os.replace(tmp, folder / name)


def remember_verified(lines: JournalLines, position: str, adjudicated: bool = False,
                      facts: dict[str, Any] | None = None) -> None:
    """Record that these entries were verified and replayed to ``position``,
    and with ``adjudicated`` that the rules give every one of them, with
    ``facts`` about them their reader need not find again (a lost record
    only costs a verification again; an unwritable cache folder is not an
    error; a record of adjudication is never taken back)."""
    folder = cache_folder()
    name = _key(lines, position)
    try:
        if not adjudicated and (folder / name).is_file():
            _remember_stamp(lines, folder)
            return
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{name}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({**(facts or {}), "count": len(lines), "adjudicated": adjudicated}),
                       encoding="utf-8")
        os.replace(tmp, folder / name)
        _remember_stamp(lines, folder)
    except OSError:
        pass


__all__ = ["MARKER", "JournalLines", "LineList", "Origin", "append_in_place", "cache_folder", "document", "dumps_with_journal",
           "appended_text", "entries_region", "file_stamp", "file_stat", "quiet", "journal_parts", "journal_tail", "lines_of", "recorded", "recover", "remember_verified",
           "split_entries",
           "undo_path", "verified"]
