"""Reliability suite: the long forms (marked ``slow``) run only when asked.

``python -m pytest tests/reliability`` runs the short forms (a few minutes on
two cores); ``python -m pytest -m slow tests/reliability`` or
``ADJUTANT_LONG=1 python -m pytest tests/reliability`` runs the long ones
(10,000 inputs per loader, 20,000-operation soak).  Without either, a test
marked ``slow`` is skipped with a reason that says how to run it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def long_runs_requested(config: pytest.Config) -> bool:
    """Whether the long forms should run: ``ADJUTANT_LONG=1`` or a ``-m``
    expression that selects ``slow`` (``-m slow``, ``-m "slow and ..."``)."""
    if os.environ.get("ADJUTANT_LONG", "") not in ("", "0"):
        return True
    expr = str(config.getoption("markexpr", "") or "")
    return "slow" in expr and "not slow" not in expr


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if long_runs_requested(config):
        return
    skip = pytest.mark.skip(reason="long reliability run: use `python -m pytest -m slow tests/reliability` "
                                   "or ADJUTANT_LONG=1")
    for item in items:
        if item.get_closest_marker("slow") and HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)
