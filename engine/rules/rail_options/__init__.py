"""Axis & Allies "Rail Options 1–4" on territory maps (shared seed 001,
issue 8).

A scenario names one option in ``ruleset.options["rail_options"]["option"]``;
every other option can be asked for as a what-if (:class:`RailOptions` takes
``option=``).  The four options:

1. **Stations and railroad.**  A ground unit that has not moved starts at a
   rail station and rails along connected railroad markers to another station,
   at most ``range`` (4) spaces less one per damage marker on its starting
   station.  A nation may rail as many units a turn as it controls stations
   (at most 6); a station passes at most its territory's IPC value in units
   (at most 6).  Allies share stations and railroad; captured railroad markers
   are removed from play.
2. **Stations and railroad.**  Up to 2 ground units a nation a turn, station
   to station along an unbroken line of the nation's own railroad, any
   distance.
3. **Stations only.**  A station adds 1 to the movement of each unit that
   starts there; a station serves at most its IPC value less its damage
   markers in units; no nation-wide cap.
4. **Railroad markers only.**  A nation has ``IPC income ÷ 7`` (rounded down)
   rail capacity points a turn, spent one per unit per space along its own
   connected railroad markers.

Everywhere: new stations and markers cannot be used in the turn they are
bought; captured ones must be held one full turn; rail never crosses the Suez
Canal, the Panama Canal or the Turkish Straits (borders so named, or
territories such a crossing passes through); enemy rail is never used.

Map data are territory :attr:`~engine.territory.Territory.features`
(``rail_station``, ``railroad``, ``crossing``) and border names/props; rail
moves already made this turn are ``scenario.state["rail_options"]["moves"]``
and use up capacity.  Every key, default and reading of ambiguous text is in
``docs/rules/rail-options.md``.

Results are frozen values: :class:`RailReach` (every territory a unit can rail
to, with the cost) and :class:`RailVerdict` (one move: allowed or refused with
a ``reason``, the path and the capacity it uses).  :func:`record_move` and
:func:`undo_move` apply and take back a move on the scenario.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from engine.model import ModelError
from engine.territory.model import BorderKind, Territory, TerritoryScenario, TerritoryUnit

SYSTEM = "rail_options"
"""Key of this system's options in ``ruleset.options`` and of its state in
``scenario.state``."""

STATION = "rail_station"
RAILROAD = "railroad"
CROSSING = "crossing"
"""Territory feature names this system reads."""

OPTION_NAMES = {
    1: "Option 1 (stations and railroad)",
    2: "Option 2 (stations and railroad, 2 units)",
    3: "Option 3 (stations only)",
    4: "Option 4 (railroad markers only)",
}

PHASES = ("noncombat", "combat")
NO_RAIL_BORDERS = frozenset({BorderKind.CLOSED, BorderKind.STRAIT})
"""Border kinds rail never crosses (see :class:`~engine.territory.BorderKind`)."""


class RailOptionsError(ModelError):
    """Bad rail-options data: an unknown option, malformed station or railroad
    data, a move that names an unknown unit or territory."""


# ---------------------------------------------------------------------------
# options


@dataclass(frozen=True)
class RailConfig:
    """Every rule value and reading; field names are the option keys of
    ``ruleset.options["rail_options"]`` (see ``docs/rules/rail-options.md``)."""

    option: int = 1
    # shared
    combat_move: bool = False
    technology: bool = False
    tech_bonus: int = 1
    forbidden_crossings: tuple[str, ...] = ("Suez Canal", "Panama Canal", "Turkish Straits")
    inoperable_damage: int = 3
    max_damage: int = 6
    capture_wait: int = 1
    allies_share: tuple[int, ...] = (1,)
    stations_need_railroad: bool = False
    # option 1
    range: int = 4
    range_counts: Literal["steps", "territories"] = "steps"
    nation_capacity_max: int = 6
    station_max: int = 6
    station_use: Literal["start", "both"] = "start"
    capacity_stations: Literal["controlled", "usable"] = "controlled"
    # option 2
    units_per_turn: int = 2
    # option 3
    station_bonus: int = 1
    bonus_station: Literal["start", "passed"] = "start"
    # option 4
    points_divisor: int = 7

    @property
    def name(self) -> str:
        return OPTION_NAMES[self.option]


_CHOICES: dict[str, tuple[str, ...]] = {
    "range_counts": ("steps", "territories"),
    "station_use": ("start", "both"),
    "capacity_stations": ("controlled", "usable"),
    "bonus_station": ("start", "passed"),
}


def _option_number(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in OPTION_NAMES:
        raise RailOptionsError(f"{where} must be 1, 2, 3 or 4, got {value!r}")
    return value


def config_from_dict(data: dict[str, Any], option: int | None = None) -> RailConfig:
    """Options from a ``ruleset.options["rail_options"]`` mapping, with
    ``option`` (when given) replacing the scenario's choice.  Unknown keys and
    bad values raise :class:`RailOptionsError` naming the key."""
    known = {f.name for f in fields(RailConfig)}
    base = RailConfig()
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise RailOptionsError(f"unknown rail_options option '{key}' (known: {', '.join(sorted(known))})")
        default = getattr(base, key)
        where = f"rail_options option '{key}'"
        if key == "option":
            changes[key] = _option_number(value, where)
        elif key == "allies_share":
            if not isinstance(value, list):
                raise RailOptionsError(f"{where} must be a list of option numbers like [1], got {value!r}")
            changes[key] = tuple(_option_number(v, where) for v in value)
        elif key in _CHOICES:
            if value not in _CHOICES[key]:
                raise RailOptionsError(f"{where} must be one of {', '.join(_CHOICES[key])}, got {value!r}")
            changes[key] = value
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise RailOptionsError(f"{where} must be true or false, got {value!r}")
            changes[key] = value
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RailOptionsError(f"{where} must be a whole number of 0 or more, got {value!r}")
            if key == "points_divisor" and value == 0:
                raise RailOptionsError(f"{where} must be at least 1")
            changes[key] = value
        elif isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise RailOptionsError(f"{where} must be a list of names, got {value!r}")
            changes[key] = tuple(value)
    if option is not None:
        changes["option"] = _option_number(option, "the rail option")
    return replace(base, **changes)


# ---------------------------------------------------------------------------
# result values


@dataclass(frozen=True)
class StationLoad:
    """Throughput of the station in ``territory``: ``used`` of ``limit``
    units this turn."""

    territory: str
    limit: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)


@dataclass(frozen=True)
class NationLoad:
    """A nation's rail capacity this turn: ``used`` of ``limit`` (``None``: no
    nation-wide cap, Option 3).  ``unit`` is ``"units"`` (Options 1–2) or
    ``"points"`` (Option 4); ``basis`` says where the limit comes from."""

    nation: str
    limit: int | None
    used: int
    unit: str
    basis: str

    @property
    def left(self) -> int | None:
        return None if self.limit is None else max(0, self.limit - self.used)


@dataclass(frozen=True)
class Reached:
    """One territory a unit can rail to: ``cost`` spaces along ``path``
    (territory ids, start first); ``points`` of nation capacity it uses."""

    territory: str
    cost: int
    path: tuple[str, ...]
    points: int
    station: str | None


@dataclass(frozen=True)
class RailReach:
    """Every territory ``unit`` can rail to this turn under ``option``
    (nearest first, then by name); empty with a ``reason`` when it cannot
    rail at all.  ``max_cost`` is the farthest it may go (``None``: any
    distance)."""

    option: int
    unit: str
    nation: str
    start: str
    destinations: tuple[Reached, ...]
    max_cost: int | None
    nation_load: NationLoad | None
    station_load: StationLoad | None
    reason: str


@dataclass(frozen=True)
class RailVerdict:
    """One rail move judged: ``allowed`` or refused with a ``reason``.  When
    allowed, ``path`` (ids, start first) and the capacity it uses:
    ``station`` (the station whose throughput it spends, ``None`` for
    Options 2 and 4), ``points`` of the nation's capacity (one unit for
    Options 1–2, the spaces for Option 4, 0 for Option 3).  When refused for
    range or points, ``path`` is the shortest rail line that was too long."""

    allowed: bool
    option: int
    unit: str
    nation: str
    start: str
    to: str
    path: tuple[str, ...]
    cost: int
    station: str | None
    points: int
    reason: str
    nation_load: NationLoad | None = None
    station_load: StationLoad | None = None


# ---------------------------------------------------------------------------
# the rules


@dataclass(frozen=True)
class _Barrier:
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


_INF = 10 ** 9


class RailOptions:
    """The rail options over one scenario at its current turn.

    ``option`` (1–4) replaces the scenario's choice (a what-if); ``phase`` is
    ``"noncombat"`` (default) or ``"combat"``.  Raises
    :class:`RailOptionsError` for bad options or map data.
    """

    def __init__(self, scenario: TerritoryScenario, option: int | None = None, phase: str = "noncombat") -> None:
        self.s = scenario
        raw = scenario.ruleset.options.get(SYSTEM, {})
        if not isinstance(raw, dict):
            raise RailOptionsError("ruleset.options.rail_options must be an object")
        self.cfg = config_from_dict(raw, option)
        if phase not in PHASES:
            raise RailOptionsError(f"the phase must be 'noncombat' or 'combat', got {phase!r}")
        self.phase = phase
        state = scenario.state.get(SYSTEM, {})
        self.state: dict[str, Any] = state if isinstance(state, dict) else {}
        self._check_data()
        self._blocked_borders, self._barriers = self._crossings()
        self._ok: dict[str, dict[str, bool]] = {}

    @property
    def option(self) -> int:
        return self.cfg.option

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

    def _crossings(self) -> tuple[dict[frozenset[str], str], dict[str, _Barrier]]:
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
        barriers: dict[str, _Barrier] = {}
        for t in m.territories.values():
            c = t.features.get(CROSSING)
            if isinstance(c, dict) and c["name"].casefold() in forbidden:
                sides = tuple(frozenset(self._ids(s)) for s in c.get("sides", []) if isinstance(s, list))
                barriers[t.id] = _Barrier(c["name"], sides)
            canal = t.features.get("canal")  # TripleA CanalAttachment on a sea zone
            if isinstance(canal, dict) and isinstance(canal.get("name"), str) \
                    and canal["name"].casefold() in forbidden:
                land = self._ids(canal.get("land", []))
                if len(land) == 1:
                    barriers.setdefault(land[0], _Barrier(canal["name"], ()))
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

    def captured_on(self, t: Territory, f: dict[str, Any]) -> int | None:
        """The turn a station or marker was captured by its territory's
        present controller (``None``: never).  ``captured`` in the data wins
        (``false``: not captured); otherwise it counts as captured when the
        controller's control began during the game (``control_since`` > 0)
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
        if self.option in (1, 3) and dmg >= self.cfg.inoperable_damage:
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
        if self.option == 1:
            cap = self.captured_on(t, f)
            if cap is not None:
                return (f"the railroad in {t.name} was captured on turn {cap}; under Option 1 captured railroad "
                        f"markers are removed from play")
        return self.timing_reason(t, f, "railroad")

    def track_reason(self, t: Territory, nation: str) -> str | None:
        """Why a rail line of ``nation`` cannot pass through ``t`` (Options
        1, 2, 4): it needs a usable railroad marker, or (Options 1–2, unless
        ``stations_need_railroad``) a usable station."""
        why = self.railroad_reason(t, nation)
        if why is None:
            return None
        if self.option in (1, 2) and not self.cfg.stations_need_railroad and self.station_reason(t, nation) is None:
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
    def _the(name: str) -> str:
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

    def _move_stations(self, m: dict[str, Any]) -> list[str]:
        path: list[str] = m["path"]
        if self.option == 1:
            return [path[0], path[-1]] if self.cfg.station_use == "both" and len(path) > 1 else [path[0]]
        if self.option == 3:
            st = m.get("station")
            return [st if isinstance(st, str) else path[0]]
        return []

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
        nation = self.s.side(nation).id
        mine = [m for m in self.moves() if self._move_nation(m) == nation]
        bonus = self.cfg.tech_bonus if self.has_tech(nation) else 0
        tech = f" + {bonus} technology" if bonus else ""
        if self.option == 1:
            stations = [t for t in self.s.map.territories.values() if t.controller == nation
                        and self.station(t) is not None and not self._bought_this_turn(self.station(t))
                        and (self.cfg.capacity_stations == "controlled" or self.station_reason(t, nation) is None)]
            limit = min(len(stations) + bonus, self.cfg.nation_capacity_max + bonus)
            basis = (f"{len(stations)} station{'s' if len(stations) != 1 else ''} controlled{tech}, "
                     f"at most {self.cfg.nation_capacity_max + bonus}")
            return NationLoad(nation, limit, len(mine), "units", basis)
        if self.option == 2:
            return NationLoad(nation, self.cfg.units_per_turn + bonus, len(mine), "units",
                              f"{self.cfg.units_per_turn} units a turn{tech}")
        if self.option == 4:
            ipc, source = self.income(nation)
            pts = ipc // self.cfg.points_divisor + bonus
            used = sum(len(m["path"]) - 1 for m in mine)
            return NationLoad(nation, pts, used, "points",
                              f"{ipc} IPC {source} ÷ {self.cfg.points_divisor} = {ipc // self.cfg.points_divisor}"
                              f"{tech}")
        return None

    def _bought_this_turn(self, f: dict[str, Any] | None) -> bool:
        b = None if f is None else f.get("purchased")
        return isinstance(b, int) and not isinstance(b, bool) and b >= self.s.turn

    def station_load(self, tid: str) -> StationLoad | None:
        """Throughput of the station in ``tid`` this turn (``None``: no
        station, or Options 2 and 4, which have no per-station limit)."""
        t = self.s.territory(tid)
        f = self.station(t)
        if f is None or self.option in (2, 4):
            return None
        used = sum(1 for m in self.moves() if t.id in self._move_stations(m))
        if self.option == 1:
            return StationLoad(t.id, min(t.value, self.cfg.station_max), used)
        bonus = self.cfg.tech_bonus if t.controller is not None and self.has_tech(t.controller) else 0
        return StationLoad(t.id, max(0, t.value - int(f.get("damage", 0))) + bonus, used)

    def loads(self) -> tuple[list[NationLoad], list[StationLoad]]:
        """Every nation's and every station's capacity this turn (for a
        panel that shows what is left); stations bought this turn are not on
        the board yet and are left out."""
        nations = [x for x in (self.nation_load(s.id) for s in self.s.sides) if x is not None]
        stations = [x for x in (self.station_load(t.id) for t in self.s.map.territories.values()
                                if not self._bought_this_turn(self.station(t))) if x is not None]
        return nations, stations

    # -- the unit ----------------------------------------------------------
    def unit_reason(self, u: TerritoryUnit) -> str | None:
        """Why ``u`` may not use rail at all this turn (``None``: it may,
        capacity and stations permitting)."""
        who = self._unit_words(u)
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

    def _unit_words(self, u: TerritoryUnit) -> str:
        return f"{u.type} {u.id} ({self.s.side(u.side).name})"

    def _movement(self, u: TerritoryUnit) -> int:
        try:
            return self.s.ruleset.unit_type(u.type).movement
        except ModelError:
            raise RailOptionsError(f"unit {u.id}: unknown unit type '{u.type}', so its movement is unknown "
                                   f"(Option 3 adds to it)") from None

    # -- search --------------------------------------------------------------
    def _search(self, start: str, max_cost: int, node_ok: Callable[[str], bool],
                weight: Callable[[str], int] | None = None, ignore_crossings: bool = False,
                through_ok: Callable[[str], bool] | None = None) -> dict[str, tuple[int, tuple[str, ...]]]:
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
        best: dict[str, tuple[int, tuple[str, ...]]] = {start: (0, (start,))}
        seen: dict[tuple[str, str | None], int] = {(start, None): 0}
        heap: list[tuple[int, int, str, str | None, tuple[str, ...]]] = [(0, 0, start, None, (start,))]
        tie = itertools.count(1)
        while heap:
            cost, _, t, came, path = heapq.heappop(heap)
            if seen.get((t, came), _INF) < cost:
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
                if c > max_cost or seen.get((q, t), _INF) <= c:
                    continue
                seen[(q, t)] = c
                p = path + (q,)
                if q not in best or (c, p) < best[q]:
                    best[q] = (c, p)
                heapq.heappush(heap, (c, next(tie), q, t, p))
        return best

    # -- the rules per option ------------------------------------------------
    def _limits(self, u: TerritoryUnit) -> tuple[str | None, int | None, str | None, NationLoad | None,
                                                  StationLoad | None]:
        """(reason the unit cannot rail, max spaces, charged start station,
        nation load, station load)."""
        start = self.s.territory(u.at)
        nation = u.side
        why = self.unit_reason(u)
        nload = self.nation_load(nation)
        sload = None
        if why is not None:
            return why, None, None, nload, None
        if self.option in (1, 2, 3) and not (self.option == 3 and self.cfg.bonus_station == "passed"):
            why = self.station_reason(start, nation)
            if why is None and self.option in (1, 2) and self.cfg.stations_need_railroad:
                why = self.railroad_reason(start, nation)
            if why is not None:
                return f"{self._unit_words(u)} is not at a usable rail station: {why}", None, None, nload, None
            sload = self.station_load(start.id)
        if self.option == 4:
            why = self.railroad_reason(start, nation)
            if why is not None:
                return f"{self._unit_words(u)} is not on a usable railroad marker: {why}", None, None, nload, None
        if nload is not None and nload.limit == 0:
            return (f"{self.s.side(nation).name} has no rail capacity {nload.unit} this turn ({nload.basis})"), \
                None, None, nload, sload
        if nload is not None and nload.left == 0:
            return (f"{self.s.side(nation).name} has used all {nload.limit} of its rail capacity {nload.unit} this "
                    f"turn ({nload.basis})"), None, None, nload, sload
        if sload is not None and sload.left == 0:
            return self._station_full(start, sload), None, None, nload, sload
        if self.option == 1:
            dmg = int((self.station(start) or {}).get("damage", 0))
            r = self.cfg.range - dmg - (1 if self.cfg.range_counts == "territories" else 0)
            return None, max(0, r), start.id, nload, sload
        if self.option == 2:
            return None, _INF, None, nload, sload
        if self.option == 3:
            st = start.id if self.cfg.bonus_station == "start" else None
            return None, self._movement(u) + self.cfg.station_bonus, st, nload, sload
        assert nload is not None and nload.left is not None
        return None, nload.left, None, nload, sload

    def _station_full(self, t: Territory, load: StationLoad) -> str:
        if load.limit == 0:
            dmg = int((self.station(t) or {}).get("damage", 0))
            less = f" less {dmg} damage marker{'s' if dmg != 1 else ''}" if self.option == 3 and dmg else ""
            return f"the rail station in {t.name} can pass no units (IPC value {t.value}{less})"
        return f"the rail station in {t.name} has passed all {load.limit} units it may this turn"

    def _dest_reason(self, t: Territory, nation: str) -> str | None:
        if self.option in (1, 2):
            why = self.station_reason(t, nation)
            if why is None and self.cfg.stations_need_railroad:
                why = self.railroad_reason(t, nation)
            if why is None and self.option == 1 and self.cfg.station_use == "both":
                load = self.station_load(t.id)
                if load is not None and load.left == 0:
                    return self._station_full(t, load)
            return why
        if self.option == 4:
            return self.railroad_reason(t, nation)
        if self.phase == "combat" and not t.sea and not t.impassable:
            return None
        return self.land_reason(t, nation)

    def _node_ok(self, nation: str) -> Callable[[str], bool]:
        """Whether a path of ``nation`` may pass through a territory (track
        under Options 1, 2, 4; friendly land under Option 3), memoised: a
        :class:`RailOptions` answers for the map as it was when made."""
        m = self.s.map
        why = self.land_reason if self.option == 3 else self.track_reason
        cache = self._ok.setdefault(nation, {})

        def ok(q: str) -> bool:
            v = cache.get(q)
            if v is None:
                v = cache[q] = why(m.territories[q], nation) is None
            return v

        return ok

    def _routes(self, u: TerritoryUnit, max_cost: int) -> dict[str, tuple[int, tuple[str, ...], str | None]]:
        """Every destination with (cost, path, charged station)."""
        nation = u.side
        m = self.s.map
        ok = self._node_ok(nation)
        out: dict[str, tuple[int, tuple[str, ...], str | None]] = {}
        if self.option == 3 and self.cfg.bonus_station == "passed":
            return self._routes_passed(u)
        # destinations may be stations without track (Options 1-2) or, in
        # the combat phase under Option 3, enemy territory: allow them as the
        # last step only.
        found = self._search(u.at, max_cost, lambda q: ok(q) or self._dest_reason(m.territories[q], nation) is None,
                             through_ok=ok)
        for q, (c, p) in found.items():
            if q == u.at:
                continue
            if self._dest_reason(m.territories[q], nation) is None:
                out[q] = (c, p, u.at if self.option in (1, 3) else None)
        return out

    def _routes_passed(self, u: TerritoryUnit) -> dict[str, tuple[int, tuple[str, ...], str | None]]:
        """Option 3 with ``bonus_station == "passed"``: the +1 comes from the
        first usable station (with throughput left) the move starts in or
        passes through; the path is at most movement + bonus long."""
        nation = u.side
        m = self.s.map
        mv = self._movement(u)
        ok = self._node_ok(nation)
        found = self._all_paths(u.at, mv + self.cfg.station_bonus, ok, nation)
        out: dict[str, tuple[int, tuple[str, ...], str | None]] = {}
        for p in found:
            q = p[-1]
            st = next((x for x in p[:-1] if self.station_reason(m.territories[x], nation) is None
                       and (self.station_load(x) or StationLoad(x, 0, 0)).left > 0), None)
            if st is None or self._dest_reason(m.territories[q], nation) is not None:
                continue
            cand = (len(p) - 1, p, st)
            if q not in out or cand[:2] < out[q][:2]:
                out[q] = cand
        return out

    def _all_paths(self, start: str, max_len: int, ok: Callable[[str], bool],
                   nation: str) -> list[tuple[str, ...]]:
        """Every simple path from ``start`` of at most ``max_len`` steps
        (Option 3 paths are short: movement + 1)."""
        g = self.s.map.graph
        out: list[tuple[str, ...]] = []
        stack: list[tuple[str, ...]] = [(start,)]
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
                if ok(q) or self._dest_reason(self.s.map.territories[q], nation) is None:
                    stack.append(p + (q,))
        return [p for p in out if all(ok(x) for x in p[1:-1])]

    def _points(self, cost: int) -> int:
        return cost if self.option == 4 else (1 if self.option in (1, 2) else 0)

    # -- public questions ----------------------------------------------------
    def reach(self, unit_id: str) -> RailReach:
        """Every territory the unit can rail to this turn, with the cost."""
        u = self.s.unit(unit_id)
        why, max_cost, _, nload, sload = self._limits(u)
        if why is not None or max_cost is None:
            return RailReach(self.option, u.id, u.side, u.at, (), None, nload, sload, why or "")
        routes = self._routes(u, max_cost)
        dests = tuple(Reached(q, c, p, self._points(c), st)
                      for q, (c, p, st) in sorted(routes.items(), key=lambda kv: (kv[1][0], self.s.map.label(kv[0]))))
        reason = "" if dests else f"no territory can be reached by rail from {self.s.map.label(u.at)}"
        if not dests and self.option == 1 and max_cost == 0:
            reason = (f"the station in {self.s.map.label(u.at)} has so many damage markers that its range is 0")
        return RailReach(self.option, u.id, u.side, u.at, dests, None if max_cost >= _INF else max_cost, nload,
                         sload, reason)

    def judge(self, unit_id: str, to: str) -> RailVerdict:
        """Whether the unit may rail to ``to`` (a territory id or name) this
        turn; when not, the reason."""
        u = self.s.unit(unit_id)
        dest = self.s.territory(to)
        nation = u.side
        m = self.s.map
        why, max_cost, _, nload, sload = self._limits(u)

        def no(reason: str, path: tuple[str, ...] = (), cost: int = 0) -> RailVerdict:
            return RailVerdict(False, self.option, u.id, nation, u.at, dest.id, path, cost, None, 0, reason,
                               nload, sload)

        if dest.id == u.at:
            return no(f"{self._unit_words(u)} is already in {dest.name}")
        if why is not None or max_cost is None:
            return no(why or "")
        routes = self._routes(u, max_cost)
        if dest.id in routes:
            c, p, st = routes[dest.id]
            use_load = self.station_load(st) if st is not None else None
            return RailVerdict(True, self.option, u.id, nation, u.at, dest.id, p, c, st, self._points(c),
                               f"{self._unit_words(u)} may rail from {m.label(u.at)} to {dest.name}: "
                               f"{c} space{'s' if c != 1 else ''}", nload, use_load or sload)
        dwhy = self._dest_reason(dest, nation)
        if dwhy is not None:
            return no(f"{dest.name} cannot be the end of a rail move under Option {self.option}: {dwhy}")
        return self._explain(u, dest, max_cost, no)

    def _explain(self, u: TerritoryUnit, dest: Territory, max_cost: int,
                 no: Callable[..., RailVerdict]) -> RailVerdict:
        """Why ``dest`` (a valid end) is out of reach: too far, only across a
        forbidden crossing, or a broken line (naming where)."""
        nation = u.side
        m = self.s.map
        ok = self._node_ok(nation)

        def line_ok(q: str) -> bool:
            return ok(q) or q == dest.id

        far = self._search(u.at, _INF, line_ok, through_ok=ok).get(dest.id)
        if far is not None:
            cost, path = far
            if cost <= max_cost:  # Option 3, bonus_station "passed": no station on the way
                return no(f"no move from {m.label(u.at)} to {dest.name} of at most {max_cost} spaces starts in or "
                          f"passes a rail station that {self.s.side(nation).name} may use", path, cost)
            return no(self._too_far(u, dest, cost), path, cost)
        if self._search(u.at, _INF, line_ok, ignore_crossings=True, through_ok=ok).get(dest.id) is not None:
            names = self._crossings_on(u.at, dest.id, line_ok, ok)
            return no(f"every rail line from {m.label(u.at)} to {dest.name} crosses {' or '.join(names)}, which rail "
                      f"may never cross")
        # a broken line: the route over land with the fewest unusable territories
        land = [tid for tid, t in m.territories.items() if not t.sea and not t.impassable]
        landset = set(land)
        found = self._search(u.at, _INF, lambda q: q in landset,
                             weight=lambda q: 1 if (ok(q) or q == dest.id) else 1000)
        hit = found.get(dest.id)
        if hit is None:
            hit_x = self._search(u.at, _INF, lambda q: q in landset, ignore_crossings=True).get(dest.id)
            if hit_x is None:
                return no(f"no land route joins {m.label(u.at)} and {dest.name}")
            names = self._crossings_on(u.at, dest.id, lambda q: q in landset)
            return no(f"every land route from {m.label(u.at)} to {dest.name} crosses {' or '.join(names)}, which "
                      f"rail may never cross")
        _, path = hit
        broken = [x for x in path[1:-1] if not ok(x)]
        reasons = [self._node_words(m.territories[x], nation) for x in broken]
        what = "the move" if self.option == 3 else "the rail line"
        return no(f"{what} from {m.label(u.at)} to {dest.name} is broken at "
                  f"{', '.join(m.label(x) for x in broken)}: {'; '.join(reasons)}", path, len(path) - 1)

    def _node_words(self, t: Territory, nation: str) -> str:
        if self.option == 3:
            return self.land_reason(t, nation) or ""
        return self.track_reason(t, nation) or ""

    def _crossings_on(self, start: str, dest: str, node_ok: Callable[[str], bool],
                      through_ok: Callable[[str], bool] | None = None) -> list[str]:
        """Names of the forbidden crossings on the shortest path that ignores
        them."""
        hit = self._search(start, _INF, node_ok, ignore_crossings=True, through_ok=through_ok).get(dest)
        names: list[str] = []
        if hit is None:
            return names
        path = hit[1]
        for i in range(len(path) - 1):
            c = self.crossing_between(path[i], path[i + 1])
            if c is not None and self._the(c) not in names:
                names.append(self._the(c))
            b = self._barriers.get(path[i])
            if b is not None and i > 0 and b.crossed(path[i - 1], path[i + 1]):
                label = f"the {b.name} (through {self.s.map.label(path[i])})"
                if label not in names:
                    names.append(label)
        return names or ["a forbidden crossing"]

    def _too_far(self, u: TerritoryUnit, dest: Territory, cost: int) -> str:
        m = self.s.map
        nation = self.s.side(u.side).name
        if self.option == 1:
            dmg = int((self.station(m.territories[u.at]) or {}).get("damage", 0))
            r = self.cfg.range - dmg
            unit = "spaces" if self.cfg.range_counts == "steps" else "territories, the start included"
            n = cost if self.cfg.range_counts == "steps" else cost + 1
            dmg_words = (f" ({self.cfg.range} less {dmg} damage marker{'s' if dmg != 1 else ''} on the station in "
                         f"{m.label(u.at)})") if dmg else ""
            return (f"{dest.name} is {n} {unit} from {m.label(u.at)} by rail; a unit may rail at most {r}"
                    f"{dmg_words}")
        if self.option == 3:
            mv = self._movement(u)
            return (f"{dest.name} is {cost} spaces from {m.label(u.at)}; {self._unit_words(u)} may move "
                    f"{mv} + {self.cfg.station_bonus} (rail station) = {mv + self.cfg.station_bonus}")
        load = self.nation_load(u.side)
        assert load is not None
        return (f"{dest.name} is {cost} spaces along {nation}'s railroad from {m.label(u.at)}; {nation} has "
                f"{load.left} rail capacity point{'s' if load.left != 1 else ''} left this turn ({load.basis}, "
                f"{load.used} spent)")


