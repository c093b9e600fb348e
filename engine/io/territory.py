"""Reading and writing territory scenarios (format ``adjutant-scenario``,
version 1, with ``map.grid.kind == "territory"``).

The file is the same JSON format as grid scenarios (ruleset, sides, units,
turn, state are identical); only ``map`` differs — see
``docs/file-format-territory.md``.  Loading validates against the JSON Schema
first, then checks what a schema cannot (unique ids, known sides, borders
between existing territories, shapes that make polygons) and reports every
problem with its JSON path; a file with any problem yields no scenario.
Saving writes one territory, one border and one unit per line.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ..model import Faction, ModelError, Ruleset
from ..territory.geometry import GeometryBudget, GeometryError, shape_from_rings, shape_to_rings
from ..territory.model import BorderKind, Territory, TerritoryMap, TerritoryScenario, TerritoryUnit
from .atomic import write_text_atomic
from .common import (
    HeaderBuilder,
    ScenarioError,
    capped,
    drop_defaults,
    dumps_compact,
    grid_kind,
    header_data,
    non_finite_problems,
    parse_json,
    read_text,
    schema_problems,
)
from .journal_file import dumps_with_journal

KIND = "territory"
MAX_TERRITORIES = 20000
"""Most territories a file may hold."""


def is_territory_data(data: Any) -> bool:
    """Whether decoded JSON describes a territory map."""
    return grid_kind(data) == KIND


def territory_scenario_from_data(data: Any, source: str = "<data>") -> TerritoryScenario:
    """Validate decoded JSON and build the scenario; raises
    :class:`~engine.io.common.ScenarioError` listing every problem."""
    problems = schema_problems(data, source)
    if problems:
        raise ScenarioError(problems)
    b = TerritoryBuilder(data, source)
    s = b.build_territory()
    if b.problems or s is None:
        raise ScenarioError(capped(b.problems, source))
    non_finite = non_finite_problems(data, source)
    if non_finite:
        raise ScenarioError(non_finite)
    return s


def load_territory_scenario(path: str | os.PathLike[str]) -> TerritoryScenario:
    """Read and validate a territory scenario file; raises :class:`ScenarioError`."""
    return loads_territory_scenario(read_text(path), str(path))


def loads_territory_scenario(text: str, source: str = "<string>") -> TerritoryScenario:
    """Parse and validate territory scenario JSON text; raises :class:`ScenarioError`."""
    return territory_scenario_from_data(parse_json(text, source), source)


class TerritoryBuilder(HeaderBuilder):
    """Semantic validation and construction of a territory scenario (the
    ruleset and sides checks are :class:`HeaderBuilder`'s)."""

    def build_territory(self) -> TerritoryScenario | None:
        d = self.data
        ruleset: Ruleset = self.ruleset(d["ruleset"])
        sides: list[Faction] = self.sides(d["sides"])
        side_ids = {s.id for s in sides}
        tmap = self.tmap(d["map"], side_ids)
        if tmap is None:
            return None
        units = self.tunits(d.get("units", []), tmap, side_ids)
        if self.problems:
            return None
        return TerritoryScenario(name=d["name"], ruleset=ruleset, sides=sides, map=tmap, units=units,
                                 turn=d.get("turn", 1), description=d.get("description", ""),
                                 state=d.get("state", {}))

    def tmap(self, m: dict[str, Any], side_ids: set[str]) -> TerritoryMap | None:
        g = m["grid"]
        self.geometry = GeometryBudget()  # one file's geometry work
        tm = TerritoryMap(g["width"], g["height"], g.get("wrap_x", False), g.get("backdrop_cell", 0))
        terrs = m["territories"]
        if len(terrs) > MAX_TERRITORIES:
            self.bad("$.map.territories", f"{len(terrs)} territories; the limit is {MAX_TERRITORIES}")
            return None
        names: dict[str, int] = {}
        for i, t in enumerate(terrs):
            p = f"$.map.territories[{i}]"
            if t["id"] in tm:
                self.bad(p + ".id", f"territory id '{t['id']}' is used twice")
                continue
            key = t["name"].casefold()
            if key in names:
                self.bad(p + ".name", f"territory name '{t['name']}' is also used by territories[{names[key]}]")
            names[key] = i
            for k in ("owner", "controller", "control_since_side"):
                v = t.get(k)
                if v is not None and v not in side_ids:
                    self.bad(f"{p}.{k}", f"unknown side '{v}' (sides: {', '.join(sorted(side_ids)) or 'none'})")
            bad_point = _bad_point(t, p)
            if bad_point is not None:
                self.bad(*bad_point)
                continue
            try:
                shape = shape_from_rings(t.get("polygons", []), t.get("holes", []), self.geometry)
            except GeometryError as e:
                self.bad(p + ".polygons", str(e))
                continue
            lab = t.get("label")
            tm.add(Territory(
                id=t["id"], name=t["name"], sea=t.get("sea", False), shape=shape, value=t.get("value", 0),
                owner=t.get("owner"), controller=t.get("controller", t.get("owner")),
                control_since=t.get("control_since", 0), control_since_side=t.get("control_since_side"),
                impassable=t.get("impassable", False), label_at=None if lab is None else (lab[0], lab[1]),
                features=dict(t.get("features", {}))))
        for i, br in enumerate(m.get("borders", [])):
            p = f"$.map.borders[{i}]"
            a, b = br["between"]
            missing = [x for x in (a, b) if x not in tm]
            if missing:
                self.bad(p + ".between", f"no territory with id {', '.join(repr(x) for x in missing)}")
                continue
            if a == b:
                self.bad(p + ".between", f"a border needs two different territories, got '{a}' twice")
                continue
            if tm.graph.has_edge(a, b):
                self.bad(p, f"the border between '{a}' and '{b}' is listed twice")
                continue
            try:
                tm.add_border(a, b, BorderKind(br.get("kind", "ordinary")), br.get("name"), br.get("props"))
            except ModelError as e:
                self.bad(p, str(e))
        if "underlay" in m:
            u = m["underlay"]
            image = u["image"]
            if image.startswith(("/", "\\")) or (len(image) > 1 and image[1] == ":") or "\\" in image:
                self.bad("$.map.underlay.image", f"'{image}' must be a path relative to the scenario file, "
                                                 "with '/' between folders")
            off = u.get("offset", [0, 0])
            if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in off):
                self.bad("$.map.underlay.offset", "expected two finite numbers [x, y]")
            self.underlay_points(u)
            tm.underlay = dict(u)
        return tm

    def underlay_points(self, u: dict[str, Any]) -> None:
        """The underlay's click pairs, when it has them: well formed and, two
        or more, fitting the stored scale and offset (which the editor
        writes from them)."""
        if "points" not in u:
            return
        from ..calibration import SCALE_TOLERANCE, CalibrationError, fit_scale_offset, map_points_from_data

        try:
            points = map_points_from_data(u["points"], "$.map.underlay.points")
            if len(points) < 2:
                return
            fit = fit_scale_offset(points)
        except CalibrationError as e:
            where, _, why = str(e).partition(": ")
            if where.startswith("$"):
                self.bad(where, why)
            else:
                self.bad("$.map.underlay.points", str(e))
            return
        scale = u.get("scale")
        off = u.get("offset", [0, 0])
        tol = SCALE_TOLERANCE * max(1.0, fit.scale)
        if not isinstance(scale, (int, float)) or abs(scale - fit.scale) > tol:
            self.bad("$.map.underlay.scale", f"{scale!r} does not match the least-squares fit of the points "
                                             f"({fit.scale:.6g})")
        elif any(abs(float(a) - b) > tol * max(1.0, abs(b)) for a, b in zip(off, fit.offset, strict=True)):
            self.bad("$.map.underlay.offset", f"{off!r} does not match the least-squares fit of the points "
                                              f"([{fit.offset[0]:.6g}, {fit.offset[1]:.6g}])")

    def tunits(self, units: list[dict[str, Any]], tm: TerritoryMap, side_ids: set[str]) -> list[TerritoryUnit]:
        out = []
        ids: set[str] = set()
        for i, u in enumerate(units):
            p = f"$.units[{i}]"
            if u["id"] in ids:
                self.bad(p + ".id", f"unit id '{u['id']}' is used twice")
            ids.add(u["id"])
            if u["side"] not in side_ids:
                self.bad(p + ".side", f"unknown side '{u['side']}' (sides: {', '.join(sorted(side_ids)) or 'none'})")
            if u["at"] not in tm:
                self.bad(p + ".at", f"no territory with id '{u['at']}'")
                continue
            out.append(TerritoryUnit(u["id"], u["side"], u["type"], u["at"], u.get("strength", 1), u.get("name"),
                                     dict(u.get("props", {}))))
        return out


