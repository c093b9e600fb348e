"""The Qt editor.  Imports PySide6; nothing in :mod:`engine` imports this."""
