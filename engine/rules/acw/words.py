"""The ACW orders and their results in words, as the journal, the command
line and the Markdown report say them (the system's ``order_text`` and
``result_text``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.model import Scenario
from engine.words import counted


def _hexes(value: Any) -> str:
    cells = [str(x) for x in value] if isinstance(value, (list, tuple)) else [str(value)]
    return cells[0] if len(cells) == 1 else ", ".join(cells[:-1]) + " and " + cells[-1]


def order_text(scenario: Scenario, order: Mapping[str, Any]) -> str | None:
    """An ACW order in words: "attack on 0714 from 0613", "US-13 is
    reinforced by 1 factor", "the force in 0714 retreats to 0815"; ``None``
    for a move (the turn engine's "US-14 to 0410")."""
    if "attack" in order:
        return f"attack on {order.get('defend')} from {_hexes(order['attack'])}"
    if "retreat" in order:
        return f"the force in {order['retreat']} retreats to {order.get('to')}"
    if "withdraw" in order:
        return f"{order['withdraw']} withdraws to {order.get('to')} before the battle"
    if "stand" in order:
        return f"{order['stand']} stands and fights"
    if "reinforcement_post" in order:
        unit = order.get("unit")
        return f"reinforcement post at {order['reinforcement_post']}" + (f" for {unit}" if unit else "")
    if "new_unit" in order:
        return f"a new {order.get('type')} {order['new_unit']} raised in {order.get('at')}"
    if "factors" in order:
        factors = order.get("factors", 1)
        n = factors if isinstance(factors, int) else 1
        return f"{order.get('unit')} is reinforced by {counted(n, 'factor')}"
    return None


def _losses(rows: Any) -> str:
    parts = []
    for x in rows if isinstance(rows, Sequence) else ():
        if isinstance(x, Mapping) and int(x.get("lost", 0)):
            gone = ", eliminated" if x.get("eliminated") else ""
            parts.append(f"{x.get('name') or x.get('unit')} ({x.get('unit')}) {x.get('before')} to {x.get('after')}"
                         f"{gone}")
    return ", ".join(parts) or "none"


def result_text(order: Mapping[str, Any], record: Mapping[str, Any]) -> str:
    """What an ACW order did beyond its verdict's reason: an attack's
    casualties unit by unit, a retreat's units eliminated."""
    kind = record.get("kind")
    if kind == "attack":
        return (f"casualties: attacker {record.get('attacker_casualties')} "
                f"({_losses(record.get('attacker_losses'))}); defender {record.get('defender_casualties')} "
                f"({_losses(record.get('defender_losses'))})")
    if kind == "retreat":
        gone = record.get("eliminated")
        return f"eliminated in the retreat: {', '.join(map(str, gone))}" if gone else ""
    return ""


__all__ = ["order_text", "result_text"]
