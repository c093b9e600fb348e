"""The ACW rules' options: every number and every reading the rule document
leaves open, read from the ruleset (``ruleset.options["acw"]``).

Defaults reproduce the document's worked example; the other readings are
named alternatives (see ``docs/rules/acw.md``).  :func:`options_for` reads a
scenario's ruleset, :func:`default_options` serves callers with no scenario
(``adjutant combat --attacker 15 --defender 6 ...``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any, Literal

from engine.model import ModelError, Ruleset, Scenario

SYSTEM = "acw"
"""Key of this system's options in ``ruleset.options``."""


@dataclass(frozen=True)
class CasualtyRow:
    """One row of the casualty table: differences ``low``..``high``
    (``high`` ``None`` = and above) give the winner's and the loser's rate."""

    low: int
    high: int | None
    winner: Fraction
    loser: Fraction

    def covers(self, difference: int) -> bool:
        return difference >= self.low and (self.high is None or difference <= self.high)

    def label(self) -> str:
        return f"{self.low}+" if self.high is None else f"{self.low}-{self.high}"


DEFAULT_CASUALTY_TABLE: tuple[CasualtyRow, ...] = (
    CasualtyRow(0, 5, Fraction(2), Fraction(2)),
    CasualtyRow(6, 10, Fraction(1), Fraction(1)),
    CasualtyRow(11, 20, Fraction(1), Fraction(3, 2)),
    CasualtyRow(21, 30, Fraction(1), Fraction(2)),
    CasualtyRow(31, 40, Fraction(1, 2), Fraction(2)),
    CasualtyRow(41, 50, Fraction(1, 2), Fraction(5, 2)),
    CasualtyRow(51, None, Fraction(1, 2), Fraction(3)),
)
"""The document's table (step 7 of the combat procedure)."""

READINGS: dict[str, tuple[int, int]] = {"example": (9, 10), "text": (8, 9)}
"""Named readings of which decimal places of the square root make the
result number: the worked example's 9th and 10th (default) or the rule
text's 8th and 9th."""

Rounding = Literal["half_up", "half_even"]


@dataclass(frozen=True)
class AcwOptions:
    """All rule values and readings.  Field names are the option keys."""

    # movement
    stack_limit: int = 3
    river_cost: int = 3
    bridge_cost: int = 1
    step_cost: Literal["highest", "sum"] = "highest"
    # combat
    result_places: tuple[int, int] = (9, 10)
    result_last_place: Literal["truncate", "round"] = "truncate"
    victory_quotient: Literal["exact", "one_decimal"] = "exact"
    rounding: Rounding = "half_up"
    woods_multiplier: Fraction = Fraction(2)
    river_multiplier: Fraction = Fraction(2)
    fort_multiplier: Fraction = Fraction(3, 2)
    multipliers_combine: Literal["highest", "multiply"] = "highest"
    bridged_river_doubles: bool = True
    behind_woods: bool = False
    casualty_divisor: int = 15
    casualty_table: tuple[CasualtyRow, ...] = DEFAULT_CASUALTY_TABLE
    cavalry_may_withdraw: bool = True
    # retreat
    retreat_min: int = 1
    retreat_max: int = 2
    retreat_across_rivers: bool = True
    retreat_loss_rounding: Literal["up", "down"] = "up"
    no_retreat: Literal["halve", "eliminate"] = "eliminate"
    # reinforcement
    union_side: str = "union"
    rebel_side: str = "rebel"
    union_points_per_turn: int = 1
    rebel_cities: tuple[str, ...] = ("E", "G", "I", "O", "M", "L")
    roll_modulus: int = 6
    roll_source: Literal["milliseconds", "time_of_day"] = "milliseconds"
    new_unit_cost: int = 1
    rail_control: Literal["friendly", "not_enemy"] = "friendly"
    # victory
    union_objective: str = "M"
    rebel_objective: str = "A"
    major_union_by_turn: int = 7
    rebel_holds_turns: int = 12


_CHOICES: dict[str, tuple[str, ...]] = {
    "step_cost": ("highest", "sum"),
    "result_last_place": ("truncate", "round"),
    "victory_quotient": ("exact", "one_decimal"),
    "rounding": ("half_up", "half_even"),
    "multipliers_combine": ("highest", "multiply"),
    "retreat_loss_rounding": ("up", "down"),
    "no_retreat": ("halve", "eliminate"),
    "roll_source": ("milliseconds", "time_of_day"),
    "rail_control": ("friendly", "not_enemy"),
}


