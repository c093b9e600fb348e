"""The reliability claims and their tests (issue 22: "no sentence of the
Reliability docs is untested").

* Every sentence of the README's Reliability section is listed in the table
  "Claims and their tests" of ``docs/reliability.md`` beside the tests that
  would fail if it were false, and every test named there exists.
* The limits the docs state (the "Limits" table and the README) are the
  numbers the code uses: changing either alone fails here.
* Every statement of ``docs/reliability.md`` is a table row beside the tests
  that would fail if it were false: the page has no prose outside its
  tables, every table has a tests column, every row names tests that exist.
* "Peak memory measured per input in a child process" holds: the figure
  :func:`test_hostile_inputs.adjutant` reports is the child's own, not the
  test process's lifetime peak.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOC = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1:]
    end = re.search(r"^## ", rest, re.M)
    return rest[: end.start()] if end else rest


def _sentences(text: str) -> list[str]:
    """Sentences of a Markdown paragraph block (split at '. ' before a capital
    or a code span), links shown as their text."""
    flat = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", " ".join(text.split()))
    return [s.strip() for s in re.split(r"(?<=[.])\s+(?=[A-Z\[`])", flat) if s.strip()]


def _claims_table() -> list[tuple[str, list[str]]]:
    """Rows of the claims table: (the sentence's opening words, test references)."""
    rows = []
    for line in _section(DOC, "## Claims and their tests").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] not in ("sentence", "---") and not set(cells[0]) <= {"-"}:
            rows.append((cells[0].strip('"'), re.findall(r"`([^`]+::[^`]+)`", cells[1])))
    return rows


def test_every_readme_reliability_sentence_is_in_the_claims_table() -> None:
    openings = [opening.rstrip(".… ") for opening, _ in _claims_table()]
    missing = [s for s in _sentences(_section(README, "## Reliability"))
               if not any(" ".join(s.split()).startswith(o) for o in openings)]
    assert not missing, "README Reliability sentences with no row in docs/reliability.md's claims table:\n" + \
        "\n".join(missing)


def test_every_claim_names_tests_that_exist() -> None:
    rows = _claims_table()
    assert len(rows) >= 9
    for opening, refs in rows:
        assert refs, f"the claim '{opening}' names no test"
        for ref in refs:
            path, name = ref.split("::")
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"{ref} (for '{opening}') does not exist"


def test_every_test_named_beside_a_limit_exists() -> None:
    """The hostile-inputs table under "Limits": bare names are tests of
    ``tests/reliability/test_hostile_inputs.py``, others carry their path."""
    limits = _section(DOC, "## Limits")
    hostile = (ROOT / "tests" / "reliability" / "test_hostile_inputs.py").read_text(encoding="utf-8")
    names = re.findall(r"`(?:([\w/]+\.py)::)?(test_\w+)`", limits)
    assert len(names) >= 20
    for path, name in names:
        source = (ROOT / path).read_text(encoding="utf-8") if path else hostile
        assert re.search(rf"^def {name}\(", source, re.M), f"{path or 'test_hostile_inputs.py'}::{name} does not exist"


