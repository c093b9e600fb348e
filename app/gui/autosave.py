"""Autosave of unsaved work, recovery after a crash, and the lock that
tells two running Adjutants apart (``docs/reliability.md``).

While the document has unsaved changes, :class:`Autosave` writes it every
60 seconds to ``<user state dir>/autosave/`` (``platformdirs``) as
``<key>.json`` (the scenario) plus ``<key>.meta.json`` (original file, map
name, map kind, time, process id).  The key is unique to one window of one
run, so two windows, or two Adjutants on the same map, never share an
autosave.  Saving the document, or closing the window normally, removes
both files.

**Liveness is a lock, not a process id.**  Each autosave holds an exclusive
lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows) on ``<key>.lock``
for as long as its window lives.  The operating system drops the lock when
the process ends, however it ends, so at the next start
:func:`find_recoveries` offers exactly the autosaves whose lock is free: a
process id reused by an unrelated program hides nothing.

**Metadata is a hint.**  A malformed or foreign ``.meta.json`` (or none at
all) does not hide the autosave: the :class:`Recovery` is still listed,
with the file's time and key standing in for what the meta would have said,
and :attr:`Recovery.problems` saying what was wrong.  Nothing here deletes
an autosave a person has not been shown: only :meth:`Recovery.discard`
(the person's choice) and the window's own normal save or close do.

**Every step is logged between whole writes.**  A whole write takes about
a second on a 1000 x 1000 map, so between two of them each undo step (its
engine edit records, carried out or taken back) is appended to
``<key>.steps`` before it is carried out (:mod:`app.gui.step_log`); the
log is started again after each whole write.  The first edit of a document
that matches its file starts the log on that file (no whole write at all);
a change that is not an undo step of edit records (a game order, a
recovered or replaced map) gets a whole write at once.  Recovery loads the
autosave (or the map's file) and replays the log, so a crash loses no edit.

**Any name can be written.**  Lone surrogates (a name read from a file
with broken UTF-16 pairs) are written as JSON ``\\udXXX`` escapes, which load
back to the same string.

**Map locks.**  :class:`MapLocks` gives each map file a lock file in
``<user state dir>/locks/`` naming the process that has the map open; a
second Adjutant opening that map learns who holds it (:func:`map_holder`)
and asks whether to open it read-only or as a copy.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pickle
import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtCore import QObject, QTimer

from app.locks import EDITOR, FileLock, default_state_dir, lock_holder, map_lock_path
from app.locks import probe as _probe
from engine.io import OutputError, dumps_compact, scenario_to_data, write_text_atomic
from engine.io.grid import changing_data
from engine.io.journal_file import (
    JournalLines,
    Origin,
    append_in_place,
    appended_text,
    entries_region,
    file_stat,
    journal_parts,
    journal_tail,
)
from engine.territory import TerritoryScenario

from . import collector
from .document_base import DocumentBase
from .step_log import StepLog, StepLogError, file_digest, read_log, replay, sha256_of

INTERVAL_MS = 60_000
"""How often unsaved work is written (milliseconds)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def json_safe_text(text: str) -> str:
    """JSON ``text`` with any lone surrogate written as its ``\\uXXXX``
    escape, so the text encodes as UTF-8 (surrogates can only stand inside
    JSON strings, where the escape means the same character)."""
    if text.isascii():  # known without a look at the characters
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def printable(name: str) -> str:
    """``name`` for display: lone surrogates shown as ``\\udXXX``."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _write(path: Path, text: str) -> None:
    """Write one autosave file atomically (the single place autosave
    writes)."""
    write_text_atomic(path, json_safe_text(text))


class _Writing:
    """An autosave's write of a game (an append, or the whole work) by a
    thread of its own (never Qt, and no cycle collection there:
    :mod:`app.gui.collector` collects on the GUI thread): the new log and
    the hash state it leaves (no log when the write could not be made), the
    revision of the work it writes and what :attr:`Autosave._head_kept`
    becomes."""

    def __init__(self, job: Callable[[], tuple[StepLog, Any] | None], revision: int,
                 head_kept: tuple[Any, ...] | None) -> None:
        self.revision = revision
        self.head_kept = head_kept
        self.log: StepLog | None = None
        self.hasher: Any = None
        collector.install()
        self.thread = threading.Thread(target=self._run, args=(job,), name="adjutant-autosave", daemon=True)
        self.thread.start()

    def _run(self, job: Callable[[], tuple[StepLog, Any] | None]) -> None:
        try:
            got = job()
        except Exception:  # noqa: BLE001 -- no log: the GUI thread writes the work whole (or tries)
            return
        if got is not None:
            self.log, self.hasher = got


def _sha256_text(*texts: str) -> Any:
    """A SHA-256 state over the UTF-8 of ``texts`` one after the other,
    encoded a piece at a time."""
    h = hashlib.sha256()
    for text in texts:
        for at in range(0, len(text), 1 << 18):
            h.update(text[at:at + (1 << 18)].encode("utf-8"))
    return h


class MapLocks:
    """The map files this process has open, each held by a lock file that
    names this process; windows of one process share a map's lock (count of
    holders), other processes see it held."""

    held: ClassVar[dict[Path, tuple[FileLock, int]]] = {}

    @classmethod
    def claim(cls, state_dir: Path | None, path: str) -> dict[str, Any] | None:
        """Hold ``path`` for one more window of this process; ``None`` when
        done (or when locking is impossible here: locks are a courtesy, not
        a reason to refuse work), else what the other holder's lock file
        says (:func:`lock_holder`)."""
        lock_path = map_lock_path(state_dir, path)
        if lock_path in cls.held:
            lock, n = cls.held[lock_path]
            cls.held[lock_path] = (lock, n + 1)
            return None
        try:
            acquired = FileLock.acquire(lock_path, {"path": json_safe_text(str(path)), "by": EDITOR})
        except OSError:
            return None
        if acquired is None:
            return lock_holder(lock_path)
        cls.held[lock_path] = (acquired, 1)
        return None

    @classmethod
    def release(cls, state_dir: Path | None, path: str) -> None:
        """One window of this process no longer has ``path`` open."""
        lock_path = map_lock_path(state_dir, path)
        if lock_path not in cls.held:
            return
        lock, n = cls.held[lock_path]
        if n > 1:
            cls.held[lock_path] = (lock, n - 1)
            return
        del cls.held[lock_path]
        # the file stays: deleting it could let two processes lock two
        # different files of one name (one still opening the old one)
        lock.release()


def map_holder(state_dir: Path | None, path: str) -> dict[str, Any] | None:
    """Who else holds ``path`` (:func:`lock_holder`'s answer), or ``None``
    when no other process does."""
    lock_path = map_lock_path(state_dir, path)
    if lock_path in MapLocks.held or not lock_path.exists() or _probe(lock_path):
        return None
    return lock_holder(lock_path)


# -- recoveries --------------------------------------------------------------

KIND_NAMES = {"grid": "grid map editor", "territory": "territory map editor"}
"""What the recovery list says about the window an autosave opens in."""


@dataclass(frozen=True)
class Recovery:
    """Unsaved work left by a run that did not close normally.  ``kind`` is
    ``"grid"``, ``"territory"`` or ``None`` (not known from the meta file);
    ``problems`` says what was wrong with the meta file, if anything."""

    data: Path
    meta: Path
    original: str | None
    name: str
    saved_at: float
    kind: str | None = None
    problems: tuple[str, ...] = field(default=())

    @property
    def key(self) -> str:
        return self.data.name[: -len(".json")]

    @property
    def lock(self) -> Path:
        return self.data.with_name(f"{self.key}.lock")

    @property
    def steps(self) -> Path:
        """The edit log written since the last whole autosave."""
        return self.data.with_name(f"{self.key}.steps")

    def load(self) -> tuple[Any, list[str]]:
        """The work as it was when the process ended: the autosave (or, when
        the log started on the map's own file, that file) with the edit
        log's steps replayed; and notes on what was replayed or left out.
        Raises :class:`~engine.io.ScenarioError`, ``OSError`` or
        ``ValueError`` naming what cannot be read."""
        from engine.io import load_any

        notes: list[str] = []
        log = None
        if self.steps.exists():
            try:
                log = read_log(self.steps)
            except StepLogError as e:
                notes.append(f"{e}: edits made after the last autosave are lost")
        if self.data.exists():
            scenario = load_any(self.data)
            if log is not None and log.base["base"] == "autosave" and log.base.get("sha256") == file_digest(self.data):
                _replay(scenario, log, self.steps, notes)
            return scenario, notes
        if log is None:
            raise ValueError(f"{self.data.name} is missing and there is no edit log to recover from")
        path = log.base.get("path")
        if log.base["base"] != "file" or not isinstance(path, str):
            raise ValueError(f"{self.steps.name}: the autosave its edits apply to ({self.data.name}) is missing")
        if file_digest(path) != log.base.get("sha256"):
            raise ValueError(f"{path} changed (or is gone) since these edits were made; the {len(log.steps)} "
                             f"logged edit(s) cannot be replayed on it (kept in {self.steps})")
        scenario = load_any(path)
        _replay(scenario, log, self.steps, notes)
        return scenario, notes

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))
        what = f"'{printable(self.name)}'" + (f" ({printable(self.original)})" if self.original else " (never saved)")
        return f"{what}, autosaved {when}"

    def discard(self) -> None:
        """Delete the autosave (only ever on the person's choice)."""
        for p in (self.data, self.meta, self.steps, self.lock):
            try:
                p.unlink()
            except FileNotFoundError:
                pass


def _replay(scenario: Any, log: Any, path: Path, notes: list[str]) -> None:
    """Replay a read log on ``scenario`` (raising ``ValueError`` naming the
    log when a step does not fit), noting what it did."""
    try:
        replay(scenario, log.steps)
    except Exception as e:  # noqa: BLE001 — a step that does not fit its base is named, never a traceback
        raise ValueError(f"{path.name}: a logged edit does not fit the work it follows ({type(e).__name__}: {e})") \
            from None
    notes.extend(log.notes)
    if log.steps:
        n = len(log.steps)
        notes.append(f"{n} edit{'s' if n != 1 else ''} made after the last autosave replayed from {path.name}")


def _read_meta(meta: Path, data: Path) -> tuple[str | None, str, float, str | None, tuple[str, ...]]:
    """(original, name, time, kind, problems) from a meta file, tolerant of
    anything: what cannot be read falls back to the key and file time."""
    key = data.name[: -len(".json")]
    try:
        fallback_time = max(p.stat().st_mtime for p in (data, data.with_name(f"{key}.steps")) if p.exists())
    except (OSError, ValueError):
        fallback_time = 0.0
    if not meta.exists():
        return None, key, fallback_time, None, (f"{meta.name} is missing: name and original file unknown",)
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return None, key, fallback_time, None, (f"{meta.name} cannot be read ({e}): name and original file unknown",)
    if not isinstance(info, dict):
        not_meta = f"{meta.name} is not an Adjutant autosave meta file (a JSON {type(info).__name__}, not an object)"
        return None, key, fallback_time, None, (not_meta,)
    problems = []
    original = info.get("path")
    if original is not None and not isinstance(original, str):
        problems.append(f"{meta.name}: 'path' is not text ({original!r}); original file unknown")
        original = None
    name = info.get("name", key)
    if not isinstance(name, str):
        problems.append(f"{meta.name}: 'name' is not text ({name!r})")
        name = key
    saved_at = info.get("time", fallback_time)
    if isinstance(saved_at, bool) or not isinstance(saved_at, (int, float)) or not math.isfinite(saved_at):
        problems.append(f"{meta.name}: 'time' is not a number ({saved_at!r}); the file's time is shown")
        saved_at = fallback_time
    kind = info.get("kind")
    if kind not in KIND_NAMES:
        kind = None
    return original, name, float(saved_at), kind, tuple(problems)


def map_kind(scenario: Any) -> str:
    """``"territory"`` or ``"grid"``: which editor window opens ``scenario``."""
    return "territory" if isinstance(scenario, TerritoryScenario) else "grid"


def find_recoveries(state_dir: Path | None = None) -> list[Recovery]:
    """Every autosave no running window holds (newest first): its lock file
    is free (or missing).  Never deletes anything."""
    folder = (state_dir or default_state_dir()) / "autosave"
    out = []
    found = [p for p in folder.glob("*.json") if not p.name.endswith(".meta.json") and p.is_file()] \
        if folder.is_dir() else []
    # an edit log started on the map's own file has no whole autosave yet
    found += [p.with_name(p.name[: -len(".steps")] + ".json") for p in folder.glob("*.steps")
              if p.is_file() and not p.with_name(p.name[: -len(".steps")] + ".json").exists()] \
        if folder.is_dir() else []
    for data in found:
        key = data.name[: -len(".json")]
        if key in Autosave.live_keys:
            continue
        lock = folder / f"{key}.lock"
        if lock.exists() and not _probe(lock):
            continue  # a running Adjutant holds it
        meta = folder / f"{key}.meta.json"
        original, name, saved_at, kind, problems = _read_meta(meta, data)
        out.append(Recovery(data, meta, original, name, saved_at, kind, problems))
    return sorted(out, key=lambda r: (-r.saved_at, r.data.name))


class Autosave(QObject):
    """Writes the document's unsaved work every ``interval_ms``."""

    live_keys: ClassVar[set[str]] = set()
    """Keys of autosaves owned by windows alive in this process."""

    def __init__(self, document: DocumentBase, state_dir: Path | None = None, interval_ms: int = INTERVAL_MS,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.folder = (state_dir or default_state_dir()) / "autosave"
        self.key = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        Autosave.live_keys.add(self.key)
        self.data_path = self.folder / f"{self.key}.json"
        self.meta_path = self.folder / f"{self.key}.meta.json"
        self.lock_path = self.folder / f"{self.key}.lock"
        self.steps_path = self.folder / f"{self.key}.steps"
        self._lock: FileLock | None = None
        self._log: StepLog | None = None
        self._flush_due = False
        self._log_failed = False
        self._revision = 0
        self._written = 0
        self._game_origin = Origin()  # what the autosave file holds of a game's journal
        self._writing: _Writing | None = None  # an append a thread is writing
        self._game_hash: Any = None  # SHA-256 state of the autosave's text up to the end of its entries
        self._head_kept: tuple[Any, ...] | None = None  # what precedes the entries, when only game steps
        # changed the work since it was written (then the text before the entries is the written one)
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_now)
        self.timer.start()
        document.edited.connect(self._edited)
        document.scenarioReplaced.connect(self._replaced)
        document.modifiedChanged.connect(self._modified)
        document.stepping.connect(self._step)

    def _edited(self, *_: object) -> None:
        self._revision += 1
        if not getattr(getattr(self.document, "turns", None), "notifying", False):
            self._head_kept = None  # not a game step: the map, the sides or the header may have changed
        if not self.document.in_step:
            self._unlogged()

    def _replaced(self, *_: object) -> None:
        self._revision += 1
        self._head_kept = None
        self._unlogged()

    def _unlogged(self) -> None:
        """The work changed other than by a logged step: stop the log (it
        no longer describes the work; it stays on disk, with the work it
        describes, until the whole write replaces both) and write the whole
        work as soon as control returns to the event loop (once, however
        many signals the change sent)."""
        self._close_log()
        if not self._flush_due:
            self._flush_due = True
            QTimer.singleShot(0, self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        if self._log is None:
            self._save(wait=False)

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def _drop_log(self) -> None:
        if self._log is not None:
            self._log.close(remove=True)
            self._log = None

    def _step(self, kind: str, edits: object) -> None:
        """Log one undo step before the document carries it out.  When the
        log cannot be written (a full disk), it stops, keeping the steps
        already in it, until the timer's next whole write succeeds; work is
        never interrupted."""
        self._settle()
        if self._log_failed:
            return
        try:
            if self._log is None:
                self._start_log()
            if self._log is not None:
                self._log.append(kind, edits)  # type: ignore[arg-type]
        except (OSError, OutputError, ValueError, TypeError, AttributeError, pickle.PicklingError):
            self._close_log()
            self._log_failed = True

    def _start_log(self) -> None:
        """Start the edit log: on the map's file when the document still
        matches it, else on a whole autosave written now."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self._hold()
        path = self.document.path
        digest = file_digest(path) if path and not self.document.is_modified() else None
        if path and digest is not None:
            self._write_meta()
            self._log = StepLog.start(self.steps_path, {"base": "file", "path": os.path.abspath(path),
                                                        "sha256": digest})
        else:
            self._write_whole()

    def _write_meta(self) -> None:
        _write(self.meta_path, self._meta_text())

    def _meta_text(self) -> str:
        return json.dumps({"pid": os.getpid(), "path": self.document.path, "name": self.document.scenario.name,
                           "kind": map_kind(self.document.scenario), "time": time.time()})

    def _write_whole(self, wait: bool = True) -> None:
        """Write the whole work, then start the edit log on it.  The old
        log stays on disk until the new one replaces it: a kill between the
        two writes leaves the new whole work (the old log no longer matches
        it and is ignored) or the old work and its log, never less.

        A game's work whose map, header and earlier entries the autosave
        already holds is written by appending the new journal entries and
        the new end in place (:func:`engine.io.journal_file.append_in_place`:
        whole old or whole new after a crash), so an order's autosave
        costs the order, not the journal.  Unless ``wait``, a game's write
        (that append, or the whole work of a grid game made of its parts),
        the meta file and the new log's start are written by a thread of
        their own while the window paints (:meth:`_settle` waits for it,
        and writes the whole work here when the thread could not)."""
        self._settle()
        self._close_log()
        head_kept = self._head_kept
        job = self._append_job()
        if job is None:
            job, head_kept = self._game_job()
        if job is not None:
            self._writing = _Writing(job, self._revision, head_kept)
            if wait:
                self._settle()
            return
        self._write_text()

    def _game_job(self) -> tuple[Callable[[], tuple[StepLog, Any] | None] | None, tuple[Any, ...] | None]:
        """The whole writing of a grid game's work, made of its parts taken
        now (the text before the entries, the entries' lines, the text after
        them: what :meth:`Document.text` joins) for a thread to join, write,
        hash and log; and what :attr:`_head_kept` becomes once written.
        ``(None, None)`` for other work (written whole here)."""
        head = self._game_head()
        parts = self._game_parts() if head is not None else None
        if head is None or parts is None:
            return None, None
        prefix, entries, tail = parts
        fast = journal_tail(changing_data(self.document.scenario), dumps_compact)
        head_kept = head if fast is not None and json_safe_text(fast + "\n") == tail else None
        lines, origin = entries.lines, self._game_origin
        data_path, meta_path, steps_path, meta = self.data_path, self.meta_path, self.steps_path, self._meta_text()

        def job() -> tuple[StepLog, Any] | None:
            region = entries_region(lines)
            safe = json_safe_text(region)
            write_text_atomic(data_path, prefix + safe + tail)
            h = _sha256_text(prefix, safe)
            kept = h.copy() if safe == region else None  # entries written as their lines: appended to next time
            if kept is not None:
                origin.set(os.path.realpath(data_path), file_stat(data_path), prefix, tail, lines)
            h.update(tail.encode("utf-8"))
            _write(meta_path, meta)
            return StepLog.start(steps_path, {"base": "autosave", "sha256": h.hexdigest()}), kept

        return job, head_kept

    def _write_text(self) -> None:
        """Write the whole work's text, the meta file and a new log on it."""
        text = json_safe_text(self.document.text())
        write_text_atomic(self.data_path, text)
        digest = sha256_of(text.encode("utf-8"))
        self._game_written(text)
        self._write_meta()
        self._log = StepLog.start(self.steps_path, {"base": "autosave", "sha256": digest})
        self._written = self._revision

    def _settle(self) -> None:
        """Wait for the write a thread is making (see :meth:`_write_whole`)
        and take its result: the new log; or, when the write could not be
        made, the whole work written now; or, when the disk refuses that
        too, nothing (the timer's next write tries again)."""
        writing, self._writing = self._writing, None
        if writing is None:
            return
        writing.thread.join()
        if writing.log is None:  # the file was not the one written before, or the disk refused: written whole
            self._game_hash = None
            try:
                self._write_text()
            except (OSError, OutputError, ValueError):
                pass
            return
        self._game_hash = writing.hasher
        self._head_kept = writing.head_kept if writing.hasher is not None else None
        self._written = writing.revision
        if writing.revision == self._revision:
            self._log = writing.log
        else:  # the work changed meanwhile other than by a logged step: the log does not describe it
            writing.log.close()

    def _game_parts(self) -> tuple[str, JournalLines, str] | None:
        """The autosave text of a game as (before its entries, the entries,
        after them); ``None`` for a scenario without a game journal."""
        s = self.document.scenario
        game = s.state.get("game") if isinstance(getattr(s, "state", None), dict) else None
        journal = game.get("journal") if isinstance(game, dict) else None
        if not isinstance(journal, dict) or not isinstance(journal.get("entries"), JournalLines):
            return None
        if isinstance(s, TerritoryScenario):
            from engine.io.territory import dumps_territory_data, territory_scenario_to_data

            parts = journal_parts(territory_scenario_to_data(s), dumps_territory_data)
        else:
            parts = journal_parts(scenario_to_data(s), dumps_compact)
        if parts is None:
            return None
        prefix, entries, tail = parts
        return json_safe_text(prefix), entries, json_safe_text(tail + "\n")

    def _append_job(self) -> Callable[[], tuple[StepLog, Any] | None] | None:
        """The writing of a game's new entries appended to the autosave
        written before (see :meth:`_write_whole`), made of what it needs
        taken now (no Qt, nothing of the document: a thread runs it); it
        returns the new log and the hash state of the text up to the end of
        the entries, or ``None`` when the file is not the one written
        before.  ``None`` when the work must be written whole."""
        if self._game_hash is None:
            return None
        parts = self._game_tail_parts() if self._head_kept is not None else None
        if parts is None:
            parts = self._game_parts()
        if parts is None:
            return None
        prefix, entries, tail = parts
        origin = self._game_origin
        if prefix != origin.prefix or not origin.holds_start_of(entries.lines):
            return None
        lines = JournalLines(entries.lines, origin)
        added = appended_text(origin.count, entries.lines[origin.count:]).encode("utf-8")
        hasher = self._game_hash.copy()
        data_path, meta_path, steps_path, meta = self.data_path, self.meta_path, self.steps_path, self._meta_text()

        def job() -> tuple[StepLog, Any] | None:
            if not append_in_place(data_path, prefix, lines, tail, lambda _doc: None):
                return None
            hasher.update(added)
            h = hasher.copy()
            h.update(tail.encode("utf-8"))
            _write(meta_path, meta)
            return StepLog.start(steps_path, {"base": "autosave", "sha256": h.hexdigest()}), hasher

        return job

    def _game_written(self, text: str) -> None:
        """The autosave was written whole as ``text``: when it is a game,
        the next autosave may append to it."""
        self._game_hash = None
        parts = self._game_parts()
        if parts is None:
            return
        prefix, entries, tail = parts
        region = entries_region(entries.lines)
        if prefix + region + tail != text:  # the entries' lines are not what was written
            return
        self._game_origin.set(os.path.realpath(self.data_path), file_stat(self.data_path), prefix, tail,
                              entries.lines)
        self._game_hash = hashlib.sha256((prefix + region).encode("utf-8"))
        head = self._game_head()
        self._head_kept = None
        if head is not None:
            self._head_kept = head
            fast = self._game_tail_parts()
            self._head_kept = head if fast is not None and fast[2] == tail else None

    def _game_head(self) -> tuple[Any, ...] | None:
        """What a game step could change of the text before a grid game's
        entries (its rules system, its journal's format and branch), or
        ``None`` for another kind of work."""
        s = self.document.scenario
        if isinstance(s, TerritoryScenario) or not isinstance(getattr(s, "state", None), dict):
            return None
        game = s.state.get("game")
        journal = game.get("journal") if isinstance(game, dict) else None
        if not isinstance(journal, dict) or not isinstance(journal.get("entries"), JournalLines):
            return None
        return (game.get("system"), journal.get("format"), repr(journal.get("branch_of")))

    def _game_tail_parts(self) -> tuple[str, JournalLines, str] | None:
        """:meth:`_game_parts` of a grid game after game steps only, the
        text before the entries taken as written (only a game step changed
        the work since: it changes what comes after the entries, see
        :attr:`app.gui.turns.TurnController.notifying`); ``None`` when that
        cannot be said."""
        head = self._game_head()
        if head is None or head != self._head_kept:
            return None
        s = self.document.scenario
        entries = s.state["game"]["journal"]["entries"]
        tail = journal_tail(changing_data(s), dumps_compact)
        if tail is None:
            return None
        return self._game_origin.prefix, entries, json_safe_text(tail + "\n")

    def _modified(self, modified: bool) -> None:
        if not modified:
            self.remove()

    def _hold(self) -> None:
        """Take this autosave's lock before its first write (kept until the
        window closes; a crash frees it)."""
        if self._lock is None:
            try:
                self._lock = FileLock.acquire(self.lock_path, {"key": self.key})
            except OSError:
                self._lock = None  # no lock: the autosave is still written, and offered as a crash's

    def save_now(self) -> bool:
        """Write the work if it is unsaved and changed since the last
        autosave; whether something was written.  Failures to write are
        ignored (autosave must never interrupt work).  The write is done
        when it returns."""
        return self._save(wait=True)

    def _save(self, wait: bool) -> bool:
        self._settle()
        if not self.document.is_modified():
            self.remove()
            return False
        if self._written == self._revision and (self.data_path.exists() or self._log is not None):
            if self._log is not None:
                try:
                    self._log.sync()
                except OSError:
                    pass
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._hold()
            self._write_whole(wait)
        except (OSError, OutputError, ValueError):
            return False
        self._log_failed = False
        return True

    def remove(self) -> None:
        """Forget the autosave (work saved or deliberately discarded)."""
        self._settle()
        self._drop_log()
        self._game_hash = None
        self._head_kept = None
        self._game_origin.forget()
        for p in (self.data_path, self.meta_path, self.steps_path):
            try:
                p.unlink()
            except OSError:
                pass
        self._written = -1

    def close(self) -> None:
        """Normal end: stop and remove the autosave and its lock."""
        self.timer.stop()
        self.remove()
        if self._lock is not None:
            self._lock.release(remove=True)
            self._lock = None
        Autosave.live_keys.discard(self.key)

    def abandon(self) -> None:
        """Stop without removing anything (what a crash leaves behind: the
        files stay, the lock is freed; tests use it to simulate one)."""
        self.timer.stop()
        self._settle()
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        Autosave.live_keys.discard(self.key)
