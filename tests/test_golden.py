"""Golden rule cases, kept as data and driven by one loop.

Each ``tests/golden/*.json`` file holds cases for one rules system::

    {"system": "cwol_rail",
     "source": "shared seeds 000 worked example",
     "cases": [
       {"name": "all Confederate: 30 squares via Meridian",
        "argv": ["rail", "maps/cwol_mobile_columbus.json", "--unit", "CS1IN", "--to", "E4-X4"],
        "expect": {"status": "arrived", "path_length": 30, "stop": "E4-X4"},
        "exit": 0}
     ]}

A case runs ``adjutant ARGV --json`` in process from the project root; the
JSON printed must contain ``expect`` (dicts are matched as subsets,
recursively; lists and scalars exactly) and the exit status must equal
``exit`` (default 0).  A case with ``"scenario": FILE`` and ``"order": {...}``
instead of ``argv`` runs the order through the file's system in the
registry (``tests/golden_cases.py``: ``ok``, ``expect`` of the verdict's
``to_data()``, ``applied`` of the record's, undo checked) — a system needs
no CLI command to have golden cases.

A file's ``"system"`` is the name of a registered rules system
(:mod:`engine.rules.registry`) and the file is named after it; every
built-in system has a golden file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_cases import contains, run_order_case

from app.cli import main
from engine.io import load_any
from engine.rules import registry

GOLDEN = Path(__file__).parent / "golden"


def test_every_golden_file_is_a_registered_system_and_every_system_has_one() -> None:
    files = {f.stem: json.loads(f.read_text(encoding="utf-8"))["system"] for f in sorted(GOLDEN.glob("*.json"))}
    for stem, system in files.items():
        assert registry.get(system).name == stem, f"tests/golden/{stem}.json is for system {system!r}"
    builtin = {s.name for s in registry.systems() if registry.is_builtin(s)}
    assert builtin == set(files), f"built-in systems without a golden file: {sorted(builtin - set(files))}"


def _cases() -> list[Any]:
    out = []
    for f in sorted(GOLDEN.glob("*.json")):
        data = json.loads(f.read_text(encoding="utf-8"))
        for case in data["cases"]:
            out.append(pytest.param(data["system"], case, id=f"{f.stem}: {case['name']}"))
    return out


@pytest.mark.parametrize(("system", "case"), _cases())
def test_golden(system: str, case: dict[str, Any], in_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if "order" in case:  # an order case: through the registry, no CLI command
        problems = run_order_case(registry.get(system), load_any(case["scenario"]), case)
        assert not problems, "\n".join(problems)
        return
    code = main([*case["argv"], "--json"])
    out = capsys.readouterr().out
    result = json.loads(out)
    assert code == case.get("exit", 0), f"exit status {code}; output: {out}"
    mismatches = contains(result, case["expect"])
    assert not mismatches, "\n".join(mismatches) + f"\nfull result: {json.dumps(result, indent=1)[:3000]}"
