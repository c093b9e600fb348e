"""Tools never see a window: every tool module (the grid tools, the
territory editor's, and every module of a rules system's UI that defines a
tool class) works through its tool context (``app/gui/tools/context.py``).

Read from the source (no import): a tool module neither imports an editor
window module, nor names a window class, nor reaches through an attribute
called ``w`` or ``window``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUI = ROOT / "app" / "gui"
WINDOW_MODULES = ("main_window", "territory.window", "editor_window", "window_recovery")
WINDOW_ATTRIBUTES = {"w", "window", "window_"}


def _defines_tool(tree: ast.Module) -> bool:
    def base_name(b: ast.expr) -> str:
        return b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else ""

    return any(isinstance(n, ast.ClassDef) and any(base_name(b).endswith("Tool") for b in n.bases)
               for n in ast.walk(tree))


def tool_modules() -> list[Path]:
    found = sorted((GUI / "tools").glob("*.py")) + sorted((GUI / "territory" / "tools").glob("*.py"))
    found += [p for p in sorted((GUI / "systems").rglob("*.py")) if _defines_tool(ast.parse(p.read_text()))]
    return found


def problems(text: str, where: str) -> list[str]:
    """Each place the module ``text`` (named ``where``) sees a window, as
    ``where:line: what``."""
    tree = ast.parse(text)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = ("." * node.level) + (node.module or "")
            names = [a.name for a in node.names]
            if any(module.endswith(m) for m in WINDOW_MODULES) or any(n.endswith("Window") for n in names):
                out.append(f"{where}:{node.lineno}: imports {module} {names}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if any(a.name.endswith(m) for m in WINDOW_MODULES):
                    out.append(f"{where}:{node.lineno}: imports {a.name}")
        elif isinstance(node, ast.Name) and node.id.endswith("Window"):
            out.append(f"{where}:{node.lineno}: names {node.id}")
        elif isinstance(node, ast.Attribute) and (node.attr in WINDOW_ATTRIBUTES or node.attr.endswith("Window")):
            out.append(f"{where}:{node.lineno}: reaches through .{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith("Window") \
                and node.value.isidentifier():
            out.append(f"{where}:{node.lineno}: names {node.value} in a string annotation")
    return out


def test_the_tool_modules_are_found() -> None:
    names = {p.relative_to(GUI).as_posix() for p in tool_modules()}
    assert {"tools/paint.py", "territory/tools/paint.py", "territory/tools/preview.py",
            "systems/rail_options/tools.py", "systems/rail_options/pieces.py",
            "systems/railroads/tools.py"} <= names


def test_no_tool_module_sees_a_window() -> None:
    found = [p for path in tool_modules() for p in problems(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == []


def test_the_check_finds_each_way_to_a_window() -> None:
    sample = ("from ..territory.window import TerritoryWindow\n"
              "class T(Tool):\n"
              "    def f(self, x: 'MainWindow') -> None:\n"
              "        self.w.say('x')\n"
              "        self.window.statusBar()\n")
    assert _defines_tool(ast.parse(sample))
    found = problems(sample, "probe.py")
    assert [f.split(": ", 1)[1] for f in found if "imports" in f] == ["imports ..territory.window ['TerritoryWindow']"]
    assert sum("reaches through .w" == f.split(": ", 1)[1] for f in found) == 1
    assert sum("reaches through .window" == f.split(": ", 1)[1] for f in found) == 1
    assert any("MainWindow in a string annotation" in f for f in found)


WINDOW_NAMES = {"window", "window_", "win", "w", "host"}
"""What a module outside the window classes calls the window it is given."""
WINDOW_CLASS_MODULES = {"main_window.py", "territory/window.py", "editor_window.py", "window_recovery.py"}


def window_probes(text: str, where: str) -> list[str]:
    """Each place module ``text`` sets an attribute on a window it was
    given (``window.x = ...``) or asks ``getattr``/``hasattr``/``setattr``
    of one."""
    out: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in WINDOW_NAMES:
                    out.append(f"{where}:{node.lineno}: sets {t.value.id}.{t.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr", "setattr") and node.args:
            a = node.args[0]
            if isinstance(a, ast.Name) and a.id in WINDOW_NAMES:
                out.append(f"{where}:{node.lineno}: {node.func.id}({a.id}, ...)")
    return out


def test_no_module_sets_or_probes_attributes_on_a_window() -> None:
    """The game (app/gui/game.py: GameUI), the orders plan, the set-up
    check and the rules systems' parts are objects the window owns and
    declares; none of them sets attributes on the window or asks whether it
    has one."""
    found = []
    for path in sorted(GUI.rglob("*.py")):
        rel = path.relative_to(GUI).as_posix()
        if rel not in WINDOW_CLASS_MODULES:
            found += window_probes(path.read_text(), rel)
    assert found == []


def test_the_probe_check_finds_them() -> None:
    sample = ("def install(window):\n"
              "    window.game_menu = 1\n"
              "    getattr(window, 'combat_panel', None)\n"
              "    window.document.turns = 2\n")
    assert window_probes(sample, "x.py") == ["x.py:2: sets window.game_menu", "x.py:3: getattr(window, ...)"]
