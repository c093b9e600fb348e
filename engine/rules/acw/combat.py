"""Combat: the post-time procedure of "A Short ACW Campaign".

1. Defenders in woods or behind a river count double, in fortifications one
   and a half (:func:`defence_multiplier`).
2. Total the factors; 3-4. victory number = 100 / total x attacker factors,
   rounded to the nearest whole number (:func:`victory_number`).
5. The result number: the attack post's time written as one number
   (9:51:45 -> 95145), its square root, two decimal places of it
   (:func:`result_number`).  The attacker wins when result <= victory number.
7-8. Casualties by the difference of the two numbers (the casualty table)
   times the basic casualty rate (total factors *without* the defence
   multipliers / 15), rounded (:func:`casualties`).

All arithmetic is exact: factors and rates are :class:`fractions.Fraction`,
the square root's digits come from :func:`math.isqrt` on an integer.  How the
worked example is reproduced, and the readings kept as options, are in
``docs/rules/acw.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Literal

from engine.model import ModelError

from .options import AcwOptions, CasualtyRow, Rounding

Winner = Literal["attacker", "defender"]
DefenderTerrain = Literal["open", "woods", "river", "fort"]
DEFENDER_TERRAINS: tuple[DefenderTerrain, ...] = ("open", "woods", "river", "fort")


def round_half(x: Fraction, mode: Rounding = "half_up") -> int:
    """``x`` rounded to the nearest whole number; halves go up (``half_up``,
    as people round: 55.5 -> 56, 0.5 -> 1) or to the even neighbour
    (``half_even``).  ``x`` must not be negative."""
    if x < 0:
        raise ValueError(f"cannot round a negative quantity {x}")
    floor, rest = divmod(x.numerator, x.denominator)
    twice = 2 * rest
    if twice > x.denominator:
        return floor + 1
    if twice < x.denominator:
        return floor
    return floor + 1 if mode == "half_up" or floor % 2 == 1 else floor


def fmt(x: Fraction, places: int = 4) -> str:
    """A fraction as a short decimal text: 12, 7.5, 1.4, 3.7037."""
    if x.denominator == 1:
        return str(x.numerator)
    scaled = round_half(abs(x) * 10 ** places)
    text = f"{scaled // 10 ** places}.{scaled % 10 ** places:0{places}d}".rstrip("0").rstrip(".")
    return ("-" if x < 0 else "") + text


# ---------------------------------------------------------------------------
# the post time and the result number

_TIME = re.compile(r"(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d{1,3}))?")


@dataclass(frozen=True)
class PostTime:
    """The time stamp of a forum post, to the second (milliseconds optional)."""

    hours: int
    minutes: int
    seconds: int
    milliseconds: int | None = None

    def __post_init__(self) -> None:
        if not (0 <= self.hours <= 23 and 0 <= self.minutes <= 59 and 0 <= self.seconds <= 59):
            raise ModelError(f"{self.hours}:{self.minutes:02d}:{self.seconds:02d} is not a time of day "
                             "(hours 0-23, minutes and seconds 0-59)")
        if self.milliseconds is not None and not 0 <= self.milliseconds <= 999:
            raise ModelError(f"milliseconds must be 0-999, got {self.milliseconds}")

    @property
    def number(self) -> int:
        """Hours, minutes and seconds written as one number: 9:51:45 -> 95145."""
        return self.hours * 10000 + self.minutes * 100 + self.seconds

    def __str__(self) -> str:
        ms = f".{self.milliseconds:03d}" if self.milliseconds is not None else ""
        return f"{self.hours}:{self.minutes:02d}:{self.seconds:02d}{ms}"


def parse_post_time(text: str) -> PostTime:
    """``"9:51:45"`` or ``"21:05:09.250"``; raises :class:`ModelError`."""
    m = _TIME.fullmatch(text.strip())
    if not m:
        raise ModelError(f"'{text}' is not a post time like 9:51:45 (H:MM:SS, optionally .mmm)")
    ms = m.group(4)
    return PostTime(int(m.group(1)), int(m.group(2)), int(m.group(3)),
                    None if ms is None else int(ms.ljust(3, "0")))


def sqrt_digits(n: int, places: int) -> str:
    """The square root of ``n`` written with ``places`` decimals, truncated
    (exact: computed with :func:`math.isqrt`)."""
    v = isqrt(n * 10 ** (2 * places))
    whole, frac = divmod(v, 10 ** places)
    return f"{whole}.{frac:0{places}d}"


@dataclass(frozen=True)
class ResultNumber:
    """How a post time became a result number."""

    time: PostTime
    number: int
    places: tuple[int, int]
    root: str
    """The square root to two decimals past the places used (truncated)."""
    value: int

    def describe(self) -> str:
        a, b = self.places
        return (f"post time {self.time} -> {self.number}; square root {self.root}...; "
                f"decimal places {a} and {b} -> {self.value:02d}")


def result_number(time: PostTime | str, options: AcwOptions | None = None) -> ResultNumber:
    """The result number (0-99) of a post time.

    Default (the worked example): the 9th and 10th decimal places of the
    square root, the root *truncated* after the 10th place.  Option
    ``result_places: "text"`` takes the 8th and 9th; ``result_last_place:
    "round"`` rounds the root at the last place used instead of truncating.
    """
    o = options or AcwOptions()
    t = parse_post_time(time) if isinstance(time, str) else time
    first, last = o.result_places
    n = t.number
    if o.result_last_place == "truncate":
        v = isqrt(n * 10 ** (2 * last))
    else:
        v = (isqrt(n * 10 ** (2 * (last + 1))) + 5) // 10
    return ResultNumber(t, n, (first, last), sqrt_digits(n, last + 2), v % 100)


# ---------------------------------------------------------------------------
# factors, victory number, casualties

def defence_multiplier(reasons: Sequence[DefenderTerrain], options: AcwOptions | None = None) -> Fraction:
    """The factor multiplier for a defender with these advantages (``woods``,
    ``river``, ``fort``; ``open`` adds none).  By default the highest one
    counts (woods and a river do not make four times); option
    ``multipliers_combine: "multiply"`` multiplies them."""
    o = options or AcwOptions()
    values = {"open": Fraction(1), "woods": o.woods_multiplier, "river": o.river_multiplier,
              "fort": o.fort_multiplier}
    ms = [values[r] for r in reasons if r != "open"]
    if not ms:
        return Fraction(1)
    if o.multipliers_combine == "highest":
        return max(ms)
    out = Fraction(1)
    for m in ms:
        out *= m
    return out


def victory_number(attacker: Fraction, total: Fraction, options: AcwOptions | None = None) -> tuple[Fraction, int]:
    """(100 / total as used, the victory number).

    ``exact`` (default): round(100 x attacker / total) -- the rule text rounds
    once, at step 4.  ``one_decimal``: the worked example writes 100/27 as
    3.7, so 100 / total is first rounded to one decimal, then multiplied and
    rounded (they differ e.g. for 20 against 10: 67 against 66).
    """
    o = options or AcwOptions()
    if total <= 0:
        raise ModelError("a combat needs some factors on the field (the total is 0)")
    quotient = Fraction(100) / total
    if o.victory_quotient == "one_decimal":
        quotient = Fraction(round_half(quotient * 10, o.rounding), 10)
    return quotient, round_half(quotient * attacker, o.rounding)


def casualty_row(difference: int, options: AcwOptions | None = None) -> CasualtyRow:
    o = options or AcwOptions()
    for row in o.casualty_table:
        if row.covers(difference):
            return row
    raise ModelError(f"no row of the casualty table covers a difference of {difference}")


@dataclass(frozen=True)
class CombatResult:
    """A combat resolved from the factors on each side and the post time."""

    attacker_factors: Fraction
    defender_factors: Fraction
    """Defending factors as they stand (no multiplier)."""
    defender_effective: Fraction
    """Defending factors with the woods / river / fortification multipliers."""
    total: Fraction
    quotient: Fraction
    victory_number: int
    result: ResultNumber
    winner: Winner
    difference: int
    row: CasualtyRow
    basic_rate: Fraction
    winner_casualties: int
    loser_casualties: int
    steps: tuple[str, ...]

    @property
    def result_number(self) -> int:
        return self.result.value

    @property
    def attacker_casualties(self) -> int:
        return self.winner_casualties if self.winner == "attacker" else self.loser_casualties

    @property
    def defender_casualties(self) -> int:
        return self.loser_casualties if self.winner == "attacker" else self.winner_casualties

    @property
    def attacker_wins(self) -> bool:
        return self.winner == "attacker"

    @property
    def reason(self) -> str:
        cmp = "<=" if self.attacker_wins else ">"
        return (f"result {self.result_number} {cmp} victory number {self.victory_number}: the {self.winner} wins "
                f"by {self.difference}; the winner loses {self.winner_casualties}, the loser {self.loser_casualties} "
                f"factor{'s' if self.loser_casualties != 1 else ''}")

    def to_data(self) -> dict[str, object]:
        return {
            "victory_number": self.victory_number,
            "result_number": self.result_number,
            "winner": self.winner,
            "difference": self.difference,
            "winner_casualties": self.winner_casualties,
            "loser_casualties": self.loser_casualties,
            "attacker_casualties": self.attacker_casualties,
            "defender_casualties": self.defender_casualties,
            "attacker_factors": fmt(self.attacker_factors),
            "defender_factors": fmt(self.defender_factors),
            "defender_effective": fmt(self.defender_effective),
            "total_factors": fmt(self.total),
            "quotient": fmt(self.quotient),
            "time": str(self.result.time),
            "time_number": self.result.number,
            "square_root": self.result.root,
            "decimal_places": list(self.result.places),
            "casualty_row": {"difference": self.row.label(), "winner_rate": fmt(self.row.winner),
                             "loser_rate": fmt(self.row.loser)},
            "basic_casualty_rate": fmt(self.basic_rate),
            "steps": list(self.steps),
            "reason": self.reason,
        }


def resolve(attacker: Fraction | int, defender: Fraction | int, time: PostTime | str, *,
            multiplier: Fraction | int = 1, options: AcwOptions | None = None,
            defender_effective: Fraction | None = None) -> CombatResult:
    """Resolve a combat of ``attacker`` factors against ``defender`` factors
    (as they stand) at post ``time``.

    The defender's effective factors are ``defender x multiplier``, or
    ``defender_effective`` when the defenders have different multipliers
    (a stack with some units fortified)."""
    o = options or AcwOptions()
    a, d = Fraction(attacker), Fraction(defender)
    if a <= 0:
        raise ModelError("the attacker needs at least one factor to attack")
    if d < 0:
        raise ModelError("the defender's factors cannot be negative")
    eff = defender_effective if defender_effective is not None else d * Fraction(multiplier)
    total = a + eff
    quotient, vn = victory_number(a, total, o)
    rn = result_number(time, o)
    winner: Winner = "attacker" if rn.value <= vn else "defender"
    difference = abs(vn - rn.value)
    row = casualty_row(difference, o)
    basic = (a + d) / o.casualty_divisor
    wc = round_half(row.winner * basic, o.rounding)
    lc = round_half(row.loser * basic, o.rounding)
    steps = (
        f"1. defending factors {fmt(d)} count as {fmt(eff)}",
        f"2. total factors {fmt(a)} + {fmt(eff)} = {fmt(total)}",
        f"3. 100 / {fmt(total)} = {fmt(quotient)}",
        f"4. victory number {fmt(a)} x {fmt(quotient)} = {fmt(quotient * a)} -> {vn}",
        (f"5. {rn.describe()}; {'attacker' if winner == 'attacker' else 'defender'} wins "
        f"({rn.value} {'<=' if winner == 'attacker' else '>'} {vn})"),
        f"7. difference {difference}: row {row.label()}, W{fmt(row.winner)} L{fmt(row.loser)}",
        (f"8. basic casualty rate {fmt(a + d)} / {o.casualty_divisor} = {fmt(basic)}; winner "
        f"{fmt(row.winner)} x {fmt(basic)} = {fmt(row.winner * basic)} -> {wc}; loser {fmt(row.loser)} x "
        f"{fmt(basic)} = {fmt(row.loser * basic)} -> {lc}"),
    )
    return CombatResult(a, d, eff, total, quotient, vn, rn, winner, difference, row, basic, wc, lc, steps)


# ---------------------------------------------------------------------------
# spreading losses over the units present

@dataclass(frozen=True)
class Loss:
    """What one unit loses."""

    unit_id: str
    name: str
    before: int
    lost: int

    @property
    def after(self) -> int:
        return self.before - self.lost

    @property
    def eliminated(self) -> bool:
        return self.before > 0 and self.after == 0

    def to_data(self) -> dict[str, object]:
        return {"unit": self.unit_id, "name": self.name, "before": self.before, "lost": self.lost,
                "after": self.after, "eliminated": self.eliminated}


@dataclass(frozen=True)
class LossSpread:
    losses: tuple[Loss, ...]
    unabsorbed: int
    """Casualties beyond the factors present (the force is destroyed)."""

    @property
    def total(self) -> int:
        return sum(x.lost for x in self.losses)


def spread_losses(units: Sequence[tuple[str, str, int]], casualties: int) -> LossSpread:
    """Spread ``casualties`` factors evenly over ``units`` (id, name, factors).

    Round by round, every unit that still has a factor loses one, so no unit
    takes a second loss before every other has taken one.  Within a round the
    strongest unit goes first (most factors, then the order given); a unit
    at 0 drops out.  Casualties beyond the force's factors are reported as
    ``unabsorbed``.
    """
    if casualties < 0:
        raise ValueError("casualties cannot be negative")
    order = sorted(range(len(units)), key=lambda i: (-units[i][2], i))
    left = {i: units[i][2] for i in order}
    lost = dict.fromkeys(order, 0)
    remaining = casualties
    while remaining > 0:
        live = [i for i in order if left[i] > 0]
        if not live:
            break
        for i in live:
            if remaining == 0:
                break
            left[i] -= 1
            lost[i] += 1
            remaining -= 1
    return LossSpread(tuple(Loss(units[i][0], units[i][1], units[i][2], lost[i]) for i in order), remaining)


# ---------------------------------------------------------------------------
# every possible result number, before the post is made

@dataclass(frozen=True)
class Outcome:
    """What one result number would do to a pending attack."""

    result: int
    winner: Winner
    difference: int
    attacker_casualties: int
    defender_casualties: int


@dataclass(frozen=True)
class Odds:
    """A pending attack over all ``result_count`` (100) result numbers
    0..99: the victory number, the attacker's chance of winning and each
    result number's outcome (the same arithmetic as :func:`resolve`)."""

    attacker_factors: Fraction
    defender_factors: Fraction
    defender_effective: Fraction
    victory_number: int
    outcomes: tuple[Outcome, ...]

    @property
    def wins(self) -> int:
        """How many result numbers give the attacker the victory:
        victory number + 1 (0..victory number), within 0..100."""
        return sum(1 for o in self.outcomes if o.winner == "attacker")

    @property
    def chance(self) -> Fraction:
        """The attacker's chance of winning, assuming every result number is equally likely."""
        return Fraction(self.wins, len(self.outcomes))

    @property
    def reason(self) -> str:
        return (f"{fmt(self.attacker_factors)} factors attack {fmt(self.defender_factors)}"
                + (f" (counting {fmt(self.defender_effective)})" if self.defender_effective != self.defender_factors
                   else "")
                + f": victory number {self.victory_number}, the attacker wins on {self.wins} of the "
                  f"{len(self.outcomes)} result numbers ({round(float(self.chance) * 100)}%)")


