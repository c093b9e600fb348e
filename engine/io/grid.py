"""The grid scenario format (square and hex maps; format version 1): read,
validate, write.

Loading validates everything before it builds anything: the JSON Schema in
``resources/scenario.schema.json`` first (:func:`engine.io.common.schema_problems`),
then the checks a schema cannot express (labels on the map, symbols known,
rows the right length, links between adjacent cells).  Every problem is
reported with the file, the JSON path and what was expected; a file with any
problem yields no scenario.  See ``docs/file-format.md``.

Saving goes through :func:`engine.io.atomic.write_atomic`: a temporary file
in the same folder, flushed, fsynced and loaded back before it is renamed
over the old file, so a crash mid-save leaves the previous file intact.
Territory maps are :mod:`engine.io.territory`; :mod:`engine.io.registry`
reads either kind.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..grids import Cell, Edge, GridError, HexGrid, SquareGrid, cells_of
from ..labels import LabelError
from ..model import (
    NO_SIDE,
    NO_SIDE_SYMBOL,
    Faction,
    GridMap,
    ModelError,
    Place,
    Ruleset,
    Scenario,
    Unit,
    iter_chains,
    make_grid,
)
from ..numbering import numbering_from_dict
from .atomic import write_text_atomic
from .common import (
    MAX_CELLS,
    MAX_SIDE,
    HeaderBuilder,
    Problem,
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

KINDS = ("square", "hex")
"""The ``map.grid.kind`` values this module reads."""


# ---------------------------------------------------------------------------
# loading

def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and validate a scenario file; raises :class:`ScenarioError`.
    A territory-map file is refused with a message pointing at
    :func:`engine.io.registry.load_any`."""
    return loads_scenario(read_text(path), str(path))


def loads_scenario(text: str, source: str = "<string>") -> Scenario:
    """Parse and validate scenario JSON text; raises :class:`ScenarioError`."""
    return scenario_from_data(parse_json(text, source), source)


def scenario_from_data(data: Any, source: str = "<data>") -> Scenario:
    """Validate decoded JSON and build the scenario; raises
    :class:`ScenarioError` listing every problem."""
    if grid_kind(data) == "territory":
        raise ScenarioError([Problem(source, "$.map.grid.kind", "this is a territory map, not a square or hex grid: "
                                     "this command reads grid maps only (adjutant validate, info, render, "
                                     "journal, orders, railplan and rail-options read territory maps)")])
    problems = schema_problems(data, source)
    if problems:
        raise ScenarioError(problems)
    builder = GridBuilder(data, source)
    scenario = builder.build()
    if builder.problems:
        raise ScenarioError(capped(builder.problems, source))
    non_finite = non_finite_problems(_where_numbers_may_be(data), source)
    if non_finite:
        raise ScenarioError(non_finite)
    assert scenario is not None
    return scenario


_TEXT_ONLY = ("terrain", "control", "rivers", "links", "bridges")
"""The map's lists that hold text alone once the schema check and the
build have accepted them (rows, label pairs and chains, bridges of two
labels and a kind)."""


def _where_numbers_may_be(data: dict[str, Any]) -> dict[str, Any]:
    """An accepted scenario's ``data`` without the map's text-only lists:
    what :func:`non_finite_problems` need look through (it finds the same
    first non-finite number, none being in what is left out)."""
    m = data["map"]
    return {**data, "map": {k: v for k, v in m.items() if k not in _TEXT_ONLY}}


