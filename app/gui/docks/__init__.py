"""The editor's dock widgets: tool palette, layers, units, inspector (the
undo history is a plain :class:`QUndoView`)."""
