"""Game > Plan Orders as SIDE and File > Apply Orders File… in the editor
(docs/play-by-post.md): the plan writes the same file as the hand-written
example of docs/turns.md, nothing is applied to the game, the game master's
editor applies it, and the window's docks outlive map switches with a plan
on."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtWidgets import QApplication, QDockWidget

from app.cli import main
from app.gui.main_window import MainWindow
from app.gui.plan_orders import apply_orders_file, end_plan, save_plan, start_plan
from engine.io import load_any, save_any

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
ACW = ROOT / "maps" / "acw_short_campaign.json"
CWOL = str(ROOT / "maps" / "cwol_mobile_columbus.json")


def pump() -> None:
    for _ in range(3):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def docs_example() -> dict[str, Any]:
    text = (ROOT / "docs" / "turns.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- orders-file-example -->\s*```json\n(.*?)```", text, re.S)
    assert m is not None
    return dict(json.loads(m.group(1)))


def acw_file(tmp_path: Path) -> Path:
    s = load_any(str(ACW))
    s.state["setup_accepted"] = True
    s.state["visibility"] = {"sighting": {"cav": 8, "default": 3}, "identify": {"cav": 5, "default": 2}}
    f = tmp_path / "acw.json"
    save_any(s, str(f))
    return f


def window(qtbot: Any, tmp_path: Path, path: Path | str) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(load_any(str(path)), str(path), settings, tmp_path / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.show()
    return w


def docks_alive(w: Any) -> set[str]:
    names = set()
    for d in w.findChildren(QDockWidget):
        assert shiboken6.isValid(d) and d.widget() is not None and shiboken6.isValid(d.widget()), d.objectName()
        names.add(d.objectName())
    return names


def test_plan_orders_writes_the_docs_example_and_applies_nothing(qtbot: Any, tmp_path: Path) -> None:
    f = acw_file(tmp_path)
    w = window(qtbot, tmp_path, f)
    before = {u.id: u.at for u in w.document.scenario.units}
    plan = start_plan(w, "union")
    assert plan is not None and "Planning the Union orders" in w.game.turn_label.text()
    assert w.turns.give({"unit": "US-3C", "to": "1106"})[0]
    ok, why = w.turns.give({"unit": "US-3C", "to": "1006"})
    assert not ok and "already moved" in why  # checked against the position the plan leaves
    assert w.turns.give({"unit": "US-6", "to": "0805"})[0]
    assert w.document.scenario.unit("US-3C").at != before["US-3C"]  # shown on the map
    assert w.game.orders_plan.panel.list.count() == 2
    out = tmp_path / "union-t1.json"
    assert save_plan(w, str(out), "for the Union") == str(out)
    assert json.loads(out.read_text(encoding="utf-8")) == docs_example()
    # reorder and remove: the plan is given again, each order checked anew
    on_disk = f.read_bytes()
    assert not w.save() and f.read_bytes() == on_disk  # the plan is not the game's: the file is not saved with it
    assert w.error_dialog is not None and w.error_dialog.summary.startswith("Orders are being planned")
    w.error_dialog.close()
    assert plan.move(1, 0) == [] and [o["unit"] for o in plan.orders] == ["US-6", "US-3C"]
    assert plan.remove(0) == [] and plan.orders == [{"unit": "US-3C", "to": "1106"}]
    end_plan(w)
    assert w.turns.plan is None and {u.id: u.at for u in w.document.scenario.units} == before
    assert "game" not in w.document.scenario.state  # nothing applied: the file saves as it was read
    # the game master's inbox: the same file applied in the editor
    said = apply_orders_file(w, str(out))
    assert [s.split(":")[1].strip() for s in said] == ["carried out", "carried out"], said
    game = w.turns.game()
    assert game is not None and [e.verdict["source"]["sent_by"] for e in game.journal] == ["union", "union"]
    assert apply_orders_file(w, str(out), rebase=False)[0].startswith("the file was planned against journal head")


def test_a_side_file_in_the_editor_says_what_it_hides_and_plans_at_its_turn(
        qtbot: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = acw_file(tmp_path)
    side = tmp_path / "rebel.json"
    main(["orders", str(f), "--orders", str(_write(tmp_path / "u.json", docs_example()))])
    main(["end-turn", str(f)])
    assert main(["export-side", str(f), "--side", "rebel", "--out", str(side)]) == 0
    capsys.readouterr()
    w = window(qtbot, tmp_path, side)
    assert "The rebel side's file: " in w.game.turn_label.text() and "enemy units hidden" in w.game.turn_label.text()
    units = {u.id for u in w.document.scenario.units}
    assert "US-14" not in units
    plan = start_plan(w, "rebel")
    assert plan is not None and (plan.turn, plan.phase) == (1, "movement")
    head = json.loads(side.read_text(encoding="utf-8"))["state"]["side_view"]["head"]
    assert plan.head == head
    assert w.turns.give({"unit": "CS-45C", "to": "2510"})[0], w.turns.give({"unit": "CS-45C", "to": "2510"})
    out = tmp_path / "rebel-t1.json"
    save_plan(w, str(out))
    end_plan(w)
    code = main(["orders", str(f), "--orders", str(out)])
    assert code == 0, capsys.readouterr()


def _write(p: Path, data: dict[str, Any]) -> Path:
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def test_plan_orders_outlives_map_switches_and_reopening(qtbot: Any, tmp_path: Path, capfd: Any) -> None:
    f = acw_file(tmp_path)
    for _round in range(2):
        w = window(qtbot, tmp_path, f)
        expected = docks_alive(w)
        assert "ordersPlanDock" in expected
        start_plan(w, "union")
        assert w.turns.give({"unit": "US-3C", "to": "1106"})[0]
        for path in (CWOL, str(f)):
            assert w.open_file(path, ask=False)
            pump()
            assert docks_alive(w) == expected
            assert w.turns.plan is None and w.game.orders_plan.panel.list.count() == 0
        plan = start_plan(w, "union")
        assert plan is not None and w.turns.give({"unit": "US-6", "to": "0805"})[0]
        assert w.game.orders_plan.panel.list.count() == 1
        w.close()
        pump()
    err = capfd.readouterr().err
    assert not any(e in err for e in ("already deleted", "Internal C++ object", "Traceback")), err
