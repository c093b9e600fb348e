"""The conformance kit: what every rules system must do, checked by one call
a plugin's own tests make (``docs/developing.md``, "A rules system as a
plugin")::

    from engine.conformance import check_system

    def test_conformance():
        problems = check_system("leap", scenario=load_any("tests/leap.json"),
                                golden=json.loads(Path("tests/golden.json").read_text()))
        assert not problems, "\\n".join(problems)

:func:`check_system` returns every problem found (an empty list when the
system conforms), one sentence each:

* **interface**: registered under its name, a title, map kinds among
  ``square``/``hex``/``territory`` including the scenario's, ``Options``
  and ``Order`` frozen dataclasses, ``to_data()`` as JSON;
* **options**: the defaults read from nothing, the scenario's options read,
  an unknown option key refused with an ``OptionError`` naming it, an
  unknown order key likewise;
* **golden cases** (optional): each order case run as ``tests/golden/*.json``
  order cases are (verdict ``ok`` and a subset of ``to_data()``, the
  record's data, undo);
* **check, apply, undo**: for orders drawn at random (each unit to random
  cells): ``check`` never changes the scenario and gives a verdict (``ok``,
  ``reasons`` as sentences, ``to_data()`` as JSON); an order it refuses,
  ``apply`` refuses with ``RefusedOrder`` and changes nothing; one it
  allows, ``apply`` carries out and the record's ``undo`` gives back the
  scenario exactly;
* **a short random game** through the turn engine (:class:`engine.turns.game.Game`):
  orders given by the side to move, phases ended, the journal kept, every
  entry undone back to the start.

Orders are ``{"unit": ID, "to": CELL}`` unless ``orders`` gives a function
``(scenario, rng) -> order`` of the system's own.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from .model import ModelError
from .rules.base import OptionError, RefusedOrder, RulesSystem, read_options
from .rules.registry import MAP_KINDS, get

OrderMaker = Callable[[Any, random.Random], Mapping[str, Any]]


def contains(got: Any, want: Any, where: str = "$") -> list[str]:
    """Where ``got`` differs from ``want``: dicts are matched as subsets,
    recursively; lists and scalars exactly."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        out = []
        for k, v in want.items():
            if k not in got:
                out.append(f"{where}.{k}: missing")
            else:
                out.extend(contains(got[k], v, f"{where}.{k}"))
        return out
    return [] if got == want else [f"{where}: expected {want!r}, got {got!r}"]


def snapshot(scenario: Any) -> Any:
    """Everything an order may change, as comparable data: units (place,
    strength, properties), the state, and the map's layers when it has them."""
    units = [(u.id, u.side, u.type, u.at, getattr(u, "strength", None), copy.deepcopy(getattr(u, "props", {})))
             for u in scenario.units]
    m = getattr(scenario, "map", None)
    layers: Any = None
    if m is not None and hasattr(m, "terrain"):
        layers = (m.terrain.tobytes(), m.control.tobytes(), sorted(m.rivers), sorted(m.bridges.items()),
                  sorted((k, sorted(v)) for k, v in m.links.items()))
    return units, json.dumps(scenario.state, sort_keys=True, default=repr), layers


def _json(data: Any, what: str) -> list[str]:
    try:
        json.dumps(data)
    except (TypeError, ValueError) as e:
        return [f"{what} is not JSON data: {e}"]
    return []


def _verdict_problems(v: Any, what: str) -> list[str]:
    out = []
    if not isinstance(getattr(v, "ok", None), bool):
        out.append(f"{what}: the verdict's ok is not true or false")
    reasons = getattr(v, "reasons", None)
    if not isinstance(reasons, tuple) or not all(isinstance(r, str) and r for r in reasons):
        out.append(f"{what}: the verdict's reasons are not a tuple of sentences")
    elif getattr(v, "ok", True) is False and not reasons:
        out.append(f"{what}: a refusal gives no reason")
    to_data = getattr(v, "to_data", None)
    if not callable(to_data):
        out.append(f"{what}: the verdict has no to_data()")
    else:
        out += _json(to_data(), f"{what}: the verdict's to_data()")
    return out


def default_orders(scenario: Any, rng: random.Random) -> Mapping[str, Any]:
    """``{"unit": ID, "to": CELL}``: a random unit to a random cell (on grid
    maps) or territory, near it half the time."""
    u = rng.choice(scenario.units)
    m = scenario.map
    if hasattr(m, "grid"):
        grid = m.grid
        near = [c for c in grid.disc(u.at, 3) if grid.contains(c)] if rng.random() < 0.7 else []
        cell = rng.choice(near) if near else type(u.at)(rng.randrange(m.width), rng.randrange(m.height))
        return {"unit": u.id, "to": m.label(cell)}
    ids = sorted(m.territories) if hasattr(m, "territories") else []
    return {"unit": u.id, "to": rng.choice(ids) if ids else str(u.at)}


