"""The movement system (``docs/rules/movement.md``): options read and checked
generically, the four zone-of-control rules, friendly pass-through, links,
side features on square and hex maps, the reasons for every "no", and a
game through the turn engine with its journal and undo."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from engine.grids import Cell, Edge, HexGrid, SquareGrid
from engine.io import load_any
from engine.labels import NumericNumbering
from engine.model import Faction, GridMap, ModelError, Ruleset, Scenario, TerrainType, Unit, UnitType
from engine.rules import registry
from engine.rules.base import OptionError, RefusedOrder
from engine.rules.movement import MovementOptions, SideRule, check_move, options_for, reach
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parents[2]
FEATURES = str(ROOT / "maps" / "movement_features.json")


def features(**changes: Any) -> Scenario:
    s = load_any(FEATURES)
    assert isinstance(s, Scenario)
    s.ruleset.options["movement"].update(changes)
    return s


def test_registered_for_grid_maps() -> None:
    m = registry.get("movement")
    assert m in registry.for_map_kind("square") and m in registry.for_map_kind("hex")
    assert m not in registry.for_map_kind("territory")
    assert registry.is_builtin(m)
    assert m.order_keys == ("unit", "to")


def test_options_are_read_by_the_generic_reader() -> None:
    o = options_for(features())
    assert o.zoc == "locked" and o.stacking.limit == 6 and o.stacking.by == "factors" and not o.friendly_pass
    foot = o.classes["foot"]
    assert foot.sides["road"] == SideRule() and foot.sides["river"] == SideRule(add=Fraction(2))
    assert o.classes["wheeled"].links["road"] == Fraction(1, 2)
    assert o.classes["wheeled"].terrain["forest"] is None
    assert o.class_of("truck")[0] == "wheeled" and o.class_of("nobody")[0] == "default"
    assert MovementOptions().zoc == "stop"


@pytest.mark.parametrize(("raw", "message"), [
    ({"zoc": "sticky"}, "ruleset.options.movement.zoc must be 'none', 'stop', 'stop_leave' or 'locked', got 'sticky'"),
    ({"classes": {"a": {"terrain": {"clear": -1}}}},
     'ruleset.options.movement.classes.a.terrain.clear must be a cost of 0 or more (like 2, 1.5 or "1/2") or '
     '"prohibited", got -1'),
    ({"classes": {"a": {"unit_types": ["inf"]}, "b": {"unit_types": ["inf"]}}},
     "ruleset.options.movement.classes: unit type 'inf' is in both 'a' and 'b'"),
    ({"stacking": {"by": "weight"}}, "ruleset.options.movement.stacking.by must be 'count' or 'factors', got 'weight'"),
    ({"zoc": "stop", "zoc_leave_cost": 2}, 'ruleset.options.movement.zoc_leave_cost is for zoc "stop_leave", not \'stop\''),
    ({"speed": 3}, "unknown option ruleset.options.movement.speed"),
])
def test_bad_options_are_named(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as e:
        options_for(features(**raw) if "classes" not in raw else _with_options(raw))
    assert str(e.value).startswith(message)


def _with_options(raw: dict[str, Any]) -> Scenario:
    s = load_any(FEATURES)
    assert isinstance(s, Scenario)
    s.ruleset.options["movement"] = raw
    return s


def test_options_naming_what_the_ruleset_lacks_are_refused() -> None:
    s = _with_options({"classes": {"a": {"unit_types": ["inf"], "terrain": {"marsh": 2}}}})
    with pytest.raises(ModelError, match=r"classes.a.terrain.marsh: no terrain 'marsh' in the ruleset"):
        reach(s, "I1")
    s = _with_options({"classes": {"a": {"unit_types": ["tank"]}}})
    with pytest.raises(ModelError, match=r"classes.a.unit_types: no unit type 'tank'"):
        reach(s, "I1")
    s = _with_options({"hexsides": {"wall": [["1-1", "3-3"]]}})
    with pytest.raises(ModelError, match=r"hexsides.wall\[0\]: 1-1 and 3-3 share no side"):
        reach(s, "I1")


@pytest.mark.parametrize(("zoc", "extra", "cost"), [
    ("none", {}, 1),  # straight up the column
    ("stop", {}, 1),  # it may leave the zone it starts in
    ("stop_leave", {"zoc_leave_cost": 2}, 3),  # leaving costs 2 more
    ("locked", {}, 4),  # not straight into another zone: round by the ford
])
def test_zones_of_control(zoc: str, extra: dict[str, Any], cost: int) -> None:
    s = features(zoc=zoc, **extra)
    v = check_move(s, "Z1", s.map.parse_label("7-2"))
    assert v.ok and v.cost == cost
    assert v.stop == (zoc != "none")


def test_zoc_none_lets_a_move_pass_next_to_the_enemy() -> None:
    s = features(zoc="none")
    assert check_move(s, "Z1", s.map.parse_label("8-1")).cost == 2


def test_friendly_units_passed_through_when_allowed() -> None:
    s = features(friendly_pass=True)
    v = check_move(s, "T1", s.map.parse_label("4-5"))
    assert v.ok and v.cost == Fraction(3, 2) and [p.via for p in v.path] == ["road", "road", "road"]
    assert check_move(features(), "T1", s.map.parse_label("4-5")).cost == Fraction(5, 2)


def test_every_reason_for_no() -> None:
    s = features()
    assert check_move(s, "T1", s.map.parse_label("3-3")).reasons == (
        "T1 cannot enter 3-3 from any side: lake is prohibited to wheeled units",)
    v = check_move(s, "I1", s.map.parse_label("8-4"))
    assert not v.ok and v.reasons[0].startswith("I1 cannot reach 8-4: the cheapest route costs")


def _hex_scenario(options: dict[str, Any]) -> Scenario:
    grid = HexGrid(6, 5)
    gm = GridMap(grid, NumericNumbering())
    a, b = Cell(2, 2), Cell(3, 2)
    gm.rivers.add(Edge.between(a, b))
    rs = Ruleset("hex", [TerrainType("clear", "Clear", ".", "#ffffff")], [UnitType("inf", "Infantry", 3)],
                 options={"movement": options})
    return Scenario("hex", rs, [Faction("N", "North", "#0000ff", "N")], gm, [Unit("U", "N", "inf", a)])


def test_hex_maps_river_prohibited_and_negated_at_a_ford() -> None:
    s = _hex_scenario({"classes": {"inf": {"unit_types": ["inf"], "sides": {"river": "prohibited"}}}})
    target = Cell(3, 2)
    v = check_move(s, "U", target)
    assert v.ok and v.cost == 2  # round the river's end
    s.map.bridges[Edge.between(Cell(2, 2), target)] = "ford"
    s.ruleset.options["movement"]["classes"]["inf"]["sides"]["ford"] = {"add": 0}
    v = check_move(s, "U", target)
    assert v.ok and v.cost == 1 and v.path[0].sides == ("river (ford crossing)",)


def test_square_maps_with_four_neighbours() -> None:
    s = load_any(FEATURES)
    assert isinstance(s, Scenario)
    gm = s.map
    four = GridMap(SquareGrid(gm.width, gm.height, 4), gm.numbering, gm.terrain.copy(), gm.control.copy())
    four.rivers, four.bridges, four.links = set(gm.rivers), dict(gm.bridges), {k: set(v) for k, v in gm.links.items()}
    s.map = four
    assert check_move(s, "I1", four.parse_label("2-4")).cost == 3  # no diagonal: 2-5 then over the wall


def test_a_game_through_the_turn_engine(tmp_path: Path) -> None:
    s = load_any(FEATURES)
    before = copy.deepcopy([(u.id, u.at) for u in s.units])
    g = Game(s)
    assert g.system.name == "movement" and g.phases == ("movement",)
    e = g.give({"unit": "I1", "to": "1-4"})
    assert e.kind == "order" and s.unit("I1").at == s.map.parse_label("1-4")
    again = g.give({"unit": "I1", "to": "1-3"})
    assert again.kind == "refused"
    refused = g.give({"unit": "T1", "to": "6-1"})
    assert refused.kind == "refused" and "forest is prohibited" in " ".join(refused.reasons)
    g.end_phase()
    assert g.turn.side == "S"
    while len(g.journal):
        g.undo()
    assert [(u.id, u.at) for u in s.units] == before
    with pytest.raises(RefusedOrder, match="8-6 is held by the enemy"):
        registry.get("movement").apply(s, {"unit": "I1", "to": "8-6"})


def test_orders_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.json"
    game.write_text(Path(FEATURES).read_text(encoding="utf-8"), encoding="utf-8")
    orders = tmp_path / "o.json"
    orders.write_text(json.dumps([{"unit": "T1", "to": "7-5"}, {"unit": "I1", "to": "8-6"}]), encoding="utf-8")
    code = main(["orders", str(game), "--orders", str(orders), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    kinds = [e["kind"] for e in out["entries"]]
    assert kinds == ["order", "refused"]
    saved = json.loads(game.read_text(encoding="utf-8"))
    assert next(u for u in saved["units"] if u["id"] == "T1")["at"] == "7-5"
    assert saved["state"]["game"]["system"] == "movement"


def test_a_class_stacking_limit_of_its_own() -> None:
    s = features(stacking={"limit": None, "by": "factors"})
    s.ruleset.options["movement"]["classes"]["foot"]["stack_limit"] = 6
    v = check_move(s, "I1", s.map.parse_label("3-5"))
    assert not v.ok and v.reasons == (
        "I1 may not end its move in 3-5: 3-5 would hold 7 factors of foot units (F1, I1); foot units stack at most 6",)
    assert check_move(s, "T1", s.map.parse_label("3-5")).ok  # wheeled: not foot, and no cell limit
