"""engine.rules.acw.odds: the outcome of a pending attack for each of the
100 result numbers must be what resolve() gives for a post time with that
result number."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.acw import PostTime, odds, resolve


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(0, 30), st.sampled_from([1, Fraction(3, 2), 2]),
       st.integers(0, 23), st.integers(0, 59), st.integers(0, 59))
def test_odds_agree_with_resolve(a: int, d: int, m: Fraction, h: int, mi: int, sec: int) -> None:
    c = resolve(a, d, PostTime(h, mi, sec), multiplier=m)
    o = odds(a, d, defender_effective=d * Fraction(m))
    assert o.victory_number == c.victory_number
    out = o.outcomes[c.result_number]
    assert out.result == c.result_number
    assert (out.winner, out.difference) == (c.winner, c.difference)
    assert (out.attacker_casualties, out.defender_casualties) == (c.attacker_casualties, c.defender_casualties)


def test_chance_is_victory_number_plus_one_in_a_hundred() -> None:
    assert odds(15, 6, defender_effective=12).wins == 57
    assert odds(1, 99).wins == 2  # victory number 1: results 00 and 01
    assert odds(10, 0).wins == 100  # victory number 100 covers every result
