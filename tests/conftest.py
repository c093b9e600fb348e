"""Shared test setup: Qt runs offscreen, paths are relative to the project root."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test from the project root (sample paths like maps/x.json)."""
    monkeypatch.chdir(ROOT)
    return ROOT
