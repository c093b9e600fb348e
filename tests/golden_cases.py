"""The loop shared by golden files: match a result against the expected
subset, and run an order case through a registered rules system.

An *order case* (``{"order": {...}, "ok": true, "expect": {...},
"applied": {...}}``) needs no CLI command: the system's ``check`` gives the
verdict, whose ``ok`` must equal ``ok`` and whose ``to_data()`` must contain
``expect``; when the case has ``applied``, the order is applied, the
record's ``to_data()`` must contain it, and undoing the record must give
back the units exactly as they were.  A case with ``error`` instead expects
the check to raise :class:`~engine.model.ModelError` with that message.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.conformance import contains
from engine.model import ModelError
from engine.rules.base import RulesSystem


def _units(scenario: Any) -> list[tuple[str, Any, dict[str, Any]]]:
    return [(u.id, u.at, copy.deepcopy(u.props)) for u in scenario.units]


def run_order_case(system: RulesSystem[Any, Any], scenario: Any, case: Mapping[str, Any]) -> list[str]:
    """Mismatches of one order case (empty when it passes)."""
    try:
        verdict = system.check(scenario, case["order"])
    except ModelError as e:
        if "error" in case:
            return [] if str(e) == case["error"] else [f"error: expected {case['error']!r}, got {str(e)!r}"]
        raise
    if "error" in case:
        return [f"expected the error {case['error']!r}, got a verdict: {verdict.to_data()}"]
    problems = []
    if verdict.ok != case["ok"]:
        problems.append(f"ok: expected {case['ok']}, got {verdict.ok} ({' '.join(verdict.reasons)})")
    problems += contains(verdict.to_data(), case.get("expect", {}))
    if "applied" in case and verdict.ok:
        before = _units(scenario)
        record = system.apply(scenario, case["order"])
        problems += contains(record.to_data(), case["applied"], "$applied")
        record.undo(scenario)
        if _units(scenario) != before:
            problems.append("undo did not give back the units as they were")
    return problems
