"""Fuzzing the inputs a game is played with, through the real command line
(``docs/reliability.md``, "Hostile inputs"): orders files (``adjutant orders
--dry-run``), railplan orders (``adjutant railplan``) and Tiled tilesets
(:func:`engine.io.tiled.format.load_tileset`).  Every input ends in a
result or a refusal with exit status 1, never a traceback, within a second
of CPU.  Short form: 200 inputs per loader; long form (``-m slow``): 10,000.
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from reliability_kit import (
    LONG_EXAMPLES,
    MAX_CPU_SECONDS,
    SHORT_EXAMPLES,
    check_loader,
    fuzz_settings,
    mutated_json,
    mutated_text,
    to_text,
)

from app.cli import main
from engine.io.tiled import TiledError
from engine.io.tiled.format import load_tileset

ROOT = Path(__file__).resolve().parents[2]
CWOL = ROOT / "maps" / "cwol_mobile_columbus.json"
EUROPE = ROOT / "maps" / "railroad_module_europe.json"

ORDER_SEEDS = [
    [{"unit": "CS1IN", "to": "E4-X4", "time": "1862-04-01 12:00"}, {"unit": "US1IN", "to": "D7-V2"}],
    {"orders": [{"unit": "CS1IN", "to": "E6-Y4"}]},
    [{"unit": "CS1IN", "to": "E4-X4", "speed": 3}],
    [],
]
RAIL_OPTIONS = ROOT / "maps" / "aa_rail_options.json"
RAIL_OPTIONS_SEEDS = [
    [{"action": "buy", "nation": "germany", "piece": "station", "count": 1}],
    [{"action": "place", "nation": "germany", "piece": "railroad", "territory": "germany"}],
    [{"action": "destroy", "nation": "germany", "territory": "germany", "piece": "station"}],
    [{"unit": "ger_inf", "to": "italy"}],
]
RAIL_SEEDS = [
    [{"unit": "ger_inf_dk", "to": "belarus"}],
    {"orders": [{"nation": "germany", "from": "denmark", "to": "belarus", "count": 2}]},
    [{"unit": "ger_inf_dk", "to": "denmark"}, {"nation": "germany", "from": "denmark", "to": "x", "count": 0}],
]
TSX_SEEDS = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<tileset name="ts" tilewidth="32" tileheight="32" tilecount="4" '
    'columns="2"><image source="ts.png" width="64" height="64"/><tile id="0"><properties>'
    '<property name="terrain" value="clear"/><property name="move_cost" type="int" value="2"/></properties>'
    '</tile><tile id="1"><properties><property name="terrain" value="forest"/></properties></tile></tileset>',
    json.dumps({"type": "tileset", "name": "ts", "tilewidth": 32, "tileheight": 32, "tilecount": 2, "columns": 2,
                "tiles": [{"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "clear"}]}]}),
]


def _inputs(seeds: list) -> st.SearchStrategy[str]:
    texts = [json.dumps(s) for s in seeds]
    return st.one_of(mutated_text(texts), mutated_json(seeds).map(to_text), st.text(max_size=200))


def _command(argv: list[str], what: str, timed: bool = True) -> None:
    """One run of the command line: a status of 0 or 1 (a refusal), a
    message when refused, no exception, at most a second of CPU (unless
    not ``timed``: a warm-up that imports the rules)."""
    out, err = io.StringIO(), io.StringIO()
    t0 = time.process_time()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except BaseException as e:  # a traceback
        raise AssertionError(f"{what}: uncaught {type(e).__name__}: {e}") from e
    dt = time.process_time() - t0
    assert code in (0, 1), (what, code, err.getvalue()[-500:])
    if code == 1:  # refused: the whole input with a message, or an order with its verdict
        assert (err.getvalue() + out.getvalue()).strip(), f"{what}: refused without a message"
    assert "Traceback" not in err.getvalue()
    assert dt <= MAX_CPU_SECONDS or not timed, f"{what}: took {dt:.2f} s of CPU"


def _settings(n: int) -> settings:
    """:func:`fuzz_settings` without Hypothesis's explain phase, whose line
    tracer makes a whole command's run hundreds of times slower."""
    return settings(fuzz_settings(n), phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])


def _orders_fuzz(tmp_path: Path, n: int) -> None:
    f = tmp_path / "orders.json"
    for game, seeds in ((CWOL, ORDER_SEEDS), (RAIL_OPTIONS, RAIL_OPTIONS_SEEDS)):  # imports done outside the timing
        for seed in seeds:
            f.write_text(json.dumps(seed), encoding="utf-8")
            _command(["orders", str(game), "--orders", str(f), "--dry-run"], "warm-up", timed=False)

    @_settings(n)
    @given(st.one_of(_inputs(ORDER_SEEDS).map(lambda text: (CWOL, text)),
                     _inputs(RAIL_OPTIONS_SEEDS).map(lambda text: (RAIL_OPTIONS, text))))
    def run(case: tuple[Path, str]) -> None:
        game, text = case
        f.write_text(text, encoding="utf-8", errors="surrogatepass")
        _command(["orders", str(game), "--orders", str(f), "--dry-run", "--json"], f"orders on {game.name}")

    run()


def _railplan_fuzz(tmp_path: Path, n: int) -> None:
    f = tmp_path / "rail.json"
    for seed in RAIL_SEEDS:  # imports done outside the timing
        f.write_text(json.dumps(seed), encoding="utf-8")
        _command(["railplan", str(EUROPE), "--orders", str(f)], "warm-up", timed=False)

    @_settings(n)
    @given(_inputs(RAIL_SEEDS))
    def run(text: str) -> None:
        f.write_text(text, encoding="utf-8", errors="surrogatepass")
        _command(["railplan", str(EUROPE), "--orders", str(f), "--json"], "railplan")

    run()


def _tileset_fuzz(tmp_path: Path, n: int) -> None:
    f = tmp_path / "ts.tsx"

    @_settings(n)
    @given(st.one_of(mutated_text(TSX_SEEDS), st.text(max_size=200)))
    def run(text: str) -> None:
        f.write_bytes(text.encode("utf-8", "surrogatepass"))
        check_loader(lambda: load_tileset(f, 1), TiledError, str(f), "load_tileset")

    run()


def test_fuzz_orders_files_short(tmp_path: Path) -> None:
    _orders_fuzz(tmp_path, SHORT_EXAMPLES)


def test_fuzz_railplan_orders_short(tmp_path: Path) -> None:
    _railplan_fuzz(tmp_path, SHORT_EXAMPLES)


def test_fuzz_tilesets_short(tmp_path: Path) -> None:
    _tileset_fuzz(tmp_path, SHORT_EXAMPLES)


@pytest.mark.slow
def test_fuzz_orders_files_long(tmp_path: Path) -> None:
    _orders_fuzz(tmp_path, LONG_EXAMPLES)


@pytest.mark.slow
def test_fuzz_railplan_orders_long(tmp_path: Path) -> None:
    _railplan_fuzz(tmp_path, LONG_EXAMPLES)


@pytest.mark.slow
def test_fuzz_tilesets_long(tmp_path: Path) -> None:
    _tileset_fuzz(tmp_path, LONG_EXAMPLES)
