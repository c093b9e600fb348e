"""Python's cycle collector, run on the GUI thread only.

Automatic collection runs in whichever thread allocates when a generation
fills up.  Run in a worker thread, it may finalise the GUI thread's garbage
(a closed window, a dropped timer) and so destroy Qt objects from a thread
that must never touch them: at best a warning, at worst a hang inside Qt
where no Python timeout can reach.

So the editor turns automatic collection off once (:func:`install`, when the
application starts or the first background job is submitted) and collects
from a timer on the GUI thread, generation by generation as the automatic
collector would when a generation's count passes its threshold: the pattern
of pyqtgraph's ``pyqtgraph.util.garbage_collector.GarbageCollector``.
While it is installed no thread collects automatically, whoever started it
(:mod:`app.gui.background`'s workers, a library's own threads), and
cancelling or abandoning work changes nothing about the collector.
"""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QCoreApplication, QTimer

INTERVAL_MS = 250
"""How often the GUI thread looks at the collector's counts."""


class Collector:
    """Automatic collection off; :meth:`collect` from a timer on the GUI thread."""

    def __init__(self, app: QCoreApplication) -> None:
        self.thresholds = gc.get_threshold()
        self.was_enabled = gc.isenabled()
        gc.disable()
        self.timer = QTimer(app)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self.collect)
        self.timer.start()

    def collect(self) -> int:
        """Collect the generations whose counts passed their thresholds
        (youngest first, as the automatic collector does); the oldest
        generation collected, -1 for none.  On the GUI thread only."""
        _check_gui_thread()
        if gc.isenabled():  # something turned automatic collection back on: off again
            gc.disable()
        l0, l1, l2 = gc.get_count()
        t0, t1, t2 = self.thresholds
        done = -1
        if t0 and l0 > t0:
            gc.collect(0)
            done = 0
            if t1 and l1 > t1:
                gc.collect(1)
                done = 1
                if t2 and l2 > t2:
                    gc.collect(2)
                    done = 2
        return done

    def stop(self) -> None:
        """Stop the timer and give automatic collection back as it was found."""
        self.timer.stop()
        self.timer.deleteLater()
        if self.was_enabled:
            gc.enable()


_installed: Collector | None = None


def _check_gui_thread() -> None:
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("the cycle collector is installed and run on the GUI thread only")


def install() -> Collector:
    """Turn automatic collection off and collect from the GUI thread's timer
    (once; later calls return the installed collector).  Needs the
    application object; call on the GUI thread."""
    global _installed
    _check_gui_thread()
    if _installed is None:
        app = QCoreApplication.instance()
        if app is None:
            raise RuntimeError("the cycle collector needs the application: create it first")
        _installed = Collector(app)
    return _installed


def installed() -> Collector | None:
    """The installed collector, or ``None``."""
    return _installed


def uninstall() -> None:
    """Give automatic collection back (tests that end the editor's life; a
    running worker thread would then collect in its own thread, so call it
    only when none runs)."""
    global _installed
    _check_gui_thread()
    if _installed is not None:
        _installed.stop()
        _installed = None


__all__ = ["INTERVAL_MS", "Collector", "install", "installed", "uninstall"]