# ---------------------------------------------------------------------------
# applying moves


@dataclass(frozen=True)
class RecordedMove:
    """What :func:`record_move` did, for :func:`undo_move` to take back
    exactly: the unit, and whether it created the rail-options state or
    its list of moves (to be removed again once empty)."""

    unit: str
    made_state: bool
    made_moves: bool


def record_move(scenario: TerritoryScenario, verdict: RailVerdict) -> RecordedMove:
    """Apply an allowed move: append it to ``state.rail_options.moves`` and
    move the unit; returns what it did, for :func:`undo_move`.  Raises
    :class:`RailOptionsError` for a refused verdict."""
    if not verdict.allowed:
        raise RailOptionsError(f"cannot apply a refused rail move: {verdict.reason}")
    u = scenario.unit(verdict.unit)
    if u.at != verdict.start:
        raise RailOptionsError(f"unit {u.id} is in {scenario.map.label(u.at)}, not {scenario.map.label(verdict.start)}")
    made_state = SYSTEM not in scenario.state
    st = scenario.state.setdefault(SYSTEM, {})
    made_moves = "moves" not in st
    moves = st.setdefault("moves", [])
    entry: dict[str, Any] = {"unit": u.id, "nation": verdict.nation, "turn": scenario.turn,
                             "option": verdict.option, "path": list(verdict.path)}
    if verdict.station is not None:
        entry["station"] = verdict.station
    moves.append(entry)
    u.at = verdict.to
    return RecordedMove(u.id, made_state, made_moves)


