"""Rail Options 1–4, one small class each (``docs/rules/rail-options.md``).

An option says only where it differs from the others: whether damage stops a
station, whether a station serves as track, where a move must start and may
end, the limits (how far, nation and station capacity), what a move costs in
capacity points, and how it explains a destination that is too far.
Everything shared (the map data, crossings, control and timing, the path
search) is :class:`~.network.RailGround`'s, handed to each option as ``g``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from engine.territory.model import Territory, TerritoryUnit

from .config import INF
from .results import NationLoad, StationLoad

if TYPE_CHECKING:
    from .network import Path, RailGround

Route = tuple[int, tuple[str, ...], str | None]
"""(cost, path, the station whose throughput the move spends)."""


def _s(n: int) -> str:
    return "s" if n != 1 else ""


def _tech(bonus: int) -> str:
    return f" + {bonus} technology" if bonus else ""


class RailOption(ABC):
    """What one option decides; the base holds the answers most options
    share.  Made by :class:`~.network.RailGround` for its ``cfg.option``."""

    number: ClassVar[int]
    damage_stops_station: ClassVar[bool] = False
    """A station with ``inoperable_damage`` markers or more cannot be used."""
    stations_and_railroad: ClassVar[bool] = False
    """Options 1–2 use both: a usable station carries a rail line through
    its territory, and with ``stations_need_railroad`` a station is used only
    beside a usable railroad marker."""
    captured_railroad_removed: ClassVar[bool] = False
    """Captured railroad markers are removed from play."""
    charges_start_station: ClassVar[bool] = False
    """A move spends the throughput of the station it starts at."""
    line_words: ClassVar[str] = "the rail line"
    """What a broken route is called in an explanation."""

    def __init__(self, g: RailGround) -> None:
        self.g = g
        self.cfg = g.cfg

    # -- where a line may run, start and end ----------------------------------
    def passage_reason(self, t: Territory, nation: str) -> str | None:
        """Why a move of ``nation`` may not pass through ``t``."""
        return self.g.track_reason(t, nation)

    def start_reason(self, u: TerritoryUnit, start: Territory) -> str | None:
        """Why ``u`` cannot start a rail move where it stands."""
        return self._at_station(u, start)

    def uses_start_station(self) -> bool:
        """Whether the start station's throughput limits the move (then the
        start must be a usable station)."""
        return True

    def _at_station(self, u: TerritoryUnit, start: Territory) -> str | None:
        g = self.g
        why = g.station_reason(start, u.side)
        if why is None and self.stations_and_railroad and self.cfg.stations_need_railroad:
            why = g.railroad_reason(start, u.side)
        return None if why is None else f"{g.unit_words(u)} is not at a usable rail station: {why}"

    def dest_reason(self, t: Territory, nation: str) -> str | None:
        """Why ``t`` cannot be the end of a move of ``nation``: a usable
        station (and railroad when ``stations_need_railroad``)."""
        why = self.g.station_reason(t, nation)
        if why is None and self.cfg.stations_need_railroad:
            why = self.g.railroad_reason(t, nation)
        return why

    # -- limits --------------------------------------------------------------
    def nation_load(self, nation: str, name: str, moves: list[dict[str, Any]], bonus: int) -> NationLoad | None:
        """``nation``'s capacity given its ``moves`` this turn and its
        technology ``bonus`` (``None``: no nation-wide cap)."""
        return None

    def station_limit(self, t: Territory, station: dict[str, Any]) -> int | None:
        """How many units the station in ``t`` passes a turn (``None``: no
        per-station limit)."""
        return None

    def move_stations(self, move: dict[str, Any]) -> list[str]:
        """The stations whose throughput a recorded move spent."""
        return []

    @abstractmethod
    def max_cost(self, u: TerritoryUnit, start: Territory, nation_load: NationLoad | None) -> int:
        """The farthest ``u`` may go, in spaces (:data:`~.config.INF`: any
        distance)."""

    def points(self, cost: int) -> int:
        """Nation capacity a move of ``cost`` spaces uses."""
        return 1

    # -- routes --------------------------------------------------------------
    def routes(self, u: TerritoryUnit, max_cost: int) -> dict[str, Route]:
        """Every destination with (cost, path, charged station)."""
        g = self.g
        nation = u.side
        m = g.s.map
        ok = g.node_ok(nation)
        # destinations may be stations without track (Options 1-2) or, in
        # the combat phase under Option 3, enemy territory: allow them as the
        # last step only.
        found = g.search(u.at, max_cost, lambda q: ok(q) or self.dest_reason(m.territories[q], nation) is None,
                         through_ok=ok)
        station = u.at if self.charges_start_station else None
        return {q: (c, p, station) for q, (c, p) in found.items()
                if q != u.at and self.dest_reason(m.territories[q], nation) is None}

    # -- explanations ----------------------------------------------------------
    def station_full(self, t: Territory, load: StationLoad) -> str:
        if load.limit == 0:
            return f"the rail station in {t.name} can pass no units (IPC value {t.value}{self._less_damage(t)})"
        return f"the rail station in {t.name} has passed all {load.limit} units it may this turn"

    def _less_damage(self, t: Territory) -> str:
        return ""

    def no_reach_reason(self, u: TerritoryUnit, max_cost: int) -> str | None:
        """Why nothing is in reach when the search finds nothing, if more
        can be said than "no territory can be reached"."""
        return None

    def too_far(self, u: TerritoryUnit, dest: Territory, cost: int) -> str:
        """Why ``dest``, ``cost`` spaces away on the nation's rail, is out of
        reach: the capacity points left."""
        g = self.g
        m = g.s.map
        nation = g.s.side(u.side).name
        load = g.nation_load(u.side)
        assert load is not None
        return (f"{dest.name} is {cost} spaces along {nation}'s railroad from {m.label(u.at)}; {nation} has "
                f"{load.left} rail capacity point{_s(load.left or 0)} left this turn ({load.basis}, "
                f"{load.used} spent)")


class Option1(RailOption):
    """Stations and railroad: as many units a turn as the nation controls
    stations (at most ``nation_capacity_max``), a station passes at most its
    IPC value (at most ``station_max``), ``range`` spaces less one per damage
    marker on the start station."""

    number = 1
    damage_stops_station = True
    stations_and_railroad = True
    captured_railroad_removed = True
    charges_start_station = True

    def dest_reason(self, t: Territory, nation: str) -> str | None:
        why = super().dest_reason(t, nation)
        if why is None and self.cfg.station_use == "both":
            load = self.g.station_load(t.id)
            if load is not None and load.left == 0:
                return self.station_full(t, load)
        return why

    def nation_load(self, nation: str, name: str, moves: list[dict[str, Any]], bonus: int) -> NationLoad | None:
        g, cfg = self.g, self.cfg
        stations = [t for t in g.s.map.territories.values() if t.controller == nation
                    and g.station(t) is not None and not g.bought_this_turn(g.station(t))
                    and (cfg.capacity_stations == "controlled" or g.station_reason(t, nation) is None)]
        limit = min(len(stations) + bonus, cfg.nation_capacity_max + bonus)
        basis = (f"{len(stations)} station{_s(len(stations))} controlled{_tech(bonus)}, "
                 f"at most {cfg.nation_capacity_max + bonus}")
        return NationLoad(nation, limit, len(moves), "units", basis, name)

    def station_limit(self, t: Territory, station: dict[str, Any]) -> int | None:
        return min(t.value, self.cfg.station_max)

    def move_stations(self, move: dict[str, Any]) -> list[str]:
        path: list[str] = move["path"]
        return [path[0], path[-1]] if self.cfg.station_use == "both" and len(path) > 1 else [path[0]]

    def max_cost(self, u: TerritoryUnit, start: Territory, nation_load: NationLoad | None) -> int:
        r = self.cfg.range - self.g.damage(start) - (1 if self.cfg.range_counts == "territories" else 0)
        return max(0, r)

    def no_reach_reason(self, u: TerritoryUnit, max_cost: int) -> str | None:
        if max_cost == 0:
            return f"the station in {self.g.s.map.label(u.at)} has so many damage markers that its range is 0"
        return None

    def too_far(self, u: TerritoryUnit, dest: Territory, cost: int) -> str:
        m = self.g.s.map
        cfg = self.cfg
        dmg = self.g.damage(m.territories[u.at])
        r = cfg.range - dmg
        unit = "spaces" if cfg.range_counts == "steps" else "territories, the start included"
        n = cost if cfg.range_counts == "steps" else cost + 1
        dmg_words = (f" ({cfg.range} less {dmg} damage marker{_s(dmg)} on the station in "
                     f"{m.label(u.at)})") if dmg else ""
        return f"{dest.name} is {n} {unit} from {m.label(u.at)} by rail; a unit may rail at most {r}{dmg_words}"


class Option2(RailOption):
    """Stations and railroad: ``units_per_turn`` units a nation a turn,
    station to station along an unbroken line of its own railroad, any
    distance."""

    number = 2
    stations_and_railroad = True

    def nation_load(self, nation: str, name: str, moves: list[dict[str, Any]], bonus: int) -> NationLoad | None:
        return NationLoad(nation, self.cfg.units_per_turn + bonus, len(moves), "units",
                          f"{self.cfg.units_per_turn} units a turn{_tech(bonus)}", name)

    def max_cost(self, u: TerritoryUnit, start: Territory, nation_load: NationLoad | None) -> int:
        return INF


class Option3(RailOption):
    """Stations only: a station adds ``station_bonus`` to the movement of
    each unit that starts there (or, with ``bonus_station: "passed"``, passes
    it) and serves at most its IPC value less its damage markers in units;
    moves run over friendly land; no nation-wide cap."""

    number = 3
    damage_stops_station = True
    charges_start_station = True
    line_words = "the move"

    def passage_reason(self, t: Territory, nation: str) -> str | None:
        return self.g.land_reason(t, nation)

    def uses_start_station(self) -> bool:
        return self.cfg.bonus_station == "start"

    def start_reason(self, u: TerritoryUnit, start: Territory) -> str | None:
        return self._at_station(u, start) if self.uses_start_station() else None

    def dest_reason(self, t: Territory, nation: str) -> str | None:
        if self.g.phase == "combat" and not t.sea and not t.impassable:
            return None
        return self.g.land_reason(t, nation)

    def station_limit(self, t: Territory, station: dict[str, Any]) -> int | None:
        g = self.g
        bonus = self.cfg.tech_bonus if t.controller is not None and g.has_tech(t.controller) else 0
        return max(0, t.value - int(station.get("damage", 0))) + bonus

    def move_stations(self, move: dict[str, Any]) -> list[str]:
        st = move.get("station")
        return [st if isinstance(st, str) else move["path"][0]]

    def max_cost(self, u: TerritoryUnit, start: Territory, nation_load: NationLoad | None) -> int:
        return self.g.movement(u) + self.cfg.station_bonus

    def points(self, cost: int) -> int:
        return 0

    def routes(self, u: TerritoryUnit, max_cost: int) -> dict[str, Route]:
        if self.cfg.bonus_station == "passed":
            return self._routes_passed(u)
        return super().routes(u, max_cost)

    def _routes_passed(self, u: TerritoryUnit) -> dict[str, Route]:
        """``bonus_station == "passed"``: the bonus comes from the first
        usable station (with throughput left) the move starts in or passes
        through; the path is at most movement + bonus long."""
        g = self.g
        nation = u.side
        m = g.s.map
        ok = g.node_ok(nation)

        def end_ok(q: str) -> bool:
            return self.dest_reason(m.territories[q], nation) is None

        def usable(x: str) -> bool:
            if g.station_reason(m.territories[x], nation) is not None:
                return False
            load = g.station_load(x)
            return load is not None and load.left > 0

        found: list[Path] = g.all_paths(u.at, g.movement(u) + self.cfg.station_bonus, ok, end_ok)
        out: dict[str, Route] = {}
        for p in found:
            q = p[-1]
            st = next((x for x in p[:-1] if usable(x)), None)
            if st is None or not end_ok(q):
                continue
            cand = (len(p) - 1, p, st)
            if q not in out or cand[:2] < out[q][:2]:
                out[q] = cand
        return out

    def _less_damage(self, t: Territory) -> str:
        dmg = self.g.damage(t)
        return f" less {dmg} damage marker{_s(dmg)}" if dmg else ""

    def too_far(self, u: TerritoryUnit, dest: Territory, cost: int) -> str:
        g = self.g
        mv = g.movement(u)
        return (f"{dest.name} is {cost} spaces from {g.s.map.label(u.at)}; {g.unit_words(u)} may move "
                f"{mv} + {self.cfg.station_bonus} (rail station) = {mv + self.cfg.station_bonus}")


class Option4(RailOption):
    """Railroad markers only: ``IPC income ÷ points_divisor`` (rounded down)
    rail capacity points a nation a turn, spent one per unit per space along
    its own connected railroad markers."""

    number = 4

    def uses_start_station(self) -> bool:
        return False

    def start_reason(self, u: TerritoryUnit, start: Territory) -> str | None:
        why = self.g.railroad_reason(start, u.side)
        return None if why is None else f"{self.g.unit_words(u)} is not on a usable railroad marker: {why}"

    def dest_reason(self, t: Territory, nation: str) -> str | None:
        return self.g.railroad_reason(t, nation)

    def nation_load(self, nation: str, name: str, moves: list[dict[str, Any]], bonus: int) -> NationLoad | None:
        ipc, source = self.g.income(nation)
        div = self.cfg.points_divisor
        used = sum(len(m["path"]) - 1 for m in moves)
        return NationLoad(nation, ipc // div + bonus, used, "points",
                          f"{ipc} IPC {source} ÷ {div} = {ipc // div}{_tech(bonus)}", name)

    def max_cost(self, u: TerritoryUnit, start: Territory, nation_load: NationLoad | None) -> int:
        assert nation_load is not None and nation_load.left is not None
        return nation_load.left

    def points(self, cost: int) -> int:
        return cost


OPTIONS: dict[int, type[RailOption]] = {1: Option1, 2: Option2, 3: Option3, 4: Option4}
"""Each option's class by its number."""


def option_class(number: int) -> type[RailOption]:
    """The class of option ``number`` (1–4; :class:`~.config.RailConfig`
    has checked it)."""
    return OPTIONS[number]
