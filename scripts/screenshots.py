"""Screenshots of what a game master sees (issue 18): every sample map in
its editor, with the legend dock in front, at 1280x820 and 1366x768; a grid
map once at fit zoom and once with each applicable rules preview active (the
first unit by id selected, the pointer three cells away); a territory map
once per mode it offers.

    python scripts/screenshots.py [OUT_DIR] [--new]   (default: docs/screenshots)

Only the files already in OUT_DIR are replaced (the ones the docs show), so
a run adds no file the docs do not refer to; ``--new`` writes every shot
(as does a run into an empty or new folder).

Runs offscreen (``QT_QPA_PLATFORM=offscreen`` is set when unset) with
throw-away settings, so the windows have the Game Master layout's own
arrangement (View > Layout).  Files are
named ``<map>-<width>x<height>-<what>.png``; a map that cannot be opened or a
preview that fails is reported on stderr and the rest go on.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from app.gui.layouts import GAME_MASTER  # noqa: E402
from app.gui.main_window import MainWindow  # noqa: E402
from app.gui.systems import previews_for  # noqa: E402
from app.gui.territory import TerritoryWindow  # noqa: E402
from engine.grids import Cell  # noqa: E402
from engine.io import load_any  # noqa: E402
from engine.territory import TerritoryScenario  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIZES = ((1280, 820), (1366, 768))


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


KEEP: set[str] | None = None
"""The file names a run may write (``None``: every shot)."""


def shot(w: QWidget, out: Path, name: str) -> None:
    if KEEP is not None and f"{name}.png" not in KEEP:
        return
    settle()
    w.grab().save(str(out / f"{name}.png"))


def far_cell(w: MainWindow, start: Cell, steps: int = 3) -> Cell:
    """A cell ``steps`` cells from ``start`` towards the map's middle."""
    grid = w.document.scenario.map.grid
    mid = Cell(grid.width // 2, grid.height // 2)
    c = start
    for _ in range(steps):
        nbrs = [n for n in grid.neighbours(c) if grid.contains(n)]
        if not nbrs:
            break
        c = min(nbrs, key=lambda n: (abs(n.col - mid.col) + abs(n.row - mid.row), n))
    return c


def point_at(w: MainWindow, cell: Cell) -> object:
    x, y = w.canvas.layout().center(cell)
    return w.canvas.map_to_view(x, y).toPoint()


def grid_shots(w: MainWindow, out: Path, stem: str) -> None:
    shot(w, out, f"{stem}-fit")
    s = w.document.scenario
    if not s.units:
        return
    w.set_tool("adjudicate")
    names = [p.name or type(p).__name__ for p in w._previews]
    unit = min(s.units, key=lambda u: u.id)
    for i, name in enumerate(names):
        try:
            w._preview_chosen(i)
            settle()
            vp = w.canvas.viewport()
            p = point_at(w, unit.at)
            QTest.mouseMove(vp, p)
            QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
            QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
            QTest.mouseMove(vp, point_at(w, far_cell(w, unit.at)))
            w.dock_legend.raise_()
            slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
            shot(w, out, f"{stem}-preview-{slug}")
            QTest.keyClick(vp, Qt.Key.Key_Escape)
        except Exception as e:  # a failing preview is reported, the rest go on
            print(f"{stem}: preview {name}: {e}", file=sys.stderr)


def territory_shots(w: TerritoryWindow, out: Path, stem: str) -> None:
    shot(w, out, f"{stem}-fit")
    for mode in ("railplan", "railoptions"):
        try:
            w.set_mode(mode)
        except Exception as e:  # a mode this map does not offer
            print(f"{stem}: mode {mode}: {e}", file=sys.stderr)
            continue
        shot(w, out, f"{stem}-{mode}")


def main(argv: list[str]) -> int:
    global KEEP
    parser = argparse.ArgumentParser(description="Screenshots of every sample map in its editor window.")
    parser.add_argument("out", nargs="?", type=Path, default=ROOT / "docs" / "screenshots",
                        help="the folder to write to (default: docs/screenshots)")
    parser.add_argument("--new", action="store_true",
                        help="write every shot, not only the files already in the folder")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    existing = {p.name for p in out.glob("*.png")}
    KEEP = None if args.new or not existing else existing
    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="adjutant-shots-"))
    for path in sorted((ROOT / "maps").glob("*.json")):
        for width, height in SIZES:
            stem = f"{path.stem}-{width}x{height}"
            settings = QSettings(str(tmp / f"{stem}.ini"), QSettings.Format.IniFormat)
            try:
                s = load_any(str(path))
                w: MainWindow | TerritoryWindow
                if isinstance(s, TerritoryScenario):
                    w = TerritoryWindow(s, str(path), settings, tmp / "state")
                else:
                    w = MainWindow(s, str(path), settings, tmp / "state", previews=previews_for())
            except Exception as e:
                print(f"{path.name}: {e}", file=sys.stderr)
                continue
            w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
            w.layouts.choose(GAME_MASTER)  # View > Layout > Game Master (app/gui/layouts.py)
            w.resize(width, height)
            w.show()
            settle()
            w.canvas.fit()
            legend = getattr(w, "dock_legend", None)
            if legend is not None:
                legend.raise_()
            if isinstance(w, TerritoryWindow):
                territory_shots(w, out, stem)
            else:
                grid_shots(w, out, stem)
            w.close()
            settle()
    del app
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