def test_the_limits_stated_are_the_limits_used() -> None:
    from app.cli import orders
    from app.cli.railplan import MAX_ORDERS_BYTES
    from app.cli.render import MAX_SCALE
    from app.cli.trace import MAX_PIXELS
    from engine.io import inputs
    from engine.io.common import MAX_FILE_BYTES, MAX_NUMBER_DIGITS
    from engine.io.tiled import format as tiled_format
    from engine.io.tiled.format import MAX_FILE_BYTES as TILED_BYTES
    from engine.io.triplea import MAX_COORDINATE, MAX_PRODUCTION, MAX_SIDES, MAX_XML_BYTES
    from engine.printing import MAX_PRINT_CELLS
    from engine.territory import geometry

    limits = _section(DOC, "## Limits")
    stated = {
        "| 512 MiB |": MAX_FILE_BYTES == 512 << 20,
        "| 256 MiB |": TILED_BYTES == 256 << 20,
        "100 x its compressed size + 1 MiB, at most 256 MiB": (inputs.MAX_RATIO, inputs.RATIO_SLACK) == (100, 1 << 20),
        "| 64 MiB |": MAX_XML_BYTES == 64 << 20,
        "| 16 MiB |": MAX_ORDERS_BYTES == 16 << 20,
        "| 2,000,000 `<` |": inputs.MAX_XML_MARKUP == 2_000_000,
        "| 100 levels |": inputs.MAX_XML_DEPTH == 100,
        "at most 4096 |": MAX_SCALE == 4096,
        "40,000 pairs": geometry.MAX_REPAIR_PAIRS == 40_000,
        "60,000 pairs": geometry.MAX_BUDGET_PAIRS == 60_000,
        "200,000 rings": geometry.MAX_BUDGET_RINGS == 200_000,
        "5,000,000 points": geometry.MAX_BUDGET_POINTS == 5_000_000,
        "10,000 points": geometry.MAX_REPAIR_POINTS == 10_000,
        "0 to 1,000,000": MAX_PRODUCTION == 1_000_000,
        "0 to 10,000,000": MAX_COORDINATE == 10_000_000,
        "at most 60 sides": MAX_SIDES == 60,
        "| regular files only, 16 MiB, nesting 32 levels |": (orders.MAX_ORDERS_BYTES, orders.MAX_ORDERS_DEPTH)
        == (16 << 20, 32),
        "| 256 tilesets; 10,000 tiles": (tiled_format.MAX_TILESETS, tiled_format.MAX_DESCRIBED_TILES) == (256, 10_000),
        "| 18 digits (a number property: 19 characters, 64 for a float) |": tiled_format.MAX_ATTR_DIGITS == 18,
        "| 300 digits (beyond any float's range)": MAX_NUMBER_DIGITS == 300,
        "| 1,000,000 cells |": MAX_PRINT_CELLS == 1_000_000,
        "| 150 Mpx, read with libvips |": MAX_PIXELS == 150_000_000,
    }
    for text, matches in stated.items():
        assert text in limits, f"docs/reliability.md's Limits table no longer says {text!r}"
        assert matches, f"the code's limit differs from what docs/reliability.md says: {text!r}"
    readme = " ".join(_section(README, "## Reliability").split())
    assert "at most 100 times their size" in readme and inputs.MAX_RATIO == 100
    assert "nest at most 100 deep" in readme and inputs.MAX_XML_DEPTH == 100


def test_peak_memory_is_measured_for_the_child_alone() -> None:
    import resource

    from test_hostile_inputs import MEMORY_LIMIT_MB, child

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    big = child([sys.executable, "-c", "b = bytearray(300 << 20); b[::4096] = b'x' * len(b[::4096])"])
    small = child([sys.executable, "-c", "pass"])
    assert big.code == 0 and small.code == 0
    assert big.peak_mb >= 300, big.peak_mb  # the child's own peak
    assert small.peak_mb < 100, small.peak_mb  # not a lifetime peak carried over from the big child
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 < before + 100  # nor this process's
    assert MEMORY_LIMIT_MB == 500


@pytest.mark.parametrize("claim", ["within 2 s of CPU and 500 MB"])
def test_the_hostile_input_bounds_are_the_tests_bounds(claim: str) -> None:
    from test_hostile_inputs import CPU_LIMIT_S, MEMORY_LIMIT_MB

    assert (CPU_LIMIT_S, MEMORY_LIMIT_MB) == (2.0, 500)
    assert claim in " ".join(_section(README, "## Reliability").split())


