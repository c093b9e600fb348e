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
(same file by device and inode, through links).  See ``docs/reliability.md``
("Outputs").
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

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
    target = Path(os.path.realpath(p)) if os.path.islink(p) or st is None else p
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{path}: cannot write: the folder {folder} does not exist; nothing was written")
    if st is not None and not os.access(target, os.W_OK):
        raise OutputError(f"{path}: cannot write: the file is read-only; nothing was written")
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


def _stage(target: Path, out: Output) -> Path:
    """Write ``out`` to a new temporary file beside ``target``, fsync and
    check it; returns its path (removed again on any error)."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(name)
    try:
        if isinstance(out.data, (bytes, bytearray, memoryview)):
            try:
                _write_all(fd, bytes(out.data))
                os.fsync(fd)
            finally:
                os.close(fd)
        else:
            os.close(fd)
            out.data(tmp)
            fd = os.open(tmp, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
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


def _fsync_folder(folder: Path) -> None:
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


def _backup(target: Path) -> Path | None:
    """A hard link (else a copy) of ``target`` beside it, to put back if a
    later rename of the same output fails; None when there is no file."""
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
    current: object = outputs[0].path if outputs else ""
    try:
        for o, t in zip(outputs, targets):
            current = o.path
            staged.append(_stage(t, o))
        if len(outputs) > 1:
            for o, t in zip(outputs, targets):
                current = o.path
                backups[t] = _backup(t)
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
        if isinstance(e, OSError):
            raise _error(current, e) from None
        raise
    for bak in backups.values():
        if bak is not None:
            _unlink(bak)
    for folder in dict.fromkeys(t.parent for t in targets):
        _fsync_folder(folder)
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


__all__ = ["NEW_FILE_MODE", "Output", "OutputError", "commit_together", "output_target", "refuse_input", "same_file",
           "write_atomic", "write_text_atomic"]
