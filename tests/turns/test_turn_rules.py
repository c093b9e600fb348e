"""The systems' own turn rules, enforced by the turn engine (issue 15, item 6):
CWOL — one rail order a unit a turn (docs/rules/cwol-rail.md); GITM — one
march a unit a turn (docs/rules/gitm.md); ACW — the Union moves first, a unit
moves once, units that did not move fortify at the end of their side's turn
(docs/rules/acw.md); Module I — rail in the non-combat phase only, capacity
summed over the turn's rail orders (docs/rules/railroads.md); Rail Options —
its movement phases (docs/rules/rail-options.md)."""

from __future__ import annotations

from pathlib import Path

from engine.grids import Cell
from engine.io import dumps_any, load_any, loads_any
from engine.turns.game import Game

ROOT = Path(__file__).resolve().parent.parent.parent


def sample(name: str) -> Game:
    return Game(load_any(ROOT / "maps" / name))


def test_cwol_a_rail_move_is_one_order_a_turn() -> None:
    g = sample("cwol_mobile_columbus.json")
    assert g.system.name == "cwol_rail"
    assert g.give({"unit": "CS1IN", "to": "E4-X4"}).kind == "order"
    again = g.give({"unit": "CS1IN", "to": "E6-Y4"})
    assert again.kind == "refused"
    assert again.reasons == ("CS1IN has already railed this turn (journal entry 1); a unit moves by rail once a turn.",)
    g.end_turn()
    g.end_turn()  # the Union's move; turn 2: the unit may be ordered again (onwards, if it stopped short)
    assert g.turn.turn == 2 and g.give({"unit": "CS1IN", "to": "E6-Y4"}).kind == "order"


def test_gitm_one_march_per_unit_per_turn() -> None:
    g = sample("gitm_allied.json")
    s = g.scenario
    assert g.give({"unit": "FR2IN", "to": s.map.label(Cell(1, 1))}).kind == "order"
    e = g.give({"unit": "FR2IN", "to": s.map.label(Cell(0, 0))})
    assert e.kind == "refused" and "FR2IN has already marched this turn" in e.reasons[0]


def test_acw_union_first_moves_once_and_fortifies_at_the_end_of_its_turn() -> None:
    g = sample("acw_short_campaign.json")
    s = g.scenario
    assert g.system.name == "acw" and g.turn.side == "union" and g.phases == ("movement",)
    start = dumps_any(s)
    mover = s.unit("US-14")
    to = s.map.label(s.map.grid.neighbours(mover.at)[0])
    assert g.give({"unit": "US-14", "to": to}).kind == "order"
    e = g.give({"unit": "US-14", "to": s.map.label(s.map.grid.neighbours(mover.at)[0])})
    assert e.kind == "refused" and "US-14 has already moved this turn" in e.reasons[0]
    rebel = next(u for u in s.units if u.side == "rebel")
    e = g.give({"unit": rebel.id, "to": s.map.label(s.map.grid.neighbours(rebel.at)[0])})
    assert e.kind == "refused" and "It is the Union's move" in e.reasons[0]
    before_end = dumps_any(s)
    entries = g.end_turn()
    assert [x.kind for x in entries] == ["effect", "end_turn"]
    effect = entries[0]
    assert effect.summary == "the Union fortifies 12 units; the Rebels move next"
    assert "14th Inf moved this turn: no fortifications" in effect.reasons
    assert "13th Inf stayed put: it fortifies 0310" in effect.reasons
    assert entries[1].summary == "end of the Union's move; turn 1: the Rebels to move"
    assert s.unit("US-14").props == {"fortified": False}  # moved is cleared for its next turn
    assert s.unit("US-13").props["fortified"] is True
    assert s.state["acw"]["phasing"] == "rebel" and g.turn.side == "rebel" and s.turn == 1
    # the same, loaded from the file: undo of every end-of-turn entry gives the file back exactly
    loaded = Game(loads_any(dumps_any(s), "saved"))
    for _ in entries:
        loaded.undo()
    assert dumps_any(loaded.scenario) == before_end
    for _ in range(3):  # the two refusals, then the move
        loaded.undo()
    assert dumps_any(loaded.scenario) == start
    entries = g.end_turn()
    assert entries[-1].summary == "end of the Rebels' move; turn 2: the Union to move"
    assert g.turn.turn == 2 and g.turn.side == "union" and s.turn == 2 and s.state["acw"]["phasing"] == "union"
    entries = g.end_turn()  # nobody moved: every unit is already fortified, nothing changes but the side
    assert entries[0].summary == "the Union fortifies 1 unit; the Rebels move next" and len(entries[0].reasons) == 1


def test_module_i_rails_in_the_noncombat_phase_and_spends_capacity_across_the_turn() -> None:
    g = sample("railroad_module_europe.json")
    assert g.phases == ("combat", "noncombat")
    e = g.give({"unit": "ger_inf_dk", "to": "Belarus"})
    assert e.kind == "refused"
    assert e.reasons == ("This order belongs to the noncombat phase; the game is in the combat phase.",)
    g.end_phase()
    for unit in ("ger_inf_dk", "ger_inf_bh", "ger_art_fr"):  # Belarus: capacity 3
        assert g.give({"unit": unit, "to": "Belarus"}).kind == "order"
    assert g.turn.used['rail:["germany","belarus"]'] == 3
    e = g.give({"unit": "ger_arm_fr", "to": "Belarus"})
    assert e.kind == "refused" and "Belarus can carry 3 units, but 4 units must pass through it" in " ".join(e.reasons)
    g.undo()
    g.undo()
    assert g.turn.used['rail:["germany","belarus"]'] == 2
    assert g.give({"unit": "ger_arm_fr", "to": "Belarus"}).kind == "order"
    kept = dict(g.turn.used)
    g.end_turn()
    assert g.turn.used == kept and g.turn.side == "ussr"  # the round's rail is one pool: it lasts the round
    while g.turn.side != "germany":
        g.end_turn()
    assert g.turn.used == {} and g.turn.turn == 4


def test_rail_options_phases() -> None:
    g = sample("aa_rail_options.json")
    assert g.phases == ("purchase", "combat", "noncombat", "place") and g.turn.phase == "purchase"
    g.end_phase()  # the purchase phase (docs/rules/rail-options.md, "The turn")
    assert g.turn.phase == "combat"
    e = g.give({"unit": "ger_inf", "to": "poland"})
    assert e.kind == "refused" and "belongs to the noncombat phase" in e.reasons[0]
    e = g.give({"unit": "ger_inf", "to": "poland", "phase": "combat"})
    assert e.kind == "refused" and "combat_move switch is off" in e.reasons[0]
