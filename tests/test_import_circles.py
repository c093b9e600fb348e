"""No import circle at run time in ``engine/`` or ``app/``.

The graph: one node per module of the two packages; an edge from a module
to each module of the two packages it imports at run time.  What counts:

* every import statement counts, at module level (including those inside
  ``try``, ``if``, ``with`` and class bodies) and inside function bodies:
  a function's import runs too, later, and a module that reaches back up
  through one is as tied to its caller as through a module-level import;
* imports inside an ``if TYPE_CHECKING:`` block do not (they never run:
  annotations are strings under ``from __future__ import annotations``);
* ``from package import name`` is an edge to ``package.name`` when that is a
  module, else to ``package``; an import of ``a.b.c`` is an edge to ``a.b.c``
  only (its parent packages' ``__init__`` run too, but a package importing
  its own submodules is not a circle of modules).

Any strongly connected set of two or more modules fails the test, naming
one circle through it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "app")


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _run_time_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run, when the module is imported or when
    one of its functions is called (all but ``if TYPE_CHECKING:`` blocks)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse)
            else:
                for child in ast.iter_child_nodes(node):
                    if isinstance(child, ast.stmt):
                        visit([child])
                    elif isinstance(child, ast.excepthandler):
                        visit(child.body)
                    elif hasattr(ast, "match_case") and isinstance(child, ast.match_case):
                        visit(child.body)

    visit(tree.body)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of ``engine`` and ``app`` with the modules of the two it imports at run time."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _run_time_imports(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = name.split(".") if is_pkg else name.split(".")[:-1]
                    base = base[:len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
            for t in targets:
                if t in modules and t != name:
                    graph[name].add(t)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (a list of modules, the first repeated at the end) per
    strongly connected set of modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    sccs: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    scc = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        scc.append(w)
                        if w == v:
                            break
                    if len(scc) > 1:
                        sccs.append(sorted(scc))
    return [_one_circle(graph, set(scc)) for scc in sccs]


def _one_circle(graph: dict[str, set[str]], scc: set[str]) -> list[str]:
    """A shortest circle through the first module of ``scc`` (breadth first)."""
    start = min(scc)
    prev: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & scc):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return list(reversed(path)) + [start]
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return sorted(scc)


def test_the_graph_sees_the_packages() -> None:
    graph = import_graph()
    assert "engine.rules.base" in graph and "app.gui.main_window" in graph
    assert "engine.model" in graph["engine.rules.base"]


def test_a_circle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_type_checking_imports_do_not_count() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\n"
                     "def f():\n    import y\nclass C:\n    import z\ntry:\n    import w\nexcept ImportError:\n"
                     "    import v\n")
    names = sorted(a.name for n in _run_time_imports(tree) if isinstance(n, ast.Import) for a in n.names)
    assert names == ["v", "w", "y", "z"]


def test_no_run_time_import_circle() -> None:
    found = circles(import_graph())
    assert not found, "run-time import circles:\n" + "\n".join(" -> ".join(c) for c in found)
