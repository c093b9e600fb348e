"""Measuring an editor window as a person sees it, for the layout tests: the
map's share of the window, the docks that show, dock and tab titles cut
short, widgets below a fold."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QStyle, QTabBar, QWidget

SIZES = [(1366, 768), (1280, 820)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
VERTICAL_TABS = (QTabBar.Shape.RoundedEast, QTabBar.Shape.RoundedWest,
                 QTabBar.Shape.TriangularEast, QTabBar.Shape.TriangularWest)


def pump() -> None:
    for _ in range(4):
        QApplication.processEvents()


def map_share(w: QMainWindow) -> float:
    """The map view's share of the window's area."""
    return w.canvas.width() * w.canvas.height() / (w.width() * w.height())


def showing(w: QMainWindow) -> list[QDockWidget]:
    """The docks a person sees: shown and, when tabbed, in front."""
    return [d for d in w.findChildren(QDockWidget) if d.isVisible() and not d.visibleRegion().isEmpty()]


def tab_bars(w: QMainWindow, docks_only: bool = True) -> list[QTabBar]:
    """The tab bars that show two tabs or more (``docks_only``: the window's
    own, the tabs of its tabbed docks)."""
    return [b for b in w.findChildren(QTabBar) if b.isVisible() and b.count() > 1
            and (not docks_only or isinstance(b.parent(), QMainWindow))]


def cut_tabs(bars: list[QTabBar]) -> list[str]:
    """Each tab of ``bars`` drawn shorter than its text and the style's
    margins (so drawn elided, "Inspec…") or outside its bar, with its room."""
    cut = []
    for bar in bars:
        vertical = bar.shape() in VERTICAL_TABS
        pad = bar.style().pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace, None, bar)
        for i in range(bar.count()):
            rect = bar.tabRect(i)
            room = rect.height() if vertical else rect.width()
            need = bar.fontMetrics().horizontalAdvance(bar.tabText(i)) + pad
            if room < need or not bar.rect().contains(rect):
                cut.append(f"tab {bar.tabText(i)!r}: {room} px for {need}")
    return cut


def cut_titles(w: QMainWindow) -> list[str]:
    """Every dock title and dock tab title that shows cut short, with its room."""
    cut = []
    for d in showing(w):
        need = d.fontMetrics().horizontalAdvance(d.windowTitle()) + 2 * 24  # the float and close buttons
        if d.width() < need:
            cut.append(f"title {d.windowTitle()!r}: {d.width()} px for {need}")
    return cut + cut_tabs(tab_bars(w))


def in_view(widget: QWidget, w: QMainWindow) -> bool:
    """Whether all of ``widget`` shows: inside each of its parents (no
    scroll area's viewport or dock cuts it) and the window."""
    if not widget.isVisible():
        return False
    rect = QRect(widget.mapTo(w, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not w:
        if not QRect(parent.mapTo(w, QPoint(0, 0)), parent.size()).contains(rect):
            return False
        parent = parent.parentWidget()
    return w.rect().contains(rect)


def check(w: QMainWindow, what: str, tmp_path: Path | None = None) -> None:
    """The window is still one of :data:`SIZES`, the map has at least 60 %
    of it, no title is cut; a screenshot ``layout-<what>.png`` in ``tmp_path``."""
    pump()
    if tmp_path is not None:
        w.grab().save(str(tmp_path / f"layout-{what}.png"))
    assert w.size().toTuple() in SIZES, f"{what}: the window grew to {w.size().toTuple()}"
    assert map_share(w) >= 0.60, f"{what}: the map has {map_share(w):.0%} of the window"
    assert not cut_titles(w), f"{what}: {cut_titles(w)}"