def check_interface(system: RulesSystem[Any, Any], scenario: Any) -> list[str]:
    out = []
    for attr in ("name", "title", "Options", "Order"):
        if not getattr(system, attr, None):
            out.append(f"the system has no {attr}")
    kinds = set(getattr(system, "map_kinds", ()))
    if not kinds or not kinds <= MAP_KINDS:
        out.append(f"map_kinds must be some of {sorted(MAP_KINDS)}, got {sorted(kinds)}")
    kind = _map_kind(scenario)
    if kind is not None and kind not in kinds:
        out.append(f"the scenario's map is {kind}, not one of the system's map kinds {sorted(kinds)}")
    for attr in ("Options", "Order"):
        cls = getattr(system, attr, None)
        if cls is None or not dataclasses.is_dataclass(cls):
            out.append(f"{attr} is not a dataclass")
        elif not _frozen(cls):
            out.append(f"{attr} is not frozen (frozen=True)")
    try:
        if get(system.name) is not system:
            out.append(f"the registry holds another system under the name {system.name!r}")
        out += _json(system.to_data(), "the system's to_data()")
    except Exception as e:  # noqa: BLE001 -- every failure is a problem reported
        out.append(f"the system cannot describe itself: {type(e).__name__}: {e}")
    return out


def _frozen(cls: Any) -> bool:
    params: Any = vars(cls).get("__dataclass_params__")
    return bool(params is not None and params.frozen)


def _map_kind(scenario: Any) -> str | None:
    m = getattr(scenario, "map", None)
    grid = getattr(m, "grid", None)
    if grid is None:
        return "territory" if m is not None else None
    kind: Any = getattr(grid, "kind", None)
    return str(kind.value) if kind is not None and hasattr(kind, "value") else None


def check_options(system: RulesSystem[Any, Any], scenario: Any) -> list[str]:
    out = []
    try:
        read_options(system.Options, None, "defaults")
    except Exception as e:  # noqa: BLE001
        out.append(f"the options' defaults do not read: {type(e).__name__}: {e}")
    try:
        system.options(scenario)
    except Exception as e:  # noqa: BLE001
        out.append(f"the scenario's options do not read: {type(e).__name__}: {e}")
    try:
        system.read_options({"__conformance_unknown__": 1})
        out.append("an unknown option key is accepted")
    except OptionError as e:
        if "__conformance_unknown__" not in str(e):
            out.append(f"the refusal of an unknown option key does not name it: {e}")
    except Exception as e:  # noqa: BLE001
        out.append(f"an unknown option key raises {type(e).__name__}, not OptionError: {e}")
    try:
        system.read_order({"__conformance_unknown__": 1})
        out.append("an unknown order key is accepted")
    except ModelError as e:
        if "__conformance_unknown__" not in str(e):
            out.append(f"the refusal of an unknown order key does not name it: {e}")
    except Exception as e:  # noqa: BLE001
        out.append(f"an unknown order key raises {type(e).__name__}, not ModelError: {e}")
    return out


def run_order_case(system: RulesSystem[Any, Any], scenario: Any, case: Mapping[str, Any]) -> list[str]:
    """Mismatches of one golden order case (``{"order", "ok", "expect",
    "applied"}`` or ``{"order", "error"}``); empty when it passes."""
    name = case.get("name", case.get("order"))
    try:
        verdict = system.check(scenario, case["order"])
    except ModelError as e:
        if "error" in case:
            return [] if str(e) == case["error"] else [f"{name}: error: expected {case['error']!r}, got {str(e)!r}"]
        return [f"{name}: the check raised {e}"]
    if "error" in case:
        return [f"{name}: expected the error {case['error']!r}, got a verdict: {verdict.to_data()}"]
    out = []
    if verdict.ok != case["ok"]:
        out.append(f"{name}: ok: expected {case['ok']}, got {verdict.ok} ({' '.join(verdict.reasons)})")
    out += [f"{name}: {p}" for p in contains(verdict.to_data(), case.get("expect", {}))]
    if "applied" in case and verdict.ok:
        before = snapshot(scenario)
        record = system.apply(scenario, case["order"])
        out += [f"{name}: applied {p}" for p in contains(record.to_data(), case["applied"])]
        record.undo(scenario)
        if snapshot(scenario) != before:
            out.append(f"{name}: undoing the applied order did not give back the scenario")
    return out


