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

A temporary status message (a verdict) comes before the permanent fields:
:func:`make_room` narrows them, or hides the text of those that no longer
fit, so the message is never cut while they could yield.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

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
        self._room: int | None = None
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

    def least_width(self) -> int:
        """The narrowest it is while it shows any text."""
        return self._least()

    def _cap(self) -> int:
        win = self.window()
        cap = max(self._least(), win.width() - RESERVE) if win is not self else 1 << 20
        if self._room is not None:
            cap = min(cap, self._room) if self._room >= self._least() else 0
        return cap

    def set_room(self, room: int | None) -> None:
        """Be at most ``room`` pixels wide (``None``: as wide as its text
        needs, up to the usual cap); with less room than its least width
        it shows nothing (its text stays in its tooltip)."""
        if room == self._room:
            return
        self._room = room
        if room is None or self.width() > self._cap():
            self._fit()  # while a message shows the field only narrows: a relayout per new message is spared

    def full_text(self) -> str:
        """The whole text (:meth:`text` may be cut to fit)."""
        return self._full

    def setText(self, text: str) -> None:
        self._full = text
        need = self.fontMetrics().horizontalAdvance(text) + self._chrome()
        width = self.width()
        if need > width and self._room is None and self._cap() > width:  # (a message showing: no growing)
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
        cap = self._cap()
        width = cap if cap < self._least() else max(self._least(), min(need, cap))
        if width != self.width():
            self.setFixedWidth(width)
            self._show(width)

    def natural_width(self) -> int:
        """The width its text takes with no message to yield to."""
        need = self.fontMetrics().horizontalAdvance(self._full) + self._chrome()
        win = self.window()
        cap = max(self._least(), win.width() - RESERVE) if win is not self else need
        return max(self._least(), min(need, cap))


GAP = 12
"""Pixels between a status message and the first permanent field."""


def make_room(bar: QStatusBar, fields: list[QWidget], message: str | None = None) -> None:
    """Let the status bar's temporary message be read whole: the permanent
    ``fields`` (in the order they yield: the first gives up its room
    first) are narrowed or emptied until the message fits, and get their
    room back when it is gone.  A :class:`StatusField` is narrowed (its
    text cut, whole in its tooltip) down to its least width, then emptied;
    another widget keeps its width or is emptied (maximum width 0).
    ``message`` is the message to make room for (default: the bar's; ""
    gives every field its room back)."""
    if message is None:
        message = bar.currentMessage()
    live = [f for f in fields if not f.isHidden()]
    if not message:
        for f in live:
            _give(f, None)
        return
    layout = bar.layout()
    spacing = (max(0, layout.spacing()) if layout is not None else 0) + 6
    grip = 16 if bar.isSizeGripEnabled() else 0
    room = bar.width() - 6 - GAP - bar.fontMetrics().horizontalAdvance(message) - grip - spacing * len(live)
    wants = {id(f): (f.natural_width() if isinstance(f, StatusField) else f.sizeHint().width()) for f in live}
    for f in reversed(live):  # the last to yield is served first
        want = wants[id(f)]
        if isinstance(f, StatusField):  # at most the room left: narrowed (never widened) while a message shows
            _give(f, room if room >= f.least_width() else 0)
            room -= f.width()
        elif want <= room:
            _give(f, None)
            room -= want
        else:
            _give(f, 0)


def _give(f: QWidget, room: int | None) -> None:
    if isinstance(f, StatusField):
        f.set_room(room)
    else:
        f.setMaximumWidth(16777215 if room is None else room)


__all__ = ["RESERVE", "SHRINK_AFTER_MS", "StatusField", "make_room"]
