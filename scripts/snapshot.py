"""Snapshot what a user and a script see, to prove a refactor changed nothing.

    python scripts/snapshot.py OUT_DIR [--tree TREE]
    python scripts/snapshot.py --compare DIR_A DIR_B

The first form runs, against the source tree ``TREE`` (default: this
checkout), every golden case's command line (``tests/golden/*.json``, with
``--json``, and again as text), ``info``/``validate`` of every sample map, a
PNG and SVG ``render`` of every grid sample, and scripted screenshots of both
editors: every sample opened in its window at 1280x820 (docks hidden so the
canvas size does not depend on them), at fit zoom and zoomed in, plus each
grid preview hovering its rule document's example and the territory modes.
Every output lands in ``OUT_DIR`` as one file; ``--compare`` lists the files
that differ (or exist on one side only) and exits 1 if any does.

The command lines always come from *this* checkout's golden files, so an old
tree (``--tree /path/to/old/checkout``) is run on exactly the same inputs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCREENSHOTS = r'''
import os, sys
from pathlib import Path
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
out, root = Path(sys.argv[1]), Path(sys.argv[2])
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget
app = QApplication.instance() or QApplication([])
try:
    from engine.io import load_any
except ImportError:
    try:
        from engine.io.registry import load_any
    except ImportError:
        from engine.io import load_any
from engine.territory import TerritoryScenario
from app.gui.main_window import MainWindow
from app.gui.territory.window import TerritoryWindow
from app.gui.turns import TurnController
TurnController.ask_play = lambda self: "cancel"  # a click on a map with a game asks nothing (no modal box)
import tempfile
tmp = Path(tempfile.mkdtemp())

def settle(w):
    for _ in range(3):
        app.processEvents()

def prepare(w):
    w.ask_unsaved = lambda: "discard"
    w.resize(1280, 820)
    w.show()
    for d in w.findChildren(QDockWidget):
        d.hide()
    settle(w)
    w.canvas.fit()
    settle(w)

def shot(w, name):
    settle(w)
    w.canvas.viewport().grab().save(str(out / f"shot-{name}.png"))

def settings(name):
    return QSettings(str(tmp / f"{name}.ini"), QSettings.Format.IniFormat)

def grid_point(w, label):
    s = w.document.scenario
    cell = s.map.parse_label(label)
    x, y = w.canvas.layout().center(cell)
    return w.canvas.map_to_view(x, y).toPoint()

PREVIEW_CASES = {
    "cwol_mobile_columbus.json": ("E6-Y4", ["E4-X4"]),
    "gitm_graphic1.json": (None, []),
    "acw_short_campaign.json": (None, []),
}

for path in sorted((root / "maps").glob("*.json")):
    s = load_any(str(path))
    stem = path.stem
    if isinstance(s, TerritoryScenario):
        w = TerritoryWindow(s, str(path), settings(stem), tmp / "state")
        prepare(w)
        shot(w, f"{stem}-fit")
        w.canvas.set_zoom(w.canvas.zoom() * 2.5)
        shot(w, f"{stem}-zoom")
        w.canvas.fit()
        for mode in ("railplan", "railoptions"):
            try:
                w.set_mode(mode)
            except Exception as e:  # a mode a map does not offer
                print(f"{stem}: mode {mode}: {e}", file=sys.stderr)
                continue
            shot(w, f"{stem}-{mode}")
        w.close()
        continue
    w = MainWindow(s, str(path), settings(stem), tmp / "state")
    prepare(w)
    shot(w, f"{stem}-fit")
    if hasattr(w.canvas, "set_zoom"):
        w.canvas.set_zoom(w.canvas.zoom() * 3)
        shot(w, f"{stem}-zoom")
        w.canvas.fit()
    # the adjudicate tool: select every unit of the map in turn is too many;
    # take the first unit (by id) and hover three cells around the map
    try:
        w.set_tool("adjudicate")
    except Exception as e:
        print(f"{stem}: adjudicate: {e}", file=sys.stderr)
        w.close()
        continue
    units = sorted(s.units, key=lambda u: u.id)[:2]
    for u in units:
        vp = w.canvas.viewport()
        p = grid_point(w, s.map.label(u.at))
        QTest.mouseMove(vp, p)
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        cols, rows = s.map.grid.width, s.map.grid.height
        for i, (fc, fr) in enumerate(((0.5, 0.5), (0.8, 0.3), (0.2, 0.9))):
            from engine.grids import Cell
            c = Cell(min(cols - 1, int(cols * fc)), min(rows - 1, int(rows * fr)))
            q = grid_point(w, s.map.label(c))
            QTest.mouseMove(vp, q)
            shot(w, f"{stem}-adjudicate-{u.id}-{i}")
        QTest.keyClick(vp, Qt.Key.Key_Escape)
    start, targets = PREVIEW_CASES.get(path.name, (None, []))
    if start is not None:
        vp = w.canvas.viewport()
        p = grid_point(w, start)
        QTest.mouseMove(vp, p)
        QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
        for t in targets:
            QTest.mouseMove(vp, grid_point(w, t))
            shot(w, f"{stem}-case-{t}")
    w.close()
    settle(w)
print("screenshots done")
'''


def _run(tree: Path, argv: list[str]) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-m", "app.cli", *argv], cwd=tree, env=env,
                       capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


def _name(argv: list[str]) -> str:
    return hashlib.sha1("\0".join(argv).encode()).hexdigest()[:12]


def snapshot(out: Path, tree: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    cmds: list[list[str]] = []
    for f in sorted((ROOT / "tests" / "golden").glob("*.json")):
        for case in json.loads(f.read_text(encoding="utf-8"))["cases"]:
            if "argv" not in case:  # an order case, run through the registry (tests/golden_cases.py)
                continue
            cmds.append([*case["argv"], "--json"])
            cmds.append(list(case["argv"]))
    maps = sorted(p.name for p in (ROOT / "maps").glob("*.json"))
    for m in maps:
        cmds.append(["info", f"maps/{m}", "--json"])
        cmds.append(["info", f"maps/{m}"])
        cmds.append(["validate", f"maps/{m}"])
    index = {}
    for argv in cmds:
        code, so, se = _run(tree, argv)
        n = _name(argv)
        index[n] = argv
        (out / f"cli-{n}.txt").write_text(f"exit {code}\n--- stdout\n{so}\n--- stderr\n{se}", encoding="utf-8")
    with tempfile.TemporaryDirectory() as t:
        for m in maps:
            data = json.loads((ROOT / "maps" / m).read_text(encoding="utf-8"))
            if data.get("map", {}).get("grid", {}).get("kind") == "territory":
                continue
            for ext in ("png", "svg"):
                target = Path(t) / f"{Path(m).stem}.{ext}"
                code, so, se = _run(tree, ["render", f"maps/{m}", "--out", str(target)])
                dest = out / f"render-{Path(m).stem}.{ext}"
                if target.exists():
                    dest.write_bytes(target.read_bytes())
                else:
                    dest.write_text(f"exit {code}\n{se}", encoding="utf-8")
    (out / "index.json").write_text(json.dumps(index, indent=1), encoding="utf-8")
    script = out / "_screenshots.py"
    script.write_text(SCREENSHOTS, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(tree), QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, str(script), str(out), str(ROOT)], cwd=tree, env=env,
                       capture_output=True, text=True, timeout=900)
    script.unlink()
    (out / "screenshots.log").write_text(r.stdout + r.stderr, encoding="utf-8")
    if r.returncode != 0:
        print(f"screenshots failed (exit {r.returncode}); see {out / 'screenshots.log'}", file=sys.stderr)


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    skip = {"index.json", "screenshots.log"}
    index = {}
    for d in (a, b):
        if (d / "index.json").exists():
            index.update(json.loads((d / "index.json").read_text(encoding="utf-8")))
    same = differ = 0
    for n in names:
        if n in skip:
            continue
        pa, pb = a / n, b / n
        what = " ".join(index.get(n[4:-4], [])) if n.startswith("cli-") else ""
        if not pa.exists() or not pb.exists():
            print(f"only in {'B' if not pa.exists() else 'A'}: {n} {what}")
            differ += 1
        elif pa.read_bytes() != pb.read_bytes():
            print(f"differs: {n} {what}")
            differ += 1
        else:
            same += 1
    print(f"{same} identical, {differ} different")
    return 1 if differ else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", nargs="?")
    p.add_argument("--tree", default=str(ROOT))
    p.add_argument("--compare", nargs=2, metavar=("A", "B"))
    args = p.parse_args()
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    if not args.out:
        p.error("give OUT_DIR or --compare A B")
    snapshot(Path(args.out), Path(args.tree).resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
