"""Shared test setup: Qt runs offscreen, paths are relative to the project root."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _test_folder(var: str, prefix: str, keep_given: bool) -> None:
    """Point ``var`` at a new temporary folder, one per test process: not
    when it names a folder the user gave (``keep_given``), never the one
    this file made for another process (a pytest-xdist worker inherits its
    controller's environment and makes its own)."""
    import tempfile

    mark = f"ADJUTANT_TEST_MADE_{var}"
    me = os.environ.get("PYTEST_XDIST_WORKER", "controller")
    if os.environ.get(mark) == me or (keep_given and var in os.environ and mark not in os.environ):
        return
    os.environ[var] = tempfile.mkdtemp(prefix=prefix)
    os.environ[mark] = me


_test_folder("ADJUTANT_CACHE_DIR", "adjutant-test-cache-", True)  # verified journals, tile pyramids
_test_folder("ADJUTANT_CONFIG_DIR", "adjutant-test-config-", True)  # dice seeds, signing keys
_test_folder("XDG_CONFIG_HOME", "adjutant-test-xdg-", False)  # QSettings' file: layout, recent files

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test from the project root (sample paths like maps/x.json)."""
    monkeypatch.chdir(ROOT)
    return ROOT


TRIPLEA_G40_ENV = "ADJUTANT_TRIPLEA_G40"
TRIPLEA_G40_XML = "ww2global40_2nd_edition.xml"


def triplea_g40_path() -> Path:
    """Where the TripleA Global 1940 game XML is looked for: in the folder
    the environment variable ``ADJUTANT_TRIPLEA_G40`` names, else in
    ``../shared/data/triplea-g40/`` beside the clone (never copied into the
    repository)."""
    folder = os.environ.get(TRIPLEA_G40_ENV)
    base = Path(folder) if folder else ROOT.parent / "shared" / "data" / "triplea-g40"
    return base / TRIPLEA_G40_XML


@pytest.fixture(scope="session")
def triplea_g40() -> Path:
    """The TripleA Global 1940 XML (:func:`triplea_g40_path`); the test is
    skipped, saying how to provide it, when it is absent."""
    path = triplea_g40_path()
    if not path.is_file():
        pytest.skip(f"the TripleA Global 1940 game file is not at {path}: set {TRIPLEA_G40_ENV} to the folder "
                    f"holding {TRIPLEA_G40_XML} (TripleA's ww2global40 map, games/) to run this test")
    return path



@pytest.fixture(scope="session")
def acw_cli_campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The scripted ACW campaign (``scripts/acw_campaign.py``) played once
    through ``adjutant`` for the session: its report's text and the
    finished game file (read it; copy it to change it)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("acw_campaign", ROOT / "scripts" / "acw_campaign.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    folder = tmp_path_factory.mktemp("acw-cli-campaign")
    text = mod.run(folder / "report.md", folder / "game.json")
    return text, folder / "game.json"


# -- a modal dialog nobody answers fails the test instead of hanging CI -------

MODAL_PATIENCE_S = 30
"""How long a test may leave a modal dialog open before it is closed and the
test fails (:class:`modal_watchdog.ModalWatchdog`)."""


@pytest.fixture(autouse=True)
def _no_modal_dialog_left_waiting(request: pytest.FixtureRequest) -> object:
    if request.node.get_closest_marker("gui") is None:
        yield
        return
    request.getfixturevalue("qapp")
    from modal_watchdog import ModalWatchdog

    dog = ModalWatchdog(MODAL_PATIENCE_S)
    yield
    dog.stop()
    assert not dog.closed, f"a modal dialog was left waiting for an answer and was closed: {dog.closed}"


# -- the long forms run only when asked ----------------------------------------

RELIABILITY = Path(__file__).resolve().parent / "reliability"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked ``slow`` (a long form: thousands of random games or
    positions, a whole campaign through the editor) is skipped, saying how
    to run it, unless ``-m`` selects ``slow`` or ``ADJUTANT_LONG=1``
    (``tests/reliability/conftest.py`` does the same for its own, with its
    own words)."""
    expr = str(config.getoption("markexpr", "") or "")
    if os.environ.get("ADJUTANT_LONG", "") not in ("", "0") or ("slow" in expr and "not slow" not in expr):
        return
    skip = pytest.mark.skip(reason="long run: use `python -m pytest -m slow` or ADJUTANT_LONG=1")
    for item in items:
        if item.get_closest_marker("slow") and RELIABILITY not in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _moves_outside_play_are_set_up_edits(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A GUI test's unit moves on a map with a game, outside play, are
    set-up edits, as a person answering "Set-up Edit" makes them
    (``TurnController.ask_play``); a test of the question replaces it."""
    if request.node.get_closest_marker("gui") is None:
        return
    from app.gui.turns import TurnController

    monkeypatch.setattr(TurnController, "ask_play", lambda self: "setup")


# -- Python's cycle collector never runs outside the GUI thread --------------

_collections_elsewhere: list[str] = []


def _note_collection(phase: str, info: dict[str, int]) -> None:
    import threading

    if phase == "start" and threading.current_thread() is not threading.main_thread():
        _collections_elsewhere.append(f"generation {info['generation']} in thread "
                                      f"{threading.current_thread().name!r}")


@pytest.fixture(scope="session")
def qapp(qapp: Any) -> Any:
    """pytest-qt's application, with the editor's cycle collector installed
    as soon as it exists (as ``main_window.ensure_app`` does)."""
    from app.gui import collector

    collector.install()
    return qapp


_old_generation = {"kept": 0, "since": 0}
"""Objects the last whole collection between tests kept, and how many have
joined the old generation since."""


def _collect_between_tests() -> None:
    """The collection between tests, generation by generation as CPython's
    automatic collector does: the young generations (what the test made)
    every time, the whole heap once what joined the old generation since
    the last whole collection passes a quarter of what that one kept (the
    rule CPython applies to its oldest generation).  A whole collection
    visits every object the session holds (modules, cached samples,
    pytest's items: millions), so one after every test cost more than the
    tests themselves."""
    import gc

    young = len(gc.get_objects(0)) + len(gc.get_objects(1))
    _old_generation["since"] += max(0, young - gc.collect(1))
    if _old_generation["since"] > _old_generation["kept"] // 4:
        gc.collect()
        _old_generation["kept"] = len(gc.get_objects(2))
        _old_generation["since"] = 0


@pytest.fixture(autouse=True)
def _no_cycle_collection_off_the_gui_thread() -> object:
    """A collection in another thread destroys the GUI thread's garbage
    there, Qt objects included (app/gui/collector.py).  Every test fails if
    one ran while it did.

    Once the Qt application exists, every test runs as the editor does:
    automatic collection off, the GUI thread's timer collecting (a test
    that turned it back on gets it installed again), and everything
    collected between tests, where no Qt call is under way.  Automatic
    collection may start inside any allocation, also inside a Qt call that
    holds one of Qt's own locks, and a widget it destroys there waits on that
    lock for ever (:func:`_collect_between_tests`)."""
    import gc
    import sys

    collector = sys.modules.get("app.gui.collector")
    if collector is not None and collector.installed() is None:
        from PySide6.QtCore import QCoreApplication

        if QCoreApplication.instance() is not None:
            collector.install()
    del _collections_elsewhere[:]
    gc.callbacks.append(_note_collection)
    yield
    if collector is None:
        collector = sys.modules.get("app.gui.collector")
    if collector is not None and collector.installed() is not None:
        _collect_between_tests()
    gc.callbacks.remove(_note_collection)
    assert not _collections_elsewhere, f"Python's cycle collector ran off the GUI thread: {_collections_elsewhere}"


# -- a deadlocked test ends the run ------------------------------------------

HARD_STOP_AFTER_TIMEOUT_S = float(os.environ.get("ADJUTANT_HARD_STOP_AFTER_S", "20"))
"""faulthandler's watchdog ends the process this long after the test's
pytest-timeout (pyproject.toml) if that could not
(``ADJUTANT_HARD_STOP_AFTER_S``; ``tests/test_hard_stop.py`` sets it)."""


_real_stderr: list[int] = []


def pytest_configure(config: pytest.Config) -> None:
    # a copy of the real stderr, taken while pytest's capture is suspended
    # (as pytest's faulthandler plugin does): the watchdog writes there
    import sys

    _real_stderr.append(os.dup(sys.__stderr__.fileno() if sys.__stderr__ else 2))


def _timeout_of(request: pytest.FixtureRequest) -> float:
    marker = request.node.get_closest_marker("timeout")
    if marker and marker.args:
        return float(marker.args[0])
    value = request.config.getoption("timeout", None)
    if value is None:
        value = request.config.getini("timeout")
    return float(value or 0)


@pytest.fixture(autouse=True)
def _hard_stop_when_stuck(request: pytest.FixtureRequest) -> object:
    """pytest-timeout's thread needs Python's lock to stop a stuck test; a
    deadlock between Python's lock and a Qt lock holds that lock forever,
    and CI then ran out its whole time.  faulthandler's watchdog is a C
    thread: it prints every thread's stack and exits with status 1."""
    import faulthandler

    limit = _timeout_of(request)
    if limit <= 0 or not _real_stderr:
        yield
        return
    faulthandler.dump_traceback_later(limit + HARD_STOP_AFTER_TIMEOUT_S, exit=True, file=_real_stderr[0])
    yield
    faulthandler.cancel_dump_traceback_later()
