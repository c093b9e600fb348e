"""A grid map's bridges are checked outside jsonschema (engine/io/common.py,
``_bridge_problems``) for speed; every broken bridge still gets exactly the
problems the whole schema gives (same paths, same words)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.io import common

ACW = Path(__file__).resolve().parents[1] / "maps" / "acw_short_campaign.json"

CASES: dict[str, Any] = {
    "one cell": {"between": ["0101"], "kind": "road"},
    "three cells": {"between": ["0101", "0102", "0103"], "kind": "road"},
    "a kind with a space": {"between": ["0101", "0102"], "kind": "road bridge"},
    "a kind that is a number": {"between": ["0101", "0102"], "kind": 3},
    "no kind": {"between": ["0101", "0102"]},
    "an extra key": {"between": ["0101", "0102"], "kind": "rail", "x": 1},
    "a label that is a number": {"between": ["0101", 102], "kind": "rail"},
    "a string": "0101-0102",
}


def plain(d: dict[str, Any]) -> list[tuple[str, str]]:
    v = common._validator()
    return sorted((common._json_path(e.absolute_path), common._schema_message(e)) for e in v.iter_errors(d))


def acw() -> dict[str, Any]:
    d: dict[str, Any] = json.loads(ACW.read_text(encoding="utf-8"))
    assert d["map"]["bridges"], "the sample has bridges"
    return d


@pytest.mark.parametrize("name", list(CASES))
def test_the_same_problems_as_the_whole_schema(name: str) -> None:
    d = acw()
    d["map"]["bridges"].insert(1, CASES[name])
    before = copy.deepcopy(d)
    got = sorted((p.path, p.message) for p in common.schema_problems(d, "acw.json"))
    assert got and got == plain(d)
    assert d == before, "the checked data is not changed"


def test_good_bridges_pass() -> None:
    assert common.schema_problems(acw(), "acw.json") == []
