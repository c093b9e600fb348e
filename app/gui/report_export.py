"""File > Export Report…: the game's play-by-post report, as ``adjutant
journal FILE --markdown --crops FOLDER`` writes it (``app/cli/journal.py``):
every journal entry with its verdict, reasons and result in words, and a
crop of the map for each order in a folder beside the report
(``<report>-crops/``), linked from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

REPORT_FILTER = "Markdown report (*.md);;All files (*)"


def crops_folder(report: Path) -> Path:
    """The folder of a report's map crops: ``<report's stem>-crops`` beside it."""
    return report.with_name(report.stem + "-crops")


def export_report(window: Any, path: str | None = None) -> bool:
    """Ask where (unless ``path``) and write the game's Markdown report with
    its crops; whether it was written (a map with no game, or a folder
    that cannot be written, is said in the error dialog and writes
    nothing)."""
    from engine.io.atomic import OutputError, write_text_atomic
    from engine.turns.report import markdown

    from . import background
    from .crops import write_crops
    from .export import ExportError

    game = window.turns.game()
    if game is None or not len(game.journal):
        window.show_error("Export Report", "There is nothing to report:",
                          ["this map has no game with journal entries yet (Game > Play as a Game, then give "
                           "orders)"])
        return False
    doc_path = window.document.path
    name = Path(doc_path).stem if doc_path else "game"
    if path is None:
        start = str(Path(doc_path).with_name(f"{name}-report.md")) if doc_path else f"{name}-report.md"
        path, _ = QFileDialog.getSaveFileName(window, "Export report", start, REPORT_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += ".md"
    report = Path(path)
    positions = list(range(len(game.journal)))
    folder = crops_folder(report)
    try:
        names = background.run_painting(window, f"Exporting {report.name}…", write_crops, game, positions, folder,
                                        name)
        crops = {i: f"{folder.name}/{n}" for i, n in names.items()}
        title = Path(doc_path).name if doc_path else window.document.display_name()
        write_text_atomic(report, markdown(game, positions, title, crops) + "\n")
    except (ExportError, OutputError, OSError) as e:
        window.show_error("Cannot export", f"{report.name} cannot be written:", [str(e)])
        return False
    window.statusBar().showMessage(f"Exported the report to {report} ({len(positions)} entries, "
                                   f"{len(crops)} map crops in {folder.name}/)", 10000)
    return True


__all__ = ["REPORT_FILTER", "crops_folder", "export_report"]
