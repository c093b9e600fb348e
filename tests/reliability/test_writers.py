"""Two writers, and what a writer may write over (``docs/reliability.md``,
"One writer at a time" and "Outputs").

* concurrent ``adjutant orders`` on one game (separate processes) lose no
  one's orders: each takes the map's lock (the editor's, ``app/locks.py``)
  and reads the game under it;
* a game rewritten on disk by another program between a command's read and
  its write: ``orders`` checks its orders again against the new file,
  ``end-turn`` refuses, saying what changed;
* a device, FIFO, socket or folder at ``--out`` (directly or through a
  link) is refused by every writer, and stays what it was; every input of
  an import (the map, its tileset, the tileset's image) is protected from
  being the output;
* the temporary files a killed writer left are removed by the next write;
* an orders file that is a device or a FIFO is refused at once, one past the
  size limit without reading it all.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from app.cli import orders as orders_cli
from app.cli.common import Rewrite
from engine.io import write_atomic
from engine.io.atomic import STALE_SECONDS

ROOT = Path(__file__).resolve().parents[2]
CWOL = ROOT / "maps" / "cwol_mobile_columbus.json"
SMALL = ROOT / "maps" / "gitm_graphic1.json"


def journal_count(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    return int(data.get("state", {}).get("game", {}).get("journal", {}).get("count", 0))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    f = tmp_path / "game.json"
    shutil.copyfile(CWOL, f)
    return f


def refused_order(tmp_path: Path, name: str = "orders.json") -> Path:
    """An order that is refused (not the Union's move) but journalled: one
    entry per run, whatever order the runs take."""
    p = tmp_path / name
    p.write_text(json.dumps([{"unit": "US1IN", "to": "D7-V2"}]), encoding="utf-8")
    return p


# -- one writer at a time ---------------------------------------------------------

def test_concurrent_orders_on_one_game_lose_nothing(tmp_path: Path, game: Path) -> None:
    n = 4
    orders = refused_order(tmp_path)
    env = dict(os.environ, ADJUTANT_STATE_DIR=str(tmp_path / "state"), PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-m", "app", "orders", str(game), "--orders", str(orders), "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
             for _ in range(n)]
    results = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 1, err  # the order is refused, and journalled
        assert json.loads(out)["written"] is True
    assert journal_count(game) == n


def test_orders_are_checked_again_when_the_file_changed_meanwhile(tmp_path: Path, game: Path,
                                                                   monkeypatch, capsys) -> None:
    other = tmp_path / "other"
    other.mkdir()
    newer = other / "game.json"
    shutil.copyfile(game, newer)
    assert main(["orders", str(newer), "--orders", str(refused_order(tmp_path, "a.json"))]) == 1
    capsys.readouterr()
    real_load = Rewrite.load
    swaps = [newer.read_bytes()]

    def load_then_swap(self: Rewrite, checked: bool = False):  # another program writes right after the read
        s = real_load(self, checked)
        if swaps:
            Path(self.path).write_bytes(swaps.pop())
        return s

    monkeypatch.setattr(Rewrite, "load", load_then_swap)
    code = main(["orders", str(game), "--orders", str(refused_order(tmp_path, "b.json")), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["written"]
    assert any("checked again against the new state" in n for n in out["notes"])
    assert journal_count(game) == 2  # the other program's entry and ours
    assert out["entries"][0]["position"] == 2


def test_end_turn_refuses_a_file_changed_meanwhile(tmp_path: Path, game: Path, monkeypatch, capsys) -> None:
    real_load = Rewrite.load
    changed = b""

    def load_then_change(self: Rewrite, checked: bool = False):
        nonlocal changed
        s = real_load(self, checked)
        data = json.loads(Path(self.path).read_text(encoding="utf-8"))
        data["description"] = "edited elsewhere"
        changed = json.dumps(data).encode()
        Path(self.path).write_bytes(changed)
        return s

    monkeypatch.setattr(Rewrite, "load", load_then_change)
    assert main(["end-turn", str(game)]) == 1
    err = capsys.readouterr().err
    assert "changed on disk since this command read it" in err and "nothing was written" in err
    assert game.read_bytes() == changed


def test_the_lock_waits_for_another_command_and_names_it(tmp_path: Path, game: Path, monkeypatch, capsys) -> None:
    from app.locks import hold_map

    monkeypatch.setenv("ADJUTANT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr("app.locks.WAIT_SECONDS", 0.3)
    with hold_map(game, "adjutant end-turn", tmp_path / "state"):
        t0 = time.monotonic()
        assert main(["orders", str(game), "--orders", str(refused_order(tmp_path))]) == 1
        assert time.monotonic() - t0 >= 0.3
    err = capsys.readouterr().err
    assert "running 'adjutant end-turn'), still after 0.3 s; nothing was written" in err
    assert journal_count(game) == 0


def test_pending_defaults_wait_for_the_lock_like_every_writer(tmp_path: Path, game: Path, monkeypatch,
                                                             capsys) -> None:
    from app.locks import hold_map

    monkeypatch.setenv("ADJUTANT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr("app.locks.WAIT_SECONDS", 0.3)
    before = game.read_bytes()
    with hold_map(game, "adjutant orders", tmp_path / "state"):
        assert main(["pending", str(game), "--defaults"]) == 1
    err = capsys.readouterr().err
    assert "running 'adjutant orders'), still after 0.3 s; nothing was written" in err
    assert game.read_bytes() == before


# -- outputs are regular files ------------------------------------------------------

def _specials(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a socket, a folder, a character device (root only) and links
    to the first two."""
    found = {}
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    found["fifo"] = fifo
    sock_path = tmp_path / "sock.json"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock_path))
    s.close()
    found["socket"] = sock_path
    folder = tmp_path / "folder.json"
    folder.mkdir()
    found["folder"] = folder
    try:
        dev = tmp_path / "null.json"
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        found["device"] = dev
    except (PermissionError, OSError):
        pass
    for name in ("fifo", "socket"):
        link = tmp_path / f"link-{name}.json"
        link.symlink_to(found[name])
        found[f"link to {name}"] = link
    return found


