"""A status bar field whose text follows the mouse without laying out the
window again.

A ``QLabel`` asks its parent for a new layout on every ``setText``; in a
status bar that relays out the whole main window (its docks, their tab bars,
one geometry animation per dock) on every mouse move over the map: a fifth
of a hover's cost on a big map (issue 19).  A widget of fixed size does not
ask (``QWidget.updateGeometry`` stops at a widget whose minimum and maximum
sizes are equal), so this field keeps a fixed size: it grows when a longer
text needs it, up to a share of the window's width, and does not shrink
back (a field that jumps with every cell is also hard to read).  A text
wider than that is cut with an ellipsis; the whole text is the field's
tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

MAX_SHARE = 0.45
"""At most this share of the window's width (the rest is the status bar's
messages and the zoom)."""

MIN_CHARS = 12
"""The field starts this many average characters wide."""


class StatusField(QLabel):
    """A fixed-size status label, grown to fit longer texts (see the module)."""

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 margins: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
        super().__init__("", parent)
        self._full = ""
        self.setContentsMargins(*margins)
        fm = self.fontMetrics()
        self.setFixedHeight(max(super().sizeHint().height(), fm.height()))
        self.setFixedWidth(self._chrome() + fm.averageCharWidth() * MIN_CHARS)
        self.setText(text)

    def _chrome(self) -> int:
        m = self.contentsMargins()
        return m.left() + m.right() + 2 * self.margin() + 2

    def full_text(self) -> str:
        """The whole text (:meth:`text` may be cut to fit)."""
        return self._full

    def setText(self, text: str) -> None:
        self._full = text
        fm = self.fontMetrics()
        need = fm.horizontalAdvance(text) + self._chrome()
        width = self.width()
        if need > width:
            win = self.window()
            cap = max(width, int(win.width() * MAX_SHARE)) if win is not self else need
            if cap > width:
                width = min(need, cap)
                self.setFixedWidth(width)
        shown = text
        if need > width:
            shown = fm.elidedText(text, Qt.TextElideMode.ElideRight, width - self._chrome())
        tip = text if shown != text else ""
        if tip != self.toolTip():
            self.setToolTip(tip)
        if shown != super().text():
            super().setText(shown)


__all__ = ["MAX_SHARE", "StatusField"]