def undo_move(scenario: TerritoryScenario, unit_id: str, recorded: RecordedMove | None = None) -> None:
    """Take back the unit's rail move of this turn (the inverse of
    :func:`record_move`).  Given what ``record_move`` returned, it also
    removes the list of moves and the rail-options state that call created,
    once they are empty, so a move and its undo leave the scenario (and its
    file) exactly as they were."""
    u = scenario.unit(unit_id)
    st = scenario.state.get(SYSTEM, {})
    moves = st.get("moves", [])
    for i in range(len(moves) - 1, -1, -1):
        m = moves[i]
        if m.get("unit") == u.id and m.get("turn", scenario.turn) == scenario.turn:
            del moves[i]
            u.at = m["path"][0]
            if recorded is not None and recorded.made_moves and not moves:
                del st["moves"]
            if recorded is not None and recorded.made_state and not st:
                del scenario.state[SYSTEM]
            return
    raise RailOptionsError(f"unit {u.id} has made no rail move this turn")


# ---------------------------------------------------------------------------
# JSON-ready results (the CLI and the editor show these)


def _load_data(s: TerritoryScenario, n: NationLoad | None, st: StationLoad | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if n is not None:
        out["nation"] = {"nation": n.nation, "name": s.side(n.nation).name, "limit": n.limit, "used": n.used,
                         "left": n.left, "unit": n.unit, "basis": n.basis}
    if st is not None:
        out["station"] = {"territory": s.map.label(st.territory), "id": st.territory, "limit": st.limit,
                          "used": st.used, "left": st.left}
    return out


def reach_to_data(s: TerritoryScenario, r: RailReach) -> dict[str, Any]:
    m = s.map
    return {
        "option": r.option, "option_name": OPTION_NAMES[r.option], "unit": r.unit, "nation": r.nation,
        "from": m.label(r.start), "max_cost": r.max_cost, "can_rail": bool(r.destinations),
        "destinations": [{"territory": m.label(d.territory), "id": d.territory, "cost": d.cost,
                          "path": [m.label(x) for x in d.path], "points": d.points,
                          "station": None if d.station is None else m.label(d.station)} for d in r.destinations],
        "reachable": [m.label(d.territory) for d in r.destinations],
        "capacity": _load_data(s, r.nation_load, r.station_load),
        "reason": r.reason,
    }


def verdict_to_data(s: TerritoryScenario, v: RailVerdict) -> dict[str, Any]:
    m = s.map
    return {
        "option": v.option, "option_name": OPTION_NAMES[v.option], "unit": v.unit, "nation": v.nation,
        "from": m.label(v.start), "to": m.label(v.to), "allowed": v.allowed, "verdict": "allowed" if v.allowed
        else "refused", "path": [m.label(x) for x in v.path], "path_ids": list(v.path), "cost": v.cost,
        "uses": {"station": None if v.station is None else m.label(v.station), "nation": v.nation,
                 "points": v.points} if v.allowed else None,
        "capacity": _load_data(s, v.nation_load, v.station_load),
        "reason": v.reason,
    }


def judge(scenario: TerritoryScenario, unit_id: str, to: str, option: int | None = None,
          phase: str = "noncombat") -> RailVerdict:
    """Shorthand for ``RailOptions(scenario, option, phase).judge(unit_id, to)``."""
    return RailOptions(scenario, option, phase).judge(unit_id, to)


def reach(scenario: TerritoryScenario, unit_id: str, option: int | None = None,
          phase: str = "noncombat") -> RailReach:
    """Shorthand for ``RailOptions(scenario, option, phase).reach(unit_id)``."""
    return RailOptions(scenario, option, phase).reach(unit_id)


__all__ = ["OPTION_NAMES", "SYSTEM", "NationLoad", "RailConfig", "RailOptions", "RailOptionsError", "RailReach",
           "RailVerdict", "Reached", "StationLoad", "config_from_dict", "judge", "reach", "reach_to_data",
           "record_move", "RecordedMove", "undo_move", "verdict_to_data"]
