"""The editor's autosave of a game (``app/gui/autosave.py``): a game step
appends its entries and the new end to the autosave in place, so the bytes
one order writes do not grow with the journal; what is written is always
the window's work (``Document.text()``), through game steps, undo, and
edits of the map between them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_editor_tools import open_window

from app.gui.autosave import json_safe_text
from app.gui.systems import previews_for
from bench.journal import _safe_step, build
from engine.editing import brush_cells, plan_paint
from engine.grids import Cell
from engine.io import dumps_any, loads_any

pytestmark = pytest.mark.gui


def game_window(qtbot: Any, tmp_path: Path, turns: int) -> Any:
    path = tmp_path / f"game{turns}.json"
    path.write_text(build(turns, more=50), encoding="utf-8")
    w = open_window(qtbot, tmp_path, loads_any(path.read_text(encoding="utf-8"), str(path)), str(path),
                    previews=previews_for())
    assert w.turns.game() is not None
    w.turns.set_playing(True)
    return w


def order(w: Any) -> dict[str, str]:
    """An order the side to move can carry out (a unit to a hex not next to
    the enemy), ending turns until there is one."""
    for _ in range(4):
        g = w.turns.game()
        for u in g.scenario.units:
            if u.side == g.turn.side and not g.turn.did(u.id, "moved"):
                to = _safe_step(g.scenario, u)
                if to is not None and g.check({"unit": u.id, "to": to}).ok:
                    return {"unit": u.id, "to": to}
        assert w.turns.end() is None
    raise AssertionError("no order to give")


def written(w: Any, qapp: Any) -> str:
    """The autosave's text once the pending write is done."""
    for _ in range(3):
        qapp.processEvents()
    w.autosave.save_now()
    return w.autosave.data_path.read_text(encoding="utf-8")


def _wchar() -> int:
    with open("/proc/self/io", encoding="ascii") as f:
        return int(next(x for x in f if x.startswith("wchar:")).split()[1])


def test_game_steps_are_autosaved_as_the_work_is(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    w = game_window(qtbot, tmp_path, 3)
    auto = w.autosave
    ok, why = w.turns.give(order(w))
    assert ok, why
    assert written(w, qapp) == json_safe_text(w.document.text())  # the first write is whole
    inode = auto.data_path.stat().st_ino
    for _ in range(3):
        ok, why = w.turns.give(order(w))
        assert ok, why
        assert written(w, qapp) == json_safe_text(w.document.text())
        assert auto.data_path.stat().st_ino == inode  # appended in place, not written anew
    assert w.turns.end() is None
    assert written(w, qapp) == json_safe_text(w.document.text())
    w.document.undo_stack.undo()  # the end of turn taken back: written whole, then appended to again
    assert written(w, qapp) == json_safe_text(w.document.text())
    ok, why = w.turns.give(order(w))
    assert ok, why
    assert written(w, qapp) == json_safe_text(w.document.text())
    assert dumps_any(loads_any(auto.data_path.read_text(encoding="utf-8"), "autosave")) == w.document.text()


def test_an_edit_of_the_map_between_game_steps_is_autosaved(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    """The text before the entries is taken as written only while nothing
    but game steps changed the work: a map edit or a rename between two
    orders is in the next autosave."""
    w = game_window(qtbot, tmp_path, 3)
    ok, why = w.turns.give(order(w))
    assert ok, why
    written(w, qapp)
    doc = w.document
    s = doc.scenario
    far = Cell(s.map.grid.width - 1, s.map.grid.height - 1)
    now = int(s.map.terrain[far.row, far.col])
    assert doc.push("paint", plan_paint(s, "terrain", brush_cells(s.map.grid, far, 1), (now + 1) % len(s.ruleset.terrain)))
    ok, why = w.turns.give(order(w))
    assert ok, why
    text = written(w, qapp)
    assert text == json_safe_text(doc.text())
    doc.scenario.name = "Renamed"
    doc.edited.emit(None)
    ok, why = w.turns.give(order(w))
    assert ok, why
    text = written(w, qapp)
    assert text == json_safe_text(doc.text()) and '"Renamed"' in text


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="counts bytes written through /proc/self/io")
def test_the_bytes_an_order_autosaves_do_not_grow_with_the_journal(qapp: Any, qtbot: Any, tmp_path: Path) -> None:
    per_order = {}
    sizes = {}
    for turns in (2, 40):
        w = game_window(qtbot, tmp_path, turns)
        ok, why = w.turns.give(order(w))
        assert ok, why
        written(w, qapp)  # the first autosave writes the whole work
        counts = []
        for _ in range(3):
            o = order(w)
            before = _wchar()
            ok, why = w.turns.give(o)
            assert ok, why
            text = written(w, qapp)
            counts.append(_wchar() - before)
            assert text == json_safe_text(w.document.text())
        per_order[turns] = min(counts)
        sizes[turns] = w.autosave.data_path.stat().st_size
        w.close()
    assert sizes[40] > 8 * sizes[2]
    # the entry, the units and turn state after it, the undo record and the autosave's small files
    assert per_order[40] < per_order[2] + 4096, per_order
    assert per_order[40] < sizes[40] // 8, (per_order, sizes)

