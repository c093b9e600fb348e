"""CWOL rail movement: the 40/80-square rule.

Implements shared seed 000, *Moving by Rail* (Civil War OnLine).  The player
names a unit and a destination; the engine finds the path.  See
``docs/rules/cwol-rail.md`` for every decision taken where the document is
silent.  (A little over 600 lines: the rule, its network and the search
reused across hovers belong together; splitting them would put the cache's
validity away from the search it keeps.)

Valid path
    A sequence of squares, start to destination, each consecutive pair joined
    by a rail link (``map.links["rail"]``; on a square map a link may join
    diagonal neighbours), in which *every* square, both ends included, is
    rail-controlled by the unit's side (``map.control``).  Allies' control
    counts only with the option ``allied_control_counts``; with
    ``enemy_units_block`` a square holding a unit of a side not allied to the
    mover is refused too.

Length
    The number of steps (squares moved): a path of ``n + 1`` squares has
    length ``n``.

Verdict (``max_move`` = 40 and ``max_path`` = 80 are ruleset options)
    * shortest valid path <= ``max_move``: ``arrived``;
    * ``max_move`` < shortest <= ``max_path``: ``stopped_short`` after
      exactly ``max_move`` squares along the chosen path;
    * no valid path of ``max_path`` squares or less: ``no_valid_path``, the
      unit stays.

The bound
    The adjudicating search is a breadth-first search from the start that
    never expands a square found at ``max_path`` steps: it cannot see a square
    more than ``max_path`` steps away (:attr:`RailMove.searched` counts what it
    reached).  Only after it has failed, and only to tell a game master *how*
    long the shortest valid path is ("112 squares, longer than 80"), a
    separate diagnostic measurement may run without the bound (option
    ``measure_long_paths``); it never changes the verdict.

Ties
    Among equally short valid paths the chosen one takes, at every square,
    the first rail step in the grid's link-neighbour order that still lies on
    a shortest valid path (square grids: N, E, S, W, NE, SE, SW, NW).  All
    shortest paths are considered when listing :attr:`RailMove.ties`: every
    other square where some equally short path would stop the unit.  They are
    found from the search's distance layers: a square lies on a shortest path
    exactly when it is ``k`` steps from the start and joined to a square on a
    shortest path ``k + 1`` steps from the start (a sweep back from the
    destination), so no path is enumerated.

Speed
    Searches run on a :class:`RailNetwork`, an adjacency snapshot of the rail
    links (integer square indexes), cached per map by :func:`rail_network`
    and rebuilt when the map's set of rail links is replaced or changes size.
    Control and units are read live at every search, so repainting control
    needs no rebuild.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import numpy as np

from ..grids import Cell, step_class
from ..model import GridMap, ModelError, Ruleset, Scenario, Unit
from .base import AtLeast, NonEmpty, RulesSystem, UnitsMoved, Verdict
from .registry import register

SYSTEM = "cwol_rail"
"""Key of this system's options in :attr:`Ruleset.options`."""

Status = Literal["arrived", "stopped_short", "no_valid_path"]

ARRIVED: Status = "arrived"
STOPPED_SHORT: Status = "stopped_short"
NO_VALID_PATH: Status = "no_valid_path"


# ---------------------------------------------------------------------------
# options

@dataclass(frozen=True)
class RailOptions:
    """The ruleset values this system reads (``ruleset.options["cwol_rail"]``).

    ``max_move``: squares a unit moves by rail in one turn (40).
    ``max_path``: longest valid path, and the search's bound (80).
    ``allied_control_counts``: squares controlled by an ally of the unit's
    side count as the side's own (default ``False``: the document speaks of
    the unit's own side only).
    ``enemy_units_block``: a square holding a unit of a side not allied to
    the mover cannot be on the path (default ``False``: the document makes
    control alone decide).
    ``measure_long_paths``: when no valid path within ``max_path`` exists,
    measure the shortest longer one for the reason sentence (default
    ``True``; diagnostic only).
    ``link_kind``: the kind of link that is railway (``"rail"``).
    """

    max_move: Annotated[int, AtLeast(1)] = 40
    max_path: Annotated[int, AtLeast(1)] = 80
    allied_control_counts: bool = False
    enemy_units_block: bool = False
    measure_long_paths: bool = True
    link_kind: Annotated[str, NonEmpty()] = "rail"

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset) -> RailOptions:
        """The options a ruleset sets, defaults for the rest; raises
        :class:`~engine.rules.base.OptionError` naming a bad or unknown key
        (read by :func:`~engine.rules.base.read_options`, kept read by
        :meth:`CwolRail.ruleset_options`)."""
        return CwolRail().ruleset_options(ruleset.options)


