"""``adjutant info FILE``: what a scenario holds (grid or territory map)."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from engine.io import ScenarioError, load_text_checked
from engine.model import NO_SIDE, Scenario
from engine.territory import TerritoryScenario

from .common import EXIT_OK, CliError, add_json_flag, emit

COMMANDS = {
    "info": "describe a scenario: grid, numbering, layers, units, corner labels",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("info", help=COMMANDS["info"])
    p.add_argument("file", metavar="FILE")
    add_json_flag(p)
    p.set_defaults(func=run)


def describe(s: Scenario, path: str) -> dict[str, Any]:
    m = s.map
    counts = np.bincount(m.terrain.ravel(), minlength=len(s.ruleset.terrain))
    control = np.bincount((m.control.ravel().astype(np.int64) - NO_SIDE), minlength=len(s.sides) + 1)
    return {
        "file": path,
        "name": s.name,
        "turn": s.turn,
        "grid": m.grid.to_dict(),
        "numbering": {**m.numbering.to_dict(), "description": m.numbering.describe()},
        "corners": {k: m.label(c) for k, c in m.grid.corner_cells().items()},
        "layers": {
            "terrain": {t.id: int(n) for t, n in zip(s.ruleset.terrain, counts) if n},
            "control": {f.id: int(n) for f, n in zip(s.sides, control[1:]) if n},
            "rivers": len(m.rivers),
            "bridges": len(m.bridges),
            "links": {k: len(v) for k, v in sorted(m.links.items())},
            "places": len(m.places),
        },
        "sides": [{"id": f.id, "name": f.name, "alliance": f.alliance_key} for f in s.sides],
        "units": len(s.units),
        "ruleset": s.ruleset.name,
    }


def describe_territory(s: TerritoryScenario, path: str) -> dict[str, Any]:
    """What a territory-map scenario holds (``adjutant info`` on a territory map)."""
    m = s.map
    land = sum(1 for t in m.territories.values() if t.land)
    kinds: dict[str, int] = {}
    for e in m.borders():
        both_land = m.territories[e.a].land and m.territories[e.b].land
        key = e.kind.value if e.kind.value != "ordinary" else ("land" if both_land else "sea or coast")
        kinds[key] = kinds.get(key, 0) + 1
    return {
        "file": path,
        "name": s.name,
        "turn": s.turn,
        "grid": {"kind": "territory", "width": m.width, "height": m.height, "wrap_x": m.wrap_x},
        "territories": len(m),
        "land": land,
        "sea": len(m) - land,
        "borders": {"total": len(m.borders()), **dict(sorted(kinds.items()))},
        "powers": [{"id": f.id, "name": f.name, "alliance": f.alliance_key,
                    "territories": sum(1 for t in m.territories.values() if t.controller == f.id),
                    "value": sum(t.value for t in m.territories.values() if t.controller == f.id)} for f in s.sides],
        "units": len(s.units),
        "ruleset": s.ruleset.name,
    }


def _territory_text(d: dict[str, Any]) -> str:
    g = d["grid"]
    return "\n".join([
        f"{d['name']}  ({d['file']})",
        f"  map:         territories, {g['width']} x {g['height']} units"
        + (", wraps east-west" if g["wrap_x"] else ""),
        f"  territories: {d['territories']} ({d['land']} land, {d['sea']} sea)",
        "  borders:     " + ", ".join(f"{k} {v}" for k, v in d["borders"].items()),
        "  powers:      " + ", ".join(f"{p['id']} ({p['name']}, {p['alliance']}): {p['territories']} territories, "
                                      f"value {p['value']}" for p in d["powers"]),
        f"  units:       {d['units']}",
        f"  ruleset:     {d['ruleset']}, turn {d['turn']}",
    ])


def run(args: argparse.Namespace) -> int:
    try:
        loaded = load_text_checked(args.file)
    except ScenarioError as e:
        raise CliError(f"{args.file}: cannot load ({len(e.problems)} problem{'s' if len(e.problems) != 1 else ''})",
                       [str(p) for p in e.problems]) from None
    if isinstance(loaded, TerritoryScenario):
        td = describe_territory(loaded, args.file)
        emit(args, td, lambda: _territory_text(td))
        return EXIT_OK
    s = loaded
    d = describe(s, args.file)

    def text() -> str:
        g = d["grid"]
        kind = g["kind"] + (f" ({g['orientation']}-top, {g['parity']} offset)" if g["kind"] == "hex"
                            else f" ({g['neighbours']}-neighbour)")
        c = d["corners"]
        lay = d["layers"]
        lines = [
            f"{d['name']}  ({args.file})",
            f"  grid:      {kind}, {g['width']} x {g['height']} cells",
            f"  numbering: {d['numbering']['description']}",
            f"  corners:   NW {c['nw']}  NE {c['ne']}  SW {c['sw']}  SE {c['se']}",
            "  terrain:   " + ", ".join(f"{k} {v}" for k, v in lay["terrain"].items()),
            "  control:   " + (", ".join(f"{k} {v}" for k, v in lay["control"].items()) or "none"),
            f"  rivers:    {lay['rivers']} sides, {lay['bridges']} bridged",
            "  links:     " + (", ".join(f"{k} {v}" for k, v in lay["links"].items()) or "none"),
            f"  places:    {lay['places']}",
            "  sides:     " + ", ".join(f"{x['id']} ({x['name']})" for x in d["sides"]),
            f"  units:     {d['units']}",
            f"  ruleset:   {d['ruleset']}, turn {d['turn']}",
        ]
        return "\n".join(lines)

    emit(args, d, text)
    return EXIT_OK
