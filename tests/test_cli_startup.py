"""A command imports only its own module (issue 19, start-up): every command
module's ``COMMANDS`` literal names exactly the parsers its ``register``
adds, with the same help, so ``adjutant --help`` can list them without
importing any; and a run imports only the module of its command
(``app/cli/__init__.py``).  Timing lives in ``bench/cli_startup.py``."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import build_parser, command_modules, declared_commands

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("scipy", "networkx", "shapely", "numpy", "PySide6")


def _choices(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    action = parser._subparsers._group_actions[0]  # type: ignore[union-attr]
    helps = {a.dest: a.help for a in action._choices_actions}  # type: ignore[attr-defined]
    return {name: helps.get(name) for name in action.choices}  # type: ignore[union-attr]


@pytest.mark.parametrize("name", [n for n, _ in command_modules()])
def test_commands_literal_matches_register(name: str) -> None:
    declared = declared_commands(str(ROOT / "app" / "cli" / f"{name}.py"))
    assert declared is not None, f"app/cli/{name}.py has no COMMANDS literal: every run would import it"
    module = importlib.import_module(f"app.cli.{name}")
    parser = argparse.ArgumentParser()
    module.register(parser.add_subparsers())
    assert _choices(parser) == declared
    assert module.COMMANDS == declared


def test_lazy_parser_lists_the_same_commands_as_the_full_one() -> None:
    full = _choices(build_parser())
    assert _choices(build_parser(None, lazy=True)) == full
    for command in full:
        assert _choices(build_parser(command, lazy=True)) == full


def test_declared_commands_rejects_what_it_cannot_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("COMMANDS = {'x': HELP}\n", encoding="utf-8")
    with pytest.raises(SyntaxError, match="COMMANDS must be a literal dict"):
        declared_commands(str(bad))
    none = tmp_path / "none.py"
    none.write_text("def register(sub):\n    pass\n", encoding="utf-8")
    assert declared_commands(str(none)) is None


def _modules_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             "print(__import__('json').dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_help_imports_no_command_module_and_no_engine() -> None:
    loaded = _modules_after("from app.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert [m for m in loaded if m.startswith("app.cli.") and m != "app.cli.common"] == []
    assert [m for m in loaded if m.split(".")[0] in (*HEAVY, "engine")] == []


def test_validate_imports_only_its_own_command_module() -> None:
    sample = ROOT / "maps" / "acw_short_campaign.json"
    loaded = _modules_after(f"from app.cli import main\nassert main(['validate', {str(sample)!r}]) == 0")
    assert [m for m in loaded if m.startswith("app.cli.")] == ["app.cli.common", "app.cli.validate"]
    assert "scipy" not in loaded and "PySide6" not in loaded
    # a grid file needs neither the territory model nor the other rules systems
    assert "networkx" not in loaded and "shapely" not in loaded
    systems = {m.split(".")[2] for m in loaded if m.startswith("engine.rules.") and m.count(".") >= 2}
    assert systems - {"base", "registry"} == {"acw"}


def test_a_command_starts_numpy_with_one_blas_thread() -> None:
    """OpenBLAS starts one thread per core at ``import numpy`` (~50 ms of
    CPU here) unless told otherwise; a command tells it one, a value the
    user set is kept."""
    probe = ("import os, sys\nfrom app.cli import main\nmain(['validate', {sample!r}])\n"
             "print(os.environ.get('OPENBLAS_NUM_THREADS'))")
    sample = str(ROOT / "maps" / "acw_short_campaign.json")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", probe.format(sample=sample)], capture_output=True, text=True,
                         cwd=ROOT, env=env, check=True)
    assert out.stdout.strip().splitlines()[-1] == "1"
    out = subprocess.run([sys.executable, "-c", probe.format(sample=sample)], capture_output=True, text=True,
                         cwd=ROOT, env={**env, "OPENBLAS_NUM_THREADS": "2"}, check=True)
    assert out.stdout.strip().splitlines()[-1] == "2"
