"""``adjutant railplan FILE --orders ORDERS.json``: route rail orders on a
territory map (Axis & Allies "Module I: Railroads") within every
territory's rail capacity, or name the bottleneck that makes it impossible."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import EXIT_FAIL, EXIT_OK, CliError, add_json_flag, emit, load_territory, require_system

COMMANDS = {
    "railplan": "route rail orders on a territory map within rail capacities; name the bottleneck",
}
"""The commands :func:`register` adds, with their one-line help (read without
importing this module: see app/cli/__init__.py)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "railplan", help=COMMANDS["railplan"],
        description="Route a set of rail orders (Axis & Allies Module I: Railroads). ORDERS.json holds a list "
                    "(or {\"orders\": [...]}) of {\"unit\": ID, \"to\": TERRITORY} or "
                    "{\"nation\": N, \"from\": T, \"to\": T, \"count\": K}. Exit 0 when every order fits, 1 when not.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--orders", required=True, metavar="ORDERS.json")
    p.add_argument("--quick", action="store_true",
                   help="only the fast max-flow check (necessary conditions; no routes)")
    add_json_flag(p)
    p.set_defaults(func=run)


MAX_ORDERS_BYTES = 16 * 1024 * 1024
"""Largest orders file read (16 MiB)."""


def _huge_number(data: Any, where: str) -> str | None:
    """The JSON path of the first number in ``data`` outside +/-2**63 or not
    finite (refused before any arithmetic), or ``None``; walked with a stack."""
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and not -2**63 < value < 2**63:
            return path
        if isinstance(value, float) and value != value:
            return path
        if isinstance(value, dict):
            stack.extend((v, f"{path}.{k}") for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
    return None


def read_orders_file(path: str) -> list[dict[str, Any]]:
    from engine.io.inputs import read_regular

    raw = read_regular(path, MAX_ORDERS_BYTES, lambda message: CliError(f"{path}: {message}"), "orders file")
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise CliError(f"{path}: not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise CliError(f"{path}: not valid orders: JSON nested too deeply") from None
    except ValueError as e:  # an integer of more than 4300 digits
        raise CliError(f"{path}: not valid orders: {str(e).split(';')[0]}") from None
    huge = _huge_number(data, "$")
    if huge is not None:
        raise CliError(f"{path}: {huge}: a number out of range (at most 2**63 - 1 in size, and finite)")
    from engine.io.common import SURROGATES, text_problems

    bad = text_problems(data, path, SURROGATES)
    if bad:
        raise CliError(str(bad[0]))
    orders = data.get("orders") if isinstance(data, dict) else data
    if not isinstance(orders, list):
        raise CliError(f"{path}: expected a list of orders or {{\"orders\": [...]}}")
    return orders


def run(args: argparse.Namespace) -> int:
    s = load_territory(args.file, "rail plans")
    require_system(s, "railroads", args.file, "railplan")
    raw = read_orders_file(args.orders)  # a bad file is refused before the solvers are imported (0.8 s)
    from engine.rules.railroads import RailRules, plan, preview

    rules = RailRules(s)
    orders = rules.read_orders(raw)
    result = preview(s, orders, rules, thorough=True) if args.quick else plan(s, orders, rules)
    data = result.to_data()

    def text() -> str:
        lines = [("FEASIBLE" if result.feasible else "NOT FEASIBLE") + f" ({result.method}): {result.reason}"]
        for r in data["routes"]:
            who = r.get("unit") or f"{r['count']} x {r['nation']}"
            if "refused" in r:
                lines.append(f"  {r['order']}. {who}: refused: {r['refused']}")
            elif "paths" in r:
                for path in r["paths"]:
                    lines.append(f"  {r['order']}. {who}: " + " > ".join(path["route"])
                                 + (f"  (x{path['count']})" if r["count"] > 1 else ""))
                if r.get("unrouted"):
                    lines.append(f"  {r['order']}. {who}: {r['unrouted']} unit(s) find no room "
                                 f"from {r['from']} to {r['to']}")
        if data["usage"]:
            lines.append("  capacity used:")
            for name, u in data["usage"].items():
                mark = "  FULL" if u["used"] >= u["capacity"] else ""
                lines.append(f"    {name:<24} {u['used']:>3} of {u['capacity']:<3}{mark}")
        if data["bottleneck"]:
            lines.append("  bottleneck: " + ", ".join(data["bottleneck"]))
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK if result.feasible else EXIT_FAIL
