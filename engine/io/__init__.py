"""Reading and writing files: Adjutant's scenario formats and other
programs' maps, and the one safe writer every output goes through.

* :mod:`.common` — :class:`Problem`, :class:`ScenarioError`, the size limits,
  JSON decoding, the schema check, the header every scenario file shares;
* :mod:`.atomic` — :func:`write_atomic` and :func:`commit_together` (temporary
  file, fsync, check, rename, fsync the folder; symbolic links written
  through), :class:`OutputError`, :func:`refuse_input`;
* :mod:`.grid` — the square and hex grid format (``docs/file-format.md``);
* :mod:`.territory` — the territory format (``docs/file-format-territory.md``);
* :mod:`.registry` — ``{map kind: reader}``, :func:`load_any`, :func:`save_any`;
* :mod:`.tiled` — Tiled maps (TMX and JSON) in and out (``docs/tiled.md``);
* :mod:`.triplea` — TripleA game XML, ``polygons.txt`` and ``centers.txt`` in;
* :mod:`.png` — PNG encoding and tileset images for the Tiled export.

The package never imports the rules (``engine.rules``) or the app.  The
names below are the ones most callers need; the submodules have the rest.
"""

from typing import TYPE_CHECKING

from .atomic import Output, OutputError, check_output, commit_together, refuse_input, write_atomic, write_text_atomic
from .common import MAX_CELLS, MAX_FILE_BYTES, MAX_SIDE, Problem, ScenarioError, dumps_compact
from .grid import dumps_scenario, load_scenario, loads_scenario, save_scenario, scenario_from_data, scenario_to_data
from .registry import dumps_any, iter_problems, load_any, load_text_checked, loads_any, save_any

if TYPE_CHECKING:
    from .territory import dumps_territory_scenario, load_territory_scenario, save_territory_scenario

_TERRITORY = ("dumps_territory_scenario", "load_territory_scenario", "save_territory_scenario")
"""Names of :mod:`.territory`, imported on first use: the territory model
brings networkx and shapely, which a grid file never needs."""


def __getattr__(name: str) -> object:
    if name in _TERRITORY:
        from . import territory

        return getattr(territory, name)
    raise AttributeError(f"module 'engine.io' has no attribute {name!r}")


__all__ = ["MAX_CELLS", "MAX_FILE_BYTES", "MAX_SIDE", "Output", "OutputError", "Problem", "ScenarioError",
           "commit_together", "dumps_any", "dumps_compact", "dumps_scenario", "dumps_territory_scenario",
           "iter_problems", "load_any", "load_scenario", "load_text_checked", "load_territory_scenario", "loads_any", "loads_scenario",
           "check_output", "refuse_input", "save_any", "save_scenario", "save_territory_scenario", "scenario_from_data",
           "scenario_to_data", "write_atomic", "write_text_atomic"]
