"""CLI text: strict JSON and a closed pipe (issue 22, "Text").

``--json`` output never carries ``NaN``/``Infinity`` (a non-finite number is
refused with a message naming the field), and a reader that closes the pipe
early ends the command quietly with status 141 (128 + SIGPIPE) instead of a
``BrokenPipeError`` traceback.  See ``app/cli/__init__.py`` and
``app/cli/common.py``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import EXIT_PIPE_CLOSED
from app.cli.common import CliError, emit, strict_json

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "maps" / "acw_short_campaign.json"


@pytest.mark.parametrize(("value", "shown"), [(float("nan"), "nan"), (float("inf"), "inf"), (-float("inf"), "-inf")])
def test_a_non_finite_number_is_refused_naming_its_field(value: float, shown: str) -> None:
    data = {"name": "x", "units": [{"id": "a", "strength": 1.5}, {"id": "b", "strength": value}]}
    with pytest.raises(CliError) as e:
        strict_json(data)
    assert "units[1].strength" in e.value.message and shown in e.value.message


def test_a_top_level_non_finite_number_is_named_too() -> None:
    with pytest.raises(CliError, match=r"\(top level\)"):
        strict_json(float("nan"))  # type: ignore[arg-type]


def test_emit_prints_strict_json_and_nothing_on_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    emit(argparse.Namespace(json=True), {"cost": 2.5, "path": ["é"]}, "unused")
    assert json.loads(out.getvalue()) == {"cost": 2.5, "path": ["é"]}
    assert "é" in out.getvalue()  # still not ASCII-escaped, as before
    out.truncate(0)
    out.seek(0)
    with pytest.raises(CliError):
        emit(argparse.Namespace(json=True), {"cost": float("nan")}, "unused")
    assert out.getvalue() == ""  # no half-written object


def _run_into_closed_pipe(*args: str) -> subprocess.CompletedProcess[bytes]:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "app", *args], stdout=write_end, stderr=subprocess.PIPE,
                              cwd=ROOT, timeout=120, check=False)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("flags", [["--json"], []])
def test_a_closed_pipe_ends_quietly(flags: list[str]) -> None:
    r = _run_into_closed_pipe("info", *flags, str(SAMPLE))
    assert r.returncode == EXIT_PIPE_CLOSED
    assert r.stderr == b"", r.stderr.decode(errors="replace")
