"""``adjutant rules [NAME]``: the rules systems the registry knows, each with
the map kinds it plays on, its options (and what each accepts) and the keys
of its orders (``engine/rules/registry.py``; ``docs/developing.md``, "How
to add a rules system")."""

from __future__ import annotations

import argparse
from typing import Any

from .common import EXIT_OK, add_json_flag, emit

COMMANDS = {
    "rules": "list the rules systems (built in and plugins): map kinds, options, order keys, origin",
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

    if args.name:
        chosen = [registry.get(args.name)]  # a plugin is imported when named
        offered = [p for p in registry.plugins() if p.name == args.name]
    else:
        chosen = registry.systems(load_plugins=False)  # plugins are listed, not imported
        offered = [p for p in registry.plugins() if p.state != "loaded" or p.name not in {s.name for s in chosen}]
    data: dict[str, Any] = {"systems": [dict(s.to_data(), origin=registry.origin(s)) for s in chosen],
                            "plugins": [p.to_data() for p in registry.plugins()
                                        if not args.name or p.name == args.name]}

    def text() -> str:
        lines = []
        for d in data["systems"]:
            where = "" if d["origin"] == "built-in" else f"; {d['origin']}"
            lines.append(f"{d['name']}: {d['title']} ({', '.join(d['map_kinds'])} maps; {d['doc']}{where})")
            lines.append(f"  order keys: {', '.join(d['order_keys'])}")
            lines.extend(f"  option {key}: {what}" for key, what in d["options"].items())
        for p in offered:
            if p.state == "loaded" and any(d["name"] == p.name for d in data["systems"]):
                continue
            why = f": {p.reason}" if p.reason else " (imported when used)"
            lines.append(f"{p.name}: {p.origin}, {p.state.upper() if p.state == 'broken' else p.state}{why}")
        return "\n".join(lines)

    emit(args, data, text)
    return EXIT_OK
