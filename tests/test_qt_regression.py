"""PySide6 6.12.0 on CPython 3.11 drops a reference to None on every
void-returning wrapped call and aborts after a few thousand paint calls
("Fatal Python error: none_dealloc").  pyproject.toml keeps 3.11 below 6.12;
this test paints far more than enough to hit the bug, in a child process so
that an abort fails the test instead of killing the run."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import os
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QImage, QPainter, QPolygonF
app = QGuiApplication([])
img = QImage(64, 64, QImage.Format.Format_ARGB32)
p = QPainter(img)
poly = QPolygonF([QPointF(0, 0), QPointF(10, 0), QPointF(5, 8)])
for i in range(30000):
    p.setBrush(QBrush(QColor(i % 256, 0, 0)))
    p.fillRect(0, 0, 8, 8, QColor(0, i % 256, 0))
    p.drawConvexPolygon(poly)
    p.setPen(Qt.PenStyle.NoPen)
p.end()
print("painted", 4 * 30000)
"""


def test_many_void_paint_calls_do_not_abort() -> None:
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-500:]}"
    assert "painted 120000" in r.stdout


def test_installed_pyside_is_not_the_crashing_combination() -> None:
    from importlib.metadata import version

    v = version("PySide6-Essentials") if _has("PySide6-Essentials") else version("PySide6")
    assert not (sys.version_info[:2] == (3, 11) and v.startswith("6.12.0")), (
        f"PySide6 {v} on Python 3.11 aborts after a few thousand paint calls; install <6.12")


def _has(dist: str) -> bool:
    from importlib.metadata import PackageNotFoundError, version

    try:
        version(dist)
    except PackageNotFoundError:
        return False
    return True
