"""The lock every Adjutant takes before it writes a map: one writer of a
map file at a time, editor or command line (``docs/reliability.md``, "One
writer at a time").

Each map file has a lock file in ``<user state dir>/locks/`` (the name is a
digest of the map's full path, links resolved), locked with ``flock`` while
it is held and saying who holds it (JSON: process id, host, time, ``by``:
``"editor"`` or the command, e.g. ``"adjutant orders"``).  The operating
system frees the lock when its holder ends, however it ends.

* The editor (:class:`app.gui.autosave.MapLocks`) holds a map's lock for as
  long as a window has the map open.
* A command that rewrites a map, or writes a scenario to ``--out``
  (:func:`hold_map`), takes the lock before it reads the file and keeps it
  until the file is written: a second command waits for the first (at most
  :data:`WAIT_SECONDS`); a map open in an editor is refused at once, naming
  the editor's process.

Pure Python (no Qt): the command line imports it without the editor.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs


def _wait_seconds(default: float = 60.0) -> float:
    try:
        value = float(os.environ.get("ADJUTANT_LOCK_WAIT", default))
    except ValueError:
        return default
    return value if 0 <= value < float("inf") else default


WAIT_SECONDS = _wait_seconds()
"""Longest a command waits for another command holding the same map
(seconds; ``ADJUTANT_LOCK_WAIT`` sets it, default 60)."""
EDITOR = "editor"
"""The ``by`` of a lock held by an editor window."""


class MapBusy(Exception):
    """The map is held by another Adjutant: an editor has it open, or
    another command did not finish in time.  The message says which."""


def default_state_dir() -> Path:
    """The user's state folder for Adjutant (``ADJUTANT_STATE_DIR`` overrides)."""
    env = os.environ.get("ADJUTANT_STATE_DIR")
    return Path(env) if env else Path(platformdirs.user_state_dir("adjutant", appauthor=False))


class FileLock:
    """An exclusive lock on a small file, held while this object is open.
    The file says who holds it (JSON: process id, host, what, time); the
    operating system frees the lock when the holding process ends.  It holds
    a bare file descriptor (not a file object), so a lock dropped without
    release, in whatever order the collector frees things, is closed quietly
    by :meth:`__del__`."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, path: Path, what: dict[str, Any] | None = None) -> FileLock | None:
        """Lock ``path`` (created if missing) without waiting; ``None`` when
        another process (or another lock in this one) holds it.  Raises
        :class:`OSError` when the file cannot be opened."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        if not _lock(fd):
            os.close(fd)
            return None
        lock = cls(path, fd)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "time": time.time(),
                                 **(what or {})}).encode("utf-8"))
        return lock

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __del__(self) -> None:
        # dropped without release (its window was never closed, as in a
        # test): close the descriptor, which frees the lock, as the end of
        # the process would
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def release(self, remove: bool = False) -> None:
        """Free the lock (and delete its file with ``remove``)."""
        if self._fd is None:
            return
        if remove:
            try:
                self.path.unlink()
            except OSError:
                pass
        os.close(self._fd)  # closing the descriptor frees the lock
        self._fd = None


def _lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def probe(path: Path) -> bool:
    """Whether ``path`` could be locked now, i.e. no live process holds it
    (the lock is freed at once)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError:
        return True
    try:
        return _lock(fd)
    finally:
        os.close(fd)


def lock_holder(path: Path) -> dict[str, Any]:
    """What a lock file says about its holder (``{}`` when unreadable)."""
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def describe_holder(info: dict[str, Any]) -> str:
    """"another Adjutant (process 123 on host)" from :func:`lock_holder`'s
    answer, with the command it runs when it is no editor."""
    pid, host, by = info.get("pid"), info.get("host"), info.get("by")
    doing = f", running '{by}'" if isinstance(by, str) and by != EDITOR else ""
    if pid is None:
        return "another Adjutant" + (f" ({doing[2:]})" if doing else "")
    return f"another Adjutant (process {pid}" + (f" on {host}" if host else "") + doing + ")"


# -- map locks ---------------------------------------------------------------

def map_lock_path(state_dir: Path | None, path: str | os.PathLike[str]) -> Path:
    """The lock file of the map at ``path`` (links resolved, so every name
    of one file shares one lock) in ``state_dir`` (default:
    :func:`default_state_dir`)."""
    full = str(Path(path).resolve())
    digest = hashlib.sha1(full.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return (state_dir or default_state_dir()) / "locks" / f"{digest}.lock"


def holder_is_editor(info: dict[str, Any]) -> bool:
    """Whether a lock file's holder (:func:`lock_holder`) is an editor
    window (a lock naming a process but no ``by`` was written by an editor
    too; an empty one is being written and says nothing yet)."""
    return info.get("by") == EDITOR or ("pid" in info and "by" not in info)


@contextmanager
def hold_map(path: str | os.PathLike[str], by: str, state_dir: Path | None = None,
             wait: float | None = None) -> Iterator[FileLock | None]:
    """Hold the lock of the map at ``path`` while the block runs, for the
    command ``by`` (e.g. ``"adjutant orders"``).  Another command holding it
    is waited for, at most ``wait`` seconds (:data:`WAIT_SECONDS`); an
    editor holding it, or a wait that runs out, raises :class:`MapBusy`
    naming the holder.  Yields the lock, or ``None`` where no lock file can
    be made (a read-only state folder): locking is then skipped, as the
    editor skips it."""
    lock_path = map_lock_path(state_dir, path)
    limit = WAIT_SECONDS if wait is None else wait
    start = time.monotonic()
    delay = 0.01
    what = {"path": str(path).encode("utf-8", "backslashreplace").decode("utf-8"), "by": by}
    while True:
        try:
            lock = FileLock.acquire(lock_path, what)
        except OSError:
            yield None
            return
        if lock is not None:
            break
        holder = lock_holder(lock_path)
        if holder_is_editor(holder):
            raise MapBusy(f"{path} is open in the editor ({describe_holder(holder)}); it saves the map, so this "
                          "command will not write it: give these commands there, or close the map there and run "
                          "this again; nothing was written")
        if time.monotonic() - start >= limit:
            raise MapBusy(f"{path} is being written by {describe_holder(holder)}, still after {limit:g} s; "
                          "nothing was written")
        time.sleep(delay)
        delay = min(delay * 2, 0.2)
    try:
        yield lock
    finally:
        lock.release()


__all__ = ["EDITOR", "WAIT_SECONDS", "FileLock", "MapBusy", "default_state_dir", "describe_holder", "hold_map",
           "holder_is_editor", "lock_holder", "map_lock_path"]
