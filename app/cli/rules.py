"""``adjutant rules [NAME]``: the rules systems the registry knows, each with
the map kinds it plays on, its options (and what each accepts) and the keys
of its orders (``engine/rules/registry.py``; ``docs/developing.md``, "How
to add a rules system")."""

from __future__ import annotations

import argparse
from typing import Any

from .common import EXIT_OK, add_json_flag, emit

COMMANDS = {
    "rules": "list the rules systems: map kinds, options and order keys",
}
"""The commands :func:`register` adds, with their one-line help."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("rules", help=COMMANDS["rules"],
                       description="List every registered rules system (or the one named): its title, the map "
                                   "kinds it plays on, each option key with what it accepts, the keys of its "
                                   "orders and its rule page.")
    p.add_argument("name", nargs="?", metavar="NAME", help="one system, e.g. gitm")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.rules import registry

    chosen = [registry.get(args.name)] if args.name else registry.systems()
    data: dict[str, Any] = {"systems": [s.to_data() for s in chosen]}

    def text() -> str:
        lines = []
        for d in data["systems"]:
            lines.append(f"{d['name']}: {d['title']} ({', '.join(d['map_kinds'])} maps; {d['doc']})")
            lines.append(f"  order keys: {', '.join(d['order_keys'])}")
            lines.extend(f"  option {key}: {what}" for key, what in d["options"].items())
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK
