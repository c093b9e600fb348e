"""The ACW rules' options: every number and every reading the rule document
leaves open, read from the ruleset (``ruleset.options["acw"]``).

Defaults reproduce the document's worked example; the other readings are
named alternatives (see ``docs/rules/acw.md``).  :func:`options_for` reads a
scenario's ruleset, :func:`default_options` serves callers with no scenario
(``adjutant combat --attacker 15 --defender 6 ...``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Annotated, Any, Literal

from engine.model import Ruleset, Scenario

from ..base import AtLeast, NonEmpty, OptionError, Reader, cached_options, read_options

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

KEY_STYLE = "acw option '{key}'"
"""How messages name an option key (as this system always has)."""

_WHERE = "ruleset.options.acw"


def _fraction(value: Any, label: str) -> Fraction:
    """A number of 0 or more: ``2``, ``1.5`` or ``"3/2"``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise OptionError(f"{label} must be a number like 2 or \"3/2\", got {value!r}")
    try:
        f = Fraction(value) if not isinstance(value, float) else Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise OptionError(f"{label} must be a number like 2 or \"3/2\", got {value!r}") from None
    if f < 0:
        raise OptionError(f"{label} may not be negative, got {value!r}")
    return f


def _places(value: Any, label: str) -> tuple[int, int]:
    """A named reading (:data:`READINGS`) or two consecutive places."""
    if isinstance(value, str):
        if value not in READINGS:
            raise OptionError(f"{label} must be 'example', 'text' or two places like [9, 10], got {value!r}")
        return READINGS[value]
    if (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value)
            and 1 <= value[0] and value[1] == value[0] + 1 and value[1] <= 40):
        return int(value[0]), int(value[1])
    raise OptionError(f"{label} must be two consecutive decimal places like [9, 10], got {value!r}")


def _table(value: Any, label: str) -> tuple[CasualtyRow, ...]:
    """A table given as ``[[low, high_or_null, winner, loser], ...]``."""
    if not isinstance(value, list) or not value:
        raise OptionError(f"{label} must be a list of [low, high, winner, loser] rows")
    rows = []
    expect = 0
    for i, r in enumerate(value):
        if not (isinstance(r, list) and len(r) == 4 and isinstance(r[0], int)
                and (r[1] is None or isinstance(r[1], int))):
            raise OptionError(f"{label} row {i + 1}: expected [low, high, winner, loser], got {r!r}")
        if r[0] != expect or (r[1] is not None and r[1] < r[0]):
            raise OptionError(f"{label} row {i + 1}: rows must cover the differences from 0 "
                              f"upwards without gaps (expected a row starting at {expect})")
        rows.append(CasualtyRow(r[0], r[1], _fraction(r[2], label), _fraction(r[3], label)))
        if r[1] is None:
            if i != len(value) - 1:
                raise OptionError(f"{label}: only the last row may be open-ended")
            break
        expect = r[1] + 1
    if rows[-1].high is not None:
        raise OptionError(f"{label}: the last row must be open-ended (high = null)")
    return tuple(rows)


Count = Annotated[int, AtLeast(0)]
"""A whole number of 0 or more."""
Multiplier = Annotated[Fraction, Reader(_fraction, 'a number of 0 or more like 2 or "3/2"')]
"""A number of 0 or more: ``2``, ``1.5`` or ``"3/2"``."""
Name = Annotated[str, NonEmpty()]


@dataclass(frozen=True)
class AcwOptions:
    """All rule values and readings.  Field names are the option keys."""

    # movement
    stack_limit: Count = 3
    river_cost: Count = 3
    bridge_cost: Count = 1
    step_cost: Literal["highest", "sum"] = "highest"
    # combat
    result_places: Annotated[tuple[int, int], Reader(_places, "'example', 'text' or two places like [9, 10]")] = (9, 10)
    result_last_place: Literal["truncate", "round"] = "truncate"
    victory_quotient: Literal["exact", "one_decimal"] = "exact"
    rounding: Rounding = "half_up"
    woods_multiplier: Multiplier = Fraction(2)
    river_multiplier: Multiplier = Fraction(2)
    fort_multiplier: Multiplier = Fraction(3, 2)
    multipliers_combine: Literal["highest", "multiply"] = "highest"
    bridged_river_doubles: bool = True
    behind_woods: bool = False
    casualty_divisor: Count = 15
    casualty_table: Annotated[tuple[CasualtyRow, ...], Reader(_table, "a list of [low, high, winner, loser] rows")] = DEFAULT_CASUALTY_TABLE
    cavalry_may_withdraw: bool = True
    # retreat
    retreat_min: Count = 1
    retreat_max: Count = 2
    retreat_across_rivers: bool = True
    retreat_loss_rounding: Literal["up", "down"] = "up"
    no_retreat: Literal["halve", "eliminate"] = "eliminate"
    # reinforcement
    union_side: Name = "union"
    rebel_side: Name = "rebel"
    union_points_per_turn: Count = 1
    rebel_cities: tuple[str, ...] = ("E", "G", "I", "O", "M", "L")
    roll_modulus: Count = 6
    roll_source: Literal["milliseconds", "time_of_day"] = "milliseconds"
    new_unit_cost: Count = 1
    rail_control: Literal["friendly", "not_enemy"] = "friendly"
    rebel_gain: Literal["point", "factor"] = "point"
    # deployment
    union_deploy: tuple[str, ...] = ("A", "B", "C")
    rebel_deploy: tuple[str, ...] = ("E", "I", "H", "G")
    deploy_distance: Count = 1
    # victory
    union_objective: Name = "M"
    rebel_objective: Name = "A"
    major_union_by_turn: Count = 7
    rebel_holds_turns: Count = 12

    def __post_init__(self) -> None:
        if self.retreat_min > self.retreat_max:
            raise OptionError(f"acw options: retreat_min ({self.retreat_min}) exceeds retreat_max "
                              f"({self.retreat_max})")
        if self.casualty_divisor == 0 or self.roll_modulus == 0:
            raise OptionError("acw options: casualty_divisor and roll_modulus must be at least 1")


def options_from_dict(data: dict[str, Any], base: AcwOptions | None = None) -> AcwOptions:
    """Options from a ``ruleset.options["acw"]`` mapping (read by
    :func:`~engine.rules.base.read_options` from :class:`AcwOptions`'s
    annotations); keys it omits keep ``base``'s values (default: the
    defaults).  Unknown keys and bad values raise
    :class:`~engine.rules.base.OptionError` naming the key."""
    opts = read_options(AcwOptions, data, _WHERE, key_style=KEY_STYLE)
    if base is not None:
        opts = replace(base, **{k: getattr(opts, k) for k in data})
    return opts


def default_options() -> AcwOptions:
    return AcwOptions()


def ruleset_options(ruleset: Ruleset) -> AcwOptions:
    """The options ``ruleset`` sets, read once per distinct value
    (:func:`~engine.rules.base.cached_options`)."""
    return cached_options(AcwOptions, ruleset.options.get(SYSTEM), options_from_raw)


def options_from_raw(raw: Any) -> AcwOptions:
    """The options a ruleset's ``acw`` entry sets (``None``: every default)."""
    if raw is not None and not isinstance(raw, dict):
        raise OptionError("the ruleset's 'acw' options must be an object")
    return options_from_dict(raw or {})


def options_for(scenario: Scenario) -> AcwOptions:
    """The options of ``scenario``'s ruleset (defaults for keys it omits)."""
    return ruleset_options(scenario.ruleset)
