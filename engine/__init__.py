"""Adjutant's engine: grids, labels, the scenario model and the rules.

Pure Python: it never imports Qt, pyqtgraph or :mod:`app` (an import-linter
contract in ``pyproject.toml`` and a test keep it so).
"""

__version__ = "0.1.0"
