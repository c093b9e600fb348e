"""The verdict panel: the whole verdict of the current rules preview, wrapped
and copyable.

The status bar has room for a short form only (:meth:`Overlay.short`); the
tooltip of the target says the verdict once.  This panel shows the rest:
the short form uncut as a headline (green: allowed, red: refused; it wraps,
so it is never ended with "…"), the verdict as the preview words it
(``Overlay.message``, the sentence a game master reads aloud; not said
twice when it is the headline), and the reasons under it (``Overlay.reasons``: the path, ties,
refused squares).  The text can be selected, and "Copy" puts it all on the
clipboard as plain text.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from ..overlay import Overlay

HEADLINE_COLORS = {True: "#1f7a34", False: "#c0201a", None: "#1b1b1b"}
EMPTY_TEXT = "Adjudicate: click a unit, then point at a target; the verdict appears here in full."


def headline(overlay: Overlay) -> str:
    """The verdict's short form uncut (the panel wraps it)."""
    return overlay.short(limit=len(overlay.summary or overlay.message))


class VerdictPanel(QWidget):
    """Shows one :class:`Overlay`'s verdict (``None``: the hint)."""

    def __init__(self, parent: QWidget | None = None, hint: str = EMPTY_TEXT) -> None:
        super().__init__(parent)
        self.setObjectName("verdictPanel")
        self.hint = hint
        self.overlay: Overlay | None = None
        self._said: tuple[object, ...] | None = None
        """What the view shows: headline colour, short form, verdict, reasons."""
        self._said_once = False
        self.view = QTextBrowser()
        self.view.setObjectName("verdictText")
        self.view.setOpenLinks(False)
        self.view.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        self.view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.view.setMinimumHeight(60)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the whole verdict as text")
        self.copy_button.clicked.connect(self.copy)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addStretch(1)
        bar.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.view, 1)
        layout.addLayout(bar)
        self.show_overlay(None)

    def show_overlay(self, overlay: Overlay | None) -> None:
        """Show ``overlay``'s verdict; ``None`` or one without words shows
        the hint."""
        if overlay is not None and not overlay.message:
            overlay = None
        if overlay is self.overlay and overlay is not None:
            return
        self.overlay = overlay
        self.copy_button.setEnabled(overlay is not None)
        said = None if overlay is None else (overlay.ok, headline(overlay), overlay.message, overlay.reasons)
        if said == self._said and self._said_once:
            return  # the same verdict again (another overlay, the same words): the text is not parsed again
        self._said, self._said_once = said, True
        if overlay is None:
            self.view.setHtml(f"<p style='color:#5a5a5a'>{html.escape(self.hint)}</p>")
            return
        color = HEADLINE_COLORS.get(overlay.ok, HEADLINE_COLORS[None])
        head = headline(overlay)
        parts = [f"<p style='color:{color}'><b>{html.escape(head)}</b></p>"]
        if overlay.message != head:
            parts.append(f"<p>{html.escape(overlay.message)}</p>")
        if overlay.reasons:
            parts.append("<ul style='margin-left:-20px'>"
                         + "".join(f"<li>{html.escape(r)}</li>" for r in overlay.reasons) + "</ul>")
        self.view.setHtml("".join(parts))

    def text(self) -> str:
        """The verdict as plain text: short form, verdict, reasons (one a
        line); empty when there is none."""
        ov = self.overlay
        if ov is None:
            return ""
        lines = [headline(ov)]
        if ov.message != lines[0]:
            lines.append(ov.message)
        lines.extend(f"- {r}" for r in ov.reasons)
        return "\n".join(lines)

    def copy(self) -> None:
        """Put :meth:`text` on the clipboard."""
        QGuiApplication.clipboard().setText(self.text())
