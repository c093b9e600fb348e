"""Run every benchmark in turn: ``python -m bench [NAME ...]``.

Discovers each ``bench/<name>.py`` (not starting with ``_``) that defines a
top-level ``main()`` (read from its source, so nothing is imported here) and
runs it as ``python -m bench.<name>`` in a child process of its own, so one
benchmark's memory, Qt application or crash does not affect the next.
``--list`` prints the names.  A benchmark's non-zero exit (several exit 1
when a figure misses its target, any exits non-zero on an error) is listed
at the end; this runner then exits 1.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover() -> list[str]:
    """Names of the benchmark modules that define ``main()``, sorted."""
    names = []
    for path in sorted(HERE.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == "main" for n in tree.body):
            names.append(path.stem)
    return names


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    names = discover()
    if "--list" in args:
        print("\n".join(names))
        return 0
    unknown = [a for a in args if a not in names]
    if unknown:
        print(f"python -m bench: no benchmark named {', '.join(unknown)} (benchmarks: {', '.join(names)})",
              file=sys.stderr)
        return 2
    chosen = args or names
    failed = []
    for name in chosen:
        print(f"=== bench.{name} ===", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, "-m", f"bench.{name}"], cwd=HERE.parent)
        print(f"=== bench.{name}: {'ok' if rc == 0 else f'exit {rc}'} in {time.perf_counter() - t0:.1f} s ===\n",
              flush=True)
        if rc != 0:
            failed.append(name)
    if failed:
        print(f"non-zero exit (a target missed or an error; see above): {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
