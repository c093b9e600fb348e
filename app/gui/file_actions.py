"""File > Export Image… and File > Import TripleA Map… in both editor
windows: what ``adjutant render`` and ``adjutant
import-triplea`` do, from the menus.

* **Export Image…** writes the whole map as PNG or SVG, drawn as the editor
  draws it (``app/gui/export.py``: ``export_map`` for grid maps at 24
  pixels a cell, ``export_territory_map`` for territory maps fitted to 2000
  pixels), through the one safe writer.
* **Import TripleA Map…** reads a TripleA game XML, with the map folder's
  ``polygons.txt`` and ``centers.txt`` when they sit beside it (TripleA's
  layout), and shows the result as an untitled territory map: in this
  window when it is a territory window holding no unsaved work, else in a
  new territory window.  Module I's rail-sharing groups follow the document
  (``docs/rules/railroads.md``, decision 9).

Errors are the window's error dialog, naming the file; nothing is changed
by a failed import or export.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

IMAGE_FILTER = "PNG image (*.png);;SVG image (*.svg)"
TRIPLEA_FILTER = "TripleA game (*.xml);;All files (*)"


def export_image(window: Any, path: str | None = None) -> bool:
    """Ask where (unless ``path``) and write the window's map as an image."""
    from engine.territory import TerritoryScenario

    from . import export

    s = window.document.scenario
    if path is None:
        start = str(Path(window.document.path).with_suffix(".png")) if window.document.path else f"{s.name}.png"
        path, chosen = QFileDialog.getSaveFileName(window, "Export image", start, IMAGE_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += ".svg" if chosen.startswith("SVG") else ".png"
    from . import background

    try:  # on the GUI thread: it paints (app/gui/background.py)
        if isinstance(s, TerritoryScenario):
            w, h = background.run_painting(window, f"Exporting {Path(path).name}…", export.export_territory_map,
                                           s, path)
        else:
            w, h = background.run_painting(window, f"Exporting {Path(path).name}…", export.export_map, s, path,
                                           export.DEFAULT_SCALE)
    except export.ExportError as e:
        window.show_error("Cannot export", f"{Path(path).name} cannot be written:", [str(e)])
        return False
    window.statusBar().showMessage(f"Exported {path} ({w} x {h} pixels)", 10000)
    return True


def import_triplea(window: Any, path: str | None = None) -> Any:
    """Ask for (unless ``path``) a TripleA game and open it as an untitled
    territory map; the window that shows it, or ``None``."""
    from engine.io.triplea import TripleAError, parse_centers, parse_game_xml, parse_polygons, to_scenario

    if path is None:
        path, _ = QFileDialog.getOpenFileName(window, "Import TripleA map", "", TRIPLEA_FILTER)
        if not path:
            return None
    game_path = Path(path)
    folder = game_path.parent
    polygons, centers = folder / "polygons.txt", folder / "centers.txt"
    from engine.io.inputs import read_regular
    from engine.io.triplea import MAX_XML_BYTES

    from . import background

    def read(p: Path) -> bytes:
        return read_regular(p, MAX_XML_BYTES, lambda message: TripleAError(f"{p}: {message}"))

    def work() -> tuple[Any, bool]:
        game = parse_game_xml(read(game_path), str(game_path))
        poly = parse_polygons(read(polygons).decode("utf-8-sig"), str(polygons)) if polygons.is_file() else None
        cent = parse_centers(read(centers).decode("utf-8-sig"), str(centers)) if centers.is_file() else None
        return to_scenario(game, poly, cent), poly is not None

    try:
        result, poly = background.run(window, f"Importing {game_path.name}…", work)
    except background.Cancelled:
        window.statusBar().showMessage("Import cancelled; nothing changed", 5000)
        return None
    except (TripleAError, UnicodeDecodeError, ValueError) as e:
        window.show_error("Cannot import", f"{game_path.name} cannot be imported:", [str(e)])
        return None
    s = result.scenario
    target = window.window_for(s)
    target.document.replace(s, None, modified=True)  # unsaved: closing asks where to save it
    note = f"; {len(result.warnings)} warning(s): " + "; ".join(result.warnings[:3]) if result.warnings else ""
    what = "with polygons" if poly else "without polygons (no polygons.txt beside it)"
    target.statusBar().showMessage(f"Imported {game_path.name}: {len(s.map)} territories, {what}{note}", 15000)
    return target


def add_actions(window: Any, menu: Any) -> tuple[QAction, QAction]:
    """Add File > Import TripleA Map… and File > Export Image… to ``menu``."""
    imp = QAction("Import TripleA Map…", window)
    imp.setObjectName("actionImportTripleA")
    imp.setStatusTip("Open a TripleA game (its polygons.txt and centers.txt beside it) as a territory map")
    imp.triggered.connect(lambda: import_triplea(window))
    exp = QAction("Export Image…", window)
    exp.setObjectName("actionExportImage")
    exp.setStatusTip("Write the whole map as a PNG or SVG image, drawn as the editor draws it")
    exp.triggered.connect(lambda: export_image(window))
    menu.addAction(imp)
    menu.addAction(exp)
    return imp, exp


__all__ = ["add_actions", "export_image", "import_triplea"]
