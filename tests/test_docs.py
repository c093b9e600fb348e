"""The documentation names every command the CLI offers."""

from __future__ import annotations

from pathlib import Path

from app.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent


def test_every_command_is_documented_in_docs_cli() -> None:
    parser = build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = sorted(c for c in commands if f"`adjutant {c}" not in text)
    assert not missing, f"docs/cli.md does not describe: {missing}"


def test_docs_links_point_at_files_that_exist() -> None:
    import re

    broken = []
    for md in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", md.read_text(encoding="utf-8")):
            if not (md.parent / target).exists():
                broken.append(f"{md.relative_to(ROOT)} -> {target}")
    assert not broken, broken
