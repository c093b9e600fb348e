"""Where the project's bundled files live (``resources/`` and ``maps/``).

Adjutant is installed from its source tree (``pip install -e .``), so the
folders sit beside the ``engine`` package.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
MAPS = ROOT / "maps"


def resource_path(name: str) -> Path:
    return RESOURCES / name


def sample_map(name: str) -> Path:
    return MAPS / name