class GridBuilder(HeaderBuilder):
    """Semantic validation and construction of a grid scenario, collecting
    problems (the ruleset and sides checks are :class:`HeaderBuilder`'s)."""

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

        parsed: dict[str, Cell] = {}
        """Labels read so far (a file names each cell up to a dozen times)."""

        def cell(label: Any, path: str) -> Cell | None:
            c = parsed.get(label) if isinstance(label, str) else None
            if c is not None:
                return c
            try:
                c = numbering.parse(label)
            except LabelError as e:
                self.bad(path, str(e))
                return None
            if not grid.contains(c):
                self.bad(path, f"'{label}' is off the map ({w}x{h})")
                return None
            parsed[label] = c
            return c

        # whether two cells share a side depends only on their offset and the
        # parity of the first cell's column and row on these grids
        periodic = isinstance(grid, (SquareGrid, HexGrid))
        shared: dict[tuple[int, int, int, int], bool] = {}

        def shares_side(a: Cell, b: Cell) -> bool:
            if not periodic:
                return grid.shares_side(a, b)
            key = (a.col & 1, a.row & 1, b.col - a.col, b.row - a.row)
            got = shared.get(key)
            if got is None:
                got = shared[key] = grid.shares_side(a, b)
            return got

        def rivers_at_once(rivers: list[list[str]]) -> bool:
            """Every river added in one pass over arrays when all are plain
            labels (:meth:`Numbering.parse_plain`) of cells on the map that
            share a side: the same edges, added in the file's order, and the
            same cells remembered for the labels.  False, nothing added,
            otherwise (the rivers are then read one by one, which names
            each problem)."""
            if not periodic or not rivers:
                return False
            labels = [lab for pair in rivers for lab in pair]
            got = numbering.parse_plain(labels)
            if got is None or (got[:, 0] >= w).any() or (got[:, 1] >= h).any():
                return False
            ends = got.reshape(-1, 4)
            # one number per (parity of a's column and row, offset to b): what sharing a side depends on
            keys = ((((ends[:, 0] & 1) * 2 + (ends[:, 1] & 1)) * (2 * w + 1) + ends[:, 2] - ends[:, 0] + w)
                    * (2 * h + 1) + ends[:, 3] - ends[:, 1] + h)
            for i in np.unique(keys, return_index=True)[1].tolist():
                a0, a1, b0, b1 = ends[i].tolist()
                if not shares_side(Cell(a0, a1), Cell(b0, b1)):
                    return False
            codes, at = np.unique(got[:, 0] * h + got[:, 1], return_inverse=True)
            cells = cells_of((codes // h).tolist(), (codes % h).tolist())
            at = at.reshape(-1, 2)
            swap = (ends[:, 0] > ends[:, 2]) | ((ends[:, 0] == ends[:, 2]) & (ends[:, 1] > ends[:, 3]))
            lo, hi = np.where(swap, at[:, 1], at[:, 0]).tolist(), np.where(swap, at[:, 0], at[:, 1]).tolist()
            pick = cells.__getitem__
            gm.rivers.update(map(Edge, map(pick, lo), map(pick, hi)))
            for lab, c in zip(labels, map(pick, at.reshape(-1).tolist())):
                parsed.setdefault(lab, c)
            return True

        if not rivers_at_once(m.get("rivers", [])):
            for i, (la, lb) in enumerate(m.get("rivers", [])):
                a, b = cell(la, f"$.map.rivers[{i}][0]"), cell(lb, f"$.map.rivers[{i}][1]")
                if a and b:
                    if not shares_side(a, b):
                        self.bad(f"$.map.rivers[{i}]",
                                 f"'{la}' and '{lb}' share no side, so no river can lie between them")
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
        if "underlay" in m:
            gm.underlay = self.underlay(m["underlay"], cell, gm)
        return gm

    def underlay(self, u: dict[str, Any], cell: Any, gm: GridMap) -> dict[str, Any]:
        """The ``map.underlay`` record (the schema checked its shape): the
        image path must be relative to the scenario file, every clicked
        point's label a cell on the map, and a stored transform the
        least-squares fit of the points (:func:`engine.calibration.calibrate`),
        so a hand-edited point cannot leave a stale transform behind."""
        image = u["image"]
        if image.startswith(("/", "\\")) or (len(image) > 1 and image[1] == ":") or "\\" in image:
            self.bad("$.map.underlay.image", f"'{image}' must be a path relative to the scenario file, "
                                             "with '/' between folders")
        points = u.get("points", [])
        cells = [cell(p["label"], f"$.map.underlay.points[{i}].label") for i, p in enumerate(points)]
        if "transform" in u and all(c is not None for c in cells):
            from ..calibration import Affine, CalibrationError, ClickedPoint, calibrate

            try:
                fit = calibrate(gm, [ClickedPoint(float(p["x"]), float(p["y"]), p["label"]) for p in points]).affine
            except CalibrationError as e:
                self.bad("$.map.underlay.points", f"{e} (a stored transform needs points that fix it)")
            else:
                stored, want = Affine.from_list(u["transform"]).to_list(), fit.to_list()
                scale = max(1.0, *(abs(v) for row in want for v in row))
                if any(abs(a - b) > 1e-6 * scale for ra, rb in zip(stored, want) for a, b in zip(ra, rb)):
                    shown = [[float(f"{v:.6g}") if abs(v) > 1e-9 * scale else 0.0 for v in row] for row in want]
                    self.bad("$.map.underlay.transform", f"does not match the least-squares fit of the points "
                                                         f"({shown}); refit with adjutant calibrate --write")
        return dict(u)

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
        mp["places"] = [drop_defaults({"at": lab(c), "name": p.name, "code": p.code}, {"code": None})
                        for c, p in sorted(m.places.items())]
    if m.underlay is not None:
        mp["underlay"] = m.underlay
    data["map"] = mp
    data.update(changing_data(s))
    return data


def changing_data(s: Scenario) -> dict[str, Any]:
    """What game orders can change of the scenario as JSON-ready data, as
    :func:`scenario_to_data` gives it: its ``turn``, ``units`` and
    ``state`` (when not empty)."""
    lab = s.map.label
    data: dict[str, Any] = {"turn": s.turn}
    data["units"] = [drop_defaults({"id": u.id, "side": u.side, "type": u.type, "at": lab(u.at),
                                     "strength": u.strength, "name": u.name, "props": u.props},
                                    {"name": None, "props": {}}) for u in s.units]
    if s.state:
        data["state"] = s.state
    return data



def dumps_scenario(s: Scenario) -> str:
    """Diff-friendly JSON text: one map row, river, link chain, unit or
    terrain type per line."""
    data = scenario_to_data(s)
    return (dumps_with_journal(data, dumps_compact) or dumps_compact(data)) + "\n"



def save_scenario(s: Scenario, path: str | os.PathLike[str]) -> None:
    """Write atomically (see :func:`engine.io.atomic.write_atomic`); the
    written file must load back as a grid scenario before it replaces the
    old one.  Raises :class:`engine.io.atomic.OutputError`."""
    write_text_atomic(path, dumps_scenario(s), verify=check_loads)


def check_loads(path: Path) -> None:
    """Raise :class:`ScenarioError` unless the grid scenario file at
    ``path`` loads (the check a save makes of what it wrote)."""
    load_scenario(path)


__all__ = ["KINDS", "GridBuilder", "changing_data", "check_loads", "dumps_scenario", "load_scenario", "loads_scenario",
           "save_scenario", "scenario_from_data", "scenario_to_data"]
