"""A scenario the schema accepts skips jsonschema (``_conforms``, a check
of the same schema, decides it); it must never accept what jsonschema
refuses, and it must accept the maps Adjutant ships, or nothing is gained.
The refusals themselves are jsonschema's, as before
(``tests/test_scenario_format.py``)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.io.common import _conforms, _jsonschema_validator, _Unknown, _validator, schema_problems

ROOT = Path(__file__).resolve().parent.parent
MAPS = sorted((ROOT / "maps").glob("*.json"))


def _skeleton(data: dict[str, Any]) -> dict[str, Any]:
    """The document the schema sees after the bulk checks (``schema_problems``)."""
    from engine.io import common

    m = data.get("map")
    if isinstance(m, dict) and isinstance(m.get("grid"), dict) and m["grid"].get("kind") in ("square", "hex"):
        skeleton, _ = common._bulk_problems(m, "x")
        skeleton["bridges"], skeleton["places"] = [], []
        return {**data, "map": skeleton, "units": []}
    if isinstance(m, dict) and isinstance(m.get("grid"), dict) and m["grid"].get("kind") == "territory":
        skeleton, _ = common._ring_problems(m, _validator(), "x")
        return {**data, "map": skeleton}
    return data


def _values() -> list[Any]:
    return [None, True, False, 0, -1, 1, 1.5, 40.0, "", "x", "Union", "#12345", "#123456", [], [1], ["a", "b"], {},
            {"a": 1}, 10 ** 9, -0.5]


def _mutate(doc: Any, rng: random.Random) -> Any:
    """``doc`` with one random value replaced, key dropped or key added."""
    doc = copy.deepcopy(doc)
    paths: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for k, v in items:
            paths.append((node, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    if not paths:
        return doc
    node, key = rng.choice(paths)
    roll = rng.random()
    if roll < 0.6:
        node[key] = rng.choice(_values())
    elif roll < 0.8 and isinstance(node, dict):
        del node[key]
    elif isinstance(node, dict):
        node[rng.choice(["extra", "x", "kind", "id", "name"])] = rng.choice(_values())
    else:
        node.append(rng.choice(_values()))
    return doc


@pytest.mark.parametrize("path", MAPS, ids=[p.name for p in MAPS])
def test_shipped_maps_conform_without_jsonschema(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    v = _validator()
    assert v.conforms(_skeleton(data)), path.name
    assert schema_problems(data, path.name) == []


@pytest.mark.parametrize("path", MAPS, ids=[p.name for p in MAPS])
def test_never_accepts_what_jsonschema_refuses(path: Path) -> None:
    v = _validator()
    strict = _jsonschema_validator(v.schema)
    base = _skeleton(json.loads(path.read_text(encoding="utf-8")))
    rng = random.Random(path.name)
    refused = 0
    for _ in range(150):
        doc = base
        for _ in range(rng.randrange(1, 4)):
            doc = _mutate(doc, rng)
        has_errors = any(True for _ in strict.iter_errors(doc))
        refused += has_errors
        try:
            ours = _conforms(doc, v.schema, v.schema)
        except _Unknown:
            continue
        assert ours == (not has_errors), json.dumps(doc)[:300]
    assert refused > 20


def test_a_valid_file_loads_without_importing_jsonschema_and_a_bad_one_is_told_by_it() -> None:
    import subprocess
    import sys

    code = ("import sys\nfrom engine.io import load_scenario, ScenarioError\n"
            f"load_scenario({str(ROOT / 'maps' / 'movement_acw.json')!r})\n"
            "print('jsonschema' in sys.modules)\n"
            "import json\nfrom engine.io import loads_scenario\n"
            f"d = json.loads(open({str(ROOT / 'maps' / 'movement_acw.json')!r}).read()); d['turn'] = 'x'\n"
            "try:\n    loads_scenario(json.dumps(d), 'bad.json')\nexcept ScenarioError as e:\n"
            "    print([str(p) for p in e.problems])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    first, second = out.splitlines()[:2]
    assert first == "False"
    assert second == "['bad.json: $.turn: expected integer, got \"x\"']", second


@pytest.mark.parametrize("where,path", [
    (lambda d: d["units"][0]["props"].update(x=float("nan")), "$.units[0].props.x"),
    (lambda d: d["state"]["reinforcement_points"].update(Union=float("inf")), "$.state.reinforcement_points.Union"),
    (lambda d: d["ruleset"]["options"]["demo"].update(limit=[1, float("-inf")]), "$.ruleset.options.demo.limit[1]"),
    (lambda d: d["map"].update(underlay={"image": "a.png", "points": [{"x": float("nan"), "y": 1.0,
                                                                      "label": "0101"}]}),
     "$.map.underlay.points[0].x"),
])
def test_non_finite_numbers_are_still_found_where_they_may_be(where: Any, path: str) -> None:
    """The non-finite check of an accepted grid scenario leaves out the map's
    text-only lists (rows, rivers, links, bridges); everything else is
    searched as before."""
    from engine.io import ScenarioError, scenario_from_data
    from tests.test_scenario_format import base_data

    d = base_data()
    where(d)
    with pytest.raises(ScenarioError) as e:
        scenario_from_data(d, "bad.json")
    assert any(str(p).startswith(f"bad.json: {path}: ") for p in e.value.problems), [str(p) for p in e.value.problems]
