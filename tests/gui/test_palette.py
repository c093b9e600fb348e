"""Side palettes (issue 18, item 5): a colour-blind-safe default, View >
Palette to switch to the scenario's own colours, and control borders drawn
as a dashed band so they cannot be mistaken for a river."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QSettings

from app.gui.main_window import MainWindow
from app.gui.render import style
from app.gui.systems import previews_for
from engine.io import load_any

pytestmark = pytest.mark.gui

ACW = str(Path(__file__).resolve().parents[2] / "maps" / "acw_short_campaign.json")


@pytest.fixture(autouse=True)
def _default_palette() -> Any:
    yield
    style.set_palette(style.PALETTES[0])


def test_side_colours_by_palette() -> None:
    s = load_any(ACW)
    assert style.palette() == "Colour-blind safe"
    assert [style.side_color(s.sides, i).name() for i in range(len(s.sides))] == list(style.OKABE_ITO[:len(s.sides)])
    style.set_palette("Scenario colours")
    assert [style.side_color(s.sides, i).name() for i in range(len(s.sides))] == [
        style.qcolor(f.color).name() for f in s.sides]
    with pytest.raises(ValueError, match="unknown palette 'Neon' \\(palettes: Colour-blind safe, Scenario colours\\)"):
        style.set_palette("Neon")


def test_view_palette_switches_the_canvas_and_legend(qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(load_any(ACW), ACW, settings, tmp_path / "state", previews=previews_for())
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1280, 820)
    w.show()
    qtbot.waitExposed(w)
    assert w.palette_actions["Colour-blind safe"].isChecked()
    row = w.legend.texts().index("Controlled by Rebels")
    before = w.legend.item(row).icon().pixmap(40, 40).toImage()
    qtbot.wait(50)  # the first fit settles
    frame = w.canvas.grab().toImage()
    w.palette_actions["Scenario colours"].trigger()
    assert style.palette() == "Scenario colours" and w.palette_actions["Scenario colours"].isChecked()
    assert w.legend.item(row).icon().pixmap(40, 40).toImage() != before
    assert w.canvas.grab().toImage() != frame
    w.palette_actions["Colour-blind safe"].trigger()
    # back to the default: the same picture (a few antialiased pixels aside)
    again = w.canvas.grab().toImage()
    a, b = pixels(frame), pixels(again)
    assert a.shape == b.shape and (a != b).mean() < 0.001


def pixels(img: Any) -> np.ndarray:
    return np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine()).copy()


def test_control_does_not_tint_impassable_water() -> None:
    from app.gui.render import renderer_for

    s = load_any(str(Path(ACW).parent / "cwol_mobile_columbus.json"))
    r = renderer_for(s)
    lut = r._lut(True, True, False)
    nsides = len(s.sides) + 1
    water = next(i for i, t in enumerate(s.ruleset.terrain) if t.impassable)
    clear = next(i for i, t in enumerate(s.ruleset.terrain) if not t.impassable)
    # (level 0, terrain, control + 1): held water keeps its colour, held land is tinted
    assert lut[water * nsides + 1] == lut[water * nsides + 0]
    assert lut[clear * nsides + 1] != lut[clear * nsides + 0]
