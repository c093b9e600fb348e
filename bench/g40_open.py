"""Opening the imported TripleA Global 1940 map (target: it opens in
≤ 1.5 s).

The game XML, polygons and centres are read from where the tests find them
(``tests/conftest.py``: ``ADJUTANT_TRIPLEA_G40`` or ``../shared/data/
triplea-g40/`` beside the clone; never copied into the repository) and
imported once into a temporary scenario file, as ``adjutant import-triplea
--wrap-x`` writes it.  Then, ``RUNS`` times in one running application (the
Qt and module imports are the application's start-up, not the open):

* **load**: the file read and checked as File > Open reads it
  (:func:`engine.io.load_text_checked`);
* **window**: the territory window built on it, shown at 1280×820 and its
  first frame painted (``grab``), then closed.

CPU (``time.process_time``) and wall, median and p95, and the machine's
load.  Skipped, saying why, without the data.  Exit 1 when the median of
load + window misses the target.

Run: ``python -m bench.g40_open [--quick]``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 1.5
ENV = "ADJUTANT_TRIPLEA_G40"


def data_folder() -> Path:
    folder = os.environ.get(ENV)
    return Path(folder) if folder else ROOT.parent / "shared" / "data" / "triplea-g40"


def import_g40(folder: Path, out: Path) -> None:
    from engine.io import save_any
    from engine.io.triplea import parse_centers, parse_game_xml, parse_polygons, to_scenario

    game = parse_game_xml((folder / "ww2global40_2nd_edition.xml").read_bytes(), "ww2global40_2nd_edition.xml")
    polygons = parse_polygons((folder / "polygons.txt").read_text(encoding="utf-8-sig"), "polygons.txt")
    centers = parse_centers((folder / "centers.txt").read_text(encoding="utf-8-sig"), "centers.txt")
    save_any(to_scenario(game, polygons, centers, wrap_x=True).scenario, out)


def median_p95(xs: list[float]) -> tuple[float, float]:
    s = sorted(xs)
    return s[len(s) // 2], s[min(len(s) - 1, int(len(s) * 0.95))]


def main() -> int:
    runs = 3 if "--quick" in sys.argv else 9
    folder = data_folder()
    needed = [folder / n for n in ("ww2global40_2nd_edition.xml", "polygons.txt", "centers.txt")]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        print(f"skipped: the TripleA Global 1940 files are not there ({', '.join(missing)}); set {ENV} to the "
              f"folder holding them")
        return 0
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.gui.territory import TerritoryWindow
    from engine.io import load_text_checked

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory(prefix="adjutant-bench-") as d:
        path = Path(d) / "g40.json"
        import_g40(folder, path)
        settings = QSettings(str(Path(d) / "settings.ini"), QSettings.Format.IniFormat)
        rows: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in ("load", "window", "total")}
        for _ in range(runs):
            c0, w0 = time.process_time(), time.perf_counter()
            s = load_text_checked(path)
            c1, w1 = time.process_time(), time.perf_counter()
            win = TerritoryWindow(s, str(path), settings=settings, state_dir=Path(d) / "state")
            win.resize(1280, 820)
            win.show()
            app.processEvents()
            win.grab()
            c2, w2 = time.process_time(), time.perf_counter()
            for k, (c, w) in (("load", (c1 - c0, w1 - w0)), ("window", (c2 - c1, w2 - w1)),
                              ("total", (c2 - c0, w2 - w0))):
                rows[k][0].append(c)
                rows[k][1].append(w)
            win.close()
            win.deleteLater()
            app.processEvents()
        print(f"Opening Global 1940 ({len(s.map)} territories): {runs} runs in one application; machine: "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; seconds")
        print(f"{'step':8} {'CPU med':>8} {'CPU p95':>8} {'wall med':>9} {'wall p95':>9}")
        for k, (c, w) in rows.items():
            (cm, cp), (wm, wp) = median_p95(c), median_p95(w)
            print(f"{k:8} {cm:8.3f} {cp:8.3f} {wm:9.3f} {wp:9.3f}")
        total = median_p95(rows["total"][0])[0]
        ok = total <= TARGET_S
        print(f"target: load + window ≤ {TARGET_S} s CPU (median): {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
