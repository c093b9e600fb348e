"""Module I rail orders and their results in words, as the journal, the
command line and the Markdown report say them (the system's ``order_text``
and ``result_text``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import ModelError
from ...territory.model import TerritoryScenario
from ...words import counted, side_phrase


def _place(s: TerritoryScenario, tid: Any) -> str:
    try:
        return s.territory(str(tid)).name
    except ModelError:
        return str(tid)


def order_text(s: TerritoryScenario, order: Mapping[str, Any]) -> str | None:
    """"ger_inf_dk rails to Germany", "Germany rails 2 infantry from France
    to Germany"."""
    if isinstance(order.get("unit"), str):
        return f"{order['unit']} rails to {_place(s, order.get('to'))}"
    nation = order.get("nation")
    if not isinstance(nation, str):
        return None
    try:
        who = side_phrase(s.side(nation).name)
    except ModelError:
        who = nation
    n = order.get("count", 1)
    kind = order.get("type")
    units = counted(n if isinstance(n, int) else 1, str(kind) if kind else "unit", str(kind) if kind else None)
    return f"{who} rails {units} from {_place(s, order.get('from'))} to {_place(s, order.get('to'))}"


def result_text(record: Mapping[str, Any]) -> str:
    """The units the order moved: "moved ger_arm_fr, ger_art_fr"."""
    moved = record.get("moved")
    if not isinstance(moved, list) or not moved:
        return ""
    return "moved " + ", ".join(str(m.get("unit")) for m in moved if isinstance(m, Mapping))


def route_text(verdict: Mapping[str, Any], order: Mapping[str, Any]) -> str:
    """The route of the order given (the verdict routes every order of the
    round; the last is this one)."""
    routes = verdict.get("routes")
    if not isinstance(routes, list) or not routes or not isinstance(routes[-1], Mapping):
        return ""
    paths = routes[-1].get("paths")
    if not isinstance(paths, list):
        return ""
    parts = []
    for p in paths:
        if isinstance(p, Mapping) and isinstance(p.get("route"), list):
            parts.append(f"{counted(int(p.get('count', 1)), 'unit')} by {' > '.join(map(str, p['route']))}")
    return ("routed " + ", ".join(parts)) if parts else ""


__all__ = ["order_text", "result_text", "route_text"]