def check_golden(system: RulesSystem[Any, Any], scenario: Any, golden: Mapping[str, Any],
                 load: Callable[[str], Any] | None = None) -> list[str]:
    """Every order case of a golden file's data: on ``scenario``, or on
    ``load(case["scenario"])`` when a case names its own file."""
    out = []
    if golden.get("system") not in (None, system.name):
        out.append(f"the golden cases are for {golden.get('system')!r}, not {system.name!r}")
    for case in golden.get("cases", []):
        if "order" not in case:
            continue
        s = load(case["scenario"]) if load is not None and "scenario" in case else copy.deepcopy(scenario)
        if "options" in case:
            s.ruleset.options[system.name] = dict(case["options"])
        out += run_order_case(system, s, case)
    return out


def check_apply_undo(system: RulesSystem[Any, Any], scenario: Any, orders: OrderMaker, rng: random.Random,
                     count: int = 40) -> list[str]:
    """Random orders: check changes nothing; apply refuses what check
    refuses and carries out what it allows; undo gives the scenario back."""
    out: list[str] = []
    s = copy.deepcopy(scenario)
    allowed = 0
    for _ in range(count):
        order = dict(orders(s, rng))
        before = snapshot(s)
        what = f"order {order}"
        try:
            v = system.check(s, order)
        except ModelError:
            if snapshot(s) != before:
                out.append(f"{what}: a check that raised changed the scenario")
            continue
        except Exception as e:  # noqa: BLE001
            out.append(f"{what}: the check raised {type(e).__name__} (not a ModelError): {e}")
            continue
        if snapshot(s) != before:
            out.append(f"{what}: check changed the scenario")
            continue
        out += _verdict_problems(v, what)
        if not v.ok:
            try:
                system.apply(s, order)
                out.append(f"{what}: apply carried out an order its check refuses")
            except RefusedOrder:
                pass
            if snapshot(s) != before:
                out.append(f"{what}: a refused apply changed the scenario")
            continue
        allowed += 1
        try:
            record = system.apply(s, order)
        except Exception as e:  # noqa: BLE001
            out.append(f"{what}: apply of an allowed order raised {type(e).__name__}: {e}")
            continue
        out += _json(record.to_data(), f"{what}: the record's to_data()")
        after = snapshot(s)
        record.undo(s)
        if snapshot(s) != before:
            out.append(f"{what}: undo did not give back the scenario")
        elif rng.random() < 0.5:  # keep the move: later orders start from it
            system.apply(s, order)
            if snapshot(s) != after:
                out.append(f"{what}: applying it again gave another result")
    if not allowed:
        out.append(f"none of {count} random orders was allowed: give orders= that the rules can allow")
    return out


def check_random_game(system: RulesSystem[Any, Any], scenario: Any, orders: OrderMaker, rng: random.Random,
                      steps: int = 30) -> list[str]:
    """A short game through the turn engine; every entry undone gives the
    start back."""
    from .turns.game import Game

    out: list[str] = []
    s = copy.deepcopy(scenario)
    s.state.pop("game", None)
    start = snapshot(s)
    try:
        g = Game(s, system)
    except Exception as e:  # noqa: BLE001
        return [f"the turn engine cannot start a game: {type(e).__name__}: {e}"]
    given = 0
    for _ in range(steps):
        try:
            if rng.random() < 0.15:
                g.end_phase()
                continue
            side = g.turn.side
            mine = [u for u in s.units if side is None or u.side == side] or s.units
            pick = copy.copy(s)
            pick.units = mine
            order = dict(orders(pick, rng))
            entry = g.give(order)
            given += entry.kind == "order"
        except ModelError:
            continue
        except Exception as e:  # noqa: BLE001
            out.append(f"the game failed: {type(e).__name__}: {e}")
            return out
    try:
        while len(g.journal):
            g.undo()
    except Exception as e:  # noqa: BLE001
        out.append(f"undoing the game failed: {type(e).__name__}: {e}")
        return out
    s.state.pop("game", None)
    if snapshot(s) != start:
        out.append("undoing every journal entry did not give back the start of the game")
    return out


def check_system(system: RulesSystem[Any, Any] | str, *, scenario: Any, golden: Mapping[str, Any] | None = None,
                 load: Callable[[str], Any] | None = None, orders: OrderMaker | None = None, seed: int = 1,
                 random_orders: int = 40, game_steps: int = 30) -> list[str]:
    """Every problem the kit finds with ``system`` on ``scenario`` (see the
    module docstring); an empty list when it conforms."""
    try:
        sys_ = get(system) if isinstance(system, str) else system
    except ModelError as e:
        return [str(e)]
    make = orders or default_orders
    out = check_interface(sys_, scenario)
    out += check_options(sys_, scenario)
    if golden is not None:
        out += check_golden(sys_, scenario, golden, load)
    out += check_apply_undo(sys_, scenario, make, random.Random(seed), random_orders)
    out += check_random_game(sys_, scenario, make, random.Random(seed + 1), game_steps)
    return out


__all__ = ["check_apply_undo", "check_golden", "check_interface", "check_options", "check_random_game",
           "check_system", "contains", "default_orders", "run_order_case", "snapshot"]
