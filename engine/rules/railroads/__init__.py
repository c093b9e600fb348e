"""Axis & Allies "Module I: Railroads": rail on territory maps.

Rules (``docs/rules/railroads.md`` has every decision and option):

* A unit rails from the territory it starts in to a territory controlled by
  its nation or a rail-sharing partner (option ``destination_own_only``),
  along a path of land territories every one of which — both ends included —
  the nation or a sharing partner has controlled since the start of the
  railing nation's turn.  Sharing groups are ruleset data
  (``railroads.sharing``); a nation in no group rails alone.
* Each territory on a unit's path, start and destination included, spends
  one unit of its rail capacity: its value, or its value divided by
  ``occupied_divisor`` (2) rounded down when occupied.  Every nation's units
  draw on the same capacity; in a game it is one pool per round for a
  sharing group, spent across its members' turns (:class:`.system.RoundRail`).
* Rail never enters a sea zone or an impassable territory, never crosses a
  ``closed`` or ``strait`` border; it crosses water only at ``rail_crossing``
  borders (Jordan–Egypt, Italy–Sicily, the Panama Canal).
* A unit that moved normally this turn (``props.moved``) cannot rail.

Two questions are answered about a set of orders:

:func:`plan` — *exact*.  An integer program over the units' paths: one
commodity per (rail network, start, destination) — nations whose usable
networks are identical, as sharing partners' usually are, share it — and
one shared capacity row per territory (every territory of a path, both ends
included, spends one unit).  It maximises the number of units routed, then
minimises the total number of territories passed.  It is solved as follows
(HiGHS through scipy): the LP relaxation by column generation — each
commodity's shortest path first, then, priced by the duals, every path
that could improve it (Dijkstra) until none can, which is the optimum over
all paths (one LP model grows by the new paths and is re-solved from its
last basis); an integral LP optimum is an optimum of the integer program.  If
the LP cannot route every unit, no integer routing can, so infeasibility is
proven and the best partial routing over the generated paths is sought by
``scipy.optimize.milp`` within a short time limit (the routes of the units
that fit are then the best found, ``details["proven_optimal"]`` says whether
proven).  Otherwise ``milp`` over the generated paths decides; when it
routes every unit its routing stands (``details["proven_optimal"]``: whether
its total length reaches the LP bound), and when it does not, the arc
program decides (one commodity per destination, integer flow on every
directed rail link), without a time limit.  So ``feasible`` is always
exact: true exactly when every unit can be routed within every capacity.
Among routings of equal total length the solver's choice is kept.
When not every unit fits, the bottleneck is a minimum vertex cut
(node-splitting max-flow) whose capacity is below the units that must cross
it — all orders, then each rail network's, then each destination's — or,
when the orders only block one another on different routes, the territories
full in the best partial routing.  When every unit fits, the bottleneck is
the *contested* cut: the territories that are full, are no order's start or
destination, and carry units of at least two orders, reduced to a minimum
vertex cut (nearest the starts) between the starts and destinations of the
orders through them.

:func:`preview` — *fast, necessary conditions only*.  Node-splitting maximum
flow (``scipy.sparse.csgraph.maximum_flow``) of all orders together on the
shared capacities, plus one per rail network when orders use several, plus
(``thorough``) one per destination.  A multi-commodity integer routing is not
decided by max-flow: when the preview says "no", no routing exists (the cut
is the proof); when it says "yes", a routing usually exists, but only
:func:`plan` can promise it (units may be sent by the flow to the wrong
destination, or split fractionally between networks).

The package: :mod:`.rules` (orders, results, :class:`RailRules`: capacity,
control and the rail networks), :mod:`.flow` (the node-split max-flow and
:func:`preview`), :mod:`.routing` (:func:`plan`, the integer program and the
bottleneck words), :mod:`.system` (the registered rules system).
"""

from __future__ import annotations

from .flow import preview
from .routing import PARTIAL_TIME_LIMIT, plan
from .rules import (
    RAIL_BORDERS,
    SYSTEM,
    OrderRoute,
    RailOrder,
    RailOrderError,
    RailPlan,
    RailroadOptions,
    RailRules,
    Refusal,
    Usage,
)
from .system import RailroadOrder, Railroads

__all__ = ["PARTIAL_TIME_LIMIT", "RAIL_BORDERS", "SYSTEM", "OrderRoute", "RailOrder", "RailOrderError", "RailPlan",
           "RailRules", "RailroadOptions", "RailroadOrder", "Railroads", "Refusal", "Usage", "plan", "preview"]
