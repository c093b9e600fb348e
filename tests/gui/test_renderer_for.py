"""One function picks the renderer of every map kind: ``renderer_for``
(``app/gui/render/__init__.py``), for grid and territory maps alike, and
drawing a grid map never loads the territory renderer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.gui.render import RENDERERS, HexRenderer, SquareRenderer, map_kind, renderer_for
from app.gui.render.territory import TerritoryRenderer
from engine.io import load_any

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def test_every_map_kind_has_its_renderer() -> None:
    assert set(RENDERERS) == {"square", "hex", "territory"}
    for path, cls in (("maps/railroad_module_europe.json", TerritoryRenderer),
                      ("maps/aa_rail_options.json", TerritoryRenderer)):
        s = load_any(ROOT / path)
        r = renderer_for(s)
        assert type(r) is cls and map_kind(s) == r.kind == "territory"
        assert (r.map_width, r.map_height) == (s.map.width, s.map.height)
    grids = [load_any(ROOT / "maps" / name) for name in ("cwol_mobile_columbus.json", "acw_short_campaign.json",
                                                          "gitm_lakes.json")]
    kinds = {map_kind(s): type(renderer_for(s)) for s in grids}
    assert kinds == {"square": SquareRenderer, "hex": HexRenderer}


def test_an_unknown_kind_is_named() -> None:
    from app.gui.render import renderer_class

    with pytest.raises(ValueError, match="no renderer for octagon maps"):
        renderer_class("octagon")


def test_drawing_a_grid_map_loads_no_territory_module() -> None:
    code = ("import os; os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
            "import sys\n"
            "from PySide6.QtWidgets import QApplication\n"
            "app = QApplication([])\n"
            "from engine.io import load_any\n"
            "from app.gui.render import renderer_for\n"
            f"r = renderer_for(load_any({str(ROOT / 'maps' / 'cwol_mobile_columbus.json')!r}))\n"
            "print(sorted(m for m in sys.modules if 'territory' in m))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
