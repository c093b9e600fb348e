"""Rules systems, one module or package each, behind one interface.

:mod:`engine.rules.base` is the interface (:class:`~engine.rules.base.RulesSystem`,
verdicts, reversible records) and the generic option reader
(:func:`~engine.rules.base.read_options`); :mod:`engine.rules.registry`
finds the systems by name or map kind.  Each system reads only the model
(:mod:`engine.model`, :mod:`engine.territory.model`) and returns results
as values.  This package imports nothing on its own: the registry imports
the systems the first time it is asked.  How to add one:
``docs/developing.md`` ("How to add a rules system").
"""
