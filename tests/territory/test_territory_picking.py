"""Picking on territory maps (engine/territory/geometry.py): the territory
under a point, the territories a drag passes, border lines and the nearest
one, the counter box a click hits.  Pure functions, table tests."""

from __future__ import annotations

import pytest
import shapely

from engine.territory.geometry import (
    MAX_ALONG_STEPS,
    border_lines,
    box_at,
    nearest_border,
    pick_index,
    territories_along,
    territory_at,
)

# three squares in a row on a 30 x 10 map, and an island drawn over the sea square
SHAPES = {
    "west": shapely.box(0, 0, 10, 10),
    "sea": shapely.box(10, 0, 20, 10),
    "east": shapely.box(20, 0, 30, 10),
    "isle": shapely.box(13, 3, 17, 7),
    "unplaced": shapely.Polygon(),
}
FLAT = pick_index(SHAPES, 30)
ROUND = pick_index(SHAPES, 30, wrap_x=True)


@pytest.mark.parametrize(("index", "x", "y", "want"), [
    (FLAT, 5, 5, "west"),
    (FLAT, 11, 1, "sea"),
    (FLAT, 15, 5, "isle"),  # overlapping shapes: the smaller one
    (FLAT, 25, 5, "east"),
    (FLAT, 0, 0, "west"),  # on the edge counts
    (FLAT, 35, 5, None),  # off the map
    (FLAT, 5, -1, None),
    (ROUND, 35, 5, "west"),  # round the world
    (ROUND, -5, 5, "east"),
    (ROUND, 5, 11, None),  # wrap is east-west only
])
def test_territory_at(index, x, y, want) -> None:
    assert territory_at(index, x, y) == want


def test_an_empty_map_has_nothing_to_pick() -> None:
    idx = pick_index({"unplaced": shapely.Polygon()}, 10)
    assert idx.ids == () and territory_at(idx, 0, 0) is None


@pytest.mark.parametrize(("index", "a", "b", "step", "want"), [
    (FLAT, (5, 5), (25, 5), 1.0, ["west", "sea", "isle", "sea", "east"]),
    (FLAT, (5, 5), (25, 5), 100.0, ["east"]),  # one long step jumps over everything between
    (FLAT, (5, 1), (25, 1), 1.0, ["west", "sea", "east"]),  # north of the island
    (FLAT, (5, 5), (5, 6), 1.0, ["west"]),
    (FLAT, (25, 5), (35, 5), 1.0, ["east"]),  # leaves the map: nothing there is picked
    (ROUND, (28, 5), (2, 5), 1.0, ["east", "west"]),  # the short way round, not back across the map
    (ROUND, (2, 5), (28, 5), 1.0, ["west", "east"]),
])
def test_territories_along(index, a, b, step, want) -> None:
    assert territories_along(index, a, b, step) == want


def test_territories_along_samples_at_most_max_steps() -> None:
    many = {f"s{i}": shapely.box(i, 0, i + 1, 1) for i in range(MAX_ALONG_STEPS * 2)}
    idx = pick_index(many, MAX_ALONG_STEPS * 2)
    got = territories_along(idx, (0.5, 0.5), (MAX_ALONG_STEPS * 2 - 0.5, 0.5), 0.5)
    assert len(got) == MAX_ALONG_STEPS


def cape(x: float) -> shapely.Polygon:
    return shapely.Polygon([(x, 5), (x + 10, 0), (x + 10, 10)])


@pytest.mark.parametrize(("a", "b", "closed", "labels", "want"), [
    # closed border between squares that share a side: along the shared side
    (shapely.box(0, 0, 10, 10), shapely.box(10, 0, 20, 10), True, (None, None), [[(10.0, 0.0), (10.0, 10.0)]]),
    # a crossing over 4 units of water (to a cape pointing west): the gap, 6 units beyond each shore
    (shapely.box(0, 0, 10, 10), cape(14), False, (None, None), [[(4.0, 5.0), (20.0, 5.0)]]),
    # a wide strait: a quarter of the gap beyond each shore
    (shapely.box(0, 0, 10, 10), cape(50), False, (None, None), [[(0.0, 5.0), (60.0, 5.0)]]),
    # shapes that touch, not closed: across, from label to label
    (shapely.box(0, 0, 10, 10), shapely.box(10, 0, 20, 10), False, ((5.0, 5.0), (15.0, 5.0)),
     [[(4.0, 0.0), (16.0, 0.0)]]),
    # ... and without label points there is no line
    (shapely.box(0, 0, 10, 10), shapely.box(10, 0, 20, 10), False, (None, None), []),
    # a closed border between shapes that only meet at a corner: across the corner
    (shapely.box(0, 0, 10, 10), shapely.box(10, 10, 20, 20), True, ((5.0, 5.0), (15.0, 5.0)),
     [[(4.0, 10.0), (16.0, 10.0)]]),
    (shapely.Polygon(), shapely.box(10, 0, 20, 10), True, (None, None), []),
])
def test_border_lines(a, b, closed, labels, want) -> None:
    got = border_lines(a, b, closed, *labels)
    assert [[pytest.approx(p) for p in line] for line in got] == want


LINES = [("ab", [[(0.0, 0.0), (10.0, 0.0)]]), ("cd", [[(0.0, 5.0), (10.0, 5.0)], [(20.0, 0.0), (20.0, 10.0)]])]


@pytest.mark.parametrize(("x", "y", "tolerance", "want"), [
    (5, 1, 2.0, "ab"),
    (5, 4, 2.0, "cd"),
    (19, 9, 2.0, "cd"),  # its second line
    (5, 2.5, 3.0, "ab"),  # equally near: the first
    (5, 2.5, 2.0, None),  # too far from both
    (50, 50, 2.0, None),
])
def test_nearest_border(x, y, tolerance, want) -> None:
    assert nearest_border(LINES, x, y, tolerance) == want


BOXES = [(0.0, 0.0, 30.0, 18.0), (33.0, 0.0, 30.0, 18.0)]


@pytest.mark.parametrize(("x", "y", "pad", "want"), [
    (10, 10, 0, 0),
    (40, 10, 0, 1),
    (31.5, 10, 0, None),  # between the counters
    (31.5, 10, 2, 0),  # within the pad of the first
    (32, 10, 2, 0),  # the first of two that both reach
    (0, 0, 0, 0),  # on the corner counts
    (10, 21, 2, None),
])
def test_box_at(x, y, pad, want) -> None:
    assert box_at(BOXES, x, y, pad) == want


def test_the_nearest_corner_within_reach_of_any_ring_is_found():
    from shapely.geometry import MultiPolygon, Polygon

    from engine.territory.geometry import nearest_corner

    square = Polygon([(0, 0), (10, 0), (10, 10), (0, 10)], [[(4, 4), (6, 4), (6, 6), (4, 6)]])
    islands = MultiPolygon([Polygon([(20, 0), (30, 0), (30, 5)]), Polygon([(40, 40), (50, 40), (50, 50)])])
    shapes = [square, Polygon(), islands]
    assert nearest_corner(shapes, 9.0, 1.5, 2.0) == (10.0, 0.0)
    assert nearest_corner(shapes, 5.5, 4.5, 1.0) == (6.0, 4.0)  # a hole's corner
    assert nearest_corner(shapes, 49.0, 41.0, 2.0) == (50.0, 40.0)  # the second island
    assert nearest_corner(shapes, 15.0, 2.0, 3.0) is None  # nothing within reach
    assert nearest_corner(shapes, 15.0, 0.0, 5.0) in {(10.0, 0.0), (20.0, 0.0)}
