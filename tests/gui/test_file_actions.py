"""File > Export Image… and File > Import TripleA Map… in both windows, and
``adjutant render`` of territory maps (issue 18, item 3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from defusedxml import ElementTree
from PySide6.QtGui import QColor, QImage
from test_nation_rail_panel import window as territory_window

from app.cli import main
from app.gui.main_window import MainWindow
from app.gui.render.territory import land_color
from app.gui.territory import TerritoryWindow
from engine.io import load_any

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
EUROPE = ROOT / "maps" / "railroad_module_europe.json"
GAME = """<?xml version="1.0"?><game><info name="Two" version="1"/><map>
<territory name="Alpha"/><territory name="Beta"/><connection t1="Alpha" t2="Beta"/></map>
<playerList><player name="Germans" optional="false"/><alliance player="Germans" alliance="Axis"/>
<player name="Italians" optional="false"/><alliance player="Italians" alliance="Axis"/></playerList>
<initialize><ownerInitialize><territoryOwner territory="Alpha" owner="Germans"/>
<territoryOwner territory="Beta" owner="Italians"/></ownerInitialize></initialize></game>"""
POLYGONS = "Alpha  <  (0,0) (100,0) (100,100) (0,100)  >\nBeta  <  (100,0) (200,0) (200,100) (100,100)  >\n"


def _near(img: QImage, colour: QColor) -> bool:
    return any(abs(img.pixelColor(x, y).red() - colour.red()) + abs(img.pixelColor(x, y).green() - colour.green())
               + abs(img.pixelColor(x, y).blue() - colour.blue()) < 10
               for x in range(0, img.width(), 9) for y in range(0, img.height(), 9))


def test_render_draws_territory_maps_as_png_and_svg(tmp_path: Path, qapp: Any,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "europe.png", tmp_path / "europe.svg"
    assert main(["render", str(EUROPE), "--out", str(png), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["map"] == "territory" and data["territories"] == 32 and max(data["width"], data["height"]) == 2000
    img = QImage(str(png))
    assert (img.width(), img.height()) == (data["width"], data["height"])
    s = load_any(EUROPE)
    assert _near(img, land_color(s, s.territory("Germany")))  # a territory's own fill, as the editor draws it
    assert main(["render", str(EUROPE), "--out", str(svg), "--scale", "2"]) == 0
    root = ElementTree.parse(svg).getroot()
    assert root.tag.endswith("svg") and root.get("viewBox", "").split()[2:] == [str(2 * s.map.width),
                                                                                str(2 * s.map.height)]
    assert main(["render", str(EUROPE), "--out", str(svg), "--labels"]) == 1
    assert "--labels is for grid maps" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["grid", "territory"])
def test_export_image_from_each_window(qtbot: Any, tmp_path: Path, kind: str, monkeypatch: Any) -> None:
    import threading

    from app.gui import export
    from app.gui.file_actions import export_image

    # it paints, so it runs on the GUI thread, never in a worker (app/gui/background.py)
    threads: list[bool] = []
    for name in ("export_map", "export_territory_map"):
        real = getattr(export, name)

        def spy(*a: Any, _real: Any = real, **k: Any) -> Any:
            threads.append(threading.current_thread() is threading.main_thread())
            return _real(*a, **k)

        monkeypatch.setattr(export, name, spy)

    if kind == "territory":
        w: Any = territory_window(qtbot, tmp_path, EUROPE)
    else:
        from test_editor_tools import open_window

        w = open_window(qtbot, tmp_path, load_any(ROOT / "maps" / "acw_short_campaign.json"))
    assert w.findChild(type(w.act_export_image), "actionExportImage") is not None
    out = tmp_path / f"{kind}.png"
    assert export_image(w, str(out))
    assert not QImage(str(out)).isNull() and "Exported" in w.statusBar().currentMessage()
    assert threads == [True]
    blocked = tmp_path / "missing-folder" / "x.png"
    assert not export_image(w, str(blocked))
    assert w.error_dialog is not None and "x.png" in w.error_dialog.windowTitle() + " ".join(
        [w.error_dialog.summary] + list(w.error_dialog.problems))


def test_import_triplea_from_both_windows(qtbot: Any, tmp_path: Path) -> None:
    from test_editor_tools import blank, open_window

    from app.gui.file_actions import import_triplea

    (tmp_path / "game.xml").write_text(GAME, encoding="utf-8")
    (tmp_path / "polygons.txt").write_text(POLYGONS, encoding="utf-8")
    t = territory_window(qtbot, tmp_path, EUROPE)
    got = import_triplea(t, str(tmp_path / "game.xml"))
    assert got is t and len(t.scenario.map) == 2 and t.document.is_modified() and t.document.path is None
    assert t.scenario.ruleset.option("railroads", "sharing", []) == [["germans", "italians"]]
    g: MainWindow = open_window(qtbot, tmp_path, blank("square"))
    other = import_triplea(g, str(tmp_path / "game.xml"))
    assert isinstance(other, TerritoryWindow) and other is not t and len(other.scenario.map) == 2
    other.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]  (closed below; it deletes itself)
    (tmp_path / "bad.xml").write_text("<game><map><territory name='A'/>", encoding="utf-8")
    before = t.document.text()
    assert import_triplea(t, str(tmp_path / "bad.xml")) is None
    assert t.error_dialog is not None and t.document.text() == before
    other.close()
