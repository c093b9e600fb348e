"""Safe outputs (issue 21; ``engine/io/atomic.py``, ``docs/reliability.md``
"Outputs"): every writer goes through one writer that writes a temporary
file, checks it and renames it over the target.

* a symbolic link is written through (the link stays, its target changes);
* a link loop, a missing folder, a folder in the way: a clear message;
* ``--out`` naming an input (by path, through a link, by a hard link) is
  refused by every command that writes, unless ``--force``;
* a full disk (ENOSPC) or an I/O error (EIO) at any write leaves the old
  file whole and no temporary file; a failed check or rename in a Tiled
  export (map + tileset) leaves both old files;
* the kill harness: writers killed with SIGKILL at random moments (scenario
  save, ``render`` PNG and SVG, ``export-tiled``, ``import-triplea`` of a
  generated 900-territory game; the autosave's own harness is in
  ``test_edit_log.py``) leave every output file
  byte for byte the whole old or the whole new version.  Short form: 20 kills
  per writer; long form (``slow``): 60.
"""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from engine.io import OutputError, commit_together, load_scenario, save_scenario, write_atomic
from engine.io.atomic import Output
from engine.io.tiled import export_tiled

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "maps" / "gitm_graphic1.json"
MINI_XML = """<?xml version="1.0"?>
<game><info name="Mini" version="1"/><map><territory name="Alpha"/><territory name="Beta" water="true"/>
<connection t1="Alpha" t2="Beta"/></map><playerList><player name="Germans"/></playerList></game>
"""


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp"))


# -- links, loops, folders -------------------------------------------------------

