"""The movement system's options (``ruleset.options["movement"]``): every
number and choice of a hex-and-counter movement rule as data, read by
:func:`~engine.rules.base.read_options` from the annotations below.

The vocabulary (``docs/rules/movement.md`` says what each key does):

* ``classes``: unit classes by unit type, each with its movement
  ``allowance`` (default: the unit type's ``movement``), a ``terrain`` cost
  table (a cost, or ``"prohibited"``; terrain a class does not name costs the
  terrain type's ``move_cost``, or is prohibited when it is ``impassable``),
  ``sides`` (hexside features: an added cost, a least cost, or prohibited),
  ``links`` (movement along roads and rail: the cost of a step along the
  link, in place of the terrain's), whether it counts for ``stacks`` and
  whether it exerts a zone of control;
* ``hexsides``: side features the map's layers do not hold (walls,
  escarpments), each a list of sides named by their two cells;
* ``zoc``: ``none``, ``stop`` (a unit entering an enemy zone of control stops
  there), ``stop_leave`` (and leaving one at the start of a move costs
  ``zoc_leave_cost`` more), ``locked`` (stops, and may not move straight from
  one enemy zone to another);
* ``stacking``: a ``limit`` per cell, ``by`` count of units or by their
  factors (strength); classes with ``stacks: false`` do not count;
* ``friendly_pass``: whether a move may pass through a cell holding friendly
  units (enemy-held cells are never entered);
* ``sight``: what blocks line of sight (:mod:`engine.sight`), for
  ``adjutant los``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal

from engine.sight import SightRules

from ..base import AtLeast, NonEmpty, OptionError, Reader

SYSTEM = "movement"
"""Key of this system's options in ``ruleset.options``."""

PROHIBITED = "prohibited"
"""The word that marks a cost as "may not enter" or "may not cross"."""


def _cost(value: Any, label: str) -> Fraction | None:
    """A cost of 0 or more (``2``, ``1.5``, ``"1/2"``), or ``"prohibited"``
    (``None``)."""
    if value == PROHIBITED:
        return None
    what = 'a cost of 0 or more (like 2, 1.5 or "1/2") or "prohibited"'
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise OptionError(f"{label} must be {what}, got {value!r}")
    try:
        f = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise OptionError(f"{label} must be {what}, got {value!r}") from None
    if f < 0:
        raise OptionError(f"{label} must be {what}, got {value!r}")
    return f


def _amount(value: Any, label: str) -> Fraction:
    f = _cost(value, label)
    if f is None:
        raise OptionError(f'{label} must be a cost of 0 or more (like 2, 1.5 or "1/2"), got {value!r}')
    return f


Cost = Annotated[Fraction | None, Reader(_cost, 'a cost of 0 or more (like 2 or "1/2") or "prohibited"')]
"""A movement cost, or ``None`` for prohibited."""
Amount = Annotated[Fraction, Reader(_amount, 'a cost of 0 or more (like 2 or "1/2")')]
Name = Annotated[str, NonEmpty()]


def _side(value: Any, label: str) -> SideRule:
    """``"prohibited"``, a number (an added cost) or ``{"add": N,
    "at_least": N}``."""
    from ..base import read_options

    if value == PROHIBITED:
        return SideRule(prohibited=True)
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        return SideRule(add=_amount(value, label))
    return read_options(SideRule, value, label)


@dataclass(frozen=True)
class SideRule:
    """What crossing one side feature does to a step: the step costs
    ``max(cost + add, at_least)`` where ``cost`` is the cost of entering the
    cell (terrain or link); ``prohibited`` forbids the crossing.  A rule with
    ``add`` 0 and ``at_least`` 0 negates the feature."""

    add: Amount = Fraction(0)
    at_least: Amount = Fraction(0)
    prohibited: bool = False


Side = Annotated[SideRule, Reader(_side, '"prohibited", an added cost, or an object with add, at_least, prohibited')]


