"""A combat on the map: the units in the attacking hexes against the units
in the defended hex, with the defence multipliers each defender earns, the
cavalry's option to withdraw, the casualties spread over the units present
and the loser's retreat.

Which defenders count double or one and a half (``docs/rules/acw.md``):

* *in woods*: the defended hex's terrain has the property ``woods`` (or the
  id ``woods``);
* *behind a river*: every attacking hex lies across a river hexside from the
  defended hex; a bridge on that hexside does not take the advantage away
  (the worked example defends "a River Crossing"; option
  ``bridged_river_doubles: false``);
* *behind woods* (option ``behind_woods``): every attacking hex is woods;
* *in fortifications*: the unit's ``fortified`` property (it did not move
  last turn).

A unit with several advantages counts the highest (option
``multipliers_combine``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.grids import Cell
from engine.model import ModelError, Scenario, Unit

from .combat import CombatResult, DefenderTerrain, LossSpread, PostTime, defence_multiplier, fmt, resolve, spread_losses
from .options import AcwOptions, options_for
from .retreat import RetreatPlan, retreat_options
from .stacking import stack_at
from .units import arm_of, display_name


@dataclass(frozen=True)
class Participant:
    unit_id: str
    name: str
    label: str
    arm: str
    factors: int
    multiplier: Fraction
    advantages: tuple[DefenderTerrain, ...]

    @property
    def effective(self) -> Fraction:
        return self.factors * self.multiplier

    def to_data(self) -> dict[str, object]:
        return {"unit": self.unit_id, "name": self.name, "hex": self.label, "arm": self.arm,
                "factors": self.factors, "multiplier": fmt(self.multiplier), "effective": fmt(self.effective),
                "advantages": list(self.advantages)}


@dataclass(frozen=True)
class CavalryOption:
    """A defending cavalry unit engaged by infantry may retreat one hex before
    the battle; the choice is its owner's and must be offered."""

    unit_id: str
    name: str
    hexes: tuple[str, ...]
    reason: str

    def to_data(self) -> dict[str, object]:
        return {"unit": self.unit_id, "name": self.name, "may_withdraw_to": list(self.hexes), "reason": self.reason}


@dataclass(frozen=True)
class Engagement:
    """Who fights whom, before the post time is known."""

    attack_cells: tuple[Cell, ...]
    defend_cell: Cell
    attackers: tuple[Participant, ...]
    defenders: tuple[Participant, ...]
    withdrawn: tuple[str, ...]
    cavalry_options: tuple[CavalryOption, ...]

    @property
    def attacker_factors(self) -> int:
        return sum(p.factors for p in self.attackers)

    @property
    def defender_factors(self) -> int:
        return sum(p.factors for p in self.defenders)

    @property
    def defender_effective(self) -> Fraction:
        return sum((p.effective for p in self.defenders), Fraction(0))


@dataclass(frozen=True)
class Battle:
    """A resolved combat on the map."""

    engagement: Engagement
    combat: CombatResult | None
    attacker_losses: LossSpread
    defender_losses: LossSpread
    retreats: tuple[RetreatPlan, ...]
    reason: str
    label: Callable[[Cell], str] = field(default=str, compare=False, repr=False)
    """How the map labels a hex (for :meth:`to_data`)."""

    def to_data(self) -> dict[str, object]:
        """The JSON form (``adjutant combat FILE ... --json``)."""
        e = self.engagement
        lab = self.label
        out: dict[str, object] = dict(self.combat.to_data()) if self.combat else {}
        out.update({
            "attack": [lab(c) for c in e.attack_cells],
            "defend": lab(e.defend_cell),
            "attackers": [p.to_data() for p in e.attackers],
            "defenders": [p.to_data() for p in e.defenders],
            "withdrawn": list(e.withdrawn),
            "cavalry_options": [c.to_data() for c in e.cavalry_options],
            "attacker_losses": [x.to_data() for x in self.attacker_losses.losses],
            "defender_losses": [x.to_data() for x in self.defender_losses.losses],
            "retreats": [r.to_data() for r in self.retreats],
            "reason": self.reason,
        })
        return out


def _woods(scenario: Scenario, cell: Cell) -> bool:
    t = scenario.ruleset.terrain[scenario.map.terrain_at(cell)]
    return bool(t.properties.get("woods", t.id == "woods"))


