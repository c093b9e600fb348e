"""The ACW orders beyond the move: combat, the cavalry's choice, retreat,
the Rebel reinforcement post and purchases (``docs/rules/acw.md``, "Orders
and the turn").

Each order kind is a frozen dataclass read by
:func:`~engine.rules.base.read_options` (a bad key or value is named);
:func:`check_order` gives an :class:`AcwVerdict` (every "no" a sentence) and
:func:`apply_order` carries it out, returning an :class:`AcwChange` that puts
the units and ``state.acw`` back exactly.

* ``{"attack": HEX | [HEX, ...], "defend": HEX, "time": "H:MM:SS"}``: the
  post-time combat (:func:`~.battle.battle`); casualties spread over the
  units present, eliminated units removed, the attackers marked ``fought``,
  and the loser's retreat owed (``state.acw.retreats``).  A loser with no
  hex to retreat to is dealt with at once by ``no_retreat``.
* ``{"withdraw": CAVALRY, "to": HEX}`` / ``{"stand": CAVALRY}``: defending
  cavalry engaged by infantry takes, or declines, the one-hex retreat before
  the battle; an attack on its hex waits for that choice.
* ``{"retreat": UNIT_OR_HEX, "to": HEX}``: the loser's owner retreats the
  force 1-2 hexes; ending next to the enemy costs half its factors.
* ``{"reinforcement_post": "H:MM:SS.mmm"}``: the Rebels' roll, once a turn
  (with option ``rebel_gain: "factor"`` the post names ``"unit"``, which
  gains the factor itself).
* ``{"unit": ID, "factors": N}``: buy factors for a unit that stays put.
* ``{"new_unit": ID, "type": TYPE, "at": HEX}``: raise a unit with no
  factors for ``new_unit_cost`` points.

The turn engine keeps the turn state in ``scenario.state["game"]["turn"]``
(``docs/turns.md``); the side to move and what each unit did are read there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from engine.grids import Cell
from engine.model import ModelError, Scenario, Unit
from engine.words import side_phrase, verb

from ..base import AtLeast, OptionError, read_options
from .battle import Battle, battle, engagement
from .combat import LossSpread, parse_post_time
from .options import SYSTEM, AcwOptions, options_for
from .reinforcement import check_new_unit, check_reinforce, points, rail_to_edge, rebel_roll
from .retreat import retreat_losses, retreat_options
from .stacking import stack_at
from .units import arm_of, display_name

GAME_KEY = "game"
"""Where the turn engine keeps its data in ``scenario.state`` (docs/turns.md)."""

TURN_PROPS = ("moved", "fought", "raised")
"""Unit properties that last one turn: cleared at the end of the side's turn."""


@dataclass(frozen=True)
class AttackOrder:
    attack: tuple[str, ...]
    defend: str
    time: str


@dataclass(frozen=True)
class WithdrawOrder:
    withdraw: str
    to: str


@dataclass(frozen=True)
class StandOrder:
    stand: str


@dataclass(frozen=True)
class RetreatOrder:
    retreat: str
    to: str


@dataclass(frozen=True)
class PostOrder:
    reinforcement_post: str
    unit: str | None = None


@dataclass(frozen=True)
class PurchaseOrder:
    unit: str
    factors: Annotated[int, AtLeast(1)] = 1


@dataclass(frozen=True)
class NewUnitOrder:
    new_unit: str
    type: str
    at: str
    name: str | None = None


KINDS: tuple[tuple[str, str, type[Any]], ...] = (
    ("attack", "attack", AttackOrder),
    ("withdraw", "withdraw", WithdrawOrder),
    ("stand", "stand", StandOrder),
    ("retreat", "retreat", RetreatOrder),
    ("reinforcement_post", "post", PostOrder),
    ("new_unit", "new_unit", NewUnitOrder),
    ("factors", "purchase", PurchaseOrder),
)
"""(the key that marks the order, its kind, its dataclass); an order with
none of these keys is a move."""

ORDER_FORMS: tuple[type[Any], ...] = tuple(cls for _, _, cls in KINDS)
"""The order dataclasses beside the move (the system's ``order_forms``)."""

