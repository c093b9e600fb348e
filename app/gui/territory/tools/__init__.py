"""The territory window's tools, one per mode, with the grid tools'
lifecycle (:mod:`.base`): the editor's own Select and Paint, then each
rules system's modes as its UI lists them (:mod:`app.gui.systems`: Rail
plan; Rail options, Station and Railroad), then Preview when a system
brings a territory preview (:mod:`.preview`)."""

from __future__ import annotations

from .base import TerritoryTool
from .paint import PaintTool
from .preview import PreviewTool
from .select import SelectTool

EDITOR_TOOLS: tuple[type[TerritoryTool], ...] = (SelectTool, PaintTool)
"""The territory editor's own tools, first in the tool bar."""


def tool_classes() -> tuple[type[TerritoryTool], ...]:
    """Every territory tool in tool-bar order: :data:`EDITOR_TOOLS`, the
    tools of the territory systems' UIs (:func:`app.gui.systems.uis_for`),
    and :class:`PreviewTool` when any of them has a territory preview."""
    from ...systems import TERRITORY_KINDS, uis_for

    uis = uis_for(TERRITORY_KINDS)
    out = list(EDITOR_TOOLS)
    out.extend(cls for ui in uis for cls in ui.tools)
    if any(ui.territory_previews for ui in uis):
        out.append(PreviewTool)
    return tuple(out)


def modes() -> tuple[str, ...]:
    """The ids of :func:`tool_classes`: the window's modes."""
    return tuple(t.id for t in tool_classes())


__all__ = ["EDITOR_TOOLS", "PaintTool", "PreviewTool", "SelectTool", "TerritoryTool", "modes", "tool_classes"]
