"""Territory maps (the third kind of map beside square and hex grids) and
the rules that run on them.

* :mod:`.model` — :class:`Territory`, :class:`Border`, :class:`TerritoryMap`,
  :class:`TerritoryUnit`, :class:`TerritoryScenario`;
* :mod:`.geometry` — polygons from painted cells, label points, shared borders;
* :mod:`engine.io.territory` — the file format (``map.grid.kind == "territory"``);
* :mod:`.rail` — A&A "Module I: Railroads": rail capacity, routing, bottlenecks;
* :mod:`engine.io.triplea` — import of TripleA game XML and polygons.txt.
"""

from .geometry import GeometryError, derive_adjacency, label_point, polygon_from_cells, shape_from_rings
from .model import Border, BorderKind, Territory, TerritoryMap, TerritoryScenario, TerritoryUnit

__all__ = ["Border", "BorderKind", "GeometryError", "Territory", "TerritoryMap", "TerritoryScenario", "TerritoryUnit",
           "derive_adjacency", "label_point", "polygon_from_cells", "shape_from_rings"]
