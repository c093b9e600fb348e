"""Python's cycle collector kept off worker threads.

The collector runs in whichever thread happens to allocate when a
generation fills up.  Run in a worker (File > Open's loader, the Module I
routing), it may finalise garbage of the GUI thread's — a closed window, a
dropped timer — and so destroy Qt objects from a thread that must never
touch them: at best a warning, at worst a hang inside Qt where no Python
timeout can reach.  Measured here: over the GUI tests, 33 collections ran in
``adjutant-work`` threads and 5 in Qt's pool threads.

:func:`hold` before handing Python work to another thread, :func:`release`
on the GUI thread once that thread has *ended* (:mod:`app.gui.background`
reaps its workers so): automatic collection is off while any such work
runs, and back as it was when the last one ends, so collections only
happen while the GUI thread is the only one running Python.  Giving it
back from the worker itself, or as soon as the result is set, is not
enough: the collector's allocation count is far over its threshold after a
job that built something (a loaded map), so the very next allocation
collects, and the next one is the worker's own, on its way out."""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_held = 0
_was_enabled = True


def hold() -> None:
    """One more piece of Python work is about to run in another thread."""
    global _held, _was_enabled
    with _lock:
        if _held == 0:
            _was_enabled = gc.isenabled()
        gc.disable()  # again each time: nothing may have turned it back on meanwhile
        _held += 1


def release() -> None:
    """One piece of work :func:`hold` was called for has ended and its
    thread runs no more Python (call on the GUI thread)."""
    global _held
    with _lock:
        if _held <= 0:
            raise RuntimeError("gc_guard.release() without hold()")
        _held -= 1
        if _held == 0 and _was_enabled:
            gc.enable()


def held() -> int:
    """How many pieces of work hold the collector off (tests read it)."""
    return _held


__all__ = ["held", "hold", "release"]
