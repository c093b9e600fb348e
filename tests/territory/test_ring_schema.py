"""Territory rings are checked outside jsonschema (engine/io/common.py,
``_ring_problems``) for speed; every broken ring still gets exactly the
problems the whole schema gives (same paths, same words)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.io import common

EUROPE = Path(__file__).resolve().parents[2] / "maps" / "railroad_module_europe.json"


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(d: dict[str, Any]) -> None:
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return edit


T = ["map", "territories"]
CASES = {
    "a ring of two points": _set([*T, 0, "polygons", 0], [[0, 0], [1, 1]]),
    "polygons not a list": _set([*T, 1, "polygons"], "x"),
    "a ring that is an object": _set([*T, 2, "polygons", 0], {"a": 1}),
    "holes: short, a number, a good ring": _set([*T, 2, "holes"], [[[0, 0]], 5, [[1, 2], [3, 4], [5, 6]]]),
    "a territory that is a number": _set([*T, 3], 7),
    "no polygons": _set([*T, 4, "polygons"], []),
    "a ring of nulls": _set([*T, 5, "polygons", 0], [None, None, None]),
}


def plain(d: dict[str, Any]) -> list[tuple[str, str]]:
    v = common._validator()
    return sorted((common._json_path(e.absolute_path), common._schema_message(e)) for e in v.iter_errors(d))


@pytest.mark.parametrize("name", list(CASES))
def test_the_same_problems_as_the_whole_schema(name: str) -> None:
    d = json.loads(EUROPE.read_text(encoding="utf-8"))
    CASES[name](d)
    before = copy.deepcopy(d)
    got = sorted((p.path, p.message) for p in common.schema_problems(d, "europe.json"))
    assert got == plain(d)
    assert d == before, "the checked data is not changed"


def test_a_broken_ring_is_named() -> None:
    d = json.loads(EUROPE.read_text(encoding="utf-8"))
    CASES["a ring of two points"](d)
    assert [(p.path, p.message) for p in common.schema_problems(d, "europe.json")] == [
        ("$.map.territories[0].polygons[0]", "[[0, 0], [1, 1]] is too short")]
