"""Crash-safe save: a child process saving a 1000 x 1000 map over and over
(alternating two different scenarios, ``engine.io.save_scenario``)
is killed with SIGKILL at random moments.  After every kill the file on disk
is byte for byte the complete old or the complete new scenario (never a
mixture, never a truncation), and it loads.

Short form: 12 kills; long form (``slow``): 50 kills.  Half the children run
``save_scenario`` (dump, then write), half only its disk half
(``engine.io.write_text_atomic``: temporary file, write, fsync, rename) so that many
kills land inside a write; the test counts the kills that left a temporary
file behind, which proves they interrupted a write.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from reliability_kit import kill_when_ready

from engine.io import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SIZE = 1000

CHILD = r"""
import sys
import numpy as np
from engine.editing import new_scenario
from pathlib import Path
from engine.io import write_text_atomic, save_scenario, dumps_scenario

def build(seed):
    s = new_scenario(f"Big {seed}", {"kind": "square", "width": SIZE, "height": SIZE, "neighbours": 8},
                     {"scheme": "numeric"})
    rng = np.random.default_rng(seed)
    s.map.terrain[:] = rng.integers(0, len(s.ruleset.terrain), size=s.map.terrain.shape)
    s.map.control[:] = rng.integers(-1, len(s.sides), size=s.map.control.shape)
    return s

mode, path = sys.argv[1], sys.argv[2]
a, b = build(1), build(2)
if mode == "texts":
    open(path + ".a", "w", encoding="utf-8").write(dumps_scenario(a))
    open(path + ".b", "w", encoding="utf-8").write(dumps_scenario(b))
    save_scenario(a, path)
    sys.exit(0)
if mode == "save":  # the whole save: dump the model to text, then write it
    print("ready", flush=True)
    while True:
        save_scenario(b, path)
        save_scenario(a, path)
else:  # "write": only the disk half of save_scenario (temporary file, fsync, rename), so kills land in it
    ta, tb = dumps_scenario(a), dumps_scenario(b)
    print("ready", flush=True)
    while True:
        write_text_atomic(Path(path), tb)
        write_text_atomic(Path(path), ta)
""".replace("SIZE", str(SIZE))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _kill_test(tmp_path: Path, kills: int) -> None:
    path = tmp_path / "campaign.json"
    subprocess.run([sys.executable, "-c", CHILD, "texts", str(path)], check=True, env=_env(), cwd=ROOT, timeout=120)
    old = (tmp_path / "campaign.json.a").read_bytes()
    new = (tmp_path / "campaign.json.b").read_bytes()
    assert old != new and path.read_bytes() == old
    rng = random.Random(20261122)
    seen = {"old": 0, "new": 0}
    interrupted_writes = 0
    for k in range(kills):
        mode = "save" if k % 2 == 0 else "write"
        # killed anywhere in a cycle of two
        kill_when_ready([sys.executable, "-c", CHILD, mode, str(path)],
                        rng.uniform(0.0, 0.8 if mode == "save" else 0.2), ROOT, _env())
        data = path.read_bytes()
        assert data in (old, new), (f"kill {k + 1}: the file is neither scenario ({len(data)} bytes; old "
                                    f"{len(old)}, new {len(new)})")
        seen["old" if data == old else "new"] += 1
        leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(".campaign.json.")]
        interrupted_writes += bool(leftovers)
        for p in leftovers:
            p.unlink()
        if k in (0, kills - 1):
            s = load_scenario(path)
            assert s.name in ("Big 1", "Big 2") and s.map.width == SIZE
    print(f"{kills} kills: file was old {seen['old']}x, new {seen['new']}x; "
          f"{interrupted_writes} kills interrupted a write (left a temporary file)")
    assert interrupted_writes > 0, "no kill landed during a write: the test did not test anything"


def test_killed_saves_leave_old_or_new_short(tmp_path: Path) -> None:
    _kill_test(tmp_path, 12)


@pytest.mark.slow
def test_killed_saves_leave_old_or_new_long(tmp_path: Path) -> None:
    _kill_test(tmp_path, 50)
