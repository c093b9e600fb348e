"""The engine must never need Qt: import every engine module in a fresh
interpreter in which PySide6, shiboken6, pyqtgraph and app cannot be imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import importlib, pkgutil, sys

class Block:
    BLOCKED = ("PySide6", "shiboken6", "pyqtgraph", "app")
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.BLOCKED:
            raise ImportError(f"blocked in this test: {name}")
        return None

sys.meta_path.insert(0, Block())
import engine
names = ["engine"]
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    names.append(info.name)
for n in names:
    importlib.import_module(n)
leaked = [m for m in sys.modules if m.split(".")[0] in Block.BLOCKED]
assert not leaked, leaked
print(len(names))
"""


def test_engine_imports_without_qt() -> None:
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.strip()) >= 5


def test_no_qt_import_statements_in_engine() -> None:
    import ast

    bad = []
    for f in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph", "app"):
                    bad.append(f"{f.relative_to(ROOT)}:{node.lineno} imports {n}")
    assert not bad, bad
