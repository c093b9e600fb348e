"""The file-size limits of docs/reliability.md's Limits table, each met by a
file one byte over it (issue 22: a test for every sentence of the
reliability docs).

The files are sparse (``truncate``): a 512 MiB scenario costs no disk and,
since every reader refuses from the file's stated size before reading a
byte, no memory or time either — which is what these tests check, through
the real ``adjutant`` command in a child process (exit status 1, the file
named, "the limit is N", within the hostile-input bounds of 2 s CPU and
500 MB)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hostile_inputs import adjutant, refused

from app.cli.railplan import MAX_ORDERS_BYTES
from engine.io.common import MAX_FILE_BYTES
from engine.io.tiled.format import MAX_FILE_BYTES as TILED_BYTES
from engine.io.triplea import MAX_XML_BYTES

ROOT = Path(__file__).resolve().parents[2]


def _sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as f:
        f.truncate(size)
    return path


@pytest.mark.parametrize("name, limit, argv", [
    ("big.json", MAX_FILE_BYTES, ["validate"]),
    ("big.tmx", TILED_BYTES, ["import-tiled", "{file}", "--out", "{out}"]),
    ("big.xml", MAX_XML_BYTES, ["import-triplea", "{file}", "--out", "{out}"]),
    ("orders.json", MAX_ORDERS_BYTES, ["railplan", str(ROOT / "maps" / "railroad_module_europe.json"), "--orders"]),
])
def test_a_file_one_byte_over_its_limit_is_refused_unread(tmp_path: Path, name: str, limit: int,
                                                          argv: list[str]) -> None:
    big = _sparse(tmp_path / name, limit + 1)
    out = tmp_path / "out.json"
    args = [a.format(file=big, out=out) for a in argv]
    if "{file}" not in " ".join(argv):
        args.append(str(big))
    run = adjutant(*args)
    refused(run, big)
    assert f"the limit is {limit}" in run.out + run.err
    assert not out.exists()
