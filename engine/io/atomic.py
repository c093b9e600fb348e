"""The one way Adjutant writes a file: scenarios, autosaves, Tiled maps and
their tilesets, rendered PNG and SVG images, imported scenarios.

:func:`write_atomic` writes to a temporary file in the target's folder
(``.<name>.<random>.tmp``), flushes and fsyncs it, checks it (``verify``:
the scenario loads again, the PNG decodes, the XML parses), gives it the
mode of the file it replaces (0644 for a new file), renames it over the
target and fsyncs the folder.  A crash or ``SIGKILL`` at any moment leaves
the whole old file or the whole new one; an error leaves the old file as it
was and no temporary file behind.  :func:`commit_together` does the same for
outputs that belong together (a Tiled map and its tileset image): every file
is written and checked before any is renamed, and a failed rename puts the
ones already renamed back.

A symbolic link is written through (its target changes, the link stays a
link).  A link loop, a missing folder, a folder in the way, a read-only file,
a full disk (``ENOSPC``) and an I/O error (``EIO``) are an
:class:`OutputError` naming the file and what is wrong.
:func:`refuse_input` stops a command from writing over one of its own inputs
(same file by device and inode, through links); :func:`check_output` also
refuses, before any work, an output that is a device, FIFO, socket or folder
(directly or through links): only regular files are replaced.  A writer holds
its temporary files locked (``flock``) while it writes; the next write of the
same file removes those a killed writer left (unlocked, older than
:data:`STALE_SECONDS`).  See ``docs/reliability.md``
("Outputs").
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .inputs import file_kind

Data = bytes | Callable[[Path], None]
"""What to write: the bytes, or a function that writes the file at the path
it is given (the temporary file) and raises when it cannot."""

Verify = Callable[[Path], object]
"""A check of the written temporary file; raises (any exception) when the
file is not what it should be."""

NEW_FILE_MODE = 0o644
"""Mode of a file that did not exist before (rw-r--r--)."""


class OutputError(ValueError):
    """A file that cannot be written; the message names it and says why.
    The old file (if any) is as it was, and no temporary file is left."""


@dataclass(frozen=True)
class Output:
    """One file of an output: where, what, and how to check it."""

    path: str | os.PathLike[str]
    data: Data
    verify: Verify | None = None


def _why(e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return "the disk is full (no space left on device)"
    if e.errno == errno.EDQUOT:
        return "the disk quota is used up"
    if e.errno == errno.EIO:
        return "input/output error (the disk or its connection failed)"
    if e.errno == errno.EROFS:
        return "the file system is read-only"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return e.strerror or str(e)


def _error(path: object, e: OSError) -> OutputError:
    return OutputError(f"{path}: cannot write: {_why(e)}; the old file, if any, is unchanged")


def output_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or the file
    its symbolic links lead to.  :class:`OutputError` for a link loop, a
    folder, a missing folder or a read-only file."""
    p = Path(os.fspath(path))
    try:
        st: os.stat_result | None = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise OutputError(f"{path}: cannot write: a loop of symbolic links (it leads back to itself); nothing was written") \
                from None
        if e.errno == errno.ENOTDIR:
            raise OutputError(f"{path}: cannot write: a part of the path is a file, not a folder; nothing was written") from None
        raise _error(path, e) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"{path}: cannot write: it is a folder, not a file; nothing was written")
    if st is not None and not stat.S_ISREG(st.st_mode):
        via = f" (through the link to {os.path.realpath(p)})" if os.path.islink(p) else ""
        raise OutputError(f"{path}: cannot write: it is {file_kind(st.st_mode)}{via}, not a regular file; Adjutant "
                          "replaces only regular files; nothing was written")
    target = Path(os.path.realpath(p)) if os.path.islink(p) or st is None else p
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{path}: cannot write: the folder {folder} does not exist; nothing was written")
    if st is not None and not os.access(target, os.W_OK):
        raise OutputError(f"{path}: cannot write: the file is read-only; nothing was written")
    return target