ACTIONS = {"attack": "fought", "retreat": "retreated", "post": "reinforced", "purchase": "reinforced",
           "new_unit": "bought", "withdraw": "retreated", "stand": "fought", "move": "moved"}
"""The turn engine's action for each kind (``docs/turns.md``)."""


def kind_of(order: Mapping[str, Any]) -> str:
    for key, kind, _ in KINDS:
        if key in order:
            return kind
    return "move"


def read(order: Mapping[str, Any]) -> Any:
    """The order as its dataclass; :class:`OptionError` names a bad key."""
    kind = kind_of(order)
    for key, k, cls in KINDS:
        if k == kind:
            raw = dict(order)
            if kind == "attack" and isinstance(raw.get("attack"), str):
                raw["attack"] = [raw["attack"]]
            return read_options(cls, raw, f"acw {key} order")
    raise OptionError(f"not an acw order: {dict(order)!r}")


@dataclass(frozen=True)
class AcwVerdict:
    """The verdict on one of these orders; ``plan`` is what :func:`apply_order` carries out."""

    kind: str
    ok: bool
    reasons: tuple[str, ...]
    data: Mapping[str, Any] = field(default_factory=dict)
    plan: Any = field(default=None, compare=False, repr=False)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "ok": self.ok, "reasons": list(self.reasons), **self.data}


@dataclass(frozen=True)
class AcwChange:
    """The record of one of these orders: every unit and ``state.acw`` as
    they were before (``undo`` restores them exactly) and what happened."""

    kind: str
    units_before: tuple[Unit, ...]
    state_before: Any
    data: Mapping[str, Any]

    def undo(self, scenario: Scenario) -> None:
        scenario.units = copy.deepcopy(list(self.units_before))
        if self.state_before is None:
            scenario.state.pop(SYSTEM, None)
        else:
            scenario.state[SYSTEM] = copy.deepcopy(self.state_before)

    def to_data(self) -> dict[str, Any]:
        return {"system": SYSTEM, "kind": self.kind, **copy.deepcopy(dict(self.data))}


# ---------------------------------------------------------------------------
# the turn as the rules see it

def turn_data(scenario: Scenario) -> Mapping[str, Any]:
    game = scenario.state.get(GAME_KEY)
    turn = game.get("turn") if isinstance(game, Mapping) else None
    return turn if isinstance(turn, Mapping) else {}


def side_to_move(scenario: Scenario) -> str:
    """The side to move: the turn engine's, else ``state.acw.phasing``."""
    side = turn_data(scenario).get("side")
    if isinstance(side, str):
        return side
    from .turns import phasing

    return phasing(scenario)


def acted(scenario: Scenario, unit_id: str) -> tuple[str, ...]:
    acts = turn_data(scenario).get("acted", {})
    got = acts.get(unit_id, ()) if isinstance(acts, Mapping) else ()
    return tuple(got) if isinstance(got, list) else ()


def acw_state(scenario: Scenario) -> dict[str, Any]:
    """A copy of ``state.acw`` (empty when absent)."""
    st = scenario.state.get(SYSTEM)
    return copy.deepcopy(st) if isinstance(st, dict) else {}


def pending_retreats(scenario: Scenario) -> list[dict[str, Any]]:
    got = acw_state(scenario).get("retreats", [])
    return got if isinstance(got, list) else []


def game_over(scenario: Scenario) -> str | None:
    v = acw_state(scenario).get("victory")
    return str(v.get("reason")) if isinstance(v, dict) else None


def _enemy_cells(scenario: Scenario, side: str) -> dict[Cell, list[Unit]]:
    out: dict[Cell, list[Unit]] = {}
    for u in scenario.units:
        if not scenario.allied(u.side, side):
            out.setdefault(u.at, []).append(u)
    return out


def owed_combats(scenario: Scenario) -> list[str]:
    """A sentence for each unit of the side to move that entered a hex next
    to the enemy this turn and has not fought."""
    side = side_to_move(scenario)
    enemy = _enemy_cells(scenario, side)
    lab = scenario.map.label
    out = []
    for u in scenario.units:
        if u.side != side or not u.props.get("moved") or u.props.get("fought") or u.strength <= 0:
            continue  # a unit with no factors has nothing to fight with: it owes no combat
        near = [n for n in scenario.map.grid.neighbours(u.at) if n in enemy]
        if near:
            out.append(f"{display_name(u)} ({u.id}) entered {lab(u.at)}, next to the enemy in "
                       f"{', '.join(lab(n) for n in near)}, and owes a combat this turn "
                       f"(an attack from {lab(u.at)} on {lab(near[0])}, with its post's time)")
    return out


