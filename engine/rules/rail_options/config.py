"""Rail Options: names, the error class and the options of
``ruleset.options["rail_options"]`` (every key, default and reading is in
``docs/rules/rail-options.md``)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from engine.model import ModelError
from engine.territory.model import BorderKind

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
INF = 10 ** 9
"""A cost no path reaches: "any distance"."""
NO_RAIL_BORDERS = frozenset({BorderKind.CLOSED, BorderKind.STRAIT})
"""Border kinds rail never crosses (see :class:`~engine.territory.BorderKind`)."""


class RailOptionsError(ModelError):
    """Bad rail-options data: an unknown option, malformed station or railroad
    data, a move that names an unknown unit or territory."""


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


def config_of(ruleset_options: dict[str, Any], option: int | None = None) -> RailConfig:
    """The options of a ruleset's ``options`` mapping (its ``rail_options``
    entry, absent: every default), with ``option`` replacing its choice."""
    raw = ruleset_options.get(SYSTEM, {})
    if not isinstance(raw, dict):
        raise RailOptionsError("ruleset.options.rail_options must be an object")
    return config_from_dict(raw, option)
