"""Rail Options orders and their results in words, as the journal, the
command line and the Markdown report say them (the system's ``order_text``
and ``result_text``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.model import ModelError
from engine.territory import TerritoryScenario
from engine.words import counted, side_phrase

PIECE_WORDS = {"station": ("rail station", "rail stations"), "railroad": ("railroad marker", "railroad markers")}


def _nation(s: TerritoryScenario, order: Mapping[str, Any]) -> str:
    try:
        return side_phrase(s.side(str(order.get("nation"))).name)
    except ModelError:
        return str(order.get("nation"))


def _place(s: TerritoryScenario, tid: Any) -> str:
    try:
        return s.territory(str(tid)).name
    except ModelError:
        return str(tid)


def _piece(piece: Any, n: int = 1) -> str:
    one, many = PIECE_WORDS.get(str(piece), (str(piece), f"{piece}s"))
    return counted(n, one, many) if n != 1 else f"a {one}"


def order_text(s: TerritoryScenario, order: Mapping[str, Any]) -> str | None:
    """A Rail Options order in words: "ger_inf rails to Italy", "Germany
    buys a rail station", "Germany bombs the rail in Russia with 2 bombers"."""
    action = order.get("action")
    if action is None:
        unit, to = order.get("unit"), order.get("to")
        if not isinstance(unit, str):
            return None
        when = " in the combat move" if order.get("phase") == "combat" else ""
        return f"{unit} rails to {_place(s, to)}{when}"
    who = _nation(s, order)
    where = _place(s, order.get("territory"))
    if action == "buy":
        n = order.get("count", 1)
        return f"{who} buys {_piece(order.get('piece'), n if isinstance(n, int) else 1)}"
    if action == "place":
        return f"{who} places {_piece(order.get('piece'))} in {where}"
    if action == "bomb":
        b = order.get("bombers", 1)
        return f"{who} bombs the rail in {where} with {counted(b if isinstance(b, int) else 1, 'bomber')}"
    if action == "destroy":
        return f"{who} destroys its own {PIECE_WORDS.get(str(order.get('piece')), ('rail',))[0]} in {where}"
    if action == "capture":
        return f"{who} captures {where}"
    if action == "technology":
        return f"{who} gains the rail technology"
    return None


def _dice(values: Any) -> str:
    return ", ".join(str(d) for d in values) if isinstance(values, list) and values else "none"


def result_text(s: TerritoryScenario, order: Mapping[str, Any], verdict: Mapping[str, Any],
                record: Mapping[str, Any]) -> str:
    """What a carried-out Rail Options order did: a rail move's path, its
    length and the capacity it used; a purchase's cost and the IPCs left; a
    raid's bombers lost, dice and damage; a capture, placement or
    destruction."""
    action = record.get("action")
    if action is None:  # a rail move: its verdict holds the path and cost
        path = verdict.get("path")
        if not isinstance(path, list) or not path:
            return ""
        cost = int(verdict.get("cost", 0))
        uses = verdict.get("uses") if isinstance(verdict.get("uses"), Mapping) else {}
        text = f"railed {' > '.join(map(str, path))}: {counted(cost, 'space')}"
        if uses and uses.get("station"):
            text += f", through the station in {uses['station']}"
        if uses and uses.get("points"):
            n = int(uses["points"])
            used = counted(n, "rail capacity point") if verdict.get("option") == 4 else counted(n, "unit")
            text += f"; {used} of {_nation(s, {'nation': uses.get('nation')})}'s rail capacity used" \
                if verdict.get("option") != 4 else f"; {used} used"
        return text
    where = _place(s, record.get("territory"))
    if action == "buy":
        return (f"paid {record.get('cost')} IPCs for {_piece(record.get('piece'), int(record.get('count', 1)))}; "
                f"{record.get('ipcs')} IPCs left")
    if action == "place":
        purchased = record.get("purchased")
        later = f", usable from turn {purchased + 1}" if isinstance(purchased, int) else ""
        return f"{_piece(record.get('piece'))} placed in {where}{later}"
    if action == "bomb":
        bombers = int(record.get("bombers", 0))
        lost = int(record.get("shot_down", 0))
        parts = [f"{counted(bombers, 'bomber')}, {lost} shot down"
                 + (f" (anti-aircraft dice {_dice(record.get('aa'))})" if "aa" in record else "")]
        parts.append(f"bombing dice {_dice(record.get('dice'))}")
        target = "rail station" if record.get("target") == "station" else "railroad"
        if "damage" in record:
            parts.append(f"the {target} in {where} now has {record.get('damage')} damage "
                         f"(was {record.get('damage_before')})"
                         + ("; it is inoperable" if record.get("inoperable") else ""))
        elif record.get("destroyed"):
            parts.append(f"the {target} in {where} is destroyed")
        else:
            parts.append(f"no hit: the {target} in {where} stands")
        return "; ".join(parts)
    if action == "capture":
        held = record.get("held_by")
        text = f"{where} captured" + (f" from {_nation(s, {'nation': held})}" if held else "")
        return text + ("; its railroad marker is removed" if record.get("railroad_removed") else "")
    if action == "destroy":
        return f"the {PIECE_WORDS.get(str(record.get('piece')), ('rail',))[0]} in {where} is removed"
    if action == "technology":
        return f"{_nation(s, record)} has the rail technology"
    return ""


__all__ = ["order_text", "result_text"]
