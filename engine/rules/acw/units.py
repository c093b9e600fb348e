"""What the ACW rules need to know about a unit: its arm (infantry,
cavalry, artillery, HQ), whether it counts towards stacking, its movement
allowance and what a factor of it costs to reinforce.

All of it is ruleset data on the unit type: ``movement`` and the
properties ``arm``, ``stacks`` and ``reinforcement_cost``.  When a unit type
omits a property the default follows from its arm (see ``ARM_DEFAULTS``).
"""

from __future__ import annotations

from typing import Literal, cast

from engine.model import ModelError, Scenario, Unit, UnitType

Arm = Literal["infantry", "cavalry", "artillery", "hq"]
ARMS: tuple[Arm, ...] = ("infantry", "cavalry", "artillery", "hq")

ARM_DEFAULTS: dict[Arm, tuple[bool, int]] = {
    "infantry": (True, 1),
    "cavalry": (True, 2),
    "artillery": (False, 2),
    "hq": (False, 2),
}
"""Per arm: counts towards the stacking limit?, points per reinforcement factor."""


def unit_type_of(scenario: Scenario, unit: Unit) -> UnitType:
    return scenario.ruleset.unit_type(unit.type)


def arm_of(scenario: Scenario, unit: Unit) -> Arm:
    """The unit's arm, from its type's ``arm`` property (or the type id when
    that is one of the arms)."""
    ut = unit_type_of(scenario, unit)
    arm = ut.properties.get("arm", ut.id)
    if arm not in ARMS:
        raise ModelError(f"unit type '{ut.id}' of unit '{unit.id}' has no arm the ACW rules know "
                         f"(set its property 'arm' to one of: {', '.join(ARMS)})")
    return cast(Arm, arm)


def counts_for_stacking(scenario: Scenario, unit: Unit) -> bool:
    ut = unit_type_of(scenario, unit)
    value = ut.properties.get("stacks")
    if value is None:
        return ARM_DEFAULTS[arm_of(scenario, unit)][0]
    return bool(value)


def movement_of(scenario: Scenario, unit: Unit) -> int:
    """Movement points in the open: the unit type's ``movement``."""
    return unit_type_of(scenario, unit).movement


def factor_cost(scenario: Scenario, unit: Unit) -> int:
    """Reinforcement points one more factor of this unit costs."""
    ut = unit_type_of(scenario, unit)
    value = ut.properties.get("reinforcement_cost")
    if value is None:
        return ARM_DEFAULTS[arm_of(scenario, unit)][1]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ModelError(f"unit type '{ut.id}': 'reinforcement_cost' must be a whole number, got {value!r}")
    return value


def display_name(unit: Unit) -> str:
    return unit.name or unit.id
