"""Benchmarks: each ``bench/<name>.py`` with a ``main()`` prints median and
95th percentile beside its targets.  Run one with ``python -m bench.<name>``,
all of them in turn with ``python -m bench``."""
