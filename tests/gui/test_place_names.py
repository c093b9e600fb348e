"""Place names are never hidden by counters, nor run together (issue 18,
item 5: counters covered Elkwood, Aldie, Bristoe, Catlett; names ran into
each other at the whole-map zoom).  Measured on the renderer's own layout
(``TopPass.place_name_rects`` / ``counter_rects``: where the top pass draws
them) for every grid sample, at its fit zoom in a 1280x820 window and zoomed
in; and the counters show text at the samples' fit zoom once they are big
enough to hold a number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect
from window_kit import open_map

from app.gui.render import style
from engine.io import load_any
from engine.model import Scenario

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
GRID_SAMPLES = sorted(p.name for p in (ROOT / "maps").glob("*.json") if isinstance(load_any(p), Scenario))


@pytest.mark.parametrize("sample", GRID_SAMPLES)
def test_no_place_name_meets_a_counter_or_another_name(qtbot: Any, tmp_path: Path, sample: str) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, previews=[])
    r = w.canvas.renderer()
    s = w.document.scenario
    for zoom in (w.canvas.zoom(), w.canvas.zoom() * 2.5):
        width, height = r.scene_size(zoom)
        cols, rows = r.cell_ranges(zoom, QRect(0, 0, width, height))
        names = r.place_name_rects(zoom, cols, rows)
        counters = list(r.counter_rects(zoom, cols, rows).values())
        if r.cell_px(zoom) < style.PLACE_NAME_MIN_PX or not s.map.places:
            continue
        assert names, f"{sample}: no place name drawn at zoom {zoom:.2f}"
        rects = [rect for rect, _img in names.values()]
        for cell, (rect, _img) in names.items():
            hit = [c for c in counters if c.intersects(rect)]
            assert not hit, f"{sample} at zoom {zoom:.2f}: '{s.map.places[cell].name}' meets a counter"
        for i, a in enumerate(rects):
            assert not any(a.intersects(b) for b in rects[i + 1:]), f"{sample}: two names run together"
        if zoom > w.canvas.zoom():  # zoomed in, every name has room
            assert len(names) == len([c for c in s.map.places if cols.start <= c.col < cols.stop
                                      and rows.start <= c.row < rows.stop]), sample


@pytest.mark.parametrize("sample", GRID_SAMPLES)
def test_counters_show_their_strength_at_every_samples_whole_map_zoom(qtbot: Any, tmp_path: Path,
                                                                      sample: str) -> None:
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, previews=[])
    r = w.canvas.renderer()
    size = round(r.counter_size(w.canvas.zoom()))
    assert size >= style.COUNTER_SMALL_TEXT_MIN_PX, f"{sample}: counters of {size} px at the whole-map zoom"
    if not w.document.scenario.units:
        return
    unit = w.document.scenario.units[0]
    img = r.counter_sprite(unit, 1, size)
    inks = {img.pixel(x, y) for x in range(img.width()) for y in range(img.height())}
    blank = r.counter_sprite(unit, 1, int(style.COUNTER_SMALL_TEXT_MIN_PX) - 2)
    assert len(inks) > len({blank.pixel(x, y) for x in range(blank.width()) for y in range(blank.height())}) + 5


@pytest.mark.parametrize("sample", ["railroad_module_europe.json", "aa_rail_options.json"])
def test_territory_labels_never_run_together(qtbot: Any, tmp_path: Path, sample: str) -> None:
    """Issue 18, item 5: "Germany 20Western Poland 2"."""
    w = open_map(qtbot, tmp_path, ROOT / "maps" / sample, size=(1366, 768))
    r = w.canvas.renderer()
    for z in (w.canvas.zoom(), w.canvas.zoom() * 3):
        placed = r.label_layout(z)
        rects = [(tid, r.label_rect(tid, text, z)) for tid, text in placed.items()]
        assert len(rects) >= len(w.scenario.map) // 2, f"{sample}: only {len(rects)} labels at zoom {z:.2f}"
        for i, (a, ra) in enumerate(rects):
            for b, rb in rects[i + 1:]:
                assert not ra.intersects(rb), f"{sample} at zoom {z:.2f}: labels of {a} and {b} meet"
    if sample == "railroad_module_europe.json":
        assert r.label_layout(w.canvas.zoom())["germany"] == "Germany 20"  # the most valuable keeps its name