def end_refusal(scenario: Scenario) -> str | None:
    """Why the side to move may not end its turn now, or ``None``."""
    over = game_over(scenario)
    if over:
        return f"the game is over: {over}"
    owed = owed_combats(scenario)
    retreats = []
    for r in pending_retreats(scenario):
        name = scenario.side(r["side"]).name
        retreats.append(f"{side_phrase(name)} {verb(name, 'owes', 'owe')} the retreat of {', '.join(r['units'])} "
                        f"from {r['hex']} (a retreat to a hex they choose)")
    if not owed and not retreats:
        return None
    return "; ".join(retreats + owed)


# ---------------------------------------------------------------------------
# checks

def check_order(scenario: Scenario, order: Mapping[str, Any]) -> AcwVerdict:
    """The verdict on a non-move order (never changes the scenario)."""
    kind = kind_of(order)
    o = read(order)
    over = game_over(scenario)
    if over:
        return AcwVerdict(kind, False, (f"the game is over: {over}",))
    if kind != "retreat" and pending_retreats(scenario):
        r = pending_retreats(scenario)[0]
        return AcwVerdict(kind, False, (f"the retreat of {', '.join(r['units'])} from {r['hex']} comes first",))
    checks: dict[str, Callable[[Scenario, Any], AcwVerdict]] = {"attack": _check_attack, "withdraw": _check_withdraw, "stand": _check_stand,
             "retreat": _check_retreat, "post": _check_post, "purchase": _check_purchase,
             "new_unit": _check_new_unit}
    return checks[kind](scenario, o)


def _no(kind: str, *reasons: str) -> AcwVerdict:
    return AcwVerdict(kind, False, tuple(reasons))


def _cavalry_options(scenario: Scenario, cav: Unit, o: AcwOptions) -> tuple[bool, tuple[Cell, ...]]:
    """Whether ``cav`` is cavalry engaged by infantry of the side to move
    (an infantry unit next to it that has not fought), and the hexes it may
    withdraw to."""
    side = side_to_move(scenario)
    if cav.side == side or arm_of(scenario, cav) != "cavalry" or not o.cavalry_may_withdraw:
        return False, ()
    grid = scenario.map.grid
    engaged = any(u.side == side and not u.props.get("fought") and arm_of(scenario, u) == "infantry"
                  and grid.are_adjacent(u.at, cav.at) for u in scenario.units)
    if not engaged:
        return False, ()
    enemy = _enemy_cells(scenario, cav.side)
    terrain = scenario.ruleset.terrain
    hexes = tuple(n for n in grid.neighbours(cav.at)
                  if n not in enemy and not terrain[scenario.map.terrain_at(n)].impassable
                  and not stack_at(scenario, n, arriving=cav, options=o).over)
    return True, hexes


def cavalry_choices(scenario: Scenario, cell: Cell) -> list[tuple[str, tuple[str, ...]]]:
    """The defending cavalry in ``cell`` still to choose whether to withdraw
    (engaged by infantry, with a hex to withdraw to, not yet decided), each
    with the hexes it may go to.  Cavalry with nowhere to go has no choice."""
    o = options_for(scenario)
    out = []
    for u in scenario.units_at(cell):
        engaged, hexes = _cavalry_options(scenario, u, o)
        if engaged and hexes and u.id not in _decided(scenario):
            out.append((u.id, tuple(scenario.map.label(h) for h in hexes)))
    return out


def _decided(scenario: Scenario) -> list[str]:
    got = acw_state(scenario).get("cavalry", [])
    return got if isinstance(got, list) else []