@dataclass(frozen=True)
class UnitClass:
    """One class of units (``ruleset.options.movement.classes.<name>``)."""

    unit_types: tuple[Name, ...] = ()
    allowance: Annotated[int, AtLeast(0)] | None = None
    terrain: dict[str, Cost] = field(default_factory=dict)
    sides: dict[str, Side] = field(default_factory=dict)
    links: dict[str, Cost] = field(default_factory=dict)
    stacks: bool = True
    stack_limit: Annotated[int, AtLeast(0)] | None = None
    """At most this many of the class's units (by count or factors, as
    ``stacking.by``) in a cell where a move ends; ``None``: no limit of its own."""
    zoc: bool = True
    """Whether units of this class exert a zone of control."""


@dataclass(frozen=True)
class Stacking:
    """``limit`` per cell (``null``: none), counted ``by`` units or factors."""

    limit: Annotated[int, AtLeast(0)] | None = None
    by: Literal["count", "factors"] = "count"


def _pair(value: Any, label: str) -> tuple[str, str]:
    if (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, str) and v for v in value)):
        return str(value[0]), str(value[1])
    raise OptionError(f"{label} must be a side named by its two cells, like [\"0101\", \"0102\"], got {value!r}")


Pair = Annotated[tuple[str, str], Reader(_pair, "a side named by its two cells")]


@dataclass(frozen=True)
class Sight:
    """What blocks line of sight (``ruleset.options.movement.sight``;
    :mod:`engine.sight`): terrain ids that block, side features that block,
    heights of terrain above its cell's ground (``heights``), whether the
    terrain types' ``elevation`` is the ground, and the rule for a line that
    runs exactly along a side or through a corner (``tie``: ``either`` side
    blocking blocks it, or only ``both``)."""

    blocking_terrain: tuple[Name, ...] = ()
    blocking_sides: tuple[Name, ...] = ()
    heights: dict[str, Annotated[int, AtLeast(0)]] = field(default_factory=dict)
    elevation: bool = False
    tie: Literal["either", "both"] = "either"

    def rules(self) -> SightRules:
        """These options as :class:`engine.sight.SightRules`."""
        return SightRules(self.blocking_terrain, self.blocking_sides, dict(self.heights), self.elevation, self.tie)


@dataclass(frozen=True)
class MovementOptions:
    """All of the movement system's options.  Field names are the keys."""

    classes: dict[str, UnitClass] = field(default_factory=dict)
    hexsides: dict[str, tuple[Pair, ...]] = field(default_factory=dict)
    zoc: Literal["none", "stop", "stop_leave", "locked"] = "stop"
    zoc_leave_cost: Amount = Fraction(0)
    stacking: Stacking = Stacking()
    friendly_pass: bool = True
    sight: Sight = Sight()

    def __post_init__(self) -> None:
        seen: dict[str, str] = {}
        for name, cls in self.classes.items():
            for t in cls.unit_types:
                if t in seen:
                    raise OptionError(f"ruleset.options.{SYSTEM}.classes: unit type {t!r} is in both "
                                      f"{seen[t]!r} and {name!r}")
                seen[t] = name
        if self.zoc_leave_cost and self.zoc != "stop_leave":
            raise OptionError(f"ruleset.options.{SYSTEM}.zoc_leave_cost is for zoc \"stop_leave\", "
                              f"not {self.zoc!r}")

    def class_of(self, unit_type: str) -> tuple[str, UnitClass]:
        """The class a unit type belongs to: its class by name, or
        ``("default", UnitClass())`` for a type no class lists (unless a class
        is named ``default``, which then serves every unlisted type)."""
        for name, cls in self.classes.items():
            if unit_type in cls.unit_types:
                return name, cls
        return "default", self.classes.get("default", DEFAULT_CLASS)


DEFAULT_CLASS = UnitClass()
"""The class of a unit type no class lists (when no class is named ``default``)."""
