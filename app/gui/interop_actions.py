"""File > Import Tiled map… and File > Export Tiled map…: the editor's side of
:mod:`engine.io.tiled`.

:func:`import_tiled` asks for a Tiled map (TMX or JSON) and, optionally, a
terrain map file (:mod:`app.gui.dialogs.import_tiled`), reads it and returns
the scenario (``None`` when cancelled or refused; a refusal shows the
importer's message in an error dialog, never a traceback).  Tile ids without
a terrain are listed in a dialog, not dropped.  :func:`export_tiled` asks for
``.tmx`` or ``.json`` and writes the map with its generated tileset image
beside it.  :func:`export_vassal` writes a VASSAL module (``docs/vassal.md``;
the save dialog's file type picks VASSAL 3.7 or 3.8) and shows what VASSAL
will name differently, if anything.  :func:`add_actions` is what
``MainWindow`` calls to put them in its File menu.  ``path=`` skips the file dialog (tests, scripts).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QWidget

from engine.io import OutputError
from engine.io import tiled as interop
from engine.io.tiled import ExportReport, TerrainMap, TiledError
from engine.model import Scenario

from .dialogs import import_tiled as import_dialog
from .dialogs.error import ErrorDialog

EXPORT_FILTER = "Tiled map (*.tmx);;Tiled JSON map (*.json *.tmj)"


def _show(parent: QWidget | None, title: str, summary: str, problems: list[str]) -> ErrorDialog:
    """The window's own error dialog when it has one, else a new one; never
    blocks (``open``, not ``exec``)."""
    show = getattr(parent, "show_error", None)
    if callable(show):
        dlg: ErrorDialog = show(title, summary, problems)
        return dlg
    dlg = ErrorDialog(parent, title, summary, problems)
    dlg.open()
    return dlg


def _status(parent: QWidget | None, text: str) -> None:
    bar = getattr(parent, "statusBar", None)
    if callable(bar):
        bar().showMessage(text, 8000)


def import_tiled(parent: QWidget | None, path: str | None = None,
                 terrain_map: str | TerrainMap | None = None) -> Scenario | None:
    """Ask for a Tiled map and an optional terrain map file (unless
    ``path``) and import it; ``None`` when cancelled or when the map or the
    terrain map is refused (the message is shown)."""
    if path is None:
        answer = import_dialog.ask_import(parent)
        if answer is None:
            return None
        path, terrain_map = answer
    try:
        result = interop.import_tiled(path, terrain_map)
    except TiledError as e:
        _show(parent, "Cannot import", f"{Path(path).name} cannot be imported:", [str(e)])
        return None
    r = result.report
    if r.unmapped:
        n = len(r.unmapped)
        _show(parent, "Tiled import: tiles without a terrain",
              f"{n} tile id{'s' if n != 1 else ''} of {Path(path).name} had no 'terrain' property and no entry in a "
              "terrain map; each became a new terrain type:",
              [t.describe() for t in r.unmapped] + [f"note: {x}" for x in r.notes])
    _status(parent, f"Imported {r.width} x {r.height} {r.orientation} Tiled map {path}")
    return result.scenario


def export_tiled(parent: QWidget | None, scenario: Scenario, path: str | None = None) -> ExportReport | None:
    """Ask where (unless ``path``) and export ``scenario`` as a Tiled map:
    TMX unless the name ends ``.json``/``.tmj``.  ``None`` when cancelled or
    when writing failed (the message is shown)."""
    if path is None:
        path, chosen = QFileDialog.getSaveFileName(parent, "Export Tiled map", "", EXPORT_FILTER)
        if not path:
            return None
        if not path.lower().endswith((".tmx", ".json", ".tmj")):
            path += ".json" if "JSON" in chosen else ".tmx"
    if not isinstance(scenario, Scenario):
        _show(parent, "Cannot export", "Tiled export is for square and hex grid maps, not territory maps.", [])
        return None
    try:
        rep = interop.export_tiled(scenario, path)
    except (TiledError, OutputError, OSError) as e:
        _show(parent, "Cannot export", f"{Path(path).name} cannot be written:", [str(e)])
        return None
    _status(parent, f"Exported Tiled map {rep.path}" + (f" and tileset {rep.image}" if rep.image else ""))
    return rep


VASSAL_FILTER = "VASSAL 3.7 module (*.vmod);;VASSAL 3.8 module (*.vmod)"


def export_vassal(parent: QWidget | None, scenario: Scenario, path: str | None = None,
                  version: str = "3.7") -> Any:
    """Ask where (unless ``path``; the chosen file type gives the VASSAL
    version) and write ``scenario`` as a VASSAL module.  Returns the
    module's plan, or ``None`` when cancelled or refused (the reason is
    shown; nothing is written).  Warnings (labels VASSAL writes
    differently) are shown in a dialog after the module is written."""
    if path is None:
        path, chosen = QFileDialog.getSaveFileName(parent, "Export VASSAL module", "", VASSAL_FILTER)
        if not path:
            return None
        if not path.lower().endswith(".vmod"):
            path += ".vmod"
        version = "3.8" if "3.8" in chosen else "3.7"
    if not isinstance(scenario, Scenario):
        _show(parent, "Cannot export", "VASSAL export is for square and hex grid maps, not territory maps.", [])
        return None
    from engine.io.vassal import VassalError

    from .vassal_export import export_vassal as write

    try:
        plan = write(scenario, path, version=version)
    except (VassalError, OutputError, OSError) as e:
        _show(parent, "Cannot export", f"{Path(path).name} was not written:", [str(e)])
        return None
    if plan.warnings:
        _show(parent, "VASSAL module written, with differences",
              f"{Path(path).name} is written; VASSAL will show these things differently:", list(plan.warnings))
    _status(parent, f"Exported VASSAL {plan.vassal_version} module {path}: {len(plan.pieces)} units")
    return plan


def add_actions(window: Any, menu: Any) -> tuple[QAction, QAction, QAction]:
    """Add File > Import Tiled map…, Export Tiled map… and Export VASSAL
    Module… to ``menu`` of ``window`` (a ``MainWindow``: ``document``,
    ``maybe_save``)."""

    def do_import() -> None:
        if not window.maybe_save():
            return
        s = import_tiled(window)
        if s is not None:
            window.document.replace(s, None)

    def do_export() -> None:
        export_tiled(window, window.document.scenario)

    imp = QAction("Import Tiled map…", window)
    imp.setObjectName("actionImportTiled")
    imp.triggered.connect(do_import)
    exp = QAction("Export Tiled map…", window)
    exp.setObjectName("actionExportTiled")
    exp.triggered.connect(do_export)
    vmod = QAction("Export VASSAL Module…", window)
    vmod.setObjectName("actionExportVassal")
    vmod.setStatusTip("Write the map, its numbering and the units' set-up as a module VASSAL opens")
    vmod.triggered.connect(lambda: export_vassal(window, window.document.scenario))
    menu.addAction(imp)
    menu.addAction(exp)
    menu.addAction(vmod)
    return imp, exp, vmod
