"""A map's rivers read all at once (plain numeric labels read as arrays,
:meth:`engine.labels.Numbering.parse_plain`) give the scenario that reading
them one by one gives, in the same order; a file with any bad river is read
one by one, so each problem is named as before."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from engine.io import ScenarioError, scenario_from_data
from engine.labels import Numbering, NumericNumbering
from tests.test_scenario_format import base_data


def numeric_data(kind: str, w: int, h: int, first: int, order: str, sep: str, seed: int) -> dict[str, Any]:
    """A map numbered ``numeric`` with many rivers (and a bridge on one)."""
    d = base_data(kind, w, h)
    n = NumericNumbering(first, sep, order)  # type: ignore[arg-type]
    d["map"]["numbering"] = n.to_dict()
    s = scenario_from_data(base_data(kind, w, h))
    grid = s.map.grid
    rng = random.Random(seed)
    from engine.grids import Cell

    rivers = []
    for _ in range(w * h):
        c = Cell(rng.randrange(w), rng.randrange(h))
        sides = [x for x in grid.neighbours(c) if grid.shares_side(c, x)]
        x = rng.choice(sides)
        rivers.append([n.label(c), n.label(x)] if rng.random() < 0.5 else [n.label(x), n.label(c)])
    d["map"]["rivers"] = rivers
    d["map"]["bridges"] = [{"between": rivers[3], "kind": "rail"}]
    d["map"]["links"] = {"rail": [[n.label(Cell(0, 0)), n.label(Cell(1, 0))]]}
    d["map"]["places"] = [{"at": n.label(Cell(1, 1)), "name": "Mobile"}]
    d["units"][0]["at"] = n.label(Cell(1, 1))
    return d


def one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(NumericNumbering, "parse_plain", Numbering.parse_plain)


@pytest.mark.parametrize("kind,first,order,sep", [
    ("hex", 1, "col-row", "-"), ("hex", 0, "row-col", "/"), ("square", 3, "col-row", "::"), ("hex", 1, "row-col", "-")])
def test_the_same_scenario_in_the_same_order(kind: str, first: int, order: str, sep: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    d = numeric_data(kind, 23, 17, first, order, sep, seed=first + len(sep))
    s = scenario_from_data(d)
    with monkeypatch.context() as m:
        one_by_one(m)
        ref = scenario_from_data(d)
    assert len(s.map.rivers) > 100
    assert list(s.map.rivers) == list(ref.map.rivers)
    assert s.map.bridges == ref.map.bridges and s.map.links == ref.map.links and s.map.places == ref.map.places
    assert [u.at for u in s.units] == [u.at for u in ref.units]


@pytest.mark.parametrize("bad,expect", [
    (["1-1", "1-3"], "$.map.rivers[7]: '1-1' and '1-3' share no side"),
    (["1-1", "1-1"], "$.map.rivers[7]: '1-1' and '1-1' share no side"),
    (["1-1", "99-1"], "$.map.rivers[7][1]: '99-1' is off the map"),
    (["1-1", "0-1"], "$.map.rivers[7][1]: '0-1': numbering starts at 1"),
    (["1-1", "1_2"], "$.map.rivers[7][1]: '1_2' is not a label like '1-1'"),
])
def test_a_bad_river_is_named_as_before(bad: list[str], expect: str, monkeypatch: pytest.MonkeyPatch) -> None:
    d = numeric_data("hex", 9, 8, 1, "col-row", "-", seed=5)
    d["map"]["rivers"][7] = bad
    with pytest.raises(ScenarioError) as e:
        scenario_from_data(d, "bad.json")
    got = [str(p) for p in e.value.problems]
    assert any(expect in p for p in got), got
    with monkeypatch.context() as m:
        one_by_one(m)
        with pytest.raises(ScenarioError) as e2:
            scenario_from_data(d, "bad.json")
    assert [str(p) for p in e2.value.problems] == got


def test_labels_with_spaces_are_read_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    d = numeric_data("hex", 9, 8, 1, "col-row", "-", seed=6)
    d["map"]["rivers"][0] = [" " + d["map"]["rivers"][0][0] + " ", d["map"]["rivers"][0][1]]
    s = scenario_from_data(d)
    with monkeypatch.context() as m:
        one_by_one(m)
        ref = scenario_from_data(d)
    assert len(s.map.rivers) > 10 and list(s.map.rivers) == list(ref.map.rivers)


@pytest.mark.parametrize("first,order,sep", [(1, "col-row", "-"), (0, "row-col", "ab"), (7, "col-row", ".")])
def test_parse_plain_reads_what_parse_reads(first: int, order: str, sep: str) -> None:
    n = NumericNumbering(first, sep, order)  # type: ignore[arg-type]
    rng = random.Random(first)
    from engine.grids import Cell

    cells = [Cell(rng.randrange(10 ** rng.randrange(1, 7)), rng.randrange(5000)) for _ in range(500)]
    labels = [n.label(c) for c in cells] + [f"{'0' * 3}{first + 4}{sep}{first}"]
    got = n.parse_plain(labels)
    assert got is not None
    want = np.array([(c.col, c.row) for c in map(n.parse, labels)], np.int64)
    assert got.dtype == np.int64 and (got == want).all()


@pytest.mark.parametrize("labels", [
    [], ["1-2", " 1-2"], ["1-2", "0-1"], ["1-2\n3-4"], ["\u0661-2"], ["1-2-3"], ["1" * 19 + "-1"], ["1-2", 3],
    ["-1"], ["1-"], ["1--2"], ["12"], ["1-2\x003"], ["1\n2"], [""], ["1-2 "], ["+1-2"]])
def test_parse_plain_declines_anything_not_plain(labels: list[Any]) -> None:
    assert NumericNumbering().parse_plain(labels) is None


def test_long_digit_runs_are_found_as_the_regular_expression_finds_them() -> None:
    """:func:`engine.io.common.has_long_digits` (read as one array) answers
    as ``re.search("[0-9]{301,}")`` does, non-ASCII digits and letters
    and lone surrogates included."""
    import re

    from engine.io.common import MAX_NUMBER_DIGITS, has_long_digits

    pattern = re.compile("[0-9]{%d,}" % (MAX_NUMBER_DIGITS + 1))
    rng = random.Random(7)
    pieces = ["a", "\u00e9", "\ud800", "-", "\n", "\u0663" * 400, "1", "9" * 299, "0" * 300, "5" * 301, "7" * 302]
    found = 0
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 7)))
        want = bool(pattern.search(text))
        found += want
        assert has_long_digits(text) == want, text[:40]
    assert 100 < found < 1900