def _fraction(key: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ModelError(f"acw option '{key}' must be a number like 2 or \"3/2\", got {value!r}")
    try:
        f = Fraction(value) if not isinstance(value, float) else Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ModelError(f"acw option '{key}' must be a number like 2 or \"3/2\", got {value!r}") from None
    if f < 0:
        raise ModelError(f"acw option '{key}' may not be negative, got {value!r}")
    return f


def _places(value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        if value not in READINGS:
            raise ModelError(f"acw option 'result_places' must be 'example', 'text' or two places like [9, 10], "
                             f"got {value!r}")
        return READINGS[value]
    if (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)
            and 1 <= value[0] and value[1] == value[0] + 1 and value[1] <= 40):
        return int(value[0]), int(value[1])
    raise ModelError(f"acw option 'result_places' must be two consecutive decimal places like [9, 10], got {value!r}")


def _table(value: Any) -> tuple[CasualtyRow, ...]:
    """A table given as ``[[low, high_or_null, winner, loser], ...]``."""
    if not isinstance(value, list) or not value:
        raise ModelError("acw option 'casualty_table' must be a list of [low, high, winner, loser] rows")
    rows = []
    expect = 0
    for i, r in enumerate(value):
        if not (isinstance(r, list) and len(r) == 4 and isinstance(r[0], int)
                and (r[1] is None or isinstance(r[1], int))):
            raise ModelError(f"acw option 'casualty_table' row {i + 1}: expected [low, high, winner, loser], got {r!r}")
        if r[0] != expect or (r[1] is not None and r[1] < r[0]):
            raise ModelError(f"acw option 'casualty_table' row {i + 1}: rows must cover the differences from 0 "
                             f"upwards without gaps (expected a row starting at {expect})")
        rows.append(CasualtyRow(r[0], r[1], _fraction("casualty_table", r[2]), _fraction("casualty_table", r[3])))
        if r[1] is None:
            if i != len(value) - 1:
                raise ModelError("acw option 'casualty_table': only the last row may be open-ended")
            break
        expect = r[1] + 1
    if rows[-1].high is not None:
        raise ModelError("acw option 'casualty_table': the last row must be open-ended (high = null)")
    return tuple(rows)


def options_from_dict(data: dict[str, Any], base: AcwOptions | None = None) -> AcwOptions:
    """Options from a ``ruleset.options["acw"]`` mapping; unknown keys and bad
    values raise :class:`ModelError` naming the key."""
    base = base or AcwOptions()
    known = {f.name: f for f in fields(AcwOptions)}
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ModelError(f"unknown acw option '{key}' (known: {', '.join(sorted(known))})")
        default = getattr(base, key)
        if key == "result_places":
            changes[key] = _places(value)
        elif key == "casualty_table":
            changes[key] = _table(value)
        elif key in _CHOICES:
            if value not in _CHOICES[key]:
                raise ModelError(f"acw option '{key}' must be one of {', '.join(_CHOICES[key])}, got {value!r}")
            changes[key] = value
        elif isinstance(default, Fraction):
            changes[key] = _fraction(key, value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ModelError(f"acw option '{key}' must be true or false, got {value!r}")
            changes[key] = value
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ModelError(f"acw option '{key}' must be a whole number of 0 or more, got {value!r}")
            changes[key] = value
        elif isinstance(default, str):
            if not isinstance(value, str) or not value:
                raise ModelError(f"acw option '{key}' must be a non-empty text, got {value!r}")
            changes[key] = value
        elif isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ModelError(f"acw option '{key}' must be a list of texts, got {value!r}")
            changes[key] = tuple(value)
    opts = replace(base, **changes)
    if opts.retreat_min > opts.retreat_max:
        raise ModelError(f"acw options: retreat_min ({opts.retreat_min}) exceeds retreat_max ({opts.retreat_max})")
    if opts.casualty_divisor == 0 or opts.roll_modulus == 0:
        raise ModelError("acw options: casualty_divisor and roll_modulus must be at least 1")
    return opts


def default_options() -> AcwOptions:
    return AcwOptions()


def ruleset_options(ruleset: Ruleset) -> AcwOptions:
    raw = ruleset.options.get(SYSTEM, {})
    if not isinstance(raw, dict):
        raise ModelError("the ruleset's 'acw' options must be an object")
    return options_from_dict(raw)


def options_for(scenario: Scenario) -> AcwOptions:
    """The options of ``scenario``'s ruleset (defaults for keys it omits)."""
    return ruleset_options(scenario.ruleset)