RESULT_COUNT = 100
"""Two decimal places make the result numbers 00..99."""


def odds(attacker: Fraction | int, defender: Fraction | int, *, defender_effective: Fraction | None = None,
         options: AcwOptions | None = None) -> Odds:
    """The outcome of an attack for every result number 0..99 (no post time
    needed): who wins and the casualties each side takes, as :func:`resolve`
    would compute them for a post time giving that result number."""
    o = options or AcwOptions()
    a, d = Fraction(attacker), Fraction(defender)
    if a <= 0:
        raise ModelError("the attacker needs at least one factor to attack")
    if d < 0:
        raise ModelError("the defender's factors cannot be negative")
    eff = defender_effective if defender_effective is not None else d
    _, vn = victory_number(a, a + eff, o)
    basic = (a + d) / o.casualty_divisor
    out = []
    for r in range(RESULT_COUNT):
        winner: Winner = "attacker" if r <= vn else "defender"
        diff = abs(vn - r)
        row = casualty_row(diff, o)
        wc = round_half(row.winner * basic, o.rounding)
        lc = round_half(row.loser * basic, o.rounding)
        ac, dc = (wc, lc) if winner == "attacker" else (lc, wc)
        out.append(Outcome(r, winner, diff, ac, dc))
    return Odds(a, d, eff, vn, tuple(out))
