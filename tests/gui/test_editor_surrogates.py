"""Lone surrogates at the editor's load (issue 22: "names are validated as
text at load, lone surrogates refused with the field named").

A name holding half of a UTF-16 pair (``"\\ud800"`` in the JSON) cannot be
written as UTF-8, so no command can print or export it: File > Open refuses
it in both editors, naming the file and the JSON path, and the map shown
before stays as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_editor_tools import blank, open_window

from app.gui.document import Document
from app.gui.territory.document import TerritoryDocument
from engine.io import ScenarioError, load_any

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def _with_surrogate_name(source: Path | str, out: Path, where: str) -> Path:
    data = json.loads(Path(source).read_text(encoding="utf-8") if isinstance(source, Path) else source)
    if where == "name":
        data["name"] = "Bad \ud800 name"
    else:
        data["units"][0]["name"] = "Bad \udc01 unit"
    # json.dumps writes a lone surrogate as its \udXXX escape, as a file holding one would
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_file_open_in_the_grid_editor_refuses_a_lone_surrogate_naming_the_field(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, blank("hex"))
    before = w.document.text()
    bad = _with_surrogate_name(ROOT / "maps" / "acw_short_campaign.json", tmp_path / "bad.json", "unit")
    assert not w.open_file(str(bad), ask=False)
    problems = w.error_dialog.problems
    assert any("units[0].name" in p and "surrogate" in p for p in problems), problems
    assert all("Traceback" not in p for p in problems)
    assert w.document.text() == before


def test_both_documents_refuse_a_lone_surrogate_at_load(tmp_path) -> None:
    grid = _with_surrogate_name(ROOT / "maps" / "gitm_examples.json", tmp_path / "g.json", "name")
    territory = _with_surrogate_name(ROOT / "maps" / "aa_rail_options.json", tmp_path / "t.json", "name")
    for doc, path in ((Document(load_any(ROOT / "maps" / "gitm_examples.json")), grid),
                      (TerritoryDocument(load_any(ROOT / "maps" / "aa_rail_options.json")), territory)):
        with pytest.raises(ScenarioError) as e:
            doc.open(str(path))
        assert any("$.name" in str(p) or "name" in str(p) for p in e.value.problems)
        assert str(path) in str(e.value.problems[0]) or path.name in str(e.value)
