"""The VASSAL module as an archive: every grid sample exports and passes the
module check (engine/io/vassal_check.py); the check refuses what VASSAL's
loader would; a refused export says why and writes nothing; the board is
drawn where the grid says; the command line and the File menu."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from vassal_formulas import board_from_module

from app.cli import main
from app.gui.render import renderer_for
from app.gui.vassal_export import board_image, export_vassal
from engine.editing import new_scenario
from engine.grids import Cell
from engine.io import load_any
from engine.io.vassal import (
    VassalError,
    piece_definition,
    plan_module,
    sequence_decode,
    sequence_encode,
)
from engine.io.vassal_check import ModuleCheckError, check_module_file, module_problems
from engine.model import Scenario, Unit

MAPS = Path(__file__).resolve().parents[2] / "maps"
GRID_SAMPLES = sorted(p.name for p in MAPS.glob("*.json")
                      if json.loads(p.read_text())["map"]["grid"]["kind"] in ("square", "hex"))
SCALE = 16  # small boards keep the tests fast
# ``qapp``: pytest-qt's application (painting needs one; the editor tests need a QApplication)


@pytest.mark.parametrize("name", GRID_SAMPLES)
def test_every_grid_sample_exports_and_passes_the_check(qapp, tmp_path: Path, name: str) -> None:
    s = load_any(MAPS / name)
    assert isinstance(s, Scenario)
    out = tmp_path / "game.vmod"
    plan = export_vassal(s, out, scale=SCALE, version="3.8")
    assert module_problems(out) == []
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        build = z.read("buildFile.xml").decode()
    assert {"moduledata", "buildFile.xml", "images/board.png"} <= names
    assert {f"images/{p.image}" for p in plan.pieces} <= names
    assert build.count("<VASSAL.build.widget.PieceSlot ") == len(s.units) + len(plan.palette)
    for side in s.sides:
        assert f"<entry>{side.name}</entry>" in build
        assert f'PrototypeDefinition name="{side.name}"' in build
    for cls in ("PieceMover", "KeyBufferer", "StackMetrics", "SelectionHighlighters"):
        assert f"<VASSAL.build.module.map.{cls} />" in build
    # the units stand on their cells: VASSAL's name for each stack's pixel is the unit's cell
    board = board_from_module(out.read_bytes())
    for p in plan.pieces:
        assert board.location_name(p.x, p.y) == s.map.label(p.cell)


def test_the_board_is_drawn_where_the_grid_is(qapp) -> None:
    for grid in ({"kind": "hex", "width": 5, "height": 4, "orientation": "flat", "parity": "even"},
                 {"kind": "hex", "width": 4, "height": 5, "orientation": "pointy", "parity": "odd"},
                 {"kind": "square", "width": 4, "height": 3, "neighbours": 8}):
        s = new_scenario("t", grid, {"scheme": "ccrr"})
        plan = plan_module(s, 33, "3.7")
        r = renderer_for(s)
        zoom = plan.scale / r.extent
        for cell in s.map.grid.cells():
            x, y = r.layout.center(cell)
            px, py = plan.centre(cell)
            assert abs(x * zoom + plan.shift[0] - px) < 1e-9 and abs(y * zoom + plan.shift[1] - py) < 1e-9
        img = board_image(s, plan)
        assert (img.width(), img.height()) == (plan.width, plan.height)
        sw, sh = r.scene_size(zoom)
        assert plan.width - 1 <= sw <= plan.width and plan.height - 1 <= sh <= plan.height
        assert float(plan.grid.x0).is_integer() and 0 <= plan.shift[0] < 1 and 0 <= plan.shift[1] < 1


# -- refusals write nothing ----------------------------------------------------------

def test_a_territory_map_is_refused_with_the_reason(qapp, tmp_path: Path, capsys) -> None:
    out = tmp_path / "t.vmod"
    assert main(["export-vassal", str(MAPS / "aa_rail_options.json"), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "territory map" in err and "nothing written" in err and "exact shape" in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_board_too_big_is_refused_naming_a_scale_that_fits(qapp, tmp_path: Path, capsys) -> None:
    out = tmp_path / "big.vmod"
    out.write_bytes(b"old")
    assert main(["export-vassal", str(MAPS / "cwol_mobile_columbus.json"), "--out", str(out), "--scale", "500"]) == 1
    err = capsys.readouterr().err
    assert "over the limit" in err and "--scale" in err and "nothing written" in err
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["big.vmod"]


def test_a_scale_out_of_range_is_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "x.vmod"
    assert main(["export-vassal", str(MAPS / "gitm_cases.json"), "--out", str(out), "--scale", "3"]) == 1
    assert "expected 12 to 512" in capsys.readouterr().err and not out.exists()


def test_a_module_failing_the_check_is_not_written(tmp_path: Path, monkeypatch) -> None:
    from engine.io import vassal

    s = load_any(MAPS / "gitm_allied.json")
    assert isinstance(s, Scenario)
    plan = plan_module(s, SCALE)
    images = {n: b"not a png" for n in vassal.needed_images(plan)}
    out = tmp_path / "m.vmod"
    with pytest.raises(ValueError, match="is not a PNG file"):
        vassal.write_module(out, plan, images)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(VassalError, match="images missing"):
        vassal.write_module(out, plan, {})


# -- the command line ------------------------------------------------------------------

def test_cli_json_and_text(qapp, tmp_path: Path, capsys) -> None:
    out = tmp_path / "acw.vmod"
    assert main(["export-vassal", str(MAPS / "acw_short_campaign.json"), "--out", str(out), "--scale", "20",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["vassal_version"] == "3.7.0" and data["grid"]["kind"] == "hex" and data["pieces"] == 23
    assert data["mismatched_labels"] == 0 and data["warnings"] == [] and data["notes"] == []
    assert module_problems(out) == []
    assert main(["export-vassal", str(MAPS / "gitm_cases.json"), "--out", str(tmp_path / "g.vmod"),
                 "--scale", "20", "--vassal", "3.8"]) == 0
    text = capsys.readouterr().out
    assert "VASSAL 3.8.0 module" in text and "SquareGridNumbering" in text


def test_cli_warns_of_oblique_numbering_for_3_7(qapp, tmp_path: Path, capsys) -> None:
    s = new_scenario("ak", {"kind": "hex", "width": 6, "height": 5, "orientation": "flat", "parity": "odd"},
                     {"scheme": "axes", "col": {"style": "letters", "start": 0}, "row": {"style": "number", "start": 10},
                      "first": "col", "separator": "",
                      "oblique": {"axis": "row", "direction": "minus", "parity": "odd"}})
    from engine.io import save_scenario

    src = tmp_path / "ak.json"
    save_scenario(s, src)
    assert main(["export-vassal", str(src), "--out", str(tmp_path / "ak.vmod"), "--scale", "20"]) == 0
    text = capsys.readouterr().out
    assert "warning: the oblique numbering is written with straight rows" in text
    assert main(["export-vassal", str(src), "--out", str(tmp_path / "ak8.vmod"), "--scale", "20",
                 "--vassal", "3.8"]) == 0
    text = capsys.readouterr().out
    assert "ObliqueHexGridNumbering" in text and "note: the oblique hex numbering" in text and "3.8.0" in text
    assert "warning" not in text
    assert module_problems(tmp_path / "ak8.vmod") == []


# -- the module check --------------------------------------------------------------------

@pytest.fixture(scope="module")
def good(qapp, tmp_path_factory) -> bytes:  # type: ignore[no-untyped-def]
    s = load_any(MAPS / "gitm_cases.json")
    assert isinstance(s, Scenario)
    out = tmp_path_factory.mktemp("m") / "g.vmod"
    export_vassal(s, out, scale=SCALE)
    return out.read_bytes()


def rezip(data: bytes, edit) -> bytes:  # type: ignore[no-untyped-def]
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        files = {n: z.read(n) for n in z.namelist()}
    edit(files)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, d in files.items():
            z.writestr(n, d)
    return buf.getvalue()


def problems_of(tmp_path: Path, data: bytes) -> list[str]:
    p = tmp_path / "x.vmod"
    p.write_bytes(data)
    return module_problems(p)


def _sub(name: str, old: str, new: str, count: int = 1):  # type: ignore[no-untyped-def]
    def edit(files: dict[str, bytes]) -> None:
        text = files[name].decode()
        assert old in text, old
        files[name] = text.replace(old, new, count).encode()
    return edit


@pytest.mark.parametrize(("edit", "expected"), [
    (_sub("moduledata", "<VassalVersion>3.7.0", "<VassalVersion>3.4.2"), "reads the build file 'buildFile'"),
    (_sub("moduledata", "<VassalVersion>3.7.0", "<VassalVersion>3.7.1"), "says VassalVersion '3.7.0'"),
    (_sub("moduledata", "<name>", "<name>Other "), "the module's name differs"),
    (_sub("buildFile.xml", 'gpid="2"', 'gpid="1"'), "gpid 1 is also"),
    (_sub("buildFile.xml", 'nextPieceSlotId="', 'nextPieceSlotId="1'), ""),  # still above: no problem
    (_sub("buildFile.xml", "mapgrid.SquareGridNumbering", "mapgrid.HexGridNumbering"),
     "<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering> may not stand inside <SquareGrid>"),
    (_sub("buildFile.xml", "mapgrid.SquareGridNumbering", "mapgrid.ObliqueHexGridNumbering"),
     "ObliqueHexGridNumbering is new in VASSAL 3.8.0"),
    (_sub("buildFile.xml", ";palette0000.png;", ";missing.png;"), "image 'missing.png' is not in the archive"),
    (_sub("buildFile.xml", "infantry/", "inf/antry/"), "3 '/'-separated parts"),
    (_sub("buildFile.xml", "mark;Type,Strength,Unit\\\t", "mark;Type,Strength,Unit\t"),
     "not escaped as VASSAL writes it"),
    (_sub("buildFile.xml", "prototype;French", "prototype;Prussian"), "uses prototype 'Prussian'"),
    (_sub("buildFile.xml", 'x0="8"', 'x0="8.5"'), "x0 '8.5' is not a whole number"),
    (_sub("buildFile.xml", "<VASSAL.build.module.map.PieceMover />",
          "<VASSAL.build.module.map.PieceMover><VASSAL.build.module.Map /></VASSAL.build.module.map.PieceMover>"),
     "<PieceMover> takes no child elements"),
    (_sub("buildFile.xml", 'owningBoard="Board"', 'owningBoard="Other"'), "owningBoard 'Other' is no board"),
    (_sub("buildFile.xml", "<VASSAL.build.module.map.PieceMover />", ""), "lacks PieceMover"),
    (_sub("buildFile.xml", 'hOff="1"', 'hOff="one"'), "hOff 'one' is not a whole number"),
    (_sub("buildFile.xml", 'first="H"', 'first="X"'), "first 'X' is not H or V"),
])
def test_the_check_refuses_what_vassal_would(tmp_path: Path, good: bytes, edit, expected: str) -> None:
    assert problems_of(tmp_path, good) == []
    probs = problems_of(tmp_path, rezip(good, edit))
    if expected:
        assert any(expected in p for p in probs), probs
    else:
        assert probs == []


def test_the_check_refuses_a_broken_archive(tmp_path: Path, good: bytes) -> None:
    assert "not a ZIP archive" in problems_of(tmp_path, good[: len(good) // 2])[0]
    no_meta = rezip(good, lambda f: f.pop("moduledata"))
    assert "no 'moduledata' entry" in problems_of(tmp_path, no_meta)[0]
    renamed = rezip(good, lambda f: f.update({"buildFile": f.pop("buildFile.xml")}))
    assert "(the archive has 'buildFile')" in problems_of(tmp_path, renamed)[0]
    p = tmp_path / "x.vmod"
    p.write_bytes(no_meta)
    with pytest.raises(ModuleCheckError, match="breaks VASSAL's rules"):
        check_module_file(p)


# -- piece definitions ---------------------------------------------------------------

TEXT = st.text(alphabet=st.sampled_from("ab;/,\t\\' $<&é"), max_size=12)


@given(st.lists(TEXT, min_size=1, max_size=5), st.sampled_from([";", "/", ",", "\t"]))
def test_sequence_encoding_round_trips(tokens: list[str], delim: str) -> None:
    encoded = sequence_encode(tokens, delim)
    decoded = sequence_decode(encoded, delim)
    # VASSAL's decoder strips one pair of quotes it added; a token that ends in
    # a backslash before a delimiter cannot be told apart from an escape
    if not any(t.endswith("\\") for t in tokens[:-1]):
        assert decoded == tokens


@given(TEXT, TEXT)
def test_hostile_unit_names_make_valid_piece_definitions(name: str, side: str) -> None:
    from engine.io.vassal import piece_text, piece_type_and_state
    from engine.io.vassal_check import piece_problems

    name, side = piece_text(name), piece_text(side)
    typ, state = piece_type_and_state(side, {"Type": "inf", "Unit": name}, "u.png", name)
    probs, images, protos = piece_problems(piece_definition(typ, state), "slot")
    assert probs == [] and images == ["u.png"] and protos == [side]


def test_units_with_hostile_names_export(qapp, tmp_path: Path) -> None:
    s = new_scenario("hostile/name;\t", {"kind": "square", "width": 3, "height": 3, "neighbours": 8},
                     {"scheme": "numeric"})
    side = s.sides[0].id
    s.units.append(Unit("a/b;c,d\te\\", side, "infantry", Cell(1, 1), 2, name="<&>'\"/;"))
    s.units.append(Unit("u2", side, "infantry", Cell(1, 1), 3))
    out = tmp_path / "h.vmod"
    plan = export_vassal(s, out, scale=SCALE)
    assert module_problems(out) == []
    build = zipfile.ZipFile(out).read("buildFile.xml").decode()
    assert build.count("<VASSAL.build.module.map.SetupStack ") == 1  # both units in one stack on their cell
    assert plan.pieces[0].unit_id == "a/b;c,d e/" and plan.pieces[0].name == "<&>'\"/;"
    import defusedxml.ElementTree as SafeET

    slots = [e for e in SafeET.fromstring(build).iter("VASSAL.build.widget.PieceSlot") if e.get("gpid")]
    assert "<&>'\"/;" in [e.get("entryName") for e in slots]
