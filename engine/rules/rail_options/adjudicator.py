"""Rail Options: the judge (``docs/rules/rail-options.md``).

:class:`RailOptionsAdjudicator` answers the two questions the CLI and the
editor ask of a unit: where can it rail this turn (:meth:`~RailOptionsAdjudicator.reach`)
and may it rail to this territory, and if not, why
(:meth:`~RailOptionsAdjudicator.judge`).  It is a
:class:`~.network.RailGround` (every shared question about the map) whose
option (``rule``) supplies the limits and words where the options differ.

A judge answers for the map as it was when made (like
:meth:`~.network.RailGround.node_ok`), so it keeps what does not depend on
the asked territory: each unit's limits and routes, and the few whole-map
searches that explain a refusal, are computed once per unit (or start and
nation) and every later question about another territory is a lookup.  The
editor keeps one judge per document revision, so a hover over the map asks
no new search (``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.territory.model import Territory, TerritoryScenario, TerritoryUnit

from .config import INF, PHASES, RailOptionsError, config_of
from .network import RailGround
from .results import NationLoad, RailReach, RailVerdict, Reached, StationLoad

Limits = tuple[str | None, int | None, NationLoad | None, StationLoad | None]
"""(why the unit cannot rail, the farthest it may go, nation load, station
load)."""


class RailOptionsAdjudicator(RailGround):
    """The rail options over one scenario at its current turn.

    ``option`` (1–4) replaces the scenario's choice (a what-if); ``phase`` is
    ``"noncombat"`` (default) or ``"combat"``.  Raises
    :class:`RailOptionsError` for bad options or map data.
    """

    def __init__(self, scenario: TerritoryScenario, option: int | None = None, phase: str = "noncombat") -> None:
        cfg = config_of(scenario.ruleset.options, option)
        if phase not in PHASES:
            raise RailOptionsError(f"the phase must be 'noncombat' or 'combat', got {phase!r}")
        super().__init__(scenario, cfg, phase)
        self._memo: dict[tuple[Any, ...], Any] = {}

    def _once(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """``make()``, computed once per ``key`` for this judge."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def _search_once(self, key: tuple[Any, ...], start: str, node_ok: Callable[[str], bool],
                     **kw: Any) -> dict[str, tuple[int, tuple[str, ...]]]:
        """:meth:`search` from ``start`` without a cost limit, once per ``key``."""
        found: dict[str, tuple[int, tuple[str, ...]]] = self._once(
            key, lambda: self.search(start, INF, node_ok, **kw))
        return found

    # -- the unit's limits -------------------------------------------------
    def _limits(self, u: TerritoryUnit) -> Limits:
        limits: Limits = self._once(("limits", u.id), lambda: self._find_limits(u))
        return limits

    def _routes(self, u: TerritoryUnit, max_cost: int) -> dict[str, tuple[int, tuple[str, ...], str | None]]:
        routes: dict[str, tuple[int, tuple[str, ...], str | None]] = self._once(
            ("routes", u.id, max_cost), lambda: self.rule.routes(u, max_cost))
        return routes

    def _find_limits(self, u: TerritoryUnit) -> Limits:
        start = self.s.territory(u.at)
        nation = u.side
        why = self.unit_reason(u)
        nload = self.nation_load(nation)
        sload = None
        if why is not None:
            return why, None, nload, None
        why = self.rule.start_reason(u, start)
        if why is not None:
            return why, None, nload, None
        if self.rule.uses_start_station():
            sload = self.station_load(start.id)
        if nload is not None and nload.limit == 0:
            return (f"{self.s.side(nation).name} has no rail capacity {nload.unit} this turn ({nload.basis})",
                    None, nload, sload)
        if nload is not None and nload.left == 0:
            return (f"{self.s.side(nation).name} has used all {nload.limit} of its rail capacity {nload.unit} this "
                    f"turn ({nload.basis})"), None, nload, sload
        if sload is not None and sload.left == 0:
            return self.rule.station_full(start, sload), None, nload, sload
        return None, self.rule.max_cost(u, start, nload), nload, sload

    # -- public questions ----------------------------------------------------
    def reach(self, unit_id: str) -> RailReach:
        """Every territory the unit can rail to this turn, with the cost."""
        u = self.s.unit(unit_id)
        labels = self.labels
        why, max_cost, nload, sload = self._limits(u)
        if why is not None or max_cost is None:
            return RailReach(self.option, u.id, u.side, u.at, (), None, nload, sload, why or "", labels)
        routes = self._routes(u, max_cost)
        dests = tuple(Reached(q, c, p, self.rule.points(c), st, labels)
                      for q, (c, p, st) in sorted(routes.items(), key=lambda kv: (kv[1][0], self.s.map.label(kv[0]))))
        reason = ""
        if not dests:
            reason = self.rule.no_reach_reason(u, max_cost) \
                or f"no territory can be reached by rail from {self.s.map.label(u.at)}"
        return RailReach(self.option, u.id, u.side, u.at, dests, None if max_cost >= INF else max_cost, nload,
                         sload, reason, labels)

    def judge(self, unit_id: str, to: str) -> RailVerdict:
        """Whether the unit may rail to ``to`` (a territory id or name) this
        turn; when not, the reason."""
        u = self.s.unit(unit_id)
        dest = self.s.territory(to)
        nation = u.side
        m = self.s.map
        labels = self.labels
        why, max_cost, nload, sload = self._limits(u)

        def no(reason: str, path: tuple[str, ...] = (), cost: int = 0) -> RailVerdict:
            return RailVerdict(False, self.option, u.id, nation, u.at, dest.id, path, cost, None, 0, reason,
                               nload, sload, labels)

        if dest.id == u.at:
            return no(f"{self.unit_words(u)} is already in {dest.name}")
        if why is not None or max_cost is None:
            return no(why or "")
        routes = self._routes(u, max_cost)
        if dest.id in routes:
            c, p, st = routes[dest.id]
            use_load = self.station_load(st) if st is not None else None
            return RailVerdict(True, self.option, u.id, nation, u.at, dest.id, p, c, st, self.rule.points(c),
                               f"{self.unit_words(u)} may rail from {m.label(u.at)} to {dest.name}: "
                               f"{c} space{'s' if c != 1 else ''}", nload, use_load or sload, labels)
        dwhy = self.rule.dest_reason(dest, nation)
        if dwhy is not None:
            return no(f"{dest.name} cannot be the end of a rail move under Option {self.option}: {dwhy}")
        return self._explain(u, dest, max_cost, no)

    def _explain(self, u: TerritoryUnit, dest: Territory, max_cost: int,
                 no: Callable[..., RailVerdict]) -> RailVerdict:
        """Why ``dest`` (a valid end) is out of reach: too far, only across a
        forbidden crossing, or a broken line (naming where).

        Each search here is made once per start and nation, for every end at
        once: any territory may be *entered* as the end of a path, and only
        those the nation may pass through are passed through.  A path's end is
        entered once and last, so the cheapest path to ``dest`` is the one a
        search that lets only ``dest`` be entered besides the usable
        territories would find; on the land search an unusable end costs the
        same 1000 more on every path to it, so the choice of path is the same."""
        nation = u.side
        m = self.s.map
        ok = self.node_ok(nation)

        def anywhere(_q: str) -> bool:
            return True

        far = self._search_once(("far", u.at, nation), u.at, anywhere, through_ok=ok).get(dest.id)
        if far is not None:
            cost, path = far
            if cost <= max_cost:  # Option 3, bonus_station "passed": no station on the way
                return no(f"no move from {m.label(u.at)} to {dest.name} of at most {max_cost} spaces starts in or "
                          f"passes a rail station that {self.s.side(nation).name} may use", path, cost)
            return no(self.rule.too_far(u, dest, cost), path, cost)
        across = self._search_once(("across", u.at, nation), u.at, anywhere, ignore_crossings=True,
                                   through_ok=ok).get(dest.id)
        if across is not None:
            names = self.crossing_names(across[1])
            return no(f"every rail line from {m.label(u.at)} to {dest.name} crosses {' or '.join(names)}, which rail "
                      f"may never cross")
        # a broken line: the route over land with the fewest unusable territories
        landset = self._once(("land",), lambda: frozenset(
            tid for tid, t in m.territories.items() if not t.sea and not t.impassable))

        def on_land(q: str) -> bool:
            return q in landset

        found = self._search_once(("broken", u.at, nation), u.at, on_land,
                                  weight=lambda q: 1 if ok(q) else 1000)
        hit = found.get(dest.id)
        if hit is None:
            hit_x = self._search_once(("land_across", u.at), u.at, on_land, ignore_crossings=True).get(dest.id)
            if hit_x is None:
                return no(f"no land route joins {m.label(u.at)} and {dest.name}")
            names = self.crossing_names(hit_x[1])
            return no(f"every land route from {m.label(u.at)} to {dest.name} crosses {' or '.join(names)}, which "
                      f"rail may never cross")
        _, path = hit
        broken = [x for x in path[1:-1] if not ok(x)]
        reasons = [self.rule.passage_reason(m.territories[x], nation) or "" for x in broken]
        return no(f"{self.rule.line_words} from {m.label(u.at)} to {dest.name} is broken at "
                  f"{', '.join(m.label(x) for x in broken)}: {'; '.join(reasons)}", path, len(path) - 1)

def judge(scenario: TerritoryScenario, unit_id: str, to: str, option: int | None = None,
          phase: str = "noncombat") -> RailVerdict:
    """Shorthand for ``RailOptionsAdjudicator(scenario, option, phase).judge(unit_id, to)``."""
    return RailOptionsAdjudicator(scenario, option, phase).judge(unit_id, to)


def reach(scenario: TerritoryScenario, unit_id: str, option: int | None = None,
          phase: str = "noncombat") -> RailReach:
    """Shorthand for ``RailOptionsAdjudicator(scenario, option, phase).reach(unit_id)``."""
    return RailOptionsAdjudicator(scenario, option, phase).reach(unit_id)
