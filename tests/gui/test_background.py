"""Long work off the GUI thread with a progress dialog (issue 18, "Progress";
``app/gui/background.py``): quick work shows nothing, long work shows the
dialog after half a second and can be cancelled (the result dropped, the
work told to stop), an error reaches the caller, and File > Open goes
through it and still opens."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from app.gui import background

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def test_quick_work_returns_without_a_dialog(qapp: Any) -> None:
    assert background.run(None, "adding", lambda a, b: a + b, 2, 3) == 5
    assert background.last_dialog is None or not background.last_dialog.isVisible()


def test_long_work_shows_the_dialog_and_can_be_cancelled(qapp: Any, qtbot: Any) -> None:
    stopped = threading.Event()
    seen: list[bool] = []

    def slow(cancelled: Any) -> str:
        while not cancelled():
            time.sleep(0.01)
        stopped.set()
        return "done"

    def cancel_later() -> None:
        dlg = background.last_dialog
        seen.append(dlg is not None and dlg.isVisible())
        assert dlg is not None
        from PySide6.QtWidgets import QPushButton

        button = dlg.findChild(QPushButton)
        assert button is not None and button.text() == "Cancel"
        button.click()

    QTimer.singleShot(1200, cancel_later)
    with pytest.raises(background.Cancelled):
        background.run(None, "Waiting for ever…", slow)
    assert seen == [True]  # shown after half a second, before the cancel
    assert stopped.wait(2), "the work was not told to stop"


def test_an_error_in_the_work_reaches_the_caller(qapp: Any) -> None:
    def fail() -> None:
        time.sleep(0.05)
        raise ValueError("no such territory")

    with pytest.raises(ValueError, match="no such territory"):
        background.run(None, "failing", fail)


def test_file_open_goes_through_the_worker(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_editor_tools import blank, open_window

    calls: list[str] = []
    real = background.run

    def spy(parent: Any, label: str, fn: Any, *a: Any, **k: Any) -> Any:
        calls.append(label)
        return real(parent, label, fn, *a, **k)

    monkeypatch.setattr(background, "run", spy)
    w = open_window(qtbot, tmp_path, blank("square"))
    assert w.open_file(str(ROOT / "maps" / "acw_short_campaign.json"), ask=False)
    assert calls == ["Opening acw_short_campaign.json…"]
    assert w.document.scenario.name and w.document.path.endswith("acw_short_campaign.json")
    monkeypatch.setattr(background, "run", lambda *a, **k: (_ for _ in ()).throw(background.Cancelled("x")))
    before = w.document.text()
    assert not w.open_file(str(ROOT / "maps" / "gitm_allied.json"), ask=False)
    assert w.document.text() == before and "cancelled" in w.statusBar().currentMessage()


def test_no_cycle_collection_while_work_runs_in_a_worker(qapp: Any) -> None:
    """The collector is off while a worker runs Python (it could destroy the
    GUI thread's Qt objects from there: app/gui/gc_guard.py) and back on
    after, even when the work fails."""
    import gc

    from app.gui import gc_guard

    assert gc.isenabled() and gc_guard.held() == 0

    def work() -> bool:
        time.sleep(0.05)
        return gc.isenabled()

    assert background.run(None, "working", work) is False
    deadline = time.monotonic() + 5
    while background.busy() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gc.isenabled() and gc_guard.held() == 0

    def fail() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError):
        background.run(None, "failing", fail)
    while background.busy() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gc.isenabled() and gc_guard.held() == 0


def test_a_collector_left_off_by_the_caller_stays_off(qapp: Any) -> None:
    import gc

    gc.disable()
    try:
        assert background.run(None, "adding", lambda: 1) == 1
        while background.busy():
            time.sleep(0.01)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_runs_only_on_the_gui_thread_after_work_that_built_much(qapp: Any) -> None:
    """A job that returns many new objects leaves the collector's count far
    over its threshold; given back while the worker still ran Python, the
    next collection ran there (49 of 50 jobs, measured), destroying the GUI
    thread's garbage, Qt objects included, in the worker."""
    import gc

    threads: list[str] = []

    def note(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            threads.append(threading.current_thread().name)

    def build() -> list[list[int]]:
        return [[i] for i in range(5000)]

    kept = []  # what the jobs built stays alive, as a loaded map does
    gc.callbacks.append(note)
    try:
        for _ in range(20):
            kept.append(background.run(None, "building", build))
            while background.busy():
                time.sleep(0.002)
            kept.append([[i] for i in range(10)])  # the GUI thread allocates next
    finally:
        gc.callbacks.remove(note)
    assert threads, "no collection at all: the test saw nothing"
    assert set(threads) == {threading.main_thread().name}, threads
    assert background.busy() == 0 and gc.isenabled()


def test_at_most_max_workers_jobs_run_at_once_and_the_rest_wait(qapp: Any, qtbot: Any) -> None:
    go = threading.Event()
    started: list[int] = []

    def job(n: int) -> int:
        started.append(n)
        go.wait(10)
        return n * n

    futures = [background.submit(job, n) for n in range(5)]
    qtbot.waitUntil(lambda: len(started) == background.MAX_WORKERS, timeout=5000)
    time.sleep(0.1)
    assert len(started) == background.MAX_WORKERS and background.busy() == 5
    go.set()
    qtbot.waitUntil(lambda: background.busy() == 0, timeout=10000)
    assert [f.result() for f in futures] == [n * n for n in range(5)] and sorted(started) == list(range(5))


def test_jobs_are_submitted_on_the_gui_thread_only(qapp: Any) -> None:
    errors: list[BaseException] = []

    def elsewhere() -> None:
        try:
            background.submit(lambda: 1)
        except RuntimeError as exc:
            errors.append(exc)

    t = threading.Thread(target=elsewhere)
    t.start()
    t.join()
    assert len(errors) == 1 and "GUI thread" in str(errors[0])
