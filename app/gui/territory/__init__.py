"""The territory-map editor: a canvas that draws territories from their
shapely shapes, a document, the territory tools and the window that holds
them (the rules systems' territory modes live in ``app/gui/systems/``).

:func:`app.gui.run` opens :class:`TerritoryWindow` for a territory scenario.
The names below are imported when first asked for, so a module that needs
only :mod:`.overlay` or :mod:`.canvas` does not import the window.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {"TerritoryCanvas": "canvas", "TerritoryMouseEvent": "canvas", "TerritoryDocument": "document",
         "TerritoryWindow": "window"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["TerritoryCanvas", "TerritoryDocument", "TerritoryMouseEvent", "TerritoryWindow"]
