"""Long work off the GUI thread with a progress dialog
(``app/gui/background.py``): quick work shows nothing, long work shows the
dialog after half a second and can be cancelled (the result dropped, the
work told to stop), an error reaches the caller, File > Open goes through
it and still opens, and Python's cycle collector runs on the GUI thread
only (``app/gui/collector.py``), whatever threads run and are cancelled."""

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


def test_quick_work_returns_without_a_dialog(qapp: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "last_dialog", None)  # not an earlier test's (maybe deleted) dialog
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


def _collections_by_thread() -> tuple[list[str], Any]:
    """A list that gets the name of the thread of every collection that
    starts, and the callback to remove from ``gc.callbacks`` after."""
    import gc

    threads: list[str] = []

    def note(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            threads.append(threading.current_thread().name)

    gc.callbacks.append(note)
    return threads, note


def test_automatic_collection_is_off_while_the_collector_is_installed(qapp: Any) -> None:
    """Submitting work installs the collector: automatic collection is off
    in every thread, during the work and after it; uninstalling gives it back."""
    import gc

    from app.gui import collector

    def work() -> bool:
        time.sleep(0.05)
        return gc.isenabled()

    assert background.run(None, "working", work) is False
    assert collector.installed() is not None and not gc.isenabled()
    with pytest.raises(ValueError):
        background.run(None, "failing", lambda: (_ for _ in ()).throw(ValueError("no")))
    assert not gc.isenabled()
    deadline = time.monotonic() + 5
    while background.busy() and time.monotonic() < deadline:
        time.sleep(0.01)
    collector.uninstall()
    assert gc.isenabled() and collector.installed() is None


def test_a_collector_left_off_by_the_caller_stays_off(qapp: Any) -> None:
    import gc

    from app.gui import collector

    collector.uninstall()
    gc.disable()
    try:
        assert background.run(None, "adding", lambda: 1) == 1
        while background.busy():
            time.sleep(0.01)
        collector.uninstall()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_gui_thread_collects_what_the_work_left(qapp: Any, qtbot: Any) -> None:
    """Jobs that build much leave the collector's count far over its
    threshold; the collection runs on the GUI thread's timer, never in a worker."""
    import gc
    import weakref

    from app.gui import collector

    class Node:
        def __init__(self) -> None:
            self.me = self

    def build() -> list[list[int]]:
        return [[i] for i in range(5000)]

    kept = []  # what the jobs built stays alive, as a loaded map does
    threads, note = _collections_by_thread()
    try:
        for _ in range(20):
            kept.append(background.run(None, "building", build))
            while background.busy():
                time.sleep(0.002)
            kept.append([[i] for i in range(10)])  # the GUI thread allocates next
        cycle = Node()
        gone = weakref.ref(cycle)
        del cycle
        assert gone() is not None and not gc.isenabled()  # only a collection frees a cycle
        qtbot.waitUntil(lambda: gone() is None, timeout=collector.INTERVAL_MS * 8)
    finally:
        gc.callbacks.remove(note)
    assert threads, "no collection at all: the test saw nothing"
    assert set(threads) == {threading.main_thread().name}, threads
    assert background.busy() == 0


def test_no_collection_off_the_gui_thread_while_jobs_are_cancelled_mid_run(qapp: Any, qtbot: Any) -> None:
    """Jobs that make cyclic garbage as fast as they can are cancelled while
    they run: those that take ``cancelled`` stop, those that cannot stop run
    on, a job still waiting never starts, and a thread started outside
    :mod:`app.gui.background` makes garbage too.  Every collection meanwhile
    runs on the GUI thread."""
    stop_all = threading.Event()
    stopped: list[str] = []
    started: list[str] = []

    class Node:
        def __init__(self) -> None:
            self.me = self

    def churn(name: str, cancelled: Any = None) -> str:
        started.append(name)
        while not stop_all.is_set():
            for _ in range(2000):
                Node()
            if cancelled is not None and cancelled():
                stopped.append(name)
                return "stopped"
        return "ran out"

    def stubborn(name: str) -> str:  # cannot be told to stop
        return churn(name)

    from app.gui import collector

    collector.install()  # as the editor does when it starts (main_window.ensure_app)
    threads, note = _collections_by_thread()
    outsider = threading.Thread(target=churn, args=("outsider",), name="not-a-background-worker", daemon=True)
    try:
        outsider.start()
        polite = background.submit(churn, "polite")
        rude = background.submit(stubborn, "rude")
        waiting = background.submit(churn, "waiting")
        qtbot.waitUntil(lambda: {"polite", "rude"} <= set(started), timeout=5000)
        qtbot.wait(100)  # every thread churns; the GUI thread's timer collects
        assert all(job.cancel() is False for job in (polite, rude))  # running: told to stop, not dropped
        assert waiting.cancel() is True  # waiting: dropped
        qtbot.waitUntil(lambda: polite.done(), timeout=5000)
        assert polite.result() == "stopped" and stopped == ["polite"] and not rude.done()
        for _ in range(3):
            [[i] for i in range(3000)]  # the GUI thread makes garbage while the stubborn job runs on
            qtbot.wait(50)
    finally:
        stop_all.set()
        outsider.join(5)
        import gc

        gc.callbacks.remove(note)
    qtbot.waitUntil(lambda: background.busy() == 0, timeout=5000)
    assert rude.result() == "ran out" and "waiting" not in started
    assert threads, "no collection at all: the test saw nothing"
    assert set(threads) == {threading.main_thread().name}, threads


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
