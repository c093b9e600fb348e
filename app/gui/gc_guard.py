"""Python's cycle collector kept off worker threads.

The collector runs in whichever thread happens to allocate when a
generation fills up.  Run in a worker (File > Open's loader, the Module I
routing), it may finalise garbage of the GUI thread's — a closed window, a
dropped timer — and so destroy Qt objects from a thread that must never
touch them: at best a warning, at worst a hang inside Qt where no Python
timeout can reach.  Measured here: over the GUI tests, 33 collections ran in
``adjutant-work`` threads and 5 in Qt's pool threads.

:func:`hold` before handing Python work to another thread, :func:`release`
(from any thread) when it ends: automatic collection is off while any such
work runs, and back as it was when the last one ends, so collections only
happen while the GUI thread is the only one running Python.
"""

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
            gc.disable()
        _held += 1


def release() -> None:
    """One piece of work :func:`hold` was called for has ended (any thread)."""
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
