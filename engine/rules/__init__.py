"""Rules systems, one module or package each.  Each reads only the model
(:mod:`engine.model`) and returns results as values."""
