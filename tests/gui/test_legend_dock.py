"""The legend dock of the grid editor (issue 18): it lists what the map
shows, painted by the canvas's own painter, follows map switches (A -> B ->
A) and shows the current preview's symbols."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings
from test_window_lifetimes import grid_window

from app.gui.docks.legend import swatch
from app.gui.overlay import CellMark, Marker, Overlay, PathLine
from engine.grids import Cell
from engine.io import load_any
from engine.model import NO_SIDE, Scenario

pytestmark = pytest.mark.gui

MAPS = Path(__file__).resolve().parents[2] / "maps"
ACW = str(MAPS / "acw_short_campaign.json")
CWOL = str(MAPS / "cwol_mobile_columbus.json")


def expected_rows(s: Scenario) -> list[str]:
    """What the legend should say for ``s``, from the scenario alone."""
    m = s.map
    rows = [f"Terrain: {s.ruleset.terrain[int(i)].name}" for i in np.unique(m.terrain)]
    rows += [f"Controlled by {s.sides[int(i)].name}" for i in np.unique(m.control) if int(i) != NO_SIDE]
    if m.rivers:
        rows.append("River (along cell sides)")
    rows += [k.capitalize() for k in ("rail", "road") if m.links.get(k)]
    rows += [f"{k.capitalize()} bridge" for k in sorted(set(m.bridges.values()))]
    if m.places:
        rows.append("Place (town or lettered city)")
    names = {t.id: t.name for t in s.ruleset.unit_types}
    rows += [f"Unit: {names.get(t, t)} ({s.side(side).name})" for side, t in sorted({(u.side, u.type) for u in s.units})]
    return rows


def test_the_legend_follows_map_switches(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path, ACW)
    assert w.dock_legend.toggleViewAction() in w.menuBar().actions()[2].menu().actions()
    acw = w.legend.texts()
    assert acw == expected_rows(w.document.scenario)
    assert {"Terrain: Woods", "River (along cell sides)", "Road bridge", "Unit: Infantry (Union)"} <= set(acw)
    assert w.open_file(CWOL)
    cwol = w.legend.texts()
    assert cwol == expected_rows(w.document.scenario)
    assert "Terrain: Pine barrens" in cwol and "River (along cell sides)" not in cwol
    assert w.open_file(ACW)
    assert w.legend.texts() == acw


def test_swatches_are_the_maps_own_pixels(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path, ACW)
    r = w.canvas.renderer()
    assert r is not None
    s = w.document.scenario
    woods = s.ruleset.terrain_index("woods") if any(t.id == "woods" for t in s.ruleset.terrain) else 1
    rows, cols = np.nonzero(s.map.terrain == woods)
    c = Cell(int(cols[0]), int(rows[0]))
    img = swatch(r, r.layout.center(c), ("terrain",))
    # the swatch's centre is the terrain's colour as the renderer paints it
    want = s.ruleset.terrain[woods].color.lower()
    assert img.pixelColor(img.width() // 2, img.height() // 2).name() == want
    # and the legend's rows all carry a swatch
    assert all(not w.legend.item(i).icon().isNull() for i in range(w.legend.count()))


def test_the_legend_shows_the_previews_symbols(qtbot, tmp_path) -> None:
    w = grid_window(qtbot, tmp_path, ACW)
    base = w.legend.texts()
    ov = Overlay((PathLine((Cell(2, 2), Cell(3, 2)), "#ffffff", 3.0, tooltip="march path"),
                  Marker(Cell(3, 2), "star", "#ff0000", tooltip="stop point"),
                  CellMark(Cell(4, 4), fill="#80ff0000"), CellMark(Cell(5, 4), fill="#80ff0000")))
    w.canvas.set_overlay("preview", ov)
    rows = w.legend.texts()
    assert rows[:len(base)] == base
    assert rows[len(base):] == ["Preview: path — march path", "Preview: star marker — stop point",
                                "Preview: shaded cell"]
    w.canvas.set_overlay("preview", None)
    assert w.legend.texts() == base


def test_a_symbol_seen_before_is_not_painted_again(qtbot, tmp_path, monkeypatch) -> None:
    """A hover switching between a blocked and a clear march swaps rows
    without painting their swatches again; a new map paints them anew."""
    from app.gui.docks import legend

    w = grid_window(qtbot, tmp_path, ACW)
    painted: list[int] = []
    real = legend.swatch

    def spy(*a, **k):  # type: ignore[no-untyped-def]
        painted.append(1)
        return real(*a, **k)

    monkeypatch.setattr(legend, "swatch", spy)
    clear = Overlay((PathLine((Cell(2, 2), Cell(3, 2)), "#1f7a34", 3.0, tooltip="clear"),))
    blocked = Overlay((PathLine((Cell(2, 2), Cell(3, 2)), "#e0201a", 3.0, tooltip="blocked"),
                       CellMark(Cell(3, 2), fill="#e03c3150", outline="#e0201a")))
    for ov in (clear, blocked, clear, blocked, clear):
        w.canvas.set_overlay("preview", ov)
    assert len(painted) == 3  # the green line, the red line, the red square: once each
    assert w.legend.texts()[-1] == "Preview: path — clear"
    w.legend.set_scenario(w.document.scenario)  # paints the map's rows
    before = len(painted)
    w.legend.show_overlay(clear)
    assert len(painted) == before + 1


def test_the_territory_legend_follows_its_map(qtbot, tmp_path) -> None:
    from app.gui.territory import TerritoryWindow
    from engine.territory import TerritoryScenario

    def open_territory(path: str) -> TerritoryWindow:
        s = load_any(path)
        assert isinstance(s, TerritoryScenario)
        settings = QSettings(str(tmp_path / "t.ini"), QSettings.Format.IniFormat)
        w = TerritoryWindow(s, path, settings, tmp_path / "state")
        w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        return w

    europe = str(MAPS / "railroad_module_europe.json")
    w = open_territory(europe)
    s = w.scenario
    rows = w.legend.texts()
    held = {t.controller for t in s.map.territories.values() if not t.sea}
    assert [r for r in rows if r.startswith("Held by ")] == (
        [f"Held by {side.name}" for side in s.sides if side.id in held] + (["Held by nobody"] if None in held else []))
    assert "Sea zone" in rows
    assert "Unit: Infantry (Germany)" in rows and "Unit: Armor (Germany)" in rows
    assert all(not w.legend.item(i).icon().isNull() for i in range(w.legend.count()))
    assert w.open_file(str(MAPS / "aa_rail_options.json"))
    other = w.legend.texts()
    assert other != rows and "Sea zone" in other
    assert w.open_file(europe)
    assert w.legend.texts() == rows