WRITERS = {
    "branch": lambda f, out: ["branch", f, "--entry", "0", "--out", out],
    "render": lambda f, out: ["render", f, "--out", out],
    "print": lambda f, out: ["print", f, "--hex-mm", "16", "--out", out],
    "export-tiled": lambda f, out: ["export-tiled", f, "--out", out],
    "import-triplea": lambda f, out: ["import-triplea", f, "--out", out],
    "import-tiled": lambda f, out: ["import-tiled", f, "--out", out],
    "export-vassal": lambda f, out: ["export-vassal", f, "--out", out, "--scale", "16"],
}

MINI_XML = """<?xml version="1.0"?>
<game><info name="Mini" version="1"/><map><territory name="Alpha"/><territory name="Beta" water="true"/>
<connection t1="Alpha" t2="Beta"/></map><playerList><player name="Germans"/></playerList></game>
"""

TSX = ('<?xml version="1.0" encoding="UTF-8"?>\n<tileset name="ts" tilewidth="32" tileheight="32" tilecount="4" '
       'columns="2"><image source="ts.png" width="64" height="64"/>'
       '<tile id="0"><properties><property name="terrain" value="clear"/></properties></tile>'
       '<tile id="1"><properties><property name="terrain" value="forest"/></properties></tile></tileset>')
TMX = ('<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" orientation="orthogonal" renderorder="right-down" '
       'width="2" height="2" tilewidth="32" tileheight="32"><tileset firstgid="1" source="desert.tsx"/>'
       '<layer id="1" name="Ground" width="2" height="2"><data encoding="csv">1,2,2,1</data></layer></map>')


def _input_for(command: str, tmp_path: Path) -> Path:
    if command == "import-triplea":
        p = tmp_path / "game.xml"
        p.write_text(MINI_XML, encoding="utf-8")
        return p
    if command == "import-tiled":
        (tmp_path / "desert.tsx").write_text(TSX, encoding="utf-8")
        (tmp_path / "ts.png").write_bytes(b"\x89PNG\r\n\x1a\n")
        p = tmp_path / "desert.tmx"
        p.write_text(TMX, encoding="utf-8")
        return p
    p = tmp_path / ("game.json" if command == "branch" else "map.json")
    shutil.copyfile(CWOL if command == "branch" else SMALL, p)
    return p


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_device_fifo_socket_or_folder_at_out_is_refused(command: str, tmp_path: Path, capsys) -> None:
    src = _input_for(command, tmp_path)
    for kind, target in _specials(tmp_path).items():
        suffix = {"render": ".png", "print": ".pdf", "export-tiled": ".tmx", "export-vassal": ".vmod"}.get(command)
        out = target
        if suffix:  # the writers that need an extension see it through a link of that name
            out = tmp_path / f"{target.stem}-{command}{suffix}"
            if out.is_symlink() or out.exists():
                out.unlink()
            out.symlink_to(target)
        before = os.lstat(os.path.realpath(target)).st_mode
        t0 = time.monotonic()
        code = main(WRITERS[command](str(src), str(out)))
        err = capsys.readouterr().err
        assert code == 1, (kind, err)
        assert time.monotonic() - t0 < 20
        assert "cannot write" in err and ("not a regular file" in err or "folder" in err), (kind, err)
        assert os.lstat(os.path.realpath(target)).st_mode == before, kind  # still the FIFO, socket, ...
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("out", ["desert.tsx", "ts.png", "desert.tmx"])
def test_import_tiled_never_writes_over_its_map_tileset_or_image(out: str, tmp_path: Path, capsys) -> None:
    src = _input_for("import-tiled", tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["import-tiled", str(src), "--out", str(tmp_path / out)]) == 1
    err = capsys.readouterr().err
    assert "will not write over the input file" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# -- temporary files of a killed writer -------------------------------------------------

