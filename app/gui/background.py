"""Long work off the GUI thread, with a progress dialog that appears only
when the work lasts.

:func:`run` hands a function to a worker thread and keeps the window alive
(painting, answering) while it runs; after :data:`SHOW_AFTER_MS` a
:class:`QProgressDialog` says what is being done, with a Cancel button.
Cancelling returns at once and drops the result: the work only ever
*builds* something new (a loaded scenario, an imported map, an image in
memory), which the GUI thread installs afterwards, so a cancelled or failed
job leaves the document as it was.  Work that takes a ``cancelled``
callable (keyword) is told to stop and stops early; work that cannot stop
(a solver in C) runs to its end in its thread, harmlessly.

:func:`submit` is the same without the dialog: a :class:`Job` future,
collected by the caller on the GUI thread.  Used by File > Open (both
windows), File > Import TripleA Map…, an underlay's tiles, tracing and the
Module I plan's exact routing.

Python's cycle collector never runs in a worker: :mod:`app.gui.collector`
keeps automatic collection off and collects on the GUI thread.

**Work that paints with Qt never goes to a worker** (:func:`run_painting`):
File > Export Image… and File > Print / Export PDF… paint on the GUI
thread, under a wait cursor, because Qt painting in a Python worker can
deadlock against the GUI thread (``docs/reliability.md``).  Only work that
makes no Qt call runs in a worker: reading and parsing files, the engine,
libvips.
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

from . import collector

T = TypeVar("T")

SHOW_AFTER_MS = 500
"""The dialog appears only for work lasting longer than this."""

MAX_WORKERS = 2
"""At most this many jobs run at once; later ones wait their turn."""

REAP_MS = 20
"""How often the GUI thread looks for ended workers while any runs."""


class Job(Future[T]):
    """A submitted job's future.  :meth:`cancel` drops a job still waiting
    (it never starts) and asks a running one to stop: work that takes a
    ``cancelled`` keyword is given :meth:`stop_requested` and stops early
    when it says so; work that cannot stop runs to its end and its result
    is dropped by whoever cancelled it."""

    def __init__(self) -> None:
        super().__init__()
        self._stop = threading.Event()

    def cancel(self) -> bool:
        self._stop.set()
        return super().cancel()

    def stop_requested(self) -> bool:
        """Whether the job was cancelled (work polls this to stop early)."""
        return self._stop.is_set()


def _takes_cancelled(fn: Callable[..., Any]) -> bool:
    try:
        return "cancelled" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


class _Workers:
    """One thread per job, at most :data:`MAX_WORKERS` running, started and
    reaped on the GUI thread.  Python's cycle collector never runs in them:
    :mod:`app.gui.collector` (installed on the first submission) keeps
    automatic collection off and collects on the GUI thread."""

    def __init__(self) -> None:
        self.running: list[threading.Thread] = []
        self.waiting: collections.deque[tuple[threading.Thread, Job[Any]]] = collections.deque()
        self.timer: QTimer | None = None
        self.names = itertools.count(1)

    def submit(self, fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Job[T]:
        _check_gui_thread()
        collector.install()
        job: Job[T] = Job()
        if _takes_cancelled(fn) and "cancelled" not in kwargs:
            kwargs = {**kwargs, "cancelled": job.stop_requested}

        def work() -> None:
            if not job.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # handed to the caller through the future
                job.set_exception(exc)
            else:
                job.set_result(result)

        thread = threading.Thread(target=work, name=f"adjutant-work-{next(self.names)}", daemon=True)
        self.waiting.append((thread, job))
        self.reap()
        return job

    def reap(self) -> int:
        """Forget ended workers and start waiting ones (a job cancelled while
        it waited is dropped unstarted); how many are running or waiting."""
        _check_gui_thread()
        self.running = [t for t in self.running if t.is_alive()]
        while self.waiting and len(self.running) < MAX_WORKERS:
            thread, job = self.waiting.popleft()
            if job.cancelled():
                continue
            thread.start()
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


def submit(fn: Callable[..., T], *args: Any, **kwargs: Any) -> Job[T]:
    """``fn(*args, **kwargs)`` in a worker thread of its own (it must make
    no Qt call); a ``cancelled`` keyword parameter of ``fn`` is given the
    job's :meth:`Job.stop_requested`.  Call it on the GUI thread; the event
    loop (or :func:`busy`) reaps the worker."""
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
        future.cancel()
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


__all__ = ["MAX_WORKERS", "SHOW_AFTER_MS", "WORKERS", "Cancelled", "Job", "busy", "run", "run_painting", "submit"]
