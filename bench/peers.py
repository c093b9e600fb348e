"""Adjutant against the tools a user would otherwise reach for, measured
side by side in the same run and reported as a ratio (peer time / Adjutant
time: above 1 means Adjutant is faster).

1. CWOL rail: the bounded 40/80-square search
   (:func:`engine.rules.cwol_rail.rail_move`, ties and verdict included)
   against ``networkx.shortest_path`` (bidirectional BFS) on the same rail
   network: a ``subgraph_view`` of the whole rail graph filtered by the
   mover's side's control, which is what the search may use and what a
   networkx user would keep live (no rebuild after a control change; the
   full graph is built outside the timed region).  Both answers are
   compared (same shortest length whenever it is within the bound).
2. ACW hex reachability: :func:`engine.rules.acw.movement.reach`
   on a prebuilt :class:`Board` (its step cache warm, as networkx's graph
   is prebuilt; also with that cache emptied before each reach) against
   ``networkx.single_source_dijkstra_path_length`` with cutoff = movement
   points on a directed graph carrying exactly the same step costs
   (terrain, river and bridge hexsides, enemy hexes closed, no way out of a
   hex next to the enemy).  Graph build reported apart;
   reachable sets and costs compared.
3. Rendering a whole map to PNG, 200 x 200 squares at 24 px (4800 px),
   1000 x 1000 at 4 px (4000 px), 200 x 200 at 4 px (800 px: the command's
   fixed cost) and the 500 x 500 hex map of case 2 at 8 px (its ~30,000
   river hexsides; 3467 x 4004 px): ``adjutant render`` against Tiled's
   ``tmxrasterizer`` on the same map exported with ``adjutant export-tiled``
   (same output size: the rasterizer is asked for the size Adjutant's image
   has).  Both are whole processes, run alternately, wall clock and the
   children's CPU time.  Skipped, with the reason printed, where
   ``tmxrasterizer`` or either command is absent.

Every comparison prints wall and CPU time (``time.process_time``; for
whole processes the children's ``getrusage``), median and p95, the ratio
of the medians measured in the same run, and the machine's load average.

Beside the 200 x 200 squares at 4 px, the floor of any render command
built on Python, numpy and PySide6 is printed: those start-ups
alone (and the scenario's load), as whole processes alternated with
``tmxrasterizer``'s whole render.

Run: ``python -m bench.peers`` (``--quick`` for fewer runs; ``rail``,
``acw``, ``render``: only those parts; ``render square-200-4 hex-500-8``:
only those render cases, named kind-size-scale).  Environment:
``BENCH_RENDER_RUNS`` (default 7).
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from engine.grids import Cell, Edge, HexGrid, Orientation
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, Ruleset, Scenario, TerrainType, Unit, UnitType

ROOT = Path(__file__).resolve().parents[1]


def summary(times_ns: Sequence[int]) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds."""
    t = sorted(times_ns)
    return statistics.median(t) / 1e6, t[min(len(t) - 1, int(len(t) * 0.95))] / 1e6


def timed(fn: Callable[[Any], object], items: Sequence[Any]) -> tuple[list[int], list[int]]:
    """Wall and CPU nanoseconds of ``fn`` on each item (CPU:
    ``time.process_time_ns``, so time spent waiting for a core is not
    counted; its resolution is coarser than the wall clock's)."""
    wall, cpu = [], []
    for x in items:
        c0, t0 = time.process_time_ns(), time.perf_counter_ns()
        fn(x)
        wall.append(time.perf_counter_ns() - t0)
        cpu.append(time.process_time_ns() - c0)
    return wall, cpu


def line(name: str, ours: tuple[Sequence[int], Sequence[int]], peer: tuple[Sequence[int], Sequence[int]],
         peer_name: str) -> float:
    """Print both sides' wall and CPU median and p95 and the ratios (peer /
    Adjutant, medians, measured in this run); the CPU ratio."""
    ratios = []
    print(f"  {name}")
    for label, o, p in (("wall", ours[0], peer[0]), ("CPU", ours[1], peer[1])):
        om, op = summary(o)
        pm, pp = summary(p)
        ratio = pm / om if om else float("inf")
        ratios.append(ratio)
        print(f"    {label:4} Adjutant median {om:8.3f} ms  p95 {op:8.3f} ms | {peer_name} median {pm:8.3f} ms  "
              f"p95 {pp:8.3f} ms | ratio {ratio:.2f}x")
    return ratios[1]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"machine: {os.cpu_count()} cores, load average {one:.2f} (1 min) / {five:.2f} (5 min)"


# ---------------------------------------------------------------------------
# 1. CWOL rail

