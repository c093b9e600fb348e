"""Every number in the Rail Options rule document (shared seed 001, quoted in
docs/rules/rail-options.md), each row its sentence and the value, the value
read back from the engine on maps/aa_rail_options.json (issue 17)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.io import load_any
from engine.rules.rail_options import RailOptionsAdjudicator, config_of
from engine.rules.rail_options.economy import build_reason, carry_out, judge
from engine.rules.rail_options.network import RailGround
from engine.territory import TerritoryScenario

ROOT = Path(__file__).resolve().parents[2]


def sample(option: int = 1, **state: Any) -> TerritoryScenario:
    s = load_any(str(ROOT / "maps" / "aa_rail_options.json"))
    s.ruleset.options["rail_options"] = {"option": option}
    s.state["rail_options"]["ipcs"] = {"germany": 100, "uk": 100}
    s.state["rail_options"].update(state)
    return s


def cost(option: int, piece: str) -> int:
    s = sample(option)
    order = {"action": "buy", "nation": "germany", "piece": piece}
    assert judge(s, config_of(s.ruleset.options), order).ok
    return int(carry_out(s, config_of(s.ruleset.options), order).result["cost"])


def rounds_to_build(option: int) -> int:
    """Fewest whole turns of control before a piece may be built."""
    piece = "railroad" if option == 4 else "station"
    for held in range(0, 3):
        s = sample(option)
        t = s.territory("balkans")
        t.features.pop("railroad" if option == 4 else "rail_station", None)
        t.control_since = s.turn - held if held else s.turn
        if build_reason(s, config_of(s.ruleset.options), t, "germany", piece) is None:
            return held
    raise AssertionError("never")


def spacing() -> int:
    """Farthest a new Option 1 station may stand from the only other one."""
    s = sample(1)
    for t in ("poland", "france", "smolensk", "bryansk", "syria", "egypt"):
        s.territory(t).features.pop("rail_station", None)
    cfg = config_of(s.ruleset.options)
    far = {"balkans": 1, "poland": 1, "belarus": 2, "smolensk": 3, "bryansk": 4}  # from Germany along markers
    ok = [d for t, d in far.items() if build_reason(s, cfg, s.territory(t), "germany", "station") is None]
    s.territory("germany").features.pop("rail_station")
    s.territory("balkans").features["rail_station"] = {}  # Bryansk is now 5 away
    assert build_reason(s, cfg, s.territory("bryansk"), "germany", "station") is not None
    return max(ok)


def nation_limit(option: int, stations: int | None = None, income: int | None = None) -> int:
    s = sample(option) if income is None else sample(option, income={"germany": income})
    if stations is not None:
        mine = [t for t in s.map.territories.values() if t.controller == "germany" and not t.sea]
        assert len(mine) >= stations
        for i, t in enumerate(mine):
            if i < stations:
                t.features["rail_station"] = {}
            else:
                t.features.pop("rail_station", None)
    load = RailGround(s, config_of(s.ruleset.options), "noncombat").nation_load("germany")
    assert load is not None and load.limit is not None
    return load.limit


def station_limit(option: int, damage: int, value: int = 12) -> int:
    s = sample(option)
    s.territory("germany").features["rail_station"]["damage"] = damage
    s.territory("germany").value = value
    load = RailGround(s, config_of(s.ruleset.options), "noncombat").station_load("germany")
    assert load is not None
    return load.limit


def reach(option: int, damage: int = 0) -> int | None:
    s = sample(option)
    s.territory("germany").features["rail_station"]["damage"] = damage
    return RailOptionsAdjudicator(s).reach("ger_inf").max_cost


def raid_damage(option: int, dice: list[int]) -> int:
    s = sample(option)
    cfg = config_of(s.ruleset.options)
    order = {"action": "bomb", "nation": "uk", "territory": "germany", "bombers": len(dice),
             "aa": [6] * len(dice), "dice": dice}
    assert judge(s, cfg, order).ok
    return int(carry_out(s, cfg, order).result["damage"])


def inoperable_at(option: int) -> int:
    for dmg in range(0, 7):
        s = sample(option)
        s.territory("germany").features["rail_station"]["damage"] = dmg
        if RailGround(s, config_of(s.ruleset.options), "noncombat").station_reason(
                s.territory("germany"), "germany") is not None:
            return dmg
    raise AssertionError("never")


def capture_wait(option: int) -> int:
    """Turns after a capture before the captured station may be used."""
    for wait in range(0, 3):
        s = sample(option)
        t = s.territory("bryansk")
        t.control_since = s.turn - wait
        g = RailGround(s, config_of(s.ruleset.options), "noncombat")
        if g.timing_reason(t, t.features["rail_station"], "rail station") is None:
            return wait
    raise AssertionError("never")


def destroy_hit(option: int) -> int:
    """The highest die that destroys under Options 2 and 4."""
    best = 0
    for die in range(1, 7):
        s = sample(option)
        cfg = config_of(s.ruleset.options)
        target = "france" if option == 2 else "belarus"
        s.territory(target).controller = "ussr"
        order = {"action": "bomb", "nation": "germany", "territory": target, "bombers": 1, "aa": [6],
                 "dice": [die]}
        s.state.pop("game", None)
        if carry_out(s, cfg, order).result["destroyed"]:
            best = die
    return best


def option4_points_after(spaces: int) -> int:
    from engine.rules.rail_options import record_move

    s = sample(4)
    v = RailOptionsAdjudicator(s).judge("ger_inf", {1: "poland", 2: "belarus"}[spaces])
    record_move(s, v)
    load = RailGround(s, config_of(s.ruleset.options), "noncombat").nation_load("germany")
    assert load is not None and load.left is not None
    return load.left


ROWS: list[tuple[str, object, Callable[[], object]]] = [
    ("Rail Option 1: (Rail Station & Railroad) Cost: 15 (Rail Station)", 15, lambda: cost(1, "station")),
    ("Rail Option 1: ... 1 (Railroad)", 1, lambda: cost(1, "railroad")),
    ("Rail stations and railroad may be built in any territory controlled for 1(+) round.", 1,
     lambda: rounds_to_build(1)),
    ("Rail stations cannot be built any farther than 4 territories away from one another, and must be connect by "
     "railroad markers.", 4, spacing),
    ("For each rail stations a power controls their rail capacity increases by 1 up to a maximum of 6.", (3, 4, 6),
     lambda: (nation_limit(1, 3), nation_limit(1, 4), nation_limit(1, 9))),
    ("The number of units that can use each rail station is limited to the IPC level of the territory the rail "
     "station is in (max 6).", (2, 6), lambda: (station_limit(1, 0, 2), station_limit(1, 0, 12))),
    ("The distance units may travel is restricted to a maximum of 4 spaces.", 4, lambda: reach(1)),
    ("For each damage marker on a rail station it reduces the range a unit can be railed by 1.", (3, 2),
     lambda: (reach(1, 1), reach(1, 2))),
    ("Rail stations can be damaged with strategic bombing like factories to a maximum of 6 damage markers.", 6,
     lambda: raid_damage(1, [6, 6])),
    ("3 damage markers would render the station inoperable.", 3, lambda: inoperable_at(1)),
    ("Players must maintain control of captured rail stations for one full turn before they are allowed to use "
     "them.", 1, lambda: capture_wait(1)),
    ("Rail Option 2: (Rail Station & Railroad) Cost: 10 (Rail Station)", 10, lambda: cost(2, "station")),
    ("Rail Option 2: ... 1 (Railroad)", 1, lambda: cost(2, "railroad")),
    ("Each nation may move up to 2 ground units from one rail station to another during the non-combat movement "
     "phase.", 2, lambda: nation_limit(2)),
    ("Rail stations and railroad may be built in any territory controlled for 1(+) round. (Option 2)", 1,
     lambda: rounds_to_build(2)),
    ("Players must maintain control of captured rail for one full turn before they are allowed to use them.", 1,
     lambda: capture_wait(2)),
    ("Apply same rules for strategic bombing of factories with the exception that bombers receive one cycle of "
     "combat rolls. The player must roll a successful hit (rather than damage), which destroys the station.", 4,
     lambda: destroy_hit(2)),
    ("Rail Option 3: (Rail Station Only) Cost: 8", 8, lambda: cost(3, "station")),
    ("Rail stations may be built in any territory controlled for 1(+) round. (Option 3)", 1,
     lambda: rounds_to_build(3)),
    ("Rail stations add \u201c1\u201d extra movement to any unit able to use the station.", 1,
     lambda: (reach(3) or 0) - 1),
    ("However, each damage marker on a rail station reduces the number of units able to use the station by 1.",
     (12, 11), lambda: (station_limit(3, 0), station_limit(3, 1))),
    ("Rail stations can be damaged with strategic bombing like factories to a maximum of 6 damage markers. "
     "(Option 3)", 6, lambda: raid_damage(3, [4, 5])),
    ("3 damage markers would render the station inoperable. (Option 3)", 3, lambda: inoperable_at(3)),
    ("Players must maintain control of captured rail stations for one full turn before they are allowed to use "
     "them. (Option 3)", 1, lambda: capture_wait(3)),
    ("Rail Option 4: (Rail markers only) Cost: 3", 3, lambda: cost(4, "railroad")),
    ("We suggest trying a 7:1 ratio. ... take the nations position on the IPC chart and divide that number by 7.",
     (5, 4), lambda: (nation_limit(4, income=35), nation_limit(4, income=34))),
    ("Example: Germany begins the turn at 29 on the IPC chart. 29/7=4 (round down).", 4,
     lambda: nation_limit(4, income=29)),
    ("Germany may spend all 4 points to move 1 unit 4 spaces, or 4 points to move 2 units, 2 spaces.", (4, 2, 3),
     lambda: (reach(4), option4_points_after(2), option4_points_after(1))),
    ("Railroad markers may be built in any territory controlled for 1(+) round. (Option 4)", 1,
     lambda: rounds_to_build(4)),
    ("Players must maintain control of captured railroads for one full turn before they are allowed to use them.",
     1, lambda: capture_wait(4)),
    ("The player must roll a successful hit (rather than damage), which destroys the railroad.", 4,
     lambda: destroy_hit(4)),
]


@pytest.mark.parametrize(("sentence", "value", "probe"), ROWS, ids=[r[0][:60] for r in ROWS])
def test_every_number_of_the_document(sentence: str, value: object, probe: Callable[[], object]) -> None:
    assert probe() == value, sentence
