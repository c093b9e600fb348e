"""Rail Options: buying, placing, bombing, destroying and capturing rail
(``docs/rules/rail-options.md``, "Buying, building, bombing").

Each is an order of the turn engine with an ``action`` key (a rail move has
none):

* ``{"action": "buy", "nation": N, "piece": "station"|"railroad", "count": k}``
  (purchase phase) pays the option's price from ``state.rail_options.ipcs[N]``
  and puts the pieces in ``state.rail_options.bought[N]``;
* ``{"action": "place", "nation": N, "piece": ..., "territory": T}`` (place
  units phase) puts one bought piece on the map, marked ``purchased`` with
  the turn, so it cannot be used before the next turn;
* ``{"action": "bomb", "nation": N, "territory": T, "bombers": b, "aa": [...],
  "dice": [...]}`` or ``"seed": S`` instead of the dice (combat phase): a
  strategic bombing raid on the enemy rail in ``T``;
* ``{"action": "destroy", "nation": N, "territory": T, "piece": ...}``: a
  nation destroys its own rail during its own turn (Options 2 and 4);
* ``{"action": "capture", "nation": N, "territory": T}`` (combat phase): ``N``
  takes ``T`` once no unit of its enemies stands there; Option 1 removes its
  railroad marker, the other options keep what stands there for the new
  controller (usable after a full turn);
* ``{"action": "technology", "nation": N}`` (purchase phase, with the
  ``technology`` switch on): ``N`` gains the rail technology
  (``state.rail_options.technology``).

:func:`judge` gives a :class:`~engine.rules.base.SimpleVerdict`-like
:class:`EconomyVerdict`; :func:`carry_out` changes the scenario and returns an
:class:`EconomyRecord` whose ``undo`` puts back the territory and the
rail-options state exactly.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.model import ModelError
from engine.territory.model import BorderKind, Territory, TerritoryScenario

from .config import RAILROAD, STATION, SYSTEM, RailConfig

ACTIONS = {"buy": "purchase", "place": "place", "bomb": "combat", "capture": "combat", "destroy": None,
           "technology": "purchase"}
"""Each economy order and the phase it belongs to (``None``: any phase of the
nation's own turn)."""
TURN_ACTIONS = {"buy": "bought", "place": "placed", "bomb": "bombed", "destroy": "destroyed", "capture": "fought",
                "technology": "bought"}
"""What the turn state records for each (``engine/turns/state.py``)."""
PIECES = {"station": STATION, "railroad": RAILROAD}

PRICES: dict[int, dict[str, int]] = {1: {"station": 15, "railroad": 1}, 2: {"station": 10, "railroad": 1},
                                     3: {"station": 8}, 4: {"railroad": 3}}
"""The price of each piece an option has ("Cost: 15 (Rail Station) 1
(Railroad)", "Cost: 10 (Rail Station) 1 (Railroad)", "Cost: 8", "Cost: 3")."""
BOMB_TARGET = {1: "station", 2: "station", 3: "station", 4: "railroad"}
"""What a raid attacks under each option."""
DESTROY_OWN = frozenset({2, 4})
"""Options whose text lets a nation destroy its own rail ("Players may destroy
their own rail stations and railroad, however this must be done during the
controlling players turn")."""


@dataclass(frozen=True)
class EconomyVerdict:
    """Whether an economy order may be carried out, and why not."""

    ok: bool
    reasons: tuple[str, ...] = ()
    action: str = ""

    def to_data(self) -> dict[str, Any]:
        return {"ok": self.ok, "action": self.action, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class EconomyRecord:
    """What an economy order changed: the territory's controller, its start
    of control and features, and the rail-options state, all as they were;
    ``result`` is what happened (dice, damage, destroyed...)."""

    action: str
    territory: str | None
    before: dict[str, Any] | None
    state_before: Any
    result: dict[str, Any] = field(default_factory=dict)

    def undo(self, scenario: TerritoryScenario) -> None:
        if self.territory is not None and self.before is not None:
            t = scenario.territory(self.territory)
            t.controller = self.before["controller"]
            t.control_since = self.before["control_since"]
            t.control_since_side = self.before["control_since_side"]
            t.features = copy.deepcopy(self.before["features"])
        if self.state_before is None:
            scenario.state.pop(SYSTEM, None)
        else:
            scenario.state[SYSTEM] = copy.deepcopy(self.state_before)

    def to_data(self) -> dict[str, Any]:
        return {"action": self.action, "territory": self.territory, **self.result}


# -- reading ---------------------------------------------------------------

def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _state(s: TerritoryScenario, key: str) -> dict[str, Any]:
    """``state.rail_options[key]`` (empty when absent); a
    :class:`ModelError` names either when it is not an object."""
    st = s.state.get(SYSTEM, {})
    if not isinstance(st, dict):
        raise ModelError(f"state.{SYSTEM} must be an object, got {st!r}")
    raw = st.get(key, {})
    if not isinstance(raw, dict):
        raise ModelError(f"state.{SYSTEM}.{key} must be an object of nations, got {raw!r}")
    return raw


def ipcs(s: TerritoryScenario, nation: str) -> int | None:
    """The IPCs ``nation`` holds (``state.rail_options.ipcs[nation]``;
    ``None``: not recorded)."""
    raw = _state(s, "ipcs")
    v = raw.get(nation)
    if v is None:
        return None
    if not _whole(v) or v < 0:
        raise ModelError(f"state.rail_options.ipcs.{nation} must be a whole number of 0 or more, got {v!r}")
    return int(v)


def in_hand(s: TerritoryScenario, nation: str) -> dict[str, int]:
    """Pieces ``nation`` bought and has not placed yet
    (``state.rail_options.bought[nation]``)."""
    got = _state(s, "bought").get(nation, {})
    if not isinstance(got, dict) or not all(k in PIECES and _whole(v) and v >= 0 for k, v in got.items()):
        raise ModelError(f"state.rail_options.bought.{nation} must map station/railroad to counts, got {got!r}")
    return dict(got)


def side_to_move(s: TerritoryScenario) -> str | None:
    """The side to move in the game kept in the file (``None``: no game)."""
    game = s.state.get("game")
    turn = game.get("turn") if isinstance(game, dict) else None
    side = turn.get("side") if isinstance(turn, dict) else None
    return side if isinstance(side, str) else None


def technology(s: TerritoryScenario) -> list[str]:
    """The nations holding the rail technology
    (``state.rail_options.technology``)."""
    st = s.state.get(SYSTEM, {})
    raw = st.get("technology", []) if isinstance(st, dict) else []
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise ModelError(f"state.{SYSTEM}.technology must be a list of nations, got {raw!r}")
    return list(raw)


def raids_on(s: TerritoryScenario, tid: str, nation: str) -> int:
    """How many raids ``nation`` made on the rail in ``tid`` this turn
    (``state.rail_options.raids``: ``{"territory", "nation", "turn"}`` a
    raid)."""
    st = s.state.get(SYSTEM, {})
    raw = st.get("raids", []) if isinstance(st, dict) else []
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        raise ModelError(f"state.{SYSTEM}.raids must be a list of raids, got {raw!r}")
    return sum(1 for r in raw if r.get("territory") == tid and r.get("nation") == nation and r.get("turn") == s.turn)


def held_a_round(s: TerritoryScenario, t: Territory, nation: str) -> str | None:
    """Why ``nation`` may not build in ``t`` ("built in any territory
    controlled for 1(+) round"; ``None``: it may)."""
    if t.sea or t.impassable:
        return f"{t.name} is {'a sea zone' if t.sea else 'impassable'}: rail is built on land"
    if t.controller != nation:
        who = "nobody" if t.controller is None else s.side(t.controller).name
        return f"{t.name} is held by {who}, not {s.side(nation).name}: rail is built only in territory one controls"
    if t.control_since > 0 and s.turn - t.control_since < 1:
        return (f"{t.name} has been controlled by {s.side(nation).name} since turn {t.control_since}: rail may "
                f"be built only in a territory controlled for 1(+) round (from turn {t.control_since + 1})")
    return None


def removed_marker(t: Territory, option: int) -> bool:
    """Whether the railroad marker in ``t`` is out of play: under Option 1
    ("railroad markers are removed from play rather than captured") a marker
    that counts as captured (:func:`~.network.captured_on`) is gone."""
    from .network import captured_on

    f = t.features.get(RAILROAD)
    return option == 1 and isinstance(f, dict) and captured_on(t, f) is not None


def spacing_reason(s: TerritoryScenario, t: Territory, nation: str, spacing: int,
                   stations_need_railroad: bool = False) -> str | None:
    """Option 1: why a new station in ``t`` is too far from the nation's
    other stations ("Rail stations cannot be built any farther than 4
    territories away from one another, and must be connect by railroad
    markers"; ``None``: it may stand there).  Read as rail movement reads
    a line (``docs/rules/rail-options.md``, Option 1): the territories
    between the two stations carry railroad markers (a marker removed from
    play does not count), the station territories themselves need none and
    a station territory may be passed through; with ``stations_need_railroad``
    the station territories need a marker too.  The first station of a
    nation has no other to be near."""
    m = s.map
    others = {x.id for x in m.territories.values()
              if x.id != t.id and x.controller == nation and isinstance(x.features.get(STATION), dict)}
    if not others:
        return None

    def marker(x: Territory) -> bool:
        return isinstance(x.features.get(RAILROAD), dict) and not removed_marker(x, 1)

    if stations_need_railroad and not marker(t):
        return (f"{t.name} has no railroad marker: with stations_need_railroad a new station's territory needs "
                f"one, connected by railroad markers to another station no farther than {spacing} territories "
                f"away")
    seen = {t.id: 0}
    todo = deque([t.id])
    while todo:
        q = todo.popleft()
        if seen[q] >= spacing:
            continue
        for n in m.graph.neighbors(q):
            if n in seen or m.graph.edges[q, n]["border"].kind == BorderKind.CLOSED:
                continue
            x = m.territories[n]
            if n in others and (marker(x) or not stations_need_railroad):
                return None
            if marker(x) or (not stations_need_railroad and isinstance(x.features.get(STATION), dict)):
                seen[n] = seen[q] + 1
                todo.append(n)
    return (f"no station of {s.side(nation).name} is within {spacing} territories of {t.name} along railroad "
            f"markers: under Option 1 stations are no farther than {spacing} territories from one another and "
            f"connected by railroad markers")


def build_reason(s: TerritoryScenario, cfg: RailConfig, t: Territory, nation: str, piece: str) -> str | None:
    """Why ``nation`` may not build a ``piece`` (station, railroad) in ``t``
    under ``cfg`` (``None``: it may) — the question the editor's Station and
    Railroad tools ask in play mode."""
    if piece not in PRICES[cfg.option]:
        return f"Option {cfg.option} has no {'rail stations' if piece == 'station' else 'railroad markers'}"
    feature = t.features.get(PIECES[piece])
    if isinstance(feature, dict) and not (piece == "railroad" and removed_marker(t, cfg.option)):
        return f"{t.name} already has a {'rail station' if piece == 'station' else 'railroad marker'}"
    why = held_a_round(s, t, nation)
    if why is None and piece == "station" and cfg.option == 1:
        why = spacing_reason(s, t, nation, cfg.station_spacing, cfg.stations_need_railroad)
    return why


# -- judging ---------------------------------------------------------------

def _text(order: Mapping[str, Any], key: str) -> str | None:
    v = order.get(key)
    return v if isinstance(v, str) and v else None


def _dice(order: Mapping[str, Any], key: str, n: int) -> list[int] | str:
    """The ``n`` dice of ``order[key]`` or why they are wrong."""
    v = order.get(key)
    if not isinstance(v, list) or len(v) != n or not all(_whole(d) and 1 <= d <= 6 for d in v):
        return f"\"{key}\" must be a list of {n} die roll{'s' if n != 1 else ''} (1 to 6), got {v!r}"
    return list(v)


def raid(cfg: RailConfig, order: Mapping[str, Any]) -> dict[str, Any] | str:
    """A raid's dice: anti-aircraft first (a station's "Built-in
    Anti-Aircraft": one die a bomber, ``anti_aircraft_hit`` or less shoots it down), then
    one die for each bomber left.  The dice are the order's (``aa``,
    ``dice``) or rolled by ``random.Random(seed)``; a string says what is
    wrong with the order."""
    b = order.get("bombers", 1)
    if not _whole(b) or not 1 <= b <= 99:
        return f"\"bombers\" must be a whole number from 1 to 99, got {b!r}"
    seed = order.get("seed")
    rng = None
    if "dice" not in order:
        if not _whole(seed):
            return ("a raid needs its dice (\"aa\" and \"dice\"), a \"seed\" to roll them, or the game master's "
                    "committed dice seed (adjutant dice GAME --commit)")
        rng = random.Random(seed)
    aa_fires = BOMB_TARGET[cfg.option] == "station"
    aa: list[int] = []
    if aa_fires:
        got = [rng.randint(1, 6) for _ in range(b)] if rng else _dice(order, "aa", b)
        if isinstance(got, str):
            return got
        aa = got
    left = b - sum(1 for d in aa if d <= cfg.anti_aircraft_hit)
    dice = [rng.randint(1, 6) for _ in range(left)] if rng else _dice(order, "dice", left)
    if isinstance(dice, str):
        return dice
    out: dict[str, Any] = {"bombers": b, "shot_down": b - left, "dice": dice}
    if aa_fires:
        out["aa"] = aa
    if rng is not None:
        out["seed"] = seed
    return out


def roll_raid(s: TerritoryScenario, cfg: RailConfig, order: Mapping[str, Any],
              roll: Callable[..., int] | None) -> tuple[str, Mapping[str, Any]] | None:
    """A raid's dice as the turn engine's verifiable dice give them:
    ``("typed", order)`` for a raid carrying its dice (or its own
    ``seed``), ``("rolled", filled)`` with ``aa`` and ``dice`` rolled through
    ``roll`` (anti-aircraft fire first, then the bombing dice of the
    bombers left), ``None`` for any other order or when there is nothing to
    roll with."""
    if order.get("action") != "bomb":
        return None
    if "dice" in order or "seed" in order:
        return "typed", order
    b = order.get("bombers", 1)
    if roll is None or not _whole(b) or not 1 <= b <= 99:
        return None
    where = _text(order, "territory") or "?"
    aa: list[int] = []
    if BOMB_TARGET[cfg.option] == "station":
        aa = [roll(6, f"anti-aircraft fire at bomber {i + 1} of {b} over {where}", "aa", i) for i in range(b)]
    left = b - sum(1 for d in aa if d <= cfg.anti_aircraft_hit)
    dice = [roll(6, f"bombing die {i + 1} of {left} on {where}", "dice", i) for i in range(left)]
    filled = dict(order)
    if aa:
        filled["aa"] = aa
    filled["dice"] = dice
    return "rolled", filled


def judge(s: TerritoryScenario, cfg: RailConfig, order: Mapping[str, Any]) -> EconomyVerdict:
    """Whether the economy ``order`` may be carried out now."""
    action = str(order.get("action"))
    def no(why: str) -> EconomyVerdict:
        return EconomyVerdict(False, (why,), action)

    if action not in ACTIONS:
        return no(f"unknown rail-options action {order.get('action')!r} (known: {', '.join(ACTIONS)})")
    nation_text = _text(order, "nation")
    if nation_text is None:
        return no(f"a {action} order names its \"nation\"")
    nation = s.side(nation_text).id  # ModelError names an unknown side
    moving = side_to_move(s)
    if moving is not None and moving != nation:
        return no(f"It is {s.side(moving).name}'s turn: {s.side(nation).name} cannot {action} now.")
    if action == "buy":
        return _judge_buy(s, cfg, order, nation)
    if action == "technology":
        if not cfg.technology:
            return no("the rail technology is not in this game (the technology switch is off)")
        if nation in technology(s):
            return no(f"{s.side(nation).name} already has the rail technology")
        return EconomyVerdict(True, (), action)
    tid = _text(order, "territory")
    if tid is None:
        return no(f"a {action} order names its \"territory\"")
    t = s.territory(tid)
    if action == "place":
        piece = order.get("piece")
        if not isinstance(piece, str) or piece not in PIECES:
            return no(f"\"piece\" must be station or railroad, got {piece!r}")
        if in_hand(s, nation).get(piece, 0) < 1:
            return no(f"{s.side(nation).name} has no {piece} bought and not yet placed")
        why = build_reason(s, cfg, t, nation, piece)
        return no(why) if why else EconomyVerdict(True, (), action)
    if action == "capture":
        if t.sea or t.impassable or t.controller is None or s.allied(t.controller, nation):
            return no(f"{t.name} is not enemy land {s.side(nation).name} can capture")
        defenders = [u for u in s.units_in(t.id) if not s.allied(u.side, nation)]
        if defenders:
            who = ", ".join(f"{s.side(u.side).name} {u.type} {u.id}" for u in defenders)
            return no(f"{who} still {'stand' if len(defenders) > 1 else 'stands'} in {t.name}: a territory is "
                      f"captured only when no defending unit is left in it")
        return EconomyVerdict(True, (), action)
    if action == "destroy":
        piece = order.get("piece")
        if not isinstance(piece, str) or piece not in PIECES:
            return no(f"\"piece\" must be station or railroad, got {piece!r}")
        if cfg.option not in DESTROY_OWN:
            return no(f"under Option {cfg.option} the rule lets no nation destroy its own rail (Options 2 and 4 do)")
        if piece not in PRICES[cfg.option]:
            return no(f"Option {cfg.option} has no {'rail stations' if piece == 'station' else 'railroad markers'}: "
                      f"it destroys {' and '.join(PRICES[cfg.option])} only")
        if t.controller != nation:
            return no(f"{t.name} is not controlled by {s.side(nation).name}: a nation destroys only its own rail")
        if not isinstance(t.features.get(PIECES[piece]), dict):
            return no(f"{t.name} has no {piece} to destroy")
        return EconomyVerdict(True, (), action)
    target = BOMB_TARGET[cfg.option]
    if t.controller is None or s.allied(t.controller, nation):
        return no(f"{t.name} is not held by an enemy of {s.side(nation).name}: a raid bombs enemy rail")
    f = t.features.get(PIECES[target])
    if not isinstance(f, dict):
        return no(f"{t.name} has no {'rail station' if target == 'station' else 'railroad marker'} to bomb "
                  f"(Option {cfg.option} raids bomb {target}s)")
    done = raids_on(s, t.id, nation)
    if cfg.raids_per_turn and done >= cfg.raids_per_turn:
        return no(f"{s.side(nation).name} has already raided the {'rail station' if target == 'station' else 'railroad'}"
                  f" in {t.name} {done} time{'s' if done != 1 else ''} this turn: at most {cfg.raids_per_turn} "
                  f"raid{'s' if cfg.raids_per_turn != 1 else ''} on a target a turn (option raids_per_turn)")
    rolled = raid(cfg, order)
    return no(rolled) if isinstance(rolled, str) else EconomyVerdict(True, (), action)


def _judge_buy(s: TerritoryScenario, cfg: RailConfig, order: Mapping[str, Any], nation: str) -> EconomyVerdict:
    piece, n = order.get("piece"), order.get("count", 1)
    def no(why: str) -> EconomyVerdict:
        return EconomyVerdict(False, (why,), "buy")

    if not isinstance(piece, str) or piece not in PIECES:
        return no(f"\"piece\" must be station or railroad, got {piece!r}")
    if piece not in PRICES[cfg.option]:
        return no(f"Option {cfg.option} has no {'rail stations' if piece == 'station' else 'railroad markers'} to buy")
    if not _whole(n) or not 1 <= n <= 999:
        return no(f"\"count\" must be a whole number from 1 to 999, got {n!r}")
    have = ipcs(s, nation)
    if have is None:
        return no(f"{s.side(nation).name} has no IPCs recorded (state.rail_options.ipcs.{nation})")
    cost = PRICES[cfg.option][piece] * n
    if cost > have:
        return no(f"{n} {piece}{'s' if n != 1 else ''} cost {cost} IPCs under Option {cfg.option} "
                  f"({PRICES[cfg.option][piece]} each); {s.side(nation).name} has {have}")
    return EconomyVerdict(True, (), "buy")


# -- carrying out ------------------------------------------------------------

def carry_out(s: TerritoryScenario, cfg: RailConfig, order: Mapping[str, Any]) -> EconomyRecord:
    """Carry out an order :func:`judge` allowed; the record undoes it."""
    action = str(order["action"])
    nation = s.side(str(order["nation"])).id
    tid = s.territory(str(order["territory"])).id if action not in ("buy", "technology") else None
    before = None
    if tid is not None:
        t0 = s.territory(tid)
        before = {"controller": t0.controller, "control_since": t0.control_since,
                  "control_since_side": t0.control_since_side, "features": copy.deepcopy(t0.features)}
    state_before = copy.deepcopy(s.state.get(SYSTEM))
    st = s.state.setdefault(SYSTEM, {})
    result: dict[str, Any] = {"nation": nation}
    if action == "buy":
        piece, n = str(order["piece"]), int(order.get("count", 1))
        cost = PRICES[cfg.option][piece] * n
        st.setdefault("ipcs", {})[nation] -= cost
        hand = st.setdefault("bought", {}).setdefault(nation, {})
        hand[piece] = hand.get(piece, 0) + n
        result.update(piece=piece, count=n, cost=cost, ipcs=st["ipcs"][nation])
        return EconomyRecord(action, None, None, state_before, result)
    if action == "technology":
        st["technology"] = sorted({*technology(s), nation})
        result.update(technology=True)
        return EconomyRecord(action, None, None, state_before, result)
    assert tid is not None
    t = s.territory(tid)
    if action == "place":
        piece = str(order["piece"])
        hand = st["bought"][nation]
        hand[piece] -= 1
        if not hand[piece]:
            del hand[piece]
        if not hand:
            del st["bought"][nation]
        t.features[PIECES[piece]] = {"purchased": s.turn}
        result.update(piece=piece, purchased=s.turn)
    elif action == "capture":
        result.update(held_by=t.controller)
        t.controller, t.control_since, t.control_since_side = nation, s.turn, nation
        if cfg.option == 1 and RAILROAD in t.features:
            del t.features[RAILROAD]
            result["railroad_removed"] = True
    elif action == "destroy":
        piece = str(order["piece"])
        del t.features[PIECES[piece]]
        result.update(piece=piece, destroyed=True)
    else:
        rolled = raid(cfg, order)
        assert not isinstance(rolled, str)
        result.update(rolled)
        st.setdefault("raids", []).append({"territory": tid, "nation": nation, "turn": s.turn})
        target = BOMB_TARGET[cfg.option]
        key = PIECES[target]
        if cfg.option in (1, 3):
            f = dict(t.features[key])
            old = int(f.get("damage", 0))
            new = min(cfg.max_damage, old + sum(rolled["dice"]))
            f["damage"] = new
            t.features[key] = f
            result.update(target=target, damage_before=old, damage=new,
                          inoperable=new >= cfg.inoperable_damage)
        else:
            hit = any(d <= cfg.bomber_attack for d in rolled["dice"])
            if hit:
                del t.features[key]
            result.update(target=target, destroyed=hit)
    if not st and state_before is None:
        del s.state[SYSTEM]
    return EconomyRecord(action, tid, before, state_before, result)


def nation_report(s: TerritoryScenario, cfg: RailConfig, nation: str) -> dict[str, Any]:
    """``nation``'s rail this turn: capacity and what is used, Option 4
    points, its stations (damage, usable or why not), markers, IPCs and the
    pieces bought and not placed (``adjutant rail-options --nation``)."""
    from .network import RailGround

    g = RailGround(s, cfg, "noncombat")
    side = s.side(nation)
    load = g.nation_load(side.id)
    stations = []
    for t in s.map.territories.values():
        f = g.station(t)
        if f is None or t.controller != side.id:
            continue
        why = g.station_reason(t, side.id)
        stations.append({"territory": t.id, "name": t.name, "damage": int(f.get("damage", 0)),
                         "usable": why is None, "reason": why})
    markers = sorted(t.id for t in s.map.territories.values()
                     if g.railroad(t) is not None and t.controller == side.id)
    return {"nation": side.id, "name": side.name, "option": cfg.option, "turn": s.turn,
            "capacity": None if load is None else load.to_data(),
            "technology": g.has_tech(side.id), "ipcs": ipcs(s, side.id), "income": g.income(side.id)[0],
            "bought": in_hand(s, side.id), "prices": PRICES[cfg.option], "stations": stations,
            "railroad": markers}