def _check_attack(scenario: Scenario, o: AttackOrder) -> AcwVerdict:
    opts = options_for(scenario)
    gm = scenario.map
    cells = [gm.parse_label(h) for h in o.attack]
    defend = gm.parse_label(o.defend)
    parse_post_time(o.time)
    side = side_to_move(scenario)
    try:
        e = engagement(scenario, cells, defend, options=opts)
    except ModelError as err:
        return _no("attack", str(err))
    reasons = []
    for p in e.attackers:
        u = scenario.unit(p.unit_id)
        if u.side != side:
            reasons.append(f"{p.name} ({u.id}) is not of the side to move ({scenario.side(side).name})")
        elif u.props.get("fought"):
            reasons.append(f"{p.name} ({u.id}) has already fought this turn")
    decided = _decided(scenario)
    for c in e.cavalry_options:
        if c.hexes and c.unit_id not in decided:
            reasons.append(f"{c.reason}: its owner chooses first whether {c.unit_id} withdraws (and to which "
                           f"hex) or stands")
    if reasons:
        return _no("attack", *reasons)
    b = battle(scenario, cells, defend, o.time, options=opts)
    return AcwVerdict("attack", True, (b.reason,), b.to_data(), b)


def _check_withdraw(scenario: Scenario, o: WithdrawOrder) -> AcwVerdict:
    u = scenario.unit(o.withdraw)
    to = scenario.map.parse_label(o.to)
    lab = scenario.map.label
    engaged, hexes = _cavalry_options(scenario, u, options_for(scenario))
    if not engaged:
        return _no("withdraw", f"{display_name(u)} ({u.id}) is not cavalry engaged by infantry of the side to move")
    if u.id in _decided(scenario):
        return _no("withdraw", f"{display_name(u)} ({u.id}) has already made its choice this turn")
    if to not in hexes:
        return _no("withdraw", f"{display_name(u)} may withdraw 1 hex to {', '.join(lab(h) for h in hexes) or 'nowhere'}"
                               f", not {lab(to)}")
    return AcwVerdict("withdraw", True, (f"{display_name(u)} ({u.id}) withdraws from {lab(u.at)} to {lab(to)} before the battle",), {"unit": u.id, "to": lab(to)}, to)


def _check_stand(scenario: Scenario, o: StandOrder) -> AcwVerdict:
    u = scenario.unit(o.stand)
    engaged, hexes = _cavalry_options(scenario, u, options_for(scenario))
    if not engaged:
        return _no("stand", f"{display_name(u)} ({u.id}) is not cavalry engaged by infantry of the side to move")
    if not hexes:
        return _no("stand", f"{display_name(u)} ({u.id}) has no hex to withdraw to, so it has no choice to make: "
                            f"it stands without an order")
    if u.id in _decided(scenario):
        return _no("stand", f"{display_name(u)} ({u.id}) has already made its choice this turn")
    return AcwVerdict("stand", True, (f"{display_name(u)} ({u.id}) declines the retreat, stands in {scenario.map.label(u.at)}",), {"unit": u.id})


def order_author(scenario: Scenario, order: Mapping[str, Any]) -> str | None:
    """The side whose choice ``order`` is when the rules give it to a side
    that may not be the one to move: a retreat is the retreating force's
    owner's, a cavalry withdraw or stand the cavalry's owner's.  ``None``
    for every other order (the side to move gives it)."""
    kind = kind_of(order)
    if kind == "retreat":
        r = _find_retreat(scenario, str(order.get("retreat")))
        return str(r["side"]) if r is not None else None
    if kind in ("withdraw", "stand"):
        uid = order.get(kind)
        if isinstance(uid, str) and any(u.id == uid for u in scenario.units):
            return scenario.unit(uid).side
    return None


def pending_choices(scenario: Scenario) -> list[tuple[str, str, dict[str, Any]]]:
    """The choices waiting for a side's answer, each ``(side, what, the
    rules' default order)``: every retreat owed (default: the first hex
    :func:`~.retreat.retreat_options` lists, the safest) and every cavalry
    unit engaged by infantry of the side to move that has a hex to
    withdraw to and has not chosen (default: it stands)."""
    if game_over(scenario):
        return []
    out: list[tuple[str, str, dict[str, Any]]] = []
    gm = scenario.map
    for r in pending_retreats(scenario):
        force = [scenario.unit(i) for i in r["units"]]
        plan = retreat_options(scenario, gm.parse_label(r["hex"]), units=force)
        if plan.hexes:
            out.append((str(r["side"]), f"the retreat of {', '.join(r['units'])} from {r['hex']}",
                        {"retreat": r["hex"], "to": plan.hexes[0].label}))
    if out:
        return out
    o = options_for(scenario)
    decided = _decided(scenario)
    for u in scenario.units:
        engaged, hexes = _cavalry_options(scenario, u, o)
        if engaged and hexes and u.id not in decided:
            out.append((u.side, f"whether {display_name(u)} ({u.id}) withdraws before the battle",
                        {"stand": u.id}))
    return out