def bench_rail(hovers: int) -> None:
    from bench import cwol_rail as cw
    from engine.io import load_scenario

    big = cw.scenario()
    rail_case(f"a random {cw.SIZE}x{cw.SIZE} map ({cw.RAIL_SHARE:.0%} rail; bench/cwol_rail.py)", big,
              big.unit("CS1IN"), hovers, cw.WINDOW)
    print()
    sample = load_scenario(ROOT / "maps" / "cwol_mobile_columbus.json")
    rail_case("the sample maps/cwol_mobile_columbus.json", sample, sample.unit("CS1IN"), hovers, None, target=5.0)


def rail_case(title: str, s: Scenario, unit: Unit, hovers: int, window: int | None,
              target: float | None = None) -> None:
    """``hovers`` rail moves of ``unit`` to random rail squares (within
    ``window`` squares when given), against networkx on a control-filtered
    ``subgraph_view`` and on a graph of the valid rail built beforehand
    (which a control change invalidates); ``target``: the least CPU ratio
    against the latter."""
    from engine.rules.cwol_rail import rail_move, rail_network

    side = s.sides.index(s.side(unit.side))
    net = rail_network(s.map)
    w = s.map.width
    full = nx.Graph()
    for e in s.map.links["rail"]:
        full.add_edge(e.a.row * w + e.a.col, e.b.row * w + e.b.col)
    flat = s.map.control.reshape(-1)
    # the side's valid rail as networkx would keep it live: a view filtered by control, no rebuild
    view = nx.subgraph_view(full, filter_node=lambda n: flat[n] == side)
    t0 = time.process_time()
    valid_only = nx.Graph(view)
    build_s = time.process_time() - t0
    rng = random.Random(7)
    near = [net.cell(i) for i in sorted(net.adj)
            if window is None or max(abs(i % w - unit.at.col), abs(i // w - unit.at.row)) <= window]
    targets = [rng.choice(near) for _ in range(hovers)]
    start = unit.at.row * w + unit.at.col

    def ours(t: Cell) -> object:
        return rail_move(s, unit, t, measure_long_paths=False)

    def on(g: nx.Graph) -> Callable[[Cell], object]:
        def peer(t: Cell) -> object:
            try:
                return nx.shortest_path(g, start, t.row * w + t.col)
            except (nx.NetworkXNoPath, nx.NodeNotFound):
                return None
        return peer

    agree = 0
    for t in targets[:300]:
        r = rail_move(s, unit, t, measure_long_paths=False)
        p = on(view)(t)
        n = None if p is None else len(p) - 1
        if r.path is not None:
            assert n == len(r.path) - 1, f"rail: lengths differ at {s.map.label(t)}: {len(r.path) - 1} vs {n}"
        else:
            assert n is None or n > r.max_path, f"rail: networkx found {n} squares to {s.map.label(t)}, Adjutant none"
        agree += 1
    for fn in (ours, on(view), on(valid_only)):
        timed(fn, targets[:200])
    o, p, q = timed(ours, targets), timed(on(view), targets), timed(on(valid_only), targets)
    print(f"CWOL rail on {title}: {len(net)} rail squares; {hovers} destinations"
          f"{f' within {window} squares of the unit' if window else ''} ({agree} answers checked equal); {load()}")
    print(f"  networkx: shortest_path on a subgraph_view of the rail graph ({full.number_of_nodes()} nodes, "
          f"{full.number_of_edges()} edges) filtered by the side's control, so no rebuild after a control change")
    line("one rail move: bounded search + ties + verdict vs shortest_path on the view", o, p, "networkx")
    ratio = line(f"vs shortest_path on a graph of the valid rail only (built in {build_s * 1e3:.0f} ms CPU, "
                 "again after every control change)", o, q, "networkx")
    if target is not None:
        print(f"    target: CPU ratio >= {target:g}x: {'met' if ratio >= target else 'MISSED'}")


# ---------------------------------------------------------------------------
# 2. ACW hex reachability

ACW_SIZE = 500


def acw_scenario(seed: int = 1862) -> Scenario:
    """500 x 500 flat hexes: open (1), woods (3), water (impassable) in
    patches; 4% of hexsides are river, a fifth of them bridged; 300 enemy
    units; our infantry (3) and cavalry (5)."""
    rng = np.random.default_rng(seed)
    grid = HexGrid(ACW_SIZE, ACW_SIZE, Orientation.FLAT, "odd")
    gm = GridMap(grid, NumericNumbering())
    noise = rng.random((ACW_SIZE // 10 + 1, ACW_SIZE // 10 + 1))
    coarse = np.kron(noise, np.ones((10, 10)))[:ACW_SIZE, :ACW_SIZE]
    gm.terrain[:] = np.where(coarse < 0.65, 0, np.where(coarse < 0.93, 1, 2)).astype(np.uint8)
    flip = rng.random((ACW_SIZE, ACW_SIZE)) < 0.1
    gm.terrain[flip & (gm.terrain != 2)] = 1
    r = random.Random(seed)
    for _ in range(int(ACW_SIZE * ACW_SIZE * 3 * 0.04)):
        c = Cell(r.randrange(ACW_SIZE), r.randrange(ACW_SIZE))
        n = grid.neighbours(c)
        if n:
            e = Edge.between(c, r.choice(n))
            gm.rivers.add(e)
            if r.random() < 0.2:
                gm.bridges[e] = r.choice(("road", "rail"))
    terrain = [TerrainType("open", "Open", "o", "#dddd99", move_cost=1),
               TerrainType("woods", "Woods", "w", "#338833", move_cost=3),
               TerrainType("water", "Water", "~", "#3366cc", impassable=True)]
    types = [UnitType("infantry", "Infantry", 3, {"arm": "infantry"}), UnitType("cavalry", "Cavalry", 5,
                                                                                 {"arm": "cavalry"})]
    rs = Ruleset("ACW bench", terrain, types, options={"acw": {}})
    sides = [Faction("US", "Union", "#2244aa", "U"), Faction("CS", "Confederate", "#888888", "C")]
    units = []
    for k in range(300):
        units.append(Unit(f"CS{k}", "CS", "infantry", Cell(r.randrange(ACW_SIZE), r.randrange(ACW_SIZE)), 5))
    enemy = {u.at for u in units}
    k = 0
    while k < 400:
        c = Cell(r.randrange(ACW_SIZE), r.randrange(ACW_SIZE))
        if c in enemy or gm.terrain[c.row, c.col] == 2:
            continue
        units.append(Unit(f"US{k}", "US", "cavalry" if k % 3 == 0 else "infantry", c, 5))
        k += 1
    return Scenario("acw bench", rs, sides, gm, units)


def bench_acw(runs: int) -> None:
    from engine.rules.acw.movement import Board, reach
    from engine.rules.acw.units import movement_of

    s = acw_scenario()
    t0 = time.perf_counter()
    board = Board(s, "US")
    board_t = time.perf_counter() - t0
    t0 = time.perf_counter()
    g = nx.DiGraph()
    n_cells = s.map.width * s.map.height
    g.add_nodes_from(range(n_cells))
    edges = []
    for a in range(n_cells):
        if a in board.near_enemy or a in board.enemy:
            continue  # no way out of a hex next to the enemy (the start excepted: starts are chosen elsewhere)
        for b in board.neighbours(a):
            c = board.step_cost(a, b)
            if c is not None:
                edges.append((a, b, c))
    g.add_weighted_edges_from(edges)
    build_t = time.perf_counter() - t0
    ours_units = [u for u in s.units if u.side == "US" and board.index(u.at) not in board.near_enemy]
    rng = random.Random(3)
    chosen = [rng.choice(ours_units) for _ in range(runs)]

    def ours(u: Unit) -> object:
        return reach(s, u, board)

    def peer(u: Unit) -> object:
        return nx.single_source_dijkstra_path_length(g, board.index(u.at), cutoff=movement_of(s, u))

    for u in ours_units[:200]:
        a, b = reach(s, u, board).costs, peer(u)
        assert a == b, f"ACW: reach of {u.id} differs from networkx ({len(a)} vs {len(b)} hexes)"  # type: ignore
    def cold(u: Unit) -> object:
        board._links.clear()  # the steps the Board caches as searches go: none yet
        return reach(s, u, board)

    c = timed(cold, chosen)
    timed(ours, chosen[:100])
    timed(peer, chosen[:100])
    o, p = timed(ours, chosen), timed(peer, chosen)
    print(f"ACW hex reachability on {ACW_SIZE}x{ACW_SIZE} hexes, {len(s.map.rivers)} river hexsides, "
          f"{len(board.enemy)} enemy hexes; {runs} reaches of infantry (3 MP) and cavalry (5 MP); "
          f"{min(200, len(ours_units))} answers checked equal; {load()}")
    print(f"  Adjutant's Board (once per side and position) built in {board_t * 1e3:.0f} ms; "
          f"the networkx graph ({g.number_of_nodes()} nodes, {g.number_of_edges()} weighted edges) "
          f"in {build_t:.1f} s (neither in the times below)")
    line(f"reach: bucket-queue search over the Board's cached steps ({len(board._links)} hexes cached) vs "
         "single_source_dijkstra_path_length(cutoff=MP)", o, p, "networkx")
    line("the same with the step cache emptied before each reach (a Board's first searches)", c, p, "networkx")
    om, _ = summary(o[1])
    pm, _ = summary(p[1])
    print(f"    CPU counting the graph build (needed again after any unit moves, as the Board is): "
          f"Adjutant {om + board_t * 1e3:.1f} ms, networkx {pm + build_t * 1e3:.0f} ms, "
          f"ratio {(pm + build_t * 1e3) / (om + board_t * 1e3):.0f}x")


# ---------------------------------------------------------------------------
# 3. rendering

def _command_ok(args: list[str]) -> str | None:
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False,
                           env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if r.returncode == 0 else (r.stderr.strip().splitlines() or ["exit status " + str(r.returncode)])[-1]


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    w, h = struct.unpack(">II", head[16:24])
    return int(w), int(h)


def _children_ns() -> int:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return int((r.ru_utime + r.ru_stime) * 1e9)


def _timed_run(args: list[str], extra_env: dict[str, str] | None = None) -> tuple[int, int]:
    """Wall and CPU nanoseconds of one whole process (CPU: user + system of
    the child, from ``getrusage(RUSAGE_CHILDREN)``); ``extra_env`` is added
    to its environment."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **(extra_env or {}))
    c0, t0 = _children_ns(), time.perf_counter_ns()
    r = subprocess.run(args, capture_output=True, text=True, env=env, check=False, timeout=900)
    wall = time.perf_counter_ns() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:2])} failed: {r.stderr.strip()[-300:]}")
    return wall, _children_ns() - c0


def _alternate(a: list[str], b: list[str], runs: int) -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]]:
    """``runs`` runs of each command, alternating (so both see the same
    machine), after one untimed run of each; (wall, CPU) lists of each."""
    _timed_run(a)
    _timed_run(b)
    out: tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]] = (([], []), ([], []))
    for _ in range(runs):
        for k, args in enumerate((a, b)):
            w, c = _timed_run(args)
            out[k][0].append(w)
            out[k][1].append(c)
    return out


def _alternate_many(commands: Sequence[list[str]], runs: int,
                    extra_env: dict[str, str] | None = None) -> list[tuple[list[int], list[int]]]:
    """:func:`_alternate` for any number of commands: (wall, CPU) lists of each."""
    for args in commands:
        _timed_run(args, extra_env)
    out: list[tuple[list[int], list[int]]] = [([], []) for _ in commands]
    for _ in range(runs):
        for k, args in enumerate(commands):
            w, c = _timed_run(args, extra_env)
            out[k][0].append(w)
            out[k][1].append(c)
    return out


def render_floor(src: Path, tmx: Path, size: int, out: Path, runs: int) -> None:
    """What every ``adjutant render`` pays before drawing, as whole
    processes alternated with ``tmxrasterizer`` on the same map: the
    interpreter alone, numpy imported, the scenario loaded (engine.io,
    its schema check, jsonschema not imported for a valid file, the
    model's arrays), PySide6.QtGui
    imported, a QGuiApplication made (OpenBLAS at one thread, as the
    command runs it).  Printed as CPU and wall medians and p95: the least a
    render command built on these libraries can cost."""
    py = sys.executable
    cases = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -c 'import numpy'", [py, "-c", "import numpy"]),
        ("the scenario loaded (engine.io.load_text_checked: numpy, the schema check, the model)",
         [py, "-c", f"from engine.io import load_text_checked; load_text_checked({str(src)!r})"]),
        ("python -c 'import PySide6.QtGui'", [py, "-c", "import PySide6.QtGui"]),
        ("PySide6.QtGui imported and a QGuiApplication made",
         [py, "-c", "from PySide6.QtGui import QGuiApplication; QGuiApplication([])"]),
        ("tmxrasterizer, the whole render", [shutil.which("tmxrasterizer") or "tmxrasterizer", "--size", str(size),
                                             str(tmx), str(out)]),
    ]
    # numpy's OpenBLAS kept to one thread, as the adjutant command keeps it (app/cli/__init__.py)
    results = _alternate_many([c for _, c in cases], runs, {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    print(f"  the floor of a render command in Python ({runs} runs each, alternated; {load()}):")
    for (name, _), (wall, cpu) in zip(cases, results):
        cm, cp = summary(cpu)
        wm, wp = summary(wall)
        print(f"    {name:84} CPU median {cm:7.1f} ms p95 {cp:7.1f} | wall median {wm:7.1f} ms p95 {wp:7.1f}")


RENDER_CASES: tuple[tuple[str, int, float, float | None], ...] = (
    ("square", 200, 24.0, None), ("square", 1000, 4.0, None), ("square", 200, 4.0, 1.0), ("hex", 500, 8.0, 1.0))
"""(grid, cells a side, pixels per cell, target: the least CPU ratio
tmxrasterizer / Adjutant, None for none): squares are the CWOL bench map,
hexes :func:`acw_scenario`."""


def bench_render(runs: int, only: Sequence[str] = ()) -> None:
    """The render cases of :data:`RENDER_CASES`; ``only``: the cases named
    ``KIND-SIZE-SCALE`` (``square-200-4``), all when empty."""
    print(f"Rendering a whole map to PNG, adjutant render vs Tiled's tmxrasterizer; {load()}")
    adjutant = shutil.which("adjutant", path=str(Path(sys.executable).parent)) or shutil.which("adjutant")
    raster = shutil.which("tmxrasterizer")
    reasons = []
    if raster is None:
        reasons.append("tmxrasterizer is not installed (Debian/Ubuntu: apt-get install tiled)")
    if adjutant is None:
        reasons.append("the adjutant command is not installed (pip install -e .)")
    else:
        for cmd in ("render", "export-tiled"):
            why = _command_ok([adjutant, cmd, "--help"])
            if why is not None:
                reasons.append(f"'adjutant {cmd}' is not available ({why})")
    if reasons:
        print("  skipped: " + "; ".join(reasons))
        return
    assert adjutant is not None and raster is not None
    import compileall

    from bench import cwol_rail as cw
    from engine.io import save_scenario

    # an installed program runs from compiled bytecode, as tmxrasterizer runs compiled
    for pkg in ("engine", "app"):
        compileall.compile_dir(str(ROOT / pkg), quiet=1)
    print(f"  {runs} runs each, alternating, after one untimed run each; whole processes (start-up included); "
          "the project byte-compiled first")
    with tempfile.TemporaryDirectory(prefix="adjutant-bench-") as d:
        folder = Path(d)
        for kind, size, scale, target in RENDER_CASES:
            if only and f"{kind}-{size}-{scale:g}" not in only:
                continue
            src = folder / f"map{kind}{size}.json"
            if not src.exists():
                # the CWOL bench map (5% rail, Union control in rectangles), or the ACW hex map
                save_scenario(cw.scenario(size=size) if kind == "square" else acw_scenario(), src)
            tmx = folder / f"map{kind}{size}.tmx"
            r = subprocess.run([adjutant, "export-tiled", str(src), "--out", str(tmx)], capture_output=True,
                               text=True, check=False, timeout=900)
            if r.returncode != 0 or not tmx.exists():
                print(f"  skipped: 'adjutant export-tiled {src.name} {tmx.name}' failed: {r.stderr.strip()[-300:]}")
                return
            ours_png, peer_png = folder / f"adjutant{kind}{size}.png", folder / f"tiled{kind}{size}.png"
            _timed_run([adjutant, "render", str(src), "--out", str(ours_png), "--scale", f"{scale:g}"])
            w, h = _png_size(ours_png)
            o, p = _alternate([adjutant, "render", str(src), "--out", str(ours_png), "--scale", f"{scale:g}"],
                              [raster, "--size", str(max(w, h)), str(tmx), str(peer_png)], runs)
            pw, ph = _png_size(peer_png)
            ratio = line(f"{size}x{size} {kind} map at {scale:g} px: Adjutant's image {w}x{h}, tmxrasterizer's "
                         f"{pw}x{ph}", o, p, "Tiled")
            if target is not None:
                print(f"    target: CPU ratio >= {target:g}x: {'met' if ratio >= target else 'MISSED'}")
            if kind == "square" and size == 200 and scale == 4.0:
                render_floor(src, tmx, max(w, h), peer_png, runs)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    print("Adjutant against peers (ratio = peer median / Adjutant median, wall and CPU, measured in this run; "
          "> 1: Adjutant is faster)")
    print(load() + "\n")
    parts = [a for a in args if a in ("rail", "acw", "render")] or ["rail", "acw", "render"]
    if "rail" in parts:
        bench_rail(500 if quick else 2000)
        print()
    if "acw" in parts:
        bench_acw(300 if quick else 2000)
        print()
    if "render" in parts:
        bench_render(int(os.environ.get("BENCH_RENDER_RUNS", "3" if quick else "7")),
                     [a for a in args if a.count("-") == 2 and not a.startswith("-")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
