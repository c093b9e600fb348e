"""The repair budget of self-crossing rings (engine/territory/geometry.py):
a small ring's overlapping segment pairs, counted from arrays, are exactly
what the spatial tree counts for larger rings (each segment with itself,
both orders, touching boxes included), so the budget refuses the same files
whichever way a ring is counted."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.territory import geometry
from engine.territory.geometry import GeometryBudget, GeometryError

coord = st.one_of(st.integers(0, 6).map(float), st.floats(0, 10, allow_nan=False, allow_infinity=False))
rings = st.lists(st.tuples(coord, coord), min_size=3, max_size=geometry._SMALL_RING)


def tree_count(pts: list[tuple[float, float]]) -> int:
    a = np.asarray(pts, float)
    seg = shapely.linestrings(np.stack([a, np.roll(a, -1, axis=0)], axis=1))
    return int(shapely.STRtree(seg).query(seg).shape[1])


@settings(max_examples=300, deadline=None)
@given(rings)
def test_a_small_ring_spends_what_the_tree_counts(pts: list[tuple[float, float]]) -> None:
    budget = GeometryBudget()
    before = budget.pairs
    budget.spend_repair(pts, "polygon 1")
    assert before - budget.pairs == tree_count(pts)


def test_the_budget_still_refuses_naming_the_ring() -> None:
    bow_tie = [(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)]
    budget = GeometryBudget(pairs=3 * tree_count(bow_tie))
    for _ in range(3):
        budget.spend_repair(bow_tie, "polygon 7")
    with pytest.raises(GeometryError, match="polygon 8 crosses itself too often to repair"):
        budget.spend_repair(bow_tie, "polygon 8")
