"""A modal dialog that no one answers, closed after a while and named.

A modal ``exec()`` runs Qt's own event loop and no Python code, so
pytest-timeout's alarm (signal method) never gets its turn, and a test that
opens an unexpected message box waits for ever: the CI run of 2026-11-24
stood 5400 s in one.  :class:`ModalWatchdog` looks once a second (a Qt
timer, which the modal loop does run) and closes a modal widget that has
stood for ``patience`` seconds, keeping its title and text so the test can
fail naming it (``tests/conftest.py`` does, for every ``gui`` test).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox


class ModalWatchdog:
    def __init__(self, patience: float, interval_ms: int = 1000) -> None:
        self.patience = patience
        self.closed: list[str] = []
        """One line per dialog closed: its class, title and text."""
        self._since: dict[int, float] = {}
        self._timer = QTimer()
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._look)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _look(self) -> None:
        w = QApplication.activeModalWidget()
        if w is None:
            self._since.clear()
            return
        first = self._since.setdefault(id(w), time.monotonic())
        if time.monotonic() - first < self.patience:
            return
        text = w.text() if isinstance(w, QMessageBox) else ""
        self.closed.append(f"{type(w).__name__} {w.windowTitle()!r} {text!r}")
        self._since.pop(id(w), None)
        if isinstance(w, QDialog):
            w.reject()
        else:
            w.close()
