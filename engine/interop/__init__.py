"""Other programs' map formats: Tiled (:mod:`engine.interop.tiled`)."""
