"""Rail Options: names, the error class and the options of
``ruleset.options["rail_options"]`` (every key, default and reading is in
``docs/rules/rail-options.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, cast

from engine.model import ModelError
from engine.territory.model import BorderKind

from ..base import AtLeast, NonEmpty, read_options

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


OptionNumber = Literal[1, 2, 3, 4]
Count = Annotated[int, AtLeast(0)]
"""A whole number of 0 or more."""


@dataclass(frozen=True)
class RailConfig:
    """Every rule value and reading; field names are the option keys of
    ``ruleset.options["rail_options"]`` (see ``docs/rules/rail-options.md``),
    their annotations the checks :func:`~engine.rules.base.read_options`
    makes."""

    option: OptionNumber = 1
    # shared
    combat_move: bool = False
    technology: bool = False
    tech_bonus: Count = 1
    forbidden_crossings: tuple[Annotated[str, NonEmpty()], ...] = ("Suez Canal", "Panama Canal", "Turkish Straits")
    inoperable_damage: Count = 3
    max_damage: Count = 6
    capture_wait: Count = 1
    allies_share: tuple[OptionNumber, ...] = (1,)
    stations_need_railroad: bool = False
    anti_aircraft_hit: Annotated[int, AtLeast(0)] = 1
    bomber_attack: Annotated[int, AtLeast(0)] = 4
    raids_per_turn: Count = 1
    # option 1
    range: Count = 4
    range_counts: Literal["steps", "territories"] = "steps"
    nation_capacity_max: Count = 6
    station_max: Count = 6
    station_use: Literal["start", "both"] = "start"
    capacity_stations: Literal["controlled", "usable"] = "controlled"
    station_spacing: Count = 4
    # option 2
    units_per_turn: Count = 2
    # option 3
    station_bonus: Count = 1
    bonus_station: Literal["start", "passed"] = "start"
    # option 4
    points_divisor: Annotated[int, AtLeast(1)] = 7

    @property
    def name(self) -> str:
        return OPTION_NAMES[self.option]


def _option_number(value: Any, where: str) -> OptionNumber:
    if isinstance(value, bool) or not isinstance(value, int) or value not in OPTION_NAMES:
        raise RailOptionsError(f"{where} must be 1, 2, 3 or 4, got {value!r}")
    return cast(OptionNumber, value)


def config_from_dict(data: Mapping[str, Any], option: int | None = None) -> RailConfig:
    """Options from a ``ruleset.options["rail_options"]`` mapping, with
    ``option`` (when given) replacing the scenario's choice.  Unknown keys and
    bad values raise :class:`RailOptionsError` naming the key (``rail_options
    option 'range' must be ...``)."""
    cfg = read_options(RailConfig, data, f"ruleset.options.{SYSTEM}", key_style="rail_options option '{key}'",
                       error=RailOptionsError)
    if option is not None:
        cfg = replace(cfg, option=_option_number(option, "the rail option"))
    return cfg


def config_of(ruleset_options: Mapping[str, Any], option: int | None = None) -> RailConfig:
    """The options of a ruleset's ``options`` mapping (its ``rail_options``
    entry, absent: every default), with ``option`` replacing its choice."""
    raw = ruleset_options.get(SYSTEM, {})
    if not isinstance(raw, dict):
        raise RailOptionsError("ruleset.options.rail_options must be an object")
    return config_from_dict(raw, option)
