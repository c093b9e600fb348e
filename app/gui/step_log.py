"""The autosave's edit log: every step of unsaved work written before it is
carried out, so a crash between two autosaves loses nothing: after any
crash, every unsaved edit of every open window is offered on the next
start.

An autosave (``app/gui/autosave.py``) writes the whole scenario every 60
seconds; a 1000 x 1000 map takes about a second to write, too long to do
on every dab of a brush.  So between two whole writes each undo step is
appended to ``<key>.steps`` as it happens: the engine edit records of the
step (``engine/editing/``, ``engine/editing/territory.py``) and whether they
were carried out (``apply``: a new edit or a redo) or taken back
(``revert``: an undo).  The records are exactly what the undo stack holds,
so replaying the log on its base with the engine's own ``apply_edits`` /
``revert_edits`` gives the model the window had.

The log's first frame says what it applies to:

* ``{"base": "autosave", "sha256": ...}``: the autosave ``<key>.json``
  with that digest (the log is started again after every whole write);
* ``{"base": "file", "path": ..., "sha256": ...}``: the map's own file,
  unchanged since it was opened or saved (the first edit of a clean
  document starts the log without writing the whole map).

A log whose base does not match is ignored: the whole autosave written
after it is newer.  Frames are length, CRC-32 and payload; a frame cut
short by a kill ends the log there (that step was being written when the
process died, before it was carried out).

Records are stored with :mod:`pickle` (numpy arrays, frozen dataclasses,
frozensets of cells: what the records are made of) and read back by an
unpickler that builds only engine classes and the numpy and builtin types
they use, never an arbitrary callable.  This module has no Qt; the
autosave feeds it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_FRAME = struct.Struct(">II")
"""Frame head: payload length and its CRC-32."""
MAX_FRAME = 1 << 30
"""A frame longer than this is taken for damage (a whole-map fill of
1000 x 1000 cells is about 32 MB)."""

_NUMPY_NAMES = {"_reconstruct", "_frombuffer", "ndarray", "dtype", "scalar", "frombuffer"}
_BUILTIN_NAMES = {"set", "frozenset", "slice", "complex", "range", "bytearray", "object"}


class StepLogError(ValueError):
    """The log cannot be read or does not fit its base."""


class _EngineUnpickler(pickle.Unpickler):
    """Builds engine classes, numpy arrays and plain builtins only."""

    def find_class(self, module: str, name: str) -> Any:
        top = module.split(".")[0]
        if (module == "engine" or module.startswith("engine.")) \
                or (top == "numpy" and name in _NUMPY_NAMES) \
                or (module == "builtins" and name in _BUILTIN_NAMES) \
                or (module == "copyreg" and name == "_reconstructor"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not an engine record")


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 of a file's bytes, ``None`` when it cannot be read."""
    try:
        with open(path, "rb") as f:
            h = hashlib.sha256()
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
            return h.hexdigest()
    except OSError:
        return None


def _frame(payload: bytes) -> bytes:
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


class StepLog:
    """An open edit log, appended to step by step."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.open = True
        self.steps = 0

    @classmethod
    def start(cls, path: Path, base: dict[str, Any]) -> StepLog:
        """A new log on ``base`` (replacing any log at ``path``): the header
        is written to a temporary file renamed over the old log, so a kill
        leaves the old log or the new one, never half a header."""
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            f.write(_frame(json.dumps(base, sort_keys=True).encode("utf-8")))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return cls(path)

    def append(self, kind: str, edits: Sequence[Any]) -> None:
        """Write one step (``"apply"`` or ``"revert"`` of ``edits``) and hand
        it to the operating system before the step is carried out (opened
        for each step: a window that is never closed holds no file)."""
        if not self.open:
            raise StepLogError(f"{self.path} is closed")
        payload = pickle.dumps((kind, list(edits)), protocol=5)
        with open(self.path, "ab") as f:
            f.write(_frame(payload))
        self.steps += 1

    def sync(self) -> None:
        """fsync the log (a power cut then loses nothing written so far)."""
        if self.open:
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def close(self, remove: bool = False) -> None:
        self.open = False
        if remove:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass


@dataclass
class ReadLog:
    """A log read back: its base, its steps, and what was left out."""

    base: dict[str, Any]
    steps: list[tuple[str, list[Any]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_log(path: Path) -> ReadLog:
    """Read ``path``; raises :class:`StepLogError` when even its header is
    unreadable.  A damaged or cut-short frame ends the log there, noted."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise StepLogError(f"{path.name} cannot be read: {e.strerror or e}") from None
    frames: list[bytes] = []
    pos = 0
    notes = []
    while pos < len(data):
        if pos + _FRAME.size > len(data):
            notes.append("the last step was cut short (being written when the process ended); it is left out")
            break
        length, crc = _FRAME.unpack_from(data, pos)
        payload = data[pos + _FRAME.size: pos + _FRAME.size + length]
        if length > MAX_FRAME or len(payload) < length or zlib.crc32(payload) != crc:
            notes.append("the last step was cut short (being written when the process ended); it is left out"
                         if pos + _FRAME.size + length >= len(data) else
                         f"the log is damaged after step {len(frames) - 1}; the steps after it are left out")
            break
        frames.append(payload)
        pos += _FRAME.size + length
    if not frames:
        raise StepLogError(f"{path.name} has no header")
    try:
        base = json.loads(frames[0].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise StepLogError(f"{path.name}: its header is not JSON ({e})") from None
    if not isinstance(base, dict) or base.get("base") not in ("autosave", "file"):
        raise StepLogError(f"{path.name}: its header names no base")
    log = ReadLog(base, notes=notes)
    for i, payload in enumerate(frames[1:], 1):
        try:
            kind, edits = _EngineUnpickler(io.BytesIO(payload)).load()
        except Exception as e:  # noqa: BLE001 — any damage ends the log here, named
            log.notes.append(f"step {i} cannot be read ({type(e).__name__}: {e}); it and the steps after it "
                             "are left out")
            break
        if kind not in ("apply", "revert") or not isinstance(edits, list):
            log.notes.append(f"step {i} is not an edit step; it and the steps after it are left out")
            break
        log.steps.append((kind, edits))
    return log


def replay(scenario: Any, steps: Sequence[tuple[str, list[Any]]]) -> None:
    """Carry the logged steps out on ``scenario`` with the engine's own
    edit functions for its map kind."""
    from engine.territory import TerritoryScenario

    if isinstance(scenario, TerritoryScenario):
        from engine.editing.territory import apply_edits, revert_edits
    else:
        from engine.editing import apply_edits, revert_edits  # type: ignore[assignment]
    for kind, edits in steps:
        (apply_edits if kind == "apply" else revert_edits)(scenario, edits)


__all__ = ["ReadLog", "StepLog", "StepLogError", "file_digest", "read_log", "replay", "sha256_of"]
