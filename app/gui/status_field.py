"""A status bar field whose text follows the mouse without laying out the
window again.

A ``QLabel`` asks its parent for a new layout on every ``setText``; in a
status bar that relays out the whole main window (its docks, their tab bars,
one geometry animation per dock) on every mouse move over the map: a fifth
of a hover's cost on a big map.  A widget of fixed size does not
ask (``QWidget.updateGeometry`` stops at a widget whose minimum and maximum
sizes are equal), so this field keeps a fixed size.  It grows at once when a
longer text needs it, up to the window's width less :data:`RESERVE` (room
for the status bar's messages and the zoom), beyond which the text is cut
with an ellipsis and shown whole in its tooltip.  It shrinks back to its
text only once the texts rest for :data:`SHRINK_AFTER_MS` (a field that
jumps with every cell is also hard to read).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

RESERVE = 320
"""Pixels of the window's width the field leaves to the rest of the status
bar (messages, the zoom)."""

MIN_CHARS = 12
"""The field is at least this many average characters wide."""

SHRINK_AFTER_MS = 1500
"""A field wider than its text shrinks to it after the text has rested
this long."""


class StatusField(QLabel):
    """A fixed-size status label, grown to fit longer texts (see the module)."""

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 margins: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
        super().__init__("", parent)
        self._full = ""
        self.setContentsMargins(*margins)
        fm = self.fontMetrics()
        self.setFixedHeight(max(super().sizeHint().height(), fm.height()))
        self.setFixedWidth(self._least())
        self._shrink = QTimer(self)
        self._shrink.setSingleShot(True)
        self._shrink.setInterval(SHRINK_AFTER_MS)
        self._shrink.timeout.connect(self._fit)
        self.setText(text)

    def _chrome(self) -> int:
        m = self.contentsMargins()
        return m.left() + m.right() + 2 * self.margin() + 2

    def _least(self) -> int:
        return self._chrome() + self.fontMetrics().averageCharWidth() * MIN_CHARS

    def _cap(self) -> int:
        win = self.window()
        return max(self._least(), win.width() - RESERVE) if win is not self else 1 << 20

    def full_text(self) -> str:
        """The whole text (:meth:`text` may be cut to fit)."""
        return self._full

    def setText(self, text: str) -> None:
        self._full = text
        need = self.fontMetrics().horizontalAdvance(text) + self._chrome()
        width = self.width()
        if need > width and self._cap() > width:
            width = min(need, self._cap())
            self.setFixedWidth(width)
        if need < width and width > self._least():
            self._shrink.start()  # once the texts rest
        self._show(width)

    def _show(self, width: int) -> None:
        text = self._full
        shown = text
        if self.fontMetrics().horizontalAdvance(text) + self._chrome() > width:
            shown = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, width - self._chrome())
        tip = text if shown != text else ""
        if tip != self.toolTip():
            self.setToolTip(tip)
        if shown != super().text():
            super().setText(shown)

    def _fit(self) -> None:
        need = self.fontMetrics().horizontalAdvance(self._full) + self._chrome()
        width = max(self._least(), min(need, self._cap()))
        if width != self.width():
            self.setFixedWidth(width)
            self._show(width)


__all__ = ["RESERVE", "SHRINK_AFTER_MS", "StatusField"]
