"""The verdict panel parses its text again only when the verdict's words
change: a hover that makes a new overlay saying the same thing leaves the
text as it was."""

from __future__ import annotations

import pytest

from app.gui.docks.verdict import VerdictPanel
from app.gui.overlay import Overlay

pytestmark = pytest.mark.gui


def test_the_text_changes_only_with_the_words(qtbot) -> None:
    panel = VerdictPanel()
    qtbot.addWidget(panel)
    doc = panel.view.document()
    panel.show_overlay(Overlay(message="FR1IN marches 3 squares.", ok=True, reasons=("path: a b c",)))
    text, rev = panel.view.toPlainText(), doc.revision()
    assert "FR1IN marches 3 squares." in text and "path: a b c" in text
    panel.show_overlay(Overlay(message="FR1IN marches 3 squares.", ok=True, reasons=("path: a b c",)))
    assert doc.revision() == rev and panel.view.toPlainText() == text
    panel.show_overlay(Overlay(message="FR1IN marches 3 squares.", ok=False, reasons=("path: a b c",)))
    assert doc.revision() != rev  # the headline's colour follows the verdict
    panel.show_overlay(Overlay(message="FR1IN marches 4 squares.", ok=True))
    assert "4 squares" in panel.view.toPlainText() and "path: a b c" not in panel.view.toPlainText()
    panel.show_overlay(None)
    assert panel.text() == "" and "Adjudicate" in panel.view.toPlainText()
