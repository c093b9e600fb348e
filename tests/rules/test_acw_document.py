"""Every number in "A Short ACW Campaign" (``docs/rules/acw.md``), each row
the document's sentence quoted and the value the engine gives for it: the
movement allowances and costs, the stacking limit, the combat procedure and
its worked example, the casualty table, the retreat, the reinforcement
rates, the deployment distances, both orders of battle, who moves first and
the victory turns."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.io import load_any
from engine.model import Scenario, Unit
from engine.rules.acw import (
    AcwOptions,
    casualty_row,
    defence_multiplier,
    half_loss,
    odds,
    resolve,
    result_number,
    roll,
    spread_losses,
    victory,
    victory_number,
)
from engine.rules.acw.stacking import stack_of
from engine.rules.acw.system import Acw
from engine.rules.acw.units import factor_cost, movement_of

ROOT = Path(__file__).resolve().parents[2]
OPTS = AcwOptions()


def sample() -> Scenario:
    return load_any(str(ROOT / "maps" / "acw_short_campaign.json"))


S = sample()


def unit_of_type(t: str) -> Unit:
    return next(u for u in S.units if u.type == t)


def stack(types: list[str]) -> Any:
    units = [Unit(f"x{i}", "union", t, S.units[0].at, 1) for i, t in enumerate(types)]
    return stack_of(S, S.units[0].at, units, OPTS)


def terrain(tid: str) -> Any:
    return next(t for t in S.ruleset.terrain if t.id == tid)


def oob(side: str) -> list[tuple[str, int]]:
    return [(u.name or u.id, u.strength) for u in S.units if u.side == side]


def at_turn(turn: int, code: str | None, side: str = "union", complete: bool = False) -> str | None:
    s = sample()
    if code is not None:
        cell = next(c for c, p in s.map.places.items() if p.code == code)
        for u in [u for u in s.units if u.at == cell]:
            u.at = s.map.parse_label("0410")
        next(u for u in s.units if u.side == side).at = cell
    s.turn = turn
    return victory(s, turn_complete=complete).outcome


EXAMPLE = resolve(15, 6, "9:51:45", multiplier=2)

ROWS: list[tuple[str, Callable[[], Any], Any]] = [
    ("Infantry and Artillery Units Move 3 hexes in the open.",
     lambda: (movement_of(S, unit_of_type("inf")), movement_of(S, unit_of_type("arty"))), (3, 3)),
    ("HQ and Cavalry Units Move 5 hexes in the open.",
     lambda: (movement_of(S, unit_of_type("hq")), movement_of(S, unit_of_type("cav"))), (5, 5)),
    ("It takes 3 movement to cross or enter woods, and rivers.",
     lambda: (terrain("woods").move_cost, OPTS.river_cost, terrain("open").move_cost), (3, 3, 1)),
    ("Rivers may be crossed at Bridges (rail or road) for only one move.", lambda: OPTS.bridge_cost, 1),
    ("A Maximum of three Infantry or Cavalry Units may be in one hex at the same time.",
     lambda: (stack(["inf", "inf", "cav"]).over, stack(["inf", "inf", "cav", "inf"]).over), (False, True)),
    ("Artillery and HQ units may stack in addition to this limit of 3.",
     lambda: stack(["inf", "inf", "inf", "arty", "arty", "hq"]).over, False),
    ("Defenders in or behind woods or river count as double factors",
     lambda: (defence_multiplier(["woods"]), defence_multiplier(["river"])), (2, 2)),
    ("Defenders in fortifications count 1 ½ Factors", lambda: defence_multiplier(["fort"]), Fraction(3, 2)),
    ("Divide 100 by Total Factors ... Multiply result by Attackers Factors – round to nearest whole number",
     lambda: victory_number(Fraction(15), Fraction(27)), (Fraction(100, 27), 56)),
    ("Take the square root, and then the 8th and 9th decimal place. Together these produce a number between "
     "00 and 99.", lambda: result_number("9:51:45", AcwOptions(result_places=(8, 9))).value, 22),
    ("if equal to or less than Victory number, the attacker wins",
     lambda: (resolve(1, 1, "9:51:45").winner, resolve(21, 79, "9:51:45").winner,
              resolve(20, 80, "9:51:45").winner), ("attacker", "attacker", "defender")),
    ("0 to 5: W2, L2", lambda: casualty_row(5), casualty_row(0)),
    ("0 to 5: W2, L2 (values)", lambda: (casualty_row(0).winner, casualty_row(0).loser, casualty_row(5).high),
     (2, 2, 5)),
    ("6 to 10: W1, L1", lambda: (casualty_row(6).low, casualty_row(10).high, casualty_row(8).winner,
                                 casualty_row(8).loser), (6, 10, 1, 1)),
    ("11 – 20: W1, L1.5", lambda: (casualty_row(11).low, casualty_row(20).high, casualty_row(15).winner,
                                   casualty_row(15).loser), (11, 20, 1, Fraction(3, 2))),
    ("21 – 30: W1, L2", lambda: (casualty_row(21).low, casualty_row(30).high, casualty_row(25).winner,
                                 casualty_row(25).loser), (21, 30, 1, 2)),
    ("31 – 40: W0.5, L2", lambda: (casualty_row(31).low, casualty_row(40).high, casualty_row(35).winner,
                                   casualty_row(35).loser), (31, 40, Fraction(1, 2), 2)),
    ("41 – 50: W0.5, L2.5", lambda: (casualty_row(41).low, casualty_row(50).high, casualty_row(45).winner,
                                     casualty_row(45).loser), (41, 50, Fraction(1, 2), Fraction(5, 2))),
    ("51+ : W0.5, L3", lambda: (casualty_row(51).low, casualty_row(99).high, casualty_row(99).winner,
                                casualty_row(99).loser), (51, None, Fraction(1, 2), 3)),
    ("round to nearest whole number. If 0, fine",
     lambda: resolve(1, 1, "9:51:45").winner_casualties, 0),
    ("Basic Casualty Rate is Total Factors divided by 15 (don't double defenders behind rivers or woods, or 1 ½ "
     "for fortifications)", lambda: (OPTS.casualty_divisor, EXAMPLE.basic_rate), (15, Fraction(21, 15))),
    ("A Union Army of 15 Factors is attacking a Rebel Army of 6 Factors.",
     lambda: (EXAMPLE.attacker_factors, EXAMPLE.defender_factors), (15, 6)),
    ("The Rebel Army is defending a River Crossing, and counts as double (12).",
     lambda: EXAMPLE.defender_effective, 12),
    ("Total factors is 27", lambda: EXAMPLE.total, 27),
    ("100 / 27 = 3.7", lambda: round(float(EXAMPLE.quotient), 1), 3.7),
    ("Victory Number = 15 (Attacker's Factors) * 3.7 = 56", lambda: EXAMPLE.victory_number, 56),
    ("9:51:45 = 95154 Take the square root ... Take the 9th and 10th places ... The result in this case is 21.",
     lambda: (EXAMPLE.result.number, EXAMPLE.result_number), (95145, 21)),
    ("A Result number of 56 or less will mean the Union have won the battle",
     lambda: resolve(15, 6, "0:00:00", multiplier=2).winner, "attacker"),
    ("A Result number of 57 or more will mean the Rebels have won the battle",
     lambda: [o.winner for o in odds(15, 6, defender_effective=Fraction(12)).outcomes[56:58]], ["attacker", "defender"]),
    ("21 means the Union is victorious.", lambda: EXAMPLE.winner, "attacker"),
    ("(56 – 21 = 35)", lambda: EXAMPLE.difference, 35),
    ("Casualty rate is W0.5, L2", lambda: (EXAMPLE.row.winner, EXAMPLE.row.loser), (Fraction(1, 2), 2)),
    ("Basic Casualty Rate is 21 (Total Factors without doubling for defence) /15 = 1.4",
     lambda: EXAMPLE.basic_rate, Fraction(7, 5)),
    ("Winner suffers 0.5 * 1.4 = 0.7 (round) = 1 Factor Casualties", lambda: EXAMPLE.winner_casualties, 1),
    ("Loser suffers 2 * 1.4 = 2.8 (round) = 3 Factor Casualties", lambda: EXAMPLE.loser_casualties, 3),
    ("no unit can take 2 casualties until all other units present have taken at least 1",
     lambda: [x.lost for x in spread_losses([("a", "a", 3), ("b", "b", 3)], 3).losses], [2, 1]),
    ("Defeated Armies may retreat up to two hexes, and must retreat at least one.",
     lambda: (OPTS.retreat_min, OPTS.retreat_max), (1, 2)),
    ("Armies that end their retreat movement in a hex adjacent to an enemy force immediately lose HALF their "
     "factors.", lambda: (half_loss(6), half_loss(5)), (3, 3)),
    ("The Union will receive 1 reinforcement point each turn.", lambda: OPTS.union_points_per_turn, 1),
    ("For each City E, G, I, O, M, L controlled count one point", lambda: OPTS.rebel_cities,
     ("E", "G", "I", "O", "M", "L")),
    ("The time in milliseconds is divided by 6 and the remainder taken – if the resulting number is equal to or "
     "less than the number of Cities controlled, they gain 1 Factor.",
     lambda: (roll("9:00:00.011", ("E", "G", "I", "O", "M")).gained, roll("9:00:00.011", ("E", "G")).gained,
              roll("9:00:00.011", ("E",)).remainder), (1, 0, 5)),
    ("Cavalry and Artillery Factors take 2 reinforcement points.",
     lambda: (factor_cost(S, unit_of_type("cav")), factor_cost(S, unit_of_type("arty"))), (2, 2)),
    ("Infantry Factors take 1 reinforcement points.", lambda: factor_cost(S, unit_of_type("inf")), 1),
    ("New Units can be created with 1 reinforcement point (has no factors attached", lambda: OPTS.new_unit_cost, 1),
    ("Union Forces may deploy within 1 hex of A, B, or C.",
     lambda: (OPTS.union_deploy, OPTS.deploy_distance, Acw().setup_problems(S)), (("A", "B", "C"), 1, [])),
    ("Rebel Forces may deploy within 1 hex of E, I, H, or G", lambda: OPTS.rebel_deploy, ("E", "I", "H", "G")),
    ("Union Order of Battle: 14th Inf 4, 13th Inf 4, 12th Inf 4, 3rd Inf 4, 6th Inf 4, 27th Inf 3, 29th Inf 3, "
     "30th Inf 3, 3rd Cav 2, 4th Cav 2, 8th Arty 2, 10th Arty 2, Army HQ 1",
     lambda: sorted(oob("union")), sorted([("14th Inf", 4), ("13th Inf", 4), ("12th Inf", 4), ("3rd Inf", 4),
                                           ("6th Inf", 4), ("27th Inf", 3), ("29th Inf", 3), ("30th Inf", 3),
                                           ("3rd Cav", 2), ("4th Cav", 2), ("8th Arty", 2), ("10th Arty", 2),
                                           ("Army HQ", 1)])),
    ("Rebel Order of Battle: 39th Inf 4, 40th Inf 4, 17th Inf 4, 34th Inf 4, 51st Inf 3, 52nd Inf 3, 37th Cav 3, "
     "45th Cav 3, 11th Ary 2, Army HQ 1",
     lambda: sorted(oob("rebel")), sorted([("39th Inf", 4), ("40th Inf", 4), ("17th Inf", 4), ("34th Inf", 4),
                                           ("51st Inf", 3), ("52nd Inf", 3), ("37th Cav", 3), ("45th Cav", 3),
                                           ("11th Arty", 2), ("Army HQ", 1)])),
    ("Union forces have the first turn.", lambda: Acw().side_order(S)[0], "union"),
    ("Major Union Victory: Capture City 'M' within 7 turns.",
     lambda: (at_turn(7, "M"), at_turn(8, "M")), ("major_union", "minor_union")),
    ("Minor Union Victory: Capture City 'M'", lambda: at_turn(12, "M", complete=True), "minor_union"),
    ("Minor Rebel Victory: Avoid Union Victory Conditions for 12 turns.",
     lambda: (at_turn(12, None), at_turn(12, None, complete=True), at_turn(13, "M")),
     (None, "minor_rebel", "minor_rebel")),
    ("Major Rebel Victory: Capture City 'A'",
     lambda: (at_turn(1, "A", "rebel"), at_turn(12, "A", "rebel")), ("major_rebel", "major_rebel")),
]


@pytest.mark.parametrize(("sentence", "value", "expected"), ROWS, ids=[r[0][:60] for r in ROWS])
def test_every_number_in_the_document(sentence: str, value: Callable[[], Any], expected: Any) -> None:
    assert value() == expected, sentence
