"""Map crops in the play-by-post report (issue 15 item 5; ``app/gui/crops.py``,
``adjutant journal FILE --markdown --crops DIR``).

Every order of every rules system, carried out or refused, gets a PNG of the
map area it concerns as it was after the order, linked under the order in the
Markdown; the concerned cells are outlined in the verdict's colour (green
carried out, vermilion refused) on grid maps, the concerned territories
selected on territory maps."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QImage

from app.cli import main
from app.gui.crops import CARRIED_OUT, REFUSED

ROOT = Path(__file__).resolve().parents[1]

GAMES = {  # system: (sample, phases to end first, an order the side to move may give)
    "acw": ("acw_short_campaign.json", 0, {"unit": "US-14", "to": "0410"}),
    "cwol_rail": ("cwol_mobile_columbus.json", 0, {"unit": "CS1IN", "to": "E4-X4"}),
    "gitm": ("gitm_allied.json", 0, {"unit": "FR2IN", "to": "2-2"}),
    "railroads": ("railroad_module_europe.json", 1, {"unit": "ger_inf_dk", "to": "Belarus"}),
    "rail_options": ("aa_rail_options.json", 2, {"unit": "ger_inf", "to": "smolensk"}),
}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _has_colour(img: QImage, colour: str) -> bool:
    want = QColor(colour)
    step = max(1, min(img.width(), img.height()) // 200)
    for y in range(0, img.height(), step):
        for x in range(0, img.width(), step):
            c = img.pixelColor(x, y)
            if abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) < 12:
                return True
    return False


@pytest.mark.parametrize("system", sorted(GAMES))
def test_every_order_gets_a_crop_of_what_it_concerns(system: str, tmp_path: Path, qapp: Any,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    sample, phases, order = GAMES[system]
    game = tmp_path / "game.json"
    shutil.copyfile(ROOT / "maps" / sample, game)
    for _ in range(phases):
        assert run(["end-turn", str(game), "--phase"], capsys)[0] == 0
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([order]), encoding="utf-8")
    assert run(["orders", str(game), "--orders", str(orders)], capsys)[0] == 0
    assert run(["orders", str(game), "--orders", str(orders)], capsys)[0] == 1  # refused: once a turn
    code, report, err = run(["journal", str(game), "--markdown", "--crops", str(tmp_path / "crops")], capsys)
    assert code == 0, err
    links = re.findall(r"!\[Entry (\d+): [^\]]*\]\((crops/[^)]+)\)", report)
    journal = json.loads(run(["journal", str(game), "--json"], capsys)[1])["entries"]
    orders_at = [e["position"] for e in journal if e["kind"] in ("order", "refused")]
    assert [int(n) for n, _ in links] == orders_at and len(orders_at) == 2, report
    for (n, link), entry in zip(links, [e for e in journal if e["kind"] in ("order", "refused")], strict=True):
        img = QImage(str(tmp_path / link))
        assert not img.isNull() and 40 <= img.width() <= 720 and 40 <= img.height() <= 720, link
        if system in ("railroads", "rail_options"):  # territories selected, not cells outlined
            assert len({img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}) > 8
        else:
            colour = CARRIED_OUT if entry["kind"] == "order" else REFUSED
            assert _has_colour(img, colour), f"entry {n}: no {colour} outline"


def test_crops_go_with_markdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.json"
    shutil.copyfile(ROOT / "maps" / "cwol_mobile_columbus.json", game)
    code, _, err = run(["journal", str(game), "--crops", str(tmp_path / "c")], capsys)
    assert code == 1 and "--crops goes with --markdown" in err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(["journal", str(game), "--markdown", "--crops", str(blocker)], capsys)
    assert code == 0  # no order yet: nothing to crop, nothing written
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([{"unit": "CS1IN", "to": "E4-X4"}]), encoding="utf-8")
    assert run(["orders", str(game), "--orders", str(orders)], capsys)[0] == 0
    code, _, err = run(["journal", str(game), "--markdown", "--crops", str(blocker)], capsys)
    assert code == 1 and str(blocker) in err and "Traceback" not in err
