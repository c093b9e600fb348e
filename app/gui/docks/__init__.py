"""The editor's dock widgets: tool palette, layers, units, inspector, and
the undo history (:mod:`app.gui.docks.history`, whose cost per edit does not
grow with the history)."""