def test_leftover_temporary_files_are_removed_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "map.json"
    target.write_bytes(b"old")
    code = ("import os, signal, sys\n"
            "from engine.io import write_atomic\n"
            "def killed(p):\n"
            "    open(p, 'wb').write(b'x' * 1000)\n"
            "    os.kill(os.getpid(), signal.SIGKILL)\n"
            f"write_atomic({str(target)!r}, killed)\n")
    for _ in range(3):
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       check=False, timeout=120)
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp"))
    assert len(left) == 3 and target.read_bytes() == b"old"
    other = tmp_path / ".other.json.abc.tmp"  # another file's: not ours to remove
    other.write_bytes(b"x")
    past = time.time() - 2 * STALE_SECONDS
    for p in tmp_path.iterdir():
        os.utime(p, (past, past))
    write_atomic(target, b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.json.abc.tmp", "map.json"]
    assert target.read_bytes() == b"new"


def test_a_live_writers_temporary_file_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "map.json"
    seen: list[list[str]] = []

    def slow(p: Path) -> None:
        p.write_bytes(b"new")
        past = time.time() - 2 * STALE_SECONDS
        os.utime(p, (past, past))  # old, but locked by its live writer
        write_atomic(tmp_path / "map.json.other", b"x")  # another file's write in the folder
        from engine.io.atomic import sweep_leftovers
        sweep_leftovers(target)
        seen.append(sorted(x.name for x in tmp_path.iterdir() if x.name.endswith(".tmp")))

    write_atomic(target, slow)
    assert len(seen[0]) == 1 and target.read_bytes() == b"new"


# -- bounded reads of orders files -----------------------------------------------------

def test_orders_from_a_device_or_fifo_are_refused_at_once(tmp_path: Path, game: Path, capsys) -> None:
    fifo = tmp_path / "orders.fifo"
    os.mkfifo(fifo)
    for src in ("/dev/zero", str(fifo)):
        t0 = time.monotonic()
        assert main(["orders", str(game), "--orders", src]) == 1
        err = capsys.readouterr().err
        assert time.monotonic() - t0 < 10
        assert src in err and "not a regular file" in err, err
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(orders_cli.MAX_ORDERS_BYTES + 1)
    assert main(["orders", str(game), "--orders", str(big)]) == 1
    assert f"the limit is {orders_cli.MAX_ORDERS_BYTES}" in capsys.readouterr().err
    assert journal_count(game) == 0


def test_a_scenario_written_to_a_map_open_in_an_editor_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    from app.locks import EDITOR, FileLock, map_lock_path

    monkeypatch.setenv("ADJUTANT_STATE_DIR", str(tmp_path / "state"))
    game = tmp_path / "game.xml"
    game.write_text(MINI_XML, encoding="utf-8")
    out = tmp_path / "open.json"
    shutil.copyfile(SMALL, out)
    before = out.read_bytes()
    lock = FileLock.acquire(map_lock_path(tmp_path / "state", str(out)), {"path": str(out), "by": EDITOR})
    assert lock is not None
    try:
        assert main(["import-triplea", str(game), "--out", str(out), "--force"]) == 1
        assert "is open in the editor" in capsys.readouterr().err
        assert out.read_bytes() == before
    finally:
        lock.release()
    assert main(["import-triplea", str(game), "--out", str(out), "--force"]) == 0
