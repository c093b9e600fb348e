"""A test stuck while holding Python's lock ends the run, with every
thread's stack printed (``tests/conftest.py``, ``_hard_stop_when_stuck``).

pytest-timeout's thread needs Python's lock to stop a test; a deadlock
between Python's lock and a Qt lock holds it, and a CI run once stood until
its 5400 s ran out.  Here a test sleeps in C without releasing the lock."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STUCK = '''
import ctypes
import pytest

@pytest.mark.timeout(1)
def test_stuck_holding_pythons_lock():
    ctypes.PyDLL(None).sleep(60)  # in C, Python's lock held: no Python thread runs
'''


def test_a_test_stuck_holding_pythons_lock_ends_the_run(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_stuck.py").write_text(STUCK)
    env = {**os.environ, "ADJUTANT_HARD_STOP_AFTER_S": "1"}
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                           "-c", str(ROOT / "pyproject.toml"), str(tmp_path / "test_stuck.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=50)
    took = time.monotonic() - start
    assert done.returncode == 1, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert took < 40  # the test would sleep 60 s
    assert "Timeout" in done.stderr and "test_stuck_holding_pythons_lock" in done.stderr, done.stderr[-2000:]
