"""Qt's painting thread pool is off in Adjutant (``app.gui.paint_serially``,
issue 19): the variable is set on import, an explicit setting is kept, the
opt-in lets the pool run, and with this Qt the variable really keeps a big
antialiased stroke on the painting thread (a new Qt could rename it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FILL = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
import app.gui
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPen, QPolygonF
a = QGuiApplication([])
before = len(os.listdir("/proc/self/task"))
img = QImage(2000, 2000, QImage.Format.Format_ARGB32_Premultiplied)
img.fill(Qt.GlobalColor.white)
p = QPainter(img)
p.setRenderHint(QPainter.RenderHint.Antialiasing)
p.setPen(QPen(QColor(200, 0, 0, 170), 4.5, Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
p.drawPolyline(QPolygonF([QPointF(10, 10), QPointF(1500, 1900), QPointF(20, 1990)]))  # a march line, long
p.end()
print(os.environ.get("QT_NO_GUI_THREADPOOL"), len(os.listdir("/proc/self/task")) - before)
"""


def run(env_extra: dict[str, str]) -> tuple[str, int]:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_NO_GUI_THREADPOOL", "ADJUTANT_QT_THREADPOOL")}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", FILL], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    return out[0], int(out[1])


def test_the_pool_is_off_once_the_editor_is_imported() -> None:
    import app.gui  # noqa: F401

    assert os.environ.get("QT_NO_GUI_THREADPOOL") == "1"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
                    reason="counts threads in /proc; Qt starts no pool on one core")
def test_the_variable_keeps_fills_on_the_painting_thread() -> None:
    value, new_threads = run({})
    assert value == "1" and new_threads == 0
    value, new_threads = run({"ADJUTANT_QT_THREADPOOL": "1"})
    assert value == "None" and new_threads > 0, "the opt-in should let Qt's pool run (or Qt no longer threads fills)"


def test_an_explicit_setting_is_kept() -> None:
    value, _ = run({"QT_NO_GUI_THREADPOOL": "yes"})
    assert value == "yes"