def check_output(out: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str] | None] = (),
                 force: bool = False) -> Path:
    """Check an output before any work is done: ``out`` may be written
    (:func:`output_target`: a regular file or a new one, never a device,
    FIFO, socket or folder, directly or through links) and is none of
    ``inputs`` (:func:`refuse_input`; ``force`` allows that, never a device).
    Returns the file a write replaces; raises :class:`OutputError`."""
    target = output_target(out)
    refuse_input(out, inputs, force)
    return target


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether ``a`` and ``b`` are one file (device and inode, following
    symbolic links); False when either does not exist or cannot be read."""
    try:
        sa, sb = os.stat(a), os.stat(b)
    except (OSError, ValueError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def refuse_input(out: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str] | None],
                 force: bool = False) -> None:
    """:class:`OutputError` when ``out`` is one of ``inputs`` (the same file
    under any name or link), unless ``force``."""
    if force:
        return
    for inp in inputs:
        if inp is not None and same_file(out, inp):
            same = "" if os.fspath(out) == os.fspath(inp) else f" {inp} (the same file by another name or link)"
            raise OutputError(f"{out}: will not write over the input file{same}; give another output file, or "
                              "--force to replace the input")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


STALE_SECONDS = 2.0
"""Age after which an unlocked temporary file of a write (``.NAME.*.tmp``)
is taken for the leftover of a writer that was killed, and removed."""


def _hold(fd: int) -> bool:
    """Lock the open file ``fd`` exclusively without waiting (POSIX
    ``flock``): a writer holds its temporary files locked until it is done,
    so a later writer can tell a live one's from a killed one's.  Whether
    the lock was taken (always False where there is no ``flock``)."""
    try:
        import fcntl
    except ImportError:  # Windows: no sweeping of leftovers
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def sweep_leftovers(target: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files (``.NAME.*.tmp``) that writers of
    ``target`` killed mid-write left beside it: those no live writer holds
    locked and older than :data:`STALE_SECONDS`.  Returns what was removed;
    never raises for a file it cannot remove."""
    t = Path(os.fspath(target))
    prefix, removed = f".{t.name}.", []
    try:
        entries = list(os.scandir(t.parent))
    except OSError:
        return []
    now = time.time()
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(".tmp")):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_SECONDS:
                continue
            fd = os.open(entry.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            continue
        try:
            if _hold(fd) and os.fstat(fd).st_ino == st.st_ino:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def _stage(target: Path, out: Output, held: list[int]) -> Path:
    """Write ``out`` to a new temporary file beside ``target``, fsync and
    check it; returns its path (removed again on any error).  The file is
    held locked (its descriptor appended to ``held``, for the caller to
    close once the file is renamed or removed)."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    held.append(fd)
    _hold(fd)
    tmp = Path(name)
    try:
        if isinstance(out.data, (bytes, bytearray, memoryview)):
            _write_all(fd, bytes(out.data))
            os.fsync(fd)
        else:
            out.data(tmp)
            check = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(check)
            finally:
                os.close(check)
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = NEW_FILE_MODE
        os.chmod(tmp, mode)
        if out.verify is not None:
            try:
                out.verify(tmp)
            except Exception as e:  # noqa: BLE001 - any failure of the check refuses the file
                raise OutputError(f"{out.path}: cannot write: the written file did not check out ({e}); the old file, "
                                  "if any, is unchanged") from None
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(p: Path) -> None:
    try:
        os.unlink(p)
    except OSError:
        pass


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass
    fds.clear()


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable (``fsync`` of the
    folder); a folder that cannot be opened or synced is left as it is."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _backup(target: Path, held: list[int]) -> Path | None:
    """A hard link (else a copy) of ``target`` beside it, to put back if a
    later rename of the same output fails; None when there is no file.  It
    is held locked like a temporary file (see :func:`_stage`)."""
    if not target.exists():
        return None
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".old.tmp", dir=target.parent)
    os.close(fd)
    bak = Path(name)
    try:
        os.unlink(bak)
        try:
            os.link(target, bak)
        except OSError:
            shutil.copy2(target, bak)
        fd = os.open(bak, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        held.append(fd)
        _hold(fd)
    except BaseException:
        _unlink(bak)
        raise
    return bak


def commit_together(outputs: Sequence[Output]) -> list[Path]:
    """Write every output (see :func:`write_atomic`) so that they change
    together or not at all: all are written and checked first, then renamed
    over their targets in order; if a rename fails, the files renamed before
    it get their old contents back.  Returns the files written (symbolic
    links resolved).  Raises :class:`OutputError`."""
    targets = [output_target(o.path) for o in outputs]
    if len({os.path.normcase(str(t)) for t in targets}) != len(targets):
        raise OutputError(", ".join(str(o.path) for o in outputs) + ": two outputs are the same file")
    staged: list[Path] = []
    backups: dict[Path, Path | None] = {}
    done: list[Path] = []
    held: list[int] = []
    current: object = outputs[0].path if outputs else ""
    for t in targets:
        sweep_leftovers(t)
    try:
        for o, t in zip(outputs, targets):
            current = o.path
            staged.append(_stage(t, o, held))
        if len(outputs) > 1:
            for o, t in zip(outputs, targets):
                current = o.path
                backups[t] = _backup(t, held)
        for o, t, tmp in zip(outputs, targets, staged):
            current = o.path
            os.replace(tmp, t)
            done.append(t)
    except BaseException as e:
        for t in reversed(done):
            bak = backups.get(t)
            try:
                if bak is not None:
                    os.replace(bak, t)
                else:
                    os.unlink(t)
            except OSError:
                pass
        for tmp in staged[len(done):]:
            _unlink(tmp)
        for bak in backups.values():
            if bak is not None:
                _unlink(bak)
        _close_all(held)
        if isinstance(e, OSError):
            raise _error(current, e) from None
        raise
    for bak in backups.values():
        if bak is not None:
            _unlink(bak)
    _close_all(held)
    for folder in dict.fromkeys(t.parent for t in targets):
        fsync_folder(folder)
    return targets


def write_atomic(path: str | os.PathLike[str], data: Data, verify: Verify | None = None) -> Path:
    """Write one file safely (see the module docstring); ``data`` is the
    bytes or a function writing the temporary file it is given, ``verify``
    a check of the written file.  Returns the file written (a symbolic link
    resolved).  Raises :class:`OutputError`."""
    return commit_together([Output(path, data, verify)])[0]


def write_text_atomic(path: str | os.PathLike[str], text: str, verify: Verify | None = None) -> Path:
    """:func:`write_atomic` of ``text`` as UTF-8 with ``\\n`` line ends."""
    return write_atomic(path, text.encode("utf-8"), verify)


__all__ = ["NEW_FILE_MODE", "STALE_SECONDS", "Output", "OutputError", "check_output", "commit_together", "fsync_folder",
           "output_target", "refuse_input", "same_file", "sweep_leftovers", "write_atomic", "write_text_atomic"]
