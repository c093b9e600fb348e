"""The test harness's guard against a modal dialog nobody answers
(``tests/modal_watchdog.py``): the dialog is closed and named, so the test
fails instead of the CI run waiting for ever."""

from __future__ import annotations

import time
from typing import Any

import pytest
from modal_watchdog import ModalWatchdog
from PySide6.QtWidgets import QMessageBox

pytestmark = pytest.mark.gui


def test_an_unanswered_message_box_is_closed_and_named(qapp: Any) -> None:
    dog = ModalWatchdog(0.3, interval_ms=50)
    box = QMessageBox(QMessageBox.Icon.Warning, "Map open in another Adjutant", "europe.json is open elsewhere.")
    t0 = time.monotonic()
    try:
        box.exec()  # would wait for ever without the watchdog
    finally:
        dog.stop()
    assert time.monotonic() - t0 < 10
    assert len(dog.closed) == 1
    assert "Map open in another Adjutant" in dog.closed[0] and "europe.json is open elsewhere." in dog.closed[0]


def test_a_dialog_answered_in_time_is_left_alone(qapp: Any) -> None:
    from PySide6.QtCore import QTimer

    dog = ModalWatchdog(5, interval_ms=50)
    box = QMessageBox(QMessageBox.Icon.Question, "Save?", "Save changes?")
    QTimer.singleShot(200, box.accept)
    try:
        box.exec()
    finally:
        dog.stop()
    assert dog.closed == []
