"""Printing at exact scale (issue 20, item 5): the page plan
(engine/printing.py), ``adjutant print`` (app/cli/print_cmd.py) and the PDF
it writes (app/gui/print_pdf.py), rasterised with ``pdftoppm`` and measured:
the printed cell size within 0.1 mm of the request, the map where the plan
puts it, and neighbouring pages that agree around every shared
registration cross."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.cli import main
from engine.grids import Cell, HexGrid, SquareGrid
from engine.io import save_scenario
from engine.model import GridMap, Ruleset, Scenario, TerrainType
from engine.numbering import numbering_from_dict
from engine.printing import PrintError, PrintPlan, PrintSpec, paper_size, plan, plan_territory

ROOT = Path(__file__).resolve().parents[1]
DPI = 600
PX_PER_MM = DPI / 25.4


@pytest.fixture(autouse=True)
def _widgets_app(qapp: Any) -> None:
    """The command makes a QGuiApplication when none exists; the GUI tests
    of the same run need a QApplication, so one is made first."""


needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                    reason="pdftoppm is not installed (Debian/Ubuntu: apt-get install poppler-utils)")


# -- the plan ------------------------------------------------------------------

def test_pages_step_by_the_area_less_the_overlap_and_share_their_joins() -> None:
    # a 365 x 328 mm map on A4 portrait, 10 mm margins (190 x 277 mm printable), 10 mm overlap
    pp = plan(365.0, 328.0, 16.0, PrintSpec(16.0, "a4"))  # cells 16 units across: 1 mm a unit
    assert (pp.area_w, pp.area_h) == (190.0, 277.0)
    assert pp.mm_per_unit == 1.0 and (pp.map_w, pp.map_h) == (365.0, 328.0)
    assert (pp.cols, pp.rows) == (2, 2) and len(pp.pages) == 4
    a1, a2, b1 = pp.pages[0], pp.pages[1], pp.pages[2]
    assert (a1.x, a1.w, a2.x, a2.w) == (0.0, 190.0, 180.0, 365.0 - 180.0)
    assert a1.join_right == a2.join_left == 185.0  # the middle of the 10 mm overlap
    assert a1.join_bottom == b1.join_top == 272.0
    assert a1.join_left is None and a1.join_top is None and a2.join_right is None
    assert [p.label for p in pp.pages] == ["A1", "A2", "B1", "B2"]
    # both neighbours draw the same crosses on their join
    assert {m for m in a1.marks() if m[0] == 185.0} == {m for m in a2.marks() if m[0] == 185.0}
    assert pp.paper_point(a2, 185.0, 100.0) == (15.0, 110.0)


def test_a_map_that_fits_is_one_page_and_landscape_swaps_the_paper() -> None:
    pp = plan(10.0, 10.0, 1.0, PrintSpec(10.0, "letter", landscape=True))
    assert (pp.paper_w, pp.paper_h) == (279.4, 215.9) and len(pp.pages) == 1
    assert pp.pages[0].marks() == []


@pytest.mark.parametrize(("spec", "words"), [
    (PrintSpec(16.0, "b9"), "unknown paper 'b9'"),
    (PrintSpec(0.5), "at least 2 mm"),
    (PrintSpec(16.0, overlap_mm=100.0), "less than half the printable area"),
    (PrintSpec(16.0, margin_mm=1.0), "margin must be 3 to 50 mm"),
    (PrintSpec(float("nan")), "cell size"),
    (PrintSpec(400.0), "does not fit the printable area"),
])
def test_bad_requests_say_what_is_wrong(spec: PrintSpec, words: str) -> None:
    with pytest.raises(PrintError, match=words):
        plan(50.0, 50.0, 1.0, spec)


def test_a_plan_of_too_many_pages_is_refused() -> None:
    with pytest.raises(PrintError, match="pages"):
        plan(1000.0, 1000.0, 1.0, PrintSpec(16.0))


def test_custom_paper_sizes() -> None:
    assert paper_size("A3") == (297.0, 420.0)
    assert paper_size("450x300") == (300.0, 450.0)
    with pytest.raises(PrintError, match="50 to 5000"):
        paper_size("10x10")


# -- the PDF, measured ---------------------------------------------------------

def uniform_map(grid: SquareGrid | HexGrid) -> Scenario:
    """One pale terrain, no units, places or links: only the grid lines are dark."""
    gm = GridMap(grid, numbering_from_dict({"scheme": "ccrr", "first": 1, "digits": 2}),
                 np.zeros((grid.height, grid.width), np.uint8))
    return Scenario("print test", Ruleset("t", [TerrainType("clear", "Clear", ".", "#f0ead8")]), [], gm, [])


def print_and_raster(s: Scenario, tmp_path: Path, argv: list[str], capsys: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    src, out = tmp_path / "map.json", tmp_path / "map.pdf"
    save_scenario(s, src)
    assert main(["print", str(src), "--out", str(out), "--json", *argv]) == 0
    data = json.loads(capsys.readouterr().out)
    subprocess.run(["pdftoppm", "-r", str(DPI), str(out), str(tmp_path / "page")], check=True)
    pages = []
    for f in sorted(tmp_path.glob("page-*.ppm")):
        raw = f.read_bytes()
        parts = raw.split(maxsplit=4)
        w, h = int(parts[1]), int(parts[2])
        pages.append(np.frombuffer(parts[4][-w * h * 3:], np.uint8).reshape(h, w, 3))
    assert len(pages) == data["pages"]
    return data, pages


def dark_centres(line: np.ndarray) -> np.ndarray:
    """Centres (px) of the dark runs along a scan line of RGB pixels (grid lines)."""
    dark = np.r_[False, line.mean(axis=-1) < 128, False]
    edges = np.flatnonzero(np.diff(dark.astype(np.int8)))
    starts, ends = edges[::2], edges[1::2]
    return (starts + ends - 1) / 2.0


def spacing_mm(centres: np.ndarray) -> float:
    return float(np.median(np.diff(centres))) / PX_PER_MM


@needs_pdftoppm
@pytest.mark.parametrize("size", [12.5, 19.05])  # 19.05 mm: a 3/4 inch square
def test_printed_squares_measure_the_requested_size(size: float, tmp_path: Path, capsys: Any) -> None:
    data, pages = print_and_raster(uniform_map(SquareGrid(8, 10)), tmp_path,
                                   ["--square-mm", str(size), "--paper", "a4"], capsys)
    page = pages[0]
    y = round((10 + size * 2.5) * PX_PER_MM)  # across the middle of the third row of squares
    centres = dark_centres(page[y, :])
    assert abs(spacing_mm(centres) - size) < 0.1
    # the map's left edge is its first grid line, at the 10 mm margin
    assert abs(centres[0] / PX_PER_MM - 10.0) < 0.1
    assert data["cell_mm"] == size


@needs_pdftoppm
@pytest.mark.parametrize(("orientation", "size"), [("flat", 16.0), ("pointy", 16.0), ("flat", 25.4)])
def test_printed_hexes_measure_the_requested_width_across_flats(orientation: str, size: float, tmp_path: Path,
                                                                 capsys: Any) -> None:
    s = uniform_map(HexGrid(7, 8, orientation, "odd"))
    argv = ["--hex-mm", str(size)] if size != 25.4 else ["--cell-in", "1"]
    _, pages = print_and_raster(s, tmp_path, argv, capsys)
    page = pages[0]
    from app.gui.render import renderer_for

    r = renderer_for(s)
    scale = size / r.extent  # mm per layout unit of the renderer's layout
    cx, cy = r.layout.center(Cell(2, 2))
    if orientation == "flat":  # flats top and bottom: scan down a column through the centres
        centres = dark_centres(page[:, round((10 + cx * scale) * PX_PER_MM)])
    else:  # flats left and right: scan along a row through the centres
        centres = dark_centres(page[round((10 + cy * scale) * PX_PER_MM), :])
    assert len(centres) >= 3
    assert abs(spacing_mm(centres) - size) < 0.1


def cross_centre(page: np.ndarray, x_mm: float, y_mm: float) -> tuple[float, float]:
    """The centre (mm) of the registration cross drawn near (x, y) mm: the
    mean of its magenta pixels within 3 mm (it spans 2.5 mm each way)."""
    r = round(3 * PX_PER_MM)
    x0, y0 = round(x_mm * PX_PER_MM) - r, round(y_mm * PX_PER_MM) - r
    win = page[y0:y0 + 2 * r, x0:x0 + 2 * r].astype(np.int16)
    ys, xs = np.nonzero((win[..., 0] - win[..., 1] > 80) & (win[..., 2] - win[..., 1] > 30))
    assert len(xs) > 50, "no cross there"
    return ((x0 + xs.mean()) / PX_PER_MM, (y0 + ys.mean()) / PX_PER_MM)


@needs_pdftoppm
def test_pages_join_at_the_registration_crosses(tmp_path: Path, capsys: Any) -> None:
    """A map two pages wide (and two high): each cross shared by two pages
    is printed where the plan puts it on both (within 0.1 mm), and the map
    round it is the same on both pages (the pages join there)."""
    grid = HexGrid(16, 20, "flat", "odd")
    s = uniform_map(grid)
    s.ruleset.terrain.append(TerrainType("wood", "Wood", "w", "#5a8a4a"))
    s.map.terrain[::3, ::2] = 1  # something to tell one place from another
    _, pages = print_and_raster(s, tmp_path, ["--hex-mm", "14"], capsys)
    from app.gui.render import renderer_for

    r = renderer_for(s)
    pp: PrintPlan = plan(r.map_width, r.map_height, r.extent, PrintSpec(14.0))
    assert len(pages) == len(pp.pages) >= 2
    checked = 0
    for i, a in enumerate(pp.pages):
        for j, b in enumerate(pp.pages):
            if j <= i:
                continue
            for mark in set(a.marks()) & set(b.marks()):
                pa, pb = pp.paper_point(a, *mark), pp.paper_point(b, *mark)
                ca, cb = cross_centre(pages[i], *pa), cross_centre(pages[j], *pb)
                assert abs(ca[0] - pa[0]) < 0.1 and abs(ca[1] - pa[1]) < 0.1, (a.label, mark, ca, pa)
                assert abs(cb[0] - pb[0]) < 0.1 and abs(cb[1] - pb[1]) < 0.1, (b.label, mark, cb, pb)
                # the map 3-4 mm from the cross (clear of its strokes) agrees on both pages
                k = round(3 * PX_PER_MM)
                for dx, dy in ((-1, -1), (1, 1), (-1, 1), (1, -1)):
                    wa = pages[i][round(pa[1] * PX_PER_MM) + dy * k:round(pa[1] * PX_PER_MM) + dy * k + 24,
                                  round(pa[0] * PX_PER_MM) + dx * k:round(pa[0] * PX_PER_MM) + dx * k + 24]
                    wb = pages[j][round(pb[1] * PX_PER_MM) + dy * k:round(pb[1] * PX_PER_MM) + dy * k + 24,
                                  round(pb[0] * PX_PER_MM) + dx * k:round(pb[0] * PX_PER_MM) + dx * k + 24]
                    assert wa.shape == wb.shape
                    assert np.abs(wa.astype(int) - wb.astype(int)).mean() < 6, (a.label, b.label, mark)
                checked += 1
    assert checked >= 3


# -- the command's refusals ----------------------------------------------------

@pytest.mark.parametrize(("argv", "words"), [
    (["maps/aa_rail_options.json", "--hex-mm", "16"], "a territory map: it has no cells; give the whole map's printed width"),
    (["maps/aa_rail_options.json", "--width-mm", "400", "--labels"], "no cells to label"),
    (["maps/aa_rail_options.json", "--width-mm", "400", "--coordinates"], "no cells to label"),
    (["maps/aa_rail_options.json", "--width-mm", "5"], "at least 20 mm"),
    (["maps/aa_rail_options.json", "--width-mm", "90000"], "at most 500"),
    (["maps/gitm_examples.json", "--width-mm", "400"], "it prints at a cell size; give --square-mm"),
    (["maps/gitm_examples.json", "--hex-mm", "16"], "give --square-mm"),
    (["maps/acw_short_campaign.json", "--square-mm", "16"], "give --hex-mm"),
    (["maps/acw_short_campaign.json", "--hex-mm", "16", "--paper", "b9"], "unknown paper 'b9'"),
    (["maps/acw_short_campaign.json", "--hex-mm", "0.2"], "at least 2 mm"),
])
def test_the_command_refuses_with_a_message(argv: list[str], words: str, tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "x.pdf"
    argv = [str(ROOT / argv[0]), *argv[1:]]
    assert main(["print", *argv, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not out.exists()


def test_the_output_must_be_a_pdf(tmp_path: Path, capsys: Any) -> None:
    assert main(["print", str(ROOT / "maps" / "acw_short_campaign.json"), "--hex-mm", "16",
                 "--out", str(tmp_path / "x.png")]) == 1
    assert "must end in .pdf" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed (apt-get install poppler-utils)")
def test_the_coordinate_margin_names_the_edge_cells_of_each_page(tmp_path: Path, capsys: Any) -> None:
    s = uniform_map(HexGrid(16, 6, "flat", "odd"))
    src = tmp_path / "map.json"
    save_scenario(s, src)
    from app.gui.render import renderer_for

    r = renderer_for(s)
    pp = plan(r.map_width, r.map_height, r.extent, PrintSpec(16.0, coordinates=True))
    assert pp.cols == 2

    def page_texts(pdf: Path) -> list[str]:
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        return text.split("\f")

    plain, margined = tmp_path / "plain.pdf", tmp_path / "coords.pdf"
    assert main(["print", str(src), "--hex-mm", "16", "--out", str(plain)]) == 0
    assert main(["print", str(src), "--hex-mm", "16", "--coordinates", "--out", str(margined)]) == 0
    capsys.readouterr()
    assert "0101" not in page_texts(plain)[0]
    first, second = page_texts(margined)[:2]
    assert "0101" in first and "0201" in first and "0106" in first  # top-left corner, next column, last row
    # the second page's top margin starts at its own first column
    col = next(c for c in range(16) if r.layout.center(Cell(c, 0))[0] * pp.mm_per_unit >= pp.pages[1].x)
    assert s.map.label(Cell(col, 0)) in second or s.map.label(Cell(col, 1)) in second
    assert "0101" not in second


# -- territory maps: printed at a width of the whole map -------------------------

def test_a_territory_map_is_planned_from_its_printed_width() -> None:
    # Rail Options' map is 300 x 90 map units; 500 mm wide is 5/3 mm a unit
    pp = plan_territory(300.0, 90.0, PrintSpec(0.0, "a4", width_mm=500.0))
    assert abs(pp.mm_per_unit - 500 / 300) < 1e-12 and (round(pp.map_w, 9), round(pp.map_h, 9)) == (500.0, 150.0)
    assert (pp.cols, pp.rows) == (3, 1)  # 190 mm a page, stepping 180
    assert [round(p.x, 9) for p in pp.pages] == [0.0, 180.0, 360.0] and pp.pages[0].join_right == 185.0


@pytest.mark.parametrize(("width", "spec_kw", "words"), [
    (10.0, {}, "at least 20 mm"),
    (float("inf"), {}, "printed width"),
    (400.0, {"coordinates": True}, "no coordinates"),
    (400.0, {"overlap_mm": 150.0}, "less than half the printable area"),
])
def test_bad_territory_requests_say_what_is_wrong(width: float, spec_kw: dict[str, Any], words: str) -> None:
    with pytest.raises(PrintError, match=words):
        plan_territory(300.0, 90.0, PrintSpec(0.0, width_mm=width, **spec_kw))


def test_a_grid_plan_wants_a_cell_size_and_a_territory_plan_a_width() -> None:
    with pytest.raises(PrintError, match="prints at a cell size"):
        plan(50.0, 50.0, 1.0, PrintSpec(16.0, width_mm=300.0))
    with pytest.raises(PrintError, match="printed width"):
        plan_territory(300.0, 90.0, PrintSpec(16.0))


def raster_pdf(pdf: Path, tmp_path: Path, name: str) -> list[np.ndarray]:
    subprocess.run(["pdftoppm", "-r", str(DPI), str(pdf), str(tmp_path / name)], check=True)
    pages = []
    for f in sorted(tmp_path.glob(f"{name}-*.ppm")):
        raw = f.read_bytes()
        parts = raw.split(maxsplit=4)
        w, h = int(parts[1]), int(parts[2])
        pages.append(np.frombuffer(parts[4][-w * h * 3:], np.uint8).reshape(h, w, 3))
    return pages


def run_of(line: np.ndarray, at: int, tol: int = 6) -> tuple[float, float]:
    """Where (mm) the run of the colour at pixel ``at`` begins and ends
    along a scan line."""
    same = np.abs(line.astype(int) - line[at].astype(int)).max(axis=-1) <= tol
    a = at
    while a > 0 and same[a - 1]:
        a -= 1
    b = at
    while b + 1 < len(same) and same[b + 1]:
        b += 1
    return a / PX_PER_MM, (b + 1) / PX_PER_MM


@needs_pdftoppm
def test_a_printed_territory_measures_its_map_units_at_the_scale(tmp_path: Path, capsys: Any) -> None:
    """The United Kingdom of the Module I sample is the rectangle 50-90 x
    30-100 map units; the map printed 600 mm wide (1.5 mm a unit) puts it
    at 85-145 mm across the first page (10 mm margin) and 60 mm wide."""
    from engine.io import load_any

    src = ROOT / "maps" / "railroad_module_europe.json"
    uk = load_any(src).map.territories["united_kingdom"]
    assert uk.shape.bounds == (50.0, 30.0, 90.0, 100.0)
    out = tmp_path / "europe.pdf"
    assert main(["print", str(src), "--width-mm", "600", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grid"] == "territory" and data["mm_per_unit"] == 1.5 and data["map_mm"] == [600.0, 420.0]
    pages = raster_pdf(out, tmp_path, "page")
    assert len(pages) == data["pages"] == 4 * 2
    page = pages[0]
    y = round((10 + 40 * 1.5) * PX_PER_MM)  # 10 map units below the UK's top, clear of its name
    left, right = run_of(page[y], round((10 + 60 * 1.5) * PX_PER_MM))
    assert abs(left - 85.0) < 0.25 and abs(right - 145.0) < 0.25, (left, right)
    x = round((10 + 60 * 1.5) * PX_PER_MM)
    top, bottom = run_of(page[:, x], round((10 + 40 * 1.5) * PX_PER_MM))
    assert abs(top - 55.0) < 0.25, top  # 30 map units down
    assert bottom > 100.0  # the name below interrupts the column; the top edge is the measure


@needs_pdftoppm
def test_territory_pages_join_at_the_registration_crosses(tmp_path: Path, capsys: Any) -> None:
    src = ROOT / "maps" / "railroad_module_europe.json"
    out = tmp_path / "europe.pdf"
    assert main(["print", str(src), "--width-mm", "350", "--landscape", "--out", str(out)]) == 0
    capsys.readouterr()
    pages = raster_pdf(out, tmp_path, "page")
    pp = plan_territory(400.0, 280.0, PrintSpec(0.0, "a4", landscape=True, width_mm=350.0))
    assert len(pages) == len(pp.pages) == 4
    checked = 0
    for i, a in enumerate(pp.pages):
        for j, b in enumerate(pp.pages[i + 1:], i + 1):
            for mark in set(a.marks()) & set(b.marks()):
                for page, pg in ((pages[i], a), (pages[j], b)):
                    want = pp.paper_point(pg, *mark)
                    got = cross_centre(page, *want)
                    assert abs(got[0] - want[0]) < 0.1 and abs(got[1] - want[1]) < 0.1, (pg.label, mark, got, want)
                checked += 1
    assert checked >= 4
