"""New tiles rendered in one pass (``TileCache.render_new``, after a zoom
change: one raster of their union, its vectors once; issue 19) are the tiles
rendered one by one: the same pixels where the view needs them, and the
rest of an edge tile filled in later as before (square and hex maps with
terrain, control, a river, a bridge, a road and rail)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage
from test_canvas_scenarios import make_scenario

from app.gui.render import DEFAULT_LAYERS, renderer_for
from app.gui.render.tiles import TILE, TileCache

pytestmark = pytest.mark.gui


def pixels(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGB32)
    a = np.frombuffer(img.constBits(), np.uint8, img.sizeInBytes()).reshape(img.height(), img.bytesPerLine())
    return a[:, : img.width() * 4].copy()


def same_up_to_antialiasing(a: np.ndarray, b: np.ndarray, where: object) -> None:
    """The same pixels up to the order in which overlapping antialiased
    strokes (a road and a rail over a river) were composed."""
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
    assert (diff > 24).sum() <= 40 and diff.mean() < 0.05, (where, int((diff > 24).sum()), float(diff.mean()))


@pytest.mark.parametrize("kind,orientation", [("square", "flat"), ("hex", "flat"), ("hex", "pointy")])
def test_tiles_made_at_once_are_the_tiles_made_one_by_one(qapp, kind: str, orientation: str) -> None:
    s = make_scenario(kind, 30, 24, orientation)
    r = renderer_for(s)
    zoom = 48.0 / r.cell_px(1.0)
    layers = frozenset(DEFAULT_LAYERS)
    need = QRect(100, 70, 3 * TILE + 40, 2 * TILE + 90)  # cuts the edge tiles
    batch, single = TileCache(), TileCache()
    made = batch.render_new(r, zoom, need, layers)
    assert made == 4 * 3
    keys = list(TileCache.tile_range(need.x(), need.y(), need.x() + need.width(), need.y() + need.height()))
    assert len(keys) == made
    for tx, ty in keys:
        full = QRect(tx * TILE, ty * TILE, TILE, TILE)
        part = full.intersected(need).translated(-full.x(), -full.y())
        a = pixels(batch.tile(r, zoom, tx, ty, layers, need))  # nothing more to render inside need
        b = pixels(single.tile(r, zoom, tx, ty, layers, need))
        ys, xs = slice(part.y(), part.y() + part.height()), slice(part.x() * 4, (part.x() + part.width()) * 4)
        same_up_to_antialiasing(a[ys, xs], b[ys, xs], (tx, ty))
    assert batch.renders == made, "the tiles' parts in view were all made by the one pass"
    for tx, ty in keys:  # the rest of each edge tile, when it shows
        a = pixels(batch.tile(r, zoom, tx, ty, layers))
        b = pixels(single.tile(r, zoom, tx, ty, layers))
        same_up_to_antialiasing(a, b, (tx, ty))


def test_one_new_tile_is_left_to_the_tile_itself(qapp) -> None:
    s = make_scenario("hex", 30, 24)
    r = renderer_for(s)
    cache = TileCache()
    assert cache.render_new(r, 1.0, QRect(10, 10, 50, 50), frozenset(DEFAULT_LAYERS)) == 0
    assert len(cache) == 0


def near(e: object, cols: range, rows: range, pad: int) -> bool:
    """Whether an end of edge ``e`` is in the ranges widened by ``pad``."""
    return any(cols.start - pad <= c.col < cols.stop + pad and rows.start - pad <= c.row < rows.stop + pad
               for c in (e.a, e.b))  # type: ignore[attr-defined]


def test_the_index_gives_the_edges_near_a_range_after_edits() -> None:
    """EdgeIndex.query (the edges of a tile as one array, with their
    geometry) holds every edge with an end in the cell ranges, and only
    edges with an end in or next to them, also after edges are added and
    removed around cells (the arrays of a touched bucket are made again)."""
    import random

    from app.gui.render.index import EdgeIndex
    from engine.grids import Cell, Edge, HexGrid

    g = HexGrid(80, 60, "flat", "odd")
    rng = random.Random(19)
    cells = [Cell(rng.randrange(80), rng.randrange(60)) for _ in range(900)]
    edges = {Edge.between(c, n) for c in cells for n in g.neighbours(c)[:2]}
    idx = EdgeIndex(g, edges, sides_only=True, geometry=lambda ends, edges: ends[:, :2] * 10.0)

    def check() -> None:
        for _ in range(40):
            c0, r0 = rng.randrange(80), rng.randrange(60)
            cols, rows = range(c0, min(80, c0 + rng.randrange(1, 40))), range(r0, min(60, r0 + rng.randrange(1, 30)))
            ends, geom = idx.query(cols, rows)
            got = set(map(tuple, ends.tolist()))
            assert len(got) == len(ends)
            assert {(e.a.col, e.a.row, e.b.col, e.b.row) for e in edges if near(e, cols, rows, 0)} <= got
            assert got <= {(e.a.col, e.a.row, e.b.col, e.b.row) for e in edges if near(e, cols, rows, 1)}
            assert (geom == ends[:, :2] * 10.0).all(), "each edge's geometry comes with it"

    check()
    for c in cells[:200]:  # edits: some sides gone, some new
        for n in g.neighbours(c):
            e = Edge.between(c, n)
            if e in edges:
                edges.discard(e)
            else:
                edges.add(e)
        idx.refresh([c])
    check()
