"""Adversarial games (``docs/turns.md``, "Authority", "One order at a time,
and every turn able to end"): a hypothesis state machine per built-in rules
system plays random orders from both sides on its sample map -- legal ones,
illegal ones, unknown keys, rule-selecting keys, orders for the other side's
units, orders in the wrong side's file, random dice and post times -- and
checks after every step:

* a refused order changes nothing but its refusal record (the scenario and
  the turn state are as before; the journal grew by that entry);
* an order given in the file of the side not to move is refused, unless the
  rules give that side the choice (an ACW retreat, withdraw or stand);
* no traceback: giving an order never raises, whatever it holds;
* the side to move can always end its turn within a bounded number of legal
  orders (the owed combats fought, the pending choices given their defaults);
* the file written replays to the saved state, and ``validate``'s
  re-adjudication (:func:`engine.turns.verify.verify`) accepts it.

Short runs in the default suite; long ones under ``-m slow``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine.grids import Cell
from engine.io import dumps_any, loads_any
from engine.model import ModelError
from engine.turns.delta import Snapshot
from engine.turns.game import Game
from engine.turns.verify import verify

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLES = {"acw": "acw_short_campaign.json", "cwol_rail": "cwol_mobile_columbus.json", "gitm": "gitm_allied.json",
           "railroads": "railroad_module_europe.json", "rail_options": "aa_rail_options.json"}
_TEXTS: dict[str, str] = {}

CONTACT = {"US-14": "0613", "US-13": "0613", "US-12": "0512", "US-8A": "0613", "US-HQ": "0613", "US-3C": "0714",
           "CS-51": "0814", "CS-52": "0815", "CS-37C": "0813", "CS-39": "0914", "CS-11A": "0914"}
"""ACW armies in contact from the start (a set-up the scenario accepts): combats, cavalry choices and
retreats come at once."""

ANSWERS = {"retreat", "withdraw", "stand"}
"""The ACW orders whose author may be the side not to move."""

TURN_BOUND = 40
"""At most this many steps (orders, defaults, attempts to end) to end a turn."""


def sample(name: str) -> str:
    if name not in _TEXTS:
        _TEXTS[name] = (ROOT / "maps" / SAMPLES[name]).read_text(encoding="utf-8")
    return _TEXTS[name]


def clock(draw: Any, ms: bool = False) -> str:
    h, m, s = draw(st.integers(0, 23)), draw(st.integers(0, 59)), draw(st.integers(0, 59))
    return f"{h}:{m:02d}:{s:02d}" + (f".{draw(st.integers(0, 999)):03d}" if ms else "")


def place_near(s: Any, draw: Any, at: Any, reach: int = 4) -> str:
    """A place label near ``at`` (a cell), or any territory on a territory map."""
    if hasattr(s.map, "territories"):
        return str(draw(st.sampled_from(sorted(s.map.territories))))
    col = min(s.map.width - 1, max(0, at.col + draw(st.integers(-reach, reach))))
    row = min(s.map.height - 1, max(0, at.row + draw(st.integers(-reach, reach))))
    return str(s.map.label(Cell(col, row)))


def base_order(g: Game, draw: Any) -> dict[str, Any]:
    """A move of a unit (usually the side to move's) to a place near it."""
    s = g.scenario
    mine = [u for u in s.units if u.side == g.turn.side]
    pool = mine if mine and draw(st.integers(0, 4)) else s.units
    unit = draw(st.sampled_from(pool))
    return {"unit": unit.id, "to": place_near(s, draw, unit.at)}


def acw_order(g: Game, draw: Any) -> dict[str, Any]:
    s = g.scenario
    lab = s.map.label
    kind = draw(st.sampled_from(["move", "move", "move", "attack", "attack", "retreat", "withdraw", "stand",
                                 "post", "purchase", "new_unit"]))
    u = draw(st.sampled_from(s.units))
    if kind == "attack":
        mine = [x for x in s.units if x.side == g.turn.side] or s.units
        a = draw(st.sampled_from(mine))
        near = s.map.grid.neighbours(a.at) or [a.at]
        return {"attack": lab(a.at), "defend": lab(draw(st.sampled_from(near))), "time": clock(draw)}
    if kind == "retreat":
        owed = s.state.get("acw", {}).get("retreats") or [{"hex": lab(u.at)}]
        r = draw(st.sampled_from(owed))
        at = s.map.parse_label(r["hex"])
        return {"retreat": r["hex"], "to": place_near(s, draw, at, 2)}
    if kind == "withdraw":
        return {"withdraw": u.id, "to": place_near(s, draw, u.at, 1)}
    if kind == "stand":
        return {"stand": u.id}
    if kind == "post":
        return {"reinforcement_post": clock(draw, ms=True)}
    if kind == "purchase":
        return {"unit": u.id, "factors": draw(st.integers(1, 3))}
    if kind == "new_unit":
        return {"new_unit": f"X-{len(g.journal)}", "type": draw(st.sampled_from(["inf", "cav", "arty", "hq", "tank"])),
                "at": place_near(s, draw, u.at, 3)}
    return base_order(g, draw)


def rail_options_order(g: Game, draw: Any) -> dict[str, Any]:
    s = g.scenario
    kind = draw(st.sampled_from(["move", "move", "combat", "buy", "place", "bomb", "destroy", "capture"]))
    nation = g.turn.side if draw(st.integers(0, 3)) else draw(st.sampled_from([x.id for x in s.sides]))
    t = str(draw(st.sampled_from(sorted(s.map.territories))))
    piece = draw(st.sampled_from(["station", "railroad", "depot"]))
    if kind == "combat":
        return dict(base_order(g, draw), phase="combat")
    if kind == "buy":
        return {"action": "buy", "nation": nation, "piece": piece, "count": draw(st.integers(0, 3))}
    if kind in ("place", "destroy"):
        return {"action": kind, "nation": nation, "piece": piece, "territory": t}
    if kind == "capture":
        return {"action": "capture", "nation": nation, "territory": t}
    if kind == "bomb":
        b = draw(st.integers(1, 3))
        if draw(st.booleans()):
            return {"action": "bomb", "nation": nation, "territory": t, "bombers": b, "seed": draw(st.integers(0, 99))}
        return {"action": "bomb", "nation": nation, "territory": t, "bombers": b,
                "aa": [draw(st.integers(0, 7)) for _ in range(b)], "dice": [draw(st.integers(1, 6)) for _ in range(b)]}
    return base_order(g, draw)


def railroads_order(g: Game, draw: Any) -> dict[str, Any]:
    s = g.scenario
    if draw(st.integers(0, 2)):
        return base_order(g, draw)
    nation = g.turn.side if draw(st.integers(0, 3)) else draw(st.sampled_from([x.id for x in s.sides]))
    names = sorted(s.map.territories)
    order = {"nation": nation, "from": draw(st.sampled_from(names)), "to": draw(st.sampled_from(names)),
             "count": draw(st.integers(1, 2))}
    if draw(st.booleans()):
        order["type"] = draw(st.sampled_from(sorted({u.type for u in s.units})))
    return order


def gitm_order(g: Game, draw: Any) -> dict[str, Any]:
    o = base_order(g, draw)
    if draw(st.booleans()):
        o["via"] = place_near(g.scenario, draw, g.scenario.unit(o["unit"]).at)
    return o


def legal_order(g: Game, draw: Any) -> dict[str, Any] | None:
    """An order the rules are likely to carry out: a unit of the side to move
    that has not acted, to a place its system says it reaches (ACW: its
    reach; Rail Options: its rail reach; elsewhere a place near it or a
    territory its side holds), or the purchase or placement of the phase."""
    s = g.scenario
    name = g.system.name
    if name == "rail_options" and g.turn.phase in ("purchase", "place"):
        piece = draw(st.sampled_from(["station", "railroad"]))
        if g.turn.phase == "purchase":
            return {"action": "buy", "nation": g.turn.side, "piece": piece, "count": 1}
        held = sorted(t.id for t in s.map.territories.values() if t.controller == g.turn.side)
        return {"action": "place", "nation": g.turn.side, "piece": piece,
                "territory": draw(st.sampled_from(held))} if held else None
    mine = [u for u in s.units if u.side == g.turn.side and not g.turn.acted.get(u.id)]
    if not mine:
        return None
    u = draw(st.sampled_from(mine))
    if name == "acw":
        from engine.rules.acw.movement import reach

        hexes = reach(s, u).hexes()
        return {"unit": u.id, "to": draw(st.sampled_from(hexes)).label} if hexes else None
    if name == "rail_options":
        from engine.rules.rail_options.adjudicator import reach as rail_reach

        dests = rail_reach(s, u.id).destinations
        return {"unit": u.id, "to": draw(st.sampled_from(dests)).territory} if dests else None
    if name == "railroads":
        held = sorted(t.id for t in s.map.territories.values()
                      if t.controller is not None and s.allied(t.controller, u.side))
        return {"unit": u.id, "to": draw(st.sampled_from(held))} if held else None
    return {"unit": u.id, "to": place_near(s, draw, u.at, 6)}


ORDERS = {"acw": acw_order, "rail_options": rail_options_order, "railroads": railroads_order, "gitm": gitm_order,
          "cwol_rail": lambda g, draw: base_order(g, draw)}


def spoil(order: dict[str, Any], draw: Any) -> dict[str, Any]:
    """The order, or the order with a key no system's order has, or one that selects rules."""
    how = draw(st.sampled_from(["as is", "as is", "as is", "unknown key", "option", "reading"]))
    if how == "unknown key":
        return dict(order, speed=draw(st.integers(0, 9)))
    if how == "option":
        return dict(order, option=draw(st.integers(1, 4)))
    if how == "reading":
        return dict(order, reading="loose")
    return order


def state_of(g: Game) -> tuple[Any, dict[str, Any]]:
    return Snapshot.take(g.scenario), g.turn.to_data()


def settle_turn(g: Game) -> None:
    """End the side to move's turn by legal orders: fight every combat owed,
    give the pending choices their defaults; fails the test when the turn
    cannot be ended within :data:`TURN_BOUND` steps."""
    side, turn = g.turn.side, g.turn.turn
    why = ""
    for _ in range(TURN_BOUND):
        if g.turn.side != side or g.turn.turn != turn:
            return
        over = getattr(g.system, "outcome", None)
        if callable(over) and over(g.scenario):
            return  # the game is over: nothing more to end
        try:
            g.end_phase()
            continue
        except ModelError as e:
            why = str(e)
        if g.pending():
            g.give_defaults()
            continue
        if g.system.name == "acw" and owed_attack(g):
            continue
        break
    raise AssertionError(f"{g.system.name}: the {g.turn.side} cannot end turn {g.turn.turn}: {why}")


def owed_attack(g: Game, owed_only: bool = True) -> bool:
    """Give one attack a unit owes (ACW; any unit next to the enemy that has
    not fought when not ``owed_only``); whether one was carried out."""
    s = g.scenario
    lab = s.map.label
    for u in s.units:
        if u.side != g.turn.side or u.props.get("fought") or u.strength <= 0:
            continue
        if owed_only and not u.props.get("moved"):
            continue
        for n in s.map.grid.neighbours(u.at):
            if any(not s.allied(e.side, u.side) for e in s.units_at(n)):
                e = g.give({"attack": lab(u.at), "defend": lab(n), "time": "9:51:45"}, side=g.turn.side)
                if e.kind == "order":
                    return True
    return False


class Adversary(RuleBasedStateMachine):
    """Random orders from both sides against one system's sample game."""

    system = ""

    @initialize(data=st.data())
    def start(self, data: Any) -> None:
        scenario = loads_any(sample(self.system), SAMPLES[self.system])
        if self.system == "acw" and data.draw(st.booleans(), label="armies in contact"):
            for uid, label in CONTACT.items():
                scenario.unit(uid).at = scenario.map.parse_label(label)
            scenario.state["setup_accepted"] = True
        self.game = Game(scenario, self.system)
        self.sides = [s.id for s in self.game.scenario.sides]

    @rule(data=st.data())
    def give(self, data: Any) -> None:
        draw = data.draw
        g = self.game
        self.give_checked(spoil(ORDERS[self.system](g, draw), draw),
                          draw(st.sampled_from([g.turn.side, g.turn.side, None, *self.sides])))

    @rule(data=st.data())
    def give_legal(self, data: Any) -> None:
        if self.system in ("railroads", "rail_options") and self.game.turn.phase == "combat":
            self.end_phase()  # rail belongs to the non-combat phase
        order = legal_order(self.game, data.draw)
        if order is not None:
            self.give_checked(order, self.game.turn.side)

    @rule(data=st.data())
    def give_legal_again(self, data: Any) -> None:
        self.give_legal(data)

    @rule()
    def fight(self) -> None:
        if self.system == "acw":
            owed_attack(self.game, owed_only=False)

    def give_checked(self, order: dict[str, Any], side: str | None) -> None:
        g = self.game
        mover, before = g.turn.side, state_of(g)
        rule_author = g.author(order)
        n = len(g.journal)
        e = g.give(order, side=side)
        assert len(g.journal) == n + 1
        if e.kind == "refused":
            assert state_of(g) == before, f"a refused order changed the game: {order} ({e.reasons})"
            assert e.reasons, f"a refusal without a reason: {order}"
        elif side is not None and side != mover:
            assert self.system == "acw" and ANSWERS & set(order) and rule_author == side, \
                f"the {side}, not to move, carried out {order}"
        if any(k in order for k in ("speed", "reading")) or ("option" in order and self.system == "rail_options"):
            assert e.kind == "refused" and any("order key" in r for r in e.reasons), (order, e.reasons)

    @rule()
    def end_phase(self) -> None:
        g = self.game
        before = state_of(g)
        n = len(g.journal)
        try:
            g.end_phase()
        except ModelError:
            assert state_of(g) == before and len(g.journal) == n

    @rule()
    def defaults(self) -> None:
        for e in self.game.give_defaults():
            assert e.kind == "order", e.reasons

    @rule()
    def end_the_turn(self) -> None:
        settle_turn(self.game)

    @precondition(lambda self: len(self.game.journal) % 7 == 6)
    @rule()
    def saved_file_replays_and_validates(self) -> None:
        self.check_file()

    def check_file(self) -> None:
        text = dumps_any(self.game.scenario)
        again = Game(loads_any(text, SAMPLES[self.system]), self.system)
        assert dumps_any(again.scenario) == text
        problem = verify(again)
        assert problem is None, str(problem)

    @invariant()
    def turn_state_is_its_own(self) -> None:
        if hasattr(self, "game"):
            assert self.game.turn.side in self.sides

    def teardown(self) -> None:
        if hasattr(self, "game"):
            self.check_file()


def machine(name: str) -> type[Adversary]:
    return type(f"Adversary_{name}", (Adversary,), {"system": name})


SHORT = settings(max_examples=10, stateful_step_count=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
LONG = settings(max_examples=40, stateful_step_count=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_no_player_fools_or_stalls_the_referee(name: str) -> None:
    cls = machine(name)
    cls.TestCase.settings = SHORT
    cls.TestCase().runTest()


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_no_player_fools_or_stalls_the_referee_long(name: str) -> None:
    cls = machine(name)
    cls.TestCase.settings = LONG
    cls.TestCase().runTest()