def engagement(scenario: Scenario, attack_cells: Sequence[Cell], defend_cell: Cell, *,
               withdrawn: Collection[str] = (), options: AcwOptions | None = None) -> Engagement:
    """The units on both sides of an attack from ``attack_cells`` on
    ``defend_cell`` and the multiplier each defender earns.  ``withdrawn``
    names defending cavalry that took its option to withdraw."""
    o = options or options_for(scenario)
    gm = scenario.map
    lab = gm.label
    if not attack_cells:
        raise ModelError("name at least one attacking hex")
    cells = tuple(dict.fromkeys(attack_cells))
    defenders = scenario.units_at(defend_cell)
    if not defenders:
        raise ModelError(f"no units in {lab(defend_cell)} to attack")
    dside = defenders[0].side
    attackers: list[Unit] = []
    for c in cells:
        if not gm.grid.are_adjacent(c, defend_cell):
            raise ModelError(f"{lab(c)} is not adjacent to {lab(defend_cell)}; attacks are made from next door")
        here = scenario.units_at(c)
        if not here:
            raise ModelError(f"no units in {lab(c)} to attack with")
        for u in here:
            if scenario.allied(u.side, dside):
                raise ModelError(f"{display_name(u)} in {lab(c)} is on the defender's side ({u.side})")
        attackers.extend(here)
    aside = attackers[0].side
    for u in attackers:
        if not scenario.allied(u.side, aside):
            raise ModelError(f"the attacking hexes hold units of two opposed sides ({aside}, {u.side})")
    for u in defenders:
        if scenario.allied(u.side, aside):
            raise ModelError(f"{lab(defend_cell)} holds units of both sides")
    # what every defender in the hex earns
    common: list[DefenderTerrain] = []
    if _woods(scenario, defend_cell) or o.behind_woods and all(_woods(scenario, c) for c in cells):
        common.append("woods")
    if all(gm.river_between(c, defend_cell)
           and (o.bridged_river_doubles or gm.bridge_between(c, defend_cell) is None) for c in cells):
        common.append("river")
    infantry_attacks = any(arm_of(scenario, u) == "infantry" for u in attackers)
    wd = set(withdrawn)
    cav_options = []
    fighting = []
    enemy_cells = {u.at for u in scenario.units if not scenario.allied(u.side, dside)}
    for u in defenders:
        if arm_of(scenario, u) == "cavalry" and infantry_attacks and o.cavalry_may_withdraw:
            hexes = tuple(lab(n) for n in gm.grid.neighbours(defend_cell)
                          if n not in enemy_cells and not scenario.ruleset.terrain[gm.terrain_at(n)].impassable
                          and not stack_at(scenario, n, arriving=u, options=o).over)
            reason = (f"{display_name(u)} is cavalry engaged by infantry: it may retreat 1 hex before the battle "
                      f"(to {', '.join(hexes)})" if hexes else
                      f"{display_name(u)} is cavalry engaged by infantry, but has no free hex to withdraw to")
            cav_options.append(CavalryOption(u.id, display_name(u), hexes, reason))
            if u.id in wd:
                if not hexes:
                    raise ModelError(f"{display_name(u)} has no hex to withdraw to")
                continue
        elif u.id in wd:
            raise ModelError(f"{display_name(u)} may not withdraw: only cavalry engaged by infantry may")
        fighting.append(u)
    unknown = wd - {u.id for u in defenders}
    if unknown:
        raise ModelError(f"'{min(unknown)}' is not among the defenders in {lab(defend_cell)}")

    def part(u: Unit, adv: list[DefenderTerrain] | None) -> Participant:
        if adv is None:
            return Participant(u.id, display_name(u), lab(u.at), arm_of(scenario, u), u.strength, Fraction(1), ())
        mine = list(adv) + (["fort"] if u.props.get("fortified") else [])
        return Participant(u.id, display_name(u), lab(u.at), arm_of(scenario, u), u.strength,
                           defence_multiplier(mine, o), tuple(mine))

    return Engagement(cells, defend_cell, tuple(part(u, None) for u in attackers),
                      tuple(part(u, common) for u in fighting), tuple(u.id for u in defenders if u.id in wd),
                      tuple(cav_options))


def battle(scenario: Scenario, attack_cells: Sequence[Cell], defend_cell: Cell, time: PostTime | str, *,
           withdrawn: Collection[str] = (), options: AcwOptions | None = None) -> Battle:
    """Resolve an attack on the map (the scenario is not changed)."""
    o = options or options_for(scenario)
    e = engagement(scenario, attack_cells, defend_cell, withdrawn=withdrawn, options=o)
    lab = scenario.map.label
    rows_a = [(p.unit_id, p.name, p.factors) for p in e.attackers]
    rows_d = [(p.unit_id, p.name, p.factors) for p in e.defenders]
    if not e.defenders:
        return Battle(e, None, spread_losses(rows_a, 0), spread_losses(rows_d, 0), (),
                      f"every defender of {lab(defend_cell)} withdrew before the battle; there is no combat", lab)
    if e.attacker_factors <= 0:
        raise ModelError("the attacking units have no factors between them")
    c = resolve(e.attacker_factors, e.defender_factors, time, options=o, defender_effective=e.defender_effective)
    al = spread_losses(rows_a, c.attacker_casualties)
    dl = spread_losses(rows_d, c.defender_casualties)
    # the loser retreats from its hex(es), with the losses taken
    survivors = {x.unit_id for x in (al.losses + dl.losses) if x.after > 0}
    after = scenario.copy()
    for x in al.losses + dl.losses:
        after.unit(x.unit_id).strength = x.after
    after.units = [u for u in after.units if u.id in survivors or u.id not in {p.unit_id for p in e.attackers + e.defenders}]
    for wid in e.withdrawn:  # withdrawn cavalry is out of the hex; where it went is its owner's choice
        after.units = [u for u in after.units if u.id != wid]
    retreats = []
    loser_cells = e.attack_cells if c.winner == "defender" else (e.defend_cell,)
    for cell in loser_cells:
        force = [u for u in after.units_at(cell) if u.id in survivors]
        if force:
            retreats.append(retreat_options(after, cell, units=force, options=o))
    who = "the attackers" if c.winner == "attacker" else "the defenders"
    reason = f"{c.reason}; {who} hold the field" + (
        "; " + "; ".join(r.reason for r in retreats) if retreats else "")
    return Battle(e, c, al, dl, tuple(retreats), reason, lab)
