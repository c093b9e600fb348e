"""The Qt editor.  Imports PySide6; nothing in :mod:`engine` imports this.

:func:`run` is what ``adjutant`` and ``adjutant FILE`` call."""

from __future__ import annotations

import os

QT_POOL_OPT_IN = "ADJUTANT_QT_THREADPOOL"
"""Set to ``1`` to let Qt's painting thread pool run (see :func:`paint_serially`)."""


def paint_serially() -> None:
    """Keep Qt's raster painting on the painting thread (sets
    ``QT_NO_GUI_THREADPOOL``, read by Qt when it first needs the pool).

    Qt 6 hands every antialiased fill of 96 spans or more, and big image
    scalings and conversions, to a pool of threads and waits for them.  For
    what Adjutant paints (a march line, a reach area, a few tiles) the
    hand-off costs more than the fill (``python -m bench.hover`` with and
    without ``ADJUTANT_QT_THREADPOOL=1``; the figures are in
    ``docs/performance.md``).  An explicit ``QT_NO_GUI_THREADPOOL`` in the environment is left as it
    is; ``ADJUTANT_QT_THREADPOOL=1`` lets the pool run."""
    if os.environ.get(QT_POOL_OPT_IN) != "1":
        os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")


paint_serially()  # on import: before anything of the editor or a drawing command paints


def run(path: str) -> int:
    """Open the editor on ``path`` and run until the window closes; the exit
    status.  A file that cannot be loaded opens a blank map with an error
    dialog listing the loader's problems (never a traceback).  Work left
    unsaved by a crash is offered for recovery first."""
    from PySide6.QtCore import QTimer

    from engine.editing import new_scenario
    from engine.io import ScenarioError, load_any

    from .autosave import map_kind
    from .main_window import ensure_app
    from .windows import window_class

    app = ensure_app()
    problems: list[str] = []
    try:
        scenario = load_any(path)
        file: str | None = path
    except ScenarioError as e:
        problems = [str(p) for p in e.problems]
        scenario = new_scenario("Untitled", {"kind": "hex", "width": 30, "height": 20, "orientation": "flat",
                                             "parity": "odd"}, {"scheme": "ccrr"})
        file = None
    window = window_class(map_kind(scenario))(scenario, file)  # the shell with the editor of the map's kind
    window.show()
    if problems:
        n = len(problems)
        window.show_error("Cannot open", f"{path} cannot be opened ({n} problem{'s' if n != 1 else ''}):", problems)
    else:
        window.add_recent(path)
    QTimer.singleShot(0, window.canvas.fit)
    QTimer.singleShot(0, window.check_recovery)
    return int(app.exec())
