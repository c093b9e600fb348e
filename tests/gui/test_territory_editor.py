"""The territory-map editor: opening the samples, picking, undoable
attribute, feature and border edits, painting a territory, rail-plan mode
(preview at once, exact routing off the GUI thread) and rail-options mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from system_parts import plan as plan_of
from system_parts import rail

from app.cli import main as cli_main
from app.gui.systems.railroads.planner import BOTTLENECK, RailPlanner
from app.gui.territory import TerritoryWindow
from app.gui.territory.canvas import land_color
from engine.io import load_any
from engine.territory import BorderKind, TerritoryScenario

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
EUROPE = ROOT / "maps" / "railroad_module_europe.json"
RAIL_OPTIONS = ROOT / "maps" / "aa_rail_options.json"
G40 = ROOT.parent / "shared" / "data" / "triplea-g40"  # ../shared beside the clone, as in CI


def territory_samples() -> list[Path]:
    out = []
    for p in sorted((ROOT / "maps").glob("*.json")):
        data = json.loads(p.read_text(encoding="utf-8"))
        if data.get("map", {}).get("grid", {}).get("kind") == "territory":
            out.append(p)
    return out


def open_window(qtbot, tmp_path: Path, path: Path | str) -> TerritoryWindow:
    s = load_any(path)
    assert isinstance(s, TerritoryScenario)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = TerritoryWindow(s, str(path), settings, tmp_path / "state")
    w.ask_unsaved = lambda: "discard"  # type: ignore[method-assign]
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    w.canvas.fit()
    return w


def view_point(w: TerritoryWindow, tid: str) -> QPoint:
    lp = w.canvas.label_point(tid)
    assert lp is not None
    return w.canvas.map_to_view(*lp).toPoint()


def test_the_samples_are_territory_maps() -> None:
    names = {p.name for p in territory_samples()}
    assert {"railroad_module_europe.json", "aa_rail_options.json"} <= names


@pytest.mark.parametrize("path", territory_samples(), ids=lambda p: p.name)
def test_the_window_opens_each_territory_sample(qtbot, tmp_path, path: Path) -> None:
    w = open_window(qtbot, tmp_path, path)
    s = w.scenario
    assert w.canvas.scenario() is s
    img = w.canvas.grab().toImage()
    assert not img.isNull()
    assert w.canvas.render_count >= 1
    # the map fits the view: every territory's label point is on screen
    vp = w.canvas.viewport().rect()
    for tid in s.map.territories:
        assert vp.contains(view_point(w, tid)), tid
    # a sea zone is drawn blue, a land territory in its controller's colour (sampled near a corner)
    sea = next(t for t in s.map.territories.values() if t.sea)
    land = next(t for t in s.map.territories.values() if not t.sea and t.controller and not t.occupied
                and not s.units_in(t.id))
    for t in (sea, land):
        inner = t.shape.buffer(-2.0)
        part = inner if inner.geom_type == "Polygon" else max(inner.geoms, key=lambda g: g.area)
        x, y = part.exterior.coords[0]
        got = img.pixelColor(w.canvas.map_to_view(x, y).toPoint())
        want = land_color(s, t)
        assert abs(got.red() - want.red()) + abs(got.green() - want.green()) + abs(got.blue() - want.blue()) < 40, \
            (t.id, got.name(), want.name())


@pytest.mark.parametrize("path", [EUROPE, RAIL_OPTIONS], ids=lambda p: p.name)
def test_picking_returns_the_territory_at_its_label_point(qtbot, tmp_path, path: Path) -> None:
    w = open_window(qtbot, tmp_path, path)
    for tid in w.scenario.map.territories:
        lp = w.canvas.label_point(tid)
        assert w.canvas.territory_at_map(*lp) == tid
        assert w.canvas.territory_at(QPointF(view_point(w, tid))) == tid
    assert w.canvas.territory_at_map(-50, -50) is None


def test_click_selects_and_the_status_bar_names_the_territory(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    qtbot.mouseClick(w.canvas.viewport(), Qt.MouseButton.LeftButton, pos=view_point(w, "france"))
    assert w.selection == ["france"]
    assert w.inspector.name.text() == "France"
    qtbot.mouseMove(w.canvas.viewport(), view_point(w, "france"))
    status = w.hover_label.text()
    assert "France" in status and "controller: Germany (occupied)" in status and "value 13" in status
    assert "ger_arm_fr" in status


def test_an_attribute_edit_is_one_undo_step(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    w.select(["germany"])
    stack = w.document.undo_stack
    renders = w.canvas.render_count
    w.inspector.value.setValue(25)
    w.inspector.value.editingFinished.emit()
    assert stack.count() == 1
    assert w.scenario.territory("germany").value == 25
    assert w.document.is_modified() and w.isWindowModified()
    w.canvas.grab()
    assert w.canvas.render_count > renders  # the static layer was redrawn
    w.inspector.value.editingFinished.emit()  # no change: nothing pushed
    assert stack.count() == 1
    stack.undo()
    assert w.scenario.territory("germany").value == 20
    assert w.inspector.value.value() == 20
    assert not w.document.is_modified()
    # controller: a combo box, one step; occupied is derived
    i = w.inspector.controller.findData("ussr")
    w.inspector.controller.setCurrentIndex(i)
    w.inspector.controller.activated.emit(i)
    assert stack.count() == 1 and w.scenario.territory("germany").controller == "ussr"
    assert w.scenario.territory("germany").occupied
    stack.undo()
    assert w.scenario.territory("germany").controller == "germany"
    # a bad name is refused with a message and changes nothing
    w.inspector.name.setText("France")
    w.inspector.name.editingFinished.emit()
    assert stack.count() == 1 and w.scenario.territory("germany").name == "Germany"


@pytest.mark.parametrize("path", [EUROPE, RAIL_OPTIONS], ids=lambda p: p.name)
def test_an_edit_redraws_only_its_part_and_looks_like_a_full_redraw(qtbot, tmp_path, path: Path) -> None:
    w = open_window(qtbot, tmp_path, path)
    c = w.canvas
    c.grab()
    tid = next(t.id for t in w.scenario.map.territories.values() if not t.sea and t.controller)
    other = next(f.id for f in w.scenario.sides if f.id != w.scenario.territory(tid).controller)
    w.document.set_attribute(tid, "controller", other)
    w.document.set_feature(tid, "rail_station", {"damage": 2})
    # let the window settle as the event loop would before the next frame (an
    # edit refreshes the docks, whose layout can move the canvas): the two
    # grabs must show the same view, patched and redrawn
    qtbot.wait(50)
    zoom, origin = c.zoom(), c.origin()
    assert c._cache is not None  # patched, not thrown away
    patched = c.grab().toImage()
    c.invalidate(None)
    full = c.grab().toImage()
    assert (c.zoom(), c.origin()) == (zoom, origin), "the view moved between the two grabs"
    assert patched.size() == full.size()
    a = np.frombuffer(patched.convertToFormat(QImage.Format.Format_ARGB32).constBits(), np.uint8).astype(int)
    b = np.frombuffer(full.convertToFormat(QImage.Format.Format_ARGB32).constBits(), np.uint8).astype(int)
    # the same picture, up to the anti-aliasing of edges under a clip (a few levels of one channel)
    assert np.abs(a - b).max() <= 6
    assert (np.abs(a - b) > 0).mean() < 0.002


def test_station_features_and_borders_are_undoable(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, RAIL_OPTIONS)
    stack = w.document.undo_stack
    w.select(["germany"])
    w.inspector.damage.setValue(3)
    w.inspector.damage.editingFinished.emit()
    assert w.scenario.territory("germany").features["rail_station"] == {"damage": 3}
    w.inspector.has_railroad.click()
    assert "railroad" not in w.scenario.territory("germany").features
    assert stack.count() == 2
    stack.undo()
    stack.undo()
    assert w.scenario.territory("germany").features["rail_station"] == {"damage": 1}
    assert w.scenario.territory("germany").features["railroad"] == {}
    # the border editor: two territories, one step
    w.select(["germany", "austria"])
    assert w.inspector.border_box.isVisibleTo(w.inspector)
    i = w.inspector.border_kind.findData(BorderKind.CLOSED.value)
    w.inspector.border_kind.setCurrentIndex(i)
    w.inspector.border_kind.activated.emit(i)
    b = w.scenario.map.border("germany", "austria")
    assert b is not None and b.kind == BorderKind.CLOSED
    assert any(kind == BorderKind.CLOSED for kind, _ in w.canvas.renderer().border_lines)
    stack.undo()
    b = w.scenario.map.border("germany", "austria")
    assert b is not None and b.kind == BorderKind.ORDINARY


def test_painting_cells_makes_a_territory(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, RAIL_OPTIONS)
    w.set_mode("paint")
    s = w.scenario
    n = len(s.map)
    c = s.map.backdrop_cell
    # drag across the empty strip south of the Mediterranean (y 70..90 is sea there, so paint x 0..30, y 40..60)
    vp = w.canvas.viewport()
    start = w.canvas.map_to_view(5, 45).toPoint()
    end = w.canvas.map_to_view(25, 55).toPoint()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    for k in range(1, 11):
        qtbot.mouseMove(vp, start + (end - start) * k / 10)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    assert w.paint_cells and all(0 <= col * c < s.map.width for col, _ in w.paint_cells)
    w.paint_panel.name.setText("Iberia")
    assert w.create_painted_territory()
    assert len(s.map) == n + 1 and w.document.undo_stack.count() == 1
    t = s.territory("Iberia")
    assert t.shape.area > 0
    assert w.canvas.territory_at_map(*w.canvas.label_point("iberia")) == "iberia"
    w.document.undo_stack.undo()
    assert "iberia" not in s.map and w.canvas.territory_at_map(10, 50) != "iberia"


# -- rail plan ---------------------------------------------------------------

def europe_orders() -> list[dict[str, str]]:
    return json.loads((ROOT / "tests" / "territory" / "europe_orders.json").read_text())["orders"]


def test_rail_plan_preview_then_exact_routing_off_the_gui_thread(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    w.set_mode("railplan")
    p = plan_of(w).planner
    p.add_orders(europe_orders())
    # the preview is there at once: one dashed line per order
    assert p.preview_plan is not None and p.preview_plan.method == "maxflow" and p.preview_plan.feasible
    assert len(w.canvas.overlay().routes) == 8 and all(r.dashed for r in w.canvas.overlay().routes)
    assert "Exact routing running" in w.canvas.overlay().message
    import gc

    from app.gui import collector

    assert collector.installed() is not None and not gc.isenabled()  # no automatic collection in the routing's thread
    qtbot.waitUntil(lambda: p.exact is not None, timeout=20000)
    plan = p.exact
    assert plan is not None and plan.method == "milp" and plan.feasible
    ov = w.canvas.overlay()
    outlined = {sh.territory for sh in ov.shades if sh.outline == BOTTLENECK}
    names = sorted(w.scenario.map.label(t) for t in outlined)
    assert names == ["Hungary", "Western Poland", "Yugoslavia"]
    # routes go through the label points, the Denmark infantry through Prussia
    paths = {r.territories for r in ov.routes}
    assert ("denmark", "prussia", "belarus") in paths
    assert not any(r.dashed for r in ov.routes)
    shaded = {sh.territory: sh.text for sh in ov.shades if sh.fill}
    assert shaded["ukraine"] == "4/4" and shaded["france"] == "3/6"
    qtbot.mouseMove(w.canvas.viewport(), view_point(w, "hungary"))
    assert "rail: 2 of 2 used" in w.hover_label.text()
    # the chart: used against available along the routes
    data = p.chart_data()
    assert ("Prussia", 1, 1) in data and len(data) == len(plan.usage)
    assert plan_of(w).plan_panel.bars_used is not None
    assert list(plan_of(w).plan_panel.bars_used.opts["height"]) == [u for _, u, _ in data]
    assert "Feasible" in plan_of(w).plan_panel.verdict.text()


def test_an_overloaded_plan_outlines_the_cut(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    w.set_mode("railplan")
    raw = json.loads((ROOT / "tests" / "territory" / "europe_orders_overload.json").read_text())["orders"]
    plan_of(w).planner.add_orders(raw)
    qtbot.waitUntil(lambda: plan_of(w).planner.exact is not None, timeout=20000)
    assert not plan_of(w).planner.exact.feasible
    outlined = {sh.territory for sh in w.canvas.overlay().shades if sh.outline == BOTTLENECK}
    assert {w.scenario.map.label(t) for t in outlined} == {"Hungary", "Western Poland", "Yugoslavia"}
    assert "Not feasible" in plan_of(w).plan_panel.verdict.text()


def test_dragging_a_unit_adds_an_order(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    w.set_mode("railplan")
    vp = w.canvas.viewport()
    box = next(rect for rect, tid, ids in w.canvas.unit_boxes() if tid == "denmark")
    start = box.center().toPoint()
    end = view_point(w, "belarus")
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(vp, (start + end) / 2)
    qtbot.mouseMove(vp, end)
    assert any(r.territories == ("denmark", "belarus") for r in w.canvas.overlay().routes)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    assert [(o.unit, o.to) for o in plan_of(w).planner.orders] == [("ger_inf_dk", "belarus")]
    assert plan_of(w).plan_panel.orders.count() == 1
    qtbot.waitUntil(lambda: plan_of(w).planner.exact is not None, timeout=20000)
    assert plan_of(w).planner.exact.routes[0].paths[0][0][0] == "denmark"
    # a stack: press on France outside the counters drags every unit there
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=view_point(w, "france") + QPoint(0, -12))
    qtbot.mouseMove(vp, view_point(w, "ukraine"))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=view_point(w, "ukraine"))
    assert sorted(o.unit for o in plan_of(w).planner.orders if o.to == "ukraine") == ["ger_arm_fr", "ger_art_fr",
                                                                            "ger_inf_fr"]


def test_stale_exact_results_are_ignored(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    p = plan_of(w).planner
    orders = europe_orders()
    p.add_orders(orders[:1])
    first = p.generation
    p.add_orders(orders[1:])
    assert p.generation == first + 1
    qtbot.waitUntil(lambda: not p.busy(), timeout=20000)
    assert p.exact is not None and len(p.exact.orders) == 8
    # a result for an old generation changes nothing
    before = p.exact
    p.running += 1
    p._done(first, "late")
    assert p.exact is before


def test_a_burst_of_edits_routes_only_the_latest_orders(qtbot) -> None:
    """While a routing runs, later edits start none: the stale job is
    cancelled (its result dropped), and when it ends the latest orders alone
    are copied and routed."""
    from concurrent.futures import Future

    from app.gui.systems.railroads import planner as railplan

    asked: list[tuple[Any, ...]] = []
    jobs: list[Future[object]] = []

    def submit(fn: Any, *args: Any) -> Future[object]:
        job: Future[object] = Future()
        job.set_running_or_notify_cancel()  # started at once: cancel() cannot drop it
        asked.append(args)
        jobs.append(job)
        return job

    p = RailPlanner(submit=submit)
    s = load_any(EUROPE)
    assert isinstance(s, TerritoryScenario)
    p.set_scenario(s)
    orders = europe_orders()
    for o in orders:
        p.add_orders([o])
    assert [len(a[1]) for a in asked] == [1] and p.busy()
    jobs[0].set_result("the first routing's answer")
    qtbot.waitUntil(lambda: len(asked) == 2, timeout=5000)
    assert [len(a[1]) for a in asked] == [1, len(orders)] and p.exact is None
    assert p.overlay.message.endswith("Exact routing running…")  # the stale answer was dropped
    jobs[1].set_result(railplan._plan_job(*asked[1]))
    qtbot.waitUntil(lambda: p.exact is not None, timeout=5000)
    assert len(p.exact.orders) == len(orders) and not p.busy() and len(asked) == 2


def test_the_planner_never_runs_the_solver_on_the_gui_thread(qtbot, monkeypatch) -> None:
    import threading

    from app.gui.systems.railroads import planner as railplan

    threads: list[bool] = []
    real = railplan.plan

    def spy(*a, **k):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*a, **k)

    monkeypatch.setattr(railplan, "plan", spy)
    p = RailPlanner()
    s = load_any(EUROPE)
    assert isinstance(s, TerritoryScenario)
    p.set_scenario(s)
    p.add_orders(europe_orders())
    qtbot.waitUntil(lambda: p.exact is not None, timeout=20000)
    assert threads == [False]


# -- rail options ------------------------------------------------------------

def test_selecting_a_unit_lists_what_the_cli_lists(qtbot, tmp_path, capsys) -> None:
    assert cli_main(["rail-options", str(RAIL_OPTIONS), "--unit", "ger_inf", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    w = open_window(qtbot, tmp_path, RAIL_OPTIONS)
    w.set_mode("railoptions")
    box = next(rect for rect, tid, ids in w.canvas.unit_boxes() if "ger_inf" in ids)
    qtbot.mouseClick(w.canvas.viewport(), Qt.MouseButton.LeftButton, pos=box.center().toPoint())
    assert w.selected_unit == "ger_inf"
    # the inspector's unit list selects too
    w.select(["italy"])
    w.inspector.units.itemClicked.emit(w.inspector.units.item(0))
    assert w.selected_unit == "ita_inf"
    w.select_unit("ger_inf")
    assert rail(w).options_panel.reachable() == cli["reachable"] == ["Italy", "Smolensk"]
    reach = {sh.territory for sh in w.canvas.overlay().shades if sh.fill}
    assert reach == {"italy", "smolensk"}
    # the same unit under Option 4 (a what-if) reaches elsewhere, as the CLI says
    assert cli_main(["rail-options", str(RAIL_OPTIONS), "--unit", "ger_inf", "--option", "4", "--json"]) == 0
    cli4 = json.loads(capsys.readouterr().out)
    i = rail(w).options_panel.option.findData(4)
    rail(w).options_panel.option.setCurrentIndex(i)
    rail(w).options_panel.option.activated.emit(i)
    assert rail(w).options_panel.reachable() == cli4["reachable"] != cli["reachable"]


def test_a_planned_rail_move_is_undoable_and_updates_the_capacity(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, RAIL_OPTIONS)
    opened = w.document.text()
    w.set_mode("railoptions")
    w.select_unit("ger_inf")
    assert rail(w).options_panel.nation_left("Germany") == "6"
    stations = {rail(w).options_panel.stations.item(i, 0).text(): rail(w).options_panel.stations.item(i, 3).text()
                for i in range(rail(w).options_panel.stations.rowCount())}
    assert stations["Germany"] == "6"
    # hovering says what the engine says
    qtbot.mouseMove(w.canvas.viewport(), view_point(w, "france"))
    assert w.statusBar().currentMessage().startswith("✘ ")
    qtbot.mouseMove(w.canvas.viewport(), view_point(w, "italy"))
    assert w.statusBar().currentMessage().startswith("✔ ")
    assert "rail: 2 spaces via Germany > Austria > Italy" in w.hover_label.full_text()  # (cut to yield to the verdict: whole in its tooltip)
    # clicking a territory out of reach refuses with the engine's reason
    assert not rail(w).rail_to("france")
    assert w.document.undo_stack.count() == 0
    qtbot.mouseClick(w.canvas.viewport(), Qt.MouseButton.LeftButton, pos=view_point(w, "italy"))
    assert w.scenario.unit("ger_inf").at == "italy"
    assert w.document.undo_stack.count() == 1
    assert rail(w).options_panel.nation_left("Germany") == "5"
    w.document.undo_stack.undo()
    assert w.scenario.unit("ger_inf").at == "germany"
    assert w.document.text() == opened  # the move and its record are gone, nothing left behind
    assert rail(w).options_panel.nation_left("Germany") == "6"


# -- files -------------------------------------------------------------------

def test_save_and_reopen(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    w.select(["denmark"])
    w.inspector.value.setValue(5)
    w.inspector.value.editingFinished.emit()
    out = tmp_path / "europe.json"
    assert w.save_as(str(out))
    assert not w.document.is_modified()
    again = load_any(out)
    assert isinstance(again, TerritoryScenario) and again.territory("denmark").value == 5
    assert w.open_file(str(EUROPE))
    assert w.scenario.territory("denmark").value == 2
    # a grid map is refused with a message, the document is kept
    assert not w.open_file(str(ROOT / "maps" / "gitm_cases.json"))
    assert w.error_dialog is not None and "not a territory map" in w.error_dialog.problems[0]
    assert w.scenario.territory("denmark").value == 2


def test_autosave_and_recovery_of_a_territory_map(qtbot, tmp_path) -> None:
    w = open_window(qtbot, tmp_path, EUROPE)
    w.select(["denmark"])
    w.inspector.value.setValue(7)
    w.inspector.value.editingFinished.emit()
    assert w.autosave.save_now()
    saved = load_any(w.autosave.data_path)
    assert isinstance(saved, TerritoryScenario) and saved.territory("denmark").value == 7
    w.autosave.abandon()  # as if the program crashed
    again = open_window(qtbot, tmp_path / "again", EUROPE)
    again.state_dir = tmp_path / "state"
    again.ask_recover = lambda rec: True  # type: ignore[method-assign]
    assert again.check_recovery()
    assert again.scenario.territory("denmark").value == 7 and again.document.is_modified()
    assert again.document.path == str(EUROPE)


def test_run_opens_the_territory_window(qtbot, tmp_path, monkeypatch) -> None:
    from app import gui

    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path / "cfg"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "cfg"))
    monkeypatch.setenv("ADJUTANT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(QApplication, "exec", lambda *a: 0)
    assert gui.run(str(EUROPE)) == 0
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, TerritoryWindow) and w.isVisible()]
    assert len(windows) == 1
    w = windows[0]
    qtbot.addWidget(w)
    assert w.scenario.name.startswith("Germany Sends")
    w.close()


# -- Global 1940 (read from the shared data, imported into tmp) -------------

@pytest.fixture(scope="module")
def g40(tmp_path_factory) -> Path:
    if not (G40 / "ww2global40_2nd_edition.xml").is_file():
        pytest.skip("the TripleA Global 1940 files are not here")
    out = tmp_path_factory.mktemp("g40") / "g40.json"
    assert cli_main(["import-triplea", str(G40 / "ww2global40_2nd_edition.xml"), "--polygons",
                     str(G40 / "polygons.txt"), "--centers", str(G40 / "centers.txt"), "--wrap-x",
                     "--out", str(out)]) == 0
    return out


def test_global_1940_wraps_and_picks(qtbot, tmp_path, g40, capsys) -> None:
    capsys.readouterr()
    w = open_window(qtbot, tmp_path, g40)
    c = w.canvas
    assert c.wrap and len(w.scenario.map) > 300
    W = w.scenario.map.width
    for tid, t in list(w.scenario.map.territories.items())[::7]:
        lp = c.label_point(tid)
        if lp is None or t.label_at is not None and not t.shape.contains(__import__("shapely").Point(*lp)):
            continue
        assert c.territory_at_map(*lp) == tid
        assert c.territory_at_map(lp[0] + W, lp[1]) == tid  # one world east
    # the cached static layer: a second repaint renders nothing again
    c.grab()
    n = c.render_count
    c.grab()
    assert c.render_count == n
    # scrolling past the east edge comes back round from the west
    c.set_zoom(0.5)
    h = c.horizontalScrollBar()
    for _ in range(40):
        h.setValue(h.value() + 400)
    cx, _ = c.view_to_map(QPointF(c.viewport().width() / 2, 0))
    assert 0 <= cx < W


def test_counters_fold_to_side_counts_then_dots_as_territories_shrink(qtbot, tmp_path) -> None:
    """A zoomed-out map is not buried under counters: a territory too narrow
    on screen for one counter per side and type shows one per side with its
    number of units, and one too narrow for that a dot per side; clicks hit
    what is drawn."""
    w = open_window(qtbot, tmp_path, RAIL_OPTIONS)
    c = w.canvas
    s = w.scenario
    german = sorted(u.id for u in s.units if u.at == "germany")

    def in_germany() -> list:
        return [k for k in c.counters() if k.territory == "germany"]

    width = s.territory("germany").shape.bounds[2] - s.territory("germany").shape.bounds[0]
    c.set_zoom(100 / width)  # 100 px: room for four counters (a row may overhang by half)
    assert sorted(k.label for k in in_germany()) == ["ARM", "ART", "FIG", "INF×2"]
    c.set_zoom(40 / width)  # 40 px: one counter for the one side there
    (folded,) = in_germany()
    assert folded.label == str(len(german)) and sorted(folded.ids) == german
    assert c.units_at_view(folded.rect.center()) == ("germany", folded.ids)
    c.set_zoom(8 / width)  # 8 px: a dot
    (dot,) = in_germany()
    assert dot.label == "" and dot.rect.width() < 10
    assert all(k.label == "" or k.rect.width() <= 30 for k in c.counters())
    w.canvas.viewport().repaint()  # the dots and folded counters paint without error