def _bad_point(t: dict[str, Any], path: str) -> tuple[str, str] | None:
    """The first point of the territory's rings that is not ``[x, y]`` with
    two numbers, as (JSON path, message)."""
    for key in ("polygons", "holes"):
        for i, ring in enumerate(t.get(key, [])):
            for j, pt in enumerate(ring):
                if not (isinstance(pt, list) and len(pt) == 2
                        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                                for v in pt)):
                    shown = json.dumps(pt)[:40]
                    return f"{path}.{key}[{i}][{j}]", f"expected a point [x, y] of two finite numbers, got {shown}"
    return None


# ---------------------------------------------------------------------------
# saving

def _sorted_keys(value: Any) -> Any:
    """``value`` with every dict's keys in sorted order (lists keep theirs):
    features are written canonically, so a feature removed and put back by
    undo writes the same file as before."""
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def territory_to_data(t: Territory) -> dict[str, Any]:
    outer, holes = shape_to_rings(t.shape)
    d: dict[str, Any] = {"id": t.id, "name": t.name, "sea": t.sea, "value": t.value, "owner": t.owner,
                         "controller": t.controller, "control_since": t.control_since,
                         "control_since_side": t.control_since_side, "impassable": t.impassable,
                         "label": None if t.label_at is None else list(t.label_at),
                         "polygons": [[list(p) for p in r] for r in outer],
                         "holes": [[list(p) for p in r] for r in holes],
                         "features": _sorted_keys(t.features)}
    out = drop_defaults(d, {"sea": False, "value": 0, "owner": None, "control_since": 0,
                             "control_since_side": None, "impassable": False, "label": None, "holes": [],
                             "features": {}})
    if t.controller == t.owner:
        out.pop("controller", None)
    elif t.controller is None:
        out["controller"] = None
    return out