# ---------------------------------------------------------------------------
# the rail network snapshot

class RailNetwork:
    """Which squares a kind of link joins: an immutable snapshot.

    Squares are numbered ``row * width + col``.  :attr:`adj` maps every
    square on a link to its linked neighbours, in the grid's link-neighbour
    order (the tie-breaking order).  Building is linear in the number of
    links; a search touches only the squares it reaches.
    """

    __slots__ = ("__weakref__", "_cells", "_labels", "_revision", "_searches", "_size", "_source", "adj", "height",
                 "kind", "width")

    def __init__(self, gmap: GridMap, kind: str = "rail") -> None:
        grid = gmap.grid
        w = grid.width
        self.width = w
        self.height = grid.height
        self.kind = kind
        links = gmap.links.get(kind, set())
        self._source: object = links
        self._size = len(links)
        self._revision = gmap.revision(kind)
        lists: dict[int, list[int]] = {}
        for e in links:
            a = e.a.row * w + e.a.col
            b = e.b.row * w + e.b.col
            lists.setdefault(a, []).append(b)
            lists.setdefault(b, []).append(a)
        adj: dict[int, tuple[int, ...]] = {}
        ranks = [{step: k for k, step in enumerate(steps)} for steps in grid.link_step_table()]
        for i, ns in lists.items():
            if len(ns) > 1:
                r, c = divmod(i, w)
                rank = ranks[step_class(c, r)]
                ns.sort(key=lambda j: rank.get((j % w - c, j // w - r), len(rank)))
            adj[i] = tuple(ns)
        self.adj = adj
        # Whole bounded searches from a start, reused by later hovers: see _search.
        self._searches: dict[tuple[object, ...], _Search] = {}
        self._cells: dict[int, Cell] = {}
        self._labels: tuple[object, dict[Cell, str]] = (None, {})

    def matches(self, gmap: GridMap) -> bool:
        """Whether this snapshot still describes ``gmap``'s links: the same
        set object, of the same size, at the same revision
        (:meth:`GridMap.revision`, bumped by every edit of the layer)."""
        links = gmap.links.get(self.kind)
        return (links is self._source and links is not None and len(links) == self._size
                and gmap.revision(self.kind) == self._revision and gmap.grid.width == self.width)

    def index(self, cell: Cell) -> int:
        return cell.row * self.width + cell.col

    def cell(self, index: int) -> Cell:
        cell = self._cells.get(index)
        if cell is None:
            r, c = divmod(index, self.width)
            cell = self._cells[index] = Cell(c, r)
        return cell

    def labels(self, numbering: object) -> dict[Cell, str]:
        """A memo of square labels under ``numbering`` (emptied when the
        map's numbering object is another)."""
        if self._labels[0] is not numbering:
            self._labels = (numbering, {})
        return self._labels[1]

    def on_rail(self, cell: Cell) -> bool:
        return self.index(cell) in self.adj

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Squares linked to ``cell``, in tie-breaking order."""
        return [self.cell(j) for j in self.adj.get(self.index(cell), ())]

    def __len__(self) -> int:
        """Number of squares on a link of this kind."""
        return len(self.adj)


_CACHE: weakref.WeakKeyDictionary[GridMap, dict[str, RailNetwork]] = weakref.WeakKeyDictionary()
_LAST_NETWORK: list[tuple[weakref.ref[GridMap], RailNetwork] | None] = [None]
"""The network :func:`rail_network` returned last, and (weakly) its map: a
hover asks for the same one again and again."""


def rail_network(gmap: GridMap, kind: str = "rail") -> RailNetwork:
    """The (cached) network of ``kind`` links on ``gmap``.  Rebuilt when the
    map's link set was replaced, changed size or its revision moved
    (:meth:`GridMap.touch`); code that edits links without touching the layer
    calls :func:`invalidate_rail_network`."""
    last = _LAST_NETWORK[0]
    if last is not None and last[0]() is gmap and last[1].kind == kind and last[1].matches(gmap):
        return last[1]
    per_map = _CACHE.setdefault(gmap, {})
    net = per_map.get(kind)
    if net is None or not net.matches(gmap):
        net = RailNetwork(gmap, kind)
        per_map[kind] = net
    _LAST_NETWORK[0] = (weakref.ref(gmap), net)
    return net


def invalidate_rail_network(gmap: GridMap) -> None:
    """Forget the cached networks of ``gmap`` (after an edit to its links)."""
    _CACHE.pop(gmap, None)
    last = _LAST_NETWORK[0]
    if last is not None and last[0]() is gmap:
        _LAST_NETWORK[0] = None


# ---------------------------------------------------------------------------
# the result

@dataclass(frozen=True)
class RailMove:
    """The verdict on one rail move.

    ``path`` is the chosen shortest valid path, start to destination (both
    included), or ``None`` when there is no valid path within the bound.
    ``moved`` is the number of squares the unit moves; ``stop`` where it ends
    the move (the start when it does not move).  ``ties`` are the other
    squares where an equally short valid path would stop it, in canonical
    cell order (empty when the verdict is unique).  ``reason`` is one
    sentence a game master can read aloud.

    ``searched`` is the number of squares the bounded search reached (none is
    more than ``max_path`` steps from the start); ``blocked`` are rail
    squares the search touched but refused (wrong control, or an enemy unit);
    ``over_limit_length`` is the diagnostic length of the shortest valid path
    when it is longer than ``max_path`` (``None`` when not measured or there
    is none).  ``cause``: why there is no valid path when that was decided
    before any search (a square off the rail net, held by the wrong side or
    by an enemy unit) or when no valid rail line joins the two squares at
    any length, short, squares by their labels; empty otherwise.
    """

    unit_id: str
    side: str
    start: Cell
    destination: Cell
    status: Status
    path: tuple[Cell, ...] | None
    moved: int
    stop: Cell
    ties: tuple[Cell, ...]
    reason: str
    max_move: int
    max_path: int
    searched: int = 0
    blocked: tuple[Cell, ...] = ()
    over_limit_length: int | None = None
    notes: tuple[str, ...] = field(default=())
    label: Callable[[Cell], str] = field(default=str, compare=False, repr=False)
    """How the map labels a square (for :meth:`to_data`)."""
    cause: str = ""

    @property
    def headline(self) -> str:
        """The verdict in one short line (the command line's first line and
        the editor's status bar): where the unit ends and, when it does not
        move, the actual reason why."""
        lab = self.label
        if self.status == ARRIVED:
            return f"{self.unit_id} arrives at {lab(self.stop)} after {self.moved} square{'s' if self.moved != 1 else ''}"
        if self.status == STOPPED_SHORT:
            return f"{self.unit_id} stops short at {lab(self.stop)} after {self.moved} of {self.path_length} squares"
        if self.cause:
            return f"{self.unit_id}: {self.cause}; stays at {lab(self.start)}"
        if self.over_limit_length is not None:
            return (f"{self.unit_id}: the shortest valid rail path to {lab(self.destination)} is "
                    f"{self.over_limit_length} squares, over {self.max_path}; stays at {lab(self.start)}")
        return (f"{self.unit_id}: no valid rail path to {lab(self.destination)} within {self.max_path} squares; "
                f"stays at {lab(self.start)}")

    @property
    def path_length(self) -> int | None:
        """Steps along :attr:`path` (squares moved to arrive), or ``None``."""
        return None if self.path is None else len(self.path) - 1

    @property
    def ok(self) -> bool:
        """Whether the unit moves (or is already there)."""
        return self.status != NO_VALID_PATH

    @property
    def unique(self) -> bool:
        return not self.ties

    @property
    def reasons(self) -> tuple[str, ...]:
        """:attr:`reason` as the verdict's reasons (:class:`engine.rules.base.Verdict`)."""
        return (self.reason,)

    def to_data(self) -> dict[str, Any]:
        """The verdict with exactly the keys of the CLI contract
        (``adjutant rail --json``), squares as the map labels them."""
        lab = self.label
        return {
            "status": self.status,
            "path": None if self.path is None else [lab(c) for c in self.path],
            "path_length": self.path_length,
            "moved": self.moved,
            "stop": lab(self.stop),
            "ties": [lab(c) for c in self.ties],
            "reason": self.reason,
        }


# ---------------------------------------------------------------------------
# the search

def rail_move(scenario: Scenario, unit: Unit | str, destination: Cell | str, *,
              options: RailOptions | None = None, network: RailNetwork | None = None,
              measure_long_paths: bool | None = None) -> RailMove:
    """Adjudicate ``unit`` moving by rail to ``destination``.

    ``unit`` is a :class:`Unit` or its id; ``destination`` a cell or a label
    (or place name).  ``options`` default to the scenario's ruleset;
    ``network`` to :func:`rail_network`.  ``measure_long_paths`` overrides
    the option of that name (a live preview turns it off on large maps).

    Raises :class:`ModelError` for an unknown unit or side, a destination off
    the map, or a bad ruleset option; every adjudicated answer, including "no
    valid path", is a :class:`RailMove`.
    """
    s = scenario
    gmap = s.map
    u = s.unit(unit) if isinstance(unit, str) else unit
    side = s.side(u.side)
    dest = gmap.parse_label(destination) if isinstance(destination, str) else destination
    if not gmap.grid.contains(dest):
        raise ModelError(f"destination {dest!r} is off the map")
    if not gmap.grid.contains(u.at):
        raise ModelError(f"unit {u.id} stands off the map")
    opts = options if options is not None else RailOptions.from_ruleset(s.ruleset)
    net = network if network is not None else rail_network(gmap, opts.link_kind)
    measure = opts.measure_long_paths if measure_long_paths is None else measure_long_paths
    label = gmap.label
    labels = net.labels(gmap.numbering)
    own = s.sides.index(side)
    ok_sides = frozenset(i for i, f in enumerate(s.sides)
                         if i == own or (opts.allied_control_counts and f.alliance_key == side.alliance_key))
    enemy_at: dict[int, Unit] = {}
    if opts.enemy_units_block:
        for other in s.units:
            if not s.allied(other.side, side.id) and gmap.grid.contains(other.at):
                enemy_at.setdefault(net.index(other.at), other)
    control = gmap.control.reshape(-1)
    adj = net.adj
    start_i, dest_i = net.index(u.at), net.index(dest)
    places = gmap.places

    # A path found before by a search that still holds (the control of every
    # square it met unchanged): its start and destination were checked then
    # as they stand now, so the verdict is the one made then, if it says the
    # same (see the end of this function).
    hit = net._searches.get((start_i, ok_sides, frozenset(enemy_at), opts.max_path))
    if hit is not None:
        memo = hit.verdicts.get((dest_i, opts.max_move))
        if memo is not None and memo[0] == (u.id, side.id, side.name, opts.max_path, labels, *(
                None if (p := places.get(c)) is None else p.name for c in (u.at, dest, memo[1].stop))) \
                and control[hit.seen].tobytes() == hit.held:
            return memo[1]

    def where(c: Cell) -> str:
        text = labels.get(c)
        if text is None:
            text = labels[c] = label(c)
        p = places.get(c)
        return f"{p.name} ({text})" if p is not None else text

    held_by = f"{side.name}-held"

    def no(reason: str, **kw: Any) -> RailMove:
        return RailMove(u.id, side.id, u.at, dest, NO_VALID_PATH, None, 0, u.at, (), _sentence(reason),
                        opts.max_move, opts.max_path, label=label, **kw)

    def refusal(i: int, name: Callable[[Cell], str] = where) -> str | None:
        """Why square ``i`` cannot be on a valid path, or ``None``; the
        square as ``name`` calls it."""
        c = net.cell(i)
        who = control.item(i)
        if who not in ok_sides:
            holder = "nobody" if who < 0 else s.sides[who].name
            return f"{name(c)} is rail-controlled by {holder}, not {side.name}"
        if i in enemy_at:
            e = enemy_at[i]
            return f"{name(c)} holds {s.side(e.side).name} unit {e.id}"
        return None

    stays = f"so {u.id} does not move"
    if start_i not in adj:
        return no(f"{u.id}'s square {where(u.at)} is not on a rail line, {stays}.",
                  cause=f"its square {label(u.at)} is not on a rail line")
    if dest_i not in adj:
        return no(f"{where(dest)} is not on a rail line, {stays}.", cause=f"{label(dest)} is not on a rail line")
    why = refusal(start_i)
    if why is not None:
        return no(f"{why}, so {u.id} cannot start a rail move there.", blocked=(u.at,),
                  cause=str(refusal(start_i, label)))
    why = refusal(dest_i)
    if why is not None:
        return no(f"{why}, so no valid rail path can end there; {u.id} does not move.", blocked=(dest,),
                  cause=str(refusal(dest_i, label)))
    if start_i == dest_i:
        return RailMove(u.id, side.id, u.at, dest, ARRIVED, (u.at,), 0, u.at, (),
                        f"{u.id} is already at {where(dest)}.", opts.max_move, opts.max_path, searched=1, label=label)

    # The bounded breadth-first search from the start, to max_path steps,
    # reused while nothing it looked at changed (_search); trimmed to what a
    # search stopping at the destination's layer would have seen.
    held = control.item

    def valid(j: int) -> bool:
        return held(j) in ok_sides and j not in enemy_at

    bfs = _search(net, start_i, ok_sides, enemy_at, control, opts.max_path)
    full_dist = bfs.dist
    dest_d = full_dist.get(dest_i)
    found = dest_d is not None
    depth = dest_d if dest_d is not None else bfs.depth
    # Steps beyond the destination's never equal a layer index the sweep below asks for.
    dist = full_dist
    got = bfs.blocked_by.get(depth)
    if got is None:
        near = [b for b, k in bfs.blocked.items() if k <= depth]
        got = bfs.blocked_by[depth] = (near, tuple(sorted(net.cell(i) for i in near)))
    blocked, blocked_cells = got
    frontier = bfs.last_layer if not found else [dest_i]
    searched = bfs.reached[depth] if depth < len(bfs.reached) else len(full_dist)

    if not found:
        bound_hit = bool(frontier) and depth >= opts.max_path
        why_not = ""
        if blocked:
            shown = [refusal(i) for i in sorted(blocked, key=net.cell)[:3]]
            more = f" and {len(blocked) - 3} more" if len(blocked) > 3 else ""
            why_not = f" ({'; '.join(w for w in shown if w)}{more})"
        none_at_all = f"no {held_by} rail line joins {where(u.at)} to {where(dest)}{why_not}, {stays}."
        unjoined = f"no {held_by} rail line joins {label(u.at)} to {label(dest)}"
        if not bound_hit:
            return no(none_at_all, searched=searched, blocked=blocked_cells, cause=unjoined)
        longer = _measure(adj, start_i, dest_i, valid) if measure else None
        if longer is None and measure:
            return no(none_at_all, searched=searched, blocked=blocked_cells, cause=unjoined)
        if longer is not None:
            return no(f"the shortest {held_by} rail path from {where(u.at)} to {where(dest)} is {longer} squares, "
                      f"longer than {opts.max_path}, {stays}.",
                      searched=searched, blocked=blocked_cells, over_limit_length=longer)
        return no(f"there is no {held_by} rail path of {opts.max_path} squares or less from {where(u.at)} "
                  f"to {where(dest)}, {stays}.", searched=searched, blocked=blocked_cells)

    d = dist[dest_i]
    m = opts.max_move
    route = bfs.routes.get((dest_i, m))
    if route is None:
        route = bfs.routes[(dest_i, m)] = _route(net, dist, start_i, dest_i, m)
    path, ties = route
    stop = path[m] if d > m else dest
    # The verdict depends, beyond the search and the route, on these only;
    # an equal verdict asked again is the one made before (it is immutable).
    said = (u.id, side.id, side.name, opts.max_path, labels, *(
        None if (p := places.get(c)) is None else p.name for c in (u.at, dest, stop)))
    memo = bfs.verdicts.get((dest_i, m))
    if memo is not None and memo[0] == said:
        return memo[1]
    if d <= opts.max_move:
        reason = (f"the shortest {held_by} rail path from {where(u.at)} to {where(dest)} is {d} squares, "
                  f"within the {opts.max_move}-square move, so {u.id} arrives.")
        verdict = RailMove(u.id, side.id, u.at, dest, ARRIVED, path, d, dest, (), _sentence(reason), opts.max_move,
                           opts.max_path, searched=searched, blocked=blocked_cells, label=label)
        bfs.verdicts[(dest_i, m)] = (said, verdict)
        return verdict
    reason = (f"the shortest {held_by} rail path from {where(u.at)} to {where(dest)} is {d} squares, "
              f"more than {m} but not more than {opts.max_path}, so {u.id} moves {m} squares and stops at "
              f"{where(stop)}, {d - m} short.")
    notes: tuple[str, ...] = ()
    if ties:
        others = ", ".join(label(c) for c in ties)
        notes = ((f"Equally short paths would stop {u.id} at {others} instead; the chosen path takes, at every "
                  f"square, the first rail step in the order N, E, S, W, NE, SE, SW, NW that stays on a "
                  f"shortest path."),)
        reason = reason[:-1] + f"; equally short paths would stop it at {others} instead."
    verdict = RailMove(u.id, side.id, u.at, dest, STOPPED_SHORT, path, m, stop, ties, _sentence(reason),
                       opts.max_move, opts.max_path, searched=searched, blocked=blocked_cells, notes=notes,
                       label=label)
    bfs.verdicts[(dest_i, m)] = (said, verdict)
    return verdict


def _route(net: RailNetwork, dist: Mapping[int, int], start_i: int, dest_i: int, m: int
           ) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
    """The chosen shortest path from ``start_i`` to ``dest_i`` over the
    search's ``dist`` (at every square the first step, in link order, still
    on a shortest path) and the other squares some shortest path passes
    after ``m`` steps (sorted; none when the path is not longer than ``m``)."""
    adj = net.adj
    d = dist[dest_i]
    # Squares on some shortest path, by layer: sweep back from the destination.
    on: list[set[int]] = [set() for _ in range(d + 1)]
    on[d].add(dest_i)
    step_of = dist.get
    for k in range(d, 0, -1):
        prev = on[k - 1]
        for n in on[k]:
            for c in adj[n]:
                if step_of(c) == k - 1:
                    prev.add(c)
    # A layer of one square is that step: every shortest path passes it.
    path_i = [start_i]
    cur = start_i
    for k in range(1, d + 1):
        layer = on[k]
        if len(layer) == 1:
            (cur,) = layer
        else:
            cur = next(j for j in adj[cur] if j in layer)
        path_i.append(cur)
    path = tuple(net.cell(i) for i in path_i)
    ties = tuple(sorted(net.cell(i) for i in on[m] if i != path_i[m])) if d > m else ()
    return path, ties


class _Search:
    """One bounded breadth-first search: ``dist`` (square -> steps),
    ``reached`` (``reached[k]``: squares within k steps), ``blocked``
    (refused square -> the layer whose building met it), ``depth`` reached,
    ``last_layer``, the control read at every square it looked at
    (``seen``/``held``, ``held`` as bytes), which decides whether it still
    holds, the routes asked of it so far (``routes``: (destination,
    max_move) -> :func:`_route`'s answer), ``blocked_by`` and ``verdicts``."""

    __slots__ = ("blocked", "blocked_by", "depth", "dist", "held", "last_layer", "reached", "routes", "seen",
                 "verdicts")

    def __init__(self, dist: dict[int, int], reached: list[int], blocked: dict[int, int], depth: int,
                 last_layer: list[int], seen: Any, held: bytes) -> None:
        self.dist, self.reached, self.blocked, self.depth, self.last_layer = dist, reached, blocked, depth, last_layer
        self.seen, self.held = seen, held
        self.routes: dict[tuple[int, int], tuple[tuple[Cell, ...], tuple[Cell, ...]]] = {}
        self.blocked_by: dict[int, tuple[list[int], tuple[Cell, ...]]] = {}
        """Per depth, the refused squares met within it, and their cells sorted."""
        self.verdicts: dict[tuple[int, int], tuple[tuple[object, ...], RailMove]] = {}
        """Per (destination, max_move), the last verdict of a found path and
        what else it was made from (unit, side, bound, labels, place names)."""


def _search(net: RailNetwork, start: int, ok_sides: frozenset[int], enemy_at: Mapping[int, object],
            control: Any, max_path: int) -> _Search:
    """The breadth-first search over valid rail from ``start`` to
    ``max_path`` steps (the rail rules of docs/rules/cwol_rail.md), cached on
    ``net`` by start, sides, enemy squares and bound.  A cached search is
    reused only if the control of every square it reached or refused is
    unchanged: squares it never met cannot change its answer."""
    key = (start, ok_sides, frozenset(enemy_at), max_path)
    cache = net._searches
    hit = cache.get(key)
    if hit is not None and control[hit.seen].tobytes() == hit.held:
        return hit
    held = control.item
    dist: dict[int, int] = {start: 0}
    blocked: dict[int, int] = {}
    adj = net.adj
    frontier = [start]
    reached = [1]
    depth = 0
    while frontier and depth < max_path:
        depth += 1
        nxt: list[int] = []
        for i in frontier:
            for j in adj[i]:
                if j in dist or j in blocked:
                    continue
                if held(j) not in ok_sides or j in enemy_at:
                    blocked[j] = depth
                    continue
                dist[j] = depth
                nxt.append(j)
        frontier = nxt
        reached.append(len(dist))
    seen = np.fromiter([*dist, *blocked], dtype=np.int64, count=len(dist) + len(blocked))
    found = _Search(dist, reached, blocked, depth, frontier, seen, control[seen].tobytes())
    if len(cache) >= 16:
        cache.pop(next(iter(cache)))
    cache[key] = found
    return found


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _measure(adj: Mapping[int, tuple[int, ...]], start: int, dest: int, valid: Any) -> int | None:
    """Diagnostic only: length of the shortest valid path with no bound
    (``None`` if there is none).  Never used to decide a verdict."""
    seen = {start}
    frontier = [start]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for i in frontier:
            for j in adj[i]:
                if j in seen or not valid(j):
                    continue
                if j == dest:
                    return depth
                seen.add(j)
                nxt.append(j)
        frontier = nxt
    return None


def with_control(scenario: Scenario, changes: Mapping[Cell, str | None]) -> Scenario:
    """A copy of ``scenario`` in which each cell of ``changes`` is controlled
    by the given side (id or name; ``None``: nobody) — the what-if a game
    master asks.  Raises :class:`ModelError` for an unknown side or a cell
    off the map."""
    s = scenario.copy()
    for cell, side in changes.items():
        if not s.map.grid.contains(cell):
            raise ModelError(f"{cell!r} is off the map")
        s.set_control(cell, None if side is None else s.side(side).id)
    return s


# ---------------------------------------------------------------------------
# the registered system


@dataclass(frozen=True)
class CwolRailOrder:
    """``{"unit": ID, "to": LABEL}``: move the unit by rail towards the
    square (a label or place name)."""

    unit: str
    to: str


@register
class CwolRail(RulesSystem[Scenario, RailOptions]):
    """CWOL rail movement as a registered system: :meth:`check` adjudicates
    with :func:`rail_move`; apply moves the unit to where the verdict stops
    it (the destination, or ``max_move`` squares along the path)."""

    name = SYSTEM
    title = "CWOL rail movement (40/80 squares)"
    map_kinds = frozenset({"square", "hex"})
    Options = RailOptions
    Order = CwolRailOrder
    doc = "docs/rules/cwol-rail.md"
    once_per_turn = frozenset({"railed"})
    """Turn rules (``docs/rules/cwol-rail.md``): a rail move is one order a
    turn; a unit stopped short (``stopped_short``) is ordered again next
    turn, when the turn engine lets it act again."""

    def action_of(self, order: Mapping[str, Any]) -> str:
        return "railed"

    def check(self, scenario: Scenario, order: Mapping[str, Any]) -> RailMove:
        o: CwolRailOrder = self.read_order(order)
        return rail_move(scenario, o.unit, o.to)

    def effect(self, scenario: Scenario, order: Mapping[str, Any], verdict: Verdict) -> UnitsMoved:
        assert isinstance(verdict, RailMove)
        return UnitsMoved.move(scenario, self.name, [(verdict.unit_id, verdict.stop)])


__all__ = [
    "ARRIVED", "NO_VALID_PATH", "STOPPED_SHORT", "SYSTEM", "CwolRail", "CwolRailOrder", "RailMove", "RailNetwork",
    "RailOptions", "Status", "invalidate_rail_network", "rail_move", "rail_network", "with_control",
]
