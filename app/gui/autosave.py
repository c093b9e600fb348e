"""Autosave of unsaved work and recovery after a crash.

While the document has unsaved changes, :class:`Autosave` writes it every
60 seconds to ``<user state dir>/autosave/`` (``platformdirs``), as a
scenario file plus a small ``.meta.json`` (original file, name, time, the
process id).  Saving the document, or closing the window normally, removes
both.  So a file left there at the next start means the program did not
close normally: :func:`find_recoveries` lists those whose process is gone,
and the window offers to recover them.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import platformdirs
from PySide6.QtCore import QObject, QTimer

from engine.io import OutputError, write_text_atomic

from .document_base import DocumentBase

INTERVAL_MS = 60_000
"""How often unsaved work is written (milliseconds)."""


def default_state_dir() -> Path:
    """The user's state folder for Adjutant (``ADJUTANT_STATE_DIR`` overrides)."""
    env = os.environ.get("ADJUTANT_STATE_DIR")
    return Path(env) if env else Path(platformdirs.user_state_dir("adjutant", appauthor=False))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if sys.platform == "win32" or pid <= 0:
        return False  # no cheap safe check there; offering a recovery too often is harmless
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class Recovery:
    """Unsaved work left by a run that did not close normally."""

    data: Path
    meta: Path
    original: str | None
    name: str
    saved_at: float

    def describe(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))
        what = f"'{self.name}'" + (f" ({self.original})" if self.original else " (never saved)")
        return f"{what}, autosaved {when}"

    def discard(self) -> None:
        for p in (self.data, self.meta):
            try:
                p.unlink()
            except FileNotFoundError:
                pass


def find_recoveries(state_dir: Path | None = None) -> list[Recovery]:
    """Autosaves whose program is no longer running (newest first)."""
    folder = (state_dir or default_state_dir()) / "autosave"
    out = []
    for meta in folder.glob("*.meta.json") if folder.is_dir() else []:
        try:
            info = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        key = meta.name[: -len(".meta.json")]
        data = folder / f"{key}.json"
        if not data.is_file() or key in Autosave.live_keys:
            continue
        pid = int(info.get("pid", 0))
        if pid != os.getpid() and _alive(pid):
            continue  # another Adjutant still running owns it
        out.append(Recovery(data, meta, info.get("path"), str(info.get("name", key)), float(info.get("time", 0))))
    return sorted(out, key=lambda r: -r.saved_at)


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
        self._revision = 0
        self._written = 0
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.save_now)
        self.timer.start()
        document.edited.connect(self._bump)
        document.scenarioReplaced.connect(self._bump)
        document.modifiedChanged.connect(self._modified)

    def _bump(self, *_: object) -> None:
        self._revision += 1

    def _modified(self, modified: bool) -> None:
        if not modified:
            self.remove()

    def save_now(self) -> bool:
        """Write the work if it is unsaved and changed since the last
        autosave; whether something was written.  Failures to write are
        ignored (autosave must never interrupt work)."""
        if not self.document.is_modified():
            self.remove()
            return False
        if self._written == self._revision and self.data_path.exists():
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.data_path, self.document.text())
            write_text_atomic(self.meta_path, json.dumps({
                "pid": os.getpid(), "path": self.document.path, "name": self.document.scenario.name,
                "time": time.time()}))
        except (OSError, OutputError):
            return False
        self._written = self._revision
        return True

    def remove(self) -> None:
        """Forget the autosave (work saved or deliberately discarded)."""
        for p in (self.data_path, self.meta_path):
            try:
                p.unlink()
            except FileNotFoundError:
                pass
            except OSError:
                pass
        self._written = -1

    def close(self) -> None:
        """Normal end: stop and remove the autosave."""
        self.timer.stop()
        self.remove()
        Autosave.live_keys.discard(self.key)

    def abandon(self) -> None:
        """Stop without removing anything (what a crash leaves behind;
        tests use it to simulate one)."""
        self.timer.stop()
        Autosave.live_keys.discard(self.key)
