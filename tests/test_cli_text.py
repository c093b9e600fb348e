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


def test_a_reader_closing_mid_output_ends_with_the_closed_pipe_status(tmp_path: Path) -> None:
    """``adjutant journal --json GAME | head -c 10``: the reader leaves while
    the output (more than a pipe holds) is being written; the write comes
    back short, and the rest must not be dropped unseen with status 0."""
    import shutil

    from app.cli import main

    game = tmp_path / "game.json"
    shutil.copyfile(ROOT / "maps" / "cwol_mobile_columbus.json", game)
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([{"unit": "US1IN", "to": "D7-V2"}] * 300), encoding="utf-8")
    with contextlib_quiet():
        assert main(["orders", str(game), "--orders", str(orders)]) == 1  # 300 refused entries, journalled
    p = subprocess.Popen([sys.executable, "-m", "app", "journal", "--json", str(game)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT)
    assert p.stdout is not None and p.stderr is not None
    head = p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    p.stderr.close()
    assert p.wait(timeout=120) == EXIT_PIPE_CLOSED, err.decode(errors="replace")
    assert head == b'{\n  "file"' and err == b""


def contextlib_quiet():  # type: ignore[no-untyped-def]
    import contextlib

    return contextlib.redirect_stdout(io.StringIO())