def _find_retreat(scenario: Scenario, who: str) -> dict[str, Any] | None:
    for r in pending_retreats(scenario):
        if who == r["hex"] or who in r["units"]:
            return r
    return None


def _check_retreat(scenario: Scenario, o: RetreatOrder) -> AcwVerdict:
    r = _find_retreat(scenario, o.retreat)
    if r is None:
        owed = ", ".join(x["hex"] for x in pending_retreats(scenario)) or "none"
        return _no("retreat", f"no retreat is owed by {o.retreat} (retreats owed: {owed})")
    gm = scenario.map
    to = gm.parse_label(o.to)
    force = [scenario.unit(i) for i in r["units"]]
    plan = retreat_options(scenario, gm.parse_label(r["hex"]), units=force)
    for h in plan.hexes:
        if h.cell == to:
            losses = retreat_losses(scenario, plan, to)
            return AcwVerdict("retreat", True, (f"the force in {r['hex']} retreats to {h.reason}",),
                              {"from": r["hex"], "to": h.label, "units": list(r["units"]), "loss": h.loss,
                               "losses": [x.to_data() for x in losses.losses if x.lost]}, (r, to, losses))
    legal = ", ".join(h.label for h in plan.hexes)
    return _no("retreat", f"the force in {r['hex']} may retreat to {legal}, not {gm.label(to)}")


def _check_post(scenario: Scenario, o: PostOrder) -> AcwVerdict:
    opts = options_for(scenario)
    side = side_to_move(scenario)
    if side != opts.rebel_side:
        return _no("post", f"only the Rebels make a reinforcement post, on their own move (the "
                           f"{scenario.side(side).name} are moving)")
    st = acw_state(scenario)
    if st.get("posted") == scenario.turn:
        return _no("post", f"the Rebels have already made their reinforcement post on turn {scenario.turn}")
    if opts.rebel_gain == "factor":
        if o.unit is None:
            return _no("post", "with rebel_gain 'factor' the post names the unit that gains the factor "
                               "(\"unit\": ID)")
        ok = check_reinforce(scenario, o.unit, 1, free=True)
        if not ok.ok:
            return _no("post", ok.reason)
        if scenario.unit(o.unit).side != side:
            return _no("post", f"{o.unit} is not a Rebel unit")
    elif o.unit is not None:
        return _no("post", "the post gains a reinforcement point (rebel_gain 'point'); it names no unit")
    r = rebel_roll(scenario, o.reinforcement_post)
    data = dict(r.to_data(), unit=o.unit) if o.unit is not None else r.to_data()
    return AcwVerdict("post", True, (r.reason,), data, (r.gained, o.unit))


def _check_purchase(scenario: Scenario, o: PurchaseOrder) -> AcwVerdict:
    r = check_reinforce(scenario, o.unit, o.factors)
    if not r.ok:
        u = scenario.unit(o.unit)
        rail = rail_to_edge(scenario, u.side)
        lab = scenario.map.label
        return _no("purchase", r.reason, f"rail hexes held to the map edge: "
                                         f"{', '.join(sorted(lab(c) for c in rail)) or 'none'}")
    return AcwVerdict("purchase", True, (r.reason,), dict(r.to_data(), unit=o.unit, factors=o.factors),
                      (o.unit, o.factors, r.cost))


def _check_new_unit(scenario: Scenario, o: NewUnitOrder) -> AcwVerdict:
    if any(u.id == o.new_unit for u in scenario.units):
        return _no("new_unit", f"a unit with the id {o.new_unit} already exists")
    side = side_to_move(scenario)
    cell = scenario.map.parse_label(o.at)
    r = check_new_unit(scenario, side, o.type, cell)
    if not r.ok:
        return _no("new_unit", r.reason)
    return AcwVerdict("new_unit", True, (r.reason,), dict(r.to_data(), type=o.type), (o, side, cell, r.cost))


