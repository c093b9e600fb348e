"""Rail Options results: frozen values, each with ``to_data()`` (the JSON the
CLI prints and the golden cases in ``tests/golden/rail_options.json``
compare).  Territories are ids; the names people see travel with each value
(``name`` on a load, ``labels`` on a reach or verdict), so ``to_data()``
needs no scenario."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .config import OPTION_NAMES


def _label(labels: Mapping[str, str], tid: str) -> str:
    return labels.get(tid, tid)


@dataclass(frozen=True)
class StationLoad:
    """Throughput of the station in ``territory`` (named ``name``):
    ``used`` of ``limit`` units this turn."""

    territory: str
    limit: int
    used: int
    name: str

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)

    def to_data(self) -> dict[str, Any]:
        return {"territory": self.name, "id": self.territory, "limit": self.limit, "used": self.used,
                "left": self.left}


@dataclass(frozen=True)
class NationLoad:
    """A nation's rail capacity this turn: ``used`` of ``limit`` (``None``: no
    nation-wide cap, Option 3).  ``unit`` is ``"units"`` (Options 1–2) or
    ``"points"`` (Option 4); ``basis`` says where the limit comes from;
    ``name`` is the nation's name."""

    nation: str
    limit: int | None
    used: int
    unit: str
    basis: str
    name: str

    @property
    def left(self) -> int | None:
        return None if self.limit is None else max(0, self.limit - self.used)

    def to_data(self) -> dict[str, Any]:
        return {"nation": self.nation, "name": self.name, "limit": self.limit, "used": self.used,
                "left": self.left, "unit": self.unit, "basis": self.basis}


def capacity_data(nation: NationLoad | None, station: StationLoad | None) -> dict[str, Any]:
    """The ``capacity`` object of a reach or verdict: ``nation`` and
    ``station`` loads, each only when there is one."""
    out: dict[str, Any] = {}
    if nation is not None:
        out["nation"] = nation.to_data()
    if station is not None:
        out["station"] = station.to_data()
    return out


@dataclass(frozen=True)
class Reached:
    """One territory a unit can rail to: ``cost`` spaces along ``path``
    (territory ids, start first); ``points`` of nation capacity it uses;
    ``station`` whose throughput it spends."""

    territory: str
    cost: int
    path: tuple[str, ...]
    points: int
    station: str | None
    labels: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def to_data(self) -> dict[str, Any]:
        lb = self.labels
        return {"territory": _label(lb, self.territory), "id": self.territory, "cost": self.cost,
                "path": [_label(lb, x) for x in self.path], "points": self.points,
                "station": None if self.station is None else _label(lb, self.station)}


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
    labels: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def to_data(self) -> dict[str, Any]:
        return {
            "option": self.option, "option_name": OPTION_NAMES[self.option], "unit": self.unit,
            "nation": self.nation, "from": _label(self.labels, self.start), "max_cost": self.max_cost,
            "can_rail": bool(self.destinations),
            "destinations": [d.to_data() for d in self.destinations],
            "reachable": [_label(d.labels, d.territory) for d in self.destinations],
            "capacity": capacity_data(self.nation_load, self.station_load),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class RailVerdict:
    """One rail move judged: ``allowed`` or refused with a ``reason``.  When
    allowed, ``path`` (ids, start first) and the capacity it uses:
    ``station`` (the station whose throughput it spends, ``None`` for
    Options 2 and 4), ``points`` of the nation's capacity (one unit for
    Options 1–2, the spaces for Option 4, 0 for Option 3).  When refused for
    range or points, ``path`` is the shortest rail line that was too long.

    ``ok`` and ``reasons`` are the verdict shape every rules system shares
    (``engine/rules/base.py``)."""

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
    labels: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.allowed

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reason it is refused (empty when allowed)."""
        return () if self.allowed else (self.reason,)

    def to_data(self) -> dict[str, Any]:
        lb = self.labels
        return {
            "option": self.option, "option_name": OPTION_NAMES[self.option], "unit": self.unit,
            "nation": self.nation, "from": _label(lb, self.start), "to": _label(lb, self.to),
            "allowed": self.allowed, "verdict": "allowed" if self.allowed else "refused",
            "path": [_label(lb, x) for x in self.path], "path_ids": list(self.path), "cost": self.cost,
            "uses": {"station": None if self.station is None else _label(lb, self.station), "nation": self.nation,
                     "points": self.points} if self.allowed else None,
            "capacity": capacity_data(self.nation_load, self.station_load),
            "reason": self.reason,
        }
