"""Rail Options: the board as rail sees it, shared by the four options
(``docs/rules/rail-options.md``).

:class:`RailGround` checks the map data, finds the forbidden crossings (Suez,
Panama, Turkish Straits: borders so named, or territories such a crossing
passes through), answers who may use a station or railroad marker this turn
and why not (control, timing, damage, land), reads the moves recorded this
turn and the nations' income, and searches rail paths.  The few places where
the options differ are asked of its :class:`~.options.RailOption` (``rule``).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.model import ModelError
from engine.territory.model import Territory, TerritoryScenario, TerritoryUnit

from .config import CROSSING, INF, NO_RAIL_BORDERS, RAILROAD, STATION, SYSTEM, RailConfig, RailOptionsError
from .options import RailOption, option_class
from .results import NationLoad, StationLoad

Path = tuple[str, ...]


@dataclass(frozen=True)
class Barrier:
    """A forbidden crossing passing through a territory; ``sides`` groups
    its neighbours (empty: any pass-through crosses)."""

    name: str
    sides: tuple[frozenset[str], ...]

    def crossed(self, came: str, goes: str) -> bool:
        if not self.sides:
            return True
        a = next((i for i, s in enumerate(self.sides) if came in s), None)
        b = next((i for i, s in enumerate(self.sides) if goes in s), None)
        return a is not None and b is not None and a != b


def captured_on(t: Territory, f: dict[str, Any]) -> int | None:
    """The turn the station or marker ``f`` in ``t`` was captured by the
    territory's present controller (``None``: never).  ``captured`` in the
    data wins (``false``: not captured); otherwise it counts as captured when
    the controller's control began during the game (``control_since`` > 0)
    and the marker was not bought after that (``purchased`` absent or
    earlier)."""
    c = f.get("captured")
    if c is False:
        return None
    if isinstance(c, int) and not isinstance(c, bool):
        return c
    bought = f.get("purchased")
    if t.control_since > 0 and (bought is None or bought < t.control_since):
        return t.control_since
    return None


class RailGround:
    """The rail network of one scenario at its current turn under one option
    (``cfg.option``) and ``phase``.  Raises :class:`RailOptionsError` for bad
    station, railroad or crossing data."""

    def __init__(self, scenario: TerritoryScenario, cfg: RailConfig, phase: str) -> None:
        self.s = scenario
        self.cfg = cfg
        self.phase = phase
        state = scenario.state.get(SYSTEM, {})
        self.state: dict[str, Any] = state if isinstance(state, dict) else {}
        self.rule: RailOption = option_class(cfg.option)(self)
        self._check_data()
        self._blocked_borders, self._barriers = self._crossings()
        self._ok: dict[str, dict[str, bool]] = {}
        self._labels: Mapping[str, str] | None = None

    @property
    def option(self) -> int:
        return self.cfg.option

    @property
    def labels(self) -> Mapping[str, str]:
        """Territory id -> name, shared (read-only by its type) by the
        results this ground gives, for their ``to_data()``; a plain dict,
        so results copy and pickle."""
        if self._labels is None:
            self._labels = {tid: t.name for tid, t in self.s.map.territories.items()}
        return self._labels

    # -- map data ----------------------------------------------------------
    def _check_data(self) -> None:
        for t in self.s.map.territories.values():
            for key in (STATION, RAILROAD):
                f = t.features.get(key)
                if f is None:
                    continue
                where = f"territory '{t.id}': {key}"
                if not isinstance(f, dict):
                    raise RailOptionsError(f"{where} must be an object like {{\"damage\": 0}}, got {f!r}")
                d = f.get("damage", 0)
                if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= self.cfg.max_damage:
                    raise RailOptionsError(f"{where}: damage must be 0 to {self.cfg.max_damage} markers, got {d!r}")
                for k in ("purchased", "captured"):
                    v = f.get(k)
                    if v is not None and v is not False and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                        raise RailOptionsError(f"{where}: {k} must be a turn number, got {v!r}")
            c = t.features.get(CROSSING)
            if c is not None and (not isinstance(c, dict) or not isinstance(c.get("name"), str)):
                raise RailOptionsError(f"territory '{t.id}': crossing must be an object with a \"name\", got {c!r}")

    def _crossings(self) -> tuple[dict[frozenset[str], str], dict[str, Barrier]]:
        """Borders rail may not cross (with the crossing's name) and
        territories a forbidden crossing passes through."""
        forbidden = {n.casefold(): n for n in self.cfg.forbidden_crossings}
        m = self.s.map
        borders: dict[frozenset[str], str] = {}
        for _, _, data in m.graph.edges(data=True):
            b = data["border"]
            for n in (b.name, b.props.get("crossing")):
                if isinstance(n, str) and n.casefold() in forbidden:
                    borders[frozenset((b.a, b.b))] = n
        barriers: dict[str, Barrier] = {}
        for t in m.territories.values():
            c = t.features.get(CROSSING)
            if isinstance(c, dict) and c["name"].casefold() in forbidden:
                sides = tuple(frozenset(self._ids(s)) for s in c.get("sides", []) if isinstance(s, list))
                barriers[t.id] = Barrier(c["name"], sides)
            canal = t.features.get("canal")  # TripleA CanalAttachment on a sea zone
            if isinstance(canal, dict) and isinstance(canal.get("name"), str) \
                    and canal["name"].casefold() in forbidden:
                land = self._ids(canal.get("land", []))
                if len(land) == 1:
                    barriers.setdefault(land[0], Barrier(canal["name"], ()))
                for x, y in itertools.combinations(land, 2):
                    if m.graph.has_edge(x, y):
                        borders[frozenset((x, y))] = canal["name"]
        return borders, barriers

    def _ids(self, names: Any) -> list[str]:
        out = []
        for n in names if isinstance(names, list) else []:
            if isinstance(n, str):
                try:
                    out.append(self.s.territory(n).id)
                except ModelError:
                    continue
        return out

    # -- questions about one territory --------------------------------------
    def station(self, t: Territory) -> dict[str, Any] | None:
        f = t.features.get(STATION)
        return f if isinstance(f, dict) else None

    def railroad(self, t: Territory) -> dict[str, Any] | None:
        f = t.features.get(RAILROAD)
        return f if isinstance(f, dict) else None

    def damage(self, t: Territory) -> int:
        """Damage markers on the station in ``t`` (0: none, or no station)."""
        return int((self.station(t) or {}).get("damage", 0))

    def captured_on(self, t: Territory, f: dict[str, Any]) -> int | None:
        """The turn a station or marker was captured by its territory's
        present controller (:func:`captured_on`)."""
        return captured_on(t, f)

    def _who(self, side: str | None) -> str:
        return "nobody" if side is None else self.s.side(side).name

    def control_reason(self, t: Territory, nation: str) -> str | None:
        """Why ``nation`` may not use rail in ``t`` because of who holds it
        (``None``: it may)."""
        if t.sea:
            return f"{t.name} is a sea zone"
        if t.impassable:
            return f"{t.name} is impassable"
        if t.controller == nation:
            return None
        if t.controller is None:
            return f"{t.name} is held by nobody"
        if not self.s.allied(t.controller, nation):
            return f"{t.name} is held by {self._who(t.controller)}, an enemy; rail never uses enemy rail"
        if self.option not in self.cfg.allies_share:
            return (f"{t.name} is held by {self._who(t.controller)}; under Option {self.option} a nation uses "
                    f"only rail it controls itself")
        return None

    def timing_reason(self, t: Territory, f: dict[str, Any], what: str) -> str | None:
        """Why the station or marker ``f`` in ``t`` cannot be used this turn
        (bought this turn; captured and not yet held one full turn)."""
        turn = self.s.turn
        bought = f.get("purchased")
        if isinstance(bought, int) and bought >= turn:
            return (f"the {what} in {t.name} was bought on turn {bought} and cannot be used before turn "
                    f"{bought + 1}")
        cap = self.captured_on(t, f)
        if cap is not None and turn < cap + self.cfg.capture_wait:
            return (f"the {what} in {t.name} was captured on turn {cap} and must be held one full turn: "
                    f"usable from turn {cap + self.cfg.capture_wait}")
        return None

    def station_reason(self, t: Territory, nation: str) -> str | None:
        """Why ``nation`` cannot use a station in ``t`` this turn (``None``:
        it can)."""
        f = self.station(t)
        if f is None:
            return f"{t.name} has no rail station"
        why = self.control_reason(t, nation) or self.timing_reason(t, f, "rail station")
        if why:
            return why
        dmg = int(f.get("damage", 0))
        if self.rule.damage_stops_station and dmg >= self.cfg.inoperable_damage:
            return (f"the rail station in {t.name} has {dmg} damage markers and is inoperable "
                    f"({self.cfg.inoperable_damage} or more)")
        return None

    def railroad_reason(self, t: Territory, nation: str) -> str | None:
        """Why ``nation`` cannot use a railroad marker in ``t`` this turn."""
        f = self.railroad(t)
        if f is None:
            return f"{t.name} has no railroad marker"
        why = self.control_reason(t, nation)
        if why:
            return why
        if self.rule.captured_railroad_removed:
            cap = self.captured_on(t, f)
            if cap is not None:
                return (f"the railroad in {t.name} was captured on turn {cap}; under Option {self.option} captured "
                        f"railroad markers are removed from play")
        return self.timing_reason(t, f, "railroad")

    def track_reason(self, t: Territory, nation: str) -> str | None:
        """Why a rail line of ``nation`` cannot pass through ``t`` (Options
        1, 2, 4): it needs a usable railroad marker, or (Options 1–2, unless
        ``stations_need_railroad``) a usable station."""
        why = self.railroad_reason(t, nation)
        if why is None:
            return None
        if self.rule.stations_and_railroad and not self.cfg.stations_need_railroad \
                and self.station_reason(t, nation) is None:
            return None
        return why

    def land_reason(self, t: Territory, nation: str) -> str | None:
        """Why a unit of ``nation`` may not pass through ``t`` on an Option 3
        move (friendly land only)."""
        if t.sea:
            return f"{t.name} is a sea zone"
        if t.impassable:
            return f"{t.name} is impassable"
        if t.controller is None or not self.s.allied(t.controller, nation):
            return f"{t.name} is held by {self._who(t.controller)}, not by {self.s.side(nation).name} or an ally"
        return None

    @staticmethod
    def the(name: str) -> str:
        return name if name.casefold().startswith("the ") else f"the {name}"

    def crossing_between(self, a: str, b: str) -> str | None:
        """The forbidden crossing (or ``closed``/``strait`` border) between
        neighbours ``a`` and ``b`` that rail may not cross."""
        name = self._blocked_borders.get(frozenset((a, b)))
        if name is not None:
            return name
        border = self.s.map.border(a, b)
        if border is not None and border.kind in NO_RAIL_BORDERS:
            return border.name or f"the {border.kind.value} border between {self.s.map.label(a)} and " \
                                  f"{self.s.map.label(b)}"
        return None

    def barrier_in(self, tid: str) -> str | None:
        """The name of a forbidden crossing passing through ``tid``."""
        b = self._barriers.get(tid)
        return b.name if b is not None else None

    # -- capacity ------------------------------------------------------------
    def moves(self) -> list[dict[str, Any]]:
        """Rail moves recorded this turn (``state.rail_options.moves``
        entries whose ``turn`` is the current one or absent)."""
        raw = self.state.get("moves", [])
        if not isinstance(raw, list):
            raise RailOptionsError("state.rail_options.moves must be a list of moves")
        out = []
        for i, m in enumerate(raw):
            if not isinstance(m, dict) or not isinstance(m.get("unit"), str) or not isinstance(m.get("path"), list) \
                    or not m["path"] or not all(isinstance(p, str) for p in m["path"]):
                raise RailOptionsError(f"state.rail_options.moves[{i}] must be an object with \"unit\" and a "
                                       f"non-empty \"path\" of territory ids, got {m!r}")
            if m.get("turn", self.s.turn) == self.s.turn:
                out.append(m)
        return out

    def _move_nation(self, m: dict[str, Any]) -> str:
        n = m.get("nation")
        if isinstance(n, str):
            return self.s.side(n).id
        return self.s.unit(m["unit"]).side

    def has_tech(self, nation: str) -> bool:
        if not self.cfg.technology:
            return False
        owners = self.state.get("technology", [])
        return isinstance(owners, list) and nation in owners

    def income(self, nation: str) -> tuple[int, str]:
        """The nation's IPC income (its place on the IPC chart) and where it
        comes from: ``state.rail_options.income[nation]``, else the sum of the
        values of the land territories it controls."""
        inc = self.state.get("income", {})
        if isinstance(inc, dict) and nation in inc:
            v = inc[nation]
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise RailOptionsError(f"state.rail_options.income.{nation} must be a whole number, got {v!r}")
            return v, "on the IPC chart"
        total = sum(t.value for t in self.s.map.territories.values() if t.controller == nation and not t.sea)
        return total, "from the territories it holds"

    def nation_load(self, nation: str) -> NationLoad | None:
        """``nation``'s rail capacity this turn and what moves recorded this
        turn have used (``None`` for Option 3, which has no nation cap)."""
        side = self.s.side(nation)
        mine = [m for m in self.moves() if self._move_nation(m) == side.id]
        bonus = self.cfg.tech_bonus if self.has_tech(side.id) else 0
        return self.rule.nation_load(side.id, side.name, mine, bonus)

    def bought_this_turn(self, f: dict[str, Any] | None) -> bool:
        b = None if f is None else f.get("purchased")
        return isinstance(b, int) and not isinstance(b, bool) and b >= self.s.turn

    def station_load(self, tid: str) -> StationLoad | None:
        """Throughput of the station in ``tid`` this turn (``None``: no
        station, or Options 2 and 4, which have no per-station limit)."""
        t = self.s.territory(tid)
        f = self.station(t)
        limit = None if f is None else self.rule.station_limit(t, f)
        if limit is None:
            return None
        used = sum(1 for m in self.moves() if t.id in self.rule.move_stations(m))
        return StationLoad(t.id, limit, used, t.name)

    def loads(self) -> tuple[list[NationLoad], list[StationLoad]]:
        """Every nation's and every station's capacity this turn (for a
        panel that shows what is left); stations bought this turn are not on
        the board yet and are left out."""
        nations = [x for x in (self.nation_load(s.id) for s in self.s.sides) if x is not None]
        stations = [x for x in (self.station_load(t.id) for t in self.s.map.territories.values()
                                if not self.bought_this_turn(self.station(t))) if x is not None]
        return nations, stations

    # -- the unit ----------------------------------------------------------
    def unit_reason(self, u: TerritoryUnit) -> str | None:
        """Why ``u`` may not use rail at all this turn (``None``: it may,
        capacity and stations permitting)."""
        who = self.unit_words(u)
        if self.phase == "combat" and not self.cfg.combat_move:
            return "rail may be used only in the non-combat movement phase (the combat_move switch is off)"
        try:
            ut = self.s.ruleset.unit_type(u.type)
        except ModelError:
            ut = None
        props = ut.properties if ut is not None else {}
        if props.get("ground") is False or props.get("domain") in ("air", "sea"):
            return f"{who} is not a ground unit; only ground units use rail"
        if u.props.get("moved"):
            return f"{who} has already moved this turn; only units that have not moved may use rail"
        if any(m["unit"] == u.id for m in self.moves()):
            return f"{who} has already used rail this turn"
        return None

    def unit_words(self, u: TerritoryUnit) -> str:
        return f"{u.type} {u.id} ({self.s.side(u.side).name})"

    def movement(self, u: TerritoryUnit) -> int:
        try:
            return self.s.ruleset.unit_type(u.type).movement
        except ModelError:
            raise RailOptionsError(f"unit {u.id}: unknown unit type '{u.type}', so its movement is unknown "
                                   f"(Option 3 adds to it)") from None

    # -- search --------------------------------------------------------------
    def node_ok(self, nation: str) -> Callable[[str], bool]:
        """Whether a path of ``nation`` may pass through a territory (track
        under Options 1, 2, 4; friendly land under Option 3), memoised: a
        ground answers for the map as it was when made."""
        m = self.s.map
        why = self.rule.passage_reason
        cache = self._ok.setdefault(nation, {})

        def ok(q: str) -> bool:
            v = cache.get(q)
            if v is None:
                v = cache[q] = why(m.territories[q], nation) is None
            return v

        return ok

    def search(self, start: str, max_cost: int, node_ok: Callable[[str], bool],
               weight: Callable[[str], int] | None = None, ignore_crossings: bool = False,
               through_ok: Callable[[str], bool] | None = None) -> dict[str, tuple[int, Path]]:
        """Cheapest paths from ``start``: every territory entered satisfies
        ``node_ok``, every territory passed through (not the start) also
        ``through_ok`` (default: ``node_ok``), over borders rail may cross,
        never passing through a forbidden crossing.  ``weight`` prices entering a
        territory (default 1); returns ``{territory: (cost, path)}`` for every
        territory reached at ``cost <= max_cost``.  States are
        ``(territory, came_from)`` so that a crossing inside a territory
        depends on how the path enters and leaves it."""
        g = self.s.map.graph
        w = weight or (lambda _t: 1)
        best: dict[str, tuple[int, Path]] = {start: (0, (start,))}
        seen: dict[tuple[str, str | None], int] = {(start, None): 0}
        heap: list[tuple[int, int, str, str | None, Path]] = [(0, 0, start, None, (start,))]
        tie = itertools.count(1)
        while heap:
            cost, _, t, came, path = heapq.heappop(heap)
            if seen.get((t, came), INF) < cost:
                continue
            if came is not None and through_ok is not None and not through_ok(t):
                continue
            barrier = None if ignore_crossings else self._barriers.get(t)
            for q in sorted(g.neighbors(t)):
                if q in path or not node_ok(q):
                    continue
                if not ignore_crossings and self.crossing_between(t, q) is not None:
                    continue
                if barrier is not None and came is not None and barrier.crossed(came, q):
                    continue
                c = cost + w(q)
                if c > max_cost or seen.get((q, t), INF) <= c:
                    continue
                seen[(q, t)] = c
                p = path + (q,)
                if q not in best or (c, p) < best[q]:
                    best[q] = (c, p)
                heapq.heappush(heap, (c, next(tie), q, t, p))
        return best

    def all_paths(self, start: str, max_len: int, ok: Callable[[str], bool],
                  end_ok: Callable[[str], bool]) -> list[Path]:
        """Every simple path from ``start`` of at most ``max_len`` steps
        through territories that are ``ok``, the last one ``ok`` or
        ``end_ok`` (Option 3 paths are short: movement + 1)."""
        g = self.s.map.graph
        out: list[Path] = []
        stack: list[Path] = [(start,)]
        while stack:
            p = stack.pop()
            if len(p) > 1:
                out.append(p)
            if len(p) - 1 >= max_len:
                continue
            t = p[-1]
            barrier = self._barriers.get(t)
            for q in sorted(g.neighbors(t)):
                if q in p or self.crossing_between(t, q) is not None:
                    continue
                if barrier is not None and len(p) > 1 and barrier.crossed(p[-2], q):
                    continue
                if ok(q) or end_ok(q):
                    stack.append(p + (q,))
        return [p for p in out if all(ok(x) for x in p[1:-1])]

    def crossing_names(self, path: Path) -> list[str]:
        """Names of the forbidden crossings (borders and barriers inside a
        territory) ``path`` crosses."""
        names: list[str] = []
        for i in range(len(path) - 1):
            c = self.crossing_between(path[i], path[i + 1])
            if c is not None and self.the(c) not in names:
                names.append(self.the(c))
            b = self._barriers.get(path[i])
            if b is not None and i > 0 and b.crossed(path[i - 1], path[i + 1]):
                label = f"the {b.name} (through {self.s.map.label(path[i])})"
                if label not in names:
                    names.append(label)
        return names or ["a forbidden crossing"]
