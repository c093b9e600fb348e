"""The inspector: everything about the selected unit, or the selected cell
(label, terrain, control, place, rivers, links, units there)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from engine.grids import Cell
from engine.model import ModelError, Scenario

from ..overlay import counted
from ..tools.base import EditorState


def describe_cell(s: Scenario, cell: Cell) -> list[tuple[str, str]]:
    """Rows (name, value) describing a cell, in words."""
    m = s.map
    t = s.ruleset.terrain[m.terrain_at(cell)]
    ctrl = s.controller(cell)
    rows = [("Cell", m.label(cell)), ("Terrain", f"{t.name} (cost {t.move_cost}" + (", impassable" if t.impassable else "") + ")"),
            ("Control", ctrl.name if ctrl else "nobody")]
    place = m.places.get(cell)
    if place:
        rows.append(("Place", place.name + (f" ({place.code})" if place.code else "")))
    rivers = [m.label(e.other(cell)) for e in m.grid.edges_of(cell) if e in m.rivers]
    if rivers:
        bridges = [f"{m.label(e.other(cell))} ({k})" for e, k in m.bridges.items() if cell in (e.a, e.b)]
        rows.append(("River towards", ", ".join(rivers)))
        if bridges:
            rows.append(("Bridge towards", ", ".join(bridges)))
    for kind in sorted(m.links):
        linked = m.linked_neighbours(kind, cell)
        if linked:
            rows.append((kind.capitalize() + " to", ", ".join(m.label(c) for c in linked)))
    units = s.units_at(cell)
    if units:
        rows.append(("Units", ", ".join(f"{u.id} ({u.side} {u.type} {u.strength})" for u in units)))
    return rows


class InspectorPanel(QWidget):
    def __init__(self, state: EditorState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.label = QLabel()
        self.label.setObjectName("inspectorText")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setWidget(self.label)
        lay.addWidget(area)
        state.selectedCellChanged.connect(lambda _c: self.refresh())
        state.selectedUnitChanged.connect(lambda _u: self.refresh())
        state.document.edited.connect(lambda _t: self.refresh())
        state.document.scenarioReplaced.connect(lambda _s: self.refresh())
        self.refresh()

    def text(self) -> str:
        return self.label.text()

    def refresh(self) -> None:
        s = self.state.document.scenario
        rows: list[tuple[str, str]] = []
        title = ""
        if self.state.selected_unit is not None:
            try:
                u = s.unit(self.state.selected_unit)
            except ModelError:
                u = None
            if u is not None:
                title = f"Unit {u.id}"
                side = next((f.name for f in s.sides if f.id == u.side), u.side)
                rows = [("Id", u.id), ("Name", u.name or "—"), ("Side", side), ("Type", u.type),
                        ("Factors", str(u.strength)), ("Cell", s.map.label(u.at))]
                rows += [(k, str(v)) for k, v in sorted(u.props.items())]
        if not rows and self.state.selected_cell is not None and s.map.grid.contains(self.state.selected_cell):
            title = f"Cell {s.map.label(self.state.selected_cell)}"
            rows = describe_cell(s, self.state.selected_cell)
        if not rows:
            self.label.setText(f"<b>{escape(s.name)}</b><br>{escape(s.map.grid.kind.value)} map "
                               f"{s.map.width} x {s.map.height}, {counted(len(s.units), 'unit')}<br>"
                               "<i>Click a cell or a unit to inspect it.</i>")
            return
        body = "".join(f"<tr><td><b>{escape(k)}</b>&nbsp;</td><td>{escape(v)}</td></tr>" for k, v in rows)
        self.label.setText(f"<b>{escape(title)}</b><table>{body}</table>")
