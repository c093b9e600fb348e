"""File > Import Tiled map…: which Tiled map, and optionally which terrain
map file says what its tile ids are (the editor's ``--terrain-map``)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

MAP_FILTER = "Tiled maps (*.tmx *.tmj *.json *.tmx.gz);;All files (*)"
TERRAIN_MAP_FILTER = "Terrain maps (*.json);;All files (*)"


class ImportTiledDialog(QDialog):
    """Two file fields with Browse… buttons; OK needs a map."""

    def __init__(self, parent: QWidget | None, map_path: str = "", terrain_map: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Import Tiled map")
        form = QFormLayout(self)
        self.map_path = QLineEdit(map_path)
        self.map_path.setPlaceholderText("a .tmx or Tiled .json map, square or hexagonal")
        self.terrain_map = QLineEdit(terrain_map)
        self.terrain_map.setPlaceholderText("optional: which tile ids are which terrain")
        form.addRow("Tiled map", self._with_browse(self.map_path, "Tiled map", MAP_FILTER))
        form.addRow("Terrain map", self._with_browse(self.terrain_map, "Terrain map", TERRAIN_MAP_FILTER))
        hint = QLabel("Without a terrain map, each tile's <i>terrain</i> property names its terrain; "
                      "tiles with neither become new terrain types, listed after the import "
                      "(docs/tiled.md).")
        hint.setWordWrap(True)
        form.addRow(hint)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.map_path.textChanged.connect(self._update_ok)
        self._update_ok()
        self.resize(560, self.sizeHint().height())

    def _with_browse(self, line: QLineEdit, title: str, filter_: str) -> QWidget:
        row = QWidget(self)
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        button = QPushButton("Browse…", row)
        button.setObjectName(f"browse{title.replace(' ', '')}")
        button.clicked.connect(lambda: self._browse(line, title, filter_))
        lay.addWidget(line, 1)
        lay.addWidget(button)
        return row

    def _browse(self, line: QLineEdit, title: str, filter_: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, title, line.text().strip(), filter_)
        if path:
            line.setText(path)

    def _update_ok(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.map_path.text().strip()))

    def values(self) -> tuple[str, str | None]:
        """(map path, terrain map path or ``None``)."""
        return self.map_path.text().strip(), self.terrain_map.text().strip() or None


def ask_import(parent: QWidget | None, terrain_map: str = "") -> tuple[str, str | None] | None:
    """Show the dialog; ``None`` when cancelled."""
    dlg = ImportTiledDialog(parent, terrain_map=terrain_map)
    return dlg.values() if dlg.exec() == QDialog.DialogCode.Accepted else None
