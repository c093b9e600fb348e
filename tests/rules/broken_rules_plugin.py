"""A rules-system plugin that fails on import (tests/rules/test_plugins.py)."""

raise RuntimeError("this plugin is broken on purpose")
