"""Axis & Allies "Rail Options 1–4" on territory maps.

A scenario names one option in ``ruleset.options["rail_options"]["option"]``;
every other option can be asked for as a what-if
(:class:`RailOptionsAdjudicator` takes ``option=``).  The four options:

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

Results are frozen values with ``to_data()``: :class:`RailReach` (every
territory a unit can rail to, with the cost) and :class:`RailVerdict` (one
move: allowed or refused with a ``reason``, the path and the capacity it
uses).  :func:`record_move` and :func:`undo_move` apply and take back a move
on the scenario.

The package: ``config`` (names, :class:`RailConfig`, the option reader),
``results`` (the values), ``network`` (:class:`RailGround`: map data,
crossings, control and timing, capacity, the path search), ``options``
(``Option1``..``Option4``: where the options differ), ``adjudicator``
(:class:`RailOptionsAdjudicator`: reach and judge), ``records`` (apply and
undo a move), ``system`` (:class:`RailOptionsSystem`, registered as
``rail_options`` with :mod:`engine.rules.registry`).
"""

from __future__ import annotations

from .adjudicator import RailOptionsAdjudicator, judge, reach
from .config import (
    CROSSING,
    INF,
    NO_RAIL_BORDERS,
    OPTION_NAMES,
    PHASES,
    RAILROAD,
    STATION,
    SYSTEM,
    RailConfig,
    RailOptionsError,
    config_from_dict,
    config_of,
)
from .network import Barrier, RailGround
from .options import OPTIONS, Option1, Option2, Option3, Option4, RailOption, option_class
from .records import PlannedRailMove, RecordedMove, plan_rail_move, record_move, undo_move
from .results import NationLoad, RailReach, RailVerdict, Reached, StationLoad, capacity_data
from .system import RailOptionsOrder, RailOptionsSystem

__all__ = ["CROSSING", "INF", "NO_RAIL_BORDERS", "OPTIONS", "OPTION_NAMES", "PHASES", "RAILROAD", "STATION",
           "SYSTEM", "Barrier", "NationLoad", "Option1", "Option2", "Option3", "Option4", "RailConfig",
           "PlannedRailMove", "RailGround", "RailOption", "RailOptionsAdjudicator", "RailOptionsError",
           "RailOptionsOrder", "RailOptionsSystem", "RailReach", "RailVerdict", "Reached", "RecordedMove",
           "StationLoad", "capacity_data", "config_from_dict", "config_of", "judge", "option_class", "plan_rail_move",
           "reach", "record_move", "undo_move"]