# ---------------------------------------------------------------------------
# effects

def _take(scenario: Scenario, spread: LossSpread) -> list[str]:
    """Apply the losses of ``spread``; units left at 0 are removed.  Returns
    the ids removed."""
    gone = []
    for x in spread.losses:
        scenario.unit(x.unit_id).strength = x.after
        if x.eliminated:
            gone.append(x.unit_id)
    scenario.units = [u for u in scenario.units if u.id not in gone]
    return gone


def apply_order(scenario: Scenario, verdict: AcwVerdict) -> AcwChange:
    """Carry out an ok verdict of :func:`check_order`."""
    before_units = tuple(copy.deepcopy(scenario.units))
    raw = scenario.state.get(SYSTEM)
    before_state = copy.deepcopy(raw) if isinstance(raw, dict) else None
    st = acw_state(scenario)
    data: dict[str, Any] = dict(verdict.data)
    kind = verdict.kind
    lab = scenario.map.label
    if kind == "attack":
        b: Battle = verdict.plan
        data = _fight(scenario, b, st, options_for(scenario))
    elif kind in ("withdraw", "stand"):
        uid = data["unit"]
        if kind == "withdraw":
            u = scenario.unit(uid)
            u.at = verdict.plan
            u.props["fortified"] = False
        st["cavalry"] = _decided(scenario) + [uid]
    elif kind == "retreat":
        r, to, losses = verdict.plan
        side_moving = side_to_move(scenario)
        for uid in r["units"]:
            u = scenario.unit(uid)
            u.at = to
            u.props["fortified"] = False
            if u.side == side_moving:
                u.props["moved"] = True
        data["eliminated"] = _take(scenario, losses)
        st["retreats"] = [x for x in pending_retreats(scenario) if x is not r and x != r]
        if not st["retreats"]:
            del st["retreats"]
    elif kind == "post":
        gained, unit_id = verdict.plan
        st["posted"] = scenario.turn
        opts = options_for(scenario)
        if gained and unit_id is not None:
            scenario.unit(unit_id).strength += gained
        elif gained:
            pts = dict(st.get("points", {}))
            pts[opts.rebel_side] = points(scenario, opts.rebel_side) + gained
            st["points"] = pts
    elif kind == "purchase":
        unit_id, factors, cost = verdict.plan
        u = scenario.unit(unit_id)
        u.strength += factors
        pts = dict(st.get("points", {}))
        pts[u.side] = points(scenario, u.side) - cost
        st["points"] = pts
    elif kind == "new_unit":
        o, side, cell, cost = verdict.plan
        pts = dict(st.get("points", {}))
        pts[side] = points(scenario, side) - cost
        st["points"] = pts
        scenario.units.append(Unit(o.new_unit, side, o.type, cell, 0, o.name, {"raised": True}))
        data["unit"] = o.new_unit
        data["at"] = lab(cell)
    scenario.state[SYSTEM] = st
    return AcwChange(kind, before_units, before_state, data)


def _fight(scenario: Scenario, b: Battle, st: dict[str, Any], o: AcwOptions) -> dict[str, Any]:
    """Apply a battle: casualties, the attackers' ``fought``, the loser's retreat owed."""
    assert b.combat is not None
    data = b.to_data()
    gone = _take(scenario, b.attacker_losses) + _take(scenario, b.defender_losses)
    for p in b.engagement.attackers:
        if p.unit_id not in gone:
            scenario.unit(p.unit_id).props["fought"] = True
    owed = list(st.get("retreats", []))
    fates = []
    for plan in b.retreats:
        if plan.possible:
            owed.append({"hex": plan.label, "side": plan.side, "units": list(plan.units)})
        else:
            spread = retreat_losses(scenario, plan, None, o)
            gone += _take(scenario, spread)
            fates.append(plan.reason)
    if owed:
        st["retreats"] = owed
    data["eliminated"] = gone
    data["no_retreat"] = fates
    return data
