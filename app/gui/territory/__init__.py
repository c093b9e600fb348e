"""The territory-map editor: a canvas that
draws territories from their shapely shapes, a window with an inspector,
border editing, painting on the backdrop grid, rail-plan mode (Module I:
Railroads) and rail-options mode (Rail Options 1–4).

:func:`app.gui.run` opens :class:`TerritoryWindow` for a territory scenario.
"""

from .canvas import TerritoryCanvas, TerritoryMouseEvent
from .document import TerritoryDocument
from .window import TerritoryWindow

__all__ = ["TerritoryCanvas", "TerritoryDocument", "TerritoryMouseEvent", "TerritoryWindow"]
