"""The example plugin, installed: found through its entry point, listed by
``adjutant rules`` with its origin and version, conforming to Adjutant's
conformance kit (interface, options, golden cases, check/apply/undo, a short
random game), played through ``adjutant orders``, and previewed live in the
editor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from engine.conformance import check_system
from engine.io import load_any
from engine.rules import registry

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "adjutant_example_rules" / "leap.json"
GOLDEN = json.loads((HERE / "golden.json").read_text(encoding="utf-8"))


def test_installed_and_listed_without_being_imported(capsys: pytest.CaptureFixture[str]) -> None:
    (p,) = [p for p in registry.plugins() if p.name == "leap"]
    assert p.dist == "adjutant-example-rules" and p.version == "0.1.0"
    assert main(["rules", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (listed,) = [x for x in data["plugins"] if x["name"] == "leap"]
    assert listed["origin"] == "plugin adjutant-example-rules 0.1.0"
    assert main(["rules", "leap", "--json"]) == 0
    (leap,) = json.loads(capsys.readouterr().out)["systems"]
    assert leap["origin"] == "plugin adjutant-example-rules 0.1.0" and leap["order_keys"] == ["unit", "to"]


def test_conformance() -> None:
    problems = check_system("leap", scenario=load_any(SAMPLE), golden=GOLDEN)
    assert not problems, "\n".join(problems)


def test_a_game_through_adjutant_orders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "leap.json"
    game.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([{"unit": "N1", "to": "2-4"}, {"unit": "N2", "to": "4-4"}]), encoding="utf-8")
    assert main(["orders", str(game), "--orders", str(orders), "--json"]) == 1  # the second is refused
    out = json.loads(capsys.readouterr().out)
    assert [e["kind"] for e in out["entries"]] == ["order", "refused"]
    saved = json.loads(game.read_text(encoding="utf-8"))
    assert saved["state"]["game"]["system"] == "leap"
    assert next(u for u in saved["units"] if u["id"] == "N1")["at"] == "2-4"


def test_the_editor_preview() -> None:
    pytest.importorskip("PySide6")
    from app.gui.systems import previews_for as available

    (preview,) = [p for p in available() if type(p).__name__ == "LeapPreview"]
    s = load_any(SAMPLE)
    assert preview.applies_to(s)
    u = s.unit("N1")
    ov = preview.select(s, u)
    assert ov.message.startswith("N1 leaps exactly 2 cells")
    assert preview.hover(s, u, s.map.parse_label("4-4")).ok is False
    order = preview.apply(s, u, s.map.parse_label("2-4"))
    assert order is not None and order.unit_id == "N1"
