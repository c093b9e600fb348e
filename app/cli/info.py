"""``adjutant info FILE``: what a scenario holds."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from engine.model import NO_SIDE, Scenario

from .common import EXIT_OK, add_json_flag, emit, load


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("info", help="describe a scenario: grid, numbering, layers, units, corner labels")
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


def run(args: argparse.Namespace) -> int:
    s = load(args.file)
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
