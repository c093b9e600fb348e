"""Long work off the GUI thread, with a progress dialog that appears only
when the work lasts (issue 18: "Progress for anything that can take over
~0.5 s, cancellable where the work allows, off the GUI thread").

:func:`run` hands a function to a worker thread and keeps the window alive
(painting, answering) while it runs; after :data:`SHOW_AFTER_MS` a
:class:`QProgressDialog` says what is being done, with a Cancel button.
Cancelling returns at once and throws the result away when it comes: the
work only ever *builds* something new (a loaded scenario, an imported map,
an image in memory), which the GUI thread installs afterwards, so a
cancelled or failed job leaves the document as it was.  The function may
take a ``cancelled`` callable (keyword) and stop early when it says so.

Used by File > Open (both windows), File > Import TripleA Map…, building an
underlay's tiles and tracing; the Module I plan already routes in the
background (``app/gui/territory/railplan.py``).

**Work that paints with Qt never goes to a worker** (:func:`run_painting`):
File > Export Image… and File > Print / Export PDF… paint on the GUI
thread, under a wait cursor.  Qt painting in a Python worker deadlocked in a
test run (2026-11-27, stacks read with py-spy): the worker, holding Python's
lock, waited in ``QPdfEngine::drawImage`` for a Qt lock (loading Qt's image
plugins) that the GUI thread held while it waited for Python's lock to
delete a closed window.  Only work that makes no Qt call runs in a worker:
reading and parsing files, the engine, libvips.
"""

from __future__ import annotations

import collections
import inspect
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

from . import gc_guard

T = TypeVar("T")

SHOW_AFTER_MS = 500
"""The dialog appears only for work lasting longer than this."""

MAX_WORKERS = 2
"""At most this many jobs run at once; later ones wait their turn."""

REAP_MS = 20
"""How often the GUI thread looks for ended workers while any runs."""


class _Workers:
    """One thread per job, started and reaped on the GUI thread.

    Python's cycle collector is held off (:mod:`app.gui.gc_guard`) from a
    job's submission until the GUI thread sees its thread *ended*, not
    merely its result set: a pooled worker goes on running Python after
    the job (``concurrent.futures`` releases a semaphore and waits for the
    next job), and the collector, given back there while the loaded map
    kept its allocation count over the threshold, ran in the worker at
    once, every time: 49 of 50 ``run`` calls measured.  A collection in a
    worker destroys whatever Qt objects the GUI thread's garbage holds (a
    closed window), which hung CI twice inside a ``QListWidget``
    constructor on the GUI thread.  A thread that has ended runs no more
    Python, and only the GUI thread gives the collector back."""

    def __init__(self) -> None:
        self.running: list[threading.Thread] = []
        self.waiting: collections.deque[threading.Thread] = collections.deque()
        self.timer: QTimer | None = None
        self.names = itertools.count(1)

    def submit(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Future[T]:
        _check_gui_thread()
        future: Future[T] = Future()

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # handed to the caller through the future
                future.set_exception(exc)
            else:
                future.set_result(result)

        thread = threading.Thread(target=work, name=f"adjutant-work-{next(self.names)}", daemon=True)
        gc_guard.hold()
        self.waiting.append(thread)
        self.reap()
        return future

    def reap(self) -> int:
        """Forget ended workers, giving the collector back for each, and
        start waiting ones; how many are running or waiting."""
        _check_gui_thread()
        for thread in [t for t in self.running if not t.is_alive()]:
            self.running.remove(thread)
            gc_guard.release()
        while self.waiting and len(self.running) < MAX_WORKERS:
            thread = self.waiting.popleft()
            try:
                thread.start()
            except BaseException:
                gc_guard.release()
                raise
            self.running.append(thread)
        busy = len(self.running) + len(self.waiting)
        self._tick(busy > 0)
        return busy

    def _tick(self, on: bool) -> None:
        if self.timer is None or not shiboken6.isValid(self.timer):
            if not on:
                return
            self.timer = QTimer(QCoreApplication.instance())
            self.timer.setInterval(REAP_MS)
            self.timer.timeout.connect(self.reap)
        if on and not self.timer.isActive():
            self.timer.start()
        elif not on and self.timer.isActive():
            self.timer.stop()


def _check_gui_thread() -> None:
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("background jobs are submitted and reaped on the GUI thread only")


WORKERS = _Workers()
"""The worker threads of all long work (never Qt work)."""


def submit(fn: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
    """``fn(*args, **kwargs)`` in a worker thread of its own (it must make
    no Qt call), with Python's cycle collection held off until the GUI
    thread sees that thread ended (:class:`_Workers`).  Call it on the GUI
    thread; the event loop (or :func:`busy`) reaps the worker."""
    return WORKERS.submit(fn, args, kwargs)


def busy() -> int:
    """How many jobs are running or waiting, after reaping ended ones
    (call on the GUI thread)."""
    return WORKERS.reap()


class Cancelled(Exception):
    """The person cancelled the work."""


def run(parent: QWidget | None, label: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in a worker thread, the window kept alive
    meanwhile; its result, or its exception raised here.  Raises
    :class:`Cancelled` when the person cancels (the result is dropped)."""
    flag = threading.Event()
    if "cancelled" in inspect.signature(fn).parameters:
        kwargs["cancelled"] = flag.is_set
    future = submit(fn, *args, **kwargs)
    if future.done():
        return future.result()
    loop = QEventLoop()
    dialog = QProgressDialog(label, "Cancel", 0, 0, parent)
    dialog.setWindowTitle("Working")
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    dialog.canceled.connect(loop.quit)
    # a busy dialog (no steps) never reaches setValue's own timing: show it
    # by a timer, only if the work is still running then
    dialog.setMinimumDuration(1 << 30)
    QTimer.singleShot(SHOW_AFTER_MS, lambda: None if future.done() else dialog.show())
    poll = QTimer()
    poll.setInterval(20)
    poll.timeout.connect(lambda: loop.quit() if future.done() else None)
    poll.start()
    global last_dialog
    last_dialog = dialog
    try:
        loop.exec()
    finally:
        poll.stop()
        cancelled = dialog.wasCanceled() and not future.done()
        dialog.close()
        dialog.deleteLater()
    if cancelled:
        flag.set()
        raise Cancelled(label)
    return future.result()


def run_painting(parent: QWidget | None, label: str, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` on the GUI thread (it paints with Qt: see the
    module docstring), under a wait cursor and with ``label`` in the
    parent window's status bar while it runs; its result, or its exception
    raised here.  It cannot be cancelled."""
    from PySide6.QtGui import QGuiApplication

    bar = getattr(parent, "statusBar", None)
    if callable(bar):
        bar().showMessage(label)
        QGuiApplication.processEvents()  # the message shows before the work starts
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        return fn(*args, **kwargs)
    finally:
        QGuiApplication.restoreOverrideCursor()
        if callable(bar):
            bar().clearMessage()


last_dialog: QProgressDialog | None = None
"""The dialog of the latest :func:`run` (tests read it)."""


__all__ = ["MAX_WORKERS", "SHOW_AFTER_MS", "WORKERS", "Cancelled", "busy", "run", "run_painting", "submit"]