def test_the_running_section_names_the_long_form() -> None:
    running = _section(DOC, "## Running")
    assert "python -m pytest -m slow tests/reliability" in running
    r = subprocess.run([sys.executable, "-m", "pytest", "--markers"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, check=False)
    assert "slow" in r.stdout


def _tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables of ``text``: rows of cells (header first, the
    ``---`` rule dropped); a ``\\|`` inside a cell is kept in it."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(set(c) <= {"-", ":"} for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _test_exists(ref: str) -> bool:
    path, _, name = ref.rpartition("::")
    source = (ROOT / path).read_text(encoding="utf-8") if path else \
        (ROOT / "tests" / "reliability" / "test_hostile_inputs.py").read_text(encoding="utf-8")
    return re.search(rf"^def {re.escape(name)}\(", source, re.M) is not None


def test_every_statement_of_the_reliability_page_is_beside_its_tests() -> None:
    prose = []
    fenced = False
    for n, line in enumerate(DOC.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not (fenced or not line.strip() or line.startswith(("#", "|"))):
            prose.append(f"line {n}: {line}")
    assert not prose, "docs/reliability.md has statements outside its tables (each needs a row and its tests):\n" + \
        "\n".join(prose)
    tables = _tables(DOC)
    assert len(tables) >= 10
    for table in tables:
        header = [h.lower() for h in table[0]]
        columns = [i for i, h in enumerate(header) if "test" in h or "shown by" in h]
        assert columns, f"a table of docs/reliability.md has no tests column: {table[0]}"
        for row in table[1:]:
            refs = re.findall(r"`((?:[\w/.]+::)?test_\w+)`", row[columns[-1]])
            assert refs, f"docs/reliability.md: the row '{row[0][:80]}' names no test"
            missing = [r for r in refs if not _test_exists(r)]
            assert not missing, f"docs/reliability.md: the row '{row[0][:80]}' names tests that do not exist: {missing}"


class _Config:
    def __init__(self, markexpr: str) -> None:
        self.markexpr = markexpr

    def getoption(self, name: str, default: object = None) -> object:
        return self.markexpr if name == "markexpr" else default


def test_slow_tests_run_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import long_runs_requested

    monkeypatch.delenv("ADJUTANT_LONG", raising=False)
    assert not long_runs_requested(_Config(""))  # type: ignore[arg-type]
    assert not long_runs_requested(_Config("not slow"))  # type: ignore[arg-type]
    assert long_runs_requested(_Config("slow"))  # type: ignore[arg-type]
    assert long_runs_requested(_Config("slow and gui"))  # type: ignore[arg-type]
    monkeypatch.setenv("ADJUTANT_LONG", "1")
    assert long_runs_requested(_Config(""))  # type: ignore[arg-type]
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0", "-p", "no:cacheprovider",
                        "tests/reliability/test_soak.py::test_soak_long"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, check=False, env={k: v for k, v in __import__("os").environ.items()
                                                      if k != "ADJUTANT_LONG"})
    assert "1 skipped" in r.stdout and "python -m pytest -m slow tests/reliability" in r.stdout, r.stdout[-1500:]


def test_the_fuzz_sizes_follow_the_environment() -> None:
    code = "import reliability_kit as k; print(k.SHORT_EXAMPLES, k.LONG_EXAMPLES)"
    env = dict(__import__("os").environ, ADJUTANT_FUZZ_SHORT="7", ADJUTANT_FUZZ_LONG="9")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "tests" / "reliability", capture_output=True,
                       text=True, timeout=120, check=False, env=dict(env, PYTHONPATH=str(ROOT)))
    assert r.stdout.split() == ["7", "9"], r.stderr[-1500:]
    env.pop("ADJUTANT_FUZZ_SHORT")
    env.pop("ADJUTANT_FUZZ_LONG")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "tests" / "reliability", capture_output=True,
                       text=True, timeout=120, check=False, env=dict(env, PYTHONPATH=str(ROOT)))
    assert r.stdout.split() == ["200", "10000"], r.stderr[-1500:]


def test_shrinking_is_off_unless_asked() -> None:
    for path in ("tests/reliability/test_undo_invariants.py", "tests/gui/test_gui_stateful.py"):
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(r"Phase\.shrink|tuple\(Phase\)", source) and 'os.environ.get("ADJUTANT_SHRINK")' in source, path