def test_a_symlink_is_written_through_and_keeps_the_target_mode(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_bytes(b"old")
    os.chmod(target, 0o600)
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    written = write_atomic(link, b"new")
    assert written == target.resolve()
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o600
    assert _temps(tmp_path) == []


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("made.json")
    write_atomic(link, b"x")
    assert link.is_symlink() and (tmp_path / "made.json").read_bytes() == b"x"
    assert stat.S_IMODE((tmp_path / "made.json").stat().st_mode) == 0o644


def test_the_scenario_save_writes_through_a_symlink(tmp_path: Path) -> None:
    s = load_scenario(SAMPLE)
    target = tmp_path / "real.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    save_scenario(s, link)
    assert link.is_symlink() and load_scenario(target).name == s.name


def test_a_symlink_loop_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    a.symlink_to(b.name)
    b.symlink_to(a.name)
    with pytest.raises(OutputError, match="loop of symbolic links"):
        write_atomic(a, b"x")
    assert main(["export-tiled", str(SAMPLE), "--out", str(tmp_path / "a.tmx")]) == 0
    (tmp_path / "l.tmx").symlink_to("l.tmx")
    assert main(["export-tiled", str(SAMPLE), "--out", str(tmp_path / "l.tmx")]) == 1
    err = capsys.readouterr().err
    assert "l.tmx: cannot write: a loop of symbolic links" in err and "Traceback" not in err


def test_render_to_a_symlink_loop_prints_no_traceback(tmp_path: Path) -> None:
    loop = tmp_path / "m.png"
    loop.symlink_to("m.png")
    r = subprocess.run([sys.executable, "-m", "app", "render", str(SAMPLE), "--out", str(loop)], cwd=ROOT,
                       capture_output=True, text=True, check=False,
                       env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert r.returncode == 1, r.stderr
    assert "loop of symbolic links" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("make,expect", [
    (lambda d: d / "no" / "such" / "x.json", "the folder .* does not exist"),
    (lambda d: d, "it is a folder, not a file"),
    (lambda d: (d / "f").write_text("") or d / "f" / "x.json", "a part of the path is a file"),
])
def test_unwritable_targets_are_clear_errors(tmp_path: Path, make: object, expect: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(OutputError, match=expect):
        write_atomic(path, b"x")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_file_or_folder_is_a_clear_error(tmp_path: Path) -> None:
    f = tmp_path / "ro.json"
    f.write_bytes(b"old")
    f.chmod(0o444)
    with pytest.raises(OutputError, match="read-only"):
        write_atomic(f, b"new")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(OutputError, match="permission denied"):
            write_atomic(ro / "x.json", b"new")
    finally:
        ro.chmod(0o755)
    assert f.read_bytes() == b"old"


# -- --out equal to an input ---------------------------------------------------

def _inputs(tmp_path: Path) -> dict[str, Path]:
    scen = tmp_path / "scen.json"
    scen.write_bytes(SAMPLE.read_bytes())
    assert main(["export-tiled", str(scen), "--out", str(tmp_path / "m.tmx")]) == 0
    game = tmp_path / "g.xml"
    game.write_text(MINI_XML, encoding="utf-8")
    return {"scen": scen, "tmx": tmp_path / "m.tmx", "xml": game}


COMMANDS = {
    "render": (["render", "{scen}", "--out", "{out}"], "scen"),
    "export-tiled": (["export-tiled", "{scen}", "--out", "{out}"], "scen"),
    "export-vassal": (["export-vassal", "{scen}", "--out", "{out}"], "scen"),
    "import-tiled": (["import-tiled", "{tmx}", "--out", "{out}"], "tmx"),
    "import-triplea": (["import-triplea", "{xml}", "--out", "{out}"], "xml"),
}


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_out_equal_to_an_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
                                          how: str) -> None:
    files = _inputs(tmp_path)
    args, key = COMMANDS[command]
    inp = files[key]
    out = inp
    if how == "symlink":
        out = tmp_path / ("link" + inp.suffix)
        out.symlink_to(inp.name)
    elif how == "hard link":
        out = tmp_path / ("hard" + inp.suffix)
        os.link(inp, out)
    before = inp.read_bytes()
    capsys.readouterr()
    assert main([a.format(out=out, **files) for a in args]) == 1
    err = capsys.readouterr().err
    assert "will not write over the input file" in err and "--force" in err and "Traceback" not in err
    assert inp.read_bytes() == before
    assert _temps(tmp_path) == []


def test_force_lets_a_command_replace_its_input(tmp_path: Path) -> None:
    files = _inputs(tmp_path)
    assert main(["import-tiled", str(files["tmx"]), "--out", str(files["tmx"]), "--force"]) == 0
    assert load_scenario(files["tmx"]).map.width == load_scenario(SAMPLE).map.width


# -- full disk, I/O errors, failed checks -----------------------------------------

@pytest.mark.parametrize("code,words", [(errno.ENOSPC, "the disk is full"), (errno.EIO, "input/output error")])
def test_a_failed_write_leaves_the_old_scenario_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 code: int, words: str) -> None:
    s = load_scenario(SAMPLE)
    p = tmp_path / "keep.json"
    save_scenario(s, p)
    before = p.read_bytes()
    s.name = "Changed"
    real_write = os.write
    calls = []

    def failing_write(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:  # a part is written, then the disk fills up
            return real_write(fd, bytes(data)[: max(1, len(data) // 2)])
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "write", failing_write)
    with pytest.raises(OutputError, match=words) as e:
        save_scenario(s, p)
    assert "keep.json" in str(e.value) and "old file" in str(e.value)
    assert len(calls) == 2
    monkeypatch.undo()
    assert p.read_bytes() == before
    assert _temps(tmp_path) == []


def test_a_full_disk_on_the_export_tileset_leaves_both_old_files(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_scenario(SAMPLE)
    out = tmp_path / "m.tmx"
    export_tiled(s, out)
    old = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(old) == {"m.tmx", "m-terrain.png"}
    s.ruleset.terrain[0].color = "#123456"
    s.map.terrain[:] = 0
    real_write = os.write
    n = []

    def write_then_fill(fd: int, data: bytes) -> int:
        n.append(1)
        if len(n) >= 2:  # the tileset is written; the map finds the disk full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write_then_fill)
    with pytest.raises(OutputError, match="m.tmx: cannot write: the disk is full"):
        export_tiled(s, out)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == old


def test_a_failed_rename_puts_back_the_files_renamed_before_it(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.tmx"
    a.write_bytes(b"old a")
    real_replace = os.replace
    n = []

    def replace(src: str | Path, dst: str | Path) -> None:
        n.append(str(dst))
        if Path(dst) == b:
            raise OSError(errno.EIO, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OutputError, match="b.tmx: cannot write: input/output error"):
        commit_together([Output(a, b"new a"), Output(b, b"new b")])
    monkeypatch.undo()
    assert a.read_bytes() == b"old a" and not b.exists()
    assert _temps(tmp_path) == []


def test_a_written_file_that_fails_its_check_replaces_nothing(tmp_path: Path) -> None:
    p = tmp_path / "s.json"
    p.write_bytes(SAMPLE.read_bytes())

    def check(path: Path) -> None:
        json.loads(path.read_text(encoding="utf-8"))

    with pytest.raises(OutputError, match="did not check out"):
        write_atomic(p, b"{not json", verify=check)
    assert p.read_bytes() == SAMPLE.read_bytes() and _temps(tmp_path) == []


def test_render_checks_and_commits_png_and_svg(tmp_path: Path, qapp: object) -> None:
    """(``qapp`` first: render in this process uses the test's QApplication.)"""
    for ext in ("png", "svg"):
        out = tmp_path / f"m.{ext}"
        out.write_bytes(b"old")
        out.chmod(0o640)
        assert main(["render", str(SAMPLE), "--out", str(out)]) == 0
        assert out.read_bytes() != b"old" and stat.S_IMODE(out.stat().st_mode) == 0o640
    assert _temps(tmp_path) == []


# -- the kill harness ----------------------------------------------------------

ZYGOTE = r"""
import os, signal, sys
import numpy as np
from engine.io import load_scenario, save_scenario
from engine.io.tiled import export_tiled
from engine.editing import new_scenario
import PySide6.QtGui, PySide6.QtSvg  # imported before forking; the app is made after
from app.gui import export

def pair():
    a = load_scenario(sys.argv[1])
    b = load_scenario(sys.argv[1])
    b.name = "Other"
    b.map.terrain[:] = np.roll(b.map.terrain, 1, axis=1)
    b.ruleset.terrain[0].color = "#123456"
    return a, b

def big(seed):
    s = new_scenario(f"Big {seed}", {"kind": "square", "width": 400, "height": 400, "neighbours": 8},
                     {"scheme": "numeric"})
    rng = np.random.default_rng(seed)
    s.map.terrain[:] = rng.integers(0, len(s.ruleset.terrain), size=s.map.terrain.shape)
    return s

small = pair()
large = (big(1), big(2))

def triplea_game(folder, which, n=12):
    # a generated TripleA game of n x n land territories (square polygons)
    # for import-triplea; the two versions differ in name and production
    names = [f"T{r}-{c}" for r in range(n) for c in range(n)]
    xml = ['<?xml version="1.0"?>', '<game>', f'<info name="Kill {which}" version="1"/>', '<map>']
    xml += [f'<territory name="{t}"/>' for t in names]
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                xml.append(f'<connection t1="T{r}-{c}" t2="T{r}-{c + 1}"/>')
            if r + 1 < n:
                xml.append(f'<connection t1="T{r}-{c}" t2="T{r + 1}-{c}"/>')
    xml += ['</map>', '<playerList>', '<player name="Reds" optional="false"/>',
            '<player name="Blues" optional="false"/>', '<alliance player="Reds" alliance="Axis"/>',
            '<alliance player="Blues" alliance="Allies"/>', '</playerList>', '<attachmentList>']
    xml += [f'<attachment name="territoryAttachment" attachTo="{t}" javaClass="x.TerritoryAttachment" '
            f'type="territory"><option name="production" value="{(i + which) % 7}"/></attachment>'
            for i, t in enumerate(names)]
    xml += ['</attachmentList>', '<initialize><ownerInitialize>']
    xml += [f'<territoryOwner territory="{t}" owner="{"Reds" if i % 2 else "Blues"}"/>' for i, t in enumerate(names)]
    xml += ['</ownerInitialize></initialize>', '</game>']
    game = os.path.join(folder, f"game{which}.xml")
    with open(game, "w", encoding="utf-8") as f:
        f.write("\n".join(xml))
    poly = os.path.join(folder, f"polygons{which}.txt")
    with open(poly, "w", encoding="utf-8") as f:
        for r in range(n):
            for c in range(n):
                x, y = c * 40, r * 40
                f.write(f"T{r}-{c}  <  ({x},{y}) ({x + 40},{y}) ({x + 40},{y + 40}) ({x},{y + 40})  >\n")
    return game, poly

import tempfile
from app.cli import main as adjutant
import app.cli.triplea  # imported once here, not in every forked writer
import engine.io.inputs
games_dir = tempfile.mkdtemp(prefix="adjutant-kill-")
games = [triplea_game(games_dir, 0), triplea_game(games_dir, 1)]

def write(kind, which, path):
    if kind == "triplea":
        game, poly = games[which]
        with open(os.devnull, "w") as null:
            sys.stdout = null  # the command's summary; the harness reads this process's answers
            try:
                assert adjutant(["import-triplea", game, "--polygons", poly, "--out", path]) == 0
            finally:
                sys.stdout = sys.__stdout__
    elif kind == "save":
        save_scenario(large[which], path)
    elif kind in ("png", "svg"):
        export.export_map(small[which], path, 40.0, labels=True)
    else:
        export_tiled(large[which], path, tile_size=8)

signal.signal(signal.SIGCHLD, signal.SIG_IGN)
print("zygote", flush=True)
for line in sys.stdin:
    kind, mode, path = line.split()
    if os.fork() == 0:
        if kind in ("png", "svg"):
            from PySide6.QtGui import QGuiApplication
            app = QGuiApplication(["adjutant"])
        if mode in ("0", "1"):  # reference output
            write(kind, int(mode), path)
            print("done", flush=True)
            os._exit(0)
        print(os.getpid(), flush=True)
        which = 1
        while True:
            write(kind, which, path)
            which = 1 - which
"""

WRITERS = {"save": ("campaign.json",), "png": ("map.png",), "svg": ("map.svg",),
           "tiled": ("map.tmx", "map-terrain.png"), "triplea": ("imported.json",)}


class Zygote:
    """A process that has imported everything once and forks a writer per
    request, so that a kill costs milliseconds, not an interpreter start."""

    def __init__(self) -> None:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen([sys.executable, "-c", ZYGOTE, str(SAMPLE)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env, cwd=ROOT, text=True, bufsize=1)
        assert self._line() == "zygote"

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        assert line, "the writer process ended without an answer"
        return line

    def ask(self, kind: str, mode: str, path: Path) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{kind} {mode} {path}\n")
        return self._line()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _gone(pid: int) -> None:
    for _ in range(2000):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.005)
    raise AssertionError(f"writer {pid} did not die")


def _kill_harness(tmp_path: Path, kills: int, kinds: tuple[str, ...] = tuple(WRITERS)) -> None:
    zyg = Zygote()
    rng = random.Random(20261123)
    try:
        report = []
        for kind in kinds:
            names = WRITERS[kind]
            folder = tmp_path / kind
            folder.mkdir()
            refs = []
            took = 0.0
            for which in (0, 1):
                ref = tmp_path / f"ref-{kind}-{which}"
                ref.mkdir()
                start = time.monotonic()
                assert zyg.ask(kind, str(which), ref / names[0]) == "done"
                took = max(took, time.monotonic() - start)
                refs.append({n: (ref / n).read_bytes() for n in names})
            # kill within about two writes (at least 0.3 s), so kills land both
            # between writes and inside them whatever a writer's speed
            window = max(0.3, 2.5 * took)
            assert refs[0] != refs[1]
            for n in names:
                (folder / n).write_bytes(refs[0][n])
            seen = {0: 0, 1: 0}
            interrupted = 0
            k = 0
            # every kill checks old-or-new; past ``kills``, more kills (at most
            # as many again, each window doubled) until both versions were
            # seen: a loaded machine can make every write outlast the window
            while k < kills or (not (seen[0] and seen[1]) and k < 2 * kills):
                if k >= kills:
                    window *= 2
                k += 1
                pid = int(zyg.ask(kind, "loop", folder / names[0]))
                time.sleep(rng.uniform(0.0, window))
                os.kill(pid, signal.SIGKILL)
                _gone(pid)
                for n in names:
                    data = (folder / n).read_bytes()
                    assert data in (refs[0][n], refs[1][n]), (
                        f"{kind}, kill {k}: {n} is neither the old nor the new file ({len(data)} bytes)")
                    seen[0 if data == refs[0][n] else 1] += 1
                leftovers = _temps(folder)
                interrupted += bool(leftovers)
                for t in leftovers:
                    (folder / t).unlink()
            report.append(f"{kind}: {k} kills, files old {seen[0]}x / new {seen[1]}x, "
                          f"{interrupted} kills interrupted a write")
            assert seen[0] and seen[1], f"{kind}: the kills never saw both versions; the harness tested nothing"
        print("\n".join(report))
    finally:
        zyg.close()


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_killed_writers_leave_old_or_new_files_short(tmp_path: Path, kind: str) -> None:
    _kill_harness(tmp_path, 20, (kind,))


@pytest.mark.slow
def test_killed_writers_leave_old_or_new_files_long(tmp_path: Path) -> None:
    _kill_harness(tmp_path, 60)
