"""Adjutant's application layer: the command line (:mod:`app.cli`) and the Qt
editor (:mod:`app.gui`).  Importing this package does not import Qt."""