def territory_scenario_to_data(s: TerritoryScenario) -> dict[str, Any]:
    """The scenario as JSON-ready data (inverse of
    :func:`territory_scenario_from_data`)."""
    m = s.map
    data = header_data(s)
    grid = drop_defaults({"kind": KIND, "width": m.width, "height": m.height, "wrap_x": m.wrap_x,
                           "backdrop_cell": m.backdrop_cell}, {"wrap_x": False, "backdrop_cell": 0})
    data["map"] = {
        "grid": grid,
        "territories": [territory_to_data(t) for t in m.territories.values()],
        "borders": [drop_defaults({"between": [e.a, e.b], "kind": e.kind.value, "name": e.name, "props": e.props},
                                   {"kind": "ordinary", "name": None, "props": {}}) for e in m.borders()],
    }
    if m.underlay is not None:
        data["map"]["underlay"] = dict(m.underlay)
    data["units"] = [drop_defaults({"id": u.id, "side": u.side, "type": u.type, "at": u.at,
                                     "strength": u.strength, "name": u.name, "props": u.props},
                                    {"strength": 1, "name": None, "props": {}}) for u in s.units]
    if s.state:
        data["state"] = s.state
    return data


LINE_KEYS = frozenset({"territories", "borders", "units"})
"""Lists written with one item per line, whatever the item holds."""


def dumps_territory_data(value: Any, indent: int = 0) -> str:
    """JSON text of territory-scenario data: like
    :func:`engine.io.common.dumps_compact`, but each territory, border and
    unit on a line of its own (polygons included), so diffs show which
    territory changed."""
    if not isinstance(value, dict):
        return dumps_compact(value, indent)
    pad = "  " * (indent + 1)
    end = "  " * indent
    items = []
    for k, v in value.items():
        key = pad + json.dumps(k, ensure_ascii=False) + ": "
        if k in LINE_KEYS and isinstance(v, list):
            body = "[]" if not v else ("[\n" + ",\n".join(pad + "  " + json.dumps(x, ensure_ascii=False,
                                                                              separators=(", ", ": "))
                                                         for x in v) + "\n" + pad + "]")
            items.append(key + body)
        elif isinstance(v, dict) and any(x in v for x in LINE_KEYS):
            items.append(key + dumps_territory_data(v, indent + 1))
        else:
            items.append(key + dumps_compact(v, indent + 1))
    return "{\n" + ",\n".join(items) + "\n" + end + "}"


def dumps_territory_scenario(s: TerritoryScenario) -> str:
    """The scenario's file text (see :func:`dumps_territory_data`)."""
    data = territory_scenario_to_data(s)
    return (dumps_with_journal(data, dumps_territory_data) or dumps_territory_data(data)) + "\n"


def save_territory_scenario(s: TerritoryScenario, path: str | os.PathLike[str]) -> None:
    """Write atomically (see :func:`engine.io.atomic.write_atomic`); the
    written file must load back as a territory scenario before it replaces
    the old one.  Raises :class:`engine.io.atomic.OutputError`."""
    write_text_atomic(path, dumps_territory_scenario(s), verify=check_loads)


def check_loads(path: Path) -> None:
    """Raise :class:`ScenarioError` unless the territory scenario file at
    ``path`` loads (the check a save makes of what it wrote)."""
    load_territory_scenario(path)


__all__ = ["KIND", "TerritoryBuilder", "check_loads", "dumps_territory_scenario", "is_territory_data",
           "load_territory_scenario", "loads_territory_scenario", "save_territory_scenario",
           "territory_scenario_from_data", "territory_scenario_to_data"]
