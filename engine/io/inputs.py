"""Reading an input file within bounds: the one place every loader reads
bytes from disk (scenario JSON, Tiled maps and tilesets, TripleA games and
their text files), and the bounds on what those bytes may expand into.

* **Regular files only.**  A FIFO, a character or block device (``/dev/zero``,
  ``/dev/urandom``) or a socket is refused by its kind before a byte is
  read: reading one whole would wait forever or never end.  The file is
  opened without blocking and checked again through the open descriptor,
  so a path swapped for a FIFO in between is refused too.
* **Size.**  At most ``limit`` bytes are read; the file's stated size is
  checked first and the read stops one byte past the limit, so a file that
  grows while being read cannot take more.
* **Decompression** (:func:`inflate_limit`): gzipped input may expand to at
  most :data:`MAX_RATIO` times its compressed size plus
  :data:`RATIO_SLACK`, and never more than the caller's absolute limit.
* **XML** (:func:`xml_markup_problem`): at most :data:`MAX_XML_MARKUP`
  pieces of markup, counted at C speed before any tree is built; readers
  that follow nesting (Tiled's layer groups, in TMX and Tiled JSON) stop at
  :data:`MAX_XML_DEPTH` levels.

The numbers are listed with what happens at each in ``docs/reliability.md``
("Limits").
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import NoReturn

MAX_RATIO = 100
"""Largest expansion of gzipped input over its compressed size."""
RATIO_SLACK = 1024 * 1024
"""Bytes a small gzipped file may always expand to (1 MiB), whatever its ratio."""
MAX_XML_MARKUP = 2_000_000
"""Largest number of ``<`` (element starts, comments, declarations) in one XML file."""
MAX_XML_DEPTH = 100
"""Deepest nesting of Tiled layer groups read (TMX or Tiled JSON)."""
_CHUNK = 1024 * 1024


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, in words, when it is not a
    regular file: "a FIFO (named pipe)", "a character device"..."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def refuse_kind(mode: int) -> str | None:
    """Why a file of ``mode`` (``os.stat``'s ``st_mode``) is not read, or
    ``None`` for a regular file: the message :func:`read_regular` gives a
    FIFO, device or socket."""
    if stat.S_ISREG(mode):
        return None
    return f"is {file_kind(mode)}, not a regular file; Adjutant reads only regular files"


def read_regular(path: str | os.PathLike[str], limit: int, fail: Callable[[str], Exception],
                 what: str = "file", folder_not: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Anything else raises ``fail(message)``: the caller's own error type,
    whose message the caller prefixes with the file's name.  Messages: "no
    such file", "is a folder, not a <what>", "is a FIFO (named pipe), not a
    regular file", "<what> is N bytes; the limit is L", "cannot read: ..."
    (``folder_not``, default ``what``, is what a folder is said not to be).
    """

    def refuse(message: str) -> NoReturn:
        raise fail(message)

    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            refuse(f"is a folder, not a {folder_not or what}")
        if not stat.S_ISREG(st.st_mode):
            refuse(f"is {file_kind(st.st_mode)}, not a regular file; Adjutant reads only regular files")
        if st.st_size > limit:
            refuse(f"{what} is {st.st_size} bytes; the limit is {limit}")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        refuse(f"no such {what}")
    except IsADirectoryError:
        refuse(f"is a folder, not a {folder_not or what}")
    except OSError as e:
        refuse(f"cannot read: {e.strerror or e}")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            refuse(f"is {file_kind(st.st_mode)}, not a regular file; Adjutant reads only regular files")
        parts: list[bytes] = []
        got = 0
        while got <= limit:
            # the size the file was found to have, and one byte more, in the first read (one buffer, no join)
            part = os.read(fd, min(max(_CHUNK, st.st_size + 1) if not parts else _CHUNK, limit + 1 - got))
            if not part:
                break
            parts.append(part)
            got += len(part)
        if got > limit:
            refuse(f"{what} is more than {limit} bytes; the limit is {limit}")
        return parts[0] if len(parts) == 1 else b"".join(parts)
    except OSError as e:
        refuse(f"cannot read: {e.strerror or e}")
    finally:
        os.close(fd)


def inflate_limit(compressed_size: int, absolute: int) -> int:
    """How many bytes ``compressed_size`` bytes of gzip or zlib data may
    expand to: :data:`MAX_RATIO` times as many plus :data:`RATIO_SLACK`,
    at most ``absolute``."""
    return min(absolute, MAX_RATIO * compressed_size + RATIO_SLACK)


def xml_markup_problem(raw: bytes) -> str | None:
    """Why the XML text ``raw`` has too many elements to parse, or ``None``
    (a count of ``<`` at C speed, before any tree is built)."""
    n = raw.count(b"<")
    if n > MAX_XML_MARKUP:
        return (f"has {n} pieces of XML markup; the limit is {MAX_XML_MARKUP} (for a Tiled map, save its "
                "layers in CSV or base64 format instead of XML tiles)")
    return None


__all__ = ["MAX_RATIO", "MAX_XML_DEPTH", "MAX_XML_MARKUP", "RATIO_SLACK", "file_kind", "inflate_limit", "read_regular", "refuse_kind",
           "xml_markup_problem"]
