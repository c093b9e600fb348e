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

import inspect
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

from . import gc_guard

T = TypeVar("T")

SHOW_AFTER_MS = 500
"""The dialog appears only for work lasting longer than this."""

POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="adjutant-work")
"""The worker threads of all long work (never Qt work)."""


def submit(fn: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
    """``fn(*args, **kwargs)`` in :data:`POOL` (it must make no Qt call),
    with Python's cycle collection held off until it ends
    (:mod:`app.gui.gc_guard`)."""
    gc_guard.hold()
    try:
        future: Future[T] = POOL.submit(fn, *args, **kwargs)
    except BaseException:
        gc_guard.release()
        raise
    future.add_done_callback(lambda _f: gc_guard.release())
    return future


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


__all__ = ["POOL", "SHOW_AFTER_MS", "Cancelled", "run", "run_painting", "submit"]
