"""One writer at a time, seen from the editor: a window holds its map's
lock, so ``adjutant orders`` on the map it has open is refused (nothing
lost, nothing written); a file another program changed on disk is noticed
when the window is activated and before Save, and the person chooses to
reload, keep both or overwrite, told how many journal entries overwriting
would drop (``app/gui/window_recovery.py``, ``docs/reliability.md``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QSettings
from PySide6.QtWidgets import QApplication

from app.cli import main
from app.gui.main_window import MainWindow
from engine.io import load_any

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
CWOL = ROOT / "maps" / "cwol_mobile_columbus.json"


def journal_count(path: Path) -> int:
    data = json.loads(path.read_text(encoding="utf-8"))
    return int(data.get("state", {}).get("game", {}).get("journal", {}).get("count", 0))


def journal_of(w: MainWindow) -> int:
    return int(w.document.scenario.state.get("game", {}).get("journal", {}).get("count", 0))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    f = tmp_path / "game.json"
    shutil.copyfile(CWOL, f)
    return f


def open_game(qtbot, tmp_path: Path, path: Path) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(load_any(path), str(path), settings, tmp_path / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def one_more_entry(tmp_path: Path, game: Path) -> bytes:
    """The game's file after one more journalled order, made on a copy (as
    another program would)."""
    other = tmp_path / "elsewhere"
    other.mkdir(exist_ok=True)
    copy = other / "game.json"
    shutil.copyfile(game, copy)
    orders = other / "orders.json"
    orders.write_text(json.dumps([{"unit": "US1IN", "to": "D7-V2"}]), encoding="utf-8")
    assert main(["orders", str(copy), "--orders", str(orders)]) == 1  # refused, but journalled
    return copy.read_bytes()


def test_the_command_line_refuses_a_map_open_in_the_editor(qtbot, tmp_path, game, monkeypatch, capsys) -> None:
    monkeypatch.setenv("ADJUTANT_STATE_DIR", str(tmp_path / "state"))
    w = open_game(qtbot, tmp_path, game)
    before = game.read_bytes()
    orders = tmp_path / "orders.json"
    orders.write_text(json.dumps([{"unit": "CS1IN", "to": "E4-X4"}]), encoding="utf-8")
    assert main(["orders", str(game), "--orders", str(orders)]) == 1
    err = capsys.readouterr().err
    assert "is open in the editor" in err and "nothing was written" in err
    assert game.read_bytes() == before
    assert main(["end-turn", str(game)]) == 1 and "open in the editor" in capsys.readouterr().err
    # the editor's own Save still writes, and asks nothing: the file did not change
    asked: list[str] = []
    w.ask_disk_changed = lambda path, details: asked.append(path) or "cancel"  # type: ignore[method-assign]
    w.document.undo_stack.resetClean()
    assert w.save() and asked == []
    w.close()
    # once the editor let go, the command writes
    assert main(["orders", str(game), "--orders", str(orders)]) == 0
    assert journal_count(game) == 1


def test_a_change_on_disk_is_noticed_on_focus_and_kept_both(qtbot, tmp_path, game) -> None:
    w = open_game(qtbot, tmp_path, game)
    w.document.undo_stack.resetClean()  # unsaved work in the window
    newer = one_more_entry(tmp_path, game)
    game.write_bytes(newer)  # a sync tool brings in the game with one more order
    asked: list[tuple[str, list[str]]] = []
    w.ask_disk_changed = lambda path, details: asked.append((path, details)) or "copy"  # type: ignore[method-assign]
    QApplication.sendEvent(w, QEvent(QEvent.Type.WindowActivate))
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    assert asked[0][0] == str(game)
    assert any("drop 1 journal entry" in d for d in asked[0][1]), asked
    copy = tmp_path / "game (copy).json"
    assert game.read_bytes() == newer and journal_count(game) == 1  # nothing dropped on disk
    assert copy.exists() and journal_count(copy) == 0  # and the window's work kept beside it
    assert w.document.path == str(copy) and not w.document.is_modified()


def test_save_over_a_changed_file_asks_first(qtbot, tmp_path, game) -> None:
    w = open_game(qtbot, tmp_path, game)
    newer = one_more_entry(tmp_path, game)
    answers = ["reload"]
    asked: list[list[str]] = []

    def ask(path: str, details: list[str]) -> str:
        asked.append(details)
        return answers.pop(0)

    w.ask_disk_changed = ask  # type: ignore[method-assign]
    w.document.undo_stack.resetClean()
    game.write_bytes(newer)
    assert not w.save()  # reloaded instead of saving over it
    assert len(asked) == 1 and game.read_bytes() == newer
    assert journal_of(w) == 1 and not w.document.is_modified()
    # overwriting is a choice the person makes, told what it drops
    game.write_bytes(one_more_entry(tmp_path, game))
    w.document.undo_stack.resetClean()
    answers.append("overwrite")
    assert w.save()
    assert any("drop 1 journal entry" in d for d in asked[1])
    assert journal_count(game) == 1
    # a file only touched (same bytes) asks nothing
    game.touch()
    w.document.undo_stack.resetClean()
    assert w.save() and len(asked) == 2


def test_an_unmodified_window_reloads_a_changed_file_on_focus(qtbot, tmp_path, game) -> None:
    w = open_game(qtbot, tmp_path, game)
    w.ask_disk_changed = lambda path, details: pytest.fail("nothing to lose: no question")  # type: ignore[method-assign]
    game.write_bytes(one_more_entry(tmp_path, game))
    QApplication.sendEvent(w, QEvent(QEvent.Type.WindowActivate))
    qtbot.waitUntil(lambda: journal_of(w) == 1, timeout=5000)
    assert w.document.path == str(game)


def test_a_cancelled_question_is_not_asked_again_on_focus_but_on_save(qtbot, tmp_path, game) -> None:
    w = open_game(qtbot, tmp_path, game)
    w.document.undo_stack.resetClean()
    asked: list[str] = []
    w.ask_disk_changed = lambda path, details: asked.append(path) or "cancel"  # type: ignore[method-assign]
    game.write_bytes(one_more_entry(tmp_path, game))
    assert not w.check_disk() and len(asked) == 1
    assert w.check_disk() and len(asked) == 1  # the same change: not asked again on focus
    assert not w.save() and len(asked) == 2  # Save asks, and cancelling writes nothing
    assert journal_count(game) == 1


def test_a_territory_window_notices_too(qtbot, tmp_path) -> None:
    from app.gui.territory import TerritoryWindow

    path = tmp_path / "europe.json"
    shutil.copyfile(ROOT / "maps" / "railroad_module_europe.json", path)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = TerritoryWindow(load_any(path), str(path), settings, tmp_path / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.document.undo_stack.resetClean()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["name"] = "Changed elsewhere"
    path.write_text(json.dumps(data), encoding="utf-8")
    w.ask_disk_changed = lambda p, details: "reload"  # type: ignore[method-assign]
    assert not w.save()
    assert w.document.scenario.name == "Changed elsewhere" and not w.document.is_modified()
