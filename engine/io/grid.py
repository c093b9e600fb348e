"""Reading, validating and writing scenario files (format version 1).

Loading validates everything before it builds anything: the JSON Schema in
``resources/scenario.schema.json`` first, then the checks a schema cannot
express (labels on the map, symbols known, rows the right length, links
between adjacent cells).  Every problem is reported with the file, the JSON
path and what was expected; a file with any problem yields no scenario.

Saving is atomic: the text goes to a temporary file in the same folder, is
flushed and fsynced, then renamed over the old file, so a crash mid-save
leaves the previous file intact.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .grids import Cell, Edge, GridError
from .labels import LabelError, numbering_from_dict
from .model import (
    NO_SIDE, NO_SIDE_SYMBOL, Faction, GridMap, ModelError, Place, Ruleset, Scenario, TerrainType, Unit, UnitType,
    iter_chains, make_grid,
)
from .paths import resource_path

if TYPE_CHECKING:
    from .territory.model import TerritoryScenario

FORMAT = "adjutant-scenario"
VERSION = 1

MAX_SIDE = 4096
"""Largest width or height a file may declare."""
MAX_CELLS = 4096 * 4096
"""Largest number of cells a file may declare (16,777,216)."""
MAX_FILE_BYTES = 512 * 1024 * 1024
"""Largest scenario file read (512 MiB)."""
MAX_PROBLEMS = 50
"""Problems reported per file before the rest are summarised."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (file, JSON path) and what."""

    source: str
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}{self.path}: {self.message}" if self.path else f"{where}{self.message}"


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; :attr:`problems` lists every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    schema = json.loads(resource_path("scenario.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


# ---------------------------------------------------------------------------
# loading

def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and validate a scenario file; raises :class:`ScenarioError`.
    A territory-map file is refused with a message pointing at
    :func:`load_any`."""
    return loads_scenario(_read_text(path), str(path))


def load_any(path: str | os.PathLike[str]) -> Scenario | TerritoryScenario:
    """Read and validate a scenario file of any map kind: a grid
    :class:`Scenario` or, when ``map.grid.kind`` is ``"territory"``, a
    :class:`engine.territory.TerritoryScenario`; raises :class:`ScenarioError`."""
    return loads_any(_read_text(path), str(path))


def loads_any(text: str, source: str = "<string>") -> Scenario | TerritoryScenario:
    """Parse scenario JSON text of any map kind (see :func:`load_any`)."""
    from .territory.io import is_territory_data, territory_scenario_from_data

    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError([Problem(source, "", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}")]) from None
    except RecursionError:
        raise ScenarioError([Problem(source, "", "not a scenario: JSON nested too deeply")]) from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise ScenarioError([Problem(source, "", f"not a scenario: {str(e).split(';')[0]}")]) from None
    if is_territory_data(data):
        return territory_scenario_from_data(data, source)
    return scenario_from_data(data, source)


def save_any(s: Scenario | TerritoryScenario, path: str | os.PathLike[str]) -> None:
    """Save a grid or territory scenario atomically (see :func:`save_scenario`)."""
    if isinstance(s, Scenario):
        save_scenario(s, path)
    else:
        from .territory.io import dumps_territory_scenario

        atomic_write_text(Path(path), dumps_territory_scenario(s))


def _read_text(path: str | os.PathLike[str]) -> str:
    p = Path(path)
    src = str(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ScenarioError([Problem(src, "", f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")])
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ScenarioError([Problem(src, "", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError([Problem(src, "", "is a folder, not a scenario file")]) from None
    except OSError as e:
        raise ScenarioError([Problem(src, "", f"cannot read: {e.strerror or e}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError([Problem(src, "", f"not UTF-8 text (byte {e.start})")]) from None
    return text


def loads_scenario(text: str, source: str = "<string>") -> Scenario:
    """Parse and validate scenario JSON text; raises :class:`ScenarioError`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError([Problem(source, "", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}")]) from None
    except RecursionError:
        raise ScenarioError([Problem(source, "", "not a scenario: JSON nested too deeply")]) from None
    except ValueError as e:  # e.g. an integer of more than 4300 digits
        raise ScenarioError([Problem(source, "", f"not a scenario: {str(e).split(';')[0]}")]) from None
    return scenario_from_data(data, source)


def _json_path(parts: Any) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


# Bulk lists of a grid map whose items the schema describes simply (a row is
# a string; a river a pair of strings; a link chain two or more strings).
# They are checked here in plain Python, item by item, with the schema's own
# wording, and the schema validates the rest of the document: jsonschema
# spends ~1 s descending into the rows and chains of a 1000x1000 map.
_BULK_ROWS = ("terrain", "control")
_BULK_PAIRS = ("rivers",)


def _shown(v: Any) -> str:
    return json.dumps(v)[:60] if not isinstance(v, (dict, list)) else type(v).__name__


def _bulk_problems(m: dict[str, Any], source: str) -> tuple[dict[str, Any], list[Problem]]:
    """Check the bulk lists of ``m`` (a grid map object) and return the map
    with them emptied for the schema, and the problems found."""
    out: list[Problem] = []
    skeleton = dict(m)
    for key in _BULK_ROWS:
        rows = m.get(key)
        if isinstance(rows, list):
            skeleton[key] = []
            out += [Problem(source, f"$.map.{key}[{i}]", f"expected string, got {_shown(r)}")
                    for i, r in enumerate(rows) if not isinstance(r, str)]

    def strings(items: Any, path: str, lo: int, hi: int | None) -> None:
        for i, it in enumerate(items):
            if not isinstance(it, list):
                out.append(Problem(source, f"{path}[{i}]", f"expected array, got {_shown(it)}"))
            elif len(it) < lo or (hi is not None and len(it) > hi):
                want = f"exactly {lo}" if hi == lo else f"at least {lo}"
                out.append(Problem(source, f"{path}[{i}]", f"expected {want} labels, got {len(it)}"))
            else:
                out.extend(Problem(source, f"{path}[{i}][{j}]", f"expected string, got {_shown(x)}")
                           for j, x in enumerate(it) if not isinstance(x, str))

    for key in _BULK_PAIRS:
        items = m.get(key)
        if isinstance(items, list):
            skeleton[key] = []
            strings(items, f"$.map.{key}", 2, 2)
    links = m.get("links")
    if isinstance(links, dict):
        skeleton["links"] = {k: ([] if isinstance(v, list) else v) for k, v in links.items()}
        for k, v in links.items():
            if isinstance(v, list):
                strings(v, f"$.map.links.{k}", 2, None)
    return skeleton, out


# Records checked in plain Python for the same reason: key -> (JSON type,
# required, non-empty).  Must say exactly what the schema's $defs say.
_UNIT_KEYS = {"id": ("string", True, True), "side": ("string", True, False), "type": ("string", True, False),
              "at": ("string", True, False), "strength": ("integer", False, False), "name": ("string", False, False),
              "props": ("object", False, False)}
_PLACE_KEYS = {"at": ("string", True, False), "name": ("string", True, True), "code": ("string", False, True)}
_JSON_TYPES: dict[str, Any] = {"string": str, "object": dict}


def _record_problems(items: list[Any], path: str, keys: dict[str, tuple[str, bool, bool]],
                     source: str) -> list[Problem]:
    out = []
    for i, it in enumerate(items):
        p = f"{path}[{i}]"
        if not isinstance(it, dict):
            out.append(Problem(source, p, f"expected object, got {_shown(it)}"))
            continue
        missing = [k for k, (_, req, _) in keys.items() if req and k not in it]
        if missing:
            out.append(Problem(source, p, f"missing required key {', '.join(repr(m) for m in missing)}"))
        extra = sorted(k for k in it if k not in keys)
        if extra:
            out.append(Problem(source, p, f"unknown key {', '.join(repr(e) for e in extra)}"))
        for k, v in it.items():
            if k not in keys:
                continue
            kind, _, nonempty = keys[k]
            if kind == "integer":
                ok = isinstance(v, int) and not isinstance(v, bool)
                if ok and v < 0:
                    out.append(Problem(source, f"{p}.{k}", f"{v} is less than the minimum of 0"))
            else:
                ok = isinstance(v, _JSON_TYPES[kind])
            if not ok:
                out.append(Problem(source, f"{p}.{k}", f"expected {kind}, got {_shown(v)}"))
            elif nonempty and v == "":
                out.append(Problem(source, f"{p}.{k}", "should be non-empty"))
    return out


def _schema_problems(data: Any, source: str) -> list[Problem]:
    validator = _validator()
    problems: list[Problem] = []
    m = data.get("map") if isinstance(data, dict) else None
    grid = m.get("grid") if isinstance(m, dict) else None
    if isinstance(m, dict) and isinstance(grid, dict) and grid.get("kind") in ("square", "hex"):
        skeleton, problems = _bulk_problems(m, source)
        if isinstance(m.get("places"), list):
            problems += _record_problems(m["places"], "$.map.places", _PLACE_KEYS, source)
            skeleton["places"] = []
        data = {**data, "map": skeleton}
        if isinstance(data.get("units"), list):
            problems += _record_problems(data["units"], "$.units", _UNIT_KEYS, source)
            data["units"] = []
    try:
        errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    except RecursionError:
        return [Problem(source, "", "not a scenario: JSON nested too deeply")]
    for err in errors:
        problems.append(Problem(source, _json_path(err.absolute_path), _schema_message(err)))
    problems.sort(key=lambda p: p.path)
    return problems[:MAX_PROBLEMS]


def _schema_message(err: Any) -> str:
    v = err.validator
    inst = err.instance
    shown = json.dumps(inst)[:60] if not isinstance(inst, (dict, list)) else type(inst).__name__
    if v == "required":
        missing = [r for r in err.validator_value if not isinstance(inst, dict) or r not in inst]
        return f"missing required key {', '.join(repr(m) for m in missing)}"
    if v == "type":
        return f"expected {err.validator_value}, got {shown}"
    if v == "additionalProperties":
        extra = sorted(set(inst) - set(err.schema.get("properties", {}))) if isinstance(inst, dict) else []
        return f"unknown key {', '.join(repr(e) for e in extra)}"
    if v == "const":
        return f"expected {json.dumps(err.validator_value)}, got {shown}"
    if v == "enum":
        return f"expected one of {', '.join(json.dumps(x) for x in err.validator_value)}, got {shown}"
    if v == "oneOf" and isinstance(inst, dict) and "kind" in inst:
        return f"grid kind {json.dumps(inst.get('kind'))}: needs width, height" + (
            ", orientation ('flat'|'pointy') and parity ('odd'|'even')" if inst.get("kind") == "hex" else
            " and optionally neighbours (4|8)" if inst.get("kind") == "square" else
            " and optionally wrap_x (true|false) and backdrop_cell" if inst.get("kind") == "territory" else
            "; kind must be 'square', 'hex' or 'territory'")
    if v == "pattern":
        return f"{shown} is not allowed here (expected to match {err.validator_value})"
    return str(err.message)[:200]


def scenario_from_data(data: Any, source: str = "<data>") -> Scenario:
    """Validate decoded JSON and build the scenario; raises
    :class:`ScenarioError` listing every problem."""
    if isinstance(data, dict) and isinstance(data.get("map"), dict) and isinstance(data["map"].get("grid"), dict) \
            and data["map"]["grid"].get("kind") == "territory":
        raise ScenarioError([Problem(source, "$.map.grid.kind", "this is a territory map, not a square or hex grid; "
                                     "load it with engine.scenario_io.load_any (adjutant validate, info and "
                                     "railplan read it)")])
    problems = _schema_problems(data, source)
    if problems:
        raise ScenarioError(problems)
    builder = _Builder(data, source)
    scenario = builder.build()
    if builder.problems:
        raise ScenarioError(builder.problems[:MAX_PROBLEMS] + (
            [Problem(source, "", f"… and {len(builder.problems) - MAX_PROBLEMS} more problems")]
            if len(builder.problems) > MAX_PROBLEMS else []))
    assert scenario is not None
    return scenario


class _Builder:
    """Semantic validation and construction, collecting problems."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self.data = data
        self.source = source
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.source, path, message))

    def build(self) -> Scenario | None:
        d = self.data
        ruleset = self.ruleset(d["ruleset"])
        sides = self.sides(d["sides"])
        gmap = self.map(d["map"], ruleset, sides)
        if gmap is None:
            return None
        units = self.units(d.get("units", []), gmap, ruleset, sides)
        if self.problems:
            return None
        return Scenario(name=d["name"], ruleset=ruleset, sides=sides, map=gmap, units=units,
                        turn=d.get("turn", 1), description=d.get("description", ""), state=d.get("state", {}))

    def ruleset(self, r: dict[str, Any]) -> Ruleset:
        terrain = []
        seen_ids: set[str] = set()
        seen_syms: set[str] = set()
        for i, t in enumerate(r["terrain"]):
            p = f"$.ruleset.terrain[{i}]"
            if t["id"] in seen_ids:
                self.bad(p + ".id", f"terrain id '{t['id']}' is used twice")
            if t["symbol"] in seen_syms:
                self.bad(p + ".symbol", f"terrain symbol '{t['symbol']}' is used twice")
            seen_ids.add(t["id"])
            seen_syms.add(t["symbol"])
            terrain.append(TerrainType(**t))
        unit_types = []
        seen_ids = set()
        for i, u in enumerate(r.get("unit_types", [])):
            if u["id"] in seen_ids:
                self.bad(f"$.ruleset.unit_types[{i}].id", f"unit type id '{u['id']}' is used twice")
            seen_ids.add(u["id"])
            unit_types.append(UnitType(**u))
        return Ruleset(r["name"], terrain, unit_types, dict(r.get("options", {})))

    def sides(self, sides: list[dict[str, Any]]) -> list[Faction]:
        out = []
        ids: set[str] = set()
        syms: set[str] = set()
        for i, s in enumerate(sides):
            p = f"$.sides[{i}]"
            if s["id"] in ids:
                self.bad(p + ".id", f"side id '{s['id']}' is used twice")
            if s["symbol"] in syms:
                self.bad(p + ".symbol", f"side symbol '{s['symbol']}' is used twice")
            if s["symbol"] == NO_SIDE_SYMBOL:
                self.bad(p + ".symbol", f"'{NO_SIDE_SYMBOL}' means 'nobody' in control rows; pick another symbol")
            ids.add(s["id"])
            syms.add(s["symbol"])
            out.append(Faction(**s))
        return out

    def map(self, m: dict[str, Any], ruleset: Ruleset, sides: list[Faction]) -> GridMap | None:
        g = m["grid"]
        w, h = g["width"], g["height"]
        if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_CELLS:
            self.bad("$.map.grid", f"{w}x{h} is larger than the limit ({MAX_SIDE} per side, {MAX_CELLS} cells)")
            return None
        try:
            grid = make_grid(**g)
        except GridError as e:
            self.bad("$.map.grid", str(e))
            return None
        try:
            numbering = numbering_from_dict(m["numbering"])
            numbering.check_fits(w, h)
        except LabelError as e:
            self.bad("$.map.numbering", str(e))
            return None
        terrain = self.rows(m["terrain"], "$.map.terrain", w, h,
                            {t.symbol: i for i, t in enumerate(ruleset.terrain)}, "terrain symbol")
        control = None
        if "control" in m:
            sym = {s.symbol: i for i, s in enumerate(sides)}
            sym[NO_SIDE_SYMBOL] = NO_SIDE
            control = self.rows(m["control"], "$.map.control", w, h, sym, "side symbol")
        if terrain is None or ("control" in m and control is None):
            return None
        gm = GridMap(grid, numbering, terrain.astype(np.uint8),
                     None if control is None else control.astype(np.int16))

        def cell(label: Any, path: str) -> Cell | None:
            try:
                c = numbering.parse(label)
            except LabelError as e:
                self.bad(path, str(e))
                return None
            if not grid.contains(c):
                self.bad(path, f"'{label}' is off the map ({w}x{h})")
                return None
            return c

        for i, (la, lb) in enumerate(m.get("rivers", [])):
            a, b = cell(la, f"$.map.rivers[{i}][0]"), cell(lb, f"$.map.rivers[{i}][1]")
            if a and b:
                if not grid.shares_side(a, b):
                    self.bad(f"$.map.rivers[{i}]", f"'{la}' and '{lb}' share no side, so no river can lie between them")
                else:
                    gm.rivers.add(Edge.between(a, b))
        gm.links = {}
        for kind, chains in m.get("links", {}).items():
            edges = gm.links.setdefault(kind, set())
            for i, chain in enumerate(chains):
                cells = [cell(lab, f"$.map.links.{kind}[{i}][{j}]") for j, lab in enumerate(chain)]
                for j in range(len(cells) - 1):
                    a, b = cells[j], cells[j + 1]
                    if a and b:
                        if not grid.can_link(a, b):
                            self.bad(f"$.map.links.{kind}[{i}][{j + 1}]",
                                     f"'{chain[j]}' and '{chain[j + 1]}' are not adjacent, so no {kind} can join them")
                        else:
                            edges.add(Edge.between(a, b))
        for kind in ("rail", "road"):
            gm.links.setdefault(kind, set())
        for i, br in enumerate(m.get("bridges", [])):
            la, lb = br["between"]
            a, b = cell(la, f"$.map.bridges[{i}].between[0]"), cell(lb, f"$.map.bridges[{i}].between[1]")
            if a and b:
                edge = Edge.between(a, b) if a != b else None
                if edge is None or edge not in gm.rivers:
                    self.bad(f"$.map.bridges[{i}]", f"no river runs between '{la}' and '{lb}', so a bridge there crosses nothing")
                else:
                    gm.bridges[edge] = br["kind"]
        for i, pl in enumerate(m.get("places", [])):
            c = cell(pl["at"], f"$.map.places[{i}].at")
            if c:
                if c in gm.places:
                    self.bad(f"$.map.places[{i}].at", f"'{pl['at']}' already has a place ('{gm.places[c].name}')")
                gm.places[c] = Place(pl["name"], pl.get("code"))
        return gm

    def rows(self, rows: list[str], path: str, w: int, h: int, symbols: dict[str, int], what: str) -> np.ndarray | None:
        if len(rows) != h:
            self.bad(path, f"expected {h} rows (the grid's height), got {len(rows)}")
            return None
        lut = np.full(256, -2, np.int32)
        for sym, val in symbols.items():
            lut[ord(sym)] = val
        ok = True
        for r, row in enumerate(rows):
            if len(row) != w:
                self.bad(f"{path}[{r}]", f"expected {w} characters (the grid's width), got {len(row)}")
                ok = False
        if not ok:
            return None
        joined = "".join(rows)
        try:
            raw = np.frombuffer(joined.encode("ascii"), np.uint8)
        except UnicodeEncodeError as e:
            r, c = divmod(e.start, w)
            self.bad(f"{path}[{r}]", f"column {c + 1}: '{joined[e.start]}' is not a {what}")
            return None
        arr = lut[raw].reshape(h, w)
        bad = np.argwhere(arr == -2)
        for r, c in bad[:10]:
            known = "".join(sorted(s for s in symbols))
            self.bad(f"{path}[{r}]", f"column {c + 1}: '{rows[r][c]}' is not a {what} (known: {known})")
        if len(bad) > 10:
            self.bad(path, f"… {len(bad) - 10} more unknown symbols")
        return None if len(bad) else arr

    def units(self, units: list[dict[str, Any]], gm: GridMap, ruleset: Ruleset, sides: list[Faction]) -> list[Unit]:
        out = []
        ids: set[str] = set()
        side_ids = {s.id for s in sides}
        for i, u in enumerate(units):
            p = f"$.units[{i}]"
            if u["id"] in ids:
                self.bad(p + ".id", f"unit id '{u['id']}' is used twice")
            ids.add(u["id"])
            if u["side"] not in side_ids:
                self.bad(p + ".side", f"unknown side '{u['side']}' (sides: {', '.join(sorted(side_ids)) or 'none'})")
            if ruleset.unit_types:
                try:
                    ruleset.unit_type(u["type"])
                except ModelError as e:
                    self.bad(p + ".type", str(e))
            try:
                at = gm.numbering.parse(u["at"])
            except LabelError as e:
                self.bad(p + ".at", str(e))
                continue
            if not gm.grid.contains(at):
                self.bad(p + ".at", f"'{u['at']}' is off the map")
                continue
            out.append(Unit(u["id"], u["side"], u["type"], at, u.get("strength", 1), u.get("name"),
                            dict(u.get("props", {}))))
        return out


# ---------------------------------------------------------------------------
# saving

def header_data(s: Scenario | Any) -> dict[str, Any]:
    """The keys every scenario file shares, grid or territory: format,
    version, name, description, turn, ruleset and sides."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": s.name}
    if s.description:
        data["description"] = s.description
    data["turn"] = s.turn
    data["ruleset"] = {
        "name": s.ruleset.name,
        "terrain": [_terrain_data(t) for t in s.ruleset.terrain],
        "unit_types": [_drop_defaults({"id": u.id, "name": u.name, "movement": u.movement,
                                       "properties": u.properties}, {"properties": {}}) for u in s.ruleset.unit_types],
        "options": s.ruleset.options,
    }
    data["sides"] = [_drop_defaults({"id": f.id, "name": f.name, "color": f.color, "symbol": f.symbol,
                                     "alliance": f.alliance}, {"alliance": ""}) for f in s.sides]
    return data


def scenario_to_data(s: Scenario) -> dict[str, Any]:
    """The scenario as JSON-ready data (inverse of :func:`scenario_from_data`)."""
    m = s.map
    lab = m.label
    sym_t = np.frombuffer("".join(t.symbol for t in s.ruleset.terrain).encode("ascii"), np.uint8)
    terrain_rows = [bytes(sym_t[row]).decode("ascii") for row in m.terrain]
    data = header_data(s)
    mp: dict[str, Any] = {"grid": m.grid.to_dict(), "numbering": m.numbering.to_dict(), "terrain": terrain_rows}
    if (m.control != NO_SIDE).any():
        lut = np.frombuffer((NO_SIDE_SYMBOL + "".join(f.symbol for f in s.sides)).encode("ascii"), np.uint8)
        mp["control"] = [bytes(lut[row + 1]).decode("ascii") for row in m.control.astype(np.int64)]
    if m.rivers:
        mp["rivers"] = [[lab(e.a), lab(e.b)] for e in sorted(m.rivers)]
    if m.bridges:
        mp["bridges"] = [{"between": [lab(e.a), lab(e.b)], "kind": k} for e, k in sorted(m.bridges.items())]
    links = {kind: [[lab(c) for c in chain] for chain in iter_chains(edges)]
             for kind, edges in sorted(m.links.items()) if edges}
    if links:
        mp["links"] = links
    if m.places:
        mp["places"] = [_drop_defaults({"at": lab(c), "name": p.name, "code": p.code}, {"code": None})
                        for c, p in sorted(m.places.items())]
    data["map"] = mp
    data["units"] = [_drop_defaults({"id": u.id, "side": u.side, "type": u.type, "at": lab(u.at),
                                     "strength": u.strength, "name": u.name, "props": u.props},
                                    {"name": None, "props": {}}) for u in s.units]
    if s.state:
        data["state"] = s.state
    return data


def _terrain_data(t: TerrainType) -> dict[str, Any]:
    return _drop_defaults({"id": t.id, "name": t.name, "symbol": t.symbol, "color": t.color,
                           "move_cost": t.move_cost, "impassable": t.impassable, "linear": t.linear,
                           "elevation": t.elevation, "properties": t.properties},
                          {"move_cost": 1, "impassable": False, "linear": False, "elevation": 0, "properties": {}})


def _drop_defaults(d: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if not (k in defaults and v == defaults[k])}


def dumps_scenario(s: Scenario) -> str:
    """Diff-friendly JSON text: one map row, river, link chain, unit or
    terrain type per line."""
    return dumps_compact(scenario_to_data(s)) + "\n"


ROW_KEYS = frozenset({"terrain", "control"})
"""Keys whose lists of strings are map rows: always one row per line."""


def dumps_compact(value: Any, indent: int = 0, rows: bool = False) -> str:
    """JSON with records (a unit, a chain of labels, a terrain type) kept on
    one line and everything else broken over lines, indented by two spaces;
    map rows (``rows=True``) get a line each."""
    def scalar(v: Any) -> bool:
        return not isinstance(v, (list, dict))

    def record(v: Any) -> bool:  # a row, a chain, a unit, a terrain type: one line each
        if isinstance(v, list):
            return all(scalar(x) for x in v)
        if isinstance(v, dict):
            return all(scalar(x) or (isinstance(x, list) and all(scalar(y) for y in x)) for x in v.values())
        return True

    text = json.dumps(value, ensure_ascii=False)
    has_rows = rows or (isinstance(value, dict) and any(k in ROW_KEYS for k in value))
    if not value or (not has_rows and (record(value) or (len(text) <= 100 and not any(
            isinstance(x, list) and len(x) > 2 for x in (value.values() if isinstance(value, dict) else value))))):
        return text
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(value, list):
        items = [pad + dumps_compact(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    items = [pad + json.dumps(k, ensure_ascii=False) + ": "
             + dumps_compact(v, indent + 1, rows=k in ROW_KEYS and isinstance(v, list) and all(isinstance(x, str) for x in v))
             for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + end + "}"


def save_scenario(s: Scenario, path: str | os.PathLike[str]) -> None:
    """Write atomically: temporary file, flush, fsync, rename, fsync folder."""
    atomic_write_text(Path(path), dumps_scenario(s))


def atomic_write_text(path: Path, text: str) -> None:
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def iter_problems(paths: list[str]) -> Iterator[tuple[str, list[Problem]]]:
    """For each path, the problems loading it finds (empty when valid)."""
    for p in paths:
        try:
            load_any(p)
        except ScenarioError as e:
            yield p, e.problems
        else:
            yield p, []
